/*
 * Hands as ints, growable lists, and the hash maps every table of the search uses.
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_TABLES_H
#define CPSOLVER_CORE_TABLES_H

#if defined(__linux__)
#include <sys/mman.h>
#endif

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
/* One hash map for every table: three 64-bit words of key, one of value.    */
/* Linear probing over a byte of tag a slot (0 marks a free one). No         */
/* deletion: eviction rebuilds.                                              */

/* 32 bytes: a slot never straddles two cache lines (of 40, more than a third did), so
 * storing or finding an entry reads one line from memory. */
typedef struct {
    u64 a, b, c;
    int64_t v;
} Slot;

typedef struct {
    Slot *slots;
    uint8_t *tags; /* a byte of each slot's hash (0: free): a probe reads the slot only on a match */
    size_t cap, len;
} Map;

static inline u64 rotl(u64 x, int k) { return (x << k) | (x >> (64 - k)); }

/* The three words multiplied apart (independent, so the products overlap), then one mix. */
static inline u64 hash_of(u64 a, u64 b, u64 c) {
    return mix(a * 0x9E3779B97F4A7C15ULL ^ rotl(b, 17) * 0xC2B2AE3D27D4EB4FULL ^ rotl(c, 31) * 0x165667B19E3779F9ULL);
}

/* A slot's tag: the hash's top bits, never 0 (a free slot's). */
static inline uint8_t tag_of(u64 h) { return (uint8_t)((h >> 57) | 0x80); }

/* Tags of a big map sit on huge pages where the system gives them: a probe then
 * seldom misses the TLB, as it would over millions of small pages. */
#define HUGE_TAGS ((size_t)1 << 21)

static uint8_t *tags_alloc(size_t cap) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (cap >= HUGE_TAGS) {
        void *p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        madvise(p, cap, MADV_HUGEPAGE); /* advice only: small pages if refused */
        return p;
    }
#endif
    return calloc(cap, 1);
}

static void tags_free(uint8_t *tags, size_t cap) {
    if (!tags) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (cap >= HUGE_TAGS) {
        munmap(tags, cap);
        return;
    }
#endif
    free(tags);
}

/* A map's slots start on a cache line, so that at 32 bytes none straddles two: the large blocks
 * malloc gives start 16 bytes past a page, where every other slot would. */
static Slot *slots_alloc(size_t cap) {
    void *p = NULL;
    return posix_memalign(&p, 64, cap * sizeof(Slot)) ? NULL : p;
}

static int map_init(Map *m, size_t cap) {
    m->slots = slots_alloc(cap);
    m->tags = tags_alloc(cap);
    if (!m->slots || !m->tags) {
        free(m->slots);
        tags_free(m->tags, cap);
        m->slots = NULL;
        m->tags = NULL;
        return -1;
    }
    m->cap = cap;
    m->len = 0;
    return 0;
}

static inline int map_full(const Map *m) {
    /* Three quarters full: long runs of probes cost little, read in tags. */
    return (m->len + 1) * 4 > m->cap * 3;
}

static void map_free(Map *m) {
    free(m->slots);
    tags_free(m->tags, m->cap);
    m->slots = NULL;
    m->tags = NULL;
    m->cap = m->len = 0;
}

/* The slot holding a key, or NULL with *end the free slot where its probe stopped. A key absent
 * from a big table costs a read of its tags, which stay in cache, not of its slots, which do not. */
static inline Slot *map_probe(const Map *m, u64 a, u64 b, u64 c, size_t *end) {
    u64 h = hash_of(a, b, c);
    uint8_t tag = tag_of(h);
    size_t i = (size_t)h & (m->cap - 1);
    for (;;) {
        uint8_t t = m->tags[i];
        if (!t) {
            *end = i;
            return NULL;
        }
        if (t == tag) {
            Slot *s = &m->slots[i];
            if (s->a == a && s->b == b && s->c == c) return s;
        }
        i = (i + 1) & (m->cap - 1);
    }
}

static Slot *map_find(const Map *m, u64 a, u64 b, u64 c) {
    size_t end;
    return map_probe(m, a, b, c, &end);
}

/* map_find, where a miss also starts fetching, for writing, the free slot the key would be put
 * in. A node the table misses is searched, and most are stored when their result comes: the
 * store then wrote to a line far out in memory, and waited for it. (Six full deals: a median
 * 0.95 of the time, 0.85 to 1.02; a probe.) */
static Slot *map_find_to_put(const Map *m, u64 a, u64 b, u64 c) {
    size_t end;
    Slot *s = map_probe(m, a, b, c, &end);
    if (!s) __builtin_prefetch(&m->slots[end], 1);
    return s;
}

/* Start fetching where a key's probe begins, its tag and its slot, so that look-ups of
 * several maps wait for memory once, together, not once each. */
static inline void map_prefetch(const Map *m, u64 a, u64 b, u64 c) {
    size_t i = (size_t)hash_of(a, b, c) & (m->cap - 1);
    __builtin_prefetch(&m->tags[i]);
    __builtin_prefetch(&m->slots[i]);
}

/* A small map grows fourfold, so that a search of thousands of positions copies its maps
 * a few times, not ten; past GROW_FOURFOLD slots, twofold. Every map's size is one of
 * these steps from 1024 (compiled.table_bound counts on it). */
#define GROW_FOURFOLD ((size_t)1 << 16)

static inline size_t grown(size_t cap) { return cap * (cap < GROW_FOURFOLD ? 4 : 2); }

static int map_grow(Map *m) {
    Map bigger;
    if (map_init(&bigger, grown(m->cap))) return -1;
    for (size_t i = 0; i < m->cap; i++) {
        Slot *s = &m->slots[i];
        if (!m->tags[i]) continue;
        size_t j = (size_t)hash_of(s->a, s->b, s->c) & (bigger.cap - 1);
        while (bigger.tags[j]) j = (j + 1) & (bigger.cap - 1);
        bigger.slots[j] = *s;
        bigger.tags[j] = m->tags[i];
    }
    bigger.len = m->len;
    free(m->slots);
    tags_free(m->tags, m->cap);
    *m = bigger;
    return 0;
}

/* Set the value of a key (inserting it if new). */
static int map_put(Map *m, u64 a, u64 b, u64 c, int64_t v) {
    if (map_full(m) && map_grow(m)) return -1;
    u64 h = hash_of(a, b, c);
    uint8_t tag = tag_of(h);
    size_t i = (size_t)h & (m->cap - 1);
    for (;;) {
        Slot *s = &m->slots[i];
        uint8_t t = m->tags[i];
        if (!t) {
            m->tags[i] = tag;
            s->a = a;
            s->b = b;
            s->c = c;
            s->v = v;
            m->len++;
            return 0;
        }
        if (t == tag && s->a == a && s->b == b && s->c == c) {
            s->v = v;
            return 0;
        }
        i = (i + 1) & (m->cap - 1);
    }
}

/* Delete every entry `keep` refuses (it may change the value of one it keeps), in one pass:
 * from a free slot on, round the map once, each entry is taken out and, if kept, put back at the
 * first free slot from its home (no tombstones: a probe still stops at the first free slot).
 * That slot is never past the entry's own, so each probe run closes over its holes as it is
 * read, and each entry is read once; deleting the entries one by one, each moving the rest of
 * its run back, costs the square of a run's length, and at three quarters full the longest runs
 * made a cut of millions take a minute. */
static inline void map_keep_if(Map *m, int (*keep)(Slot *, void *), void *context) {
    size_t mask = m->cap - 1, start = 0;
    while (m->tags[start]) start++; /* a map is never full */
    for (size_t n = 1; n <= m->cap; n++) {
        size_t j = (start + n) & mask;
        uint8_t tag = m->tags[j];
        if (!tag) continue;
        Slot s = m->slots[j];
        m->tags[j] = 0;
        if (!keep(&s, context)) {
            m->len--;
            continue;
        }
        size_t i = (size_t)hash_of(s.a, s.b, s.c) & mask;
        while (m->tags[i]) i = (i + 1) & mask;
        m->slots[i] = s;
        m->tags[i] = tag;
    }
}

/* Empty a map to its smallest size, 1024 slots. At that size already, only its tags are zeroed:
 * the strategy's read-out empties a question's open map before each of its millions of small
 * searches (settle_won), and freeing and allocating it anew each time, malloc consolidating its
 * free chunks, took a tenth of a full deal's read-out. */
static int map_clear(Map *m) {
    if (m->tags && m->cap == 1024) {
        if (m->len) memset(m->tags, 0, m->cap);
        m->len = 0;
        return 0;
    }
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
