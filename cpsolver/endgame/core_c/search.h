/*
 * The search itself: the full search (wins) and the narrow questions (proves).
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_SEARCH_H
#define CPSOLVER_CORE_SEARCH_H

/* Refutations carried to higher plays (carried.py, the same steps). When a player
 * alone (the landlord; either player of two) loses by playing all its cards of rank `a`, a
 * single, pair or triplet, and the other side's first answer beats the same play of a higher
 * rank `b` too (a play of that kind above `b`, a bomb, or no answer at all), then playing its
 * `b` cards instead loses as well, where the copy of kickers.h holds (the `a` cards are as
 * many, make no chain in what is left, and the ranks are swappable): after that same answer
 * the player holds the `a` cards where it held the `b` ones, and a hand holding the `b` cards
 * copies whatever the hand holding the `a` cards does (kickers.py). So that play is not tried.
 * The answer is the one the table holds for the position after the play (past a pass, the
 * next player's), as the search found it. */
typedef struct {
    int rank, width, above; /* the refuted play's rank and width; its answer beats such plays below `above` */
} Refuted;
#define REFUTED_MOST 16 /* refutations remembered at a node (searchcore.py's REFUTED_MOST) */

/* The rank below which the answer after the mover's lone play of `width` cards, leading to
 * `child`, beats such plays too: RANKS for a bomb or no answer (the mover leads again), -1 where
 * the table holds no answer of the kind; -2 on failure. */
static int carried_to(Core *self, const State *child, int mover, int width) {
    State st = *child;
    while (st.turn != mover) {
        u64 key[KEY_WORDS];
        if (key_of(self, &st, key)) return -2;
        Slot *s = map_find(&self->table, key[0], key[1], key[2]);
        int32_t move = s ? entry_result(s->v) : LOSS;
        if (move != PASS) {
            if (move < 0) return -1; /* not kept, or no answer kept */
            PlayRecord r = self->plays[move];
            if (r.strong) return RANKS;
            return r.size == width && r.chain == 1 ? r.top : -1;
        }
        State next;
        successor(self, &st, PASS, &next);
        pass_through(self, &next);
        st = next;
    }
    return st.table == NO_TABLE ? RANKS : -1;
}

/* Whether a refutation remembered carries to the lone play of `width` cards of `rank`. */
static int carried(Core *self, u64 hand, const Refuted *refuted, int n, int rank, int width) {
    u64 rest = hand - ((u64)width << (4 * rank)); /* what the play leaves, the lower cards among it */
    for (int i = 0; i < n; i++) {
        const Refuted *r = &refuted[i];
        if (r->width == width && r->rank < rank && rank < r->above && swappable(self, r->rank, rank) &&
            !chained(self, rest, r->rank, width))
            return 1;
    }
    return 0;
}

/* After the mover's lone play (`rank` -1: another move) from `st` lost, leading to `child`:
 * how far its refutation carries, remembered. 0, or -1 on failure. */
static int note_refuted(Core *self, const State *st, const State *child, int rank, int width, Refuted *refuted,
                        int *n) {
    if (rank < 0 || *n == REFUTED_MOST) return 0;
    int above = carried_to(self, child, st->turn, width);
    if (above == -2) return -1;
    if (above > rank + 1) refuted[(*n)++] = (Refuted){rank, width, above};
    return 0;
}

/* Whether the side of the player to move wins: 1, 0, or -1 on failure (an exception set, or out of time). */
static int wins(Core *self, const State *st) {
    u64 key[KEY_WORDS];
    size_t base, total;
    int first, at_once = settled_at_once(self, st, &first);
    if (at_once) return at_once == 2 ? 0 : at_once;
    if (key_of(self, st, key)) return -1;
    Slot *s = map_find_to_put(&self->table, key[0], key[1], key[2]);
    if (s) return entry_result(s->v) != LOSS;
    if (++self->nodes % CHECK_EVERY == 0 && call_check(self)) return -1;
    long long before = self->nodes;
    int side = self->side[st->turn];
    int shortcut = node_moves(self, st, key, &base, &total, first, FULL_SEARCH);
    if (shortcut) return shortcut;
    int result = 0;
    Refuted refuted[REFUTED_MOST];
    int refutations = 0, alone = self->alone[st->turn];
    u64 hand = st->hands[st->turn];
    for (size_t i = 0; i < total; i++) {
        int move = self->scratch.data[base + i];
        State child;
        int won;
        int rank = alone ? lone_group(self, hand, move) : -1, width = rank >= 0 ? self->plays[move].size : 0;
        if (rank >= 0 && carried(self, hand, refuted, refutations, rank, width)) {
            self->carried++;
            continue;
        }
        if (!successor(self, st, move, &child)) {
            won = 1; /* a move that empties the hand wins (taken above as out now) */
            child.turn = st->turn;
        } else {
            pass_through(self, &child);
            won = wins(self, &child);
            if (won < 0) {
                self->scratch.len = base;
                return -1;
            }
        }
        if (self->side[child.turn] == side ? won : !won) {
            result = 1;
            if (store_costing(self, key, move, self->nodes - before + 1)) result = -1;
            break;
        }
        if (note_refuted(self, st, &child, rank, width, refuted, &refutations)) {
            result = -1;
            break;
        }
    }
    self->scratch.len = base;
    if (result == 0 && store_costing(self, key, LOSS, self->nodes - before + 1)) return -1;
    return result;
}

/* ------------------------------------------------------------------------ */
/* Widening: one side's win sought among its first few moves at each node    */

#define PROVEN 1
#define REFUTED 0
#define OPEN 2

/* Whether side `prover` wins when it tries only its first `width` moves at each of its nodes
 * (every move of the other side still answered): PROVEN (it wins: exact), REFUTED (it loses
 * whatever it does: exact, its every move tried), OPEN (no win among so few moves), or -1
 * on failure. Exact results are stored in the table as wins() stores them, so a later search
 * at any width, or the full one, reads them; OPEN ones only in the prover's `open_nodes`, for
 * this one question (the caller empties it). */
static int proves(Core *self, const State *st, int prover, int width) {
    u64 key[KEY_WORDS];
    size_t base, total;
    int mine = self->side[st->turn] == prover;
    int first, at_once = settled_at_once(self, st, &first);
    if (at_once) return at_once < 0 ? -1 : (at_once == 1) == mine ? PROVEN : REFUTED;
    if (key_of(self, st, key)) return -1;
    Map *open = &self->open_nodes[question_of(self, prover)];
    map_prefetch(open, key[0], key[1], key[2]);
    Slot *s = map_find_to_put(&self->table, key[0], key[1], key[2]);
    if (s) return (entry_result(s->v) != LOSS) == mine ? PROVEN : REFUTED;
    if (map_find(open, key[0], key[1], key[2])) return OPEN;
    if (++self->nodes % CHECK_EVERY == 0 && call_check(self)) return -1;
    long long before = self->nodes;
    int shortcut = node_moves(self, st, key, &base, &total, first, prover);
    if (shortcut) return shortcut < 0 ? -1 : mine ? PROVEN : REFUTED;
    size_t tried = mine && (size_t)width < total ? (size_t)width : total;
    int result = mine ? REFUTED : PROVEN; /* what every move tried so far gives */
    int32_t winning = LOSS;
    /* The other side's refuted plays carried (see carried); the prover's own are tried. */
    Refuted refuted[REFUTED_MOST];
    int refutations = 0, alone = !mine && self->alone[st->turn];
    u64 hand = st->hands[st->turn];
    for (size_t i = 0; i < tried; i++) {
        int move = self->scratch.data[base + i];
        State child;
        int rank = alone ? lone_group(self, hand, move) : -1, group = rank >= 0 ? self->plays[move].size : 0;
        if (rank >= 0 && carried(self, hand, refuted, refutations, rank, group)) {
            self->carried++;
            continue;
        }
        int found = mine ? PROVEN : REFUTED; /* a move that empties the hand (taken above as out now) */
        if (successor(self, st, move, &child)) {
            pass_through(self, &child);
            found = proves(self, &child, prover, width);
            if (found < 0) {
                self->scratch.len = base;
                return -1;
            }
        }
        if (found == (mine ? PROVEN : REFUTED)) { /* the mover wins with this move */
            result = found;
            winning = move;
            break;
        }
        if (found == OPEN) {
            result = OPEN;
            if (!mine) break; /* the other side escapes the proof with this move */
        }
        if (note_refuted(self, st, &child, rank, group, refuted, &refutations)) {
            self->scratch.len = base;
            return -1;
        }
    }
    self->scratch.len = base;
    if (result == REFUTED && mine && tried < total) result = OPEN; /* moves left untried */
    if (result == OPEN) {
        if (self->most_entries && open->len >= self->most_entries && map_clear(open)) return PyErr_NoMemory(), -1;
        if (map_put(open, key[0], key[1], key[2], 0)) return PyErr_NoMemory(), -1;
        return OPEN;
    }
    return store_costing(self, key, winning, self->nodes - before + 1) ? -1 : result;
}

static int parse_state(Core *self, PyObject *args, State *st);
static int fill_state(Core *self, PyObject *hands, State *st);
static PyObject *failure(Core *self);

#endif
