/*
 * The compiled strategy checker: cpsolver.verify._strategy.
 *
 * cpsolver/verify/strategy.py's walk, in C, for the proofs it can read
 * (strategy_c/reader.h): from the root, every move of the winning side legal
 * and leading to the node named, every legal reply of the other side listed
 * once and answered, every spring plan unanswerable, every path ending with
 * the winner out of cards. It answers only "valid" (with the positions
 * walked) or "not shown valid": the Python checker, given the same text,
 * then finds the first failure and says it in words, or walks a proof this
 * reader refused. So a proof is never called valid here that the Python
 * checker would refuse (tests/test_compiled_checker.py holds the two
 * together).
 *
 * It shares nothing with the open-hand solver: its own reader, and its own
 * move generator (strategy_c/plays.h) over the rules core's tables.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strategy_c/plays.h"
#include "strategy_c/reader.h"
#include "strategy_c/lines.h"
#include "strategy_c/walk.h"

typedef struct {
    PyObject_HEAD
    Read read;
    Feed feed; /* while read a piece at a time (reader()) */
} Nodes;

static void Nodes_dealloc(Nodes *self) {
    free(self->read.nodes);
    free(self->read.steps);
    feed_free(&self->feed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* ------------------------------------------------------------------------ */
/* The Python side                                                           */

static int rules_from(PyObject *patterns, int highest, int both, int rocket_kind, int rocket_rank, Rules *r) {
    memset(r, 0, sizeof *r);
    PyObject *seq = PySequence_Fast(patterns, "patterns must be a sequence");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    r->bomb = -1;
    r->highest = highest;
    r->both_jokers = both;
    r->rocket_kind = rocket_kind;
    r->rocket_rank = rocket_rank;
    int failed = count > MAX_SHAPES;
    if (failed) PyErr_SetString(PyExc_ValueError, "too many patterns");
    for (Py_ssize_t i = 0; i < count && !failed; i++) {
        Shape *s = &r->shapes[i];
        const char *limits;
        Py_ssize_t size;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiiiiiy#", &s->kind, &s->width, &s->min_chain,
                              &s->max_chain, &s->kicker_size, &s->per_link, &limits, &size)) {
            failed = 1;
            break;
        }
        r->count = (int)i + 1;
        if (s->kind == KIND_BOMB) r->bomb = (int)i;
        if (s->kicker_size) {
            if (size != RANKS * RANKS * RANKS) {
                PyErr_SetString(PyExc_ValueError, "kicker limits are 15 * 15 * 15 bytes");
                failed = 1;
                break;
            }
            s->limits = malloc((size_t)size);
            if (!s->limits) {
                PyErr_NoMemory();
                failed = 1;
                break;
            }
            memcpy(s->limits, limits, (size_t)size);
        }
    }
    Py_DECREF(seq);
    if (!failed && r->bomb < 0) {
        PyErr_SetString(PyExc_ValueError, "the rules have no bomb");
        failed = 1;
    }
    return failed ? -1 : 0;
}

static void rules_free(Rules *r) {
    for (int i = 0; i < r->count; i++) free(r->shapes[i].limits);
}

/* A play from (cards, shape, top, chain, kind, by). */
static int play_from(PyObject *table, Play *play, int *by) {
    unsigned long long cards;
    int shape, top, chain, kind;
    if (!PyArg_ParseTuple(table, "Kiiiii", &cards, &shape, &top, &chain, &kind, by)) return -1;
    *play = play_of(cards, shape, top, chain, kind);
    return 0;
}

static int position_from(PyObject *hands, int turn, PyObject *table, Position *p) {
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    if (!seq) return -1;
    Py_ssize_t players = PySequence_Fast_GET_SIZE(seq);
    memset(p, 0, sizeof *p);
    if (players < 2 || players > 3) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "two or three hands");
        return -1;
    }
    p->players = (int)players;
    for (Py_ssize_t i = 0; i < players; i++) {
        p->hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    p->turn = turn;
    if (table == Py_None) return 0;
    p->has_table = 1;
    return play_from(table, &p->table, &p->by);
}

/* walk(patterns, highest, both_jokers, rocket_kind, rocket_rank, root, winner, hands, turn, table)
 * -> positions walked, or 0 when the strategy is not shown valid. `table` is None or
 * (cards, shape, top, chain, kind, by): the root's position, which the root node must spell. */
static PyObject *Nodes_walk(Nodes *self, PyObject *args) {
    PyObject *patterns, *hands, *table;
    int highest, both, rocket_kind, rocket_rank, root, winner, turn;
    if (!PyArg_ParseTuple(args, "Oipiiii" "OiO", &patterns, &highest, &both, &rocket_kind, &rocket_rank, &root,
                          &winner, &hands, &turn, &table))
        return NULL;
    if (self->feed.mode != FEED_DONE) {
        PyErr_SetString(PyExc_ValueError, "walk() needs every node read: feed() and finish() first");
        return NULL;
    }
    Rules rules;
    Position start;
    if (rules_from(patterns, highest, both, rocket_kind, rocket_rank, &rules)) {
        rules_free(&rules);
        return NULL;
    }
    if (position_from(hands, turn, table, &start)) {
        rules_free(&rules);
        return NULL;
    }
    size_t count = self->read.count;
    Walk w = {.rules = &rules,
              .read = &self->read,
              .winner = winner,
              .reached = calloc(count, 1),
              .tables = malloc(count * sizeof(Play)),
              .stack = malloc(count * sizeof(int32_t))};
    long long walked = 0;
    int result = 1;
    if (!w.reached || !w.tables || !w.stack) {
        result = -1;
    } else if (root < 0 || (size_t)root >= count || !spells(&w, root, &start)) {
        result = 0;
    } else {
        w.reached[root] = 1;
        w.tables[root] = start.table;
        w.stack[w.depth++] = root;
        while (w.depth && result == 1) {
            walked++;
            result = check_node(&w, w.stack[--w.depth]);
        }
    }
    free(w.reached);
    free(w.tables);
    free(w.stack);
    free(w.legal.data);
    free(w.answers.data);
    free(w.listed);
    free(w.slots);
    rules_free(&rules);
    if (result < 0) return PyErr_NoMemory();
    return PyLong_FromLongLong(result == 1 ? walked : 0);
}

static PyObject *Nodes_len(Nodes *self, void *Py_UNUSED(closure)) { return PyLong_FromSize_t(self->read.count); }

/* feed(piece) -> whether the text so far is of the shape lines.h reads (False: stop feeding). */
static PyObject *Nodes_feed(Nodes *self, PyObject *arg) {
    Py_buffer piece;
    if (PyObject_GetBuffer(arg, &piece, PyBUF_SIMPLE) < 0) return NULL;
    /* The GIL held: the object is Python's to share, and a piece is milliseconds of work. */
    int read = feed(&self->feed, &self->read, piece.buf, (size_t)piece.len);
    PyBuffer_Release(&piece);
    if (read < 0) return PyErr_NoMemory();
    return PyBool_FromLong(read);
}

/* finish() -> the header text (the nodes replaced by [{}]), or None: not of the shape read. */
static PyObject *Nodes_finish(Nodes *self, PyObject *Py_UNUSED(ignored)) {
    if (self->feed.mode == FEED_DONE) {
        PyErr_SetString(PyExc_ValueError, "finish() once, after the last piece");
        return NULL;
    }
    int read = feed_end(&self->feed, &self->read);
    if (read < 0) return PyErr_NoMemory();
    if (!read) {
        self->feed.mode = FEED_REFUSED;
        Py_RETURN_NONE;
    }
    PyObject *header = PyUnicode_DecodeUTF8(self->feed.head, (Py_ssize_t)self->feed.head_len, "strict");
    if (!header && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) { /* json.loads's to refuse, then */
        PyErr_Clear();
        self->feed.mode = FEED_REFUSED;
        Py_RETURN_NONE;
    }
    feed_free(&self->feed);
    self->feed.mode = FEED_DONE;
    return header;
}

static PyMethodDef Nodes_methods[] = {
    {"walk", (PyCFunction)Nodes_walk, METH_VARARGS, "Walk the strategy from its root: positions walked, or 0."},
    {"feed", (PyCFunction)Nodes_feed, METH_O, "Read a piece of a proof's text, as written: False if refused."},
    {"finish", (PyCFunction)Nodes_finish, METH_NOARGS, "The header text once every piece is fed, or None."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Nodes_getset[] = {
    {"count", (getter)Nodes_len, NULL, "The number of nodes read.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject NodesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpsolver.verify._strategy.Nodes",
    .tp_basicsize = sizeof(Nodes),
    .tp_dealloc = (destructor)Nodes_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A strategy proof's nodes, read from its text.",
    .tp_methods = Nodes_methods,
    .tp_getset = Nodes_getset,
};

/* reader() -> an empty Nodes, to be given a proof's text in pieces (feed, then finish). */
static PyObject *reader(PyObject *module, PyObject *Py_UNUSED(ignored)) {
    Nodes *found = PyObject_New(Nodes, &NodesType);
    if (!found) return NULL;
    memset(&found->read, 0, sizeof found->read);
    memset(&found->feed, 0, sizeof found->feed);
    found->feed.mode = FEED_HEAD;
    return (PyObject *)found;
}

/* read(text) -> (header text, Nodes) or None: None when the text is not of the shape this
 * reader knows. The header text is the document with its nodes replaced by [{}], for
 * json.loads and the schema. */
static PyObject *read_text(PyObject *module, PyObject *arg) {
    Py_ssize_t size;
    const char *text = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &size) : NULL;
    if (!text) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "read() takes a str");
        return NULL;
    }
    Nodes *found = PyObject_New(Nodes, &NodesType);
    if (!found) return NULL;
    memset(&found->read, 0, sizeof found->read);
    memset(&found->feed, 0, sizeof found->feed);
    Text t = {(const unsigned char *)text, (size_t)size, 0};
    size_t start = 0, end = 0;
    int read;
    Py_BEGIN_ALLOW_THREADS;
    read = document(&t, &found->read, &start, &end);
    Py_END_ALLOW_THREADS;
    if (read <= 0) {
        Py_DECREF(found);
        if (read < 0) return PyErr_NoMemory();
        Py_RETURN_NONE;
    }
    static const char spliced[] = "[{}]";
    size_t length = start + (sizeof spliced - 1) + ((size_t)size - end);
    char *header = malloc(length);
    if (!header) {
        Py_DECREF(found);
        return PyErr_NoMemory();
    }
    memcpy(header, text, start);
    memcpy(header + start, spliced, sizeof spliced - 1);
    memcpy(header + start + sizeof spliced - 1, text + end, (size_t)size - end);
    PyObject *header_text = PyUnicode_DecodeUTF8(header, (Py_ssize_t)length, "strict");
    free(header);
    if (!header_text) {
        Py_DECREF(found);
        return NULL;
    }
    return Py_BuildValue("(NN)", header_text, (PyObject *)found);
}

/* moves(patterns, highest, both_jokers, rocket_kind, rocket_rank, hand, table) -> [(cards, kind, top, chain)]:
 * the checker's move generator on one hand, a pass left out; table None (a lead) or as walk()'s.
 * For the tests that hold it to the rules core's. */
static PyObject *moves(PyObject *module, PyObject *args) {
    PyObject *patterns, *table;
    int highest, both, rocket_kind, rocket_rank, by;
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "OipiiKO", &patterns, &highest, &both, &rocket_kind, &rocket_rank, &hand, &table))
        return NULL;
    Rules rules;
    Play play;
    Plays found = {0};
    if (rules_from(patterns, highest, both, rocket_kind, rocket_rank, &rules) ||
        (table != Py_None && play_from(table, &play, &by))) {
        rules_free(&rules);
        return NULL;
    }
    int failed = table == Py_None ? all_plays(&rules, hand, &found) : all_answers(&rules, hand, &play, &found);
    rules_free(&rules);
    PyObject *list = failed ? PyErr_NoMemory() : PyList_New((Py_ssize_t)found.len);
    for (size_t i = 0; list && i < found.len; i++) {
        const Play *p = &found.data[i];
        PyObject *item = Py_BuildValue("(Kiii)", (unsigned long long)p->cards, p->kind, p->top, p->chain);
        if (!item) Py_CLEAR(list);
        else PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    free(found.data);
    return list;
}

static PyMethodDef module_methods[] = {
    {"read", read_text, METH_O, "Read a strategy proof's text: (header text, Nodes), or None."},
    {"reader", reader, METH_NOARGS, "An empty Nodes, to read a proof's text in pieces."},
    {"moves", moves, METH_VARARGS, "The checker's moves of one hand: [(cards, kind, top, chain)]."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cpsolver.verify._strategy", "The compiled strategy checker.", -1, module_methods,
};

PyMODINIT_FUNC PyInit__strategy(void) {
    if (PyType_Ready(&NodesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *kinds = PyTuple_New(KIND_COUNT);
    for (int k = 0; kinds && k < KIND_COUNT; k++) {
        PyObject *name = PyUnicode_FromString(KIND_NAMES[k]);
        if (!name) Py_CLEAR(kinds);
        else PyTuple_SET_ITEM(kinds, k, name);
    }
    /* The kind names the reader knows, in the rules core's order (a test holds them to it). */
    if (!kinds || PyModule_AddObject(m, "kinds", kinds) < 0) {
        Py_XDECREF(kinds);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&NodesType);
    if (PyModule_AddObject(m, "Nodes", (PyObject *)&NodesType) < 0) {
        Py_DECREF(&NodesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
