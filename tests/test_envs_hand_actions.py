"""The one-card games' action ids (Xeri's, Kontsina's encodings on the generic HandDecision): every legal move
has exactly one action sequence, on random positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from diloti.core.cards import Card, parse_cards
from diloti.core.moves import CAPTURE, Move
from diloti.envs.actions import InvalidActionError
from diloti.games.kontsina.envs import ENCODING as KONTSINA
from diloti.games.kontsina.envs import ITEM as KONTSINA_ITEM
from diloti.games.kontsina.rules import KontsinaOptions, KontsinaState
from diloti.games.onecard.envs.actions import HandDecision, HandEncoding
from diloti.games.onecard.state import HandState
from diloti.games.xeri.envs import ENCODING as XERI
from diloti.games.xeri.rules import XeriOptions, XeriState

SEATINGS: list[tuple[type[HandState], int, Any]] = [
    (XeriState, 2, XeriOptions()),
    (XeriState, 4, XeriOptions(partnerships=True, xeri_jack_double=True)),
    (KontsinaState, 2, KontsinaOptions()),
    (KontsinaState, 2, KontsinaOptions(forced_capture=True)),
    (KontsinaState, 3, KontsinaOptions()),
    (KontsinaState, 4, KontsinaOptions()),
    (KontsinaState, 4, KontsinaOptions(partnerships=True, forced_capture=True)),
]


ENCODINGS: dict[str, HandEncoding] = {"xeri": XERI, "kontsina": KONTSINA}


def walk(d: HandDecision, path: list[int], out: list[tuple[list[int], Move]]) -> None:
    """Every action sequence from ``d``'s step, each to the move it chooses."""
    acts = d.legal_actions()
    assert acts == sorted(set(acts)) and acts
    if d.head >= 0:
        assert len(acts) >= 2  # an item every open move takes next is no step
    for a in acts:
        e = d.copy()
        move = e.apply(a)
        if move is None:
            walk(e, [*path, a], out)
        else:
            out.append(([*path, a], move))


def positions(cls: type[HandState], players: int, options: Any, hands: int, lay_p: float) -> list[HandState]:
    """Positions along random hands; laying often lets Kontsina's table grow (more ways to capture)."""
    out = []
    for seed in range(hands):
        rng = random.Random(seed)
        s = cls.new(players, options, dealer=seed % players, seed=seed)
        while not s.is_over:
            out.append(s.copy())
            moves = s.legal_moves()
            lays = [m for m in moves if m.kind != CAPTURE] if rng.random() < lay_p else []
            s.push(rng.choice(lays or moves))
    return out


@pytest.mark.parametrize(("cls", "players", "options"), SEATINGS)
def test_every_legal_move_is_reached_exactly_once(cls: type[HandState], players: int, options: Any) -> None:
    game = cls.GAME
    encoding = ENCODINGS[game]
    n = encoding.num_actions
    most, checked = 0, 0
    for s in positions(cls, players, options, 15, 0.8):
        legal = s.legal_moves()
        d = HandDecision(encoding, legal)
        reached: list[tuple[list[int], Move]] = []
        walk(d, [], reached)
        assert sorted(m for _, m in reached) == sorted(legal)
        assert len({m for _, m in reached}) == len(legal)
        for path, m in reached:
            assert all(0 <= a < n for a in path)
            assert d.encode(m) == path and d.decode(path) == m
            assert path[0] == encoding.head(m)
            if game == "xeri":
                assert path == [m.card]
        most = max(most, max(len(p) for p, _ in reached))
        checked += 1
    assert checked > 600  # with the other seatings, thousands of positions
    assert most == 1 if game == "xeri" else most >= 2


def test_the_worked_example_of_the_rules() -> None:
    hands = [parse_cards("7S KH 10C 2D"), parse_cards("4D KC AH 9S")]
    used = set(hands[0] + hands[1] + parse_cards("3C 4H 4S 7D"))
    s = KontsinaState.from_parts(dealer=1, hands=hands, table=parse_cards("3C 4H 4S 7D"),
                                 stock=[c for c in range(52) if c not in used])
    d = HandDecision(KONTSINA, s.legal_moves())
    assert d.encode(Move.parse("7S x 7D")) == [2 * Card("7S") + 1, KONTSINA_ITEM + Card("7D")]
    assert d.encode(Move.parse("7S x 3C 4H")) == [2 * Card("7S") + 1, KONTSINA_ITEM + Card("3C"),
                                                  KONTSINA_ITEM + Card("4H")]
    assert d.encode(Move.parse("10C x 3C 7D")) == [2 * Card("10C") + 1]
    assert d.encode(Move.parse("KH")) == [2 * Card("KH")]


def test_an_action_the_mask_does_not_allow_is_refused_naming_it() -> None:
    s = XeriState.new(seed=2)
    d = HandDecision(XERI, s.legal_moves())
    other = next(c for c in range(52) if c not in s.hands[s.turn])
    with pytest.raises(InvalidActionError, match=f"illegal action {other} \\(play "):
        d.apply(other)
    with pytest.raises(InvalidActionError, match="out of range"):
        d.apply(52)
    with pytest.raises(InvalidActionError, match="invalid action 156 for kontsina"):
        KONTSINA.describe(156)
    with pytest.raises(InvalidActionError, match="not among the legal moves"):
        d.encode(Move.parse("AC" if Card(0) not in s.hands[s.turn] else "KS"))
