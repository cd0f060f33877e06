"""The Gymnasium environment passes Gymnasium's env_checker, against every built-in level."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the research extra (pip install 'diloti[research]') is missing")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import diloti.envs  # noqa: E402
from diloti.envs.driver import EnvArgumentError  # noqa: E402
from diloti.envs.gym_env import DilotiEnv  # noqa: E402

FAST_EXPERT = "expert:iterations=20,seconds=none"


@pytest.mark.parametrize(("players", "opponent"), [(2, "random"), (2, "greedy"), (4, "heuristic"), (2, FAST_EXPERT)])
def test_check_env(players: int, opponent: str) -> None:
    env = gymnasium.make(diloti.envs.GYM_ID, players=players, opponent=opponent)
    check_env(env.unwrapped, skip_render_check=False)


def test_registered_id_makes_the_environment() -> None:
    env = gymnasium.make("diloti/Diloti-v0", opponent="greedy", options={"liberal_groups": True}, seat=1)
    assert isinstance(env.unwrapped, DilotiEnv)
    obs, info = env.reset(seed=1)
    assert info["seat"] == 1 and obs["action_mask"].sum() > 0


@pytest.mark.parametrize("players", [2, 4])
def test_rounds_end_with_the_point_difference(players: int) -> None:
    env = DilotiEnv(opponent="heuristic", players=players)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total, steps = 0.0, 0
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size and np.array_equal(legal, np.flatnonzero(env.action_masks()))
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += reward
            steps += 1
            if terminated or truncated:
                break
        assert not truncated and steps >= 12
        assert env.driver is not None
        a, b = env.driver.state.points()
        assert total == (a - b if info["seat"] % 2 == 0 else b - a)
        assert obs["action_mask"].sum() == 0


def test_same_seed_same_episode() -> None:
    def run(seed: int) -> list[float]:
        env = DilotiEnv(opponent=FAST_EXPERT)
        obs, _ = env.reset(seed=seed)
        out = [float(obs["observation"].sum())]
        while True:
            obs, reward, term, trunc, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
            out.append(float(obs["observation"].sum()) + reward)
            if term or trunc:
                return out
    assert run(5) == run(5)


def test_each_step_returns_arrays_of_the_callers_own() -> None:
    """The observation, its mask and the info's mask are new writable arrays: changing them changes nothing else."""
    env = DilotiEnv(opponent="random", players=2, seat=0)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        arrays = [obs["observation"], obs["action_mask"], info["action_mask"]]
        assert all(a.flags.writeable for a in arrays)
        assert not np.shares_memory(arrays[1], arrays[2]) and (arrays[1] == arrays[2]).all()
        driver = env.driver
        assert driver is not None
        kept = [driver.observation(0).copy(), driver.mask().copy()] if not driver.over else None
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for a in arrays:
            a[...] = 0  # the caller's own: the environment must not see it
        if kept is not None:
            assert (driver.observation(0) == kept[0]).all() and (driver.mask() == kept[1]).all()
        obs, _, terminated, _, info = env.step(action)
        if terminated:
            obs, info = env.reset(seed=5)


def test_illegal_action_ends_the_episode() -> None:
    env = DilotiEnv()
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -251.0 and info["illegal_action"]
    with pytest.raises(EnvArgumentError, match="after the episode ended"):
        env.step(0)


def test_bad_arguments_name_the_argument() -> None:
    with pytest.raises(EnvArgumentError, match="opponent='grandmaster'"):
        DilotiEnv(opponent="grandmaster")
    with pytest.raises(EnvArgumentError, match="partner=3"):
        DilotiEnv(partner=3)  # type: ignore[arg-type]
    with pytest.raises(EnvArgumentError, match="seat=2"):
        DilotiEnv(seat=2)
    with pytest.raises(EnvArgumentError, match="players=5"):
        DilotiEnv(players=5)
    with pytest.raises(EnvArgumentError, match="illegal_reward="):
        DilotiEnv(illegal_reward="x")  # type: ignore[arg-type]
    with pytest.raises(EnvArgumentError, match="before reset"):
        DilotiEnv().step(0)


def test_render_ansi() -> None:
    env = DilotiEnv(render_mode="ansi", seat=0)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "the agent plays player_0" in text
