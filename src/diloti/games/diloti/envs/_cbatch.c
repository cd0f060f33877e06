/* Diloti's batched kernel: N rounds held in C structs, stepped by action ids in one call.
 *
 * The Python batch (diloti.envs.batch.SelfPlayBatch) plays each game through the compiled engine and its
 * per-game Python; this extension plays the same rounds (the standard rules, 2 or 4 players, one-round
 * episodes) with the same legal moves, action encoding and observation bytes, writing straight into the batch's
 * numpy buffers (the buffer protocol: no numpy headers, no new dependency). The deal stays in Python
 * (State.new: the seeded shuffle), handed to `start`; a table whose moves would pass the bounds below is handed
 * back to Python (`export`) for the rest of its round, as the Python engine's large-table path bounds it.
 * The wrapper and what uses C: diloti/games/diloti/envs/cbatch.py. The equivalence test:
 * tests/test_envs_batch_c.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NUM_HEADS 506
#define ITEM NUM_HEADS
#define STOP (ITEM + 52)
#define NUM_ACTIONS (STOP + 1)
#define SIZE 744
#define PLANES 12
#define TAIL_AT (PLANES * 52)
#define MAX_ROUND_POINTS 251

/* Bounds of one decision's work: past any of them the round goes on in Python (its large-table path). */
#define MAX_SUBSETS 1024 /* sets of loose numerals summing to 10 or less */
#define MAX_REACH 2048   /* captures of one value (unions of disjoint parts) */
#define MAX_MOVES 2048   /* legal moves of one position */
#define HASH_SIZE 8192   /* open addressing for the unions, > 2 * MAX_REACH */

enum { LAY = 0, CAPTURE = 1, PLAIN = 2, GROUP = 3 };
enum { PH_PLAY = 0, PH_OVER = 2 };
/* Offsets among the numbers after the planes (planes.py's _DECL ... _STAGE). */
enum {
    T_DECL = 0, T_SIZES = 48, T_STOCK = 52, T_COUNTS = 53, T_XERI = 55, T_POINTS = 57, T_SCORES = 59,
    T_TURN = 61, T_DEALER = 65, T_LAST = 69, T_PHASE = 74, T_FOUR = 78, T_DEAL = 79, T_PLAYS = 83,
    T_PENDING = 84, T_OPTIONS = 88, T_KIND = 102, T_VALUE = 108, T_STAGE = 119
};

typedef struct {
    uint64_t mask;
    int8_t value, kind, owner;
} Decl;

typedef struct {
    uint64_t names; /* the item cards: each loose card taken, the lowest card of each declaration taken */
    uint64_t cards; /* every table card taken or built on */
    int16_t head;
    int8_t card, kind, value;
} Mv;

typedef struct {
    uint64_t hand[4];
    uint64_t table; /* loose cards */
    uint64_t cap[2];
    Decl decl[4];
    uint8_t stock[52];
    int ndecl, stock_len, stock_pos;
    int players, dealer, turn, phase, deal_no, plays, last_cap, sweeps[2];
    long applied;
    int python; /* handed to Python for the rest of the round */
    /* the decision of the seat to act */
    int head;
    uint64_t chosen;
    uint64_t low; /* the table's item cards */
    int nmoves, cap_moves;
    Mv *moves;
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    int players;
    long max_steps; /* -1: none */
    double illegal_reward;
    Game *games;
    Py_buffer obs, masks, to_act, rewards, terminated, truncated, illegal, final_obs;
    int nbuf; /* buffers acquired (released in this order's reverse) */
    /* scratch of one decision */
    uint64_t bysum[11][MAX_SUBSETS];
    int nbysum[11];
    uint64_t reach[11][MAX_REACH];
    int nreach[11];
    int reach_done;
    uint64_t hash[HASH_SIZE];
    uint32_t stamp[HASH_SIZE]; /* a slot of hash is in use when its stamp is the generation's */
    uint32_t generation;
    uint64_t tmp[MAX_REACH];
} Batch;

static int HEAD_BASE[52];
static int HEAD_CARD[NUM_HEADS], HEAD_KIND[NUM_HEADS], HEAD_VALUE[NUM_HEADS];

static inline int value_of(int c) { return c < 40 ? (c >> 2) + 1 : 0; }
static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }
static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

static void build_heads(void) {
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

/* A position's moves overflowed a bound: the caller hands the game to Python. */
#define OVERFLOW (-1)

static int add_move(Game *g, int c, int kind, int value, uint64_t cards) {
    if (g->nmoves >= MAX_MOVES) return OVERFLOW;
    if (g->nmoves == g->cap_moves) {
        int cap = g->cap_moves ? 2 * g->cap_moves : 32;
        Mv *m = PyMem_Realloc(g->moves, (size_t)cap * sizeof(Mv));
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
static int subsets(Batch *b, uint64_t numerals) {
    static uint64_t masks[MAX_SUBSETS];
    static int8_t totals[MAX_SUBSETS];
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
static inline void hash_clear(Batch *b) {
    if (++b->generation == 0) { /* wrapped: every stamp could look current */
        memset(b->stamp, 0, sizeof b->stamp);
        b->generation = 1;
    }
}

/* Inserts m into the hash; 1 if it was new. */
static inline int hash_add(Batch *b, uint64_t m) {
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
static int captures(Batch *b, Game *g, int v) {
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
static int groups_above(Batch *b, Game *g, int c, int v, int gv, uint64_t raisable_decls, uint64_t must) {
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
static int generate(Batch *b, Game *g) {
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

/* A new decision for the seat to act; OVERFLOW if its moves pass the bounds. */
static int decide(Batch *b, Game *g) {
    g->head = -1;
    g->chosen = 0;
    uint64_t low = g->table;
    for (int j = 0; j < g->ndecl; j++) low |= g->decl[j].mask & (~g->decl[j].mask + 1);
    g->low = low;
    return generate(b, g);
}

/* The next action a candidate move allows once `chosen` is named (ITEM + card, or STOP). */
static inline int next_action(uint64_t names, uint64_t chosen) {
    uint64_t above = chosen ? ~((2ULL << (63 - __builtin_clzll(chosen))) - 1) : ~0ULL;
    uint64_t r = names & above;
    return r ? ITEM + lowest(r) : STOP;
}

static inline int is_candidate(const Game *g, const Mv *m) {
    if (m->head != g->head) return 0;
    uint64_t upto = g->chosen ? (2ULL << (63 - __builtin_clzll(g->chosen))) - 1 : 0;
    return (m->names & upto) == g->chosen;
}

static void write_mask(const Game *g, int8_t *row) {
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

static void push(Game *g, const Mv *m) {
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

static void observe(const Game *g, int seat, int head, uint64_t chosen, float *row) {
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

/* ------------------------------------------------------------------ the batch */

static float *obs_row(Batch *b, Py_ssize_t i) { return (float *)b->obs.buf + i * SIZE; }

/* Writes game i's row: the observation and mask of the seat to act, that seat. */
static void write_row(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    ((int64_t *)b->to_act.buf)[i] = g->turn;
    observe(g, g->turn, g->head, g->chosen, obs_row(b, i));
    write_mask(g, (int8_t *)b->masks.buf + i * NUM_ACTIONS);
}

static void write_final(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    float *final = (float *)b->final_obs.buf + i * b->players * SIZE;
    for (int s = 0; s < b->players; s++) observe(g, s, g->head, g->chosen, final + s * SIZE);
}

static int get_buffer(Batch *b, PyObject *o, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t len, const char *name) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    b->nbuf++;
    if (view->itemsize != itemsize || view->len != len * itemsize) {
        PyErr_Format(PyExc_ValueError, "invalid buffer %s: expected %zd items of %zd bytes", name, len, itemsize);
        return -1;
    }
    return 0;
}

static Py_buffer *buffer_at(Batch *b, int k) {
    Py_buffer *all[8] = {&b->obs, &b->masks, &b->to_act, &b->rewards, &b->terminated, &b->truncated, &b->illegal,
                         &b->final_obs};
    return all[k];
}

static void Batch_dealloc(Batch *b) {
    for (int k = b->nbuf - 1; k >= 0; k--) PyBuffer_Release(buffer_at(b, k));
    if (b->games) {
        for (Py_ssize_t i = 0; i < b->n; i++) PyMem_Free(b->games[i].moves);
        PyMem_Free(b->games);
    }
    Py_TYPE(b)->tp_free((PyObject *)b);
}

static int Batch_init(Batch *b, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"num_envs", "players", "observations", "action_masks", "to_act", "rewards", "terminated",
                         "truncated", "illegal", "final_observations", "illegal_reward", "max_steps", NULL};
    Py_ssize_t n;
    int players;
    long max_steps;
    double illegal_reward;
    PyObject *bufs[8];
    if (b->games) {
        PyErr_SetString(PyExc_RuntimeError, "Batch is already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niOOOOOOOOdl", kw, &n, &players, &bufs[0], &bufs[1], &bufs[2],
                                     &bufs[3], &bufs[4], &bufs[5], &bufs[6], &bufs[7], &illegal_reward, &max_steps))
        return -1;
    if (n < 1 || (players != 2 && players != 4)) {
        PyErr_Format(PyExc_ValueError, "invalid Batch(num_envs=%zd, players=%d): expected num_envs >= 1 and 2 or 4 "
                     "players", n, players);
        return -1;
    }
    Py_ssize_t lens[8] = {n * SIZE, n * NUM_ACTIONS, n, n * players, n, n, n, n * players * SIZE};
    Py_ssize_t sizes[8] = {4, 1, 8, 8, 1, 1, 1, 4};
    const char *names[8] = {"observations", "action_masks", "to_act", "rewards", "terminated", "truncated",
                            "illegal", "final_observations"};
    for (int k = 0; k < 8; k++)
        if (get_buffer(b, bufs[k], buffer_at(b, k), sizes[k], lens[k], names[k]) < 0) return -1;
    b->games = PyMem_Calloc((size_t)n, sizeof(Game));
    if (!b->games) {
        PyErr_NoMemory();
        return -1;
    }
    b->n = n;
    b->players = players;
    b->max_steps = max_steps;
    b->illegal_reward = illegal_reward;
    for (Py_ssize_t i = 0; i < n; i++) b->games[i].python = 1; /* no round until start() */
    return 0;
}

static int card_of(PyObject *o, const char *what) {
    long c = PyLong_AsLong(o);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c > 51) {
        PyErr_Format(PyExc_ValueError, "invalid card %ld in %s: expected 0..51", c, what);
        return -1;
    }
    return (int)c;
}

static Py_ssize_t check_index(Batch *b, Py_ssize_t i) {
    if (i < 0 || i >= b->n) {
        PyErr_Format(PyExc_IndexError, "invalid game index %zd: expected 0..%zd", i, b->n - 1);
        return -1;
    }
    return i;
}

/* start(i, dealer, turn, hands, table, stock): game i's round from its deal (State.new's hands, table and the
 * stock still to deal, in order); its row written. */
static PyObject *Batch_start(Batch *b, PyObject *args) {
    Py_ssize_t i;
    int dealer, turn;
    PyObject *hands, *table, *stock;
    if (!PyArg_ParseTuple(args, "niiOOO", &i, &dealer, &turn, &hands, &table, &stock)) return NULL;
    if (check_index(b, i) < 0) return NULL;
    if (dealer < 0 || dealer >= b->players || turn < 0 || turn >= b->players) {
        PyErr_Format(PyExc_ValueError, "invalid dealer %d or turn %d: expected seats 0..%d", dealer, turn,
                     b->players - 1);
        return NULL;
    }
    Game *g = &b->games[i];
    Mv *moves = g->moves;
    int cap_moves = g->cap_moves;
    if (cap_moves > 256) { /* a rare large list: each game keeps no more than a usual one between rounds */
        PyMem_Free(moves);
        moves = NULL;
        cap_moves = 0;
    }
    memset(g, 0, sizeof *g);
    g->moves = moves;
    g->cap_moves = cap_moves;
    g->players = b->players;
    g->dealer = dealer;
    g->turn = turn;
    g->last_cap = -1;
    g->deal_no = 1;
    g->phase = PH_PLAY;
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != b->players) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "invalid hands: expected %d", b->players);
        return NULL;
    }
    for (int s = 0; s < b->players; s++) {
        PyObject *h = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, s), "a hand must be a sequence");
        if (!h) { Py_DECREF(seq); return NULL; }
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(h); k++) {
            int c = card_of(PySequence_Fast_GET_ITEM(h, k), "hands");
            if (c < 0) { Py_DECREF(h); Py_DECREF(seq); return NULL; }
            g->hand[s] |= 1ULL << c;
        }
        Py_DECREF(h);
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(table, "table must be a sequence");
    if (!seq) return NULL;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        int c = card_of(PySequence_Fast_GET_ITEM(seq, k), "table");
        if (c < 0) { Py_DECREF(seq); return NULL; }
        g->table |= 1ULL << c;
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(stock, "stock must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > 52) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "invalid stock: more than 52 cards"); return NULL; }
    for (Py_ssize_t k = 0; k < len; k++) {
        int c = card_of(PySequence_Fast_GET_ITEM(seq, k), "stock");
        if (c < 0) { Py_DECREF(seq); return NULL; }
        g->stock[k] = (uint8_t)c;
    }
    Py_DECREF(seq);
    g->stock_len = (int)len;
    g->stock_pos = 0;
    /* A stock counted as the observation counts it (52 minus what was dealt): its cards still to come. */
    if (decide(b, g) < 0) {
        g->python = 1;
        Py_RETURN_FALSE;
    }
    write_row(b, i);
    Py_RETURN_TRUE;
}

static void returns(const Game *g, double *out, int players) {
    int more0 = popcount(g->cap[0]) > popcount(g->cap[1]), more1 = popcount(g->cap[1]) > popcount(g->cap[0]);
    int a = points(g->cap[0], more0, g->sweeps[0]), c = points(g->cap[1], more1, g->sweeps[1]);
    for (int s = 0; s < players; s++) out[s] = (s & 1) ? (double)(c - a) : (double)(a - c);
}

/* One action of game i's seat to act: 0 if the round goes on in C, 1 if it ended (the caller resets it),
 * 2 if it goes on in Python (its moves passed the bounds). */
static int step_one(Batch *b, Py_ssize_t i, int a) {
    Game *g = &b->games[i];
    double *rew = (double *)b->rewards.buf + i * b->players;
    const Mv *done = NULL;
    int legal = 0;
    if (g->head < 0) {
        for (int k = 0; k < g->nmoves; k++)
            if (g->moves[k].head == a) { legal = 1; done = &g->moves[k]; break; }
        if (legal) {
            g->head = a;
            if (HEAD_KIND[a] != LAY) done = NULL; /* items follow */
        }
    } else {
        uint64_t bit = 0;
        for (int k = 0; k < g->nmoves; k++) {
            const Mv *m = &g->moves[k];
            if (is_candidate(g, m) && next_action(m->names, g->chosen) == a) { legal = 1; break; }
        }
        if (legal) {
            if (a != STOP) {
                bit = 1ULL << (a - ITEM);
                g->chosen |= bit;
            }
            if (a == STOP || !(g->low & ~((bit << 1) - 1))) { /* the list is complete */
                for (int k = 0; k < g->nmoves; k++)
                    if (g->moves[k].head == g->head && g->moves[k].names == g->chosen) { done = &g->moves[k]; break; }
            }
        }
    }
    if (!legal) {
        rew[g->turn] = b->illegal_reward;
        ((uint8_t *)b->terminated.buf)[i] = 1;
        ((uint8_t *)b->illegal.buf)[i] = 1;
        write_final(b, i);
        return 1;
    }
    g->applied++;
    if (done) {
        push(g, done);
        g->head = -1;
        g->chosen = 0;
        if (g->phase == PH_OVER) {
            returns(g, rew, b->players);
            ((uint8_t *)b->terminated.buf)[i] = 1;
            write_final(b, i);
            return 1;
        }
    }
    if (b->max_steps >= 0 && g->applied >= b->max_steps) { /* truncated: no reward before the round's end */
        ((uint8_t *)b->truncated.buf)[i] = 1;
        write_final(b, i);
        return 1;
    }
    if (done && decide(b, g) < 0) {
        g->python = 1;
        return 2;
    }
    write_row(b, i);
    return 0;
}

/* step(actions): one action a game (an int64 buffer of num_envs), for the games played in C; returns the games
 * whose round ended (to be dealt again by start) and those handed to Python (export) in this step. */
static PyObject *Batch_step(Batch *b, PyObject *arg) {
    Py_buffer acts;
    if (PyObject_GetBuffer(arg, &acts, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (acts.itemsize != 8 || acts.len != b->n * 8) {
        PyBuffer_Release(&acts);
        PyErr_Format(PyExc_ValueError, "invalid actions: expected %zd int64 action ids", b->n);
        return NULL;
    }
    const int64_t *a = acts.buf;
    PyObject *ended = PyList_New(0), *handed = PyList_New(0);
    if (!ended || !handed) goto fail;
    for (Py_ssize_t i = 0; i < b->n; i++) {
        if (b->games[i].python) continue;
        int64_t ai = a[i];
        int r = step_one(b, i, ai < 0 || ai >= NUM_ACTIONS ? -1 : (int)ai);
        if (r) {
            PyObject *k = PyLong_FromSsize_t(i);
            if (!k || PyList_Append(r == 1 ? ended : handed, k) < 0) {
                Py_XDECREF(k);
                goto fail;
            }
            Py_DECREF(k);
        }
    }
    PyBuffer_Release(&acts);
    return Py_BuildValue("(NN)", ended, handed);
fail:
    PyBuffer_Release(&acts);
    Py_XDECREF(ended);
    Py_XDECREF(handed);
    return NULL;
}

/* The high bit of each of the eight bytes at p that is nonzero. */
static inline uint64_t nz8(const int8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    return (((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w) & 0x8080808080808080ULL;
}

/* sample(uniforms, out): for each game, the k-th allowed action of its mask row (ascending), k = floor(u * count)
 * with u its uniform in [0, 1), 0 for a row that allows none: batch.py's sample_masks from the same draws. */
static PyObject *Batch_sample(Batch *b, PyObject *args) {
    PyObject *uo, *oo;
    if (!PyArg_ParseTuple(args, "OO", &uo, &oo)) return NULL;
    Py_buffer u, out;
    if (PyObject_GetBuffer(uo, &u, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(oo, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&u);
        return NULL;
    }
    if (u.itemsize != 8 || u.len != b->n * 8 || out.itemsize != 8 || out.len != b->n * 8) {
        PyBuffer_Release(&u);
        PyBuffer_Release(&out);
        PyErr_Format(PyExc_ValueError, "invalid sample buffers: expected %zd float64 uniforms and %zd int64 actions",
                     b->n, b->n);
        return NULL;
    }
    const double *uni = u.buf;
    int64_t *acts = out.buf;
    const int8_t *masks = b->masks.buf;
    enum { WORDS = NUM_ACTIONS / 8 };
    for (Py_ssize_t i = 0; i < b->n; i++) {
        const int8_t *row = masks + i * NUM_ACTIONS;
        /* Eight mask bytes at a time: the high bit of each byte of nz8 says whether it is nonzero. */
        int count = 0;
        for (int w = 0; w < WORDS; w++) count += popcount(nz8(row + 8 * w));
        for (int a = 8 * WORDS; a < NUM_ACTIONS; a++) count += row[a] != 0;
        int64_t pick = 0;
        if (count) {
            int64_t k = (int64_t)(uni[i] * (double)count);
            int a = 0;
            for (int w = 0; w < WORDS; w++, a += 8) {
                int c = popcount(nz8(row + 8 * w));
                if (k < c) break;
                k -= c;
            }
            for (; a < NUM_ACTIONS; a++)
                if (row[a] && k-- == 0) {
                    pick = a;
                    break;
                }
        }
        acts[i] = pick;
    }
    PyBuffer_Release(&u);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyObject *cards_list(uint64_t m) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    while (m) {
        PyObject *c = PyLong_FromLong(lowest(m));
        m &= m - 1;
        if (!c || PyList_Append(out, c) < 0) { Py_XDECREF(c); Py_DECREF(out); return NULL; }
        Py_DECREF(c);
    }
    return out;
}

/* export(i): game i's round as a dict of State.from_parts' fields (and deal_no, applied), for Python to play on;
 * the game is Python's until start(i) deals it again. */
static PyObject *Batch_export(Batch *b, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_index(b, i) < 0) return NULL;
    Game *g = &b->games[i];
    g->python = 1;
    PyObject *hands = PyList_New(g->players), *decls = PyList_New(0), *stock = PyList_New(0);
    if (!hands || !decls || !stock) goto fail;
    for (int s = 0; s < g->players; s++) {
        PyObject *h = cards_list(g->hand[s]);
        if (!h) goto fail;
        PyList_SET_ITEM(hands, s, h);
    }
    for (int j = 0; j < g->ndecl; j++) {
        Decl *d = &g->decl[j];
        PyObject *t = Py_BuildValue("(Kiii)", (unsigned long long)d->mask, d->value, d->kind, d->owner);
        if (!t || PyList_Append(decls, t) < 0) { Py_XDECREF(t); goto fail; }
        Py_DECREF(t);
    }
    for (int k = g->stock_pos; k < g->stock_len; k++) {
        PyObject *c = PyLong_FromLong(g->stock[k]);
        if (!c || PyList_Append(stock, c) < 0) { Py_XDECREF(c); goto fail; }
        Py_DECREF(c);
    }
    PyObject *table = cards_list(g->table), *cap0 = cards_list(g->cap[0]), *cap1 = cards_list(g->cap[1]);
    if (!table || !cap0 || !cap1) { Py_XDECREF(table); Py_XDECREF(cap0); Py_XDECREF(cap1); goto fail; }
    PyObject *lc = g->last_cap < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(g->last_cap);
    return Py_BuildValue("{s:i,s:i,s:i,s:N,s:N,s:N,s:N,s:(NN),s:(ii),s:N,s:i,s:i,s:l,s:i}", "players", g->players,
                         "dealer", g->dealer, "turn", g->turn, "hands", hands, "table", table, "declarations", decls,
                         "stock", stock, "captured", cap0, cap1, "sweeps", g->sweeps[0], g->sweeps[1],
                         "last_capturer", lc, "plays", g->plays, "deal_no", g->deal_no, "applied", g->applied,
                         "phase", g->phase);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(decls);
    Py_XDECREF(stock);
    return NULL;
}

/* moves(i): the legal moves of game i's decision as (card, kind, value, cards) tuples (tests compare them with
 * the Python engine's). */
static PyObject *Batch_moves(Batch *b, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_index(b, i) < 0) return NULL;
    Game *g = &b->games[i];
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int k = 0; k < g->nmoves && !g->python; k++) {
        Mv *m = &g->moves[k];
        PyObject *t = Py_BuildValue("(iiiK)", m->card, m->kind, m->value, (unsigned long long)m->cards);
        if (!t || PyList_Append(out, t) < 0) { Py_XDECREF(t); Py_DECREF(out); return NULL; }
        Py_DECREF(t);
    }
    return out;
}

static PyMethodDef Batch_methods[] = {
    {"start", (PyCFunction)Batch_start, METH_VARARGS, "start(i, dealer, turn, hands, table, stock): deal game i."},
    {"step", (PyCFunction)Batch_step, METH_O, "step(actions) -> (ended, handed): one action a game."},
    {"export", (PyCFunction)Batch_export, METH_O, "export(i): game i's round for Python to play on."},
    {"sample", (PyCFunction)Batch_sample, METH_VARARGS, "sample(uniforms, out): a legal action a game, from its mask."},
    {"moves", (PyCFunction)Batch_moves, METH_O, "moves(i): game i's legal moves (card, kind, value, cards)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "diloti.games.diloti.envs._cbatch.Batch",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N Diloti rounds (the standard rules) stepped by action ids, writing into the caller's buffers.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cbatch", "Diloti's batched kernel in C (see cbatch.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__cbatch(void) {
    build_heads();
    if (PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddIntConstant(m, "NUM_ACTIONS", NUM_ACTIONS) < 0 || PyModule_AddIntConstant(m, "SIZE", SIZE) < 0 ||
        PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
