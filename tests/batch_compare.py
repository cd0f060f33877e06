"""What the batch tests compare with (tests/test_envs_batch*.py): arrays byte for byte, a random legal action
from a mask, and every field of two batches' steps."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from diloti.envs.batch import BatchStep

#: The fields of a step every game writes (the final observations only where an episode ended).
FIELDS = ("observations", "action_masks", "to_act", "rewards", "terminated", "truncated", "illegal")


def same(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> bool:
    """The same dtype, shape and bytes."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def pick(mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    """A legal action of ``mask``, drawn by ``rng``."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def assert_same_step(c: BatchStep, p: BatchStep, step: int) -> None:
    """Every field of two batches' step the same, naming the first games that differ."""
    for name in FIELDS:
        a, b = getattr(c, name), getattr(p, name)
        if not same(a, b):
            rows = [i for i in range(len(a)) if a[i].tobytes() != b[i].tobytes()]
            raise AssertionError(f"step {step}: {name} differs in games {rows[:8]}")
    ended = c.terminated | c.truncated
    assert same(c.final_observations[ended], p.final_observations[ended]), f"step {step}: final observations"
