/*
 * States, table keys and values, and a node's moves and shortcuts: what the search (search.h)
 * reads and stores at each node.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_NODES_H
#define CPSOLVER_CORE_NODES_H

/* Table keys: the play to beat stands for the answers it lets be played     */

static int answer_class(Core *self, u64 hand, int table) {
    long index = known_index(self, hand, table);
    if (index < 0) return -1;
    if (self->known_of[index].number != UNKNOWN) return self->known_of[index].number;
    int64_t v = answers_of(self, hand, table);
    if (v < 0) return -1;
    const int32_t *list = &self->arena.data[span_offset(v)];
    size_t length = span_length(v);
    u64 h = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < length; i++) h = mix(h ^ (u64)(uint32_t)list[i]);
    h >>= 1; /* never the empty slot's mark */
    /* Equal hashes are told apart by comparing the lists: a probe on (h, length, k). */
    int found = -1;
    for (u64 k = 0;; k++) {
        Slot *c = map_find(&self->classes, h, length, k);
        if (!c) break;
        size_t offset = (size_t)(c->v >> 24);
        if (memcmp(&self->class_lists.data[offset], list, length * sizeof(int32_t)) == 0) {
            found = (int)(c->v & 0xFFFFFF);
            break;
        }
    }
    if (found < 0) {
        u64 k = 0;
        while (map_find(&self->classes, h, length, k)) k++;
        if (self->classes.len >= (1 << 24)) {
            PyErr_SetString(PyExc_MemoryError, "more answer classes than the table's keys hold");
            return -1;
        }
        found = (int)self->classes.len;
        size_t offset = self->class_lists.len;
        if (ints_reserve(&self->class_lists, length)) return PyErr_NoMemory(), -1;
        memcpy(&self->class_lists.data[offset], &self->arena.data[span_offset(v)], length * sizeof(int32_t));
        self->class_lists.len += length;
        if (map_put(&self->classes, h, length, k, ((int64_t)offset << 24) | found)) return PyErr_NoMemory(), -1;
    }
    return self->known_of[index].number = found;
}

typedef struct {
    u64 hands[3];
    int turn, table, by;
} State;

/* A packed hand's fifteen four-bit counts in three bits each (a count is at most 4): 45 bits. */
static inline u64 squeezed(u64 hand) {
    u64 x = (hand & 0x0707070707070707ULL) | (hand & 0x7070707070707070ULL) >> 1; /* 6 bits a byte */
    x = (x & 0x003F003F003F003FULL) | (x & 0x3F003F003F003F00ULL) >> 2;         /* 12 a 16-bit lane */
    x = (x & 0x00000FFF00000FFFULL) | (x & 0x0FFF00000FFF0000ULL) >> 4;         /* 24 a 32-bit lane */
    return (x & 0x0000000000FFFFFFULL) | (x & 0x00FFFFFF00000000ULL) >> 8;
}

/* The low bits of a key's third word that, with its first two, name the hands, turn and by:
 * the key's head. The play to beat, as the key names it, is above them. */
#define HEAD_BITS 11

/* A state's key in KEY_WORDS words: the three hands squeezed (the third's bits spread over all
 * three words), the turn and by, and `field` (under 2^53) for the play to beat. Three words, not
 * four, so that a table slot fits half a cache line. */
static inline void pack_key(const State *st, u64 field, u64 *key) {
    u64 third = squeezed(st->hands[2]);
    key[0] = squeezed(st->hands[0]) | third << 45;
    key[1] = squeezed(st->hands[1]) | (third >> 19) << 45;
    key[2] = third >> 38 | (u64)st->turn << 7 | (u64)(st->by + 1) << 9 | field << HEAD_BITS;
}

/* The head of a state's key: its hands, turn and by, which need no answer class
 * (shortcut_first compares states by them alone). */
static inline void key_head(const State *st, u64 *key) { pack_key(st, 0, key); }

static inline int same_head(const u64 *key, const u64 *other) {
    return key[0] == other[0] && key[1] == other[1] && !((key[2] ^ other[2]) & ((1ULL << HEAD_BITS) - 1));
}

/* The table's key of a state; -1 on failure. The play to beat stands as the answer classes it
 * leaves the player to move and the next (0: none, the lead). */
static int key_of(Core *self, const State *st, u64 *key) {
    if (st->table == NO_TABLE) {
        pack_key(st, 0, key);
        return 0;
    }
    int found = answer_class(self, st->hands[st->turn], st->table);
    if (found < 0) return -1;
    int64_t k = found;
    int following = (st->turn + 1) % self->players;
    if (following != st->by) { /* in the three-player game, the next player answers it too */
        int next = answer_class(self, st->hands[following], st->table);
        if (next < 0) return -1;
        k = (k << 24) | next; /* class numbers stay below 2^24 (the value's field) */
    }
    pack_key(st, (u64)k + 1, key);
    return 0;
}

/* A table value: the result (a move, LOSS, or -2 - plan offset) and the entry's cost, the
 * bit length of the number of nodes searched under it: eviction keeps the costliest. */
static inline int64_t entry_value(int32_t result, int cost) { return ((int64_t)cost << 32) | (uint32_t)result; }
static inline int32_t entry_result(int64_t v) { return (int32_t)(uint32_t)(v & 0xFFFFFFFF); }
static inline int entry_cost(int64_t v) { return (int)((u64)v >> 32); }

static inline int cost_of(long long nodes) { return nodes > 0 ? 64 - __builtin_clzll((u64)nodes) : 0; }

static int evict_to(Core *self, size_t keep, int caches);
static int free_caches(Core *self);

/* Whether a result found by searching this many nodes (the node itself included) is kept:
 * one found in fewer than LEAST_KEPT is found again as cheaply as it is looked up, and
 * keeping it would double the table (solver.py's _LEAST_KEPT, the same rule). The state a
 * question is asked of (`root`) is always kept. */
#define LEAST_KEPT 3
static inline int kept(const Core *self, const u64 *key, long long searched) {
    return searched >= LEAST_KEPT || self->keep_all || !memcmp(key, self->root, sizeof self->root);
}

/* A result found in fewer than LEAST_KEPT nodes is kept (see shortcut_first): a question's own
 * state is remembered among the cheap roots, any other (keep_all) turns shortcut_first off. */
static void note_cheap(Core *self, const u64 *key) {
    if (self->keep_all || self->cheap_root_count == CHEAP_ROOTS) {
        self->cheap_kept = 1;
        return;
    }
    for (int i = 0; i < self->cheap_root_count; i++)
        if (same_head(self->cheap_roots[i], key)) return;
    memcpy(self->cheap_roots[self->cheap_root_count++], key, KEY_WORDS * sizeof(u64));
}

static int store_costing(Core *self, const u64 *key, int32_t result, long long searched) {
    if (!kept(self, key, searched)) return 0;
    if (searched < LEAST_KEPT) note_cheap(self, key);
    if (self->most_entries && self->table.len >= self->most_entries && evict_to(self, self->most_entries / 2, 0))
        return -1;
    if (map_put(&self->table, key[0], key[1], key[2], entry_value(result, cost_of(searched)))) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int store(Core *self, const u64 *key, int32_t result) { return store_costing(self, key, result, 1); }

static int store_plan(Core *self, const u64 *key, int64_t plan) {
    if (!kept(self, key, 1)) return 0;
    if (self->most_entries && self->table.len >= self->most_entries && evict_to(self, self->most_entries / 2, 0))
        return -1;
    int length = self->run_plans.data[plan];
    size_t offset = self->plans.len;
    if (ints_reserve(&self->plans, (size_t)length + 1)) return PyErr_NoMemory(), -1;
    memcpy(&self->plans.data[offset], &self->run_plans.data[plan], ((size_t)length + 1) * sizeof(int32_t));
    self->plans.len += (size_t)length + 1;
    return store(self, key, (int32_t)(-2 - (int64_t)offset));
}

/* ------------------------------------------------------------------------ */
/* The search                                                                */

static int call_check(Core *self) {
    if (!self->check) { /* cleared by the collector: no clock, no cap */
        self->stop_at = 0;
        return 0;
    }
    PyObject *left = PyObject_CallNoArgs(self->check);
    if (!left) {
        self->failed = 1;
        return -1;
    }
    if (left == Py_None) {
        self->stop_at = 0;
    } else {
        double seconds = PyFloat_AsDouble(left);
        if (seconds == -1.0 && PyErr_Occurred()) {
            Py_DECREF(left);
            self->failed = 1;
            return -1;
        }
        self->stop_at = clock_now() + (seconds > 0 ? seconds : 1e-9);
    }
    Py_DECREF(left);
    return 0;
}

static int successor(const Core *self, const State *st, int move, State *child) {
    int following = (st->turn + 1) % self->players;
    *child = *st;
    child->turn = following;
    if (move == PASS) {
        if (following == st->by) { /* everyone else passed: the last player to play leads */
            child->table = NO_TABLE;
            child->by = -1;
        }
        return 1;
    }
    u64 left = st->hands[st->turn] - self->plays[move].cards;
    if (!left) return 0; /* the mover is out */
    child->hands[st->turn] = left;
    child->table = move;
    child->by = st->turn;
    return 1;
}

/* Past every player who cannot answer the table: a forced pass is no choice, so the search
 * goes on from the next player who has one (the lead, at the latest), with no node of its own. */
static inline void pass_through(const Core *self, State *st) {
    while (st->table != NO_TABLE && !can_answer(self, st->hands[st->turn], st->table)) {
        State next;
        successor(self, st, PASS, &next);
        *st = next;
    }
}

/* A question's place in open_nodes: its prover side in its move order. */
static inline int question_of(const Core *self, int prover) { return prover + 2 * self->order; }

/* In ORDER_LEFT_PASSES, the landlord's next player (player 1, a peasant) passes first over the
 * landlord's play, leaving it to its partner (tree.Tree._with_pass). */
static inline int left_passes_first(const Core *self, const State *st) {
    return self->order == ORDER_LEFT_PASSES && st->turn == 1 && !self->alone[1] && st->by == 0;
}

/* The hand of `player`'s partner in `st` (0: none). */
static inline u64 partner_of(const Core *self, const State *st, int player) {
    if (self->alone[player]) return 0;
    return st->hands[3 - player]; /* the peasants are players 1 and 2 */
}

/* The keys of `st` with one of player `p`'s lone cards raised to a rank above it that `p` does
 * not hold, its partner (if any) holding no card above the lone one up to that rank (kickers.py's
 * raised, the same candidates in the same order: the hand with the higher card copies whatever
 * this one does), each key's probe started so that the look-ups wait for memory together. */
#define RAISED_MOST 64 /* the candidates of a hand: its lone cards times the ranks above, at most 6 * 7 */
static int raised_keys(Core *self, const State *st, int p, u64 keys[RAISED_MOST][KEY_WORDS]) {
    u64 hand = st->hands[p], partner = partner_of(self, st, p);
    int n = 0;
    for (int lower = 0; lower < TWO; lower++) {
        if (count_of(hand, lower) != 1 || chained(self, hand, lower, 1)) continue;
        for (int higher = lower + 1; higher <= TWO; higher++) {
            if (count_of(partner, higher)) break; /* it would beat the lone card, not the raised one */
            if (count_of(hand, higher) || !swappable(self, lower, higher)) continue;
            State raised = *st;
            raised.hands[p] = hand - ((u64)1 << (4 * lower)) + ((u64)1 << (4 * higher));
            pack_key(&raised, 0, keys[n]);
            map_prefetch(&self->table, keys[n][0], keys[n][1], keys[n][2]);
            n++;
        }
    }
    return n;
}

/* Whether the player to move, on lead, loses as the table says it does with one of its lone
 * cards raised (carried.py's lost_raised). */
static int lost_raised(Core *self, const State *st) {
    u64 keys[RAISED_MOST][KEY_WORDS];
    int n = raised_keys(self, st, st->turn, keys);
    for (int i = 0; i < n; i++) {
        Slot *s = map_find(&self->table, keys[i][0], keys[i][1], keys[i][2]);
        if (s && entry_result(s->v) == LOSS) return 1;
    }
    return 0;
}

/* The move with which the player to move, on lead, wins as the table says it does with one
 * of the lone cards of its opponent alone (the landlord, against a peasant; the other player
 * of two) raised, or -1 (carried.py's won_raised: the first such win in the same order). */
static int won_raised(Core *self, const State *st) {
    for (int i = 0; i < self->opponent_count[st->turn]; i++) {
        int p = self->opponents[st->turn][i];
        if (!self->alone[p]) continue;
        u64 keys[RAISED_MOST][KEY_WORDS];
        int n = raised_keys(self, st, p, keys);
        for (int k = 0; k < n; k++) {
            Slot *s = map_find(&self->table, keys[k][0], keys[k][1], keys[k][2]);
            if (s && entry_result(s->v) >= 0) return entry_result(s->v); /* a move, not a plan */
        }
    }
    return -1;
}

#define FULL_SEARCH (-1) /* the prover of the full search (solver.py's): a side is 0 or 1 */

/* A node's moves, unless a shortcut wins it: the shortcuts tried (a win found by one is
 * stored), else the moves pushed on the scratch stack in the order they are tried.
 * Returns 1 (the mover wins by a shortcut), 0 (moves pushed at *base, *total of them: none
 * where a player alone is countered, or loses with a lone card raised: a loss), -1 failure.
 * With `tried`, the shortcuts were tried already and settled nothing; with no `key`, only the
 * shortcuts are tried and nothing is stored or pushed (settled_at_once), and 2 says the mover
 * is countered. `prover` is the side a narrow question asks of (FULL_SEARCH: none). */
static int node_moves(Core *self, const State *st, const u64 *key, size_t *base, size_t *total, int tried,
                      int prover) {
    u64 hand = st->hands[st->turn];
    int side = self->side[st->turn];
    u64 opponents[2];
    int n = self->opponent_count[st->turn];
    for (int i = 0; i < n; i++) opponents[i] = st->hands[self->opponents[st->turn][i]];
    int whole = whole_of(self, hand);
    if (whole == -2) return -1;
    int64_t moves;
    int pass_first = 0, pass_last = 0;
    if (st->table == NO_TABLE) {
        if (!tried) {
            if (whole >= 0) return key && store(self, key, whole) ? -1 : 1; /* out now */
            int64_t plan = runs_out(self, hand, opponents, n);
            if (plan == -2) return -1;
            if (plan >= 0 && self->run_plans.data[plan] > 0) return key && store_plan(self, key, plan) ? -1 : 1;
            int lost = self->alone[st->turn] ? countered(self, hand, opponents, n) : 0;
            if (lost < 0) return -1;
            if (lost && !key) return 2;
            if (lost) { /* no move to try: a loss, stored where a result this cheap is kept */
                *base = self->scratch.len;
                *total = 0;
                return 0;
            }
        }
        if (!key) return 0; /* only the shortcuts asked for */
        /* Asked where every move of the mover must be refuted, or in the full search: where the
         * mover is the prover, such losses are rare and the look-ups cost more than they save. */
        if (side != prover && lost_raised(self, st)) { /* a loss, as countered */
            *base = self->scratch.len;
            *total = 0;
            return 0;
        }
        /* And the converse, a win read with the opponent's card raised, where the mover's
         * wins are sought: the other side's positions vary there, every move answered. */
        if (side == prover || prover == FULL_SEARCH) {
            int won = won_raised(self, st);
            if (won >= 0) return store(self, key, won) ? -1 : 1;
        }
        moves = self->alone[st->turn] ? alone_of(self, hand, NO_TABLE) : ordered_of(self, hand, NO_TABLE);
    } else {
        int64_t candidates = answers_of(self, hand, st->table);
        if (candidates < 0) return -1;
        for (size_t i = 0; !tried && whole >= 0 && i < span_length(candidates); i++)
            if (self->arena.data[span_offset(candidates) + i] == whole)
                return key && store(self, key, whole) ? -1 : 1; /* out now */
        for (size_t i = 0; !tried && i < span_length(candidates); i++) {
            /* An answer nobody beats, then out from the lead. */
            int play = self->arena.data[span_offset(candidates) + i];
            if (!safe(self, play, opponents, n)) continue;
            int64_t plan = runs_out(self, hand - self->plays[play].cards, opponents, n);
            if (plan == -2) return -1;
            if (plan >= 0 && self->run_plans.data[plan] > 0) return key && store(self, key, play) ? -1 : 1;
        }
        if (!key) return 0; /* only the shortcuts asked for */
        moves = self->alone[st->turn] ? alone_of(self, hand, st->table) : ordered_of(self, hand, st->table);
        if (self->side[st->by] == side || left_passes_first(self, st))
            pass_first = 1; /* over a partner's play, passing first */
        else
            pass_last = 1;
    }
    if (moves < 0) return -1;
    /* This node's moves, copied onto the stack: eviction may empty the caches below. */
    size_t length = span_length(moves);
    *base = self->scratch.len;
    if (ints_reserve(&self->scratch, length + 1)) return PyErr_NoMemory(), -1;
    if (pass_first) self->scratch.data[self->scratch.len++] = PASS;
    memcpy(&self->scratch.data[self->scratch.len], &self->arena.data[span_offset(moves)], length * sizeof(int32_t));
    length = unoutranked(self, &self->scratch.data[self->scratch.len], length, hand, opponents, n,
                         partner_of(self, st, st->turn), st->table);
    self->scratch.len += length;
    if (pass_last) self->scratch.data[self->scratch.len++] = PASS;
    *total = self->scratch.len - *base;
    return 0;
}

/* Whether a node tries its shortcuts before its look-ups (its key, the table, the open marks),
 * which cost more than the shortcuts on the third of a full deal's nodes a shortcut wins.
 * A shortcut's win is a cheap result, kept only for a question's own state or under keep_all
 * (kept()), and never left open: so a node a shortcut wins is found in neither map unless it
 * was a question's state, or keep_all kept a cheap result. Those nodes still look up first,
 * so the search counts the very nodes the Python search counts, and stores the same. */
static inline int shortcut_first(const Core *self, const State *st) {
    if (self->keep_all || self->cheap_kept) return 0;
    /* A state matching a root on its key's head is looked up first, whatever its table. */
    u64 head[KEY_WORDS];
    key_head(st, head);
    if (same_head(self->root, head)) return 0;
    for (int i = 0; i < self->cheap_root_count; i++)
        if (same_head(self->cheap_roots[i], head)) return 0;
    return 1;
}

/* Whether a shortcut settles the node, tried before its look-ups where shortcut_first lets it
 * (*first says so; the node then counts as wins() and proves() count one): 1 (the mover wins),
 * 2 (it loses: countered), 0 (neither, or not tried), -1 failure. */
static int settled_at_once(Core *self, const State *st, int *first) {
    *first = shortcut_first(self, st);
    if (!*first) return 0;
    size_t base, total;
    int shortcut = node_moves(self, st, NULL, &base, &total, 0, FULL_SEARCH);
    if (!shortcut) return 0;
    if (shortcut < 0 || (++self->nodes % CHECK_EVERY == 0 && call_check(self))) return -1;
    return shortcut;
}

#endif
