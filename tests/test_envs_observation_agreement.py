"""Every OpenSpiel game's observation string and tensor are two forms of one observation, as are its
information-state string and tensor: for each player, two states with equal strings have equal tensors, and
two states with equal tensors have equal strings (issue 46).

The states are drawn to meet: the positions a few steps after each of several deals, all of them (so moves
played in another order meet again), and every state of random hands, for every game and player count, with
the seat's own hand and without it (public observations). The pairs these rarely meet by chance (the same
cards captured in other ways, a pile in another order, a xeri of a jack, the bottom card once dealt, game
scores past the target) are made on purpose below.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, cast

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

from open_spiel.python.observation import make_observation  # noqa: E402

import diloti.envs.openspiel_game  # noqa: E402, F401  (registers the three games)
from diloti.core.cards import Card, parse_cards  # noqa: E402
from diloti.envs.games import find_env_game  # noqa: E402
from diloti.games.onecard.envs import HandEnv  # noqa: E402

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("python_diloti", {"players": 2}),
    ("python_diloti", {"players": 4}),
    ("python_diloti", {"players": 2, "options": "dealer_sees_bottom face_card_redeal:any_deal"}),
    ("python_xeri", {"players": 2}),
    ("python_xeri", {"players": 4}),
    ("python_xeri", {"players": 2, "options": "xeri_jack_double pile_any_pair_redeal"}),
    ("python_kontsina", {"players": 2}),
    ("python_kontsina", {"players": 3, "options": "forced_capture"}),
    ("python_kontsina", {"players": 4}),
    ("python_kontsina", {"players": 4, "options": "partnerships"}),
]
#: (perfect_recall, private_info SINGLE_PLAYER): the observation and the information state, with the seat's own
#: hand and public.
KINDS = [(recall, private) for recall in (False, True) for private in (True, False)]


def observer(game: Any, recall: bool, private: bool) -> Any:
    info = pyspiel.PrivateInfoType.SINGLE_PLAYER if private else pyspiel.PrivateInfoType.NONE
    return make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall, private_info=info))


def chance_step(state: Any, rng: random.Random) -> None:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(actions, probs)[0])


def pool(game: Any, seed: int, deals: int = 3, depth: int = 4, width: int = 120) -> list[Any]:
    """States of ``game``: for each deal, every state up to ``depth`` decision steps after it (at most ``width``
    a level, drawn at random), and every state of one random hand from it."""
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        state = game.new_initial_state()
        while state.is_chance_node():
            out.append(state.clone())
            chance_step(state, rng)
        level = [state]
        for _ in range(depth):
            out += level
            nxt = []
            for s in level:
                if s.is_terminal():
                    continue
                if s.is_chance_node():
                    t = s.clone()
                    chance_step(t, rng)
                    nxt.append(t)
                    continue
                nxt += [s.child(a) for a in s.legal_actions()]
            level = nxt if len(nxt) <= width else rng.sample(nxt, width)
        out += level
        while not state.is_terminal():
            if state.is_chance_node():
                chance_step(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            out.append(state.clone())
    return out


def assert_one_to_one(pairs: list[tuple[str, bytes]]) -> int:
    """Each string with one tensor and each tensor with one string; the number of pairs that met."""
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    met = 0
    for text, tensor in pairs:
        if text in by_string:
            met += 1
            assert by_string[text] == tensor, f"one string, two tensors: {text}"
        by_string[text] = tensor
        if tensor in by_tensor:
            assert by_tensor[tensor] == text, f"one tensor, two strings:\n{by_tensor[tensor]}\n{text}"
        by_tensor[tensor] = text
    return met


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), CONFIGS)
def test_equal_strings_have_equal_tensors_and_equal_tensors_equal_strings(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(name, params)
    # Diloti's moves take more steps: more deals, a level less.
    deals, depth = (6, 3) if name == "python_diloti" else (3, 4)
    states = pool(game, seed=len(params.get("options", "")) + params["players"], deals=deals, depth=depth)
    met = 0
    for recall, private in KINDS:
        obs = observer(game, recall, private)
        for player in range(game.num_players()):
            pairs = []
            for state in states:
                obs.set_from(state, player)
                pairs.append((obs.string_from(state, player), obs.tensor.tobytes()))
            met += assert_one_to_one(pairs)
            if not recall and private:  # the state's own methods give the same forms
                state = states[-1]
                obs.set_from(state, player)
                assert state.observation_string(player) == obs.string_from(state, player)
                assert np.array_equal(np.asarray(state.observation_tensor(player), np.float32), obs.tensor)
    assert met > 0  # states met (another deal, another order of moves): the check compared something


def hand_forms(game: str, view: Any) -> tuple[str, bytes]:
    """The observation string and tensor of a one-card game's view."""
    part = cast(HandEnv, find_env_game(game).part)
    return part.describe_view(view), part.observe(view).tobytes()


def differ_in_both(a: tuple[str, bytes], b: tuple[str, bytes]) -> None:
    assert a[0] != b[0] and a[1] != b[1]


def test_the_same_number_of_other_cards_captured_shows_in_both_forms() -> None:
    from diloti.games import find_game

    for game, players in (("xeri", 2), ("kontsina", 3)):
        s = find_game(game).new_state(players, seed=4)
        view = s.view(0)
        free = [c for c in range(52) if c not in view.hand and c not in view.table]
        one = replace(view, captured=((Card(free[0]), Card(free[1])), *view.captured[1:]))
        other = replace(view, captured=((Card(free[0]), Card(free[2])), *view.captured[1:]))
        differ_in_both(hand_forms(game, one), hand_forms(game, other))
    from diloti.games.diloti.envs.observation import describe_view, observe
    from diloti.games.diloti.state import State

    view = State.new(seed=4).view(0)
    free = [c for c in range(52) if c not in view.hand and c not in view.table]
    one = replace(view, captured=((Card(free[0]), Card(free[1])), ()))
    other = replace(view, captured=((Card(free[0]), Card(free[2])), ()))
    assert describe_view(one) != describe_view(other)
    assert observe(one).tobytes() != observe(other).tobytes()


def test_a_xeri_pile_in_another_order_and_a_jacks_xeri_show_in_both_forms() -> None:
    game = pyspiel.load_game("python_xeri")
    forms = []
    for pile in ("4C 9H KD 7S", "9H 4C KD 7S"):
        state = game.new_initial_state()
        for c in [*range(12), *parse_cards(pile)]:
            state.apply_action(int(c))
        forms.append((state.observation_string(0), np.asarray(state.observation_tensor(0)).tobytes()))
    differ_in_both(*forms)
    from diloti.games import find_game

    view = find_game("xeri").new_state(2, seed=4).view(0)
    differ_in_both(hand_forms("xeri", replace(view, sweeps=(1, 0), jack_xeri=(1, 0))),
                   hand_forms("xeri", replace(view, sweeps=(1, 0), jack_xeri=(0, 0))))


def test_the_dealers_bottom_card_once_dealt_and_scores_past_the_target_are_alike_in_both_forms() -> None:
    from diloti.games.diloti.envs.observation import describe_view, observe
    from diloti.games.diloti.options import Options
    from diloti.games.diloti.state import State

    view = State.new(options=Options(dealer_sees_bottom=True), seed=4).view(0)
    a, b = (replace(view, bottom=c) for c in view.hand[:2])  # dealt to the dealer: no longer the stock's
    assert observe(a).tobytes() == observe(b).tobytes() and describe_view(a) == describe_view(b)
    in_stock = next(c for c in range(52) if c not in view.hand and c not in view.table)
    c = replace(view, bottom=Card(in_stock))
    assert observe(c).tobytes() != observe(a).tobytes() and describe_view(c) != describe_view(a)
    game = pyspiel.load_game("python_diloti", {"episode": "game"})
    forms = []
    for scores in ((65, 65), (70, 70), (60, 60)):
        state = game.new_initial_state()
        state.scores = scores  # equal totals past the target play on: only the round decides
        forms.append((state.observation_string(0), np.asarray(state.observation_tensor(0)).tobytes()))
    assert forms[0] == forms[1]
    differ_in_both(forms[0], forms[2])
