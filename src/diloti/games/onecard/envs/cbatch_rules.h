/* The one-card games' rules for the batched kernel (_cbatch.c): a hand of Xeri or Kontsina held as 52-bit sets,
 * its legal moves, the action steps that choose one, a move played, the observation, the mask and the rewards,
 * each as the Python engine and drivers do them (diloti/games/xeri/rules.py, diloti/games/kontsina/rules.py,
 * diloti/games/onecard/state.py, diloti/games/onecard/envs/). The wrapper: cbatch.py.
 */
#ifndef DILOTI_ONECARD_CBATCH_RULES_H
#define DILOTI_ONECARD_CBATCH_RULES_H

#include <stdint.h>

enum { XERI = 0, KONTSINA = 1 };
enum { LAY = 0, CAPTURE = 1 };
enum { PH_PLAY = 0, PH_OVER = 2 };

/* Xeri's layout (diloti/games/xeri/envs/__init__.py PARTS): 6 planes, then the numbers at these offsets. */
enum {
    X_PLANES = 6, X_SIZE = 404, X_ACTIONS = 52,
    X_HAND_SIZES = 0, X_PILE_SIZE = 4, X_PILE_ORDER = 5, X_STOCK = 57, X_CAPTURED_COUNTS = 58, X_XERI = 60,
    X_JACK_XERI = 62, X_POINTS = 64, X_TURN = 66, X_DEALER = 70, X_LAST_CAPTURER = 74, X_PHASE = 79,
    X_FOUR_PLAYERS = 83, X_DEAL = 84, X_PLAYS = 88, X_OPTIONS = 89, X_DEALS = 4, X_MAX_POINTS = 285,
};
/* Kontsina's (diloti/games/kontsina/envs/__init__.py PARTS): 9 planes, then the numbers. */
enum {
    K_PLANES = 9, K_SIZE = 517, K_HEADS = 104, K_ACTIONS = 156,
    K_HAND_SIZES = 0, K_STOCK = 4, K_CAPTURED_COUNTS = 5, K_CLUBS = 9, K_POINTS = 13, K_TURN = 17, K_DEALER = 21,
    K_LAST_CAPTURER = 25, K_PHASE = 30, K_PLAYERS = 34, K_PARTNERSHIPS = 37, K_FORCED_CAPTURE = 38, K_DEAL = 39,
    K_PLAYS = 45, K_PREFIX_KIND = 46, K_PREFIX_STAGE = 48, K_DEALS = 6, K_MAX_POINTS = 5,
};

/* What a batch plays: the game, its seats and sides, and the options that change a hand. */
typedef struct {
    int game, players, sides, hand_size;
    int num_actions, size, planes, heads; /* heads: the first item action (Kontsina), else num_actions */
    int jack_double, no_xeri_last, any_pair, forced, partnerships;
} Cfg;

/* One legal move: its card and kind, its head action, the table cards it takes (``items``: what the item steps
 * name, Kontsina's; Xeri names none). */
typedef struct {
    uint64_t taken;
    uint8_t card, kind, head;
} Mv;

typedef struct {
    uint64_t hand[4], table, cap[4];
    uint8_t pile[52]; /* Xeri's pile bottom first (table holds it as a set too) */
    int npile;
    int sweeps[4], jack[4];
    int dealer, turn, last_cap, plays, deal_no, phase;
    uint8_t stock[52];
    int stock_len, stock_pos;
    long applied;
    int head; /* the move being chosen: its head (-1 before it) and the item cards chosen since */
    uint64_t chosen;
    Mv *moves;
    int nmoves, cap_moves;
    int python; /* not played in C (before its first start) */
} Game;

static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }
static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

/* The legal moves of the seat to act into g->moves; -1 when out of memory. */
int generate(const Cfg *cfg, Game *g);
/* Plays the legal move m for the seat to act (deals the next hands, ends the hand). */
void push(const Cfg *cfg, Game *g, const Mv *m);
/* Whether move m is still open given the head and items chosen, and the next item it takes (0: none). */
int is_candidate(const Game *g, const Mv *m);
uint64_t next_item(const Game *g, const Mv *m);
/* After a head or an item: takes the items every open move takes next; the move once one is left, else NULL. */
const Mv *advance(Game *g);
void write_mask(const Cfg *cfg, const Game *g, int8_t *row);
void observe(const Cfg *cfg, const Game *g, int seat, float *out);
/* Each seat's reward for the hand over (side_returns of the points). */
void returns(const Cfg *cfg, const Game *g, double *rew);

#endif
