"""Kontsina: Diloti without declarations and without xeri, for 2 to 4 players.

The rules are docs/RULES-KONTSINA.md, every settled point included. A played
card either lays, or takes one table card of its rank (a match, the only
capture of a face card), or, if a numeral, takes one set of two or more table
numerals adding up to its value. Capturing is optional unless
``forced_capture``. Every player scores alone unless ``partnerships``.

The legal moves of the worked example (RULES-KONTSINA.md section 10):

>>> from diloti.core.cards import parse_cards
>>> hands = [parse_cards("7S KH 10C 2D"), parse_cards("4D KC AH 9S")]
>>> used = set(hands[0] + hands[1] + parse_cards("3C 4H 4S 7D"))
>>> s = KontsinaState.from_parts(dealer=1, hands=hands, table=parse_cards("3C 4H 4S 7D"),
...                              stock=[c for c in range(52) if c not in used])
>>> [str(m) for m in s.legal_moves()]
['2D', '7S', '7S x 7D', '7S x 3C 4H', '7S x 3C 4S', '10C', '10C x 3C 7D', 'KH']
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from diloti.core.cards import BIT, VALUE
from diloti.core.errors import InvalidPositionError
from diloti.core.moves import CAPTURE, LAY, Move
from diloti.core.rule_options import MAX_TARGET, RuleOptions, option
from diloti.games.onecard.game import HandsGame, points_winner
from diloti.games.onecard.state import HandState, strict_most

CLUBS = sum(1 << (4 * r) for r in range(13))
TEN_OF_DIAMONDS_BIT = BIT[37]
TWO_OF_CLUBS_BIT = BIT[4]


@dataclass(frozen=True, slots=True)
class KontsinaOptions(RuleOptions):
    """The named options of RULES-KONTSINA.md section 9; all off by default.

    >>> KontsinaOptions(target=31, forced_capture=True).to_text()
    'target=31 forced_capture'
    """

    GAME: ClassVar[str] = "kontsina"
    MAXIMUM: ClassVar[dict[str, int]] = {"target": MAX_TARGET}

    target: int = option(21, "points that win the game")
    forced_capture: bool = option(False, "a played card that can capture must capture (the player picks which)")
    partnerships: bool = option(False, "4 players only: seats 0+2 and 1+3 are partners and score together")


@dataclass(frozen=True)
class KontsinaSide:
    """One side's hand score in Kontsina (RULES-KONTSINA.md section 7)."""

    cards: int
    cards_points: int  # 2 for strictly the most cards
    clubs: int
    clubs_points: int  # 1 for strictly the most clubs
    two_of_clubs: int
    ten_of_diamonds: int

    @property
    def total(self) -> int:
        return self.cards_points + self.clubs_points + self.two_of_clubs + self.ten_of_diamonds

    def line(self) -> str:
        """The side's part of a record's score line.

        >>> KontsinaSide(30, 2, 8, 1, 1, 0).line()
        'cards 30 +2 clubs 8 +1 2C 1 10D 0 = 4'
        """
        return (f"cards {self.cards} +{self.cards_points} clubs {self.clubs} +{self.clubs_points} "
                f"2C {self.two_of_clubs} 10D {self.ten_of_diamonds} = {self.total}")


def score_kontsina(captured: Sequence[int]) -> tuple[KontsinaSide, ...]:
    """Every side's hand score from its captured cards (52-bit masks); a shared "most" scores for nobody.

    >>> from diloti.core.cards import mask_of
    >>> [s.total for s in score_kontsina([mask_of(range(20)), mask_of(range(20, 40)), mask_of(range(40, 52))])]
    [1, 1, 0]
    """
    cards = [m.bit_count() for m in captured]
    clubs = [(m & CLUBS).bit_count() for m in captured]
    most_cards, most_clubs = strict_most(cards), strict_most(clubs)
    return tuple(KontsinaSide(
        cards=cards[i], cards_points=2 if most_cards == i else 0, clubs=clubs[i],
        clubs_points=1 if most_clubs == i else 0, two_of_clubs=1 if m & TWO_OF_CLUBS_BIT else 0,
        ten_of_diamonds=1 if m & TEN_OF_DIAMONDS_BIT else 0,
    ) for i, m in enumerate(captured))


@lru_cache(maxsize=100_000)
def summing_sets(numerals: tuple[int, ...], value: int) -> tuple[int, ...]:
    """The masks of the sets of two or more of ``numerals`` (cards, ascending) whose values add up to ``value``.

    >>> from diloti.core.cards import cards_of, parse_cards
    >>> [" ".join(map(str, cards_of(m))) for m in summing_sets(tuple(parse_cards("AC AS 2C 3H 5D")), 5)]
    ['AC AS 3H', '2C 3H']
    """
    out: list[int] = []

    def walk(start: int, total: int, mask: int, count: int) -> None:
        for j in range(start, len(numerals)):
            c = numerals[j]
            t = total + VALUE[c]
            if t > value:
                return  # ascending: every later card is as large
            if t == value:
                if count >= 1:
                    out.append(mask | BIT[c])
            else:
                walk(j + 1, t, mask | BIT[c], count + 1)

    walk(0, 0, 0, 0)
    return tuple(out)


class KontsinaState(HandState):
    """One hand of Kontsina: 4 cards each per deal, 4 on the first table (never redealt)."""

    GAME: ClassVar[str] = "kontsina"
    HAND_SIZE: ClassVar[int] = 4
    OPTIONS: ClassVar[type[Any]] = KontsinaOptions
    SWEEPS: ClassVar[bool] = False  # no xeri in Kontsina
    MOVE_HELP: ClassVar[str] = ("Play by number, or in notation: 7S (lay), 7S x 7D (match), 9D x 4H 5C (a sum of two "
                                "or more numerals). One capture takes one thing; capturing is optional unless "
                                "--forced-capture.")
    __slots__ = ()
    options: KontsinaOptions

    @classmethod
    def check_players(cls, players: int, options: Any) -> int:
        if players not in (2, 3, 4):
            raise InvalidPositionError(f"invalid number of players {players!r} for kontsina: expected 2, 3 or 4")
        if options.partnerships:
            if players != 4:
                raise InvalidPositionError("invalid number of players for kontsina partnerships: expected 4")
            return 2
        return players

    def _lay_first_table(self) -> None:
        pos = self.stock_pos
        self.table = sorted(self.stock[pos:pos + 4])
        self.stock_pos = pos + 4

    def _generate(self) -> list[Move]:
        table = self.table
        numerals = tuple(c for c in table if c < 40)
        forced = self.options.forced_capture
        out: list[Move] = []
        for c in self.hands[self.turn]:
            rank, value = c >> 2, VALUE[c]
            caps = [Move(c, CAPTURE, value, BIT[t]) for t in table if t >> 2 == rank]
            if c < 40 and len(numerals) >= 2:
                caps.extend(Move(c, CAPTURE, value, m) for m in summing_sets(numerals, value))
            if not (forced and caps):
                out.append(Move(c, LAY, value, 0))
            out.extend(caps)
        return out

    def _apply(self, turn: int, move: Move, last: bool) -> None:
        card, kind, _, mask = move
        assert card is not None
        if kind == CAPTURE:
            self.table = [c for c in self.table if not BIT[c] & mask]
            self._capture(turn, mask | BIT[card])
        else:
            table = self.table = self.table.copy()
            insort(table, card)

    def score(self) -> tuple[KontsinaSide, ...]:
        """The hand's score per side (meaningful once the hand is over)."""
        return score_kontsina(self.captured)


class KontsinaGame(HandsGame):
    """A game of Kontsina: hands until a side reaches the target alone at the top (RULES-KONTSINA.md section 8).

    >>> g = KontsinaGame(players=3, seed=2)
    >>> while not g.is_over:
    ...     g.push(g.state.legal_moves()[-1])
    >>> g.winner in (0, 1, 2), max(g.scores) >= 21
    (True, True)
    """

    STATE: ClassVar[type[HandState]] = KontsinaState

    @staticmethod
    def decide(options: Any, hands: Sequence[Sequence[int]]) -> int | None:
        """The side alone with the highest total once a side has reached the target; None: play on.

        >>> KontsinaGame.decide(KontsinaOptions(), [(22, 22, 19)]), KontsinaGame.decide(KontsinaOptions(),
        ...     [(22, 22, 19), (1, 2, 2)])
        (None, 1)
        """
        return points_winner(hands, options.target)


__all__ = ["CLUBS", "KontsinaGame", "KontsinaOptions", "KontsinaSide", "KontsinaState", "score_kontsina",
           "summing_sets"]
