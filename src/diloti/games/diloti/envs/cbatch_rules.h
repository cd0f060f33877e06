/* Diloti's rules for the batched kernel (_cbatch.c): a round as a C struct, its legal moves, the action tree,
 * a move played, the observation. cbatch_rules.c holds the code; _cbatch.c the Python type over it.
 */
#ifndef DILOTI_CBATCH_RULES_H
#define DILOTI_CBATCH_RULES_H

#include <stdint.h>
#include <stdlib.h>
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

/* What one decision's move generation works with, kept between calls (no allocation a step). */
typedef struct {
    uint64_t bysum[11][MAX_SUBSETS]; /* sets of loose numerals by their sum */
    int nbysum[11];
    uint64_t reach[11][MAX_REACH]; /* captures by value, worked out on demand */
    int nreach[11];
    int reach_done;
    uint64_t hash[HASH_SIZE];
    uint32_t stamp[HASH_SIZE]; /* a slot of hash is in use when its stamp is the generation's */
    uint32_t generation;
    uint64_t tmp[MAX_REACH];
    uint64_t subset_masks[MAX_SUBSETS];
    int8_t subset_totals[MAX_SUBSETS];
} Scratch;

/* Each head action's card (-1: keep, redeal), kind and value (envs/actions.py's HEADS). */
extern int HEAD_CARD[NUM_HEADS], HEAD_KIND[NUM_HEADS], HEAD_VALUE[NUM_HEADS];

static inline int value_of(int c) { return c < 40 ? (c >> 2) + 1 : 0; }
static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }
/* Bit counts in a few instructions: without -mpopcnt (not every x86-64 has it) __builtin_popcountll is a call
 * into libgcc, which took a tenth of the batch's time. */
static inline int popcount(uint64_t x) {
    x -= (x >> 1) & 0x5555555555555555ULL;
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* A position's moves overflowed a bound: the caller hands the game to Python. */
#define OVERFLOW (-1)

void build_heads(void);
/* A new decision for the seat to act; OVERFLOW if its moves pass the bounds. */
int decide(Scratch *b, Game *g);
/* The next action a candidate move allows once `chosen` is named (ITEM + card, or STOP). */
int next_action(uint64_t names, uint64_t chosen);
int is_candidate(const Game *g, const Mv *m);
void write_mask(const Game *g, int8_t *row);
void push(Game *g, const Mv *m);
/* Each seat's reward at the round's end: its side's points minus the other side's. */
void returns(const Game *g, double *out, int players);
/* The observation of `seat` (planes.py's encode) with the move being chosen, into row (SIZE floats). */
void observe(const Game *g, int seat, int head, uint64_t chosen, float *row);

#endif
