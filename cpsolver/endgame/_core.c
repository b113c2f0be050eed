/*
 * The compiled core of the open-hand search: cpsolver.endgame._core.
 *
 * It is the Python search of cpsolver/endgame/solver.py and packed.py, step
 * for step, in C: the same move generation order, the same move ordering,
 * the same shortcuts (out now, runs out), the same table keys (the play to
 * beat stands for the answers it lets be played). Searching the same nodes in
 * the same order, it reaches the same verdicts with the same node counts, so
 * the Python search stays its reference (tests/test_compiled_core.py).
 *
 * The rules come in as data, the same tables the Python move generator reads:
 * each pattern's shape and the kicker limits of each core
 * (cpsolver.rules.patterns.kicker_limits), so every rule set, bundled or a
 * user's TOML, drives both cores alike.
 *
 * Hands are 64-bit ints, four bits a rank (15 ranks). Plays are interned
 * ints; a move is a play or PASS (-1). Every table keeps whole states as
 * keys, never a hash alone.
 *
 * The time limit and the memory cap are the Python side's: every CHECK_EVERY
 * nodes the search calls back `check()`, which may raise (the search unwinds
 * and the exception reaches the caller) or call evict(). Long work on one hand
 * (fewest-plays splits) reads a C clock against the seconds check() returned.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RANKS 15
#define BLACK 13
#define RED 14
#define TWO 12
#define PASS (-1)
#define NO_TABLE (-1)
#define MAX_PATTERNS 16
#define CHECK_EVERY 64
#define CHECK_SPLITS_EVERY 1024
#define LOSS INT32_MIN
#define KIND_BOMB 10
#define KIND_ROCKET 11
#define EMPTY_KEY UINT64_MAX

typedef uint64_t u64;

static const u64 GUARDS = 0x888888888888888ULL; /* bit 3 of each of the 15 fields */

static inline int count_of(u64 hand, int rank) { return (int)((hand >> (4 * rank)) & 0xF); }

static inline int contains(u64 hand, u64 play) { return (((hand | GUARDS) - play) & GUARDS) == GUARDS; }

static inline u64 mix(u64 x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* ------------------------------------------------------------------------ */
/* Growable arrays                                                           */

typedef struct {
    int32_t *data;
    size_t len, cap;
} Ints;

static int ints_reserve(Ints *a, size_t more) {
    if (a->len + more <= a->cap) return 0;
    size_t cap = a->cap ? a->cap : 256;
    while (cap < a->len + more) cap *= 2;
    int32_t *data = realloc(a->data, cap * sizeof(int32_t));
    if (!data) return -1;
    a->data = data;
    a->cap = cap;
    return 0;
}

static int ints_push(Ints *a, int32_t v) {
    if (ints_reserve(a, 1)) return -1;
    a->data[a->len++] = v;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* One hash map for every table: four 64-bit words of key, one of value.     */
/* Linear probing; a == EMPTY_KEY marks a free slot (no key word is all ones: */
/* counts never reach 15). No deletion: eviction rebuilds.                   */

typedef struct {
    u64 a, b, c, d;
    int64_t v;
} Slot;

typedef struct {
    Slot *slots;
    size_t cap, len;
    int sparse; /* grow past half full, not three quarters: shorter probes, for the big table */
} Map;

static inline size_t slot_of(const Map *m, u64 a, u64 b, u64 c, u64 d) {
    return (size_t)(mix(a ^ mix(b ^ mix(c ^ mix(d)))) & (m->cap - 1));
}

static int map_init(Map *m, size_t cap) {
    m->slots = malloc(cap * sizeof(Slot));
    if (!m->slots) return -1;
    for (size_t i = 0; i < cap; i++) m->slots[i].a = EMPTY_KEY;
    m->cap = cap;
    m->len = 0;
    return 0;
}

static inline int map_full(const Map *m) {
    return m->sparse ? (m->len + 1) * 2 > m->cap : (m->len + 1) * 4 > m->cap * 3;
}

static void map_free(Map *m) {
    free(m->slots);
    m->slots = NULL;
    m->cap = m->len = 0;
}

static Slot *map_find(const Map *m, u64 a, u64 b, u64 c, u64 d) {
    size_t i = slot_of(m, a, b, c, d);
    for (;;) {
        Slot *s = &m->slots[i];
        if (s->a == EMPTY_KEY) return NULL;
        if (s->a == a && s->b == b && s->c == c && s->d == d) return s;
        i = (i + 1) & (m->cap - 1);
    }
}

static int map_grow(Map *m) {
    Map bigger;
    if (map_init(&bigger, m->cap * 2)) return -1;
    for (size_t i = 0; i < m->cap; i++) {
        Slot *s = &m->slots[i];
        if (s->a == EMPTY_KEY) continue;
        size_t j = slot_of(&bigger, s->a, s->b, s->c, s->d);
        while (bigger.slots[j].a != EMPTY_KEY) j = (j + 1) & (bigger.cap - 1);
        bigger.slots[j] = *s;
    }
    bigger.len = m->len;
    bigger.sparse = m->sparse;
    free(m->slots);
    *m = bigger;
    return 0;
}

/* Set the value of a key (inserting it if new). */
static int map_put(Map *m, u64 a, u64 b, u64 c, u64 d, int64_t v) {
    if (map_full(m) && map_grow(m)) return -1;
    size_t i = slot_of(m, a, b, c, d);
    for (;;) {
        Slot *s = &m->slots[i];
        if (s->a == EMPTY_KEY) {
            s->a = a;
            s->b = b;
            s->c = c;
            s->d = d;
            s->v = v;
            m->len++;
            return 0;
        }
        if (s->a == a && s->b == b && s->c == c && s->d == d) {
            s->v = v;
            return 0;
        }
        i = (i + 1) & (m->cap - 1);
    }
}

static int map_clear(Map *m) {
    map_free(m);
    return map_init(m, 1024);
}

/* A memo for one call, emptied in O(1): a slot counts only if it carries the current stamp.
 * Entries of one stamp sit in unbroken probe runs from their home slots, so a probe may stop
 * at the first slot of another stamp. */
typedef struct {
    u64 key;
    int32_t value;
    uint32_t stamp;
} Mark;

typedef struct {
    Mark *marks;
    size_t cap, len;
    uint32_t stamp;
} Marks;

static int marks_init(Marks *m) {
    m->cap = 1024;
    m->len = 0;
    m->stamp = 1;
    m->marks = calloc(m->cap, sizeof(Mark));
    return m->marks ? 0 : -1;
}

static void marks_clear(Marks *m) {
    m->len = 0;
    if (++m->stamp == 0) { /* wrapped: old stamps could read as current */
        memset(m->marks, 0, m->cap * sizeof(Mark));
        m->stamp = 1;
    }
}

static Mark *marks_find(const Marks *m, u64 key) {
    size_t i = (size_t)mix(key) & (m->cap - 1);
    for (;;) {
        Mark *k = &m->marks[i];
        if (k->stamp != m->stamp) return NULL;
        if (k->key == key) return k;
        i = (i + 1) & (m->cap - 1);
    }
}

static int marks_put(Marks *m, u64 key, int32_t value) {
    if ((m->len + 1) * 4 > m->cap * 3) {
        Marks bigger = {calloc(m->cap * 2, sizeof(Mark)), m->cap * 2, 0, 1};
        if (!bigger.marks) return -1;
        for (size_t i = 0; i < m->cap; i++) {
            if (m->marks[i].stamp != m->stamp) continue;
            size_t j = (size_t)mix(m->marks[i].key) & (bigger.cap - 1);
            while (bigger.marks[j].stamp == 1) j = (j + 1) & (bigger.cap - 1);
            bigger.marks[j] = (Mark){m->marks[i].key, m->marks[i].value, 1};
            bigger.len++;
        }
        free(m->marks);
        *m = bigger;
    }
    size_t i = (size_t)mix(key) & (m->cap - 1);
    for (;;) {
        Mark *k = &m->marks[i];
        if (k->stamp != m->stamp) {
            *k = (Mark){key, value, m->stamp};
            m->len++;
            return 0;
        }
        if (k->key == key) {
            k->value = value;
            return 0;
        }
        i = (i + 1) & (m->cap - 1);
    }
}

/* A list stored in an Ints arena, as one map value: offset and length. */
static inline int64_t span(size_t offset, size_t length) { return ((int64_t)offset << 24) | (int64_t)length; }
static inline size_t span_offset(int64_t v) { return (size_t)(v >> 24); }
static inline size_t span_length(int64_t v) { return (size_t)(v & 0xFFFFFF); }

/* ------------------------------------------------------------------------ */
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
} Known;

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
    PyObject *check; /* called every CHECK_EVERY nodes: may raise, may evict; returns seconds left or None */
    double stop_at; /* the C clock's deadline for long work on one hand (0: none) */
    int failed; /* an exception is set, or the deadline passed: unwind */
    long long nodes;
    unsigned long long splits;
    size_t most_entries; /* the table's bound (0: none): past it, the table evicts itself */
    long long evictions, evicted;

    PlayRecord *plays;
    size_t play_count, play_cap;
    Map play_index; /* (cards, pattern, top, chain) -> play */

    Map table; /* state -> result, cost */
    Ints plans; /* the table's run-out plans: length, then the plays */

    Map classes; /* (hash of an answer list, length, first, last) -> class number (one list a key) */
    Ints class_lists;

    /* Caches of hands, emptied by evict(): every one is recomputed on demand. */
    Map known;          /* (hand, table + 1) -> its record in known_of */
    Known *known_of;
    size_t known_count, known_cap;
    Map hand_runs_out;  /* (hand, opponent, opponent) -> offset in run_plans, or -1 */
    Ints arena;
    Ints run_plans;

    Marks cover; /* runs_out's memo for one call, emptied per call */
    Ints scratch; /* the moves of every open node, a stack */
} Core;

static double clock_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int play_intern(Core *self, u64 cards, int pattern, int top, int chain) {
    u64 b = (u64)(int64_t)pattern, c = (u64)top, d = (u64)chain;
    Slot *s = map_find(&self->play_index, cards, b, c, d);
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
    if (map_put(&self->play_index, cards, b, c, d, id)) {
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

/* Whether the hand holds any play that beats `table`: generate_answers, as a boolean. */
static int can_answer(const Core *self, u64 hand, int table) {
    PlayRecord t = self->plays[table];
    if (t.pattern < 0) return 0;
    if (count_of(hand, BLACK) && count_of(hand, RED)) return 1;
    const Pattern *p = &self->patterns[t.pattern];
    for (int r = p->kind == KIND_BOMB ? t.top + 1 : 0; r <= TWO; r++)
        if (count_of(hand, r) == 4) return 1;
    if (p->kind == KIND_BOMB) return 0;
    if (p->max_chain == 1 && p->width == 1) { /* a single: the question asked most often */
        for (int r = t.top + 1; r < RANKS; r++)
            if (count_of(hand, r)) return 1;
        return 0;
    }
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
/* Cached lists of hands                                                     */

/* The record of a hand on lead (table NO_TABLE) or over a play, made empty if new; -1 on failure.
 * An index, not a pointer: records move when more are made. */
static long known_index(Core *self, u64 hand, int table) {
    Slot *s = map_find(&self->known, hand, (u64)(table + 1), 0, 0);
    if (s) return (long)s->v;
    if (self->known_count == self->known_cap) {
        size_t cap = self->known_cap ? self->known_cap * 2 : 1024;
        Known *grown = realloc(self->known_of, cap * sizeof(Known));
        if (!grown) return PyErr_NoMemory(), -1;
        self->known_of = grown;
        self->known_cap = cap;
    }
    long index = (long)self->known_count++;
    self->known_of[index] = (Known){-1, -1, UNKNOWN, -1};
    if (map_put(&self->known, hand, (u64)(table + 1), 0, 0, index)) return PyErr_NoMemory(), -1;
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

/* ------------------------------------------------------------------------ */
/* Runs out: plays that empty the hand from the lead with none but the last  */
/* answerable (packed.PackedRules.runs_out).                                 */

static int safe(const Core *self, int play, const u64 *opponents, int n) {
    for (int i = 0; i < n; i++)
        if (can_answer(self, opponents[i], play)) return 0;
    return 1;
}

typedef struct {
    Core *self;
    const int32_t *safe;
    size_t safe_count;
} Covering;

/* A safe play holding the lowest card of `left` that starts a safe split; -1 none, -2 failure. */
static int cover(Covering *c, u64 left) {
    Core *self = c->self;
    Mark *s = marks_find(&self->cover, left);
    if (s) return s->value;
    if (marks_put(&self->cover, left, -1)) return PyErr_NoMemory(), -2;
    u64 lowest = lowest_field(left);
    int found = -1;
    for (size_t i = 0; i < c->safe_count; i++) {
        u64 cards = self->plays[c->safe[i]].cards;
        if (!(cards & lowest) || !contains(left, cards)) continue;
        u64 rest = left - cards;
        int further = rest ? cover(c, rest) : 0;
        if (further == -2) return -2;
        if (!rest || further >= 0) {
            found = c->safe[i];
            break;
        }
    }
    if (found >= 0 && marks_put(&self->cover, left, found)) return PyErr_NoMemory(), -2;
    return found;
}

static int compare_size_first(const void *x, const void *y) {
    u64 a = *(const u64 *)x, b = *(const u64 *)y;
    return a < b ? -1 : a > b;
}

/* The offset in run_plans of a plan that runs out (length, then plays), -1 for none, -2 failure. */
static int64_t runs_out(Core *self, u64 hand, const u64 *opponents, int n) {
    u64 o0 = n > 0 ? opponents[0] : 0, o1 = n > 1 ? opponents[1] : 0;
    Slot *s = map_find(&self->hand_runs_out, hand, o0, o1, 0);
    if (s) return s->v;
    int64_t v = plays_of(self, hand);
    if (v < 0) return -2;
    size_t length = span_length(v);
    int32_t *plays = malloc((length ? length : 1) * sizeof(int32_t));
    u64 *keys = malloc((length ? length : 1) * sizeof(u64));
    int32_t *safe_plays = malloc((length ? length : 1) * sizeof(int32_t));
    if (!plays || !keys || !safe_plays) {
        free(plays);
        free(keys);
        free(safe_plays);
        return PyErr_NoMemory(), -2;
    }
    memcpy(plays, &self->arena.data[span_offset(v)], length * sizeof(int32_t));
    /* Larger plays first: the plan found then looks like play (KK, not K and K). */
    size_t safe_count = 0;
    u64 coverable = 0;
    for (size_t i = 0; i < length; i++)
        if (safe(self, plays[i], opponents, n)) {
            keys[safe_count++] = ((u64)(255 - self->plays[plays[i]].size) << 32) | (u64)i;
            coverable |= self->plays[plays[i]].cards;
        }
    qsort(keys, safe_count, sizeof(u64), compare_size_first);
    for (size_t i = 0; i < safe_count; i++) safe_plays[i] = plays[keys[i] & 0xFFFFFFFF];
    /* Ranks no safe play holds: the one answerable play, played last, must take them all. */
    u64 uncovered = 0;
    for (int r = 0; r < RANKS; r++)
        if (count_of(hand, r) && !count_of(coverable, r)) uncovered |= (u64)0xF << (4 * r);
    Covering c = {self, safe_plays, safe_count};
    int64_t found = -1;
    int failed = 0;
    marks_clear(&self->cover);
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
        u64 rest = hand - (last == PASS ? 0 : self->plays[last].cards);
        if (rest) {
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
    free(plays);
    free(keys);
    free(safe_plays);
    if (failed) return -2;
    if (map_put(&self->hand_runs_out, hand, o0, o1, 0, found)) return PyErr_NoMemory(), -2;
    return found;
}

/* ------------------------------------------------------------------------ */
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
        Slot *c = map_find(&self->classes, h, length, k, 0);
        if (!c) break;
        size_t offset = (size_t)(c->v >> 24);
        if (memcmp(&self->class_lists.data[offset], list, length * sizeof(int32_t)) == 0) {
            found = (int)(c->v & 0xFFFFFF);
            break;
        }
    }
    if (found < 0) {
        u64 k = 0;
        while (map_find(&self->classes, h, length, k, 0)) k++;
        if (self->classes.len >= (1 << 24)) {
            PyErr_SetString(PyExc_MemoryError, "more answer classes than the table's keys hold");
            return -1;
        }
        found = (int)self->classes.len;
        size_t offset = self->class_lists.len;
        if (ints_reserve(&self->class_lists, length)) return PyErr_NoMemory(), -1;
        memcpy(&self->class_lists.data[offset], &self->arena.data[span_offset(v)], length * sizeof(int32_t));
        self->class_lists.len += length;
        if (map_put(&self->classes, h, length, k, 0, ((int64_t)offset << 24) | found)) return PyErr_NoMemory(), -1;
    }
    return self->known_of[index].number = found;
}

typedef struct {
    u64 hands[3];
    int turn, table, by;
} State;

/* The table's key of a state, as (a, b, c, d); -1 on failure. */
static int key_of(Core *self, const State *st, u64 *key) {
    key[0] = st->hands[0] | ((u64)st->turn << 60);
    key[1] = st->hands[1] | ((u64)(st->by + 1) << 60);
    key[2] = st->hands[2];
    if (st->table == NO_TABLE) {
        key[3] = (u64)NO_TABLE;
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
    key[3] = (u64)(-2 - k);
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

static int store_costing(Core *self, const u64 *key, int32_t result, long long searched) {
    if (self->most_entries && self->table.len >= self->most_entries && evict_to(self, self->most_entries / 2, 0))
        return -1;
    if (map_put(&self->table, key[0], key[1], key[2], key[3], entry_value(result, cost_of(searched)))) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int store(Core *self, const u64 *key, int32_t result) { return store_costing(self, key, result, 1); }

static int store_plan(Core *self, const u64 *key, int64_t plan) {
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

/* Whether the side of the player to move wins: 1, 0, or -1 on failure (an exception set, or out of time). */
static int wins(Core *self, const State *st) {
    u64 key[4];
    if (key_of(self, st, key)) return -1;
    Slot *s = map_find(&self->table, key[0], key[1], key[2], key[3]);
    if (s) return entry_result(s->v) != LOSS;
    if (++self->nodes % CHECK_EVERY == 0 && call_check(self)) return -1;
    long long before = self->nodes;
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
        if (whole >= 0) return store(self, key, whole) ? -1 : 1; /* out now */
        int64_t plan = runs_out(self, hand, opponents, n);
        if (plan == -2) return -1;
        if (plan >= 0 && self->run_plans.data[plan] > 0) return store_plan(self, key, plan) ? -1 : 1;
        moves = ordered_of(self, hand, NO_TABLE);
    } else {
        int64_t candidates = answers_of(self, hand, st->table);
        if (candidates < 0) return -1;
        for (size_t i = 0; whole >= 0 && i < span_length(candidates); i++)
            if (self->arena.data[span_offset(candidates) + i] == whole)
                return store(self, key, whole) ? -1 : 1; /* out now */
        for (size_t i = 0; i < span_length(candidates); i++) {
            /* An answer nobody beats, then out from the lead. */
            int play = self->arena.data[span_offset(candidates) + i];
            if (!safe(self, play, opponents, n)) continue;
            int64_t plan = runs_out(self, hand - self->plays[play].cards, opponents, n);
            if (plan == -2) return -1;
            if (plan >= 0 && self->run_plans.data[plan] > 0) return store(self, key, play) ? -1 : 1;
        }
        moves = ordered_of(self, hand, st->table);
        if (self->side[st->by] == side)
            pass_first = 1; /* over a partner's play, passing first */
        else
            pass_last = 1;
    }
    if (moves < 0) return -1;
    /* This node's moves, copied onto the stack: eviction may empty the caches below. */
    size_t base = self->scratch.len, length = span_length(moves);
    if (ints_reserve(&self->scratch, length + 1)) return PyErr_NoMemory(), -1;
    if (pass_first) self->scratch.data[self->scratch.len++] = PASS;
    memcpy(&self->scratch.data[self->scratch.len], &self->arena.data[span_offset(moves)], length * sizeof(int32_t));
    self->scratch.len += length;
    if (pass_last) self->scratch.data[self->scratch.len++] = PASS;
    size_t total = self->scratch.len - base;
    int result = 0;
    for (size_t i = 0; i < total; i++) {
        int move = self->scratch.data[base + i];
        State child;
        int won;
        if (!successor(self, st, move, &child)) {
            won = 1; /* a move that empties the hand wins (taken above as out now) */
            child.turn = st->turn;
        } else {
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
    }
    self->scratch.len = base;
    if (result == 0 && store_costing(self, key, LOSS, self->nodes - before + 1)) return -1;
    return result;
}

static int parse_state(Core *self, PyObject *args, State *st);
static PyObject *failure(Core *self);

/* ------------------------------------------------------------------------ */
/* The winning side's strategy, walked: its size and the longest resistance  */
/* (endgame/strategy.py's Strategy.depth, over the same DAG).                */

static inline void state_words(const State *st, u64 *key) {
    key[0] = st->hands[0] | ((u64)st->turn << 60);
    key[1] = st->hands[1] | ((u64)(st->by + 1) << 60);
    key[2] = st->hands[2];
    key[3] = (u64)(uint32_t)st->table;
}

/* The table's entry of a state, searching it first if need be: a move, a plan offset
 * (as -2 - offset), or LOSS; *failed on failure. */
static int32_t settled_entry(Core *self, const State *st, int *failed) {
    *failed = 0;
    if (wins(self, st) < 0) {
        *failed = 1;
        return 0;
    }
    u64 key[4];
    if (key_of(self, st, key)) {
        *failed = 1;
        return 0;
    }
    return entry_result(map_find(&self->table, key[0], key[1], key[2], key[3])->v);
}

/* Moves to the end from a state if the losing side resists longest; -1 on failure.
 * Every state walked is one node of the strategy (counted in `walked`). */
static long long depth(Core *self, const State *st, Map *walked) {
    u64 words[4];
    state_words(st, words);
    Slot *s = map_find(walked, words[0], words[1], words[2], words[3]);
    if (s) return s->v;
    int failed;
    int32_t result = settled_entry(self, st, &failed);
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
            long long d = depth(self, &child, walked);
            if (d < 0) {
                self->scratch.len = base;
                return -1;
            }
            if (d > deepest) deepest = d;
        }
        self->scratch.len = base;
        found = 1 + deepest;
    }
    if (map_put(walked, words[0], words[1], words[2], words[3], found)) return PyErr_NoMemory(), -1;
    return found;
}

/* The depth of a successor (0 where the mover is out), from the walk's memo or walked anew. */
static long long child_depth(Core *self, const State *st, int move, State *child, Map *walked) {
    if (!successor(self, st, move, child)) return 0;
    return depth(self, child, walked);
}

/* strategy_line(hands, turn, table, by) -> (strategy nodes, [(player, move), ...]) */
static PyObject *Core_strategy_line(Core *self, PyObject *args) {
    State st;
    if (parse_state(self, args, &st)) return NULL;
    Map walked;
    if (map_init(&walked, 1024)) return PyErr_NoMemory();
    PyObject *line = PyList_New(0);
    PyObject *answer = NULL;
    if (!line || depth(self, &st, &walked) < 0) goto done;
    size_t size = walked.len;
    for (;;) {
        int failed;
        int32_t result = settled_entry(self, &st, &failed);
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
                long long d = child_depth(self, &st, self->scratch.data[i], &child, &walked);
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
    map_free(&walked);
    return answer;
}

/* The strategy's nodes breadth first from the root, the proof's order: for each,
 * (hands, turn, table, by, plan, edges), edges being (move, the child's row or -1). */
static PyObject *strategy_rows(Core *self, State root) {
    Map seen;
    if (map_init(&seen, 1024)) return PyErr_NoMemory();
    State *queue = malloc(sizeof(State) * 1024);
    size_t queued = 0, room = 1024;
    PyObject *rows = PyList_New(0);
    PyObject *answer = NULL;
    if (!queue || !rows) goto done;
    u64 words[4];
    state_words(&root, words);
    if (map_put(&seen, words[0], words[1], words[2], words[3], 0)) goto done;
    queue[queued++] = root;
    for (size_t at = 0; at < queued; at++) {
        State st = queue[at];
        int failed;
        int32_t result = settled_entry(self, &st, &failed);
        if (failed) goto done;
        PyObject *plan = NULL, *edges = NULL;
        if (result < PASS && result != LOSS) {
            size_t offset = (size_t)(-2 - (int64_t)result);
            int length = self->plans.data[offset];
            plan = PyTuple_New(length);
            edges = PyTuple_New(0);
            for (int i = 0; plan && i < length; i++)
                PyTuple_SET_ITEM(plan, i, PyLong_FromLong(self->plans.data[offset + 1 + i]));
        } else {
            size_t base = self->scratch.len;
            if (result != LOSS) {
                if (ints_push(&self->scratch, result)) goto done;
            } else {
                int64_t v = moves_of(self, st.hands[st.turn], st.table);
                if (v < 0 || ints_reserve(&self->scratch, span_length(v) + 1)) goto done;
                memcpy(&self->scratch.data[base], &self->arena.data[span_offset(v)], span_length(v) * sizeof(int32_t));
                self->scratch.len += span_length(v);
                if (st.table != NO_TABLE) self->scratch.data[self->scratch.len++] = PASS;
            }
            plan = PyTuple_New(0);
            edges = PyTuple_New((Py_ssize_t)(self->scratch.len - base));
            for (size_t i = base; plan && edges && i < self->scratch.len; i++) {
                int move = self->scratch.data[i];
                State child;
                long row = -1;
                if (successor(self, &st, move, &child)) {
                    state_words(&child, words);
                    Slot *s = map_find(&seen, words[0], words[1], words[2], words[3]);
                    if (s) {
                        row = (long)s->v;
                    } else {
                        if (queued == room) {
                            State *grown = realloc(queue, sizeof(State) * room * 2);
                            if (!grown) {
                                PyErr_NoMemory();
                                break;
                            }
                            queue = grown;
                            room *= 2;
                        }
                        row = (long)queued;
                        queue[queued++] = child;
                        if (map_put(&seen, words[0], words[1], words[2], words[3], row)) {
                            PyErr_NoMemory();
                            break;
                        }
                    }
                }
                PyTuple_SET_ITEM(edges, (Py_ssize_t)(i - base), Py_BuildValue("(il)", move, row));
            }
            self->scratch.len = base;
        }
        PyObject *hands = self->players == 2 ? Py_BuildValue("(KK)", st.hands[0], st.hands[1])
                                             : Py_BuildValue("(KKK)", st.hands[0], st.hands[1], st.hands[2]);
        PyObject *row = (plan && edges && hands && !PyErr_Occurred())
                            ? Py_BuildValue("(OiiiOO)", hands, st.turn, st.table, st.by, plan, edges)
                            : NULL;
        Py_XDECREF(plan);
        Py_XDECREF(edges);
        Py_XDECREF(hands);
        if (!row || PyList_Append(rows, row)) {
            Py_XDECREF(row);
            goto done;
        }
        Py_DECREF(row);
    }
    answer = rows;
    rows = NULL;
done:
    if (!answer && !PyErr_Occurred()) failure(self);
    self->failed = 0;
    Py_XDECREF(rows);
    free(queue);
    map_free(&seen);
    return answer;
}

static PyObject *Core_strategy(Core *self, PyObject *args) {
    State st;
    if (parse_state(self, args, &st)) return NULL;
    return strategy_rows(self, st);
}

/* ------------------------------------------------------------------------ */
/* The Python type                                                           */

static int free_caches(Core *self) {
    if (map_clear(&self->known) || map_clear(&self->hand_runs_out)) return -1;
    self->known_count = 0;
    self->arena.len = 0;
    self->run_plans.len = 0;
    return 0;
}

static void Core_dealloc(Core *self) {
    Map *maps[] = {&self->play_index, &self->table, &self->classes, &self->known, &self->hand_runs_out};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) map_free(maps[i]);
    free(self->cover.marks);
    free(self->plays);
    free(self->known_of);
    free(self->plans.data);
    free(self->class_lists.data);
    free(self->arena.data);
    free(self->run_plans.data);
    free(self->scratch.data);
    for (int i = 0; i < self->pattern_count; i++) free(self->patterns[i].limits);
    Py_XDECREF(self->check);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Core(players, patterns, highest_chain_rank, both_jokers, check)
 * patterns: a sequence of (kind, width, min_chain, max_chain, kicker_size, kickers_per_link, limits),
 * limits a bytes of 15 * 15 * 15 (b"" without kickers). */
static int Core_init(Core *self, PyObject *args, PyObject *kwargs) {
    PyObject *patterns, *check;
    int players, highest, both;
    if (!PyArg_ParseTuple(args, "iOipO", &players, &patterns, &highest, &both, &check)) return -1;
    if (players != 2 && players != 3) {
        PyErr_SetString(PyExc_ValueError, "an open-hand game has 2 or 3 players");
        return -1;
    }
    if (!PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable");
        return -1;
    }
    PyObject *seq = PySequence_Fast(patterns, "patterns must be a sequence");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count > MAX_PATTERNS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many patterns");
        return -1;
    }
    self->bomb = -1;
    for (Py_ssize_t i = 0; i < count; i++) {
        Pattern *p = &self->patterns[i];
        const char *limits;
        Py_ssize_t size;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiiiiiy#", &p->kind, &p->width, &p->min_chain,
                              &p->max_chain, &p->kicker_size, &p->per_link, &limits, &size)) {
            Py_DECREF(seq);
            return -1;
        }
        self->pattern_count = (int)i + 1;
        p->limits = NULL;
        if (p->kicker_size) {
            if (size != RANKS * RANKS * RANKS) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "kicker limits must hold 15 * 15 * 15 bytes");
                return -1;
            }
            p->limits = malloc((size_t)size);
            if (!p->limits) {
                Py_DECREF(seq);
                PyErr_NoMemory();
                return -1;
            }
            memcpy(p->limits, limits, (size_t)size);
        }
        if (p->kind == KIND_BOMB) self->bomb = (int)i;
        if (p->width < 1 || p->width > 4 || p->min_chain < 1 || p->max_chain < p->min_chain ||
            p->kicker_size < 0 || p->kicker_size > 2) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "a pattern out of range");
            return -1;
        }
    }
    Py_DECREF(seq);
    if (self->bomb < 0) {
        PyErr_SetString(PyExc_ValueError, "the rules need a bomb");
        return -1;
    }
    self->players = players;
    self->highest = highest;
    self->both_jokers = both;
    Py_INCREF(check);
    self->check = check;
    for (int turn = 0; turn < players; turn++) {
        self->side[turn] = turn == 0 ? 0 : 1;
        self->opponent_count[turn] = 0;
    }
    for (int turn = 0; turn < players; turn++)
        for (int p = 0; p < players; p++)
            if (self->side[p] != self->side[turn]) self->opponents[turn][self->opponent_count[turn]++] = p;
    Map *maps[] = {&self->play_index, &self->table, &self->classes, &self->known, &self->hand_runs_out};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
        if (map_init(maps[i], 1024)) {
            PyErr_NoMemory();
            return -1;
        }
    self->table.sparse = 1;
    if (marks_init(&self->cover)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int parse_state(Core *self, PyObject *args, State *st) {
    PyObject *hands;
    if (!PyArg_ParseTuple(args, "Oiii", &hands, &st->turn, &st->table, &st->by)) return -1;
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != self->players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "one hand a player");
        return -1;
    }
    st->hands[2] = 0;
    for (int i = 0; i < self->players; i++) {
        st->hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    if (st->turn < 0 || st->turn >= self->players || st->by < -1 || st->by >= self->players ||
        st->table < NO_TABLE || st->table >= (int)self->play_count || (st->table == NO_TABLE) != (st->by == -1) ||
        !st->hands[st->turn]) {
        PyErr_SetString(PyExc_ValueError, "not a state of this game");
        return -1;
    }
    return 0;
}

/* A failure of the search as Python sees it: the exception set, or None when the time ran out. */
static PyObject *failure(Core *self) {
    int timed_out = self->failed == 2;
    self->failed = 0;
    self->scratch.len = 0;
    if (PyErr_Occurred()) return NULL;
    if (timed_out) {
        PyErr_SetString(PyExc_TimeoutError, "past the deadline");
        return NULL;
    }
    PyErr_SetString(PyExc_RuntimeError, "the compiled search failed");
    return NULL;
}

static PyObject *Core_wins(Core *self, PyObject *args) {
    State st;
    if (parse_state(self, args, &st)) return NULL;
    int won = wins(self, &st);
    if (won < 0) return failure(self);
    return PyBool_FromLong(won);
}

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

static PyObject *Core_ordered(Core *self, PyObject *args) {
    unsigned long long hand;
    int table;
    if (!PyArg_ParseTuple(args, "Ki", &hand, &table)) return NULL;
    if (table != NO_TABLE && check_play(self, table)) return NULL;
    return move_list(self, ordered_of(self, hand, table));
}

static PyObject *Core_lookup(Core *self, PyObject *args) {
    State st;
    if (parse_state(self, args, &st)) return NULL;
    u64 key[4];
    if (key_of(self, &st, key)) return failure(self);
    Slot *s = map_find(&self->table, key[0], key[1], key[2], key[3]);
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

/* Cut the table to about `keep` entries, the costliest (most nodes searched under them) kept;
 * with `caches`, empty every cache of hands too. Nothing below a node holds a pointer into
 * the table or the plans, so this is sound at any store, and at any node when caches is 0. */
static int evict_to(Core *self, size_t keep, int caches) {
    size_t size = self->table.len;
    size_t by_cost[65] = {0};
    for (size_t i = 0; i < self->table.cap; i++)
        if (self->table.slots[i].a != EMPTY_KEY) by_cost[entry_cost(self->table.slots[i].v)]++;
    /* The cheapest cost kept whole, and how many of the cost just below it still fit. */
    int lowest = 65;
    size_t kept_so_far = 0;
    while (lowest > 0 && kept_so_far + by_cost[lowest - 1] <= keep) kept_so_far += by_cost[--lowest];
    size_t room_below = lowest > 0 ? keep - kept_so_far : 0;
    Map kept;
    Ints plans = {NULL, 0, 0};
    size_t cap = 1024, most = keep < size ? keep : size;
    while (cap < most * 2 + 2) cap *= 2;
    if (map_init(&kept, cap)) return PyErr_NoMemory(), -1;
    kept.sparse = 1;
    for (size_t i = 0; i < self->table.cap; i++) {
        Slot *s = &self->table.slots[i];
        if (s->a == EMPTY_KEY) continue;
        int cost = entry_cost(s->v);
        if (cost < lowest - 1 || (cost == lowest - 1 && room_below == 0)) continue;
        if (cost == lowest - 1) room_below--;
        int32_t result = entry_result(s->v);
        if (result < PASS && result != LOSS) { /* a plan: copy it over */
            size_t offset = (size_t)(-2 - (int64_t)result);
            size_t length = (size_t)self->plans.data[offset] + 1;
            if (ints_reserve(&plans, length)) {
                map_free(&kept);
                free(plans.data);
                return PyErr_NoMemory(), -1;
            }
            memcpy(&plans.data[plans.len], &self->plans.data[offset], length * sizeof(int32_t));
            result = (int32_t)(-2 - (int64_t)plans.len);
            plans.len += length;
        }
        if (map_put(&kept, s->a, s->b, s->c, s->d, entry_value(result, cost))) {
            map_free(&kept);
            free(plans.data);
            return PyErr_NoMemory(), -1;
        }
    }
    map_free(&self->table);
    self->table = kept;
    free(self->plans.data);
    self->plans = plans;
    self->evictions++;
    self->evicted += (long long)(size - self->table.len);
    if (caches && free_caches(self)) return PyErr_NoMemory(), -1;
    return 0;
}

/* evict(keep): keep the costliest `keep` table entries, empty every cache of hands. */
static PyObject *Core_evict(Core *self, PyObject *args) {
    Py_ssize_t keep;
    if (!PyArg_ParseTuple(args, "n", &keep)) return NULL;
    if (keep < 0) keep = 0;
    long long before = self->evicted;
    if (evict_to(self, (size_t)keep, 1)) return NULL;
    return PyLong_FromLongLong(self->evicted - before);
}

/* bound(entries): the most entries the table holds before it evicts half itself (0: no bound). */
static PyObject *Core_bound(Core *self, PyObject *args) {
    Py_ssize_t most;
    if (!PyArg_ParseTuple(args, "n", &most)) return NULL;
    self->most_entries = most > 0 ? (size_t)most : 0;
    Py_RETURN_NONE;
}

/* clock(seconds): the seconds left for long work on one hand (None: no limit). */
static PyObject *Core_clock(Core *self, PyObject *left) {
    if (left == Py_None) {
        self->stop_at = 0;
        Py_RETURN_NONE;
    }
    double seconds = PyFloat_AsDouble(left);
    if (seconds == -1.0 && PyErr_Occurred()) return NULL;
    self->stop_at = clock_now() + (seconds > 0 ? seconds : 1e-9);
    Py_RETURN_NONE;
}

static PyObject *Core_forget(Core *self, PyObject *Py_UNUSED(args)) {
    if (free_caches(self)) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Core_get_nodes(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(self->nodes); }

static PyObject *Core_get_size(Core *self, void *Py_UNUSED(closure)) { return PyLong_FromSize_t(self->table.len); }

static PyObject *Core_get_evictions(Core *self, void *Py_UNUSED(closure)) {
    return Py_BuildValue("(LL)", self->evictions, self->evicted);
}

/* (held, largest): the bytes of every table, cache and list the search allocated, and of the
 * largest one, which its next growth would double (old and new both held for a moment). */
static PyObject *Core_get_bytes(Core *self, void *Py_UNUSED(closure)) {
    size_t blocks[13], n = 0;
    const Map *maps[] = {&self->play_index, &self->table, &self->classes, &self->known, &self->hand_runs_out};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) blocks[n++] = maps[i]->cap * sizeof(Slot);
    const Ints *lists[] = {&self->plans, &self->class_lists, &self->arena, &self->run_plans, &self->scratch};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) blocks[n++] = lists[i]->cap * sizeof(int32_t);
    blocks[n++] = self->play_cap * sizeof(PlayRecord);
    blocks[n++] = self->known_cap * sizeof(Known);
    blocks[n++] = self->cover.cap * sizeof(Mark);
    size_t held = 0, largest = 0;
    for (size_t i = 0; i < n; i++) {
        held += blocks[i];
        if (blocks[i] > largest) largest = blocks[i];
    }
    return Py_BuildValue("(nn)", (Py_ssize_t)held, (Py_ssize_t)largest);
}

static PyObject *Core_get_play_count(Core *self, void *Py_UNUSED(closure)) {
    return PyLong_FromSize_t(self->play_count);
}

static PyMethodDef Core_methods[] = {
    {"wins", (PyCFunction)Core_wins, METH_VARARGS,
     "wins(hands, turn, table, by): whether the side to move wins (TimeoutError past the deadline)."},
    {"ordered", (PyCFunction)Core_ordered, METH_VARARGS,
     "ordered(hand, table): the plays (table -1) or answers in the search's order, the pass left out."},
    {"lookup", (PyCFunction)Core_lookup, METH_VARARGS,
     "lookup(hands, turn, table, by): False if not searched, None for a loss, the winning move, or a plan."},
    {"plays", (PyCFunction)Core_plays, METH_VARARGS, "plays(hand): every play in a packed hand."},
    {"answers", (PyCFunction)Core_answers, METH_VARARGS, "answers(hand, play): every play in the hand beating it."},
    {"play", (PyCFunction)Core_play, METH_VARARGS, "play(move): (pattern, top, chain, packed cards)."},
    {"strategy", (PyCFunction)Core_strategy, METH_VARARGS,
     "strategy(hands, turn, table, by): the won root's strategy, breadth first: "
     "(hands, turn, table, by, plan, ((move, child row or -1), ...)) a node."},
    {"strategy_line", (PyCFunction)Core_strategy_line, METH_VARARGS,
     "strategy_line(hands, turn, table, by): (strategy nodes, principal line as (player, move) pairs)."},
    {"cards", (PyCFunction)Core_cards, METH_VARARGS, "cards(move): the packed cards of a play."},
    {"intern", (PyCFunction)Core_intern, METH_VARARGS, "intern(pattern, top, chain, cards): a play's number."},
    {"evict", (PyCFunction)Core_evict, METH_VARARGS,
     "evict(keep): keep the newest table entries, empty the caches; returns how many were dropped."},
    {"forget", (PyCFunction)Core_forget, METH_NOARGS, "forget(): empty every cache of hands."},
    {"clock", (PyCFunction)Core_clock, METH_O, "clock(seconds): the time left for long work on one hand (None: none)."},
    {"bound", (PyCFunction)Core_bound, METH_VARARGS,
     "bound(entries): past this many entries the table evicts half itself, the cheapest first (0: none)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "positions searched", NULL},
    {"size", (getter)Core_get_size, NULL, "entries in the table", NULL},
    {"play_count", (getter)Core_get_play_count, NULL, "plays met", NULL},
    {"bytes", (getter)Core_get_bytes, NULL,
     "(held, largest): bytes of every table, cache and list the search holds, and of the largest", NULL},
    {"evictions", (getter)Core_get_evictions, NULL, "(evictions, entries evicted) so far", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpsolver.endgame._core.Core",
    .tp_doc = "The open-hand search over packed hands, compiled.",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "The compiled core of cpsolver's open-hand search.", -1, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
