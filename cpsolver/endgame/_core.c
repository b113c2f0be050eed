/*
 * The compiled core of the open-hand search: cpsolver.endgame._core.
 *
 * It is the Python search of cpsolver/endgame/solver.py and packed.py, step
 * for step, in C: the same move generation order, the same move ordering,
 * the same shortcuts (out now, runs out), the same table keys (the play to
 * beat stands for the answers it lets be played). Searching the same nodes in
 * the same order, it reaches the same verdicts with the same node counts, so
 * the Python search stays its reference (tests/test_compiled_core.py).
 *
 * The rules come in as data, the same tables the Python move generator reads:
 * each pattern's shape and the kicker limits of each core
 * (cpsolver.rules.patterns.kicker_limits), so every rule set, bundled or a
 * user's TOML, drives both cores alike.
 *
 * Hands are 64-bit ints, four bits a rank (15 ranks). Plays are interned
 * ints; a move is a play or PASS (-1). Every table keeps whole states as
 * keys, never a hash alone.
 *
 * The time limit and the memory cap are the Python side's: every CHECK_EVERY
 * nodes the search calls back `check()`, which may raise (the search unwinds
 * and the exception reaches the caller) or call evict(). Long work on one hand
 * (fewest-plays splits) reads a C clock against the seconds check() returned.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core_c/tables.h"
#include "core_c/moves.h"
#include "core_c/hands.h"
#include "core_c/runouts.h"
#include "core_c/kickers.h"
#include "core_c/nodes.h"
#include "core_c/search.h"
#include "core_c/strategy.h"
#include "core_c/proof.h"
#include "core_c/bound.h"
#include "core_c/queries.h"

/* ------------------------------------------------------------------------ */
/* The Python type                                                           */

/* The check callback is a bound method of the Python search that owns this core: a
 * cycle. The collector must see it, or every search (and its whole table) outlives its
 * last use. */
static int Core_traverse(Core *self, visitproc visit, void *arg) {
    Py_VISIT(self->check);
    return 0;
}

static int Core_clear(Core *self) {
    Py_CLEAR(self->check);
    return 0;
}

static void Core_dealloc(Core *self) {
    PyObject_GC_UnTrack(self);
    Map *maps[] = CORE_MAPS(self);
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) map_free(maps[i]);
    free(self->cover.marks);
    free(self->plays);
    free(self->known_of);
    free(self->plans.data);
    free(self->class_lists.data);
    free(self->arena.data);
    free(self->run_plans.data);
    free(self->run_memo);
    free(self->run_work.data);
    free(self->scratch.data);
    for (int i = 0; i < self->pattern_count; i++) free(self->patterns[i].limits);
    Py_CLEAR(self->check);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Core(players, patterns, highest_chain_rank, both_jokers, check)
 * patterns: a sequence of (kind, width, min_chain, max_chain, kicker_size, kickers_per_link, limits),
 * limits a bytes of 15 * 15 * 15 (b"" without kickers). */
static int Core_init(Core *self, PyObject *args, PyObject *kwargs) {
    PyObject *patterns, *check;
    int players, highest, both;
    if (!PyArg_ParseTuple(args, "iOipO", &players, &patterns, &highest, &both, &check)) return -1;
    if (players != 2 && players != 3) {
        PyErr_SetString(PyExc_ValueError, "an open-hand game has 2 or 3 players");
        return -1;
    }
    if (!PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable");
        return -1;
    }
    PyObject *seq = PySequence_Fast(patterns, "patterns must be a sequence");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAX_PATTERNS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many patterns");
        return -1;
    }
    self->bomb = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        Pattern *p = &self->patterns[i];
        const char *limits;
        Py_ssize_t size;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiiiiiy#", &p->kind, &p->width, &p->min_chain,
                              &p->max_chain, &p->kicker_size, &p->per_link, &limits, &size)) {
            Py_DECREF(seq);
            return -1;
        }
        self->pattern_count = (int)i + 1;
        p->limits = NULL;
        if (p->kicker_size) {
            if (size != RANKS * RANKS * RANKS) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "kicker limits must hold 15 * 15 * 15 bytes");
                return -1;
            }
            p->limits = malloc((size_t)size);
            if (!p->limits) {
                Py_DECREF(seq);
                PyErr_NoMemory();
                return -1;
            }
            memcpy(p->limits, limits, (size_t)size);
        }
        if (p->kind == KIND_BOMB) self->bomb = (int)i;
        if (p->width < 1 || p->width > 4 || p->min_chain < 1 || p->max_chain < p->min_chain ||
            p->kicker_size < 0 || p->kicker_size > 2) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a pattern out of range");
            return -1;
        }
    }
    Py_DECREF(seq);
    if (self->bomb < 0) {
        PyErr_SetString(PyExc_ValueError, "the rules need a bomb");
        return -1;
    }
    self->players = players;
    self->highest = highest;
    self->both_jokers = both;
    Py_INCREF(check);
    Py_XSETREF(self->check, check); /* __init__ may be called twice */
    for (int turn = 0; turn < players; turn++) {
        self->side[turn] = turn == 0 ? 0 : 1;
        self->opponent_count[turn] = 0;
    }
    for (int turn = 0; turn < players; turn++)
        for (int p = 0; p < players; p++)
            if (self->side[p] != self->side[turn]) self->opponents[turn][self->opponent_count[turn]++] = p;
    for (int turn = 0; turn < players; turn++) self->alone[turn] = self->opponent_count[turn] == players - 1;
    memset(self->swappable, -1, sizeof self->swappable);
    Map *maps[] = CORE_MAPS(self);
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        if (map_init(maps[i], 1024)) {
            PyErr_NoMemory();
            return -1;
        }
    free(self->run_memo);
    if (marks_init(&self->cover) || !(self->run_memo = calloc(RUN_MEMO, sizeof(RunMemo)))) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* The state of `hands` (a sequence of packed hands) with st->turn, st->table and st->by
 * already read: its hands filled in and the whole checked; -1 with an exception set. */
static int fill_state(Core *self, PyObject *hands, State *st) {
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != self->players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one hand a player");
        return -1;
    }
    st->hands[2] = 0;
    for (int i = 0; i < self->players; i++) {
        st->hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    if (st->turn < 0 || st->turn >= self->players || st->by < -1 || st->by >= self->players ||
        st->table < NO_TABLE || st->table >= (int)self->play_count || (st->table == NO_TABLE) != (st->by == -1) ||
        !st->hands[st->turn]) {
        PyErr_SetString(PyExc_ValueError, "not a state of this game");
        return -1;
    }
    return 0;
}

/* A state from the arguments (hands, turn, table, by). */
static int parse_state(Core *self, PyObject *args, State *st) {
    PyObject *hands;
    if (!PyArg_ParseTuple(args, "Oiii", &hands, &st->turn, &st->table, &st->by)) return -1;
    return fill_state(self, hands, st);
}

/* A failure of the search as Python sees it: the exception set, or None when the time ran out. */
static PyObject *failure(Core *self) {
    int timed_out = self->failed == 2;
    self->failed = 0;
    self->scratch.len = 0;
    if (PyErr_Occurred()) return NULL;
    if (timed_out) {
        PyErr_SetString(PyExc_TimeoutError, "past the deadline");
        return NULL;
    }
    PyErr_SetString(PyExc_RuntimeError, "the compiled search failed");
    return NULL;
}

static PyObject *Core_wins(Core *self, PyObject *args) {
    State st;
    PyObject *hands;
    int keep_all = 0;
    if (!PyArg_ParseTuple(args, "Oiii|p", &hands, &st.turn, &st.table, &st.by, &keep_all) ||
        fill_state(self, hands, &st))
        return NULL;
    if (key_of(self, &st, self->root)) return NULL;
    self->keep_all = keep_all;
    int won = wins(self, &st);
    self->keep_all = 0;
    if (won < 0) return failure(self);
    return PyBool_FromLong(won);
}

/* store(hands, turn, table, by, move, nodes): keep a result found outside this search (a
 * peasant alone's, alone.py): the winning move, PASS, or a loss (None), as costly as nodes. */
static PyObject *Core_store(Core *self, PyObject *args) {
    State st;
    PyObject *hands, *move;
    long long nodes;
    if (!PyArg_ParseTuple(args, "OiiiOL", &hands, &st.turn, &st.table, &st.by, &move, &nodes) ||
        fill_state(self, hands, &st))
        return NULL;
    int32_t result = LOSS;
    if (move != Py_None) {
        long found = PyLong_AsLong(move);
        if ((found == -1 && PyErr_Occurred()) || (found != PASS && check_play(self, (int)found))) return NULL;
        result = (int32_t)found;
    }
    u64 key[KEY_WORDS];
    /* Kept however cheap: a result found outside is not found again by searching here. */
    if (key_of(self, &st, key) || store_costing(self, key, result, nodes < LEAST_KEPT ? LEAST_KEPT : nodes))
        return failure(self);
    Py_RETURN_NONE;
}

/* settle_won(hands, turn, table, by): search a state whose side to move is known to win, its
 * winning move sought narrowest first, every result kept (strategy.h's settle_won). */
static PyObject *Core_settle_won(Core *self, PyObject *args) {
    State st;
    if (parse_state(self, args, &st)) return NULL;
    if (settle_won(self, &st)) return failure(self);
    Py_RETURN_NONE;
}

/* proves(hands, turn, table, by, prover, width, resume=False, order=0): 1 proven, 0 refuted,
 * 2 open at this width, the prover's moves tried in move order `order`. With `resume`, the
 * states the same question (prover and order) last left open are read again: that question
 * stopped short (its budget ran out) and this call asks it again. */
static PyObject *Core_proves(Core *self, PyObject *args) {
    State st;
    PyObject *hands;
    int prover, width, resume = 0, order = ORDER_DEFAULT;
    if (!PyArg_ParseTuple(args, "Oiiiii|pi", &hands, &st.turn, &st.table, &st.by, &prover, &width, &resume,
                          &order) ||
        fill_state(self, hands, &st))
        return NULL;
    if (prover < 0 || prover > 1 || width < 1 || (order != ORDER_DEFAULT && order != ORDER_LEFT_PASSES)) {
        PyErr_SetString(PyExc_ValueError, "a prover is side 0 or 1, a width at least 1, an order 0 or 1");
        return NULL;
    }
    if (key_of(self, &st, self->root)) return NULL;
    self->order = order;
    Map *open = &self->open_nodes[question_of(self, prover)];
    if (!resume && map_clear(open)) return self->order = ORDER_DEFAULT, PyErr_NoMemory();
    int found = proves(self, &st, prover, width);
    self->order = ORDER_DEFAULT;
    /* What was left open holds for this question only: kept for its resumption where it
     * stopped short, else dropped. */
    if (found < 0) return failure(self);
    if (map_clear(open)) return PyErr_NoMemory();
    return PyLong_FromLong(found);
}

/* evict(keep): keep the costliest `keep` table entries, empty every cache of hands. */
static PyObject *Core_evict(Core *self, PyObject *args) {
    Py_ssize_t keep;
    if (!PyArg_ParseTuple(args, "n", &keep)) return NULL;
    if (keep < 0) keep = 0;
    long long before = self->evicted;
    if (evict_to(self, (size_t)keep, 1)) return NULL;
    return PyLong_FromLongLong(self->evicted - before);
}

/* bound(entries): the most entries the table holds before it evicts half itself (0: no bound). */
static PyObject *Core_bound(Core *self, PyObject *args) {
    Py_ssize_t most;
    if (!PyArg_ParseTuple(args, "n", &most)) return NULL;
    self->most_entries = most > 0 ? (size_t)most : 0;
    Py_RETURN_NONE;
}

/* clock(seconds): the seconds left for long work on one hand (None: no limit). */
static PyObject *Core_clock(Core *self, PyObject *left) {
    if (left == Py_None) {
        self->stop_at = 0;
        Py_RETURN_NONE;
    }
    double seconds = PyFloat_AsDouble(left);
    if (seconds == -1.0 && PyErr_Occurred()) return NULL;
    self->stop_at = clock_now() + (seconds > 0 ? seconds : 1e-9);
    Py_RETURN_NONE;
}

static PyObject *Core_forget(Core *self, PyObject *Py_UNUSED(args)) {
    if (free_caches(self)) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Core_get_nodes(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(self->nodes); }

static PyObject *Core_get_carried(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(self->carried); }

static PyObject *Core_get_size(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromSize_t(self->table.len); }

static PyObject *Core_get_evictions(Core *self, void *Py_UNUSED(closure)) {
    return Py_BuildValue("(LL)", self->evictions, self->evicted);
}

/* (held, growth): the search's bytes (held_bytes). */
static PyObject *Core_get_bytes(Core *self, void *Py_UNUSED(closure)) {
    size_t held, growth;
    held_bytes(self, &held, &growth);
    return Py_BuildValue("(nn)", (Py_ssize_t)held, (Py_ssize_t)growth);
}

static PyObject *Core_get_play_count(Core *self, void *Py_UNUSED(closure)) {
    return PyLong_FromSize_t(self->play_count);
}

static PyMethodDef Core_methods[] = {
    {"proves", (PyCFunction)Core_proves, METH_VARARGS,
     "proves(hands, turn, table, by, prover, width, resume=False, order=0): 1, side prover wins; 0, it\n"
     "loses; 2, open (order 1: the landlord's next player passes first over the landlord's play)."},
    {"wins", (PyCFunction)Core_wins, METH_VARARGS,
     "wins(hands, turn, table, by, keep_all=False): whether the side to move wins (TimeoutError past the\n"
     "deadline); with keep_all, every result found is kept in the table, however cheap."},
    {"ordered", (PyCFunction)Core_ordered, METH_VARARGS,
     "ordered(hand, table, alone=False): the plays (table -1) or answers in the search's order, the pass "
     "left out; with alone, the needless kickers left out too."},
    {"unoutranked", (PyCFunction)Core_unoutranked, METH_VARARGS,
     "unoutranked(hand, moves, opponents, partner, table): the moves less those the same play of a lower rank is "
     "worth as much as (partner 0: none)."},
    {"store", (PyCFunction)Core_store, METH_VARARGS,
     "store(hands, turn, table, by, move, nodes): keep a result found outside this search: the winning move "
     "(or pass), or None for a loss, as costly as that many nodes."},
    {"lookup", (PyCFunction)Core_lookup, METH_VARARGS,
     "lookup(hands, turn, table, by): False if not searched, None for a loss, the winning move, or a plan."},
    {"plays", (PyCFunction)Core_plays, METH_VARARGS, "plays(hand): every play in a packed hand."},
    {"answers", (PyCFunction)Core_answers, METH_VARARGS, "answers(hand, play): every play in the hand beating it."},
    {"answerable", (PyCFunction)Core_answerable, METH_VARARGS,
     "answerable(hand, play): whether the hand holds a play beating it (the search's own test)."},
    {"play", (PyCFunction)Core_play, METH_VARARGS, "play(move): (pattern, top, chain, packed cards)."},
    {"lone_group", (PyCFunction)Core_lone_group, METH_VARARGS,
     "lone_group(hand, move): the rank of a play of all the hand's cards of one rank, else -1."},
    {"carries", (PyCFunction)Core_carries, METH_VARARGS,
     "carries(hand, refuted, rank, width): whether a refutation carries to that lone play."},
    {"carried_to", (PyCFunction)Core_carried_to, METH_VARARGS,
     "carried_to(hands, turn, table, by, mover, width): the rank below which the answer beats such plays."},
    {"settle_won", (PyCFunction)Core_settle_won, METH_VARARGS,
     "settle_won(hands, turn, table, by): search a state whose side to move is known to win, its winning\n"
     "move sought narrowest first, every result kept."},
    {"strategy_line", (PyCFunction)Core_strategy_line, METH_VARARGS,
     "strategy_line(hands, turn, table, by): (strategy nodes, principal line as (player, move) pairs)."},
    {"strategy_text", (PyCFunction)Core_strategy_text, METH_VARARGS,
     "strategy_text(hands, turn, table, by, symbols, play_name, write, piece): the won root's strategy as "
     "a proof's nodes, JSON, a node a line, handed to write(str) in pieces of about piece characters; a "
     "hand spelled in symbols (one a rank), play_name(move) asked once a play."},
    {"cards", (PyCFunction)Core_cards, METH_VARARGS, "cards(move): the packed cards of a play."},
    {"intern", (PyCFunction)Core_intern, METH_VARARGS, "intern(pattern, top, chain, cards): a play's number."},
    {"evict", (PyCFunction)Core_evict, METH_VARARGS,
     "evict(keep): keep the newest table entries, empty the caches; returns how many were dropped."},
    {"forget", (PyCFunction)Core_forget, METH_NOARGS, "forget(): empty every cache of hands."},
    {"clock", (PyCFunction)Core_clock, METH_O, "clock(seconds): the time left for long work on one hand (None: none)."},
    {"bound", (PyCFunction)Core_bound, METH_VARARGS,
     "bound(entries): past this many entries the table evicts half itself, the cheapest first (0: none)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "positions searched", NULL},
    {"carried", (getter)Core_get_carried, NULL, "plays not tried, a lower play's refutation carried to them", NULL},
    {"size", (getter)Core_get_size, NULL, "entries in the table", NULL},
    {"play_count", (getter)Core_get_play_count, NULL, "plays met", NULL},
    {"bytes", (getter)Core_get_bytes, NULL,
     "(held, growth): bytes of every table, cache and list the search holds, and the most one growth adds", NULL},
    {"evictions", (getter)Core_get_evictions, NULL, "(evictions, entries evicted) so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpsolver.endgame._core.Core",
    .tp_doc = "The open-hand search over packed hands, compiled.",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)Core_traverse,
    .tp_clear = (inquiry)Core_clear,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The compiled core of cpsolver's open-hand search.", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
