/*
 * The winning side's strategy, walked in C: its size, its line, its nodes for a proof.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_STRATEGY_H
#define CPSOLVER_CORE_STRATEGY_H

/* ------------------------------------------------------------------------ */
/* The winning side's strategy, walked: its size and the longest resistance  */
/* (endgame/strategy.py's Strategy.depth, over the same DAG).                */

/* A state's words as a strategy's walk keys it: the play to beat itself, not its answers. */
static inline void state_words(const State *st, u64 *key) { pack_key(st, (u64)(uint32_t)st->table, key); }

/* Search a state, keeping every result, however cheap (the walk reads them back): 0, or -1. */
static int settle(Core *self, const State *st) {
    int keep_all = self->keep_all;
    self->keep_all = 1;
    int won = wins(self, st);
    self->keep_all = keep_all;
    return won < 0 ? -1 : 0;
}

/* The widths settle_won asks at, as Tree.decide does (tree.WIDTHS). */
static const int WON_WIDTHS[] = {1, 2, 3, 4, 6};

/* Search a state whose side to move is known to win (a state of its strategy), keeping every
 * result: its winning move sought narrowest first, as Tree.decide asks (the full search last).
 * The full search alone refuted in full every wrong first move it tried, at each state of a
 * walk the table did not hold (too cheap to keep, evicted, or never searched, after a reply
 * the search left out). solver.py's Search.settle_won, the same steps. 0, or -1 on failure. */
static int settle_won(Core *self, const State *st) {
    int keep_all = self->keep_all, order = self->order;
    self->keep_all = 1;
    self->order = ORDER_DEFAULT;
    int prover = self->side[st->turn];
    Map *open = &self->open_nodes[question_of(self, prover)];
    int found = OPEN;
    for (size_t i = 0; found == OPEN && i < sizeof WON_WIDTHS / sizeof *WON_WIDTHS; i++)
        found = map_clear(open) ? (PyErr_NoMemory(), -1) : proves(self, st, prover, WON_WIDTHS[i]);
    if (found >= 0 && found != PROVEN) found = wins(self, st);
    if (map_clear(open) && found >= 0) found = (PyErr_NoMemory(), -1);
    self->keep_all = keep_all;
    self->order = order;
    return found < 0 ? -1 : 0;
}

/* The table's entry of a state, searched first by `search` (settle, or settle_won) where the
 * table lacks it: a move, a plan offset (as -2 - offset), or LOSS; *failed on failure. */
static int32_t searched_entry(Core *self, const State *st, int (*search)(Core *, const State *), int *failed) {
    u64 key[KEY_WORDS];
    Slot *s = NULL;
    *failed = key_of(self, st, key) ||
              (!(s = map_find(&self->table, key[0], key[1], key[2])) &&
               (search(self, st) || !(s = map_find(&self->table, key[0], key[1], key[2]))));
    return *failed ? 0 : entry_result(s->v);
}

/* The side that wins `root`, which every walk of its strategy needs first; -1 on failure. */
static int winner_of(Core *self, const State *root) {
    int failed;
    int32_t result = searched_entry(self, root, settle, &failed);
    if (failed) return -1;
    return result != LOSS ? self->side[root->turn] : 1 - self->side[root->turn];
}

/* A walked state's entry. The losing side's states are never looked up, still less searched
 * again: every one of their replies is in the strategy whatever the table holds, and proving
 * once more that they all lose (a full search, where the result was too cheap to keep or was
 * evicted) searched more than the rest of a full deal's walk. */
static int32_t walk_entry(Core *self, const State *st, int winner, int *failed) {
    *failed = 0;
    if (self->side[st->turn] != winner) return LOSS;
    return searched_entry(self, st, settle_won, failed);
}

#define WALK_CHECK_EVERY 4096

/* Moves to the end from a state if the losing side resists longest; -1 on failure.
 * Every state walked is one node of the strategy (counted in `walked`). */
static long long depth(Core *self, const State *st, int winner, Map *walked) {
    u64 words[KEY_WORDS];
    state_words(st, words);
    Slot *s = map_find(walked, words[0], words[1], words[2]);
    if (s) return s->v;
    int failed;
    int32_t result = walk_entry(self, st, winner, &failed);
    if (failed) return -1;
    long long found;
    if (result < PASS && result != LOSS) {
        int length = self->plans.data[-2 - (int64_t)result];
        found = (long long)self->players * (length - 1) + 1;
    } else {
        size_t base = self->scratch.len;
        if (result != LOSS) {
            if (ints_push(&self->scratch, result)) return PyErr_NoMemory(), -1;
        } else {
            int64_t v = st->table == NO_TABLE ? plays_of(self, st->hands[st->turn])
                                              : answers_of(self, st->hands[st->turn], st->table);
            if (v < 0) return -1;
            if (ints_reserve(&self->scratch, span_length(v) + 1)) return PyErr_NoMemory(), -1;
            memcpy(&self->scratch.data[base], &self->arena.data[span_offset(v)], span_length(v) * sizeof(int32_t));
            self->scratch.len += span_length(v);
            if (st->table != NO_TABLE) self->scratch.data[self->scratch.len++] = PASS;
        }
        long long deepest = 0;
        for (size_t i = base; i < self->scratch.len; i++) {
            State child;
            if (!successor(self, st, self->scratch.data[i], &child)) continue;
            long long d = depth(self, &child, winner, walked);
            if (d < 0) {
                self->scratch.len = base;
                return -1;
            }
            if (d > deepest) deepest = d;
        }
        self->scratch.len = base;
        found = 1 + deepest;
    }
    if (map_put(walked, words[0], words[1], words[2], found)) return PyErr_NoMemory(), -1;
    /* A walk that meets few unsearched positions calls no search, which reads the clock:
     * read it here too, so the walk keeps to the deadline and the memory cap. Its memo is
     * held to the table's own bound: the two together then stay within the cap. */
    if (self->most_entries && walked->len > self->most_entries) {
        PyErr_SetString(PyExc_MemoryError, "the strategy outgrew the memory cap");
        return -1;
    }
    if (walked->len % WALK_CHECK_EVERY == 0 && call_check(self)) return -1;
    return found;
}

/* The depth of a successor (0 where the mover is out), from the walk's memo or walked anew. */
static long long child_depth(Core *self, const State *st, int move, State *child, int winner, Map *walked) {
    if (!successor(self, st, move, child)) return 0;
    return depth(self, child, winner, walked);
}

/* strategy_line(hands, turn, table, by) -> (strategy nodes, [(player, move), ...]) */
static PyObject *Core_strategy_line(Core *self, PyObject *args) {
    State st;
    if (parse_state(self, args, &st)) return NULL;
    Map *walked = &self->walked;
    if (map_clear(walked)) return PyErr_NoMemory();
    PyObject *line = PyList_New(0);
    PyObject *answer = NULL;
    int winner = line ? winner_of(self, &st) : -1;
    if (winner < 0 || depth(self, &st, winner, walked) < 0) goto done;
    size_t size = walked->len;
    for (;;) {
        int failed;
        int32_t result = walk_entry(self, &st, winner, &failed);
        if (failed) goto done;
        if (result < PASS && result != LOSS) { /* a plan: its plays, the others passing between */
            size_t offset = (size_t)(-2 - (int64_t)result);
            int length = self->plans.data[offset];
            for (int i = 0; i < length; i++) {
                PyObject *step = Py_BuildValue("(ii)", st.turn, self->plans.data[offset + 1 + i]);
                if (!step || PyList_Append(line, step)) {
                    Py_XDECREF(step);
                    goto done;
                }
                Py_DECREF(step);
                for (int k = 1; i < length - 1 && k < self->players; k++) {
                    step = Py_BuildValue("(ii)", (st.turn + k) % self->players, PASS);
                    if (!step || PyList_Append(line, step)) {
                        Py_XDECREF(step);
                        goto done;
                    }
                    Py_DECREF(step);
                }
            }
            break;
        }
        int best = result;
        State next;
        int more = 0;
        if (result == LOSS) { /* the longest resistance: the first deepest reply */
            int64_t v = st.table == NO_TABLE ? plays_of(self, st.hands[st.turn])
                                             : answers_of(self, st.hands[st.turn], st.table);
            if (v < 0) goto done;
            size_t base = self->scratch.len, count = span_length(v);
            if (ints_reserve(&self->scratch, count + 1)) {
                PyErr_NoMemory();
                goto done;
            }
            memcpy(&self->scratch.data[base], &self->arena.data[span_offset(v)], count * sizeof(int32_t));
            self->scratch.len += count;
            if (st.table != NO_TABLE) self->scratch.data[self->scratch.len++] = PASS;
            long long deepest = -1;
            for (size_t i = base; i < self->scratch.len; i++) {
                State child;
                long long d = child_depth(self, &st, self->scratch.data[i], &child, winner, walked);
                if (d < 0) {
                    self->scratch.len = base;
                    goto done;
                }
                if (d > deepest) {
                    deepest = d;
                    best = self->scratch.data[i];
                }
            }
            self->scratch.len = base;
        }
        more = successor(self, &st, best, &next);
        PyObject *step = Py_BuildValue("(ii)", st.turn, best);
        if (!step || PyList_Append(line, step)) {
            Py_XDECREF(step);
            goto done;
        }
        Py_DECREF(step);
        if (!more) break;
        st = next;
    }
    answer = Py_BuildValue("(nO)", (Py_ssize_t)size, line);
done:
    if (!answer && !PyErr_Occurred()) failure(self);
    self->failed = 0;
    Py_XDECREF(line);
    if (map_clear(walked) && answer) {
        Py_CLEAR(answer);
        PyErr_NoMemory();
    }
    return answer;
}

/* The strategy's nodes breadth first from the root, the proof's order, each handed to a
 * sink: its state, and either its plan (plan_length plays) or its edges, `count` moves
 * and the row each leads to (-1 where the mover goes out). `winning` says whether the
 * side to move is the winning side (one edge: its move) or not (every reply). A sink
 * returns -1 with a Python error set to stop the walk. */
typedef int (*RowSink)(Core *self, void *sink, const State *st, int winning, const int32_t *plan,
                       int plan_length, const int32_t *moves, const int32_t *rows, size_t count);

static int walk_strategy(Core *self, State root, RowSink emit, void *sink) {
    Map seen;
    if (map_init(&seen, 1024)) return PyErr_NoMemory(), -1;
    State *queue = malloc(sizeof(State) * 1024);
    size_t queued = 0, room = 1024;
    Ints rows = {NULL, 0, 0};
    int status = -1;
    u64 words[KEY_WORDS];
    state_words(&root, words);
    if (!queue || map_put(&seen, words[0], words[1], words[2], 0)) {
        PyErr_NoMemory();
        goto done;
    }
    queue[queued++] = root;
    int winner = winner_of(self, &root);
    if (winner < 0) goto done;
    for (size_t at = 0; at < queued; at++) {
        State st = queue[at];
        int failed;
        int32_t result = walk_entry(self, &st, winner, &failed);
        if (failed) goto done;
        if (result < PASS && result != LOSS) {
            size_t offset = (size_t)(-2 - (int64_t)result);
            int stop = emit(self, sink, &st, 1, &self->plans.data[offset + 1], self->plans.data[offset], NULL, NULL, 0);
            if (stop) goto done;
            continue;
        }
        size_t base = self->scratch.len;
        if (result != LOSS) {
            if (ints_push(&self->scratch, result)) {
                PyErr_NoMemory();
                goto done;
            }
        } else {
            int64_t v = moves_of(self, st.hands[st.turn], st.table);
            if (v < 0) goto done;
            if (ints_reserve(&self->scratch, span_length(v) + 1)) {
                PyErr_NoMemory();
                goto done;
            }
            memcpy(&self->scratch.data[base], &self->arena.data[span_offset(v)], span_length(v) * sizeof(int32_t));
            self->scratch.len += span_length(v);
            if (st.table != NO_TABLE) self->scratch.data[self->scratch.len++] = PASS;
        }
        size_t count = self->scratch.len - base;
        rows.len = 0;
        if (ints_reserve(&rows, count)) {
            self->scratch.len = base;
            PyErr_NoMemory();
            goto done;
        }
        for (size_t i = 0; i < count; i++) {
            State child;
            int32_t row = -1;
            if (successor(self, &st, self->scratch.data[base + i], &child)) {
                state_words(&child, words);
                Slot *s = map_find(&seen, words[0], words[1], words[2]);
                if (s) {
                    row = (int32_t)s->v;
                } else {
                    if (queued == room) {
                        State *grown = realloc(queue, sizeof(State) * room * 2);
                        if (!grown) {
                            self->scratch.len = base;
                            PyErr_NoMemory();
                            goto done;
                        }
                        queue = grown;
                        room *= 2;
                    }
                    row = (int32_t)queued;
                    queue[queued++] = child;
                    if (map_put(&seen, words[0], words[1], words[2], row)) {
                        self->scratch.len = base;
                        PyErr_NoMemory();
                        goto done;
                    }
                }
            }
            rows.data[rows.len++] = row;
        }
        int stop = emit(self, sink, &st, result != LOSS, NULL, 0, &self->scratch.data[base], rows.data, count);
        self->scratch.len = base;
        if (stop) goto done;
    }
    status = 0;
done:
    if (status && !PyErr_Occurred()) failure(self);
    self->failed = 0;
    free(queue);
    free(rows.data);
    map_free(&seen);
    return status;
}

#endif
