/*
 * What is known of each hand: its plays, answers, order and fewest plays.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_HANDS_H
#define CPSOLVER_CORE_HANDS_H

/* Cached lists of hands                                                     */

/* The record of a hand on lead (table NO_TABLE) or over a play, made empty if new; -1 on failure.
 * An index, not a pointer: records move when more are made. */
static long known_index(Core *self, u64 hand, int table) {
    KnownRecent *recent = &self->recent[((hand + (u64)(uint32_t)table * 0x9E3779B97F4A7C15ULL) *
                                         0xC2B2AE3D27D4EB4FULL) >> (64 - RECENT_BITS)];
    if (recent->index && recent->hand == hand && recent->table == table) return recent->index - 1;
    Slot *s = map_find(&self->known, hand, (u64)(table + 1), 0);
    if (s) {
        *recent = (KnownRecent){hand, table, (int32_t)s->v + 1};
        return (long)s->v;
    }
    if (self->known_count == self->known_cap) {
        size_t cap = self->known_cap ? self->known_cap * 2 : 1024;
        Known *grown = realloc(self->known_of, cap * sizeof(Known));
        if (!grown) return PyErr_NoMemory(), -1;
        self->known_of = grown;
        self->known_cap = cap;
    }
    long index = (long)self->known_count++;
    self->known_of[index] = (Known){-1, -1, UNKNOWN, -1, -1};
    if (map_put(&self->known, hand, (u64)(table + 1), 0, index)) return PyErr_NoMemory(), -1;
    return index;
}

/* The plays of a hand (table NO_TABLE) or its answers to a play, as a span of the arena. */
static int64_t moves_of(Core *self, u64 hand, int table) {
    long index = known_index(self, hand, table);
    if (index < 0) return -1;
    if (self->known_of[index].moves >= 0) return self->known_of[index].moves;
    size_t start = self->arena.len;
    if (table == NO_TABLE ? generate_plays(self, hand, &self->arena)
                          : generate_answers(self, hand, table, &self->arena))
        return -1;
    return self->known_of[index].moves = span(start, self->arena.len - start);
}

static int64_t plays_of(Core *self, u64 hand) { return moves_of(self, hand, NO_TABLE); }

static int64_t answers_of(Core *self, u64 hand, int table) { return moves_of(self, hand, table); }

/* The play that is the whole hand, or -1; -2 on failure. */
static int whole_of(Core *self, u64 hand) {
    long index = known_index(self, hand, NO_TABLE);
    if (index < 0) return -2;
    if (self->known_of[index].number != UNKNOWN) return self->known_of[index].number;
    int64_t v = plays_of(self, hand);
    if (v < 0) return -2;
    int found = -1;
    for (size_t i = 0; i < span_length(v); i++) {
        int play = self->arena.data[span_offset(v) + i];
        if (self->plays[play].cards == hand) {
            found = play;
            break;
        }
    }
    return self->known_of[index].number = found;
}

static inline u64 lowest_field(u64 hand) {
    int bit = __builtin_ctzll(hand);
    return (u64)0xF << (4 * (bit / 4));
}

/* The fewest plays the hand splits into; -1 on failure or past the deadline. */
static int fewest(Core *self, u64 hand) {
    if (!hand) return 0;
    long index = known_index(self, hand, NO_TABLE);
    if (index < 0) return -1;
    if (self->known_of[index].fewest >= 0) return self->known_of[index].fewest;
    if (++self->splits % CHECK_SPLITS_EVERY == 0 && self->stop_at > 0 && clock_now() > self->stop_at) {
        self->failed = 2; /* the time ran out: the Python side raises OutOfTime */
        return -1;
    }
    int64_t v = plays_of(self, hand);
    if (v < 0) return -1;
    size_t offset = span_offset(v), length = span_length(v);
    u64 lowest = lowest_field(hand);
    int best = 1 << 30;
    for (size_t i = 0; i < length; i++) {
        u64 cards = self->plays[self->arena.data[offset + i]].cards;
        if (!(cards & lowest)) continue;
        int rest = fewest(self, hand - cards);
        if (rest < 0) return -1;
        if (rest + 1 < best) best = rest + 1;
        if (best == 1) break;
    }
    return self->known_of[index].fewest = best;
}

static int compare_keys(const void *x, const void *y) {
    u64 a = *(const u64 *)x, b = *(const u64 *)y;
    return a < b ? -1 : a > b;
}

/* Sort moves (in place, stably) by (strong, fewest plays left, rank, larger first). */
static int order(Core *self, u64 hand, int32_t *moves, size_t n) {
    if (n < 2) return 0;
    u64 *keys = malloc(n * sizeof(u64));
    int32_t *sorted = malloc(n * sizeof(int32_t));
    if (!keys || !sorted) {
        free(keys);
        free(sorted);
        return PyErr_NoMemory(), -1;
    }
    for (size_t i = 0; i < n; i++) {
        PlayRecord r = self->plays[moves[i]];
        int left = fewest(self, hand - r.cards);
        if (left < 0) {
            free(keys);
            free(sorted);
            return -1;
        }
        /* The position i last: ties keep the generator's order, as Python's stable sort. */
        keys[i] = ((u64)r.strong << 62) | ((u64)left << 52) | ((u64)r.top << 44) |
                  ((u64)(255 - r.size) << 36) | (u64)i;
    }
    qsort(keys, n, sizeof(u64), compare_keys);
    for (size_t i = 0; i < n; i++) sorted[i] = moves[keys[i] & 0xFFFFFFFFFULL];
    memcpy(moves, sorted, n * sizeof(int32_t));
    free(sorted);
    free(keys);
    return 0;
}

/* The ordered moves (the pass left out) of a hand on lead (table -1) or over a play. */
static int64_t ordered_of(Core *self, u64 hand, int table) {
    long index = known_index(self, hand, table);
    if (index < 0) return -1;
    if (self->known_of[index].order >= 0) return self->known_of[index].order;
    int64_t v = moves_of(self, hand, table);
    if (v < 0) return -1;
    size_t length = span_length(v);
    int32_t *moves = malloc((length ? length : 1) * sizeof(int32_t));
    if (!moves) return PyErr_NoMemory(), -1;
    memcpy(moves, &self->arena.data[span_offset(v)], length * sizeof(int32_t));
    if (order(self, hand, moves, length)) {
        free(moves);
        return -1;
    }
    if (ints_reserve(&self->arena, length)) {
        free(moves);
        return PyErr_NoMemory(), -1;
    }
    size_t start = self->arena.len;
    memcpy(&self->arena.data[start], moves, length * sizeof(int32_t));
    self->arena.len += length;
    free(moves);
    return self->known_of[index].order = span(start, length);
}

#endif
