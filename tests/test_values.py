"""Engine values for research: every public value pickles, copies and deep-copies to an equal value."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Protocol, TypeVar

import pytest

from diloti.core.cards import CARDS, Card
from diloti.core.moves import CAPTURE, GROUP, KEEP, PLAIN, REDEAL, Declaration, Move
from diloti.games.diloti.formats.record import GameRecord, read_record
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.games.diloti.scoring import Side
from diloti.games.diloti.state import State
from diloti.games.diloti.table import _BY_ID

T = TypeVar("T")


class RoundTrip(Protocol):
    """A copy of a value by one way or another: of the same type as the value."""

    def __call__(self, value: T, /) -> T: ...


ROUND_TRIPS: list[tuple[str, RoundTrip]] = [
    ("pickle", lambda v: pickle.loads(pickle.dumps(v))),
    ("copy", copy.copy),
    ("deepcopy", copy.deepcopy),
]


def mid_round(players: int, seed: int, options: Options | None = None) -> State:
    rng = random.Random(seed)
    s = State.new(players, options, seed=seed)
    for _ in range(rng.randrange(5, 30)):
        if s.is_over:
            break
        s.push(rng.choice(s.legal_moves()))
    return s


@pytest.mark.parametrize("name,trip", ROUND_TRIPS, ids=[n for n, _ in ROUND_TRIPS])
def test_small_values_round_trip_equal(name: str, trip: RoundTrip) -> None:
    values: list[object] = [
        Card("10D"), CARDS[0], Move(Card("9D"), CAPTURE, 9, 3 << 12), Move(None, KEEP), Move(None, REDEAL),
        Declaration(3 << 8, 6, PLAIN, 1), Declaration(0b11 << 12, 4, GROUP, 0),
        Options(), Options(liberal_raise=True, target=121, face_card_redeal="any_deal"),
        Side(27, 4, 2, 2, 0, 1),
    ]
    for v in values:
        out = trip(v)
        assert out == v and type(out) is type(v), (name, v)
        assert repr(out) == repr(v)


@pytest.mark.parametrize("name,trip", ROUND_TRIPS, ids=[n for n, _ in ROUND_TRIPS])
@pytest.mark.parametrize("players", [2, 4])
def test_states_and_views_round_trip_and_play_on_alike(name: str, trip: RoundTrip, players: int) -> None:
    for seed in range(25):
        opts = Options(dealer_sees_bottom=bool(seed & 1), liberal_groups=bool(seed & 2), soy=bool(seed & 4))
        s = mid_round(players, seed, opts)
        out = trip(s)
        assert out == s and out.legal_moves() == s.legal_moves()
        assert out.history == s.history
        for seat in range(players):
            assert trip(s.view(seat)) == s.view(seat)
        # The copy is independent and keeps its undo stack: play on both, take back on both.
        if not s.is_over:
            m = s.legal_moves()[-1]
            out.push(m)
            assert out != s
            out.pop()
            assert out == s
            if s.history:
                assert out.pop() == s.pop() and out == s


def test_a_state_carries_no_shape_cache_and_stays_small() -> None:
    s = mid_round(2, 3)
    s.legal_moves()
    data = pickle.dumps(s)
    assert len(data) < 5_000
    assert b"ShapeCache" not in data and b"TableInfo" not in data
    assert all(not hasattr(s, name) for name in ("_shapes", "shapes"))
    assert _BY_ID  # the cache is process state, shared by every state of the same options


def test_game_and_record_round_trip() -> None:
    g = Game(2, seed=9)
    rng = random.Random(9)
    while g.winner is None and len(g.rounds) < 2:
        g.play(rng.choice(g.state.legal_moves()))
    record = read_record(GameRecord.from_game(g, names=['A', 'B']).dumps())
    for _, trip in ROUND_TRIPS:
        out = trip(g)
        assert out.state == g.state and out.rounds == g.rounds and out.scores == g.scores
        assert trip(record) == record
        assert trip(g.rounds[0]) == g.rounds[0]
