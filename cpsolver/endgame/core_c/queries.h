/*
 * What the Python side asks of the compiled core besides its searches: a hand's plays and
 * answers, the rules of plays left out (refutations carried, plays outranked) as the split
 * (tree.Tree._split) and the tests read them, a table entry, and the plays' interning.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_QUERIES_H
#define CPSOLVER_CORE_QUERIES_H

static PyObject *move_list(Core *self, int64_t v) {
    if (v < 0) return failure(self);
    size_t offset = span_offset(v), length = span_length(v);
    PyObject *list = PyList_New((Py_ssize_t)length);
    if (!list) return NULL;
    for (size_t i = 0; i < length; i++)
        PyList_SET_ITEM(list, (Py_ssize_t)i, PyLong_FromLong(self->arena.data[offset + i]));
    return list;
}

static int check_play(Core *self, int play) {
    if (play < 0 || play >= (int)self->play_count) {
        PyErr_SetString(PyExc_ValueError, "no such play");
        return -1;
    }
    return 0;
}

static PyObject *Core_plays(Core *self, PyObject *args) {
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "K", &hand)) return NULL;
    return move_list(self, plays_of(self, hand));
}

static PyObject *Core_answers(Core *self, PyObject *args) {
    unsigned long long hand;
    int play;
    if (!PyArg_ParseTuple(args, "Ki", &hand, &play) || check_play(self, play)) return NULL;
    return move_list(self, answers_of(self, hand, play));
}

static PyObject *Core_answerable(Core *self, PyObject *args) {
    unsigned long long hand;
    int play;
    if (!PyArg_ParseTuple(args, "Ki", &hand, &play) || check_play(self, play)) return NULL;
    return PyBool_FromLong(can_answer(self, hand, play));
}

/* The rule of refutations carried to higher plays, for the split (tree.Tree._split), which
 * decides a position's moves one by one in Python: search.h's lone_group, carried, carried_to. */
static PyObject *Core_lone_group(Core *self, PyObject *args) {
    unsigned long long hand;
    int move;
    if (!PyArg_ParseTuple(args, "Ki", &hand, &move) || (move != PASS && check_play(self, move))) return NULL;
    return PyLong_FromLong(lone_group(self, hand, move));
}

static int check_rank(int rank, int width) {
    if (rank >= 0 && rank < BLACK && width >= 1 && width <= 3) return 0;
    PyErr_SetString(PyExc_ValueError, "no lone group of such a rank and width");
    return -1;
}

static PyObject *Core_carries(Core *self, PyObject *args) {
    unsigned long long hand;
    PyObject *list;
    int rank, width;
    if (!PyArg_ParseTuple(args, "KO!ii", &hand, &PyList_Type, &list, &rank, &width) || check_rank(rank, width))
        return NULL;
    Refuted refuted[REFUTED_MOST];
    Py_ssize_t n = PyList_GET_SIZE(list);
    if (n > REFUTED_MOST) {
        PyErr_SetString(PyExc_ValueError, "more refutations than a node remembers");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Refuted *r = &refuted[i];
        if (!PyArg_ParseTuple(PyList_GET_ITEM(list, i), "iii", &r->rank, &r->width, &r->above) ||
            check_rank(r->rank, r->width))
            return NULL;
    }
    return PyBool_FromLong(carried(self, hand, refuted, (int)n, rank, width));
}

static PyObject *Core_carried_to(Core *self, PyObject *args) {
    State st;
    PyObject *hands;
    int mover, width;
    if (!PyArg_ParseTuple(args, "Oiiiii", &hands, &st.turn, &st.table, &st.by, &mover, &width) ||
        fill_state(self, hands, &st))
        return NULL;
    if (mover < 0 || mover >= self->players || width < 1 || width > 3) {
        PyErr_SetString(PyExc_ValueError, "no such mover or width");
        return NULL;
    }
    int above = carried_to(self, &st, mover, width);
    return above == -2 ? failure(self) : PyLong_FromLong(above);
}

static PyObject *Core_unoutranked(Core *self, PyObject *args) {
    unsigned long long hand;
    int table;
    unsigned long long partner;
    PyObject *moves, *hands;
    if (!PyArg_ParseTuple(args, "KO!O!Ki", &hand, &PyList_Type, &moves, &PyTuple_Type, &hands, &partner, &table))
        return NULL;
    if (table != NO_TABLE && check_play(self, table)) return NULL;
    u64 opponents[2];
    Py_ssize_t n = PyTuple_GET_SIZE(hands);
    if (n > 2) return PyErr_Format(PyExc_ValueError, "at most two opponents"), NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        opponents[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, i));
        if (PyErr_Occurred()) return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(moves);
    int32_t *kept = malloc((size_t)(count ? count : 1) * sizeof(int32_t));
    if (!kept) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < count; i++) {
        long move = PyLong_AsLong(PyList_GET_ITEM(moves, i));
        if ((move == -1 && PyErr_Occurred()) || (move != PASS && check_play(self, (int)move))) {
            free(kept);
            return NULL;
        }
        kept[i] = (int32_t)move;
    }
    size_t left = unoutranked(self, kept, (size_t)count, hand, opponents, (int)n, partner, table);
    PyObject *found = PyList_New((Py_ssize_t)left);
    for (size_t i = 0; found && i < left; i++) {
        PyObject *move = PyLong_FromLong(kept[i]);
        if (!move) Py_CLEAR(found);
        else PyList_SET_ITEM(found, (Py_ssize_t)i, move);
    }
    free(kept);
    return found;
}

static PyObject *Core_ordered(Core *self, PyObject *args) {
    unsigned long long hand;
    int table, alone = 0;
    if (!PyArg_ParseTuple(args, "Ki|p", &hand, &table, &alone)) return NULL;
    if (table != NO_TABLE && check_play(self, table)) return NULL;
    return move_list(self, alone ? alone_of(self, hand, table) : ordered_of(self, hand, table));
}

static PyObject *Core_lookup(Core *self, PyObject *args) {
    State st;
    if (parse_state(self, args, &st)) return NULL;
    u64 key[KEY_WORDS];
    if (key_of(self, &st, key)) return failure(self);
    Slot *s = map_find(&self->table, key[0], key[1], key[2]);
    if (!s) Py_RETURN_FALSE;
    int32_t result = entry_result(s->v);
    if (result == LOSS) Py_RETURN_NONE;
    if (result >= PASS) return PyLong_FromLong(result);
    size_t offset = (size_t)(-2 - (int64_t)result);
    int length = self->plans.data[offset];
    PyObject *plan = PyTuple_New(length);
    if (!plan) return NULL;
    for (int i = 0; i < length; i++) PyTuple_SET_ITEM(plan, i, PyLong_FromLong(self->plans.data[offset + 1 + i]));
    return plan;
}

static PyObject *Core_play(Core *self, PyObject *args) {
    int play;
    if (!PyArg_ParseTuple(args, "i", &play) || check_play(self, play)) return NULL;
    PlayRecord r = self->plays[play];
    return Py_BuildValue("(iiiK)", r.pattern, r.top, r.chain, (unsigned long long)r.cards);
}

static PyObject *Core_cards(Core *self, PyObject *args) {
    int play;
    if (!PyArg_ParseTuple(args, "i", &play) || check_play(self, play)) return NULL;
    return PyLong_FromUnsignedLongLong(self->plays[play].cards);
}

static PyObject *Core_intern(Core *self, PyObject *args) {
    int pattern, top, chain;
    unsigned long long cards;
    if (!PyArg_ParseTuple(args, "iiiK", &pattern, &top, &chain, &cards)) return NULL;
    if (pattern < -1 || pattern >= self->pattern_count || top < 0 || top >= RANKS || chain < 1 || chain > RANKS) {
        PyErr_SetString(PyExc_ValueError, "no such play");
        return NULL;
    }
    int id = play_intern(self, cards, pattern, top, chain);
    if (id < 0) return NULL;
    return PyLong_FromLong(id);
}

#endif
