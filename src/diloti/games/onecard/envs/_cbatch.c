/* The one-card games' batched kernel: N hands of Xeri or Kontsina held in C structs, stepped by action ids in one
 * call.
 *
 * The Python batch (diloti.envs.batch.SelfPlayBatch) plays each hand through the engine and the one-card drivers
 * (diloti/games/onecard/envs/driver.py); this extension plays the same hands with the same legal moves, action
 * steps and observation bytes, writing straight into the batch's numpy buffers (the buffer protocol: no numpy
 * headers, no new dependency). The deal stays in Python (the game's State.new: the seeded shuffle, Xeri's redeal
 * of the first pile), handed to `start`. The wrapper and what plays in C: diloti/games/onecard/envs/cbatch.py. The
 * rules and the observation: cbatch_rules.c. The equivalence test: tests/test_envs_batch_c_onecard.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "cbatch_rules.h"
#include "../../../envs/cbatch_glue.h"

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    Cfg cfg;
    long max_steps; /* -1: none */
    double illegal_reward;
    Game *games;
    Buffers bufs; /* the batch's numpy buffers (cbatch_glue.h) */
} Batch;

static float *obs_row(Batch *b, Py_ssize_t i) { return (float *)b->bufs.obs.buf + i * b->cfg.size; }

/* Writes game i's row: the observation and mask of the seat to act, that seat. */
static void write_row(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    ((int64_t *)b->bufs.to_act.buf)[i] = g->turn;
    observe(&b->cfg, g, g->turn, obs_row(b, i));
    write_mask(&b->cfg, g, (int8_t *)b->bufs.masks.buf + i * b->cfg.num_actions);
}

static void write_final(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    int p = b->cfg.players, size = b->cfg.size;
    float *final = (float *)b->bufs.final_obs.buf + i * p * size;
    for (int s = 0; s < p; s++) observe(&b->cfg, g, s, final + s * size);
}

static void Batch_dealloc(Batch *b) {
    glue_release(&b->bufs);
    if (b->games) {
        for (Py_ssize_t i = 0; i < b->n; i++) free(b->games[i].moves); /* cbatch_rules.c reallocs them */
        PyMem_Free(b->games);
    }
    Py_TYPE(b)->tp_free((PyObject *)b);
}

/* Batch(num_envs, game, players, sides, options, <8 buffers>, illegal_reward, max_steps): game 0 Xeri, 1 Kontsina;
 * options a tuple of five flags (xeri_jack_double, no_xeri_last_card, pile_any_pair_redeal, forced_capture,
 * partnerships). */
static int Batch_init(Batch *b, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"num_envs", "game", "players", "sides", "options", "observations", "action_masks", "to_act",
                         "rewards", "terminated", "truncated", "illegal", "final_observations", "illegal_reward",
                         "max_steps", NULL};
    Py_ssize_t n;
    int game, players, sides;
    Cfg c;
    memset(&c, 0, sizeof c);
    long max_steps;
    double illegal_reward;
    PyObject *bufs[8];
    if (b->games) {
        PyErr_SetString(PyExc_RuntimeError, "Batch is already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niii(ppppp)OOOOOOOOdl", kw, &n, &game, &players, &sides,
                                     &c.jack_double, &c.no_xeri_last, &c.any_pair, &c.forced, &c.partnerships,
                                     &bufs[0], &bufs[1], &bufs[2], &bufs[3], &bufs[4], &bufs[5], &bufs[6], &bufs[7],
                                     &illegal_reward, &max_steps))
        return -1;
    int ok = n >= 1 && ((game == XERI && (players == 2 || players == 4) && sides == 2)
                        || (game == KONTSINA && players >= 2 && players <= 4 && (sides == players || (players == 4 && sides == 2))));
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "invalid Batch(num_envs=%zd, game=%d, players=%d, sides=%d): expected "
                     "num_envs >= 1, Xeri (0) with 2 or 4 players in 2 sides or Kontsina (1) with 2 to 4",
                     n, game, players, sides);
        return -1;
    }
    c.game = game;
    c.players = players;
    c.sides = sides;
    if (game == XERI) {
        c.hand_size = 6, c.num_actions = X_ACTIONS, c.size = X_SIZE, c.planes = X_PLANES, c.heads = X_ACTIONS;
    } else {
        c.hand_size = 4, c.num_actions = K_ACTIONS, c.size = K_SIZE, c.planes = K_PLANES, c.heads = K_HEADS;
    }
    b->cfg = c;
    if (glue_take(&b->bufs, bufs, n, c.size, c.num_actions, players) < 0) return -1;
    b->games = PyMem_Calloc((size_t)n, sizeof(Game));
    if (!b->games) {
        PyErr_NoMemory();
        return -1;
    }
    b->n = n;
    b->max_steps = max_steps;
    b->illegal_reward = illegal_reward;
    for (Py_ssize_t i = 0; i < n; i++) b->games[i].python = 1; /* no hand until start() */
    return 0;
}

/* The cards of a sequence, in its order, into out (at most 52); their count, or -1 with an error set. */
static int cards_in(PyObject *o, uint8_t *out, const char *what) {
    PyObject *seq = PySequence_Fast(o, what);
    if (!seq) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > 52) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "invalid %s: more than 52 cards", what);
        return -1;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        int c = glue_card_of(PySequence_Fast_GET_ITEM(seq, k), what);
        if (c < 0) { Py_DECREF(seq); return -1; }
        out[k] = (uint8_t)c;
    }
    Py_DECREF(seq);
    return (int)len;
}

/* start(i, dealer, turn, hands, table, stock): game i's hand from its deal (State.new's hands, its table in order
 * (Xeri's pile bottom first) and the stock still to deal, in order); its row written. */
static PyObject *Batch_start(Batch *b, PyObject *args) {
    Py_ssize_t i;
    int dealer, turn;
    PyObject *hands, *table, *stock;
    if (!PyArg_ParseTuple(args, "niiOOO", &i, &dealer, &turn, &hands, &table, &stock)) return NULL;
    if (glue_check_index(i, b->n) < 0) return NULL;
    int p = b->cfg.players;
    if (dealer < 0 || dealer >= p || turn < 0 || turn >= p) {
        PyErr_Format(PyExc_ValueError, "invalid dealer %d or turn %d: expected seats 0..%d", dealer, turn, p - 1);
        return NULL;
    }
    Game *g = &b->games[i];
    Mv *moves = g->moves;
    int cap_moves = g->cap_moves;
    if (cap_moves > 256) { /* a rare large list: each game keeps no more than a usual one between hands */
        free(moves);
        moves = NULL;
        cap_moves = 0;
    }
    memset(g, 0, sizeof *g);
    g->moves = moves;
    g->cap_moves = cap_moves;
    g->python = 1; /* until the deal is read */
    g->dealer = dealer;
    g->turn = turn;
    g->last_cap = -1;
    g->deal_no = 1;
    g->phase = PH_PLAY;
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != p) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "invalid hands: expected %d", p);
        return NULL;
    }
    uint8_t cards[52];
    for (int s = 0; s < p; s++) {
        int k = cards_in(PySequence_Fast_GET_ITEM(seq, s), cards, "hands");
        if (k < 0) { Py_DECREF(seq); return NULL; }
        while (k--) g->hand[s] |= 1ULL << cards[k];
    }
    Py_DECREF(seq);
    int k = cards_in(table, g->pile, "table");
    if (k < 0) return NULL;
    g->npile = b->cfg.game == XERI ? k : 0;
    while (k--) g->table |= 1ULL << g->pile[k];
    k = cards_in(stock, g->stock, "stock");
    if (k < 0) return NULL;
    g->stock_len = k;
    if (generate(&b->cfg, g) < 0) return PyErr_NoMemory();
    g->python = 0;
    write_row(b, i);
    Py_RETURN_NONE;
}

/* One action of game i's seat to act: 0 if the hand goes on, 1 if it ended (the caller deals it again). */
static int step_one(Batch *b, Py_ssize_t i, int a) {
    Game *g = &b->games[i];
    double *rew = (double *)b->bufs.rewards.buf + i * b->cfg.players;
    const Mv *done = NULL;
    int legal = 0;
    if (g->head < 0) {
        for (int k = 0; k < g->nmoves && !legal; k++) legal = g->moves[k].head == a;
        if (legal) {
            g->head = a;
            done = advance(g);
        }
    } else if (a >= b->cfg.heads) {
        uint64_t bit = 1ULL << (a - b->cfg.heads);
        for (int k = 0; k < g->nmoves && !legal; k++)
            legal = is_candidate(g, &g->moves[k]) && next_item(g, &g->moves[k]) == bit;
        if (legal) {
            g->chosen |= bit;
            done = advance(g);
        }
    }
    if (!legal) { /* as PettingZoo's illegal-action wrapper: the acting seat gets illegal_reward, the hand ends */
        rew[g->turn] = b->illegal_reward;
        ((uint8_t *)b->bufs.terminated.buf)[i] = 1;
        ((uint8_t *)b->bufs.illegal.buf)[i] = 1;
        write_final(b, i);
        return 1;
    }
    g->applied++;
    if (done) {
        push(&b->cfg, g, done);
        g->head = -1;
        g->chosen = 0;
        if (g->phase == PH_OVER) {
            returns(&b->cfg, g, rew);
            ((uint8_t *)b->bufs.terminated.buf)[i] = 1;
            write_final(b, i);
            return 1;
        }
    }
    if (b->max_steps >= 0 && g->applied >= b->max_steps) { /* truncated: no reward before the hand's end */
        ((uint8_t *)b->bufs.truncated.buf)[i] = 1;
        write_final(b, i);
        return 1;
    }
    if (done && generate(&b->cfg, g) < 0) return -1;
    write_row(b, i);
    return 0;
}

/* step(actions): one action a game (an int64 buffer of num_envs); returns the games whose hand ended (to be dealt
 * again by start) and an empty list (no game is handed to Python: the kernel's bounds are the game's). */
static int plays(void *b, Py_ssize_t i) { return !((Batch *)b)->games[i].python; }

static int step_game(void *b, Py_ssize_t i, int a) { return step_one((Batch *)b, i, a); }

static PyObject *Batch_step(Batch *b, PyObject *arg) {
    return glue_step(b, b->n, b->cfg.num_actions, arg, plays, step_game);
}

/* sample(uniforms, out): for each game, the k-th allowed action of its mask row (ascending), k = floor(u * count)
 * with u its uniform in [0, 1), 0 for a row that allows none: batch.py's sample_masks from the same draws. */
static PyObject *Batch_sample(Batch *b, PyObject *args) {
    return glue_sample(args, b->n, b->bufs.masks.buf, b->cfg.num_actions);
}

static PyObject *ints_list(const int *v, int n) {
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *x = PyLong_FromLong(v[k]);
        if (!x) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, k, x);
    }
    return out;
}

/* export(i): game i's hand as a dict (HandState.from_parts' fields; plays, deal_no, applied and the move being
 * chosen: head, chosen), for Python to play on; the game is Python's until start(i) deals it again. */
static PyObject *Batch_export(Batch *b, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (glue_check_index(i, b->n) < 0) return NULL;
    Game *g = &b->games[i];
    const Cfg *c = &b->cfg;
    PyObject *hands = PyList_New(c->players), *caps = PyList_New(c->sides), *stock = PyList_New(0), *table = NULL;
    PyObject *sweeps = NULL, *jack = NULL;
    if (!hands || !caps || !stock) goto fail;
    for (int s = 0; s < c->players; s++) {
        PyObject *h = glue_cards_list(g->hand[s]);
        if (!h) goto fail;
        PyList_SET_ITEM(hands, s, h);
    }
    for (int s = 0; s < c->sides; s++) {
        PyObject *h = glue_cards_list(g->cap[s]);
        if (!h) goto fail;
        PyList_SET_ITEM(caps, s, h);
    }
    for (int k = g->stock_pos; k < g->stock_len; k++) {
        PyObject *x = PyLong_FromLong(g->stock[k]);
        if (!x || PyList_Append(stock, x) < 0) { Py_XDECREF(x); goto fail; }
        Py_DECREF(x);
    }
    if (c->game == XERI) {
        int pile[52];
        for (int k = 0; k < g->npile; k++) pile[k] = g->pile[k];
        table = ints_list(pile, g->npile);
    } else {
        table = glue_cards_list(g->table);
    }
    sweeps = ints_list(g->sweeps, c->sides);
    jack = ints_list(g->jack, c->sides);
    if (!table || !sweeps || !jack) goto fail;
    g->python = 1;
    PyObject *lc = g->last_cap < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(g->last_cap);
    return Py_BuildValue("{s:i,s:i,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:i,s:l,s:i,s:K,s:i}", "players", c->players,
                         "dealer", g->dealer, "turn", g->turn, "hands", hands, "table", table, "stock", stock,
                         "captured", caps, "sweeps", sweeps, "jack_xeri", jack, "last_capturer", lc, "plays",
                         g->plays, "deal_no", g->deal_no, "applied", g->applied, "head", g->head, "chosen",
                         (unsigned long long)g->chosen, "phase", g->phase);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(caps);
    Py_XDECREF(stock);
    Py_XDECREF(table);
    Py_XDECREF(sweeps);
    Py_XDECREF(jack);
    return NULL;
}

/* moves(i): the legal moves of game i's seat to act as (card, kind, value, table cards taken) tuples (tests compare
 * them with the engine's). */
static PyObject *Batch_moves(Batch *b, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (glue_check_index(i, b->n) < 0) return NULL;
    Game *g = &b->games[i];
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int k = 0; k < g->nmoves && !g->python; k++) {
        Mv *m = &g->moves[k];
        int value = m->card < 40 ? (m->card >> 2) + 1 : 0;
        PyObject *t = Py_BuildValue("(iiiK)", m->card, m->kind, value, (unsigned long long)m->taken);
        if (!t || PyList_Append(out, t) < 0) { Py_XDECREF(t); Py_DECREF(out); return NULL; }
        Py_DECREF(t);
    }
    return out;
}

static PyMethodDef Batch_methods[] = {
    {"start", (PyCFunction)Batch_start, METH_VARARGS, "start(i, dealer, turn, hands, table, stock): deal game i."},
    {"step", (PyCFunction)Batch_step, METH_O, "step(actions) -> (ended, handed): one action a game."},
    {"export", (PyCFunction)Batch_export, METH_O, "export(i): game i's hand for Python to play on."},
    {"sample", (PyCFunction)Batch_sample, METH_VARARGS, "sample(uniforms, out): a legal action a game, from its mask."},
    {"moves", (PyCFunction)Batch_moves, METH_O, "moves(i): game i's legal moves (card, kind, value, cards)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "diloti.games.onecard.envs._cbatch.Batch",
    .tp_basicsize = sizeof(Batch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N hands of Xeri or Kontsina stepped by action ids, writing into the caller's buffers.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cbatch", "The one-card games' batched kernel in C (see cbatch.py).", -1, NULL,
    NULL, NULL, NULL, NULL,
};

/* The layouts the kernel writes, by part (the wrapper checks them against the games' HandLayout). */
static PyObject *layout_dict(int size, int planes, const char *const *names, const int *at, int count) {
    PyObject *at_d = PyDict_New();
    if (!at_d) return NULL;
    for (int k = 0; k < count; k++) {
        PyObject *v = PyLong_FromLong(at[k]);
        if (!v || PyDict_SetItemString(at_d, names[k], v) < 0) { Py_XDECREF(v); Py_DECREF(at_d); return NULL; }
        Py_DECREF(v);
    }
    return Py_BuildValue("{s:i,s:i,s:N}", "size", size, "planes", planes, "at", at_d);
}

PyMODINIT_FUNC PyInit__cbatch(void) {
    static const char *const xn[] = {"hand_sizes", "pile_size", "pile_order", "stock", "captured_counts", "xeri",
                                     "jack_xeri", "points", "turn", "dealer", "last_capturer", "phase",
                                     "four_players", "deal", "plays", "options"};
    static const int xa[] = {X_HAND_SIZES, X_PILE_SIZE, X_PILE_ORDER, X_STOCK, X_CAPTURED_COUNTS, X_XERI, X_JACK_XERI,
                             X_POINTS, X_TURN, X_DEALER, X_LAST_CAPTURER, X_PHASE, X_FOUR_PLAYERS, X_DEAL, X_PLAYS,
                             X_OPTIONS};
    static const char *const kn[] = {"hand_sizes", "stock", "captured_counts", "clubs", "points", "turn", "dealer",
                                     "last_capturer", "phase", "players", "partnerships", "forced_capture", "deal",
                                     "plays", "prefix_kind", "prefix_stage"};
    static const int ka[] = {K_HAND_SIZES, K_STOCK, K_CAPTURED_COUNTS, K_CLUBS, K_POINTS, K_TURN, K_DEALER,
                             K_LAST_CAPTURER, K_PHASE, K_PLAYERS, K_PARTNERSHIPS, K_FORCED_CAPTURE, K_DEAL, K_PLAYS,
                             K_PREFIX_KIND, K_PREFIX_STAGE};
    if (PyType_Ready(&BatchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *layouts = Py_BuildValue("{s:N,s:N}", "xeri", layout_dict(X_SIZE, X_PLANES, xn, xa, 16), "kontsina",
                                      layout_dict(K_SIZE, K_PLANES, kn, ka, 16));
    if (!layouts || PyModule_AddObjectRef(m, "LAYOUTS", layouts) < 0 ||
        PyModule_AddIntConstant(m, "XERI", XERI) < 0 || PyModule_AddIntConstant(m, "KONTSINA", KONTSINA) < 0 ||
        PyModule_AddObjectRef(m, "Batch", (PyObject *)&BatchType) < 0) {
        Py_XDECREF(layouts);
        Py_DECREF(m);
        return NULL;
    }
    Py_DECREF(layouts);
    return m;
}
