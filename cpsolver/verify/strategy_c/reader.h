/*
 * A strategy proof's text, read for the compiled checker: its nodes, and where they stand.
 *
 * Part of cpsolver/verify/_strategy.c. It reads the text the way proofs are
 * written, and nothing else: every node of the schema's shape with its plays
 * spelled out (cards, kind and rank), card notation in the canonical symbols,
 * plain ASCII strings, whole numbers of at most nine digits. Anything else,
 * valid JSON or not, is refused (0) and left to the Python checker, which says
 * exactly what is wrong or walks it the slow way. So this reader must never
 * accept what json.loads and the Python checker would read otherwise; it may
 * refuse what they accept.
 *
 * The header (every top-level key but "nodes") is only stepped over here: the
 * caller has json.loads read it, with the nodes spliced out, so the header
 * meets the reading layer's checks and the schema exactly as before.
 */
#ifndef CPSOLVER_CHECKER_READER_H
#define CPSOLVER_CHECKER_READER_H

#include <string.h>

#define NO_NEXT (-1)
#define NO_KIND (-1)
#define MAX_SKIP_DEPTH 64 /* the reading layer's MAX_DEPTH: deeper text goes to it */

enum { CHOICE_MOVE, CHOICE_SPRING, CHOICE_REPLIES };

/* A move or a spring step as written: its cards, kind and rank (a pass: kind NO_KIND). */
typedef struct {
    u64 cards;
    int32_t next; /* the node it leads to; NO_NEXT for null (and for spring steps) */
    int8_t kind, rank;
} Step;

typedef struct {
    u64 hands[3];
    u64 table_cards;
    int32_t turn, by, first, steps; /* first: index of its first step */
    int8_t players, choice, table_kind, table_rank; /* table_kind NO_KIND: no table */
} Node;

typedef struct {
    Node *nodes;
    size_t count, cap;
    Step *steps;
    size_t step_count, step_cap;
} Read;

typedef struct {
    const unsigned char *s;
    size_t n, i;
} Text;

static const char *const KIND_NAMES[] = {
    "single", "pair", "triplet", "triplet_single", "triplet_pair", "sequence", "pair_sequence",
    "triplet_sequence", "triplet_sequence_singles", "triplet_sequence_pairs", "bomb", "rocket", "quadplex",
};
#define KIND_COUNT ((int)(sizeof KIND_NAMES / sizeof *KIND_NAMES))
#define KIND_BOMB 10 /* KIND_NAMES[10] */
static const char SYMBOLS[] = "3456789TJQKA2BR";

static void space(Text *t) {
    while (t->i < t->n) {
        unsigned char c = t->s[t->i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
        t->i++;
    }
}

static int eat(Text *t, char c) {
    space(t);
    if (t->i < t->n && t->s[t->i] == (unsigned char)c) {
        t->i++;
        return 1;
    }
    return 0;
}

/* A string of printable ASCII without escapes; *at and *len give its contents. */
static int plain(Text *t, const char **at, size_t *len) {
    if (!eat(t, '"')) return 0;
    size_t start = t->i;
    while (t->i < t->n) {
        unsigned char c = t->s[t->i];
        if (c == '"') {
            *at = (const char *)t->s + start;
            *len = t->i - start;
            t->i++;
            return 1;
        }
        if (c == '\\' || c < 0x20 || c >= 0x80) return 0;
        t->i++;
    }
    return 0;
}

static int is(const char *at, size_t len, const char *word) { return len == strlen(word) && !memcmp(at, word, len); }

/* A whole number of one to nine digits, as JSON writes it (no leading zero); nothing may
 * follow it but what ends a value, so 1.0 and 1e3 are refused. */
static int whole(Text *t, int32_t *out) {
    space(t);
    size_t start = t->i;
    int32_t value = 0;
    while (t->i < t->n && t->s[t->i] >= '0' && t->s[t->i] <= '9' && t->i - start < 10)
        value = value * 10 + (t->s[t->i++] - '0');
    size_t digits = t->i - start;
    if (!digits || digits > 9 || (digits > 1 && t->s[start] == '0')) return 0;
    *out = value;
    return 1;
}

static int null(Text *t) {
    space(t);
    if (t->n - t->i >= 4 && !memcmp(t->s + t->i, "null", 4)) {
        t->i += 4;
        return 1;
    }
    return 0;
}

/* Cards in the canonical symbols alone, as a hand (at most four of a rank, one of a joker).
 * A B or R before a J is refused: the notation reads BJ and RJ as jokers. */
static int cards_of(const char *at, size_t len, u64 *out) {
    u64 hand = 0;
    for (size_t i = 0; i < len; i++) {
        const char *found = memchr(SYMBOLS, at[i], RANKS);
        if (!found || !at[i]) return 0;
        int rank = (int)(found - SYMBOLS);
        if ((rank == BLACK || rank == RED) && i + 1 < len && at[i + 1] == 'J') return 0;
        if (count_of(hand, rank) == (rank >= BLACK ? 1 : 4)) return 0;
        hand += (u64)1 << (4 * rank);
    }
    *out = hand;
    return 1;
}

static int kind_of(const char *at, size_t len) {
    for (int k = 0; k < KIND_COUNT; k++)
        if (is(at, len, KIND_NAMES[k])) return k;
    return NO_KIND;
}

static int rank_of(const char *at, size_t len) {
    const char *found = len == 1 && at[0] ? memchr(SYMBOLS, at[0], RANKS) : NULL;
    return found ? (int)(found - SYMBOLS) : -1;
}

/* The fields of a move, table or spring step: which were met, and their values. */
enum { HAS_CARDS = 1, HAS_KIND = 2, HAS_RANK = 4, HAS_NEXT = 8, HAS_BY = 16, IS_PASS = 32 };
typedef struct {
    int has;
    u64 cards;
    int kind, rank;
    int32_t next, by;
} Fields;

/* An object of a play's fields; `allowed` says which keys may appear (each once). */
static int fields(Text *t, int allowed, Fields *f) {
    f->has = 0;
    if (!eat(t, '{')) return 0;
    do {
        const char *key, *at;
        size_t keylen, len;
        if (!plain(t, &key, &keylen) || !eat(t, ':')) return 0;
        int field = is(key, keylen, "cards") ? HAS_CARDS
                    : is(key, keylen, "kind") ? HAS_KIND
                    : is(key, keylen, "rank") ? HAS_RANK
                    : is(key, keylen, "next") ? HAS_NEXT
                    : is(key, keylen, "by")   ? HAS_BY
                                              : 0;
        if (!(field & allowed) || (f->has & field)) return 0;
        f->has |= field;
        if (field == HAS_NEXT) {
            if (null(t))
                f->next = NO_NEXT;
            else if (!whole(t, &f->next))
                return 0;
        } else if (field == HAS_BY) {
            if (!whole(t, &f->by)) return 0;
        } else {
            if (!plain(t, &at, &len)) return 0;
            if (field == HAS_KIND && (f->kind = kind_of(at, len)) == NO_KIND) return 0;
            if (field == HAS_RANK && (f->rank = rank_of(at, len)) < 0) return 0;
            if (field == HAS_CARDS) {
                if (is(at, len, "pass"))
                    f->has |= IS_PASS;
                else if (!len || !cards_of(at, len, &f->cards))
                    return 0;
            }
        }
    } while (eat(t, ','));
    if (!eat(t, '}')) return 0;
    /* A play names its kind and rank; a pass names neither. */
    int spelled = HAS_CARDS | HAS_KIND | HAS_RANK;
    if (f->has & IS_PASS) return (f->has & spelled) == HAS_CARDS;
    return (f->has & spelled) == spelled;
}

static int step_add(Read *r, const Fields *f) {
    if (room_for((void **)&r->steps, &r->step_cap, r->step_count + 1, sizeof(Step))) return -1;
    Step *s = &r->steps[r->step_count++];
    int pass = (f->has & IS_PASS) != 0;
    s->cards = pass ? 0 : f->cards;
    s->kind = (int8_t)(pass ? NO_KIND : f->kind);
    s->rank = (int8_t)(pass ? 0 : f->rank);
    s->next = (f->has & HAS_NEXT) ? f->next : NO_NEXT;
    return 0;
}

/* A list of one or more moves (`allowed` HAS_NEXT) or spring steps; -1 out of memory. */
static int steps(Text *t, Read *r, int allowed) {
    if (!eat(t, '[')) return 0;
    do {
        Fields f;
        if (!fields(t, HAS_CARDS | HAS_KIND | HAS_RANK | allowed, &f)) return 0;
        if ((f.has & HAS_NEXT) != allowed || ((f.has & IS_PASS) && !allowed)) return 0;
        if (step_add(r, &f)) return -1;
    } while (eat(t, ','));
    return eat(t, ']');
}

enum { HAS_HANDS = 1, HAS_TURN = 2, HAS_TABLE = 4, HAS_CHOICE = 8 };

/* One node: hands, turn, table and one of move, spring, replies; 1 read, 0 refused, -1 out of memory. */
static int node(Text *t, Read *r, Node *n) {
    int has = 0;
    n->first = (int32_t)r->step_count;
    n->table_kind = NO_KIND;
    n->by = -1;
    if (!eat(t, '{')) return 0;
    do {
        const char *key, *at;
        size_t keylen, len;
        if (!plain(t, &key, &keylen) || !eat(t, ':')) return 0;
        int field = is(key, keylen, "hands") ? HAS_HANDS
                    : is(key, keylen, "turn") ? HAS_TURN
                    : is(key, keylen, "table") ? HAS_TABLE
                    : (is(key, keylen, "move") || is(key, keylen, "spring") || is(key, keylen, "replies")) ? HAS_CHOICE
                                                                                                          : 0;
        if (!field || (has & field)) return 0;
        has |= field;
        if (field == HAS_HANDS) {
            if (!eat(t, '[')) return 0;
            int players = 0;
            do {
                if (players == 3 || !plain(t, &at, &len) || !cards_of(at, len, &n->hands[players])) return 0;
                players++;
            } while (eat(t, ','));
            if (players < 2 || !eat(t, ']')) return 0;
            n->players = (int8_t)players;
        } else if (field == HAS_TURN) {
            if (!whole(t, &n->turn)) return 0;
        } else if (field == HAS_TABLE) {
            if (null(t)) continue;
            Fields f;
            int all = HAS_CARDS | HAS_KIND | HAS_RANK | HAS_BY;
            if (!fields(t, all, &f) || (f.has & (all | IS_PASS)) != all) return 0;
            n->table_cards = f.cards;
            n->table_kind = (int8_t)f.kind;
            n->table_rank = (int8_t)f.rank;
            n->by = f.by;
        } else if (is(key, keylen, "move")) {
            Fields f;
            n->choice = CHOICE_MOVE;
            if (!fields(t, HAS_CARDS | HAS_KIND | HAS_RANK | HAS_NEXT, &f) || !(f.has & HAS_NEXT)) return 0;
            if (step_add(r, &f)) return -1;
        } else {
            n->choice = is(key, keylen, "spring") ? CHOICE_SPRING : CHOICE_REPLIES;
            int read = steps(t, r, n->choice == CHOICE_REPLIES ? HAS_NEXT : 0);
            if (read <= 0) return read;
        }
    } while (eat(t, ','));
    if (!eat(t, '}') || has != (HAS_HANDS | HAS_TURN | HAS_TABLE | HAS_CHOICE)) return 0;
    n->steps = (int32_t)(r->step_count - (size_t)n->first);
    return 1;
}

static int nodes(Text *t, Read *r) {
    if (!eat(t, '[')) return 0;
    do {
        if (room_for((void **)&r->nodes, &r->cap, r->count + 1, sizeof(Node))) return -1;
        int read = node(t, r, &r->nodes[r->count]);
        if (read <= 0) return read;
        r->count++;
    } while (eat(t, ','));
    return eat(t, ']');
}

/* Step over any string, escapes included (json.loads checks them later). */
static int skip_string(Text *t) {
    if (!eat(t, '"')) return 0;
    while (t->i < t->n) {
        unsigned char c = t->s[t->i++];
        if (c == '"') return 1;
        if (c == '\\') t->i++;
    }
    return 0;
}

/* Step over one JSON value of the header. It need not check what it steps over, as
 * json.loads reads the header afterwards; it must only find where each value ends. */
static int skip_value(Text *t, int depth) {
    space(t);
    if (t->i >= t->n || depth > MAX_SKIP_DEPTH) return 0;
    unsigned char c = t->s[t->i];
    if (c == '"') return skip_string(t);
    if (c == '{' || c == '[') {
        t->i++;
        char close = c == '{' ? '}' : ']';
        if (eat(t, close)) return 1;
        do {
            if (c == '{' && (!skip_string(t) || !eat(t, ':'))) return 0;
            if (!skip_value(t, depth + 1)) return 0;
        } while (eat(t, ','));
        return eat(t, close);
    }
    size_t start = t->i;
    while (t->i < t->n && !strchr(",]} \t\r\n", t->s[t->i])) t->i++;
    return t->i > start;
}

/* The whole document: a top-level object with one "nodes" key, read into `r`; its value
 * spans [*start, *end). 1 read, 0 refused, -1 out of memory. */
static int document(Text *t, Read *r, size_t *start, size_t *end) {
    int found = 0;
    if (!eat(t, '{')) return 0;
    do {
        const char *key;
        size_t keylen;
        /* A key with an escape may spell "nodes" too: refused, as is any non-ASCII one. */
        if (!plain(t, &key, &keylen) || !eat(t, ':')) return 0;
        if (is(key, keylen, "nodes")) {
            if (found) return 0;
            found = 1;
            space(t);
            *start = t->i;
            int read = nodes(t, r);
            if (read <= 0) return read;
            *end = t->i;
        } else if (!skip_value(t, 2)) {
            return 0;
        }
    } while (eat(t, ','));
    if (!eat(t, '}')) return 0;
    space(t);
    return found && t->i == t->n;
}

#endif
