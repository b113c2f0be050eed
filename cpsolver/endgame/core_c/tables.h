/*
 * Hands as ints, growable lists, and the hash maps every table of the search uses.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_TABLES_H
#define CPSOLVER_CORE_TABLES_H

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

#endif
