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


def step_beside_pettingzoo(batch: Any, envs: list[Any], seed: int, steps: int, rng_seed: int) -> list[int]:
    """Step ``batch`` and one PettingZoo ``env()`` a game side by side from the same seeds (game i's env seeded
    ``seed + i``) for ``steps`` calls, a random legal action each, comparing at every step the seat to act, the
    observation and mask, the ends, the rewards and every seat's final observation; each game's episodes ended."""
    out = batch.reset(seed=seed)
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
    rng = random.Random(rng_seed)
    episodes = [0] * len(envs)
    for _ in range(steps):
        actions = []
        for i, env in enumerate(envs):
            agent = env.agent_selection
            o = env.observe(agent)
            assert out.to_act[i] == int(agent.split("_")[1])
            assert same(out.observations[i], o["observation"]) and same(out.action_masks[i], o["action_mask"])
            actions.append(pick(o["action_mask"], rng))
        out = batch.step(actions)
        for i, env in enumerate(envs):
            env.step(actions[i])
            raw = env.unwrapped
            term, trunc = all(raw.terminations.values()), all(raw.truncations.values())
            assert (bool(out.terminated[i]), bool(out.truncated[i])) == (term, trunc)
            if term or trunc:
                assert out.rewards[i].tolist() == [raw.rewards[a] for a in raw.possible_agents]
                for seat, agent in enumerate(raw.possible_agents):
                    assert same(out.final_observations[i, seat], env.observe(agent)["observation"])
                episodes[i] += 1
                env.reset()
            else:
                assert not out.rewards[i].any()
    return episodes
