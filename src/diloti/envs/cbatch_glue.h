/* What every game's batched kernel shares (diloti/games/<family>/envs/_cbatch.c): the batch's eight numpy buffers
 * taken and given back, the argument checks, the step loop over the games, the sampler over the mask rows and a
 * card set as a list. Header-only (static functions): each kernel is an extension of its own, built alone
 * (setup.py's C_EXTENSIONS), and the step loop's calls into the kernel are inlined there.
 */
#ifndef DILOTI_CBATCH_GLUE_H
#define DILOTI_CBATCH_GLUE_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The batch's buffers (diloti.envs.batch.BatchStep's arrays), in SelfPlayBatch's order, and how many are held. */
typedef struct {
    Py_buffer obs, masks, to_act, rewards, terminated, truncated, illegal, final_obs;
    int nbuf; /* buffers acquired (released in this order's reverse) */
} Buffers;

enum { GLUE_BUFFERS = 8 };

static Py_buffer *glue_buffer_at(Buffers *b, int k) {
    Py_buffer *all[GLUE_BUFFERS] = {&b->obs, &b->masks, &b->to_act, &b->rewards, &b->terminated, &b->truncated,
                                    &b->illegal, &b->final_obs};
    return all[k];
}

static void glue_release(Buffers *b) {
    for (int k = b->nbuf - 1; k >= 0; k--) PyBuffer_Release(glue_buffer_at(b, k));
    b->nbuf = 0;
}

/* Takes the eight buffers of n games with `players` seats, rows of `size` floats and `num_actions` mask bytes,
 * each checked for its item size and length; -1 with an error naming the buffer (those taken stay held for
 * glue_release). */
static int glue_take(Buffers *b, PyObject *const bufs[GLUE_BUFFERS], Py_ssize_t n, Py_ssize_t size,
                     Py_ssize_t num_actions, int players) {
    const Py_ssize_t lens[GLUE_BUFFERS] = {n * size, n * num_actions, n, n * players, n, n, n, n * players * size};
    const Py_ssize_t sizes[GLUE_BUFFERS] = {4, 1, 8, 8, 1, 1, 1, 4};
    const char *names[GLUE_BUFFERS] = {"observations", "action_masks", "to_act", "rewards", "terminated",
                                       "truncated", "illegal", "final_observations"};
    for (int k = 0; k < GLUE_BUFFERS; k++) {
        Py_buffer *view = glue_buffer_at(b, k);
        if (PyObject_GetBuffer(bufs[k], view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
        b->nbuf++;
        if (view->itemsize != sizes[k] || view->len != lens[k] * sizes[k]) {
            PyErr_Format(PyExc_ValueError, "invalid buffer %s: expected %zd items of %zd bytes", names[k], lens[k],
                         sizes[k]);
            return -1;
        }
    }
    return 0;
}

static int glue_card_of(PyObject *o, const char *what) {
    long c = PyLong_AsLong(o);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c > 51) {
        PyErr_Format(PyExc_ValueError, "invalid card %ld in %s: expected 0..51", c, what);
        return -1;
    }
    return (int)c;
}

static Py_ssize_t glue_check_index(Py_ssize_t i, Py_ssize_t n) {
    if (i < 0 || i >= n) {
        PyErr_Format(PyExc_IndexError, "invalid game index %zd: expected 0..%zd", i, n - 1);
        return -1;
    }
    return i;
}

/* The cards of a 52-bit set, ascending, as a list of ints. */
static PyObject *glue_cards_list(uint64_t m) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (; m; m &= m - 1) {
        PyObject *c = PyLong_FromLong(__builtin_ctzll(m));
        if (!c || PyList_Append(out, c) < 0) { Py_XDECREF(c); Py_DECREF(out); return NULL; }
        Py_DECREF(c);
    }
    return out;
}

/* A kernel's step of one game: 0 if its episode goes on, 1 if it ended (to be dealt again), 2 if it is handed to
 * Python, -1 when out of memory. `action` is -1 for an id outside 0..num_actions-1 (illegal). */
typedef int (*GlueStepOne)(void *batch, Py_ssize_t i, int action);
/* Whether the kernel plays game i now (not Python's, nor waiting to be dealt). */
typedef int (*GluePlays)(void *batch, Py_ssize_t i);

/* step(actions): one action a game (an int64 buffer of n); returns (ended, handed), the two lists of indices. */
static inline PyObject *glue_step(void *batch, Py_ssize_t n, int num_actions, PyObject *arg, GluePlays plays,
                                  GlueStepOne step_one) {
    Py_buffer acts;
    if (PyObject_GetBuffer(arg, &acts, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (acts.itemsize != 8 || acts.len != n * 8) {
        PyBuffer_Release(&acts);
        PyErr_Format(PyExc_ValueError, "invalid actions: expected %zd int64 action ids", n);
        return NULL;
    }
    const int64_t *a = acts.buf;
    PyObject *ended = PyList_New(0), *handed = PyList_New(0);
    if (!ended || !handed) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!plays(batch, i)) continue;
        int64_t ai = a[i];
        int r = step_one(batch, i, ai < 0 || ai >= num_actions ? -1 : (int)ai);
        if (r < 0) {
            PyErr_NoMemory();
            goto fail;
        }
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

/* How many of the eight bytes at p are nonzero. */
static inline int glue_nz8(const int8_t *p) {
    uint64_t w;
    memcpy(&w, p, 8);
    uint64_t high = (((w & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | w) & 0x8080808080808080ULL;
    return (int)(((high >> 7) * 0x0101010101010101ULL) >> 56); /* one bit a byte: their sum in the top byte */
}

/* sample(uniforms, out): for each of n games, the k-th allowed action of its mask row (ascending), k = floor(u *
 * count) with u its uniform in [0, 1), 0 for a row that allows none: batch.py's sample_masks from the same draws. */
static PyObject *glue_sample(PyObject *args, Py_ssize_t n, const int8_t *masks, int num_actions) {
    PyObject *uo, *oo;
    if (!PyArg_ParseTuple(args, "OO", &uo, &oo)) return NULL;
    Py_buffer u, out;
    if (PyObject_GetBuffer(uo, &u, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(oo, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&u);
        return NULL;
    }
    if (u.itemsize != 8 || u.len != n * 8 || out.itemsize != 8 || out.len != n * 8) {
        PyBuffer_Release(&u);
        PyBuffer_Release(&out);
        PyErr_Format(PyExc_ValueError, "invalid sample buffers: expected %zd float64 uniforms and %zd int64 actions",
                     n, n);
        return NULL;
    }
    const double *uni = u.buf;
    int64_t *acts = out.buf;
    const int words = num_actions / 8;
    for (Py_ssize_t i = 0; i < n; i++) {
        const int8_t *row = masks + i * num_actions;
        int count = 0; /* eight mask bytes at a time */
        for (int w = 0; w < words; w++) count += glue_nz8(row + 8 * w);
        for (int a = 8 * words; a < num_actions; a++) count += row[a] != 0;
        int64_t pick = 0;
        if (count) {
            int64_t k = (int64_t)(uni[i] * (double)count);
            int a = 0;
            for (int w = 0; w < words; w++, a += 8) {
                int c = glue_nz8(row + 8 * w);
                if (k < c) break;
                k -= c;
            }
            for (; a < num_actions; a++)
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

#endif
