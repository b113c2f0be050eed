/*
 * The walk of a proof read: from the root, every move of the winning side legal and leading to
 * the node named, every legal reply of the other side listed once and answered, every spring
 * plan unanswerable (cpsolver/verify/strategy.py's walk, the same checks).
 *
 * Part of cpsolver/verify/_strategy.c, after lines.h: one translation unit, so every function
 * stays static and inlinable.
 */
#ifndef CPSOLVER_CHECKER_WALK_H
#define CPSOLVER_CHECKER_WALK_H

/* A position: the hands, the player to move, and the play to beat (has_table 0: a lead). */
typedef struct {
    u64 hands[3];
    int players, turn, has_table, by;
    Play table;
} Position;

typedef struct {
    const Rules *rules;
    const Read *read;
    int winner;
    uint8_t *reached; /* per node: its position is known (it spelled the one a move led to) */
    Play *tables; /* per reached node: the play on its table, as generated */
    int32_t *stack;
    size_t depth;
    Plays legal, answers;
    uint8_t *listed; /* per legal move: a reply names it */
    size_t listed_cap;
    int32_t *slots; /* the legal moves by their cards: open addressing, -1 empty */
    size_t slot_cap, mask;
} Walk;

static inline int side_of(int player) { return player != 0; }

/* Whether a step names this play: the same cards, kind and rank, as the Python checker keys
 * moves (a play's chain follows from its kind and cards). */
static inline int names(const Step *s, const Play *p) {
    return s->kind == p->kind && s->rank == p->top && s->cards == p->cards;
}

/* Whether node `index` is written as `p`: the Python checker's `spells`. */
static int spells(const Walk *w, int32_t index, const Position *p) {
    const Node *n = &w->read->nodes[index];
    if (n->turn != p->turn || n->players != p->players) return 0;
    for (int i = 0; i < p->players; i++)
        if (n->hands[i] != p->hands[i]) return 0;
    if (n->table_kind == NO_KIND || !p->has_table) return n->table_kind == NO_KIND && !p->has_table;
    return n->by == p->by && n->table_kind == p->table.kind && n->table_rank == p->table.top &&
           n->table_cards == p->table.cards;
}

/* The position of a reached node. */
static void position_of(const Walk *w, int32_t index, Position *p) {
    const Node *n = &w->read->nodes[index];
    memcpy(p->hands, n->hands, sizeof p->hands);
    p->players = n->players;
    p->turn = n->turn;
    p->has_table = n->table_kind != NO_KIND;
    p->by = n->by;
    p->table = w->tables[index];
}

/* The node `target` the move `play` (NULL: a pass) leads to from `p` must hold the position
 * after it; a move that empties the hand leads nowhere and must be the winner's. 1 holds. */
static int edge(Walk *w, const Position *p, const Play *play, int32_t target) {
    Position after = *p;
    int following = (p->turn + 1) % p->players;
    after.turn = following;
    if (!play) {
        if (following == p->by) after.has_table = 0; /* everyone else passed: the table clears */
    } else {
        after.hands[p->turn] -= play->cards;
        if (!after.hands[p->turn]) return side_of(p->turn) == w->winner && target == NO_NEXT;
        after.has_table = 1;
        after.table = *play;
        after.by = p->turn;
    }
    if (target < 0 || (size_t)target >= w->read->count || !spells(w, target, &after)) return 0;
    if (!w->reached[target]) {
        w->reached[target] = 1;
        w->tables[target] = after.table;
        w->stack[w->depth++] = target;
    }
    return 1;
}

static int moves_of(Walk *w, const Position *p, Plays *out) {
    u64 hand = p->hands[p->turn];
    return p->has_table ? all_answers(w->rules, hand, &p->table, out) : all_plays(w->rules, hand, out);
}

/* The legal play a step names, or NULL. */
static const Play *named(const Plays *legal, const Step *s) {
    for (size_t i = 0; i < legal->len; i++)
        if (names(s, &legal->data[i])) return &legal->data[i];
    return NULL;
}

static int spring(Walk *w, const Position *p, const Node *n) {
    if (p->has_table) return 0;
    u64 left = p->hands[p->turn];
    for (int32_t k = 0; k < n->steps; k++) {
        const Step *s = &w->read->steps[n->first + k];
        if (all_plays(w->rules, left, &w->legal)) return -1;
        const Play *play = named(&w->legal, s);
        if (!play) return 0;
        left -= play->cards;
        if (k + 1 == n->steps) break;
        for (int o = 0; o < p->players; o++) {
            if (side_of(o) == side_of(p->turn)) continue;
            if (all_answers(w->rules, p->hands[o], play, &w->answers)) return -1;
            if (w->answers.len) return 0;
        }
    }
    return left == 0;
}

static inline size_t slot_of(u64 cards, size_t mask) {
    return (size_t)((cards * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
}

/* Index the legal moves by their cards: a node of the other side may have hundreds, each
 * looked up once. */
static int index_legal(Walk *w) {
    size_t cap = 16;
    while (cap < 2 * w->legal.len) cap <<= 1;
    if (room_for((void **)&w->slots, &w->slot_cap, cap, sizeof(int32_t))) return -1;
    w->mask = cap - 1;
    memset(w->slots, 0xFF, cap * sizeof(int32_t));
    for (size_t i = 0; i < w->legal.len; i++) {
        size_t at = slot_of(w->legal.data[i].cards, w->mask);
        while (w->slots[at] >= 0) at = (at + 1) & w->mask;
        w->slots[at] = (int32_t)i;
    }
    return 0;
}

static const Play *indexed(const Walk *w, const Step *s) {
    for (size_t at = slot_of(s->cards, w->mask); w->slots[at] >= 0; at = (at + 1) & w->mask)
        if (names(s, &w->legal.data[w->slots[at]])) return &w->legal.data[w->slots[at]];
    return NULL;
}

/* A node of the other side: every legal reply listed once, each answered. */
static int replies(Walk *w, const Position *p, const Node *n) {
    if (moves_of(w, p, &w->legal) || index_legal(w)) return -1;
    size_t legal = w->legal.len + (size_t)p->has_table; /* the last: a pass, where one is legal */
    if ((size_t)n->steps != legal) return 0;
    if (room_for((void **)&w->listed, &w->listed_cap, legal, 1)) return -1;
    memset(w->listed, 0, legal);
    for (int32_t k = 0; k < n->steps; k++) {
        const Step *s = &w->read->steps[n->first + k];
        size_t at;
        if (s->kind == NO_KIND) {
            if (!p->has_table) return 0;
            at = w->legal.len;
        } else {
            const Play *play = indexed(w, s);
            if (!play) return 0;
            at = (size_t)(play - w->legal.data);
        }
        if (w->listed[at]) return 0; /* listed twice, so some legal reply is not */
        w->listed[at] = 1;
        if (!edge(w, p, s->kind == NO_KIND ? NULL : &w->legal.data[at], s->next)) return 0;
    }
    return 1;
}

static int check_node(Walk *w, int32_t index) {
    const Node *n = &w->read->nodes[index];
    Position p;
    position_of(w, index, &p);
    if (side_of(p.turn) != w->winner) return n->choice == CHOICE_REPLIES ? replies(w, &p, n) : 0;
    if (n->choice == CHOICE_SPRING) return spring(w, &p, n);
    if (n->choice != CHOICE_MOVE) return 0;
    const Step *s = &w->read->steps[n->first];
    if (s->kind == NO_KIND) return p.has_table && edge(w, &p, NULL, s->next);
    if (moves_of(w, &p, &w->legal)) return -1;
    const Play *play = named(&w->legal, s);
    return play && edge(w, &p, play, s->next);
}

#endif
