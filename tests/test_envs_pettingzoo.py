"""The PettingZoo environment passes PettingZoo's own conformance tests, 2 and 4 players, any options."""

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
from diloti.games.diloti.envs.actions import NUM_ACTIONS, describe
from diloti.games.diloti.envs.observation import SIZE
from diloti.games.diloti.options import Options

LIBERAL = {"liberal_groups": True, "liberal_raise": True, "liberal_capture": True, "self_raise": True}


# A dict observation draws these two warnings; api_test names PettingZoo's own card games to silence them.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("players", "options"), [(2, None), (4, None), (2, LIBERAL), (4, LIBERAL),
                                                  (2, {"face_card_redeal": "any_deal", "dealer_sees_bottom": True})])
def test_api(players: int, options: dict[str, Any] | None) -> None:
    api_test(pettingzoo_env.env(players=players, options=options), num_cycles=200)


@pytest.mark.parametrize("players", [2, 4])
def test_seed(players: int) -> None:
    seed_test(lambda: pettingzoo_env.env(players=players, options=LIBERAL), num_cycles=100)


def test_render() -> None:
    render_test(lambda render_mode=None: pettingzoo_env.env(render_mode=render_mode))
    e = pettingzoo_env.env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "player_0" in text and "table:" in text


def play(e: Any, seed: int) -> tuple[dict[str, float], int]:
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        assert obs["observation"].shape == (SIZE,)
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return total, steps


@pytest.mark.parametrize("players", [2, 4])
def test_rewards_are_the_point_difference_per_side(players: int) -> None:
    e = pettingzoo_env.raw_env(players=players, options=LIBERAL)
    for seed in range(5):
        total, steps = play(e, seed)
        assert steps >= 48
        assert sum(total.values()) == 0
        assert total["player_0"] == -total["player_1"]
        if players == 4:
            assert total["player_0"] == total["player_2"] and total["player_1"] == total["player_3"]


def test_same_seed_same_round_and_mask_only_for_the_agent_to_act() -> None:
    a, b = pettingzoo_env.raw_env(), pettingzoo_env.raw_env()
    a.reset(seed=3)
    b.reset(seed=3)
    assert a.agent_selection == b.agent_selection
    for agent in a.possible_agents:
        oa, ob = a.observe(agent), b.observe(agent)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert (oa["action_mask"].sum() > 0) == (agent == a.agent_selection)
    c = pettingzoo_env.raw_env()
    c.reset(seed=4)
    assert not np.array_equal(c.observe("player_0")["observation"], a.observe("player_0")["observation"])


def test_illegal_action_ends_the_round() -> None:
    e = pettingzoo_env.env()
    e.reset(seed=2)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = e.agent_selection
    e.step(illegal)
    assert all(e.terminations.values()) or all(e.truncations.values())
    assert e.rewards[agent] == -251.0
    assert describe(illegal)


def test_bad_arguments_name_the_argument() -> None:
    with pytest.raises(EnvArgumentError, match="players=3"):
        pettingzoo_env.raw_env(players=3)
    with pytest.raises(EnvArgumentError, match="options="):
        pettingzoo_env.raw_env(options={"sooy": True})
    with pytest.raises(EnvArgumentError, match="dealer=2"):
        pettingzoo_env.raw_env(dealer=2)
    with pytest.raises(EnvArgumentError, match="render_mode='rgb_array'"):
        pettingzoo_env.raw_env(render_mode="rgb_array")
    with pytest.raises(EnvArgumentError, match="illegal_reward="):
        pettingzoo_env.env(illegal_reward="no")
    e = pettingzoo_env.raw_env(options=Options(soy=True), dealer=1)
    e.reset(seed=0)
    assert e.agent_selection == "player_0"  # the seat after the dealer leads


def test_spaces_and_pickle() -> None:
    e = pettingzoo_env.raw_env(players=4, options="liberal_groups soy")
    action_space, observation_space = e.action_space("player_3"), e.observation_space("player_0")
    assert isinstance(action_space, spaces.Discrete) and isinstance(observation_space, spaces.Dict)
    assert action_space.n == NUM_ACTIONS and observation_space["observation"].shape == (SIZE,)
    e.reset(seed=9)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    copy = pickle.loads(pickle.dumps(e))
    assert copy.options == e.options and copy.players == 4
