"""Why a move lost (diloti.ai.reasons): each reason type on a constructed position where it must appear, and on one
where it must not; the reasons read only the mover's view (the search's worlds), in every game by its capabilities.

The positions are late in a round (the stock empty, every other card captured), so the unseen cards are exactly the
other hand: the worlds searched are the true one, and what the rollouts do there is what the reason says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from diloti.ai.reasons import CODES, card_points, explain
from diloti.core.cards import parse_card, parse_cards
from diloti.core.moves import PLAIN, Declaration, Move
from diloti.games.diloti.state import State
from diloti.games.kontsina.rules import KontsinaState
from diloti.games.xeri.rules import XeriState

pytestmark = pytest.mark.timeout(120)

WORLDS = 12


def _rest(used: Sequence[str]) -> list[int]:
    taken = {int(parse_card(x)) for x in used}
    return [k for k in range(52) if k not in taken]


def diloti(h0: list[str], h1: list[str], table: list[str], piles: Sequence[tuple[list[str], int, int]] = ()) -> State:
    """A 2-player Diloti position, seat 0 to move, the stock empty, every other card captured (half each)."""
    pile_cards = [c for cards, _, _ in piles for c in cards]
    rest = _rest([*h0, *h1, *table, *pile_cards])
    decls = [Declaration(sum(1 << int(parse_card(c)) for c in cards), value, PLAIN, owner)
             for cards, value, owner in piles]
    return State.from_parts(hands=[[parse_card(x) for x in h0], [parse_card(x) for x in h1]],
                            table=[parse_card(x) for x in table], declarations=decls, turn=0, stock=[],
                            captured=[rest[: len(rest) // 2], rest[len(rest) // 2:]], last_capturer=1,
                            plays=48 - len(h0) - len(h1))


def onecard(cls: Any, h0: list[str], h1: list[str], table: list[str]) -> Any:
    """The same for a one-card game (``table``: the pile, bottom first)."""
    rest = _rest([*h0, *h1, *table])
    return cls.from_parts(hands=[[parse_card(x) for x in h0], [parse_card(x) for x in h1]],
                          table=[parse_card(x) for x in table], turn=0, stock=[],
                          captured=[rest[: len(rest) // 2], rest[len(rest) // 2:]], last_capturer=1)


def codes(state: Any, played: str, best: str, seed: int = 1) -> list[str]:
    view = state.view(0)
    moves = {str(m): m for m in view.legal}
    assert played in moves and best in moves, sorted(moves)
    return [r.code for r in explain(view, moves[played], moves[best], WORLDS, seed)]


def test_sweep_left_when_the_other_side_can_sweep_what_the_move_leaves() -> None:
    # Laying 5H makes 4S + 5H = 9 on the table, and the other hand holds 9C: it sweeps.
    assert "sweep_left" in codes(diloti(["5H", "KD"], ["9C", "QS"], ["4S"]), "5H", "KD")
    # The other hand has no 9 (nor a 4 or 5 to sweep a part): nothing to sweep.
    assert "sweep_left" not in codes(diloti(["5H", "KD"], ["8C", "QS"], ["4S"]), "5H", "KD")


def test_sweep_missed_when_the_best_move_clears_the_table() -> None:
    assert "sweep_missed" in codes(diloti(["9D", "KD"], ["8C", "QS"], ["4S", "5H"]), "KD", "9D x 4S 5H")
    # 7C stays on the table after 9D x 4S 5H: no sweep to miss.
    assert "sweep_missed" not in codes(diloti(["9D", "KD"], ["8C", "QS"], ["4S", "5H", "7C"]), "KD",
                                       "9D x 4S 5H")


def test_card_given_when_the_other_side_takes_a_point_card_the_best_move_keeps() -> None:
    # 10D is 2 points: capture it now, or lay 3C and the other hand's 10H takes it.
    state = diloti(["10S", "3C"], ["10H", "4H"], ["10D", "6S"])
    reasons = explain(state.view(0), Move.parse("3C"), Move.parse("10S x 10D"), WORLDS, 1)
    given = [r for r in reasons if r.code == "card_given"]
    assert given and given[0].params["card"] == "10D" and given[0].params["points"] == 2
    assert given[0].params["best_share"] == 1.0 and given[0].params["theirs"] >= 0.75
    # No other 10 out: the 10D waits for 10S next turn whichever is played first.
    assert "card_given" not in codes(diloti(["10S", "3C"], ["8H", "4H"], ["10D", "6S"]), "3C", "10S x 10D")


def test_declaration_lost_when_the_other_side_can_take_it() -> None:
    pile = (["4S", "5S"], 9, 0)  # seat 0's plain declaration of 9
    assert "declaration_lost" in codes(diloti(["9H", "2H"], ["9C", "7D"], ["2D", "KC"], [pile]), "2H x 2D",
                                       "9H x 4S 5S")
    # No 9 in the other hand (and no ace to raise it to 10): the declaration is safe either way.
    assert "declaration_lost" not in codes(diloti(["9H", "2H"], ["8C", "7D"], ["2D", "KC"], [pile]), "2H x 2D",
                                           "9H x 4S 5S")


def test_cards_when_the_best_move_brings_clearly_more_cards() -> None:
    # 9D takes four cards now; laid KD leaves them to the other hand's 9C.
    state = diloti(["9D", "KD"], ["9C", "QS"], ["2S", "3S", "4S", "JC"])
    reasons = explain(state.view(0), Move.parse("KD"), Move.parse("9D x 2S 3S 4S"), WORLDS, 1)
    cards = [r for r in reasons if r.code == "cards"]
    # 22 cards each before: the four decide the majority of cards (4 points each way).
    assert cards and cards[0].params["more"] >= 4 and cards[0].params["majority"] >= 4, reasons
    # The same cards taken, one way or another.
    assert "cards" not in codes(diloti(["9D", "KD"], ["8C", "QS"], ["2S", "3S", "4S", "JC"]), "9D x 2S 3S 4S",
                                "9D x 2S 3S 4S")


def test_margin_only_when_nothing_stands_out() -> None:
    state = diloti(["7H", "6S", "KD"], ["8C", "QS", "JD"], ["3S"])
    reasons = explain(state.view(0), Move.parse("6S"), Move.parse("7H"), WORLDS, 1, lost=1.25)
    assert [r.code for r in reasons] == ["margin"] and "1.25 points" in reasons[0].text
    assert "margin" not in codes(diloti(["5H", "KD"], ["9C", "QS"], ["4S"]), "5H", "KD")


def test_xeri_sweeps_are_its_xeris() -> None:
    # The pile is empty: a lone 7C laid is taken by the other hand's 7S, a xeri.
    assert "sweep_left" in codes(onecard(XeriState, ["7C", "4D"], ["7S", "QH"], []), "7C", "4D")
    assert "sweep_left" not in codes(onecard(XeriState, ["7C", "4D"], ["8S", "QH"], []), "7C", "4D")
    # A lone 5H on the pile: 5D takes it as a xeri.
    assert "sweep_missed" in codes(onecard(XeriState, ["5D", "9C"], ["8S", "QH"], ["5H"]), "9C", "5D x 5H")


def test_kontsina_counts_no_sweeps_but_gives_cards() -> None:
    # Kontsina captures by matching or by sum, as Diloti: laid 3H leaves 10D to the other hand's 10H.
    state = onecard(KontsinaState, ["10S", "3H"], ["10H", "4H"], ["10D", "6S"])
    found = codes(state, "3H", "10S x 10D")
    assert "card_given" in found
    assert "sweep_left" not in found and "sweep_missed" not in found  # Kontsina has no xeri


def test_card_points_are_the_games_own() -> None:
    from diloti.ai.games import game_players

    for state in (diloti(["5H"], ["9C"], []), onecard(XeriState, ["7C"], ["7S"], [])):
        points = card_points(state)
        assert points[int(parse_card("10D"))] > 0 and points[int(parse_card("5H"))] == 0
    assert game_players("diloti") is not None


def test_the_reasons_read_only_the_view() -> None:
    """The other hand's cards are never read: two positions that differ only in hidden cards (the stock not
    empty) give the same reasons."""
    base = ["5H", "KD", "9C", "QS", "4S"]
    rest = _rest(base)
    stock_a, stock_b = rest[:4], rest[4:8]
    seen = rest[8:]

    def position(h1: list[int], stock: list[int], captured: list[int]) -> State:
        return State.from_parts(hands=[[parse_card("5H"), parse_card("KD")], h1], table=[parse_card("4S")], turn=0,
                                stock=stock, captured=[captured[: len(captured) // 2], captured[len(captured) // 2:]],
                                last_capturer=1, check=False)

    a = position([*stock_b[:2]], stock_a + stock_b[2:], seen)
    b = position([*stock_a[:2]], stock_b + stock_a[2:], seen)
    ra = [r.to_dict() for r in explain(a.view(0), Move.parse("5H"), Move.parse("KD"), WORLDS, 3)]
    rb = [r.to_dict() for r in explain(b.view(0), Move.parse("5H"), Move.parse("KD"), WORLDS, 3)]
    assert ra == rb


def test_codes_are_listed() -> None:
    assert set(CODES) >= {"sweep_left", "sweep_missed", "xeris", "card_given", "declaration_lost", "cards", "margin",
                          "exact"}


def test_a_reviewed_decision_carries_its_reasons_and_an_exact_one_says_so() -> None:
    from diloti.ai.review import EXACT_REASON, Point, review_decision

    state = diloti(["5H", "KD"], ["9C", "QS"], ["4S"])  # the stock empty, 2 players: the exact solver judges
    view = state.view(0)
    d = review_decision(Point(1, 46, 1, view, Move.parse("5H")), worlds=WORLDS, seed=1)
    assert d.exact and d.mark is not None
    assert d.reasons[0] == {"code": "exact", "text": EXACT_REASON, "params": {}}
    assert "sweep_left" in [r["code"] for r in d.reasons[1:]]
    good = review_decision(Point(1, 46, 1, view, Move.parse("KD")), worlds=WORLDS, seed=1)
    assert good.mark is None and [r["code"] for r in good.reasons] == ["exact"]  # nothing to explain but the verdict


def test_a_searched_review_explains_only_its_marked_moves() -> None:
    from diloti.ai.review import review_record
    from diloti.games.diloti.formats.record import GameRecord
    from diloti.games.diloti.game import Game
    from diloti.games.diloti.options import Options

    g = Game(seed=7, options=Options(target=11))
    rng = __import__("random").Random(7)
    while not g.is_over:
        g.push(rng.choice(g.state.legal_moves()))
    rev = review_record(GameRecord.from_game(g), seats=[0], worlds=4, seed=2)
    marked = [d for d in rev.decisions if d.mark]
    assert marked, "random play makes mistakes"
    for d in rev.decisions:
        codes_ = [r["code"] for r in d.reasons if r["code"] != "exact"]
        assert bool(codes_) == (d.mark is not None), d
        assert set(codes_) <= set(CODES)
    assert all("reasons" in d for d in rev.to_dict()["decisions"])


def test_an_exact_verdicts_reasons_follow_the_solvers_line() -> None:
    # Seen in a browser game: 2C + AD = 3 loses 14 points against 3H + AD 4S = 8 with best play (the last capture
    # takes the table, 10D with it); the rollouts' play misses that, the solver's line shows it.
    state = diloti(["2C", "3H", "8D"], ["AS", "QS"], ["4S", "6D", "9S", "10D", "QC", "AD"])
    view = state.view(0)
    played, best = Move.parse("2C + AD = 3"), Move.parse("3H + AD 4S = 8")
    reasons = explain(view, played, best, WORLDS, 1, lost=14.0, exact=True)
    given = [r for r in reasons if r.code == "card_given"]
    assert given and given[0].params == {"line": True, "card": "10D", "points": 2, "best_share": 1.0, "share": 0.0,
                                         "theirs": 1.0}
    assert "cards" in [r.code for r in reasons] and all(r.params.get("line") for r in reasons)
    # Not exact (the stock not empty): the worlds and rollouts, never the solver.
    assert not any(r.params.get("line") for r in explain(view, played, best, WORLDS, 1, lost=14.0))


def test_xeris_later_in_the_round_when_no_sweep_is_next() -> None:
    # Found by the solver in a random game and written out whole: laying 4H loses a xeri later in the round (not the
    # very next move's), where taking a face card keeps it.
    cap0 = parse_cards("AS 2C 2D 2H 3C 3D 3S 5S 7C 7D 7H 7S 8C 8S 9C 9D 9S 10H 10S JC JS KD KS")
    cap1 = parse_cards("AC AH 2S 3H 4C 4D 5D 5H 6C 6D 6H 8D 9H 10C 10D JD JH QD QS")
    pile = Declaration((1 << int(parse_card("AD"))) | (1 << int(parse_card("4S"))), 5, PLAIN, 0)
    state = State.from_parts(hands=[parse_cards("5C 6S 8H"), parse_cards("4H QH KH")],
                             table=[parse_card("QC"), parse_card("KC")], declarations=[pile], turn=1, stock=[],
                             captured=[cap0, cap1],
                             last_capturer=0, plays=42)
    view = state.view(1)
    found = explain(view, Move.parse("4H"), Move.parse("QH x QC"), WORLDS, 1, exact=True)
    assert [r.code for r in found] == ["xeris"] and found[0].params == {"line": True, "more": 1.0}
    # Either face card taken: the same xeris follow.
    assert "xeris" not in [r.code for r in explain(view, Move.parse("KH x KC"), Move.parse("QH x QC"), WORLDS, 1,
                                                   exact=True)]
