/*
 * Kicker choices a player without a partner never needs: the search leaves them out
 * (cpsolver/endgame/kickers.py, where the proof is, in the same steps).
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_KICKERS_H
#define CPSOLVER_CORE_KICKERS_H

/* Whether every core of the rules holding neither rank allows as many kickers of each, and a
 * core of one rank alone carries the same kickers of every other rank at either. */
static int swappable(Core *self, int a, int b) {
    if (self->swappable[a][b] >= 0) return self->swappable[a][b];
    int found = 1;
    for (int i = 0; found && i < self->pattern_count; i++) {
        const Pattern *p = &self->patterns[i];
        if (!p->kicker_size) continue;
        if (p->min_chain == 1) {
            const uint8_t *at_a = &p->limits[(a * RANKS + a) * RANKS], *at_b = &p->limits[(b * RANKS + b) * RANKS];
            for (int rank = 0; rank < RANKS; rank++)
                if (rank != a && rank != b && at_a[rank] != at_b[rank]) found = 0;
        }
        for (int chain = p->min_chain; found && chain <= p->max_chain; chain++)
            for (int top = chain - 1; found && top <= (chain > 1 ? self->highest : RANKS - 1); top++) {
                int low = top - chain + 1;
                if ((low <= a && a <= top) || (low <= b && b <= top)) continue;
                const uint8_t *limits = &p->limits[(low * RANKS + top) * RANKS];
                if (limits[a] != limits[b]) found = 0;
            }
    }
    return self->swappable[a][b] = (int8_t)found;
}

/* Whether some chain of the rules with at most `count` cards a rank runs through `rank`. */
static int chained(const Core *self, u64 rest, int rank, int count) {
    if (rank > self->highest) return 0;
    for (int i = 0; i < self->pattern_count; i++) {
        const Pattern *p = &self->patterns[i];
        if (p->max_chain < 2 || p->width > count) continue;
        int run = 1;
        for (int below = rank - 1; below >= 0 && count_of(rest, below) >= p->width; below--) run++;
        for (int above = rank + 1; above <= self->highest && count_of(rest, above) >= p->width; above++) run++;
        if (run >= p->min_chain) return 1;
    }
    return 0;
}

/* Whether `hand` holds a card of a rank above `lower`, up to `high`. */
static inline int holds_between(u64 hand, int lower, int high) {
    for (int rank = lower + 1; hand && rank <= high; rank++)
        if (count_of(hand, rank)) return 1;
    return 0;
}

/* Whether the play from `hand` kicks some rank that a lower one could stand for, a partner
 * (0: none) holding no card between the two. */
static int needless(Core *self, u64 hand, int move, u64 partner) {
    PlayRecord r = self->plays[move];
    if (r.pattern < 0) return 0;
    const Pattern *p = &self->patterns[r.pattern];
    if (!p->kicker_size) return 0;
    int low = r.top - r.chain + 1;
    u64 kickers = r.cards - core_cards(p->width, r.chain, r.top);
    u64 rest = hand - r.cards;
    for (int high = 1; high < BLACK; high++) {
        int kicked = count_of(kickers, high);
        if (!kicked || (low <= high && high <= r.top) || count_of(rest, high)) continue;
        for (int lower = 0; lower < high; lower++)
            if (count_of(rest, lower) == kicked && !count_of(r.cards, lower) && swappable(self, lower, high) &&
                !chained(self, rest, lower, kicked) && !holds_between(partner, lower, high))
                return 1;
    }
    return 0;
}

/* Whether a play of one rank's core (no chain, no bomb) from `hand` is worth no more than the
 * same play, the same kickers, of a lower rank, `lowest` or above (kickers.py's outranked): the
 * opponents hold no core of it between the two ranks, and a partner (0: none) no card. */
static int outranked(Core *self, u64 hand, int move, const u64 *opponents, int n, u64 partner, int lowest) {
    PlayRecord r = self->plays[move];
    if (r.pattern < 0 || r.chain != 1 || r.top >= BLACK) return 0;
    const Pattern *p = &self->patterns[r.pattern];
    if (p->kind == KIND_BOMB) return 0;
    int width = p->width;
    u64 rest = hand - r.cards;
    if (count_of(rest, r.top)) return 0;
    for (int lower = r.top - 1; lower >= lowest; lower--) {
        if (count_of(partner, lower + 1)) return 0;
        for (int i = 0; i < n; i++)
            if (count_of(opponents[i], lower + 1) >= width) return 0; /* it answers the lower play only */
        if (count_of(rest, lower) == width && !count_of(r.cards, lower) && swappable(self, lower, r.top) &&
            !chained(self, rest, lower, width))
            return 1;
    }
    return 0;
}

/* Drop from the `count` moves at `moves` those outranked (above) and, for a peasant (`partner`
 * not 0; the landlord's are left out beforehand, by alone_of), the needless kickers; returns
 * how many are left. */
static size_t unoutranked(Core *self, int32_t *moves, size_t count, u64 hand, const u64 *opponents, int n,
                          u64 partner, int table) {
    int lowest = table == NO_TABLE ? 0 : self->plays[table].top + 1;
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        int move = moves[i];
        if (move != PASS &&
            (outranked(self, hand, move, opponents, n, partner, lowest) || (partner && needless(self, hand, move, partner))))
            continue;
        moves[kept++] = move;
    }
    return kept;
}

/* The ordered moves of a player with no partner: ordered_of's, the needless ones left out. */
static int64_t alone_of(Core *self, u64 hand, int table) {
    long index = known_index(self, hand, table);
    if (index < 0) return -1;
    if (self->known_of[index].alone >= 0) return self->known_of[index].alone;
    int64_t moves = ordered_of(self, hand, table);
    if (moves < 0) return -1;
    size_t length = span_length(moves);
    if (ints_reserve(&self->arena, length)) return PyErr_NoMemory(), -1;
    size_t start = self->arena.len, kept = 0;
    for (size_t i = 0; i < length; i++) {
        int move = self->arena.data[span_offset(moves) + i];
        if (!needless(self, hand, move, 0)) self->arena.data[start + kept++] = move;
    }
    self->arena.len += kept;
    return self->known_of[index].alone = span(start, kept);
}

#endif
