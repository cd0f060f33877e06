/* Diloti's batched kernel: N rounds held in C structs, stepped by action ids in one call.
 *
 * The Python batch (diloti.envs.batch.SelfPlayBatch) plays each game through the compiled engine and its
 * per-game Python; this extension plays the same rounds (the standard rules, 2 or 4 players, one-round
 * episodes) with the same legal moves, action encoding and observation bytes, writing straight into the batch's
 * numpy buffers (the buffer protocol: no numpy headers, no new dependency). The deal stays in Python
 * (State.new: the seeded shuffle), handed to `start`; a table whose moves would pass the bounds below is handed
 * back to Python (`export`) for the rest of its round, as the Python engine's large-table path bounds it.
 * The wrapper and what uses C: diloti/games/diloti/envs/cbatch.py. The rules (moves, the action tree, a move
 * played, the observation): cbatch_rules.c. The equivalence test: tests/test_envs_batch_c.py.
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
    int players;
    long max_steps; /* -1: none */
    double illegal_reward;
    Game *games;
    Buffers bufs; /* the batch's numpy buffers (cbatch_glue.h) */
    Scratch scratch; /* one decision's move generation */
} Batch;

/* ------------------------------------------------------------------ the batch */

static float *obs_row(Batch *b, Py_ssize_t i) { return (float *)b->bufs.obs.buf + i * SIZE; }

/* Writes game i's row: the observation and mask of the seat to act, that seat. */
static void write_row(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    ((int64_t *)b->bufs.to_act.buf)[i] = g->turn;
    observe(g, g->turn, g->head, g->chosen, obs_row(b, i));
    write_mask(g, (int8_t *)b->bufs.masks.buf + i * NUM_ACTIONS);
}

static void write_final(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    float *final = (float *)b->bufs.final_obs.buf + i * b->players * SIZE;
    for (int s = 0; s < b->players; s++) observe(g, s, g->head, g->chosen, final + s * SIZE);
}

static void Batch_dealloc(Batch *b) {
    glue_release(&b->bufs);
    if (b->games) {
        for (Py_ssize_t i = 0; i < b->n; i++) free(b->games[i].moves); /* cbatch_rules.c reallocs them */
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
    if (glue_take(&b->bufs, bufs, n, SIZE, NUM_ACTIONS, players) < 0) return -1;
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

/* start(i, dealer, turn, hands, table, stock): game i's round from its deal (State.new's hands, table and the
 * stock still to deal, in order); its row written. */
static PyObject *Batch_start(Batch *b, PyObject *args) {
    Py_ssize_t i;
    int dealer, turn;
    PyObject *hands, *table, *stock;
    if (!PyArg_ParseTuple(args, "niiOOO", &i, &dealer, &turn, &hands, &table, &stock)) return NULL;
    if (glue_check_index(i, b->n) < 0) return NULL;
    if (dealer < 0 || dealer >= b->players || turn < 0 || turn >= b->players) {
        PyErr_Format(PyExc_ValueError, "invalid dealer %d or turn %d: expected seats 0..%d", dealer, turn,
                     b->players - 1);
        return NULL;
    }
    Game *g = &b->games[i];
    Mv *moves = g->moves;
    int cap_moves = g->cap_moves;
    if (cap_moves > 256) { /* a rare large list: each game keeps no more than a usual one between rounds */
        free(moves);
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
            int c = glue_card_of(PySequence_Fast_GET_ITEM(h, k), "hands");
            if (c < 0) { Py_DECREF(h); Py_DECREF(seq); return NULL; }
            g->hand[s] |= 1ULL << c;
        }
        Py_DECREF(h);
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(table, "table must be a sequence");
    if (!seq) return NULL;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        int c = glue_card_of(PySequence_Fast_GET_ITEM(seq, k), "table");
        if (c < 0) { Py_DECREF(seq); return NULL; }
        g->table |= 1ULL << c;
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(stock, "stock must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > 52) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "invalid stock: more than 52 cards"); return NULL; }
    for (Py_ssize_t k = 0; k < len; k++) {
        int c = glue_card_of(PySequence_Fast_GET_ITEM(seq, k), "stock");
        if (c < 0) { Py_DECREF(seq); return NULL; }
        g->stock[k] = (uint8_t)c;
    }
    Py_DECREF(seq);
    g->stock_len = (int)len;
    g->stock_pos = 0;
    /* A stock counted as the observation counts it (52 minus what was dealt): its cards still to come. */
    if (decide(&b->scratch, g) < 0) {
        g->python = 1;
        Py_RETURN_FALSE;
    }
    write_row(b, i);
    Py_RETURN_TRUE;
}


/* One action of game i's seat to act: 0 if the round goes on in C, 1 if it ended (the caller resets it),
 * 2 if it goes on in Python (its moves passed the bounds). */
static int step_one(Batch *b, Py_ssize_t i, int a) {
    Game *g = &b->games[i];
    double *rew = (double *)b->bufs.rewards.buf + i * b->players;
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
        ((uint8_t *)b->bufs.terminated.buf)[i] = 1;
        ((uint8_t *)b->bufs.illegal.buf)[i] = 1;
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
            ((uint8_t *)b->bufs.terminated.buf)[i] = 1;
            write_final(b, i);
            return 1;
        }
    }
    if (b->max_steps >= 0 && g->applied >= b->max_steps) { /* truncated: no reward before the round's end */
        ((uint8_t *)b->bufs.truncated.buf)[i] = 1;
        write_final(b, i);
        return 1;
    }
    if (done && decide(&b->scratch, g) < 0) {
        g->python = 1;
        return 2;
    }
    write_row(b, i);
    return 0;
}

/* step(actions): one action a game (an int64 buffer of num_envs), for the games played in C; returns the games
 * whose round ended (to be dealt again by start) and those handed to Python (export) in this step. */
static int plays(void *b, Py_ssize_t i) { return !((Batch *)b)->games[i].python; }

static int step_game(void *b, Py_ssize_t i, int a) { return step_one((Batch *)b, i, a); }

static PyObject *Batch_step(Batch *b, PyObject *arg) {
    return glue_step(b, b->n, NUM_ACTIONS, arg, plays, step_game);
}

/* sample(uniforms, out): for each game, the k-th allowed action of its mask row (ascending), k = floor(u * count)
 * with u its uniform in [0, 1), 0 for a row that allows none: batch.py's sample_masks from the same draws. */
static PyObject *Batch_sample(Batch *b, PyObject *args) {
    return glue_sample(args, b->n, b->bufs.masks.buf, NUM_ACTIONS);
}

/* export(i): game i's round as a dict of State.from_parts' fields (and deal_no, applied), for Python to play on;
 * the game is Python's until start(i) deals it again. */
static PyObject *Batch_export(Batch *b, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (glue_check_index(i, b->n) < 0) return NULL;
    Game *g = &b->games[i];
    g->python = 1;
    PyObject *hands = PyList_New(g->players), *decls = PyList_New(0), *stock = PyList_New(0);
    if (!hands || !decls || !stock) goto fail;
    for (int s = 0; s < g->players; s++) {
        PyObject *h = glue_cards_list(g->hand[s]);
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
    PyObject *table = glue_cards_list(g->table), *cap0 = glue_cards_list(g->cap[0]), *cap1 = glue_cards_list(g->cap[1]);
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
    if (glue_check_index(i, b->n) < 0) return NULL;
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
