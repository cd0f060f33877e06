"""Diloti's C batch plays the Python engine's rounds exactly (issue 52 items 1 and 2).

The correctness gate of :mod:`diloti.games.diloti.envs.cbatch`: the C batch is stepped side by side with one
PettingZoo ``env()`` a game (the single environment) and with the batch's Python backend, from the same seeds, with
random legal actions, comparing every observation, mask, seat to act, reward, end and final observation at every
step, over thousands of steps of whole rounds, 2 and 4 players; its legal moves are compared with the engine's
(every capture, plain declaration, raise and group) at every position; random seeds, illegal actions and step
limits by hypothesis; and the large tables it hands to Python.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is not installed")

from hypothesis import given, settings
from hypothesis import strategies as st

from batch_compare import assert_same_step, step_beside_pettingzoo
from diloti.core.moves import GROUP, PLAIN
from diloti.envs import pettingzoo_env
from diloti.envs.batch import SelfPlayBatch
from diloti.envs.driver import EnvArgumentError
from diloti.games.diloti.envs import cbatch

pytestmark = pytest.mark.skipif(not cbatch.available(), reason="the C batch is not built (scripts/build-core)")


@pytest.mark.parametrize("players", [2, 4])
def test_c_batch_steps_as_pettingzoo(players: int) -> None:
    """Every step of whole rounds against one PettingZoo environment a game: thousands of steps."""
    n, seed = 6, 11
    batch = SelfPlayBatch(n, players=players)
    assert batch.backend == "c"
    envs = [pettingzoo_env.env(players=players) for _ in range(n)]
    episodes = step_beside_pettingzoo(batch, envs, seed, 700, rng_seed=4)
    assert sum(episodes) >= 30  # 4,200 steps of whole episodes


@pytest.mark.parametrize("players", [2, 4])
def test_c_moves_are_the_engines(players: int) -> None:
    """At every position the C kernel's legal moves are the engine's, each once: captures, plain declarations,
    raises and groups (the kinds counted, so the comparison meets them all)."""
    n = 16
    c = SelfPlayBatch(n, players=players)
    p = SelfPlayBatch(n, players=players, backend="python")
    oc, op = c.reset(seed=5), p.reset(seed=5)
    kernel = c.kernel
    assert isinstance(kernel, cbatch.CKernel)
    rng = np.random.default_rng(6)
    kinds: dict[int, int] = {}
    raises = 0
    for step in range(400):
        handed = set(c.python_games())
        for i in range(n):
            d = p.drivers[i]
            if i in handed or d.decision.head >= 0:
                continue
            engine = sorted((int(m.card), int(m.kind), m.value, m.mask) for m in d.state.legal_moves())
            mine = kernel.moves(i)
            assert len(mine) == len(set(mine)), f"step {step}, game {i}: a move listed twice"
            assert sorted(mine) == engine, f"step {step}, game {i}: {d.state.describe()}"
            for _card, kind, _value, mask in mine:
                kinds[kind] = kinds.get(kind, 0) + 1
                if kind == PLAIN and any(mask & pile.mask for pile in d.state.declarations):
                    raises += 1
        acts = p.sample_actions(rng)
        oc, op = c.step(acts), p.step(acts)
        assert_same_step(oc, op, step)
    assert kinds[GROUP] > 100 and kinds[PLAIN] > 100 and raises > 10, (kinds, raises)


@settings(max_examples=25, deadline=None)
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 2**40), act_seed=st.integers(0, 2**32 - 1),
       max_steps=st.sampled_from([None, 7, 60]), illegal=st.sampled_from([0.0, 0.02]),
       dealer=st.sampled_from([None, 0, 1]))
def test_c_batch_is_the_python_batch(players: int, seed: int, act_seed: int, max_steps: int | None,
                                     illegal: float, dealer: int | None) -> None:
    """From random seeds, with step limits, illegal actions and a fixed dealer: the C and the Python backends write
    the same arrays."""
    n = 8
    kw: dict[str, Any] = {"players": players, "max_steps": max_steps, "illegal_reward": -5.0, "dealer": dealer}
    c, p = SelfPlayBatch(n, **kw), SelfPlayBatch(n, backend="python", **kw)
    oc, op = c.reset(seed=seed), p.reset(seed=seed)
    assert_same_step(oc, op, -1)
    rng = np.random.default_rng(act_seed)
    for step in range(150):
        acts = p.sample_actions(rng)
        if illegal:
            bad = rng.random(n) < illegal
            acts[bad] = np.argmin(op.action_masks[bad], axis=1)  # an action its mask forbids
        oc, op = c.step(acts), p.step(acts)
        assert_same_step(oc, op, step)


@pytest.mark.parametrize("players", [2, 4])
def test_large_tables_go_on_in_python_bounded(players: int) -> None:
    """Laying whenever possible grows tables past the kernel's bounds: those rounds are handed to the Python
    drivers (their bounded large-table path) and go on exactly as in the Python batch, every step bounded."""
    from test_envs_large import lay_first

    n = 8
    c, p = SelfPlayBatch(n, players=players), SelfPlayBatch(n, players=players, backend="python")
    oc, op = c.reset(seed=0), p.reset(seed=0)
    worst = 0.0
    handed = biggest = 0
    for step in range(400):
        actions = np.array([lay_first(op.action_masks[i]) for i in range(n)])
        start = time.process_time()
        oc = c.step(actions)
        worst = max(worst, time.process_time() - start)
        op = p.step(actions)
        assert_same_step(oc, op, step)
        handed += len(c.python_games())
        biggest = max(biggest, *(len(d.state.table) for d in p.drivers))
    assert handed > 0 and biggest >= 16
    assert worst < 5.0, worst  # as tests/test_envs_large.py: no step unbounded


def test_sampled_actions_are_the_python_samplers() -> None:
    """The kernel's sampler draws what sample_masks draws from the same generator, rows without a legal action
    included (0)."""
    from diloti.envs.batch import sample_masks

    c, p = SelfPlayBatch(64), SelfPlayBatch(64, backend="python")
    c.reset(seed=8)
    p.reset(seed=8)
    for step in range(60):
        a, b = c.sample_actions(np.random.default_rng(step)), p.sample_actions(np.random.default_rng(step))
        assert a.tolist() == b.tolist()
        c.step(a)
        p.step(b)
    c.buffers.action_masks[3] = 0
    kernel = c.kernel
    assert isinstance(kernel, cbatch.CKernel)
    u = np.random.default_rng(1).random(64)
    assert kernel.sample(u).tolist() == sample_masks(c.buffers.action_masks, np.random.default_rng(1)).tolist()
    assert kernel.sample(u)[3] == 0


def test_which_configurations_use_c() -> None:
    assert SelfPlayBatch(2).backend == "c"
    assert SelfPlayBatch(2, players=4, max_steps=9).backend == "c"
    assert SelfPlayBatch(2, options={"soy": True}).backend == "python"
    assert SelfPlayBatch(2, episode="game").backend == "python"
    assert SelfPlayBatch(2, backend="python").backend == "python"
    with pytest.raises(EnvArgumentError, match="invalid backend='kernel': diloti has no batched kernel"):
        SelfPlayBatch(2, options={"soy": True}, backend="kernel")
    with pytest.raises(EnvArgumentError, match="invalid backend='gpu'"):
        SelfPlayBatch(2, backend="gpu")


def test_bad_kernel_inputs_name_the_input() -> None:
    batch = SelfPlayBatch(2)
    batch.reset(seed=0)
    kernel = batch.kernel
    assert isinstance(kernel, cbatch.CKernel)
    with pytest.raises(IndexError, match="invalid game index 5"):
        kernel.moves(5)
    with pytest.raises(ValueError, match="invalid actions: expected 2 int64"):
        kernel.step(np.zeros(3, np.int64))
    with pytest.raises(EnvArgumentError, match="invalid actions\\[1\\]=9999"):
        batch.step([0, 9999])
