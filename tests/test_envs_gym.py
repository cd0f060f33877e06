"""The Gymnasium environment passes Gymnasium's env_checker, against every built-in level."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the research extra (pip install 'diloti[research]') is missing")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import diloti.envs  # noqa: E402
from diloti.envs.driver import EnvArgumentError  # noqa: E402
from diloti.envs.gym_env import CardGameEnv  # noqa: E402

FAST_EXPERT = "expert:iterations=20,seconds=none"


@pytest.mark.parametrize(("players", "opponent"), [(2, "random"), (2, "greedy"), (4, "heuristic"), (2, FAST_EXPERT)])
def test_check_env(players: int, opponent: str) -> None:
    env = gymnasium.make(diloti.envs.GYM_ID, players=players, opponent=opponent)
    check_env(env.unwrapped, skip_render_check=False)


def test_registered_id_makes_the_environment() -> None:
    env = gymnasium.make("diloti/Diloti-v0", opponent="greedy", options={"liberal_groups": True}, seat=1)
    assert isinstance(env.unwrapped, CardGameEnv)
    obs, info = env.reset(seed=1)
    assert info["seat"] == 1 and obs["action_mask"].sum() > 0


@pytest.mark.parametrize("players", [2, 4])
def test_rounds_end_with_the_point_difference(players: int) -> None:
    env = CardGameEnv(opponent="heuristic", players=players)
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
        env = CardGameEnv(opponent=FAST_EXPERT)
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
    env = CardGameEnv(opponent="random", players=2, seat=0)
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
    env = CardGameEnv()
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -251.0 and info["illegal_action"]
    with pytest.raises(EnvArgumentError, match="after the episode ended"):
        env.step(0)


def test_bad_arguments_name_the_argument() -> None:
    with pytest.raises(EnvArgumentError, match="opponent='grandmaster'"):
        CardGameEnv(opponent="grandmaster")
    with pytest.raises(EnvArgumentError, match="partner=3"):
        CardGameEnv(partner=3)  # type: ignore[arg-type]
    with pytest.raises(EnvArgumentError, match="seat=2"):
        CardGameEnv(seat=2)
    with pytest.raises(EnvArgumentError, match="players=5"):
        CardGameEnv(players=5)
    with pytest.raises(EnvArgumentError, match="illegal_reward="):
        CardGameEnv(illegal_reward="x")  # type: ignore[arg-type]
    with pytest.raises(EnvArgumentError, match="before reset"):
        CardGameEnv().step(0)


def test_render_ansi() -> None:
    env = CardGameEnv(render_mode="ansi", seat=0)
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "the agent plays player_0" in text


# ------------------------------------------------------------------ max_steps: truncation
def run_episode(env: CardGameEnv, seed: int) -> tuple[int, float, bool, bool, dict[str, np.ndarray], int]:
    """One episode at random: the agent's steps, the last step's reward, terminated and truncated, observation,
    and the step count the driver kept (the agent's decision steps)."""
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        assert not (terminated and truncated)
        if terminated or truncated:
            assert env.driver is not None
            return steps, reward, terminated, truncated, obs, env.driver.applied


@pytest.mark.parametrize(("game", "players", "episode"), [("diloti", 2, "round"), ("diloti", 4, "round"),
                                                          ("diloti", 2, "game"), ("xeri", 2, "round"),
                                                          ("kontsina", 3, "round")])
def test_max_steps_truncates_the_episode_at_exactly_that_step(game: str, players: int, episode: str) -> None:
    def make(max_steps: int | None = None) -> CardGameEnv:
        return CardGameEnv(opponent="greedy", players=players, game=game, episode=episode, max_steps=max_steps)

    length, whole_reward, terminated, truncated, _, applied = run_episode(make(), 6)
    assert terminated and not truncated and applied == length
    for limit in (1, 5, length - 1):
        env = make(limit)
        steps, reward, terminated, truncated, obs, _ = run_episode(env, 6)
        assert (steps, reward, terminated, truncated) == (limit, 0.0, False, True)
        # The position's own observation: the agent is to act there, and its mask says what it could play.
        assert env.driver is not None and not env.driver.over
        assert obs["action_mask"].any() and np.array_equal(obs["action_mask"], env.driver.mask())
        assert np.array_equal(obs["observation"], env.driver.observation(env.me))
        with pytest.raises(EnvArgumentError, match="after the episode ended"):
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        obs, _ = env.reset(seed=7)  # a new episode counts afresh
        assert env.driver is not None and env.driver.applied == 0 and obs["action_mask"].any()
    for limit in (length, length + 1, 10**9):  # reached by the end itself, or never: the episode terminates
        steps, reward, terminated, truncated, obs, _ = run_episode(make(limit), 6)
        assert (steps, reward, terminated, truncated) == (length, whole_reward, True, False)
        assert not obs["action_mask"].any()


def test_max_steps_leaves_the_episode_as_it_was_before_it_truncates() -> None:
    a, b = CardGameEnv(opponent="heuristic", players=4), CardGameEnv(opponent="heuristic", players=4, max_steps=8)
    obs_a, _ = a.reset(seed=2)
    obs_b, _ = b.reset(seed=2)
    rng = np.random.default_rng(2)
    for step in range(1, 9):
        assert all(np.array_equal(obs_a[k], obs_b[k]) for k in ("observation", "action_mask"))
        action = int(rng.choice(np.flatnonzero(obs_a["action_mask"])))
        obs_a, _, _, truncated_a, _ = a.step(action)
        obs_b, _, _, truncated_b, _ = b.step(action)
        assert not truncated_a and truncated_b == (step == 8)
    assert all(np.array_equal(obs_a[k], obs_b[k]) for k in ("observation", "action_mask"))


@pytest.mark.parametrize(("players", "max_steps"), [(2, 1), (2, 6), (4, 3), (2, 10**6)])
def test_check_env_with_max_steps(players: int, max_steps: int) -> None:
    env = gymnasium.make(diloti.envs.GYM_ID, players=players, opponent="greedy", max_steps=max_steps)
    assert env.unwrapped.max_steps == max_steps
    check_env(env.unwrapped, skip_render_check=False)


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "10", [10]])
def test_a_bad_max_steps_is_named(bad: object) -> None:
    with pytest.raises(EnvArgumentError, match=r"invalid max_steps=.*expected None \(no limit\) or a positive int"):
        CardGameEnv(max_steps=bad)  # type: ignore[arg-type]
    with pytest.raises(EnvArgumentError, match="max_steps="):
        gymnasium.make("diloti/Kontsina-v0", max_steps=bad)
