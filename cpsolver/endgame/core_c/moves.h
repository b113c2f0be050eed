/*
 * The rules as data, the search's state, the plays met, and move generation.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_MOVES_H
#define CPSOLVER_CORE_MOVES_H

/* The rules as data, and the plays met                                      */

typedef struct {
    int kind; /* index in cpsolver.rules.patterns.Kind */
    int width, min_chain, max_chain, kicker_size, per_link;
    uint8_t *limits; /* [(low * 15 + top) * 15 + rank]: kickers of rank a core low..top may carry */
} Pattern;

/* What is known of one hand on lead, or of one hand over one play: one record, found with one
 * probe, where each question asked of it at a node once had a table of its own. */
#define UNKNOWN INT32_MIN
typedef struct {
    int64_t moves; /* span of the arena: the plays (on lead) or the answers; -1 not yet */
    int64_t order; /* span of the arena: the moves ordered for the search; -1 not yet */
    int32_t number; /* on lead: the play that is the whole hand (-1 none); over a play: the answers' class */
    int32_t fewest; /* on lead: the fewest plays the hand splits into; -1 not yet */
    int64_t alone; /* span of the arena: `order` without the needless kickers (kickers.h); -1 not yet */
} Known;

/* A record of `known` met lately, at a place of its own: one compare where the map's probe
 * hashes four words. `index` is the record's index + 1 (0: an empty place). */
#define RECENT_BITS 10
#define RECENT_KNOWN (1 << RECENT_BITS)
typedef struct {
    u64 hand;
    int32_t table, index;
} KnownRecent;

#define CHEAP_ROOTS 64 /* questions' states remembered as cheaply kept; past it, shortcut_first stops */
#define KEY_WORDS 3 /* a table key's words (nodes.h's pack_key) */
/* Move orders a narrow question may try a node's moves in (tree.Tree._with_pass). In the second,
 * the landlord's next player passes first over the landlord's play, leaving it to its partner. */
#define ORDER_DEFAULT 0
#define ORDER_LEFT_PASSES 1
#define QUESTIONS 4 /* open_nodes' questions: a prover side (0, 1) in each move order */
#define PLAY_SIZES 64 /* a play's size is below this: a hand holds 60 cards at most (four bits a rank) */

/* runs_out's memo: a result a place, direct-mapped by (hand, opponents), overwritten on a
 * collision. Most of its questions are asked again soon after, of nearby positions: a map of
 * every one ever asked (millions on a 12/10/10 position) missed the processor's cache on
 * nearly every look-up, and working a result out again costs less than such a miss. */
typedef struct {
    u64 hand, o0, o1; /* hand 0: an empty place (runs_out is never asked of an empty hand) */
    int64_t found;
} RunMemo;
#define RUN_MEMO ((size_t)1 << 14) /* 512 KiB: 1 << 12 and 1 << 18 did no better */
#define RUN_PLANS_MOST ((size_t)1 << 20) /* past this, run_plans and the memo start afresh */

typedef struct {
    u64 cards;
    int16_t pattern; /* -1: the rocket */
    int8_t top, chain, size, strong;
} PlayRecord;

typedef struct {
    PyObject_HEAD
    int players;
    int side[3];
    int opponents[3][2];
    int opponent_count[3];
    Pattern patterns[MAX_PATTERNS];
    int pattern_count;
    int bomb; /* the bomb pattern's index */
    int highest; /* the highest rank a chain may reach */
    int both_jokers; /* whether both jokers may be kickers of one play */
    int alone[3]; /* whether the player has no partner, so needs no needless kicker (kickers.h) */
    int8_t swappable[RANKS][RANKS]; /* kickers.h's swappable(a, b); -1 not yet */
    PyObject *check; /* called every CHECK_EVERY nodes: may raise, may evict; returns seconds left or None */
    double stop_at; /* the C clock's deadline for long work on one hand (0: none) */
    int failed; /* an exception is set, or the deadline passed: unwind */
    long long nodes;
    long long carried; /* plays not tried, a lower play's refutation carried to them (search.h) */
    int keep_all; /* keep every result found, however cheap (see kept()): a walk reads them back */
    int order; /* the move order of the question asked (ORDER_DEFAULT or ORDER_LEFT_PASSES) */
    int cheap_kept; /* a cheap result (fewer than LEAST_KEPT nodes) kept but a root's: shortcut_first off */
    int cheap_root_count; /* the questions' states whose cheap results were kept, */
    u64 cheap_roots[CHEAP_ROOTS][KEY_WORDS]; /* as their keys (compared by their heads) */
    u64 root[KEY_WORDS]; /* the key of the state the search was asked of: always kept */
    unsigned long long splits;
    size_t most_entries; /* the table's bound (0: none): past it, the table evicts itself */
    long long evictions, evicted;

    PlayRecord *plays;
    size_t play_count, play_cap;
    Map play_index; /* (cards, pattern, top, chain) -> play */

    Map table; /* state -> result, cost */
    Map open_nodes[QUESTIONS]; /* proves(): by question (question_of), the states it left open;
                                  kept past a question only where it stopped short, for the call
                                  that resumes it */
    Map walked; /* the strategy walk's memo, state -> depth: the core's, so the memory cap counts it */
    Ints plans; /* the table's run-out plans: length, then the plays */

    Map classes; /* (hash of an answer list, length, first, last) -> class number (one list a key) */
    Ints class_lists;

    /* Caches of hands, emptied by evict(): every one is recomputed on demand. */
    KnownRecent recent[RECENT_KNOWN]; /* in front of `known`: a node asks of its few hands many times */
    Map known;          /* (hand, table + 1) -> its record in known_of */
    Known *known_of;
    size_t known_count, known_cap;
    RunMemo *run_memo;  /* RUN_MEMO places: (hand, opponent, opponent) -> offset in run_plans, or -1 */
    Ints arena;
    Ints run_plans;
    Ints run_work; /* runs_out's lists of plays, for one call */

    Marks cover; /* runs_out's memo for one call, emptied per call */
    Ints scratch; /* the moves of every open node, a stack */
} Core;

/* Every map a core holds: each made, freed and counted alike. */
#define CORE_MAPS(self)                                                                                     \
    {                                                                                                       \
        &(self)->play_index, &(self)->table, &(self)->walked, &(self)->classes, &(self)->known,            \
            &(self)->open_nodes[0], &(self)->open_nodes[1], &(self)->open_nodes[2], &(self)->open_nodes[3]  \
    }

static double clock_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int play_intern(Core *self, u64 cards, int pattern, int top, int chain) {
    /* pattern (-1: the rocket), top and chain in one word */
    u64 shape = (u64)(uint32_t)pattern | (u64)top << 32 | (u64)chain << 40;
    Slot *s = map_find(&self->play_index, cards, shape, 0);
    if (s) return (int)s->v;
    if (self->play_count == self->play_cap) {
        size_t cap = self->play_cap ? self->play_cap * 2 : 1024;
        PlayRecord *grown = realloc(self->plays, cap * sizeof(PlayRecord));
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        self->plays = grown;
        self->play_cap = cap;
    }
    int id = (int)self->play_count++;
    PlayRecord *r = &self->plays[id];
    r->cards = cards;
    r->pattern = (int16_t)pattern;
    r->top = (int8_t)top;
    r->chain = (int8_t)chain;
    int size = 0;
    for (int k = 0; k < RANKS; k++) size += count_of(cards, k);
    r->size = (int8_t)size;
    int kind = pattern < 0 ? KIND_ROCKET : self->patterns[pattern].kind;
    r->strong = (int8_t)(kind == KIND_BOMB || kind == KIND_ROCKET);
    if (map_put(&self->play_index, cards, shape, 0, id)) {
        PyErr_NoMemory();
        return -1;
    }
    return id;
}

static inline u64 core_cards(int width, int chain, int top) {
    u64 cards = 0;
    for (int r = top - chain + 1; r <= top; r++) cards |= (u64)width << (4 * r);
    return cards;
}

/* ------------------------------------------------------------------------ */
/* Move generation: cpsolver.rules.movegen.MoveGenerator, in the same order. */

typedef struct {
    Core *self;
    Ints *out;
    int pattern, top, chain, wanted;
    u64 core;
    int repeats[RANKS];
    int used[RANKS];
    int drop_both_jokers;
} Kicking;

/* Every choice of kickers, as sorted tuples in lexicographic order (itertools.combinations'). */
static int kick(Kicking *k, int position, int start, u64 kickers) {
    if (position == k->wanted) {
        if (k->drop_both_jokers && k->used[BLACK] && k->used[RED]) return 0;
        int id = play_intern(k->self, k->core + kickers, k->pattern, k->top, k->chain);
        if (id < 0 || ints_push(k->out, id)) return -1;
        return 0;
    }
    int size = k->self->patterns[k->pattern].kicker_size;
    for (int r = start; r < RANKS; r++) {
        if (k->used[r] >= k->repeats[r]) continue;
        k->used[r]++;
        int failed = kick(k, position + 1, r, kickers + ((u64)size << (4 * r)));
        k->used[r]--;
        if (failed) return -1;
    }
    return 0;
}

/* The plays of one core of a pattern: bare, or with each choice of kickers. */
static int core_plays(Core *self, u64 hand, int pattern, int chain, int top, Ints *out) {
    const Pattern *p = &self->patterns[pattern];
    u64 core = core_cards(p->width, chain, top);
    if (!p->kicker_size) {
        int id = play_intern(self, core, pattern, top, chain);
        return (id < 0 || ints_push(out, id)) ? -1 : 0;
    }
    Kicking k;
    k.self = self;
    k.out = out;
    k.pattern = pattern;
    k.top = top;
    k.chain = chain;
    k.wanted = chain * p->per_link;
    k.core = core;
    int low = top - chain + 1;
    const uint8_t *limits = &p->limits[(low * RANKS + top) * RANKS];
    int room = 0;
    for (int r = 0; r < RANKS; r++) {
        int have = count_of(hand, r) / p->kicker_size;
        k.repeats[r] = have < limits[r] ? have : limits[r];
        k.used[r] = 0;
        room += k.repeats[r];
    }
    /* Rule "never both jokers as kickers". */
    k.drop_both_jokers = p->kicker_size == 1 && k.wanted > 1 && !self->both_jokers &&
                         count_of(hand, BLACK) && count_of(hand, RED);
    if (room < k.wanted) return 0;
    return kick(&k, 0, 0, 0);
}

/* Every core of a pattern in the hand, as (chain, top) pairs in the generator's order:
 * tops above `above`, of chain length `chain` (0: every allowed length). */
static int cores_in(const Core *self, u64 hand, int pattern, int above, int chain, int *chains, int *tops) {
    const Pattern *p = &self->patterns[pattern];
    int found = 0;
    if (p->max_chain == 1) {
        for (int r = above + 1; r < RANKS; r++)
            if (count_of(hand, r) >= p->width) {
                chains[found] = 1;
                tops[found++] = r;
            }
        return found;
    }
    int shortest = chain ? chain : p->min_chain;
    int run = 0;
    /* Rule "sequences stay within 3..A": runs end at the highest chain rank. */
    for (int top = 0; top <= self->highest; top++) {
        if (count_of(hand, top) >= p->width) {
            run++;
            if (run >= shortest && top > above) {
                if (chain) {
                    chains[found] = chain;
                    tops[found++] = top;
                } else {
                    for (int n = shortest; n <= run; n++) {
                        chains[found] = n;
                        tops[found++] = top;
                    }
                }
            }
        } else {
            run = 0;
        }
    }
    return found;
}

static int generate_plays(Core *self, u64 hand, Ints *out) {
    int chains[RANKS * RANKS], tops[RANKS * RANKS];
    for (int pattern = 0; pattern < self->pattern_count; pattern++) {
        int n = cores_in(self, hand, pattern, -1, 0, chains, tops);
        for (int i = 0; i < n; i++)
            if (core_plays(self, hand, pattern, chains[i], tops[i], out)) return -1;
    }
    if (count_of(hand, BLACK) && count_of(hand, RED)) {
        int id = play_intern(self, ((u64)1 << (4 * BLACK)) | ((u64)1 << (4 * RED)), -1, RED, 1);
        if (id < 0 || ints_push(out, id)) return -1;
    }
    return 0;
}

static int generate_answers(Core *self, u64 hand, int table, Ints *out) {
    PlayRecord t = self->plays[table];
    if (t.pattern < 0) return 0; /* nothing beats the rocket */
    int kind = self->patterns[t.pattern].kind;
    if (kind != KIND_BOMB) {
        int chains[RANKS * RANKS], tops[RANKS * RANKS];
        int n = cores_in(self, hand, t.pattern, t.top, t.chain, chains, tops);
        for (int i = 0; i < n; i++)
            if (core_plays(self, hand, t.pattern, chains[i], tops[i], out)) return -1;
    }
    for (int r = kind == KIND_BOMB ? t.top + 1 : 0; r <= TWO; r++)
        if (count_of(hand, r) == 4) {
            int id = play_intern(self, (u64)4 << (4 * r), self->bomb, r, 1);
            if (id < 0 || ints_push(out, id)) return -1;
        }
    if (count_of(hand, BLACK) && count_of(hand, RED)) {
        int id = play_intern(self, ((u64)1 << (4 * BLACK)) | ((u64)1 << (4 * RED)), -1, RED, 1);
        if (id < 0 || ints_push(out, id)) return -1;
    }
    return 0;
}

/* Bit 0 of the field of each rank the hand holds `least` of or more: a field's count plus
 * its guard bit, less `least`, keeps the guard exactly when the count reaches it. */
static inline u64 ranks_holding(u64 hand, int least) {
    return (((hand | GUARDS) - (u64)least * (GUARDS >> 3)) & GUARDS) >> 3;
}

/* The fields of ranks above `rank` (every field for rank -1). */
static inline u64 ranks_above(int rank) { return rank + 1 >= RANKS ? 0 : ~(u64)0 << (4 * (rank + 1)); }

/* Whether the hand holds any play that beats `table`: generate_answers, as a boolean. */
static int can_answer(const Core *self, u64 hand, int table) {
    PlayRecord t = self->plays[table];
    if (t.pattern < 0) return 0;
    if (count_of(hand, BLACK) && count_of(hand, RED)) return 1;
    const Pattern *p = &self->patterns[t.pattern];
    u64 bombs = ranks_holding(hand, 4) & ~ranks_above(TWO);
    if (bombs & ranks_above(p->kind == KIND_BOMB ? t.top : -1)) return 1;
    if (p->kind == KIND_BOMB) return 0;
    /* The cores above the table's, as cores_in finds them: a rank held `width` times (the
     * lowest rank of a chain of them, each rank up to the highest a chain may reach). */
    u64 cores = ranks_holding(hand, p->width);
    if (p->max_chain == 1) {
        cores &= ranks_above(t.top);
    } else {
        cores &= ~ranks_above(self->highest);
        for (int link = 1; link < t.chain; link++) cores &= cores >> 4;
        cores &= ranks_above(t.top - t.chain + 1); /* a chain's top above the table's */
    }
    if (!cores) return 0;
    if (!p->kicker_size) return 1;
    int chains[RANKS * RANKS], tops[RANKS * RANKS];
    int n = cores_in(self, hand, t.pattern, t.top, t.chain, chains, tops);
    for (int i = 0; i < n; i++) {
        if (!p->kicker_size) return 1;
        int low = tops[i] - chains[i] + 1;
        const uint8_t *limits = &p->limits[(low * RANKS + tops[i]) * RANKS];
        int room = 0, jokers = 0;
        for (int r = 0; r < RANKS; r++) {
            int have = count_of(hand, r) / p->kicker_size;
            int may = have < limits[r] ? have : limits[r];
            room += may;
            if (r >= BLACK) jokers += may;
        }
        if (p->kicker_size == 1 && !self->both_jokers && jokers > 1) room -= jokers - 1;
        if (room >= chains[i] * p->per_link) return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */

#endif
