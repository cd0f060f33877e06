"""Gymnasium environments of the parent games pass Gymnasium's env_checker against the variant computer levels."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the research extra (pip install 'diloti[research]') is missing")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import diloti.envs  # noqa: E402
from diloti.envs.driver import EnvArgumentError  # noqa: E402
from diloti.envs.gym_env import CardGameEnv  # noqa: E402

FAST_EXPERT = "expert:iterations=10,seconds=none"


@pytest.mark.filterwarnings("ignore::UserWarning")  # check_env's remarks on a Dict observation space
@pytest.mark.parametrize(("game", "players", "opponent", "options"), [
    ("xeri", 2, "random", None), ("xeri", 2, "greedy", {"xeri_jack_double": True}), ("xeri", 4, "heuristic", None),
    ("kontsina", 2, FAST_EXPERT, None), ("kontsina", 3, "heuristic", {"forced_capture": True}),
    ("kontsina", 4, "greedy", None), ("kontsina", 4, "random", {"partnerships": True})])
def test_check_env(game: str, players: int, opponent: str, options: dict[str, Any] | None) -> None:
    env = gymnasium.make(diloti.envs.GYM_IDS[game], players=players, opponent=opponent, options=options)
    check_env(env.unwrapped, skip_render_check=False)


def test_registered_ids_and_the_game_argument_make_the_same_environment() -> None:
    assert diloti.envs.GYM_IDS == {"diloti": "diloti/Diloti-v0", "xeri": "diloti/Xeri-v0",
                                   "kontsina": "diloti/Kontsina-v0"}
    a = gymnasium.make("diloti/Kontsina-v0", players=3, seat=2).unwrapped
    b = gymnasium.make("diloti/Diloti-v0", game="kontsina", players=3, seat=2).unwrapped
    assert isinstance(a, CardGameEnv) and a.game.name == b.game.name == "kontsina"
    oa, ia = a.reset(seed=4)
    ob, ib = b.reset(seed=4)
    assert np.array_equal(oa["observation"], ob["observation"]) and ia["seat"] == ib["seat"] == 2
    assert isinstance(a.action_space, spaces.Discrete) and isinstance(a.observation_space, spaces.Dict)
    assert a.action_space.n == 156 and a.observation_space["observation"].shape == (517,)


@pytest.mark.parametrize(("game", "players", "options"), [("xeri", 4, None), ("kontsina", 3, None),
                                                          ("kontsina", 4, {"partnerships": True})])
def test_hands_end_with_the_sides_points_against_the_others(game: str, players: int,
                                                            options: dict[str, Any] | None) -> None:
    env = CardGameEnv(game=game, opponent="greedy", partner="random", players=players, options=options)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = 0.0
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            assert legal.size and np.array_equal(legal, np.flatnonzero(env.action_masks()))
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            total += reward
            if terminated or truncated:
                break
        assert env.driver is not None
        state = env.driver.state
        points, side = state.points(), state.side_of(info["seat"])
        others = [p for i, p in enumerate(points) if i != side]
        assert total == pytest.approx(points[side] - sum(others) / len(others))
        partners = {s for s in range(players) if s != info["seat"] and state.side_of(s) == side}
        assert {s for s, bot in env.bots.items() if bot.name == "random"} == partners


@pytest.mark.parametrize(("game", "worst"), [("xeri", -285.0), ("kontsina", -5.0)])
def test_an_illegal_action_ends_the_episode_with_the_games_worst(game: str, worst: float) -> None:
    env = CardGameEnv(game=game)
    obs, _ = env.reset(seed=3)
    obs, reward, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert terminated and reward == worst and info["illegal_action"]


def test_bad_arguments_name_the_argument() -> None:
    with pytest.raises(EnvArgumentError, match="invalid game='chess'"):
        CardGameEnv(game="chess")
    with pytest.raises(EnvArgumentError, match="invalid players=3 for game='xeri'"):
        gymnasium.make("diloti/Xeri-v0", players=3)
    with pytest.raises(EnvArgumentError, match="unknown xeri option 'liberal_groups'"):
        CardGameEnv(game="xeri", options={"liberal_groups": True})
    env = CardGameEnv(game="xeri", render_mode="ansi")
    assert env.render() == "Xeri: call reset() to deal a hand\n  (the agent plays player_0)"
