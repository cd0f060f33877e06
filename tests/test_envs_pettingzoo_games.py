"""PettingZoo environments of the parent games pass PettingZoo's own tests, every player count of each."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is not installed")

from gymnasium import spaces
from pettingzoo.test import api_test, render_test, seed_test

from diloti.envs import pettingzoo_env
from diloti.envs.driver import EnvArgumentError

SEATINGS = [("xeri", 2, None), ("xeri", 4, {"xeri_jack_double": True}), ("kontsina", 2, None),
            ("kontsina", 3, {"forced_capture": True}), ("kontsina", 4, None), ("kontsina", 4, {"partnerships": True})]


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("game", "players", "options"), SEATINGS)
def test_api(game: str, players: int, options: dict[str, Any] | None) -> None:
    api_test(pettingzoo_env.env(game=game, players=players, options=options), num_cycles=200)


@pytest.mark.parametrize(("game", "players", "options"), SEATINGS)
def test_seed(game: str, players: int, options: dict[str, Any] | None) -> None:
    seed_test(lambda: pettingzoo_env.env(game=game, players=players, options=options), num_cycles=100)


@pytest.mark.parametrize("game", ["xeri", "kontsina"])
def test_render(game: str) -> None:
    render_test(lambda render_mode=None: pettingzoo_env.env(game=game, render_mode=render_mode))
    e = pettingzoo_env.env(game=game, render_mode="ansi")
    assert "call reset() to deal a hand" in e.unwrapped.render()
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text.startswith(game.capitalize()) and "player_1" in text


def play(e: Any, seed: int) -> dict[str, float]:
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return total


@pytest.mark.parametrize(("game", "players", "options"), SEATINGS)
def test_spaces_names_and_rewards_per_side(game: str, players: int, options: dict[str, Any] | None) -> None:
    e = pettingzoo_env.raw_env(game=game, players=players, options=options)
    size, n = (404, 52) if game == "xeri" else (517, 156)
    assert e.metadata["name"] == f"{game}_v0" and pettingzoo_env.raw_env.metadata["name"] == "diloti_v0"
    assert e.possible_agents == [f"player_{i}" for i in range(players)]
    for a in e.possible_agents:
        action_space, observation_space = e.action_space(a), e.observation_space(a)
        assert isinstance(action_space, spaces.Discrete) and isinstance(observation_space, spaces.Dict)
        assert action_space.n == n and observation_space["observation"].shape == (size,)
    for seed in range(3):
        total = play(e, seed)
        assert abs(sum(total.values())) < 1e-9
        assert e.driver is not None
        points = e.driver.state.points()
        sides = e.driver.state.sides
        for seat in range(players):
            side = seat % sides
            others = [p for i, p in enumerate(points) if i != side]
            assert total[f"player_{seat}"] == pytest.approx(points[side] - sum(others) / len(others))


@pytest.mark.parametrize(("game", "worst"), [("xeri", -285.0), ("kontsina", -5.0)])
def test_an_illegal_action_ends_the_hand_with_the_games_worst_reward(game: str, worst: float) -> None:
    e = pettingzoo_env.env(game=game)
    e.reset(seed=2)
    agent = e.agent_selection
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # PettingZoo logs the illegal move
    assert e.rewards[agent] == worst and all(e.terminations.values())


def test_bad_arguments_name_the_argument() -> None:
    with pytest.raises(EnvArgumentError, match="invalid game='pishti': expected one of diloti, xeri, kontsina"):
        pettingzoo_env.env(game="pishti")
    with pytest.raises(EnvArgumentError, match="invalid players=3 for game='xeri': expected 2 or 4"):
        pettingzoo_env.env(game="xeri", players=3)
    with pytest.raises(EnvArgumentError, match="unknown kontsina option 'soy'"):
        pettingzoo_env.env(game="kontsina", options={"soy": True})


def test_the_environment_pickles_and_same_seed_same_hand() -> None:
    e = pettingzoo_env.env(game="kontsina", players=3)
    again = pickle.loads(pickle.dumps(e))
    assert play(e, 7) == play(again, 7)
    assert again.unwrapped.metadata["name"] == "kontsina_v0"
