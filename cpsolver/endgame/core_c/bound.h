/*
 * The memory cap's side of the compiled core: the cut that keeps the table's costliest
 * entries, the emptying of the caches of hands, and the gauge of the bytes the search holds
 * (the Python side's budget.MemoryBudget reads it and asks for the cut).
 *
 * Part of the compiled core, cpsolver/endgame/_core.c: one translation unit,
 * included from there in order (each part uses the ones before it), so every
 * function stays static and inlinable.
 */
#ifndef CPSOLVER_CORE_BOUND_H
#define CPSOLVER_CORE_BOUND_H

/* Empties every cache of hands (their records, the run-out memo and plans) and the narrow
 * questions' open marks: what the search finds again as it needs it. -1 on failure. */
static int free_caches(Core *self) {
    if (map_clear(&self->known)) return -1;
    for (int q = 0; q < QUESTIONS; q++)
        if (map_clear(&self->open_nodes[q])) return -1;
    self->known_count = 0;
    memset(self->recent, 0, sizeof self->recent);
    self->arena.len = 0;
    self->run_plans.len = 0;
    memset(self->run_memo, 0, RUN_MEMO * sizeof(RunMemo));
    return 0;
}

/* Cut the table to about `keep` entries, the costliest (most nodes searched under them) kept;
 * with `caches`, empty every cache of hands too. Nothing below a node holds a pointer into
 * the table or the plans, so this is sound at any store, and at any node when caches is 0.
 * The table is cut where it stands: a second table of the entries kept would hold, for a
 * moment, as many bytes again as the memory cap gives the first. */
typedef struct {
    Core *self;
    int lowest;                       /* the cheapest cost kept whole */
    size_t room_below, below, spread; /* the cost just below: how many fit, how many there are */
    Ints plans; /* the plans of the entries kept, copied into a list of their own, room made first */
} Cut;

/* Whether the cut keeps an entry; a plan kept is copied into the cut's list of plans. Of the
 * cost just below the cheapest kept whole, those kept are spread evenly over the slots, one in so
 * many: the first ones met, kept cut after cut, would be those whose homes are lowest, until
 * that end of the map is fuller than full and a single run of probes there holds most of a
 * million entries. */
static int cut_keeps(Slot *s, void *context) {
    Cut *cut = context;
    int cost = entry_cost(s->v);
    if (cost < cut->lowest - 1) return 0;
    if (cost == cut->lowest - 1) {
        cut->spread += cut->room_below;
        if (cut->spread < cut->below) return 0;
        cut->spread -= cut->below;
    }
    int32_t result = entry_result(s->v);
    if (result >= PASS || result == LOSS) return 1;
    const int32_t *plan = &cut->self->plans.data[-2 - (int64_t)result];
    size_t length = (size_t)plan[0] + 1;
    memcpy(&cut->plans.data[cut->plans.len], plan, length * sizeof(int32_t));
    s->v = entry_value((int32_t)(-2 - (int64_t)cut->plans.len), cost);
    cut->plans.len += length;
    return 1;
}

static int evict_to(Core *self, size_t keep, int caches) {
    Map *t = &self->table;
    size_t size = t->len;
    size_t by_cost[65] = {0};
    for (size_t i = 0; i < t->cap; i++)
        if (t->tags[i]) by_cost[entry_cost(t->slots[i].v)]++;
    /* The plans kept fit in as many ints as all of them, so the cut itself cannot fail. */
    Cut cut = {self, 65, 0, 0, 0, {NULL, 0, 0}};
    if (self->plans.len && ints_reserve(&cut.plans, self->plans.len)) return PyErr_NoMemory(), -1;
    size_t kept_so_far = 0;
    while (cut.lowest > 0 && kept_so_far + by_cost[cut.lowest - 1] <= keep) kept_so_far += by_cost[--cut.lowest];
    if (cut.lowest > 0) {
        cut.room_below = keep - kept_so_far;
        cut.below = by_cost[cut.lowest - 1];
    }
    map_keep_if(t, cut_keeps, &cut);
    free(self->plans.data);
    self->plans = cut.plans;
    self->evictions++;
    self->evicted += (long long)(size - t->len);
    if (caches && free_caches(self)) return PyErr_NoMemory(), -1;
    return 0;
}

/* The bytes a growth of the map would add now, the new block (the old one is held until it
 * is filled): none if it is at its bound (0: none), where it is cut or emptied instead. */
static size_t map_growth(const Map *m, size_t bound) {
    if (bound && bound <= m->cap * 3 / 4) return 0;
    return grown(m->cap) * (sizeof(Slot) + 1);
}

/* The bytes of every table, cache and list the search allocated (*held), and the most that one
 * growth of any of them would add for a moment (*growth: its new block, the old still held). */
static void held_bytes(Core *self, size_t *held_out, size_t *growth_out) {
    size_t held = 0, growth = 0;
#define HELD(bytes, next)                        \
    do {                                         \
        size_t n_ = (next);                      \
        held += (bytes);                         \
        if (n_ > growth) growth = n_;            \
    } while (0)
    Map *all[] = CORE_MAPS(self);
    (void)all;
    _Static_assert(sizeof all / sizeof *all == 9, "every map is counted below, bounded or a cache");
    const Map *bounded[] = {&self->table,         &self->open_nodes[0], &self->open_nodes[1],
                            &self->open_nodes[2], &self->open_nodes[3], &self->walked};
    for (size_t i = 0; i < sizeof bounded / sizeof *bounded; i++)
        HELD(bounded[i]->cap * (sizeof(Slot) + 1), map_growth(bounded[i], self->most_entries));
    const Map *caches[] = {&self->play_index, &self->classes, &self->known};
    for (size_t i = 0; i < sizeof caches / sizeof *caches; i++)
        HELD(caches[i]->cap * (sizeof(Slot) + 1), map_growth(caches[i], 0));
    const Ints *lists[] = {&self->plans, &self->class_lists, &self->arena, &self->run_plans, &self->run_work, &self->scratch};
    for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
        HELD(lists[i]->cap * sizeof(int32_t), lists[i]->cap * 2 * sizeof(int32_t));
    HELD(self->play_cap * sizeof(PlayRecord), self->play_cap * 2 * sizeof(PlayRecord));
    HELD(self->known_cap * sizeof(Known), self->known_cap * 2 * sizeof(Known));
    HELD(self->cover.cap * sizeof(Mark), self->cover.cap * 2 * sizeof(Mark));
    HELD(RUN_MEMO * sizeof(RunMemo), 0);
#undef HELD
    *held_out = held;
    *growth_out = growth;
}

#endif
