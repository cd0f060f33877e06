"""Mini Diloti (issue 53 items 3 and 5): a deal small enough to solve, on Diloti's own rules.

Its chance is finite and uniform over the deals; its rounds are Diloti's; its OpenSpiel game passes pyspiel's
random simulations with serialisation and the observation-agreement check on every history; OpenSpiel's exact
algorithms (get_all_states, CFR and CFR+ in Python and C++, best response, exploitability) run on it at small
iteration counts; and every built-in level plays it as a tabular policy from the seat's view alone.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from fractions import Fraction
from math import comb
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import best_response, cfr, exploitability, get_all_states  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import diloti.games.diloti.envs.mini  # noqa: E402, F401  (registers python_mini_diloti)
from diloti.ai import make_player  # noqa: E402
from diloti.core.cards import ALL_MASK, mask_of  # noqa: E402
from diloti.core.errors import InvalidPositionError, NoSuchOutcomeError, OptionsError  # noqa: E402
from diloti.core.phase import Phase  # noqa: E402
from diloti.envs.driver import EnvArgumentError  # noqa: E402
from diloti.envs.exact import cached, information_states, level_policy  # noqa: E402
from diloti.games.diloti.mini import MINI, Deal, MiniRound  # noqa: E402
from diloti.games.diloti.options import Options  # noqa: E402
from diloti.games.diloti.players.sampler import Worlds  # noqa: E402

#: A deal so small that OpenSpiel's Python algorithms walk it in a moment: 4 cards, a hand of 1, a table of 1.
TINY = {"deck": "AC 2C 3C 2D", "hand": 1, "table": 1}
LEVELS = ["random", "greedy", "heuristic", "expert:iterations=20,seconds=none",
          "master:iterations=20,seconds=none,width=3,infer=0,counted=99"]


def histories(game: Any, terminals: bool = True, chance: bool = True) -> dict[str, Any]:
    found: dict[str, Any] = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=terminals,
                                                          include_chance_states=chance,
                                                          to_string=lambda s: s.history_str())
    return found


# ------------------------------------------------------------------ the deal
def test_explicit_chance_deals_every_deal_once_with_equal_probability() -> None:
    reached: Counter[tuple[Any, ...]] = Counter()

    def walk(r: MiniRound, p: Fraction) -> None:
        if r.phase != Phase.CHANCE:
            reached[(tuple(map(tuple, r.hands)), tuple(r.table))] += 1
            assert p == Fraction(1, 180), p
            return
        event = r.chance
        assert event is not None
        total = sum(event.weights)
        for card, w in zip(event.outcomes, event.weights, strict=True):
            t = r.copy()
            t.deal(card)
            walk(t, p * Fraction(w, total))

    walk(MiniRound.new(explicit_chance=True), Fraction(1))
    assert len(reached) == comb(6, 2) * comb(4, 2) * comb(2, 1) == 180 and set(reached.values()) == {1}


def test_a_seeded_round_deals_from_its_seed_and_plays_diloti_to_the_end() -> None:
    r = MiniRound.new(seed=5)
    assert r == MiniRound.new(seed=5) and r != MiniRound.new(seed=6)
    assert [len(h) for h in r.hands] == [2, 2] and len(r.table) == 1 and r.stock_size == 0 and r.phase == Phase.PLAY
    dealt = set(r.hands[0]) | set(r.hands[1]) | set(r.table)
    assert dealt <= set(MINI.cards) and len(dealt) == 5
    rng = random.Random(1)
    while not r.is_over:
        r.play(rng.choice(r.legal_moves()))
    assert len(r.history) == 4 and sum(c.bit_count() for c in r.captured) in (0, 5)
    a, b = r.points()
    assert a + b >= 4 or r.last_capturer is None


def test_the_view_counts_unseen_only_the_decks_cards() -> None:
    r = MiniRound.new(seed=3)
    v = r.view(1)
    set_aside = set(MINI.cards) - set(r.hands[0]) - set(r.hands[1]) - set(r.table)
    assert set(v.unseen) == set(r.hands[0]) | set_aside and v.unseen_mask & ~MINI.mask == 0
    assert v.game == "diloti" and v.deck == MINI.mask and ALL_MASK & ~v.seen_mask != v.unseen_mask


def test_worlds_of_a_mini_view_keep_the_deal_the_stock_empty() -> None:
    r = MiniRound.new(seed=8)
    v = r.view(r.turn)
    rng = random.Random(2)
    for _ in range(30):
        w = Worlds(v).sample(rng)
        assert w.hands[r.turn] == r.hands[r.turn] and w.stock_size == 0 and w.table == r.table
        assert mask_of(w.hands[1 - r.turn]) & ~(MINI.mask & ~v.seen_mask) == 0


def test_bad_deals_options_and_cards_are_refused_naming_them() -> None:
    with pytest.raises(OptionsError, match="dealer_sees_bottom"):
        MiniRound.new(options=Options(dealer_sees_bottom=True))
    with pytest.raises(InvalidPositionError, match="expected 2"):
        MiniRound.new(players=4)
    with pytest.raises(InvalidPositionError, match="hand=0"):
        Deal.parse("AC AD 2C", 0, 1)
    r = MiniRound.new(explicit_chance=True)
    with pytest.raises(NoSuchOutcomeError, match="cannot deal 3D"):
        r.deal("3D")  # the highest card cannot be a hand's lowest
    for params, word in (({"players": 4}, "players"), ({"options": "face_card_redeal:any_deal"}, "face_card_redeal"),
                         ({"deck": "AC AD", "hand": 2}, "deck"), ({"deck": "AC XX"}, "deck")):
        with pytest.raises(EnvArgumentError, match=word):
            pyspiel.load_game("python_mini_diloti", params)


# ---------------------------------------------------------------- OpenSpiel
@pytest.mark.parametrize("params", [{}, TINY, {"dealer": 1, "options": "forced_capture xeri_first_card"},
                                    {"deck": "AC AD 2C 2D 3C 3D 4C 4D 5C 5D", "hand": 3, "table": 2}])
def test_random_sim_test_with_serialisation(params: dict[str, Any]) -> None:
    game = pyspiel.load_game("python_mini_diloti", params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_serialise_pickle_and_resample_round_trip() -> None:
    game = pyspiel.load_game("python_mini_diloti")
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        if not state.is_chance_node():
            player = state.current_player()
            text = pyspiel.serialize_game_and_state(game, state)
            _, again = pyspiel.deserialize_game_and_state(text)
            for other in (again, pickle.loads(pickle.dumps(state)), state.clone()):
                assert other.information_state_string(player) == state.information_state_string(player)
            for seat in (0, 1):
                world = state.resample_from_infostate(seat, rng.random)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.legal_actions() == state.legal_actions() or seat != player
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(cards, probs)[0])
    assert sum(state.returns()) == 0


def test_on_every_history_equal_strings_have_equal_tensors_and_the_other_way_round() -> None:
    # Two cards set aside: a seat never knows the other's hand.
    game = pyspiel.load_game("python_mini_diloti", {"deck": "AC AD 2C 2D 3C", "hand": 1, "table": 1})
    states = [s for s in histories(game).values() if not s.is_chance_node()]
    met = 0
    for recall in (False, True):
        for private in (True, False):
            kind = pyspiel.PrivateInfoType.SINGLE_PLAYER if private else pyspiel.PrivateInfoType.NONE
            obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall, private_info=kind))
            for player in (0, 1):
                by_string: dict[str, bytes] = {}
                by_tensor: dict[bytes, str] = {}
                for s in states:
                    obs.set_from(s, player)
                    text, tensor = obs.string_from(s, player), obs.tensor.tobytes()
                    assert by_string.setdefault(text, tensor) == tensor, text
                    assert by_tensor.setdefault(tensor, text) == text, text
                met += len(states) - len(by_string)
    assert met > 0  # histories met (one information state): the check compared something


@pytest.mark.slow
def test_get_all_states_counts_the_default_deal() -> None:
    game = pyspiel.load_game("python_mini_diloti")
    every = histories(game)
    decision = [s for s in every.values() if not s.is_chance_node() and not s.is_terminal()]
    infos = {s.information_state_string() for s in decision}
    # The figures docs/RESEARCH.md gives (bench/mini_diloti.py --size).
    assert (len(every), len(decision), len(infos)) == (18904, 13052, 10338)
    assert len(information_states(game)) == len(infos)


def test_python_cfr_best_response_and_exploitability_on_a_tiny_deal() -> None:
    game = pyspiel.load_game("python_mini_diloti", TINY)
    uniform = exploitability.exploitability(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRPlusSolver(game)
    values = []
    for _ in range(8):
        solver.evaluate_and_update_policy()
        values.append(exploitability.exploitability(game, solver.average_policy()))
    assert values[-1] < values[0] <= uniform + 1e-9 and values[-1] < 0.2 * uniform
    br = best_response.BestResponsePolicy(game, 0, solver.average_policy())
    assert br.value(game.new_initial_state()) >= -1e-9 - exploitability.nash_conv(game, solver.average_policy())
    cpp = pyspiel.CFRSolver(game)  # pyspiel's C++ CFR on the Python game itself
    cpp.evaluate_and_update_policy()
    assert pyspiel.exploitability(game, cpp.average_policy()) == pytest.approx(uniform)


@pytest.mark.slow
def test_cpp_cfr_plus_on_the_cached_default_deal_converges() -> None:
    game = cached(pyspiel.load_game("python_mini_diloti"))
    solver = pyspiel.CFRPlusSolver(game)
    solver.evaluate_and_update_policy()
    first = pyspiel.exploitability(game, solver.average_policy())
    for _ in range(19):
        solver.evaluate_and_update_policy()
    last = pyspiel.exploitability(game, solver.average_policy())
    assert 0 <= last < 0.05 * first  # the figures bench/mini_diloti.py --cfr prints: 6.11 at 1, 0.05 at 20


# ------------------------------------------------------------------ the levels
@pytest.mark.slow
@pytest.mark.parametrize("spec", LEVELS)
def test_every_level_is_a_legal_deterministic_policy_from_the_seats_view(spec: str) -> None:
    game = pyspiel.load_game("python_mini_diloti", {"deck": "AC AD 2C 2D 3C", "hand": 2, "table": 1})
    infos = information_states(game)
    policy = level_policy(game, spec, infos, seed=3)
    table, again = policy.policy_table(), level_policy(game, spec, infos, seed=3).policy_table()
    for info, state in infos.items():
        probs = dict(table[info])
        assert set(probs) == set(state.legal_actions()) and sum(probs.values()) == pytest.approx(1.0)
        assert probs == dict(again[info])
        if spec != "random" and not state.taken:  # a move's head: the player's own choice, one action
            assert sorted(probs.values())[-1] == 1.0
    value = pyspiel.exploitability(cached(game), policy)
    assert 0 <= value <= pyspiel.exploitability(cached(game), level_policy(game, "random", infos)) + 5


def test_a_level_chooses_the_same_move_in_every_world_of_its_view() -> None:
    r = MiniRound.new(seed=12)
    seat = r.turn
    player = make_player("expert:iterations=20,seconds=none", seed=1)
    move = player.choose(r.view(seat))
    rng = random.Random(5)
    for _ in range(5):  # the other hand and the card set aside dealt again: the seat sees the same
        other = r.copy()
        hands, _ = Worlds(r.view(seat)).deal(rng)
        assert other.round is not None
        other.round.hands = [list(h) if s == seat else sorted(hands[s]) for s, h in enumerate(r.hands)]
        assert other.view(seat) == r.view(seat)
        assert make_player("expert:iterations=20,seconds=none", seed=1).choose(other.view(seat)) == move
