/* The one-card games' rules for the batched kernel: see cbatch_rules.h. Each function names the Python it follows;
 * tests/test_envs_batch_c_onecard.py compares every array they write with the Python drivers', byte for byte. */
#include "cbatch_rules.h"

#include <stdlib.h>
#include <string.h>

#define BIT(c) (1ULL << (c))
#define JACK 10
#define HONOURS (0xFULL | 0xFFFFULL << 36)
#define TEN_OF_DIAMONDS BIT(37)
#define TWO_OF_CLUBS BIT(4)
#define CLUBS 0x1111111111111ULL /* every card c with c % 4 == 0, the 13 clubs */
#define NUMERALS (BIT(40) - 1)

static int add(Game *g, int card, int kind, int head, uint64_t taken) {
    if (g->nmoves == g->cap_moves) {
        int cap = g->cap_moves ? 2 * g->cap_moves : 32;
        Mv *m = realloc(g->moves, (size_t)cap * sizeof(Mv));
        if (!m) return -1;
        g->moves = m;
        g->cap_moves = cap;
    }
    Mv *m = &g->moves[g->nmoves++];
    m->card = (uint8_t)card;
    m->kind = (uint8_t)kind;
    m->head = (uint8_t)head;
    m->taken = taken;
    return 0;
}

/* Kontsina's summing_sets: the sets of two or more of the numerals (ascending) adding up to value. */
static int sums(Game *g, int card, const uint8_t *nums, int n, int start, int total, uint64_t mask, int count,
                int value) {
    for (int j = start; j < n; j++) {
        int c = nums[j], t = total + (c >> 2) + 1;
        if (t > value) return 0; /* ascending: every later card is as large */
        if (t == value) {
            if (count >= 1 && add(g, card, CAPTURE, 2 * card + 1, mask | BIT(c)) < 0) return -1;
        } else if (sums(g, card, nums, n, j + 1, t, mask | BIT(c), count + 1, value) < 0) {
            return -1;
        }
    }
    return 0;
}

int generate(const Cfg *cfg, Game *g) {
    g->nmoves = 0;
    g->head = -1;
    g->chosen = 0;
    uint64_t hand = g->hand[g->turn];
    if (cfg->game == XERI) { /* XeriState._generate: a card of the top's rank or a jack takes the pile */
        int top = g->npile ? g->pile[g->npile - 1] >> 2 : -1;
        for (uint64_t h = hand; h; h &= h - 1) {
            int c = lowest(h);
            int take = g->npile && ((c >> 2) == top || (c >> 2) == JACK);
            if (add(g, c, take ? CAPTURE : LAY, c, take ? g->table : 0) < 0) return -1;
        }
        return 0;
    }
    /* KontsinaState._generate: a match of one table card of the rank, or (a numeral) a set of numerals summing
     * to its value; the lay unless forced_capture and a capture exists. */
    uint8_t nums[40];
    int n = 0;
    for (uint64_t t = g->table & NUMERALS; t; t &= t - 1) nums[n++] = (uint8_t)lowest(t);
    for (uint64_t h = hand; h; h &= h - 1) {
        int c = lowest(h), before = g->nmoves;
        for (uint64_t t = g->table & (0xFULL << (c & ~3)); t; t &= t - 1)
            if (add(g, c, CAPTURE, 2 * c + 1, BIT(lowest(t))) < 0) return -1;
        if (c < 40 && n >= 2 && sums(g, c, nums, n, 0, 0, 0, 0, (c >> 2) + 1) < 0) return -1;
        if (!(cfg->forced && g->nmoves > before) && add(g, c, LAY, 2 * c, 0) < 0) return -1;
    }
    return 0;
}

/* HandState._end_of_deal: the next deal of hands, or the hand's end (the table to the last capturer's side). */
static void end_of_deal(const Cfg *cfg, Game *g) {
    int n = cfg->players;
    g->turn = (g->dealer + 1) % n;
    if (g->stock_pos < g->stock_len) {
        g->deal_no++;
        for (int i = 0; i < n; i++) {
            int seat = (g->dealer + 1 + i) % n;
            uint64_t h = 0;
            for (int k = 0; k < cfg->hand_size && g->stock_pos < g->stock_len; k++) h |= BIT(g->stock[g->stock_pos++]);
            g->hand[seat] = h;
        }
        return;
    }
    if (g->table && g->last_cap >= 0) {
        g->cap[g->last_cap % cfg->sides] |= g->table;
        g->table = 0;
        g->npile = 0;
    }
    g->phase = PH_OVER;
}

void push(const Cfg *cfg, Game *g, const Mv *m) {
    int turn = g->turn, card = m->card, side = turn % cfg->sides;
    g->hand[turn] &= ~BIT(card);
    g->plays++;
    int any = 0;
    for (int s = 0; s < cfg->players; s++) any |= g->hand[s] != 0;
    int last = g->stock_pos >= g->stock_len && !any;
    if (m->kind == CAPTURE) {
        /* XeriState._apply: a lone card of the card's rank taken is a xeri (a jack's on a jack counted apart) */
        if (cfg->game == XERI && g->npile == 1 && (g->pile[0] >> 2) == (card >> 2) && !(last && cfg->no_xeri_last)) {
            g->sweeps[side]++;
            if ((card >> 2) == JACK) g->jack[side]++;
        }
        g->cap[side] |= m->taken | BIT(card);
        g->table &= ~m->taken;
        if (cfg->game == XERI) g->npile = 0;
        g->last_cap = turn;
    } else {
        g->table |= BIT(card);
        if (cfg->game == XERI) g->pile[g->npile++] = (uint8_t)card;
    }
    if (!g->hand[turn] && turn == g->dealer)
        end_of_deal(cfg, g);
    else
        g->turn = (turn + 1) % cfg->players;
}

/* The item cards up to the last chosen (HandDecision's steps name them in increasing order). */
static inline uint64_t upto_chosen(uint64_t chosen) { return chosen ? (2ULL << (63 - __builtin_clzll(chosen))) - 1 : 0; }

int is_candidate(const Game *g, const Mv *m) {
    return m->head == g->head && (m->taken & upto_chosen(g->chosen)) == g->chosen;
}

uint64_t next_item(const Game *g, const Mv *m) {
    uint64_t rest = m->taken & ~upto_chosen(g->chosen);
    return rest & -rest;
}

const Mv *advance(Game *g) {
    for (;;) {
        const Mv *only = NULL;
        int open = 0;
        uint64_t next = 0;
        for (int k = 0; k < g->nmoves; k++) {
            const Mv *m = &g->moves[k];
            if (!is_candidate(g, m)) continue;
            open++;
            only = m;
            next |= next_item(g, m);
        }
        if (open == 1) return only;
        if (popcount(next) != 1) return NULL; /* HandDecision.apply: an item every open move takes is taken */
        g->chosen |= next;
    }
}

void write_mask(const Cfg *cfg, const Game *g, int8_t *row) {
    memset(row, 0, (size_t)cfg->num_actions);
    if (g->phase != PH_PLAY) return;
    for (int k = 0; k < g->nmoves; k++) {
        const Mv *m = &g->moves[k];
        if (g->head < 0)
            row[m->head] = 1;
        else if (is_candidate(g, m) && next_item(g, m)) /* an open move always has one (HandDecision's) */
            row[cfg->heads + lowest(next_item(g, m))] = 1;
    }
}

static void plane(float *out, int p, uint64_t m) {
    for (; m; m &= m - 1) out[52 * p + lowest(m)] = 1.0f;
}

/* Python's strict_most: the index alone at the top, else -1. */
static int strict_most(const int *v, int n) {
    int top = 0, at = -1, count = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || v[i] > top) {
            top = v[i];
            at = i;
            count = 1;
        } else if (v[i] == top) {
            count++;
        }
    }
    return count == 1 ? at : -1;
}

static int xeri_points(const Cfg *cfg, uint64_t m, int cards, int other, int x, int j) {
    return (cards > other ? 3 : 0) + popcount(m & HONOURS) + ((m & TEN_OF_DIAMONDS) ? 1 : 0)
           + ((m & TWO_OF_CLUBS) ? 1 : 0) + 10 * x + (cfg->jack_double ? 10 * j : 0);
}

static int kontsina_points(uint64_t m, int i, int most_cards, int most_clubs) {
    return (most_cards == i ? 2 : 0) + (most_clubs == i ? 1 : 0) + ((m & TWO_OF_CLUBS) ? 1 : 0)
           + ((m & TEN_OF_DIAMONDS) ? 1 : 0);
}

/* observe_hand with the game's fill (diloti/games/onecard/envs/observation.py, diloti/games/{xeri,kontsina}/envs/planes.py):
 * each number worked out in double, as Python does, then stored as float32 as its struct.pack does. */
void observe(const Cfg *cfg, const Game *g, int seat, float *out) {
    int n = cfg->players, sides = cfg->sides, me = seat % sides, xeri = cfg->game == XERI;
    uint64_t caps[4];
    int counts[4];
    uint64_t seen = g->hand[seat] | g->table;
    for (int i = 0; i < sides; i++) {
        caps[i] = g->cap[(me + i) % sides];
        counts[i] = popcount(caps[i]);
        seen |= caps[i];
    }
    memset(out, 0, (size_t)cfg->size * sizeof(float));
    plane(out, 0, g->hand[seat]);
    plane(out, 1, g->table);
    uint64_t unseen = (BIT(52) - 1) & ~seen;
    float *tail = out + 52 * cfg->planes;
    int head = g->head;
    if (xeri) {
        if (g->npile) plane(out, 2, BIT(g->pile[g->npile - 1]));
        plane(out, 3, caps[0]);
        plane(out, 4, caps[1]);
        plane(out, 5, unseen);
    } else {
        for (int i = 0; i < sides; i++) plane(out, 2 + i, caps[i]);
        plane(out, 6, unseen);
        if (head >= 0) plane(out, 7, BIT(head >> 1));
        plane(out, 8, g->chosen);
    }
    /* the parts every one-card game has (observe_hand) */
    int turn = xeri ? X_TURN : K_TURN, dealer = xeri ? X_DEALER : K_DEALER, lc = xeri ? X_LAST_CAPTURER
        : K_LAST_CAPTURER, phase = xeri ? X_PHASE : K_PHASE, sizes = xeri ? X_HAND_SIZES : K_HAND_SIZES;
    int stock = xeri ? X_STOCK : K_STOCK, plays = xeri ? X_PLAYS : K_PLAYS, deal = xeri ? X_DEAL : K_DEAL;
    int ccounts = xeri ? X_CAPTURED_COUNTS : K_CAPTURED_COUNTS, deals = xeri ? X_DEALS : K_DEALS;
    if (g->phase == PH_PLAY) tail[turn + ((g->turn - seat) % n + n) % n] = 1.0f;
    tail[dealer + ((g->dealer - seat) % n + n) % n] = 1.0f;
    tail[lc + (g->last_cap < 0 ? 4 : ((g->last_cap - seat) % n + n) % n)] = 1.0f;
    tail[phase + g->phase] = 1.0f;
    double size = (double)cfg->hand_size;
    for (int s = 0; s < n; s++) tail[sizes + ((s - seat) % n + n) % n] = (float)((double)popcount(g->hand[s]) / size);
    tail[stock] = (float)((double)(g->stock_len - g->stock_pos) / 52.0);
    tail[plays] = (float)((double)(g->plays < 48 ? g->plays : 48) / 48.0);
    for (int i = 0; i < sides; i++) tail[ccounts + i] = (float)((double)counts[i] / 52.0);
    int d = g->deal_no < 1 ? 1 : g->deal_no;
    tail[deal + (d < deals ? d : deals) - 1] = 1.0f;
    if (xeri) { /* xeri/envs/planes.py fill */
        tail[X_PILE_SIZE] = (float)((double)g->npile / 52.0);
        for (int p = 0; p < g->npile; p++) tail[X_PILE_ORDER + g->pile[p]] = (float)((double)(p + 1) / 52.0);
        for (int i = 0; i < 2; i++) {
            int s = (me + i) % sides, x = g->sweeps[s], j = g->jack[s];
            int pts = xeri_points(cfg, caps[i], counts[i], counts[1 - i], x, j);
            tail[X_XERI + i] = (float)((double)(x < 24 ? x : 24) / 24.0);
            tail[X_JACK_XERI + i] = (float)((double)(j < 24 ? j : 24) / 24.0);
            tail[X_POINTS + i] = (float)((double)(pts < X_MAX_POINTS ? pts : X_MAX_POINTS) / X_MAX_POINTS);
        }
        if (n == 4) tail[X_FOUR_PLAYERS] = 1.0f;
        tail[X_OPTIONS] = (float)cfg->jack_double;
        tail[X_OPTIONS + 1] = (float)cfg->no_xeri_last;
        tail[X_OPTIONS + 2] = (float)cfg->any_pair;
        return;
    }
    int clubs[4]; /* kontsina/envs/planes.py fill */
    for (int i = 0; i < sides; i++) clubs[i] = popcount(caps[i] & CLUBS);
    int most_cards = strict_most(counts, sides), most_clubs = strict_most(clubs, sides);
    for (int i = 0; i < sides; i++) {
        tail[K_CLUBS + i] = (float)((double)clubs[i] / 13.0);
        tail[K_POINTS + i] = (float)((double)kontsina_points(caps[i], i, most_cards, most_clubs) / K_MAX_POINTS);
    }
    tail[K_PLAYERS + n - 2] = 1.0f;
    tail[K_PARTNERSHIPS] = (float)cfg->partnerships;
    tail[K_FORCED_CAPTURE] = (float)cfg->forced;
    if (head >= 0) {
        tail[K_PREFIX_KIND + (head & 1)] = 1.0f;
        tail[K_PREFIX_STAGE] = 1.0f;
    }
}

/* HandDriver.returns: each seat's side's points minus the mean of the other sides' (side_returns). */
void returns(const Cfg *cfg, const Game *g, double *rew) {
    int sides = cfg->sides, pts[4], counts[4], clubs[4], total = 0;
    for (int s = 0; s < sides; s++) {
        counts[s] = popcount(g->cap[s]);
        clubs[s] = popcount(g->cap[s] & CLUBS);
    }
    int most_cards = strict_most(counts, sides), most_clubs = strict_most(clubs, sides);
    for (int s = 0; s < sides; s++) {
        pts[s] = cfg->game == XERI ? xeri_points(cfg, g->cap[s], counts[s], counts[1 - s], g->sweeps[s], g->jack[s])
                                   : kontsina_points(g->cap[s], s, most_cards, most_clubs);
        total += pts[s];
    }
    for (int seat = 0; seat < cfg->players; seat++) {
        int p = pts[seat % sides];
        rew[seat] = (double)p - (double)(total - p) / (double)(sides - 1);
    }
}
