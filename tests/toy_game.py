"""A fourth game, defined only here, that proves the games' seam: *Pairs*, a toy fishing game.

It has the three parts a game brings for the floors above its rules, each written here: its
formats are the one-card games' shared ones (``diloti.games.onecard.FORMATS``); its card sense for the computer
players (:class:`PairsPlayers`, on :mod:`diloti.games.onecard.players`) and its environments' action ids
and observation (:data:`ENV`, on :mod:`diloti.games.onecard.envs`) are this module's own.

Rules (a few, on purpose): 2 players, 4 cards each per deal and 4 face up on the table; a
played card takes one table card of its own rank (a pair), or is laid on the table; a capture
that clears the table scores a sweep; the last capturer takes what is left at the end. A hand
scores one point per card taken and one per sweep; the first side to ``target`` (11) points
alone at the top wins. Nothing outside this module knows the game: it joins the registry with
``diloti.core.registry.register_game`` (see :func:`registered_pairs`) and every floor reaches it
through the interface.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from diloti.core.cards import BIT, NAMES, VALUE, Card
from diloti.core.errors import InvalidPositionError
from diloti.core.moves import CAPTURE, LAY, Move
from diloti.core.registry import GameInfo, registered
from diloti.core.rule_options import MAX_TARGET, RuleOptions, option
from diloti.games.onecard import FORMATS
from diloti.games.onecard.envs import HandEnv
from diloti.games.onecard.envs.actions import HandEncoding
from diloti.games.onecard.envs.observation import COMMON_TAIL, Board, HandLayout, Seen
from diloti.games.onecard.game import HandsGame, points_winner
from diloti.games.onecard.players import HandPlayers, lead_chance
from diloti.games.onecard.state import HandState

NAME = "pairs"


@dataclass(frozen=True, slots=True)
class PairsOptions(RuleOptions):
    """Pairs' options: the target, and whether a sweep scores."""

    GAME: ClassVar[str] = NAME
    MAXIMUM: ClassVar[dict[str, int]] = {"target": MAX_TARGET}

    target: int = option(11, "points that win the game")
    no_sweeps: bool = option(False, "a capture that clears the table scores nothing extra")


@dataclass(frozen=True)
class PairsSide:
    """One side's hand score: a point a card taken, a point a sweep."""

    cards: int
    sweeps: int

    @property
    def total(self) -> int:
        return self.cards + self.sweeps

    def line(self) -> str:
        return f"cards {self.cards} sweeps {self.sweeps} = {self.total}"


class PairsState(HandState):
    """One hand of Pairs."""

    GAME: ClassVar[str] = NAME
    HAND_SIZE: ClassVar[int] = 4
    OPTIONS: ClassVar[type[Any]] = PairsOptions
    POSITION_COUNTS: ClassVar[tuple[str, ...]] = ("xeri",)  # its sweeps, as the one-card games' positions name them
    __slots__ = ()
    options: PairsOptions

    @classmethod
    def check_players(cls, players: int, options: Any) -> int:
        if players != 2:
            raise InvalidPositionError(f"invalid number of players {players!r} for pairs: expected 2")
        return 2

    def _lay_first_table(self) -> None:
        pos = self.stock_pos
        self.table = sorted(self.stock[pos:pos + 4])
        self.stock_pos = pos + 4

    def _generate(self) -> list[Move]:
        out: list[Move] = []
        for c in self.hands[self.turn]:
            # A move's value is the card's (as notation reads it back: Move.parse), its mask the cards taken.
            caps = [Move(c, CAPTURE, VALUE[c], BIT[t]) for t in self.table if t >> 2 == c >> 2]
            out.extend(caps or [Move(c, LAY, VALUE[c], 0)])
        return out

    def _apply(self, turn: int, move: Move, last: bool) -> None:
        card, kind, _, mask = move
        assert card is not None
        if kind == CAPTURE:
            self.table = [c for c in self.table if not BIT[c] & mask]
            self._capture(turn, mask | BIT[card])
            if not self.table and not last and not self.options.no_sweeps:
                sweeps = self.sweeps = self.sweeps.copy()  # the frame's per-side count of table-clearing captures
                sweeps[turn % self.sides] += 1
        else:
            table = self.table = self.table.copy()
            insort(table, card)

    def score(self) -> tuple[PairsSide, ...]:
        return tuple(PairsSide(m.bit_count(), self.sweeps[i]) for i, m in enumerate(self.captured))


class PairsGame(HandsGame):
    """Hands of Pairs until a side reaches the target alone at the top."""

    STATE: ClassVar[type[HandState]] = PairsState

    @staticmethod
    def decide(options: Any, hands: Sequence[Sequence[int]]) -> int | None:
        return points_winner(hands, options.target)


# ---------------------------------------------------------------- its players part
class PairsPlayers(HandPlayers):
    """Pairs' card sense: every card taken is a point, so a take is worth its cards; a sweep one more."""

    def card_value(self, mask: int) -> float:
        return float(mask.bit_count())

    def best_take(self, table: Sequence[Card], rank: int) -> float:
        return 2.0 if any(t >> 2 == rank for t in table) else 0.0

    def expected_points(self, st: HandState, i: int) -> float:
        counts = [c.bit_count() for c in st.captured]
        return counts[i] + st.sweeps[i] + 0.5 * lead_chance(counts, 52, i)


PART = PairsPlayers()  # the part for the players' floor (diloti.ai.games.game_players finds PART)


# ------------------------------------------------------------------- its envs part
def head(move: Move) -> int:
    """A head action: ``2 * card`` lays the card, ``2 * card + 1`` takes its pair (one capture a card at most
    but for two table cards of its rank: then an item action names which)."""
    card = move[0]
    assert card is not None
    return 2 * card + (1 if move[1] == CAPTURE else 0)


def describe_head(action: int) -> str:
    return f"{NAMES[action >> 1]} {'takes' if action & 1 else 'laid'}"


OBSERVATION = (
    ("hand", 52, "own hand"),
    ("table", 52, "the table"),
    ("captured", 2 * 52, "each side's captures, own side first"),
    ("unseen", 52, "cards the seat has not seen"),
    ("hand_sizes", 4, "cards in each hand / 4, by relative seat"),
    ("stock", 1, "undealt cards / 52"),
    ("captured_counts", 2, "cards captured by each side / 52"),
    ("sweeps", 2, "each side's sweeps / 10"),
    *COMMON_TAIL,
    ("deal", 6, "the deal, one-hot 1..6"),
    ("plays", 1, "cards played / 48"),
)


def fill(view: Board, head: int, chosen: int, seen: Seen, tail: list[float], at: dict[str, int]) -> Sequence[int]:
    for i, n in enumerate(view.sweeps):
        tail[at["sweeps"] + i] = n / 10.0
    return [seen.hand, seen.table, seen.caps[0], seen.caps[1], seen.unseen]


ENV = HandEnv(NAME, HandEncoding(NAME, 104, head, describe_head, items=True),
              HandLayout(OBSERVATION, planes=5, hand_size=4, fill=fill), max_points=52 + 24, max_steps=48 + 52)


PAIRS = GameInfo(NAME, PairsState, PairsGame, PairsOptions, (2,), "tests/toy_game.py", "hand",
                 {"formats": FORMATS, "players": __name__, "envs": __name__},
                 side=PairsSide)  # its score of a hand, as the server's replies describe it


@contextmanager
def registered_pairs() -> Iterator[GameInfo]:
    """Pairs in the registry for the duration of a ``with`` block."""
    with registered(PAIRS) as info:
        yield info
