/* Diloti's rules for the batched kernel: see cbatch_rules.h. */
#include "cbatch_rules.h"

static int HEAD_BASE[52];
int HEAD_CARD[NUM_HEADS], HEAD_KIND[NUM_HEADS], HEAD_VALUE[NUM_HEADS];

void build_heads(void) {
    int h = 0;
    for (int c = 0; c < 52; c++) {
        int v = value_of(c);
        HEAD_BASE[c] = h;
        HEAD_CARD[h] = c; HEAD_KIND[h] = LAY; HEAD_VALUE[h] = v; h++;
        HEAD_CARD[h] = c; HEAD_KIND[h] = CAPTURE; HEAD_VALUE[h] = v; h++;
        if (v) {
            for (int s = v + 1; s <= 10; s++) { HEAD_CARD[h] = c; HEAD_KIND[h] = PLAIN; HEAD_VALUE[h] = s; h++; }
            for (int s = v; s <= 10; s++) { HEAD_CARD[h] = c; HEAD_KIND[h] = GROUP; HEAD_VALUE[h] = s; h++; }
        }
    }
    HEAD_CARD[h] = -1; HEAD_KIND[h] = 4; HEAD_VALUE[h] = 0; h++; /* keep */
    HEAD_CARD[h] = -1; HEAD_KIND[h] = 5; HEAD_VALUE[h] = 0;      /* redeal */
}

static int head_id(int c, int kind, int value) {
    int v = value_of(c), b = HEAD_BASE[c];
    if (kind == LAY) return b;
    if (kind == CAPTURE) return b + 1;
    if (kind == PLAIN) return b + 2 + (value - v - 1);
    return b + 2 + (10 - v) + (value - v);
}

/* ------------------------------------------------------------------ move generation */

static int add_move(Game *g, int c, int kind, int value, uint64_t cards) {
    if (g->nmoves >= MAX_MOVES) return OVERFLOW;
    if (g->nmoves == g->cap_moves) {
        int cap = g->cap_moves ? 2 * g->cap_moves : 32;
        Mv *m = realloc(g->moves, (size_t)cap * sizeof(Mv));
        if (!m) return OVERFLOW;
        g->moves = m;
        g->cap_moves = cap;
    }
    uint64_t names = cards & g->table;
    for (int j = 0; j < g->ndecl; j++)
        if (cards & g->decl[j].mask) names |= g->decl[j].mask & (~g->decl[j].mask + 1);
    Mv *m = &g->moves[g->nmoves++];
    m->names = names;
    m->cards = cards;
    m->card = (int8_t)c;
    m->kind = (int8_t)kind;
    m->value = (int8_t)value;
    m->head = (int16_t)head_id(c, kind, value);
    return 0;
}

/* Every set of loose numerals summing to at most 10, by sum (table.py's analyse_standard). */
static int subsets(Scratch *b, uint64_t numerals) {
    uint64_t *masks = b->subset_masks;
    int8_t *totals = b->subset_totals;
    int n = 0;
    for (int s = 0; s <= 10; s++) b->nbysum[s] = 0;
    uint64_t rest = numerals;
    while (rest) {
        int c = lowest(rest);
        rest &= rest - 1;
        int v = value_of(c), room = 10 - v, upto = n;
        for (int i = 0; i < upto; i++)
            if (totals[i] <= room) {
                if (n >= MAX_SUBSETS) return OVERFLOW;
                masks[n] = masks[i] | (1ULL << c);
                totals[n++] = (int8_t)(totals[i] + v);
            }
        if (n >= MAX_SUBSETS) return OVERFLOW;
        masks[n] = 1ULL << c;
        totals[n++] = (int8_t)v;
    }
    for (int i = 0; i < n; i++) {
        int t = totals[i];
        b->bysum[t][b->nbysum[t]++] = masks[i];
    }
    return 0;
}

static inline uint32_t hash_of(uint64_t m) { return (uint32_t)((m * 0x9E3779B97F4A7C15ULL) >> 51); }

/* Empties the hash: a new generation (the slots are not cleared, their stamps are then stale). */
static inline void hash_clear(Scratch *b) {
    if (++b->generation == 0) { /* wrapped: every stamp could look current */
        memset(b->stamp, 0, sizeof b->stamp);
        b->generation = 1;
    }
}

/* Inserts m into the hash; 1 if it was new. */
static inline int hash_add(Scratch *b, uint64_t m) {
    uint32_t i = hash_of(m) & (HASH_SIZE - 1), gen = b->generation;
    while (b->stamp[i] == gen) {
        if (b->hash[i] == m) return 0;
        i = (i + 1) & (HASH_SIZE - 1);
    }
    b->stamp[i] = gen;
    b->hash[i] = m;
    return 1;
}

/* The captures of value v: every non-empty union of disjoint parts (loose numerals summing to v, the
 * declarations of value v), as table.py's _closure grows them. */
static int captures(Scratch *b, Game *g, int v) {
    if (b->reach_done >> v & 1) return b->nreach[v];
    uint64_t *out = b->reach[v];
    int n = 0;
    hash_clear(b);
    int nparts = b->nbysum[v];
    for (int k = 0; k < nparts + g->ndecl; k++) {
        uint64_t p;
        if (k < nparts) p = b->bysum[v][k];
        else {
            Decl *d = &g->decl[k - nparts];
            if (d->value != v) continue;
            p = d->mask;
        }
        int upto = n;
        for (int i = 0; i < upto; i++)
            if (!(out[i] & p) && hash_add(b, out[i] | p)) {
                if (n >= MAX_REACH) return OVERFLOW;
                out[n++] = out[i] | p;
            }
        if (hash_add(b, p)) {
            if (n >= MAX_REACH) return OVERFLOW;
            out[n++] = p;
        }
    }
    b->nreach[v] = n;
    b->reach_done |= 1 << v;
    return n;
}

/* The values 1..10 held in a hand mask, as bits. */
static int values_held(uint64_t hand) {
    int held = 0;
    uint64_t m = hand & ((1ULL << 40) - 1);
    while (m) {
        held |= 1 << value_of(lowest(m));
        m &= m - 1;
    }
    return held;
}

/* A group of g made by a card of value v < g: the card with loose numerals summing to g - v, or raising a
 * raisable plain pile of g - v, and one or more other components (a capture of g); each table once. */
static int groups_above(Scratch *b, Game *g, int c, int v, int gv, uint64_t raisable_decls, uint64_t must) {
    int nr = captures(b, g, gv);
    if (nr < 0) return OVERFLOW;
    if (!nr) return 0;
    int need = gv - v, n = 0;
    hash_clear(b);
    for (int k = 0; k < b->nbysum[need] + g->ndecl; k++) {
        uint64_t c0;
        if (k < b->nbysum[need]) c0 = b->bysum[need][k];
        else {
            Decl *d = &g->decl[k - b->nbysum[need]];
            if (!(raisable_decls >> (k - b->nbysum[need]) & 1) || d->value != need) continue;
            c0 = d->mask;
        }
        for (int i = 0; i < nr; i++) {
            uint64_t r = b->reach[gv][i];
            if (r & c0) continue;
            uint64_t u = r | c0;
            if ((u & must) != must) continue;
            if (hash_add(b, u)) {
                if (n >= MAX_REACH) return OVERFLOW;
                b->tmp[n++] = u;
            }
        }
    }
    for (int i = 0; i < n; i++)
        if (add_move(g, c, GROUP, gv, b->tmp[i]) < 0) return OVERFLOW;
    return 0;
}

/* The legal moves of the seat to act (movegen.py's _standard and _standard_declarer, as sets). */
static int generate(Scratch *b, Game *g) {
    int turn = g->turn;
    uint64_t hand = g->hand[turn];
    uint64_t numerals = g->table & ((1ULL << 40) - 1), faces = g->table >> 40;
    g->nmoves = 0;
    b->reach_done = 0;
    if (subsets(b, numerals) < 0) return OVERFLOW;
    int own = -1;
    uint64_t raisable = 0; /* bit j: declaration j is a plain pile of the other side */
    for (int j = 0; j < g->ndecl; j++) {
        Decl *d = &g->decl[j];
        if (d->owner == turn) own = j;
        else if (d->kind == PLAIN && ((d->owner - turn) & 1)) raisable |= 1ULL << j;
    }
    uint64_t rest = hand;
    while (rest) {
        int c = lowest(rest);
        rest &= rest - 1;
        int v = value_of(c);
        if (!v) { /* a face card takes one loose face card of its rank; else it is laid */
            uint64_t same = (faces >> ((c & ~3) - 40)) & 0xF;
            if (!same) {
                if (own < 0 && add_move(g, c, LAY, 0, 0) < 0) return OVERFLOW;
            } else {
                while (same) {
                    int f = (c & ~3) + lowest(same);
                    same &= same - 1;
                    if (add_move(g, c, CAPTURE, 0, 1ULL << f) < 0) return OVERFLOW;
                }
            }
            continue;
        }
        int after = values_held(hand & ~(1ULL << c));
        int nc = captures(b, g, v);
        if (nc < 0) return OVERFLOW;
        if (own >= 0) {
            Decl *o = &g->decl[own];
            int w = o->value, keeps = after >> w & 1;
            for (int i = 0; i < nc; i++) {
                uint64_t u = b->reach[v][i];
                if ((keeps || (u & o->mask)) && add_move(g, c, CAPTURE, v, u) < 0) return OVERFLOW;
            }
            if (!keeps || v > w) continue;
            if (v == w) {
                for (int i = 0; i < nc; i++) {
                    uint64_t u = b->reach[v][i];
                    if ((u & o->mask) && add_move(g, c, GROUP, w, u) < 0) return OVERFLOW;
                }
            } else if (groups_above(b, g, c, v, w, raisable, o->mask) < 0) return OVERFLOW;
            continue;
        }
        for (int i = 0; i < nc; i++)
            if (add_move(g, c, CAPTURE, v, b->reach[v][i]) < 0) return OVERFLOW;
        for (int s = v + 1; s <= 10; s++) {
            if (!(after >> s & 1)) continue;
            int need = s - v;
            for (int i = 0; i < b->nbysum[need]; i++)
                if (add_move(g, c, PLAIN, s, b->bysum[need][i]) < 0) return OVERFLOW;
            for (int j = 0; j < g->ndecl; j++)
                if ((raisable >> j & 1) && g->decl[j].value == need && add_move(g, c, PLAIN, s, g->decl[j].mask) < 0)
                    return OVERFLOW;
        }
        if (after >> v & 1)
            for (int i = 0; i < nc; i++)
                if (add_move(g, c, GROUP, v, b->reach[v][i]) < 0) return OVERFLOW;
        for (int gv = v + 1; gv <= 10; gv++)
            if ((after >> gv & 1) && groups_above(b, g, c, v, gv, raisable, 0) < 0) return OVERFLOW;
        if (add_move(g, c, LAY, v, 0) < 0) return OVERFLOW;
    }
    return 0;
}

int decide(Scratch *b, Game *g) {
    g->head = -1;
    g->chosen = 0;
    uint64_t low = g->table;
    for (int j = 0; j < g->ndecl; j++) low |= g->decl[j].mask & (~g->decl[j].mask + 1);
    g->low = low;
    return generate(b, g);
}

int next_action(uint64_t names, uint64_t chosen) {
    uint64_t above = chosen ? ~((2ULL << (63 - __builtin_clzll(chosen))) - 1) : ~0ULL;
    uint64_t r = names & above;
    return r ? ITEM + lowest(r) : STOP;
}

int is_candidate(const Game *g, const Mv *m) {
    if (m->head != g->head) return 0;
    uint64_t upto = g->chosen ? (2ULL << (63 - __builtin_clzll(g->chosen))) - 1 : 0;
    return (m->names & upto) == g->chosen;
}

void write_mask(const Game *g, int8_t *row) {
    memset(row, 0, NUM_ACTIONS);
    if (g->phase != PH_PLAY) return;
    for (int i = 0; i < g->nmoves; i++) {
        const Mv *m = &g->moves[i];
        if (g->head < 0) row[m->head] = 1;
        else if (is_candidate(g, m)) row[next_action(m->names, g->chosen)] = 1;
    }
}

/* ------------------------------------------------------------------ playing a move */

static void deal_hands(Game *g) {
    int n = g->players;
    for (int i = 0; i < n; i++) {
        int seat = (g->dealer + 1 + i) % n;
        uint64_t h = 0;
        for (int k = 0; k < 6; k++) h |= 1ULL << g->stock[g->stock_pos++];
        g->hand[seat] = h;
    }
}

void push(Game *g, const Mv *m) {
    int turn = g->turn, c = m->card;
    uint64_t bit = 1ULL << c;
    g->hand[turn] &= ~bit;
    int plays_before = g->plays++;
    if (m->kind == LAY) {
        g->table |= bit;
    } else {
        g->table &= ~m->cards;
        int k = 0;
        for (int j = 0; j < g->ndecl; j++)
            if (!(g->decl[j].mask & m->cards)) g->decl[k++] = g->decl[j];
        g->ndecl = k;
        if (m->kind == CAPTURE) {
            int side = turn & 1;
            g->cap[side] |= m->cards | bit;
            g->last_cap = turn;
            if (!g->table && !g->ndecl && plays_before) g->sweeps[side]++; /* a xeri (not the round's first card) */
        } else {
            Decl *d = &g->decl[g->ndecl++];
            d->mask = m->cards | bit;
            d->value = m->value;
            d->kind = m->kind;
            d->owner = (int8_t)turn;
        }
    }
    if (!g->hand[turn] && turn == g->dealer) {
        if (g->stock_pos < g->stock_len) {
            g->deal_no++;
            g->turn = (g->dealer + 1) % g->players;
            deal_hands(g);
            return;
        }
        uint64_t rest = g->table;
        for (int j = 0; j < g->ndecl; j++) rest |= g->decl[j].mask;
        if (rest && g->last_cap >= 0) {
            g->cap[g->last_cap & 1] |= rest;
            g->table = 0;
            g->ndecl = 0;
        }
        g->phase = PH_OVER;
        g->turn = (g->dealer + 1) % g->players;
    } else {
        g->turn = (turn + 1) % g->players;
    }
}

static int points(uint64_t cap, int more, int xeri) {
    return (more ? 4 : 0) + popcount(cap & 0xF) + (cap >> 37 & 1 ? 2 : 0) + (cap >> 4 & 1 ? 1 : 0) + 10 * xeri;
}

/* ------------------------------------------------------------------ the observation (planes.py's encode) */

void observe(const Game *g, int seat, int head, uint64_t chosen, float *row) {
    int n = g->players;
    memset(row, 0, SIZE * sizeof(float));
    float *tail = row + TAIL_AT;
#define REL(s) ((((s) - seat) % n + n) % n)
    uint64_t own_cap = g->cap[seat & 1], other_cap = g->cap[(seat & 1) ^ 1];
    int x0 = g->sweeps[seat & 1], x1 = g->sweeps[(seat & 1) ^ 1];
    uint64_t hand = g->hand[seat];
    uint64_t decl[4] = {0, 0, 0, 0};
    uint64_t seen = hand | g->table | own_cap | other_cap;
    for (int j = 0; j < g->ndecl; j++) {
        const Decl *d = &g->decl[j];
        int r = REL(d->owner);
        decl[r] = d->mask;
        seen |= d->mask;
        int k = T_DECL + 12 * r;
        tail[k] = 1.0f;
        if (d->kind == GROUP) tail[k + 1] = 1.0f;
        if (d->value >= 1 && d->value <= 10) tail[k + 1 + d->value] = 1.0f;
    }
    uint64_t unseen = ((1ULL << 52) - 1) & ~seen;
    uint64_t card_plane = 0;
    if (head >= 0 && HEAD_CARD[head] >= 0) card_plane = 1ULL << HEAD_CARD[head];
    uint64_t planes[PLANES] = {hand, g->table, decl[0], decl[1], decl[2], decl[3], own_cap, other_cap, unseen, 0,
                               card_plane, chosen};
    for (int p = 0; p < PLANES; p++) {
        uint64_t m = planes[p];
        while (m) {
            row[52 * p + lowest(m)] = 1.0f;
            m &= m - 1;
        }
    }
    for (int s = 0; s < n; s++) tail[T_SIZES + REL(s)] = (float)(popcount(g->hand[s]) / 6.0);
    tail[T_STOCK] = (float)((g->stock_len - g->stock_pos) / 52.0);
    int own_n = popcount(own_cap), other_n = popcount(other_cap);
    tail[T_COUNTS] = (float)(own_n / 52.0);
    tail[T_COUNTS + 1] = (float)(other_n / 52.0);
    if (x0 || x1) {
        tail[T_XERI] = (float)((x0 < 24 ? x0 : 24) / 24.0);
        tail[T_XERI + 1] = (float)((x1 < 24 ? x1 : 24) / 24.0);
    }
    int p0 = points(own_cap, own_n > other_n, x0), p1 = points(other_cap, other_n > own_n, x1);
    tail[T_POINTS] = (float)((p0 < MAX_ROUND_POINTS ? p0 : MAX_ROUND_POINTS) / (double)MAX_ROUND_POINTS);
    tail[T_POINTS + 1] = (float)((p1 < MAX_ROUND_POINTS ? p1 : MAX_ROUND_POINTS) / (double)MAX_ROUND_POINTS);
    if (g->phase == PH_PLAY) tail[T_TURN + REL(g->turn)] = 1.0f;
    tail[T_DEALER + REL(g->dealer)] = 1.0f;
    tail[T_LAST + (g->last_cap < 0 ? 4 : REL(g->last_cap))] = 1.0f;
    tail[T_PHASE + g->phase] = 1.0f;
    if (n == 4) tail[T_FOUR] = 1.0f;
    int dn = g->deal_no < 1 ? 1 : g->deal_no > 4 ? 4 : g->deal_no;
    tail[T_DEAL + dn - 1] = 1.0f;
    tail[T_PLAYS] = (float)((g->plays < 48 ? g->plays : 48) / 48.0);
    tail[T_OPTIONS + 11] = 1.0f; /* face_card_redeal "off"; every option flag off */
    if (head >= 0) {
        tail[T_KIND + HEAD_KIND[head]] = 1.0f;
        tail[T_VALUE + HEAD_VALUE[head]] = 1.0f;
        tail[T_STAGE] = 1.0f;
    }
#undef REL
}

void returns(const Game *g, double *out, int players) {
    int more0 = popcount(g->cap[0]) > popcount(g->cap[1]), more1 = popcount(g->cap[1]) > popcount(g->cap[0]);
    int a = points(g->cap[0], more0, g->sweeps[0]), c = points(g->cap[1], more1, g->sweeps[1]);
    for (int s = 0; s < players; s++) out[s] = (s & 1) ? (double)(c - a) : (double)(a - c);
}
