"""OpenSpiel games of the one-card games (python_xeri, python_kontsina, on openspiel_hands) pass pyspiel's random
simulations with serialisation."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

import diloti.envs.openspiel_game  # noqa: E402, F401  (registers the three games)
from diloti.envs.driver import EnvArgumentError  # noqa: E402
from diloti.envs.games import find_env_game  # noqa: E402
from diloti.envs.openspiel_base import HISTORY_PLIES, PLY_SIZE, SpielState  # noqa: E402

SEATINGS = [("python_xeri", 2, ""), ("python_xeri", 2, "pile_any_pair_redeal no_xeri_last_card"),
            ("python_xeri", 4, "xeri_jack_double"), ("python_kontsina", 2, ""),
            ("python_kontsina", 3, "forced_capture"), ("python_kontsina", 4, ""),
            ("python_kontsina", 4, "partnerships target:31")]


def step(state: SpielState, rng: random.Random) -> None:
    if state.is_chance_node():
        cards, probs = zip(*state.chance_outcomes(), strict=True)
        assert abs(sum(probs) - 1) < 1e-9
        state.apply_action(rng.choice(cards))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def states_along_a_hand(game: Any, seed: int) -> list[SpielState]:
    rng = random.Random(seed)
    state: SpielState = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if rng.random() < 0.2:
            out.append(state.clone())
        step(state, rng)
    out.append(state)
    return out


@pytest.mark.parametrize(("name", "players", "options"), SEATINGS)
def test_random_sim_test_with_serialisation(name: str, players: int, options: str) -> None:
    game = pyspiel.load_game(name, {"players": players, "options": options})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "players", "options"), SEATINGS[2:5])
def test_serialise_pickle_and_clone_round_trip(name: str, players: int, options: str) -> None:
    game = pyspiel.load_game(name, {"players": players, "options": options, "dealer": 1})
    for state in states_along_a_hand(game, 1):
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and str(state2) == str(state) and state2.history() == state.history()
        for other in (pickle.loads(pickle.dumps(state)), state.clone()):
            assert str(other) == str(state) and other.history() == state.history()
            for p in range(players):
                assert other.information_state_string(p) == state.information_state_string(p)
                assert np.array_equal(other.observation_tensor(p), state.observation_tensor(p))


def test_game_types_spaces_and_parameters() -> None:
    xeri = pyspiel.load_game("python_xeri")
    kontsina = pyspiel.load_game("python_kontsina", {"players": 3})
    assert xeri.num_distinct_actions() == 52 and kontsina.num_distinct_actions() == 156
    assert xeri.observation_tensor_shape() == [404] and kontsina.observation_tensor_shape() == [517]
    assert xeri.information_state_tensor_shape() == [404 + 5 * 52 + HISTORY_PLIES * PLY_SIZE]
    assert xeri.max_chance_outcomes() == 52 and kontsina.num_players() == 3
    assert (xeri.min_utility(), xeri.max_utility(), kontsina.max_utility()) == (-285.0, 285.0, 5.0)
    for g, players in ((xeri, (2, 4)), (kontsina, (2, 3, 4))):
        t = g.get_type()
        assert t.parameter_specification == {"players": 2, "options": "", "dealer": 0}
        assert (t.min_num_players, t.max_num_players) == (min(players), max(players))
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert str(pickle.loads(pickle.dumps(kontsina))) == str(kontsina)
    assert str(pyspiel.load_game("python_xeri", {"players": 4})) == \
        "python_xeri(dealer=0,options=partnerships,players=4)"
    assert "python_xeri" in pyspiel.registered_names() and "python_kontsina" in pyspiel.registered_names()


def test_chance_nodes_deal_card_by_card_and_the_pile_only_as_one_that_stands() -> None:
    game = pyspiel.load_game("python_xeri")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal AC to player 1"
    for card in range(12):
        state.apply_action(card)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 40) == "deal JC to table"
    assert len(state.chance_outcomes()) == 40  # the pile's bottom card: any, each with its probability
    for card in (13, 17, 21):  # 4D 5D 6D: the top card can be no jack and no 6 (tests/test_xeri_pile_chance.py)
        state.apply_action(card)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 30 and 40 not in outcomes and 20 not in outcomes and abs(sum(outcomes.values()) - 1) < 1e-12
    assert state.legal_actions() == sorted(outcomes)
    state.apply_action(25)
    assert state.current_player() == 1 and state.legal_actions() == list(range(6))


@pytest.mark.parametrize(("name", "players", "options"), [SEATINGS[2], SEATINGS[4], SEATINGS[6]])
def test_hidden_cards_and_resampling(name: str, players: int, options: str) -> None:
    """A resampled state is the same to the player (strings, tensors, legal actions); hidden cards differ."""
    game = pyspiel.load_game(name, {"players": players, "options": options})
    differ = 0
    for seed in range(4):
        for state in states_along_a_hand(game, seed):
            if state.is_chance_node() or state.is_terminal():
                continue
            p = state.current_player()
            other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert np.array_equal(other.information_state_tensor(p), state.information_state_tensor(p))
            assert other.legal_actions() == state.legal_actions()
            other.round.validate()
            differ += str(other) != str(state)
            rng = random.Random(seed)
            while not other.is_terminal():
                step(other, rng)  # the resampled world plays on to the end
    assert differ > 10


@pytest.mark.parametrize(("name", "players", "options"), SEATINGS)
def test_returns_are_zero_sum_and_partners_share(name: str, players: int, options: str) -> None:
    game = pyspiel.load_game(name, {"players": players, "options": options})
    state = states_along_a_hand(game, 5)[-1]
    r = state.returns()
    assert abs(sum(r)) < 1e-9 and all(game.min_utility() <= x <= game.max_utility() for x in r)
    sides = state.round.sides
    for seat in range(players):
        assert r[seat] == r[seat % sides]


def test_bad_parameters_name_the_parameter() -> None:
    with pytest.raises(EnvArgumentError, match="invalid players=3 for game='xeri': expected 2 or 4"):
        find_env_game("xeri").part.openspiel()[1]({"players": 3})
    with pytest.raises(EnvArgumentError, match="unknown kontsina option 'soy'"):
        find_env_game("kontsina").part.openspiel()[1]({"options": "soy"})
    with pytest.raises(EnvArgumentError, match="invalid dealer=3"):
        find_env_game("kontsina").part.openspiel()[1]({"players": 3, "dealer": 3})
