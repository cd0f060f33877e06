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


# ------------------------------------------------------------------ max_steps: truncation
def episode(e: Any, seed: int) -> dict[str, Any]:
    """One episode played at random through ``agent_iter``: the steps taken with an action, and what the step that
    ended it left (each agent's last reward, termination and truncation, the observations then)."""
    e.reset(seed=seed)
    raw = e.unwrapped
    rng = random.Random(seed)
    steps = 0
    ended: dict[str, Any] | None = None
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            if ended is None:  # the first agent to leave: nobody has left yet, every agent's values are whole
                ended = {"terminations": dict(raw.terminations), "truncations": dict(raw.truncations),
                         "rewards": dict(raw._cumulative_rewards), "to_act": raw.driver.to_act,
                         "masks": {a: raw.observe(a)["action_mask"].copy() for a in raw.possible_agents}}
            # Each agent leaving in turn sees a mask only if it is the seat to act of a truncated episode.
            assert obs["action_mask"].any() == (trunc and not term and raw.possible_agents[raw.driver.to_act] == agent)
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    assert ended is not None and e.agents == []  # every agent left, truncated or terminated
    return {"steps": steps, **ended}


@pytest.mark.parametrize(("game", "players", "episode_kind"), [("diloti", 2, "round"), ("diloti", 4, "round"),
                                                               ("diloti", 2, "game"), ("xeri", 2, "round"),
                                                               ("kontsina", 3, "round")])
@pytest.mark.parametrize("wrapped", [False, True])
def test_max_steps_truncates_the_episode_at_exactly_that_step(game: str, players: int, episode_kind: str,
                                                              wrapped: bool) -> None:
    make = pettingzoo_env.env if wrapped else pettingzoo_env.raw_env
    whole = episode(make(game=game, players=players, episode=episode_kind), 3)
    assert all(whole["terminations"].values()) and not any(whole["truncations"].values())
    length = whole["steps"]
    for limit in (1, 7, length - 1):
        got = episode(make(game=game, players=players, episode=episode_kind, max_steps=limit), 3)
        assert got["steps"] == limit
        assert all(got["truncations"].values()) and not any(got["terminations"].values())
        assert set(got["rewards"].values()) == {0.0}  # the game's so far: nothing before its end
        # The observations stay the position's: the seat to act keeps its mask, every other agent none.
        for agent, mask in got["masks"].items():
            assert mask.any() == (agent == f"player_{got['to_act']}"), agent
    for limit in (length, length + 1, 10**9):  # reached by the end itself, or never: the episode terminates
        got = episode(make(game=game, players=players, episode=episode_kind, max_steps=limit), 3)
        assert got["steps"] == length and got["rewards"] == whole["rewards"]
        assert all(got["terminations"].values()) and not any(got["truncations"].values())


def test_max_steps_leaves_the_episode_as_it_was_before_it_truncates() -> None:
    """The same seed plays the same steps with and without a limit, up to the limit; reset starts afresh."""
    a, b = pettingzoo_env.raw_env(players=4, options=LIBERAL), pettingzoo_env.raw_env(players=4, options=LIBERAL,
                                                                                      max_steps=20)
    for e in (a, b):
        e.reset(seed=8)
    rng = random.Random(8)
    for _ in range(20):
        assert a.agent_selection == b.agent_selection and not b.truncations[b.agent_selection]
        oa, ob = a.observe(a.agent_selection), b.observe(b.agent_selection)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        action = rng.choice(np.flatnonzero(oa["action_mask"]).tolist())
        a.step(action)
        b.step(action)
    assert all(b.truncations.values()) and not any(a.truncations.values())
    b.reset(seed=8)
    assert not any(b.truncations.values()) and b.driver is not None and b.driver.applied == 0
    copy = pickle.loads(pickle.dumps(b))
    assert copy.max_steps == 20


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("players", "options", "max_steps"), [(2, None, 1), (2, None, 9), (4, LIBERAL, 25),
                                                               (2, None, 10**6)])
def test_api_with_max_steps(players: int, options: dict[str, Any] | None, max_steps: int) -> None:
    api_test(pettingzoo_env.env(players=players, options=options, max_steps=max_steps), num_cycles=200)
    seed_test(lambda: pettingzoo_env.env(players=players, options=options, max_steps=max_steps), num_cycles=100)


@pytest.mark.parametrize("bad", [0, -3, 1.5, True, "10", [10]])
def test_a_bad_max_steps_is_named(bad: object) -> None:
    with pytest.raises(EnvArgumentError, match=r"invalid max_steps=.*expected None \(no limit\) or a positive int"):
        pettingzoo_env.raw_env(max_steps=bad)  # type: ignore[arg-type]
    with pytest.raises(EnvArgumentError, match="max_steps="):
        pettingzoo_env.env(game="xeri", max_steps=bad)
