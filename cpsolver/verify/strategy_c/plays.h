/*
 * The plays of a hand and the answers to a play, for the compiled strategy checker.
 *
 * Part of cpsolver/verify/_strategy.c (one translation unit). It is the rules
 * core's move generator (cpsolver.rules.movegen) as a set, not in its order:
 * the checker only asks which moves are legal. It reads the rules as the same
 * data the Python generator does (cpsolver.rules.movetables.pattern_tables:
 * each pattern's shape and the kicker limits of each core) and shares no code
 * with the open-hand solver's compiled core.
 *
 * A hand is a 64-bit int, four bits a rank (15 ranks, 3 low to the red joker).
 */
#ifndef CPSOLVER_CHECKER_PLAYS_H
#define CPSOLVER_CHECKER_PLAYS_H

#include <stdint.h>
#include <stdlib.h>

typedef uint64_t u64;

#define RANKS 15
#define TWO 12
#define BLACK 13
#define RED 14
#define MAX_SHAPES 16

static inline int count_of(u64 hand, int rank) { return (int)((hand >> (4 * rank)) & 0xF); }

/* One pattern of the rule set: `width` cards of each of `chain` consecutive ranks, plus
 * chain * per_link kickers of kicker_size cards. */
typedef struct {
    int kind; /* index in cpsolver.rules.patterns.Kind */
    int width, min_chain, max_chain, kicker_size, per_link;
    uint8_t *limits; /* [(low * 15 + top) * 15 + rank]: kickers of rank a core low..top may carry */
} Shape;

typedef struct {
    Shape shapes[MAX_SHAPES];
    int count;
    int bomb; /* the bomb's shape */
    int highest; /* the highest rank a chain of two or more ranks may reach */
    int both_jokers; /* whether one play may carry both jokers as single kickers */
    int rocket_kind, rocket_rank;
} Rules;

/* A play: its cards, its shape (-1: the rocket), its top rank and chain length. */
typedef struct {
    u64 cards;
    int16_t shape;
    int8_t top, chain, kind;
} Play;

typedef struct {
    Play *data;
    size_t len, cap;
} Plays;

/* Make room for `need` items of `size` bytes in an array of *cap, doubling; -1 out of memory. */
static int room_for(void **data, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t grown = *cap ? *cap : 16;
    while (grown < need) grown *= 2;
    void *moved = realloc(*data, grown * size);
    if (!moved) return -1;
    *data = moved;
    *cap = grown;
    return 0;
}

static inline Play play_of(u64 cards, int shape, int top, int chain, int kind) {
    Play p = {cards, (int16_t)shape, (int8_t)top, (int8_t)chain, (int8_t)kind};
    return p;
}

static int plays_add(Plays *list, u64 cards, int shape, int top, int chain, int kind) {
    if (room_for((void **)&list->data, &list->cap, list->len + 1, sizeof(Play))) return -1;
    list->data[list->len++] = play_of(cards, shape, top, chain, kind);
    return 0;
}

typedef struct {
    const Rules *rules;
    Plays *out;
    int shape, top, chain, wanted, size;
    u64 core;
    int repeats[RANKS];
} Kickers;

/* Every multiset of `wanted` kicker ranks, each rank at most `repeats` times. */
static int choose(Kickers *k, int taken, int from, u64 kickers) {
    if (taken == k->wanted) {
        /* Rule "never both jokers as kickers" (single kickers only: jokers make no pair). */
        if (k->size == 1 && !k->rules->both_jokers && count_of(kickers, BLACK) && count_of(kickers, RED)) return 0;
        return plays_add(k->out, k->core + kickers, k->shape, k->top, k->chain, k->rules->shapes[k->shape].kind);
    }
    for (int r = from; r < RANKS; r++) {
        if (count_of(kickers, r) / k->size >= k->repeats[r]) continue;
        if (choose(k, taken + 1, r, kickers + ((u64)k->size << (4 * r)))) return -1;
    }
    return 0;
}

/* The plays of one core (chain ranks ending at top) of a shape the hand holds. */
static int core_plays(const Rules *rules, u64 hand, int shape, int chain, int top, Plays *out) {
    const Shape *s = &rules->shapes[shape];
    u64 core = 0;
    for (int r = top - chain + 1; r <= top; r++) core += (u64)s->width << (4 * r);
    if (!s->kicker_size) return plays_add(out, core, shape, top, chain, s->kind);
    Kickers k = {rules, out, shape, top, chain, chain * s->per_link, s->kicker_size, core, {0}};
    const uint8_t *limits = &s->limits[((top - chain + 1) * RANKS + top) * RANKS];
    u64 rest = hand - core;
    int room = 0;
    for (int r = 0; r < RANKS; r++) {
        int have = count_of(rest, r) / s->kicker_size;
        k.repeats[r] = have < limits[r] ? have : limits[r];
        room += k.repeats[r];
    }
    return room < k.wanted ? 0 : choose(&k, 0, 0, 0);
}

/* Whether the hand holds `width` cards of each rank from top - chain + 1 to top. */
static int holds_core(u64 hand, int width, int chain, int top) {
    for (int r = top - chain + 1; r <= top; r++)
        if (count_of(hand, r) < width) return 0;
    return 1;
}

/* The plays of a shape with chain length `chain` (0: any) and a top above `above`. */
static int shape_plays(const Rules *rules, u64 hand, int shape, int chain, int above, Plays *out) {
    const Shape *s = &rules->shapes[shape];
    int shortest = chain ? chain : s->min_chain, longest = chain ? chain : s->max_chain;
    for (int n = shortest; n <= longest; n++) {
        /* Rule "sequences stay within 3..A": a chain of two or more ranks ends by `highest`. */
        int last = n > 1 ? rules->highest : RANKS - 1;
        for (int top = n - 1 > above + 1 ? n - 1 : above + 1; top <= last; top++)
            if (holds_core(hand, s->width, n, top) && core_plays(rules, hand, shape, n, top, out)) return -1;
    }
    return 0;
}

static int rocket_play(const Rules *rules, u64 hand, Plays *out) {
    if (!count_of(hand, BLACK) || !count_of(hand, RED)) return 0;
    return plays_add(out, ((u64)1 << (4 * BLACK)) | ((u64)1 << (4 * RED)), -1, rules->rocket_rank, 1,
                     rules->rocket_kind);
}

/* Every play in the hand: the moves on lead. */
static int all_plays(const Rules *rules, u64 hand, Plays *out) {
    out->len = 0;
    for (int s = 0; s < rules->count; s++)
        if (shape_plays(rules, hand, s, 0, -1, out)) return -1;
    return rocket_play(rules, hand, out);
}

/* Every play in the hand that beats `table` (docs/RULES.md, "Beating"): the same shape and
 * chain ranked higher; a bomb over anything but a bomb at least as high and the rocket; the
 * rocket over everything. A pass is not among them. */
static int all_answers(const Rules *rules, u64 hand, const Play *table, Plays *out) {
    out->len = 0;
    if (table->shape < 0) return 0;
    int bomb = table->shape == rules->bomb;
    if (!bomb && shape_plays(rules, hand, table->shape, table->chain, table->top, out)) return -1;
    for (int r = bomb ? table->top + 1 : 0; r <= TWO; r++)
        if (count_of(hand, r) == 4 && plays_add(out, (u64)4 << (4 * r), rules->bomb, r, 1, rules->shapes[rules->bomb].kind))
            return -1;
    return rocket_play(rules, hand, out);
}

#endif
