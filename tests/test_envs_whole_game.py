"""Whole-game episodes (``episode="game"``): rounds to the target, the dealer passing on, the scores observed."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is missing")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import diloti.envs  # noqa: F401 - registers the Gymnasium ids
from diloti.envs import pettingzoo_env
from diloti.envs.driver import EnvArgumentError
from diloti.envs.gym_env import CardGameEnv
from diloti.games.diloti.envs.observation import LAYOUT

SHORT = {"target": 21}  # a few rounds a game, so that the tests stay short


def play(env: object, rng: random.Random) -> tuple[dict[str, float], set[int], int]:
    """Random masked play to the end: rewards, the dealers seen, the largest score observed."""
    raw = env.unwrapped  # type: ignore[attr-defined]
    dealers, seen, rewards = set(), 0.0, {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, termination, truncation, _ = env.last()  # type: ignore[attr-defined]
        if termination or truncation:
            rewards[agent] = reward
        dealers.add(raw.driver.state.dealer)
        seen = max(seen, float(obs["observation"][LAYOUT["scores"]].max()))
        action = None if termination or truncation else rng.choice(obs["action_mask"].nonzero()[0].tolist())
        env.step(action)  # type: ignore[attr-defined]
    return rewards, dealers, int(seen * SHORT["target"])


@pytest.mark.parametrize("players", [2, 4])
def test_a_pettingzoo_game_plays_to_the_target(players: int) -> None:
    env = pettingzoo_env.env(players=players, options=SHORT, episode="game")
    env.reset(seed=5)
    rewards, dealers, seen = play(env, random.Random(5))
    game = env.unwrapped.driver.match
    assert game.is_over and max(game.scores) >= SHORT["target"] and len(game.rounds) >= 2
    assert sorted(set(rewards.values())) == [-1.0, 1.0] and sum(rewards.values()) == 0
    assert all(rewards[f"player_{s}"] == (1.0 if s % 2 == game.winner else -1.0) for s in range(players))
    assert len(dealers) >= 2 and seen > 0  # the dealer passed on; the scores reached the observation


def test_pettingzoo_conformance_for_whole_games() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env.env(options=SHORT, episode="game"), num_cycles=300)
        seed_test(lambda: pettingzoo_env.env(options=SHORT, episode="game"), num_cycles=100)


def test_gymnasium_whole_game() -> None:
    env = gymnasium.make("diloti/Diloti-v0", opponent="greedy", options=SHORT, episode="game")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    _, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    rounds = set()
    raw = env.unwrapped
    assert isinstance(raw, CardGameEnv)
    while True:
        assert raw.driver is not None
        rounds.add(raw.driver.match.round_no)
        _, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
        if terminated or truncated:
            break
    assert reward in (-1.0, 1.0) and len(rounds) >= 2


def test_whole_games_are_diloti_s_and_the_choice_is_named() -> None:
    with pytest.raises(EnvArgumentError, match="invalid episode='match'"):
        pettingzoo_env.env(episode="match")
    with pytest.raises(EnvArgumentError, match="for game='xeri'"):
        gymnasium.make("diloti/Xeri-v0", episode="game")


def test_openspiel_whole_game() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from diloti.envs import openspiel_game

    game = pyspiel.load_game(openspiel_game.SHORT_NAMES["diloti"],
                             {"players": 2, "options": "target:21", "episode": "game"})
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    rng = random.Random(3)
    state, dealers, with_scores = game.new_initial_state(), set(), 0
    while not state.is_terminal():
        dealers.add(state.round.dealer)
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            continue
        with_scores += state.information_state_string(0).startswith("first table") and "scores " in \
            state.observation_string(0)
        state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [-1.0, 1.0] and max(state.scores) >= 21 and dealers == {0, 1}
    assert with_scores > 0
    with pytest.raises(pyspiel.SpielError, match="episode"):  # the parent games have no such parameter
        pyspiel.load_game("python_kontsina", {"episode": "game"})
