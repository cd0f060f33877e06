"""The OpenSpiel game passes pyspiel's random simulation tests with serialisation, 2 and 4 players."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

import diloti.envs.openspiel_game  # noqa: E402, F401  (registers the games)
from diloti.envs.driver import EnvArgumentError  # noqa: E402
from diloti.envs.openspiel_base import SpielState  # noqa: E402
from diloti.games.diloti.envs import openspiel as openspiel_game  # noqa: E402
from diloti.games.diloti.envs.observation import SIZE  # noqa: E402

MIXES = ["", "liberal_groups liberal_raise self_raise",
         "dealer_sees_bottom face_card_redeal:any_deal three_faces_stay any_rank_redeal soy target:121"]


def random_state(game: Any, rng: random.Random, stop: float = 0.5) -> SpielState:
    state: SpielState = game.new_initial_state()
    while (not state.is_terminal() and rng.random() > 1 - stop / 100) or state.is_chance_node():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choice(cards))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("options", MIXES)
def test_random_sim_test_with_serialisation(players: int, options: str) -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": players, "options": options})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def play_to_end(state: SpielState, rng: random.Random) -> SpielState:
    while not state.is_terminal():
        if state.is_chance_node():
            cards = [c for c, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(cards))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def states_along_a_round(game: Any, seed: int) -> list[SpielState]:
    rng = random.Random(seed)
    state: SpielState = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if rng.random() < 0.15:
            out.append(state.clone())
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    out.append(state)
    return out


def test_serialise_pickle_and_clone_round_trip() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 4, "options": MIXES[2], "dealer": 2})
    for state in states_along_a_round(game, 1):
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and str(state2) == str(state)
        assert state2.history() == state.history()
        again = pickle.loads(pickle.dumps(state))
        assert str(again) == str(state) and again.history() == state.history()
        for p in range(4):
            assert again.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(again.observation_tensor(p), state.observation_tensor(p))


def test_game_pickles() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 4, "options": "soy target:121"})
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()


def test_tensors_and_strings() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME)
    assert game.observation_tensor_shape() == [SIZE]
    assert game.information_state_tensor_shape() == [openspiel_game.INFO_SIZE]
    assert game.num_distinct_actions() == 559 and game.max_chance_outcomes() == 52
    state = random_state(game, random.Random(2), stop=30)
    for p in range(2):
        obs = np.array(state.observation_tensor(p))
        info = np.array(state.information_state_tensor(p))
        assert obs.shape == (SIZE,) and info.shape == (openspiel_game.INFO_SIZE,)
        assert np.array_equal(info[:SIZE], obs)
        assert state.information_state_string(p).startswith("first table ")
        assert f"seat {p}/2" in state.observation_string(p)


@pytest.mark.parametrize(("players", "options"), [(2, MIXES[1]), (4, "dealer_sees_bottom face_card_redeal:any_deal")])
def test_hidden_cards_and_resampling(players: int, options: str) -> None:
    """A resampled state is the same to the player (strings, tensors, legal actions); hidden cards differ."""
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": players, "options": options})
    differ = 0
    for seed in range(6):
        for state in states_along_a_round(game, seed):
            if state.is_chance_node() or state.is_terminal():
                continue
            p = state.current_player()
            other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert np.array_equal(other.information_state_tensor(p), state.information_state_tensor(p))
            assert other.legal_actions() == state.legal_actions()
            other.round.validate()
            if str(other) != str(state):
                differ += 1
            play_to_end(other, random.Random(seed))  # the resampled world plays on to the end
    assert differ > 10


def test_returns_are_zero_sum_and_partners_share() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"players": 4})
    for seed in range(3):
        state = play_to_end(game.new_initial_state(), random.Random(seed))
        r = state.returns()
        assert sum(r) == 0 and r[0] == r[2] and r[1] == r[3] and r[0] == -r[1]
        assert -251 <= r[0] <= 251


def test_chance_nodes_deal_card_by_card() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {"options": "dealer_sees_bottom"})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 37) == "deal 10D to bottom"
    state.apply_action(37)
    assert [c for c, _ in state.chance_outcomes()] == [c for c in range(52) if c != 37]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal AC to player 1"
    dealt = 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        dealt += 1
    assert dealt >= 17  # the bottom card, two hands of 6 and a table of 4 (laid again if it must be)


def test_bad_parameters_name_the_parameter() -> None:
    with pytest.raises(EnvArgumentError, match="players=3"):
        openspiel_game.DilotiGame({"players": 3})
    with pytest.raises(EnvArgumentError, match="options='sooy'"):
        openspiel_game.DilotiGame({"options": "sooy"})
    with pytest.raises(EnvArgumentError, match="dealer=2"):
        openspiel_game.DilotiGame({"dealer": 2})


@pytest.mark.parametrize(("name", "players"), [(openspiel_game.SHORT_NAME, 2), (openspiel_game.SHORT_NAME, 4),
                                               ("python_kontsina", 3), ("python_xeri", 2)])
def test_resampling_for_a_player_not_to_move(name: str, players: int) -> None:
    """Resampled from the information set of a seat that is not to move, after the mover's legal actions
    were asked, mid-move too: the seat sees the same, the move being chosen goes on, and every legal
    action of the resampled state applies (its mover's own moves, not the original's)."""
    game = pyspiel.load_game(name, {"players": players, "options": MIXES[1] if name == openspiel_game.SHORT_NAME
                                    else ""})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = mid_move = 0
    for seed in range(8):
        rng = random.Random(seed)
        for state in states_along_a_round(game, seed):
            if state.is_chance_node() or state.is_terminal():
                continue
            state.legal_actions()
            mover = state.current_player()
            for p in range(players):
                if p == mover:
                    continue
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert np.array_equal(other.information_state_tensor(p), state.information_state_tensor(p))
                assert other.prefix() == state.prefix()
                for action in other.legal_actions():
                    other.action_to_string(mover, action)
                    other.clone().apply_action(action)
                checked += 1
                mid_move += state.prefix()[0] >= 0
                play_to_end(other, rng)
    assert checked > 30 and (mid_move > 5 or name == "python_xeri")


@pytest.mark.parametrize(("name", "players"), [(openspiel_game.SHORT_NAME, 2), (openspiel_game.SHORT_NAME, 4),
                                               ("python_kontsina", 3), ("python_xeri", 2)])
def test_information_state_tensors_are_as_fine_as_the_strings(name: str, players: int) -> None:
    """Over the states of random rounds of a few deals, two different information-state strings never share a
    tensor: a learner keyed on the tensor sees the game the strings describe (the same cards played in
    another order, or a move that took other cards, is another tensor)."""
    game = pyspiel.load_game(name, {"players": players})
    by_tensor: dict[bytes, str] = {}
    for seed in range(60):
        # Three deals, twenty rounds each: rounds of one deal play the same cards in other orders.
        deal, rng = random.Random(seed % 3), random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.round.table) < 9:  # large tables list moves slowly
            if state.is_chance_node():
                state.apply_action(deal.choice([c for c, _ in state.chance_outcomes()]))
                continue
            for p in range(players):
                key = np.asarray(state.information_state_tensor(p), np.float32).tobytes()
                text = state.information_state_string(p)
                assert by_tensor.setdefault(key, text) == text
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(("name", "players"), [(openspiel_game.SHORT_NAME, 2), (openspiel_game.SHORT_NAME, 4),
                                               ("python_kontsina", 3), ("python_xeri", 4)])
def test_rounds_stay_within_max_game_length(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players})
    longest = 0
    for seed in range(30):
        rng = random.Random(seed)
        state, steps = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        longest = max(longest, steps)
    assert 0 < longest <= game.max_game_length()
