/*
 * A strategy proof's nodes written as JSON text in C, one node a line.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c (see strategy.h). The walk is
 * strategy.h's; this is its second sink. How a hand and a play are spelled stays in
 * Python: endgame/proof.py gives the ranks' symbols, which spell a hand here, and a
 * callable that spells a play, asked once per distinct play and remembered here. The
 * text is the one proof.py writes from the rows, with none of the rows' millions of
 * Python objects in between.
 */
#ifndef CPSOLVER_CORE_PROOF_H
#define CPSOLVER_CORE_PROOF_H

typedef struct {
    char *data;
    size_t len, cap;
} Text;

static int text_add(Text *t, const char *s, size_t n) {
    if (t->len + n > t->cap) {
        size_t cap = t->cap ? t->cap : 65536;
        while (cap < t->len + n) cap *= 2;
        char *data = realloc(t->data, cap);
        if (!data) return PyErr_NoMemory(), -1;
        t->data = data;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    return 0;
}

static int text_str(Text *t, const char *s) { return text_add(t, s, strlen(s)); }

static int text_int(Text *t, long long v) {
    char digits[24];
    int n = sizeof digits;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do digits[--n] = (char)('0' + u % 10); while (u /= 10);
    if (v < 0) digits[--n] = '-';
    return text_add(t, digits + n, sizeof digits - (size_t)n);
}

/* A name kept: where it starts in ProofText.names, and its length, as one word. */
#define NAME_AT(offset, length) (((int64_t)(offset) << 24) | (int64_t)(length))

typedef struct {
    Text text, names;    /* the nodes written; every play's name met, end to end */
    const char *symbols; /* a rank's symbol, by rank: a hand is its ranks' symbols, lowest first */
    PyObject *play_name; /* callable: move -> the members of a JSON object */
    int64_t *plays;      /* by play number: NAME_AT, 0 where not asked yet */
    size_t play_room;                /* the length of plays */
    size_t written;                  /* nodes so far */
    PyObject *write;                 /* callable: str -> anything, handed the text piece by piece */
    size_t piece;                    /* the text's length past which it is handed to write */
} ProofText;

/* Hand the text so far to p->write and start it afresh: a proof of millions of nodes is
 * written as it is walked, never held whole. Every name and symbol is ASCII (json.dumps'
 * default escapes the rest; Core_strategy_text checks the symbols). */
static int text_flush(ProofText *p) {
    if (!p->text.len) return 0;
    PyObject *piece = PyUnicode_DecodeASCII(p->text.data, (Py_ssize_t)p->text.len, NULL);
    if (!piece) return -1;
    PyObject *done = PyObject_CallOneArg(p->write, piece);
    Py_DECREF(piece);
    if (!done) return -1;
    Py_DECREF(done);
    p->text.len = 0;
    return 0;
}

/* Ask a callable for a name, keep it in p->names; NAME_AT of it, or -1. */
static int64_t ask_name(ProofText *p, PyObject *name_of, PyObject *key) {
    if (!key) return -1;
    PyObject *found = PyObject_CallOneArg(name_of, key);
    Py_DECREF(key);
    if (!found) return -1;
    Py_ssize_t size = 0;
    const char *utf8 = PyUnicode_Check(found) ? PyUnicode_AsUTF8AndSize(found, &size) : NULL;
    if (!utf8 && !PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a name must be a str");
    if (utf8 && (size <= 0 || size >= (1 << 24))) {
        PyErr_SetString(PyExc_ValueError, "a name must be 1 to 2**24 - 1 bytes");
        utf8 = NULL;
    }
    size_t offset = p->names.len;
    int failed = !utf8 || text_add(&p->names, utf8, (size_t)size);
    Py_DECREF(found);
    return failed ? -1 : NAME_AT(offset, size);
}

static int text_kept(Text *t, const ProofText *p, int64_t name) {
    return text_add(t, p->names.data + (name >> 24), (size_t)(name & 0xFFFFFF));
}

/* A hand as a JSON string: each rank's symbol as many times as the hand holds it, as
 * str(Hand) spells it (the symbols need no escaping: Core_strategy_text checks). */
static int text_hand(ProofText *p, u64 hand) {
    char cards[2 + 15 * RANKS]; /* a field counts to 15 at most */
    size_t n = 0;
    cards[n++] = '"';
    for (int r = 0; r < RANKS; r++)
        for (int c = count_of(hand, r); c > 0; c--) cards[n++] = p->symbols[r];
    cards[n++] = '"';
    return text_add(&p->text, cards, n);
}

static int text_play(ProofText *p, int32_t move) {
    if ((size_t)move >= p->play_room) { /* a search in the walk numbered a new play */
        size_t room = p->play_room * 2 > (size_t)move ? p->play_room * 2 : (size_t)move + 1;
        int64_t *grown = realloc(p->plays, room * sizeof(int64_t));
        if (!grown) return PyErr_NoMemory(), -1;
        memset(grown + p->play_room, 0, (room - p->play_room) * sizeof(int64_t));
        p->plays = grown;
        p->play_room = room;
    }
    int64_t name = p->plays[move];
    if (!name) {
        name = ask_name(p, p->play_name, PyLong_FromLong(move));
        if (name < 0) return -1;
        p->plays[move] = name;
    }
    return text_kept(&p->text, p, name);
}

/* One edge: {members of the play (or "cards":"pass"),"next":row or null}. */
static int text_edge(ProofText *p, int32_t move, int32_t row) {
    Text *t = &p->text;
    if (text_str(t, "{")) return -1;
    if (move == PASS ? text_str(t, "\"cards\":\"pass\"") : text_play(p, move)) return -1;
    if (text_str(t, ",\"next\":")) return -1;
    return row < 0 ? text_str(t, "null}") : (text_int(t, row) || text_str(t, "}"));
}

/* A node a line: {"hands":[...],"turn":T,"table":null or {play,"by":B}, and its
 * "spring", "move" or "replies"}: the key order of proof.py's nodes. */
static int row_body(Core *self, ProofText *p, const State *st, int winning, const int32_t *plan,
                    int plan_length, const int32_t *moves, const int32_t *rows, size_t count) {
    Text *t = &p->text;
    if (text_str(t, p->written++ ? ",\n    {\"hands\":[" : "    {\"hands\":[")) return -1;
    for (int i = 0; i < self->players; i++) {
        if (i && text_str(t, ",")) return -1;
        if (text_hand(p, st->hands[i])) return -1;
    }
    if (text_str(t, "],\"turn\":") || text_int(t, st->turn) || text_str(t, ",\"table\":")) return -1;
    if (st->table == NO_TABLE) {
        if (text_str(t, "null")) return -1;
    } else if (text_str(t, "{") || text_play(p, st->table) || text_str(t, ",\"by\":") || text_int(t, st->by) ||
               text_str(t, "}")) {
        return -1;
    }
    if (plan) {
        if (text_str(t, ",\"spring\":[")) return -1;
        for (int i = 0; i < plan_length; i++)
            if (text_str(t, i ? ",{" : "{") || text_play(p, plan[i]) || text_str(t, "}")) return -1;
        return text_str(t, "]}");
    }
    if (winning) return text_str(t, ",\"move\":") || text_edge(p, moves[0], rows[0]) || text_str(t, "}");
    if (text_str(t, ",\"replies\":[")) return -1;
    for (size_t i = 0; i < count; i++)
        if ((i && text_str(t, ",")) || text_edge(p, moves[i], rows[i])) return -1;
    return text_str(t, "]}");
}

/* walk_strategy's sink: a node's line, the text handed on once it is a piece long. */
static int row_text(Core *self, void *sink, const State *st, int winning, const int32_t *plan,
                    int plan_length, const int32_t *moves, const int32_t *rows, size_t count) {
    ProofText *p = sink;
    if (row_body(self, p, st, winning, plan, plan_length, moves, rows, count)) return -1;
    return p->text.len >= p->piece ? text_flush(p) : 0;
}

/* strategy_text(hands, turn, table, by, symbols, play_name, write, piece) -> None: the text
 * handed to write in pieces of about `piece` characters (the last one shorter). */
static PyObject *Core_strategy_text(Core *self, PyObject *args) {
    PyObject *hands, *play_name, *write;
    const char *symbols;
    Py_ssize_t symbol_count, piece;
    State st;
    if (!PyArg_ParseTuple(args, "Oiiis#OOn", &hands, &st.turn, &st.table, &st.by, &symbols, &symbol_count,
                          &play_name, &write, &piece) ||
        fill_state(self, hands, &st))
        return NULL;
    if (!PyCallable_Check(write) || piece < 1) {
        PyErr_SetString(PyExc_ValueError, "write must be callable, and a piece at least 1 character");
        return NULL;
    }
    int plain = symbol_count == RANKS;
    for (Py_ssize_t i = 0; plain && i < symbol_count; i++)
        plain = symbols[i] > ' ' && symbols[i] < 127 && symbols[i] != '"' && symbols[i] != '\\';
    if (!plain) {
        PyErr_SetString(PyExc_ValueError, "the symbols must be one printable ASCII character a rank, no quote");
        return NULL;
    }
    ProofText p = {{NULL, 0, 0}, {NULL, 0, 0}, symbols, play_name, NULL, 0, 0, write, (size_t)piece};
    PyObject *answer = NULL;
    p.play_room = self->play_count + 1;
    p.plays = calloc(p.play_room, sizeof(int64_t));
    if (!p.plays) {
        PyErr_NoMemory();
    } else if (!walk_strategy(self, st, row_text, &p) && !text_flush(&p)) {
        answer = Py_NewRef(Py_None);
    }
    free(p.text.data);
    free(p.names.data);
    free(p.plays);
    return answer;
}

#endif
