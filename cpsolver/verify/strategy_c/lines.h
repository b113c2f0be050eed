/*
 * A strategy proof read a line at a time, as it is written: the compiled checker's way to a
 * proof of gigabytes without its text in memory.
 *
 * Part of cpsolver/verify/_strategy.c, after reader.h. A proof as `endgame --proof` writes
 * it holds its header first, then a line `"nodes": [`, then one node a line, each but the
 * last ending in a comma, then a line that begins with `]`, then the rest of the header. The
 * text arrives in pieces of any size (a line may begin in one and end in a later one); each
 * node line is read into the same arrays reader.h fills, and only the header's text is kept,
 * with the nodes replaced by [{}], for json.loads and the schema. Anything not of that shape
 * is refused (0), and the caller reads the whole text the usual way: this never accepts what
 * reader.h would refuse.
 */
#ifndef CPSOLVER_CHECKER_LINES_H
#define CPSOLVER_CHECKER_LINES_H

/* FEED_DONE (0, as a zeroed Feed is): nothing more to read, the nodes whole. */
enum { FEED_DONE, FEED_HEAD, FEED_NODES, FEED_TAIL, FEED_REFUSED };

typedef struct {
    int mode;
    int comma;          /* the last node line ended with a comma */
    char *head;         /* the header: the text but the nodes, [{}] in their place */
    size_t head_len, head_cap;
    size_t splice;      /* where [{}] begins in head */
    char *line;         /* a line begun in an earlier piece */
    size_t line_len, line_cap;
} Feed;

static int append(char **data, size_t *len, size_t *cap, const char *s, size_t n) {
    if (room_for((void **)data, cap, *len + n, 1)) return -1;
    memcpy(*data + *len, s, n);
    *len += n;
    return 0;
}

static int blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* One whole line, its newline left out: 1 read, 0 refused, -1 out of memory. */
static int feed_line(Feed *f, Read *r, const char *s, size_t n) {
    size_t from = 0, to = n;
    while (from < to && blank(s[from])) from++;
    while (to > from && blank(s[to - 1])) to--;
    static const char opening[] = "\"nodes\": [";
    const size_t opened = sizeof opening - 1;
    if (f->mode == FEED_HEAD && to - from == opened && !memcmp(s + from, opening, opened)) {
        if (append(&f->head, &f->head_len, &f->head_cap, s, from + opened - 1)) return -1;
        f->splice = f->head_len;
        f->mode = FEED_NODES;
        return append(&f->head, &f->head_len, &f->head_cap, "[{}]", 4) ? -1 : 1;
    }
    if (f->mode != FEED_NODES) /* the header, before the nodes or after them */
        return append(&f->head, &f->head_len, &f->head_cap, s, n) || append(&f->head, &f->head_len, &f->head_cap, "\n", 1) ? -1 : 1;
    if (from < to && s[from] == ']') { /* the nodes end: at least one, no comma after the last */
        if (!r->count || f->comma) return 0;
        f->mode = FEED_TAIL;
        return append(&f->head, &f->head_len, &f->head_cap, s + from + 1, n - from - 1) ||
                       append(&f->head, &f->head_len, &f->head_cap, "\n", 1)
                   ? -1
                   : 1;
    }
    if (r->count && !f->comma) return 0; /* a node after one that ended without a comma */
    if (room_for((void **)&r->nodes, &r->cap, r->count + 1, sizeof(Node))) return -1;
    Text t = {(const unsigned char *)s + from, to - from, 0};
    int read = node(&t, r, &r->nodes[r->count]);
    if (read <= 0) return read;
    r->count++;
    f->comma = eat(&t, ',');
    space(&t);
    return t.i == t.n;
}

/* A piece of the text: every line it ends is read, the rest kept for the next piece. */
static int feed(Feed *f, Read *r, const char *s, size_t n) {
    if (f->mode == FEED_REFUSED || f->mode == FEED_DONE) return 0;
    size_t at = 0;
    int read = 1;
    while (read == 1 && at < n) {
        const char *end = memchr(s + at, '\n', n - at);
        size_t length = end ? (size_t)(end - (s + at)) : n - at;
        if (!end) { /* the piece ends mid-line: kept for the next */
            if (append(&f->line, &f->line_len, &f->line_cap, s + at, length)) return -1;
            break;
        }
        if (f->line_len) {
            if (append(&f->line, &f->line_len, &f->line_cap, s + at, length)) return -1;
            read = feed_line(f, r, f->line, f->line_len);
            f->line_len = 0;
        } else {
            read = feed_line(f, r, s + at, length);
        }
        at += length + 1;
    }
    if (read == 0) f->mode = FEED_REFUSED;
    return read;
}

/* The header as document() reads a whole text, the stand-in [{}] the value of its one
 * top-level "nodes" key: a "nodes": [ line inside another value is refused. */
static int spliced_header(const Feed *f) {
    Text t = {(const unsigned char *)f->head, f->head_len, 0};
    int found = 0;
    if (!eat(&t, '{')) return 0;
    do {
        const char *key;
        size_t keylen;
        if (!plain(&t, &key, &keylen) || !eat(&t, ':')) return 0;
        if (is(key, keylen, "nodes")) {
            space(&t);
            if (found || t.i != f->splice) return 0;
            found = 1;
            t.i += 4; /* [{}] */
        } else if (!skip_value(&t, 2)) {
            return 0;
        }
    } while (eat(&t, ','));
    if (!eat(&t, '}')) return 0;
    space(&t);
    return found && t.i == t.n;
}

/* The last line, and the whole read: 1 read, 0 refused, -1 out of memory. */
static int feed_end(Feed *f, Read *r) {
    if (f->mode != FEED_REFUSED && f->line_len) {
        int read = feed_line(f, r, f->line, f->line_len);
        f->line_len = 0;
        if (read <= 0) return read;
    }
    return f->mode == FEED_TAIL && spliced_header(f);
}

/* The header and line buffers freed; the mode left as it is. */
static void feed_free(Feed *f) {
    free(f->head);
    free(f->line);
    f->head = f->line = NULL;
    f->head_len = f->head_cap = f->line_len = f->line_cap = 0;
}

#endif
