/*
 * Run-outs: whether a hand on lead empties itself with plays no opponent can answer but the
 * last (runouts.RunOuts.runs_out), and whether a player alone is countered at once
 * (runouts.RunOuts.countered).
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_RUNOUTS_H
#define CPSOLVER_CORE_RUNOUTS_H

/* Every four-bit field of a packed hand that holds a card, as 0xF. */
static inline u64 held_fields(u64 hand) {
    u64 any = (hand | hand >> 1 | hand >> 2 | hand >> 3) & 0x1111111111111111ULL;
    return any * 0xF;
}

/* Whether two plays share their core: kickers never change which plays beat a play, and the
 * generator lists a core's kickers in a row. */
static inline int same_core(const PlayRecord *a, const PlayRecord *b) {
    return a->pattern == b->pattern && a->top == b->top && a->chain == b->chain;
}

static int safe(const Core *self, int play, const u64 *opponents, int n) {
    for (int i = 0; i < n; i++)
        if (can_answer(self, opponents[i], play)) return 0;
    return 1;
}

/* A hand's safe plays filed by their lowest rank: those whose lowest card is of rank r are
 * holding[starts[r]] up to holding[starts[r + 1]], each rank's in the order the plays were
 * given. cover() asks for the plays holding the lowest card of what is left, and a play that
 * fits in it holds no lower card: its own lowest card is of that rank. */
typedef struct {
    Core *self;
    const int32_t *holding;
    int starts[RANKS + 1];
    /* What a count of the cards bounds a split by (could_cover): */
    u64 kicker_only;                            /* fields of ranks no safe play holds but as a kicker */
    u64 carriers;                               /* fields of ranks in the core of a safe play with kickers */
    int8_t carrier_width[RANKS], carrier_units[RANKS]; /* the least width, the most kickers a link */
    int most_kicker;                            /* the most cards of one kicker (0: no safe carrier) */
} Covering;

/* Files a safe play's core into what could_cover counts: kickers never change what beats a play,
 * so one play of each core is enough. */
static void file_core(Covering *c, const PlayRecord *play, u64 *cores) {
    const Pattern *p = play->pattern < 0 ? NULL : &c->self->patterns[play->pattern];
    if (!p || !p->kicker_size) {
        *cores |= play->cards;
        return;
    }
    u64 core = core_cards(p->width, play->chain, play->top);
    *cores |= core;
    c->carriers |= held_fields(core);
    if (p->kicker_size > c->most_kicker) c->most_kicker = p->kicker_size;
    for (int r = play->top - play->chain + 1; r <= play->top; r++) {
        if (p->width < c->carrier_width[r]) c->carrier_width[r] = (int8_t)p->width;
        if (p->per_link > c->carrier_units[r]) c->carrier_units[r] = (int8_t)p->per_link;
    }
}

/* False where `left` cannot split into safe plays, by counting cards (true proves nothing): the
 * cards of a rank no safe play holds but as a kicker go in kickers of most_kicker cards at most,
 * and each rank left with a carrier's core width carries carrier_units kickers at most. A split
 * that fails so is not searched: on full deals most of cover()'s work was such failures, a hand
 * of low singles with too few trios to carry them. */
static int could_cover(const Covering *c, u64 left) {
    const u64 one_a_rank = 0x1111111111111111ULL;
    u64 lonely = held_fields(left) & c->kicker_only & one_a_rank;
    if (!lonely) return 1;
    if (!c->most_kicker) return 0;
    int need = 0, room = 0;
    for (; lonely; lonely &= lonely - 1)
        need += (count_of(left, __builtin_ctzll(lonely) / 4) + c->most_kicker - 1) / c->most_kicker;
    for (u64 carry = held_fields(left) & c->carriers & one_a_rank; carry; carry &= carry - 1) {
        int r = __builtin_ctzll(carry) / 4;
        if (count_of(left, r) >= c->carrier_width[r]) room += c->carrier_units[r];
    }
    return need <= room;
}

/* Files `count` plays by their lowest ranks into `holding` (room for count). */
static void file_by_rank(Covering *c, const int32_t *plays, size_t count, int32_t *holding) {
    int at[RANKS + 1] = {0};
    for (size_t i = 0; i < count; i++) at[__builtin_ctzll(c->self->plays[plays[i]].cards) / 4 + 1]++;
    for (int r = 0; r < RANKS; r++) at[r + 1] += at[r];
    memcpy(c->starts, at, sizeof at);
    for (size_t i = 0; i < count; i++) holding[at[__builtin_ctzll(c->self->plays[plays[i]].cards) / 4]++] = plays[i];
    c->holding = holding;
}

/* A safe play holding the lowest card of `left` that starts a safe split; -1 none, -2 failure.
 * Only the plays filed under that rank are tried: most safe plays miss it. */
static int cover(Covering *c, u64 left) {
    Core *self = c->self;
    Mark *s = marks_find(&self->cover, left);
    if (s) return s->value;
    if (marks_put(&self->cover, left, -1)) return PyErr_NoMemory(), -2;
    if (!could_cover(c, left)) return -1;
    int lowest = __builtin_ctzll(left) / 4;
    int found = -1;
    for (int i = c->starts[lowest]; i < c->starts[lowest + 1]; i++) {
        u64 cards = self->plays[c->holding[i]].cards;
        if (!contains(left, cards)) continue;
        u64 rest = left - cards;
        int further = rest ? cover(c, rest) : 0;
        if (further == -2) return -2;
        if (!rest || further >= 0) {
            found = c->holding[i];
            break;
        }
    }
    if (found >= 0 && marks_put(&self->cover, left, found)) return PyErr_NoMemory(), -2;
    return found;
}

/* The offset in run_plans of a plan that runs out (length, then plays), -1 for none, -2 failure. */
static int64_t runs_out(Core *self, u64 hand, const u64 *opponents, int n) {
    u64 o0 = n > 0 ? opponents[0] : 0, o1 = n > 1 ? opponents[1] : 0;
    RunMemo *memo = &self->run_memo[hash_of(hand, o0, o1) & (RUN_MEMO - 1)];
    if (memo->hand == hand && memo->o0 == o0 && memo->o1 == o1) return memo->found;
    if (self->run_plans.len > RUN_PLANS_MOST) { /* every plan's offset forgotten with it */
        memset(self->run_memo, 0, RUN_MEMO * sizeof(RunMemo));
        self->run_plans.len = 0;
    }
    int64_t v = plays_of(self, hand);
    if (v < 0) return -2;
    size_t length = span_length(v);
    /* The hand's safe plays as found, then those largest first; the plays are read where
     * the arena holds them (nothing here adds to it). */
    if (ints_reserve(&self->run_work, 3 * length)) return PyErr_NoMemory(), -2;
    const int32_t *plays = &self->arena.data[span_offset(v)];
    int32_t *found_safe = self->run_work.data, *safe_plays = found_safe + length;
    size_t safe_count = 0;
    u64 coverable = 0;
    int of_size[PLAY_SIZES + 1];
    int largest = -1;
    int was_safe = 0;
    Covering c = {.self = self}; /* its filing by rank done when first needed: most hands need none */
    for (int r = 0; r < RANKS; r++) c.carrier_width[r] = 5;
    u64 cores = 0;
    for (size_t i = 0; i < length; i++) {
        const PlayRecord *play = &self->plays[plays[i]];
        if (!i || !same_core(play, &self->plays[plays[i - 1]])) {
            was_safe = safe(self, plays[i], opponents, n);
            if (was_safe) file_core(&c, play, &cores);
        }
        if (!was_safe) continue;
        found_safe[safe_count++] = plays[i];
        for (; largest < play->size; largest++) of_size[largest + 1] = 0;
        of_size[play->size]++;
        coverable |= play->cards;
    }
    /* Larger plays first, each size in the generator's order: the plan found then looks like
     * play (KK, not K and K). */
    for (int size = largest, at = 0; size >= 0; size--) {
        int here = of_size[size];
        of_size[size] = at;
        at += here;
    }
    for (size_t i = 0; i < safe_count; i++) safe_plays[of_size[self->plays[found_safe[i]].size]++] = found_safe[i];
    /* Ranks no safe play holds: the one answerable play, played last, must take them all. */
    u64 uncovered = held_fields(hand) & ~held_fields(coverable);
    c.kicker_only = held_fields(hand) & ~held_fields(cores);
    int64_t found = -1;
    int failed = 0;
    marks_clear(&self->cover);
    /* Where the whole hand fails the count, so does what a last play holding none of the ranks
     * only kickers take leaves: as many such cards, no more to carry them. */
    u64 must_take = could_cover(&c, hand) ? 0 : c.kicker_only;
    /* The last play: any that takes the uncovered ranks whole; with none uncovered, none or any. */
    for (size_t i = 0; !failed && i <= length; i++) {
        int last;
        if (uncovered) {
            if (i == length) break;
            last = plays[i];
            if ((self->plays[last].cards & uncovered) != (hand & uncovered)) continue;
        } else {
            last = i == 0 ? PASS : plays[i - 1];
        }
        u64 taken = last == PASS ? 0 : self->plays[last].cards;
        if (must_take && !(taken & must_take)) continue;
        u64 rest = hand - taken;
        if (rest) {
            if (!could_cover(&c, rest)) continue;
            if (!c.holding) file_by_rank(&c, safe_plays, safe_count, safe_plays + length);
            int first = cover(&c, rest);
            if (first == -2) {
                failed = 1;
                break;
            }
            if (first < 0) continue;
        }
        found = (int64_t)self->run_plans.len;
        if (ints_push(&self->run_plans, 0)) {
            failed = 1;
            PyErr_NoMemory();
            break;
        }
        int steps = 0;
        while (rest) {
            int step = marks_find(&self->cover, rest)->value;
            if (ints_push(&self->run_plans, step)) {
                failed = 1;
                PyErr_NoMemory();
                break;
            }
            steps++;
            rest -= self->plays[step].cards;
        }
        if (!failed && last != PASS) {
            if (ints_push(&self->run_plans, last)) {
                failed = 1;
                PyErr_NoMemory();
            }
            steps++;
        }
        if (!failed) self->run_plans.data[found] = steps;
        break;
    }
    if (failed) return -2;
    *memo = (RunMemo){hand, o0, o1, found};
    return found;
}

/* Whether a hand on lead with no partner loses at once (runouts.RunOuts.countered): it does not
 * run out (asked first), and every play of it that an opponent can beat, some opponent beats
 * with a play the hand cannot beat (or one that empties that opponent's hand) and then runs
 * out against the hand alone. 1, 0, or -1 on failure. */
static int countered_anew(Core *self, u64 hand, const u64 *opponents, int n);

/* countered_anew, remembered in the run-out memo: its second opponent word tagged, since no
 * hand has that bit (the answer is 0 or 1, never a plan). */
#define COUNTERED_TAG ((u64)1 << 63)
static int countered(Core *self, u64 hand, const u64 *opponents, int n) {
    u64 o0 = opponents[0], o1 = (n > 1 ? opponents[1] : 0) | COUNTERED_TAG;
    RunMemo *memo = &self->run_memo[hash_of(hand, o0, o1) & (RUN_MEMO - 1)];
    if (memo->hand == hand && memo->o0 == o0 && memo->o1 == o1) return (int)memo->found;
    int found = countered_anew(self, hand, opponents, n);
    if (found >= 0) *memo = (RunMemo){hand, o0, o1, found};
    return found;
}

static int countered_anew(Core *self, u64 hand, const u64 *opponents, int n) {
    int64_t v = plays_of(self, hand);
    if (v < 0) return -1;
    size_t length = span_length(v), offset = span_offset(v);
    int last = -1;
    for (size_t i = 0; i < length; i++) {
        /* Read where the arena holds them at each step: the answers asked below may grow it. */
        int play = self->arena.data[offset + i];
        if (last >= 0 && same_core(&self->plays[last], &self->plays[play])) continue;
        last = play;
        int beatable = 0, met = 0;
        for (int k = 0; k < n && !met; k++) {
            u64 opponent = opponents[k];
            if (!can_answer(self, opponent, play)) continue;
            beatable = 1;
            int64_t answers = answers_of(self, opponent, play);
            if (answers < 0) return -1;
            for (size_t j = 0; j < span_length(answers) && !met; j++) {
                int answer = self->arena.data[span_offset(answers) + j];
                u64 cards = self->plays[answer].cards;
                if (cards == opponent) {
                    met = 1;
                } else if (safe(self, answer, &hand, 1)) {
                    int64_t plan = runs_out(self, opponent - cards, &hand, 1);
                    if (plan == -2) return -1;
                    met = plan >= 0;
                }
            }
        }
        if (beatable && !met) return 0;
    }
    return 1;
}

#endif
