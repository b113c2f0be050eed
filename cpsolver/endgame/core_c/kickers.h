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

/* Whether `hand` holds `width` cards or more of each rank of the chain of `chain` ranks up to `top`. */
static inline int holds_chain(u64 hand, int width, int chain, int top) {
    for (int rank = top - chain + 1; rank <= top; rank++)
        if (count_of(hand, rank) < width) return 0;
    return 1;
}

/* Whether a play (no bomb, no joker; a chain without kickers) from `hand` is worth no more than
 * the same play, the same kickers, of a lower top, `lowest` or above (kickers.py's outranked):
 * the opponents hold no such play between the two, and a partner (0: none) no card. Each rank
 * of the lower play's that the play has not (`lower`, upward) is matched to one of the play's
 * that the lower has not (`higher`, upward), every pair swapped as the kickers' are. */
static int outranked(Core *self, u64 hand, int move, const u64 *opponents, int n, u64 partner, int lowest) {
    PlayRecord r = self->plays[move];
    if (r.pattern < 0 || r.top >= BLACK) return 0;
    const Pattern *p = &self->patterns[r.pattern];
    if (p->kind == KIND_BOMB || (r.chain > 1 && p->kicker_size)) return 0;
    int width = p->width, chain = r.chain, low = r.top - chain + 1;
    u64 rest = hand - r.cards;
    for (int top = r.top - 1; top >= lowest && top >= chain - 1; top--) {
        int bottom = top - chain + 1;
        if (holds_between(partner, bottom, r.top)) return 0;
        for (int i = 0; i < n; i++)
            if (holds_chain(opponents[i], width, chain, top + 1)) return 0; /* it answers the lower play only */
        int swaps = r.top - top < chain ? r.top - top : chain, fits = 1;
        int higher = top + 1 > low ? top + 1 : low;
        for (int k = 0; fits && k < swaps; k++) {
            int a = bottom + k, b = higher + k;
            fits = count_of(rest, a) == width && !count_of(r.cards, a) && !count_of(rest, b) &&
                   swappable(self, a, b) && !chained(self, rest, a, width);
        }
        if (fits) return 1;
    }
    return 0;
}

/* A play of all the hand's cards of one rank and nothing else (a single, pair or triplet; no
 * bomb, no joker): its rank, else -1. Such a play's refutation may carry to a higher one
 * (search.h's carried, kickers.py's lone_group). */
static inline int lone_group(const Core *self, u64 hand, int move) {
    if (move == PASS) return -1;
    PlayRecord r = self->plays[move];
    if (r.pattern < 0 || r.strong || r.chain != 1 || r.top >= BLACK) return -1;
    if (r.size != self->patterns[r.pattern].width || count_of(hand, r.top) != r.size) return -1;
    return r.top;
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
