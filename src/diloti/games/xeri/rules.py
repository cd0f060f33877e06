"""Xeri: one pile, a card of the top card's rank (or any jack) takes it all; a lone card taken is a xeri.

The rules are docs/RULES-XERI.md, every settled point included. A move is the
card played: it captures when the pile is not empty and the card has the top
card's rank or is a jack (automatically: every card is a legal move with one
outcome), and otherwise goes on top of the pile. The table is the pile,
bottom first (its last card is the top).

>>> s = XeriState.new(seed=3)
>>> len(s.legal_moves()) == len(s.hands[s.turn]), s.stock_size
(True, 36)

The worked deal of RULES-XERI.md section 11:

>>> from diloti.core.cards import parse_cards
>>> s = XeriState.from_parts(dealer=1, hands=[parse_cards("7H 3S JH JD 2C QS"), parse_cards("3D JC 5C 8H 2D 6H")],
...     table=parse_cards("4C 9H KD 7S"), stock=[c for c in range(52) if c not in parse_cards(
...     "7H 3S JH JD 2C QS 3D JC 5C 8H 2D 6H 4C 9H KD 7S")][:36], check=False)
>>> for card in "7H 3D 3S JC JH 5C JD 8H 2C 2D QS 6H".split():
...     _ = s.play(card)
>>> [len(c) for c in s.view(0).captured], s.sweeps, s.table, s.turn
([11, 3], [2, 0], [Card('QS'), Card('6H')], 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial
from typing import Any, ClassVar

from diloti.core.cards import BIT, VALUE, Card, mask_of
from diloti.core.errors import InvalidPositionError
from diloti.core.moves import CAPTURE, LAY, Move
from diloti.core.rule_options import MAX_TARGET, RuleOptions, option
from diloti.games.onecard.game import HandsGame, points_winner
from diloti.games.onecard.state import HandState
from diloti.games.onecard.view import HandView

JACK = 10  # a card's rank index (card >> 2) for the jacks
HONOURS = 0xF | 0xFFFF << 36  # the aces, tens, jacks, queens and kings: 1 point each
TEN_OF_DIAMONDS_BIT = BIT[37]
TWO_OF_CLUBS_BIT = BIT[4]


@dataclass(frozen=True, slots=True)
class XeriOptions(RuleOptions):
    """The named options of RULES-XERI.md section 10; all off by default.

    >>> XeriOptions(xeri_jack_double=True, hands=6).to_text()
    'xeri_jack_double hands=6'
    >>> XeriOptions.from_text("game_by_points target=151").changed()
    {'game_by_points': True, 'target': 151}
    >>> XeriOptions(hands=0)
    Traceback (most recent call last):
    ...
    diloti.core.errors.OptionsError: invalid xeri option hands=0: expected 1..1000
    """

    GAME: ClassVar[str] = "xeri"
    MAXIMUM: ClassVar[dict[str, int]] = {"target": MAX_TARGET, "hands": 1000}
    DEFAULT_NOTES: ClassVar[dict[str, str]] = {"target": "101 with --game-by-points"}  # the target counts only then

    xeri_jack_double: bool = option(False, "a xeri made by a jack on a lone jack scores 20")
    game_by_points: bool = option(False, "the game is decided by points to the target, not by hands won")
    target: int = option(101, "the points that win with game_by_points")
    hands: int = option(10, "the hands in a game decided by hands won")
    no_xeri_last_card: bool = option(False, "the last card of the hand scores no xeri (its capture still counts)")
    pile_any_pair_redeal: bool = option(
        False, "the first pile is also redealt when any two of its four cards share a rank")
    partnerships: bool = option(False, "4 players, seats 0+2 and 1+3 partners")


@dataclass(frozen=True)
class XeriSide:
    """One side's hand score in Xeri (RULES-XERI.md section 8)."""

    cards: int
    cards_points: int  # 3 for strictly more cards
    honours: int  # aces, kings, queens, jacks and tens: 1 each
    ten_of_diamonds: int  # 1 more for the 10D
    two_of_clubs: int
    xeri: int
    jack_xeri: int  # of the xeris, those made by a jack on a lone jack
    xeri_points: int

    @property
    def total(self) -> int:
        return self.cards_points + self.honours + self.ten_of_diamonds + self.two_of_clubs + self.xeri_points

    def line(self) -> str:
        """The side's part of a record's score line.

        >>> XeriSide(28, 3, 12, 1, 1, 2, 1, 20).line()
        'cards 28 +3 honours 12 10D 1 2C 1 xeri 2 jacks 1 = 37'
        """
        return (f"cards {self.cards} +{self.cards_points} honours {self.honours} 10D {self.ten_of_diamonds} "
                f"2C {self.two_of_clubs} xeri {self.xeri} jacks {self.jack_xeri} = {self.total}")


def score_xeri(captured: Sequence[int], xeri: Sequence[int], jack_xeri: Sequence[int],
               options: XeriOptions) -> tuple[XeriSide, XeriSide]:
    """Both sides' hand scores from their captured cards (52-bit masks) and xeri counts.

    The worked hand of RULES-XERI.md section 11 (28 v 24 cards, 2 xeris v 1):

    >>> from diloti.core.cards import mask_of, parse_cards
    >>> a = mask_of(parse_cards("AC AD AH KC KD QC QD QH JC JD 10C 10D 2C")) | mask_of(range(8, 23))
    >>> b = mask_of(parse_cards("AS KH KS QS JH JS 10H 10S")) | mask_of(range(23, 36)) | mask_of(range(5, 8))
    >>> [s.total for s in score_xeri([a, b], [2, 1], [1, 0], XeriOptions())]
    [37, 18]
    >>> [s.total for s in score_xeri([a, b], [2, 1], [1, 0], XeriOptions(xeri_jack_double=True))]
    [47, 18]
    """
    counts = [captured[0].bit_count(), captured[1].bit_count()]
    out = []
    for side in (0, 1):
        m = captured[side]
        bonus = 10 * jack_xeri[side] if options.xeri_jack_double else 0
        out.append(XeriSide(
            cards=counts[side], cards_points=3 if counts[side] > counts[1 - side] else 0,
            honours=(m & HONOURS).bit_count(), ten_of_diamonds=1 if m & TEN_OF_DIAMONDS_BIT else 0,
            two_of_clubs=1 if m & TWO_OF_CLUBS_BIT else 0, xeri=xeri[side], jack_xeri=jack_xeri[side],
            xeri_points=10 * xeri[side] + bonus,
        ))
    return out[0], out[1]


def pile_must_be_redealt(pile: Sequence[Card], any_pair: bool = False) -> bool:
    """RULES-XERI.md section 3: the top card (the last) is a jack, or has the rank of the card under it;
    with ``any_pair``, also any two of the four cards of one rank.

    >>> from diloti.core.cards import parse_cards
    >>> [pile_must_be_redealt(parse_cards(p)) for p in ("4C 9H KD 7S", "4C 9H KD JS", "4C 9H 7D 7S", "7C JH 9D 7S")]
    [False, True, True, False]
    >>> pile_must_be_redealt(parse_cards("7C JH 9D 7S"), any_pair=True)
    True
    >>> pile_must_be_redealt(parse_cards("JC JH 9D 7S"))  # a pair below the top stays
    False
    """
    top = pile[-1] >> 2
    if top == JACK or pile[-2] >> 2 == top:
        return True
    if any_pair:
        ranks = [c >> 2 for c in pile]
        return len(set(ranks)) < len(ranks)
    return False


def standing_piles(dealt: Sequence[Card], counts: Sequence[int], any_pair: bool = False) -> int:
    """In how many ways the first pile can be finished, card by card, into one that stands (no redeal).

    ``dealt`` holds the pile's cards dealt so far (bottom first, at most four); ``counts`` the undealt
    cards of each rank (13, ``card >> 2``), those of ``dealt`` not among them. Each way is an ordered
    choice of distinct undealt cards for the places left, so with nothing dealt it is the number of
    standing piles. Explicit chance (:mod:`diloti.games.onecard.chance`) deals the next card in proportion
    to this count after it, which draws the pile uniformly from the standing piles: the distribution
    of RULES-XERI.md section 3's "redeal until it stands" without a redeal.

    Counted, not enumerated. Without ``any_pair`` only the top two places are checked, so the
    number of ordered pairs (second card, top) that stand, ``sum(c_r * (m - c_r))`` over the
    ranks ``r`` but the jack (``m`` the cards undealt), times the ways to fill the free places
    below them; with ``any_pair`` the four ranks differ and the top is no jack.

    >>> counts = [4] * 13
    >>> standing_piles([], counts), 52 * 51 * 50 * 49 - standing_piles([], counts)  # stand, are redealt
    (5644800, 852600)
    >>> standing_piles([], counts, any_pair=True) == 4 ** 4 * 12 * 11 * 10 * 12
    True
    """
    j = 4 - len(dealt)
    if j <= 0:
        return 0 if pile_must_be_redealt(dealt, any_pair) else 1
    m = sum(counts)
    if any_pair:
        ranks = {c >> 2 for c in dealt}
        if len(ranks) < len(dealt):
            return 0  # a pair already
        free = [k for r, k in enumerate(counts) if r not in ranks]
        total = 0
        for r, k in enumerate(counts):
            if r == JACK or r in ranks or not k:
                continue  # r, the top card's rank, is no jack and no rank dealt
            # The places below the top take j - 1 distinct ranks of the others, in any order.
            others = list(free)
            others.remove(k)
            total += k * factorial(j - 1) * _elementary(others, j - 1)
        return total
    if j == 1:
        under = dealt[-1] >> 2
        return m - counts[JACK] - (counts[under] if under != JACK else 0)
    pairs = sum(k * (m - k) for r, k in enumerate(counts) if r != JACK)
    below = 1
    for i in range(j - 2):
        below *= m - 2 - i
    return pairs * below


def _elementary(values: Sequence[int], k: int) -> int:
    """The elementary symmetric polynomial e_k of ``values``: the sum of the products of their k-subsets."""
    e = [1] + [0] * k
    for v in values:
        for i in range(k, 0, -1):
            e[i] += e[i - 1] * v
    return e[k]


@dataclass(frozen=True)
class XeriView(HandView):
    """What a seat may know of a hand of Xeri: a one-card game's view, and each side's xeris made by a jack on a
    lone jack (``jack_xeri``; ``sweeps`` counts every xeri)."""

    jack_xeri: tuple[int, ...] = ()


class XeriState(HandState):
    """One hand of Xeri: 6 cards each per deal, 4 on the first pile. Its sweeps are its xeris; ``jack_xeri``
    counts those a jack made on a lone jack (per side)."""

    GAME: ClassVar[str] = "xeri"
    HAND_SIZE: ClassVar[int] = 6
    OPTIONS: ClassVar[type[Any]] = XeriOptions
    TALLIES: ClassVar[tuple[str, ...]] = ("jack_xeri",)
    VIEW: ClassVar[type[HandView]] = XeriView
    POSITION_COUNTS: ClassVar[tuple[str, ...]] = ("xeri", "jack_xeri")
    RECORD_CARD_ONLY: ClassVar[bool] = True  # what a card does on the pile follows from the rules
    PILE: ClassVar[bool] = True
    MOVE_HELP: ClassVar[str] = ("Play a card by its number in the list or by name (7H, jd, T♦). A card of the top "
                                "card's rank, or a jack, takes the whole pile; taking a lone card of its rank is a "
                                "xeri (10 points).")
    __slots__ = ("jack_xeri",)
    options: XeriOptions
    jack_xeri: list[int]

    @classmethod
    def check_players(cls, players: int, options: Any) -> int:
        if players not in (2, 4):
            raise InvalidPositionError(f"invalid number of players {players!r} for xeri: expected 2 or 4")
        if (players == 4) != options.partnerships:
            raise InvalidPositionError("invalid number of players for xeri: 4 players play in partnerships "
                                       "(the option partnerships), 2 without")
        return 2

    def _table_must_be_redealt(self, table: Sequence[Card]) -> bool:
        return pile_must_be_redealt(table, self.options.pile_any_pair_redeal)

    def _table_completions(self, dealt: Sequence[Card], counts: Sequence[int]) -> int | None:
        return standing_piles(dealt, counts, self.options.pile_any_pair_redeal)

    def _lay_first_table(self) -> None:
        pos = self.stock_pos
        while True:
            pile = self.stock[pos:pos + 4]
            if not self._table_must_be_redealt(pile):
                break
            rest = self.stock[pos + 4:] + pile  # the four go back into the stock, which is shuffled
            self._shuffle(rest)
            self.stock[pos:] = rest
        self.table = pile
        self.stock_pos = pos + 4

    def _order_table(self, table: list[Card]) -> list[Card]:
        return table  # the pile keeps its order: the top card last

    def _generate(self) -> list[Move]:
        hand = self.hands[self.turn]
        table = self.table
        if not table:
            return [Move(c, LAY, VALUE[c], 0) for c in hand]
        top = table[-1] >> 2
        pile = mask_of(table)
        return [Move(c, CAPTURE, VALUE[c], pile) if (c >> 2 == top or c >> 2 == JACK) else Move(c, LAY, VALUE[c], 0)
                for c in hand]

    def _apply(self, turn: int, move: Move, last: bool) -> None:
        card, kind, _, mask = move
        assert card is not None
        if kind != CAPTURE:
            self.table = [*self.table, card]
            return
        table = self.table
        if len(table) == 1 and table[0] >> 2 == card >> 2 and not (last and self.options.no_xeri_last_card):
            side = turn % self.sides
            xeri = self.sweeps = self.sweeps.copy()
            xeri[side] += 1
            if card >> 2 == JACK:
                jacks = self.jack_xeri = self.jack_xeri.copy()
                jacks[side] += 1
        self._capture(turn, mask | BIT[card])
        self.table = []

    def score(self) -> tuple[XeriSide, XeriSide]:
        """The hand's score per side (meaningful once the hand is over)."""
        return score_xeri(self.captured, self.sweeps, self.jack_xeri, self.options)


def hands_won(hands: Sequence[Sequence[int]]) -> list[int]:
    """Hands won per side; a hand of equal points is won by nobody.

    >>> hands_won([(30, 20), (12, 12), (10, 30)])
    [1, 1]
    """
    won = [0, 0]
    for h in hands:
        if h[0] != h[1]:
            won[0 if h[0] > h[1] else 1] += 1
    return won


class XeriGame(HandsGame):
    """A game of Xeri: ``hands`` hands, won by the side that won more of them (RULES-XERI.md section 9).

    >>> g = XeriGame(seed=5)
    >>> while not g.is_over:
    ...     g.push(g.state.legal_moves()[0])
    >>> g.winner in (0, 1), len(g.rounds) >= 6
    (True, True)
    """

    STATE: ClassVar[type[HandState]] = XeriState

    @classmethod
    def hands_header(cls, options: Any) -> bool:
        return not options.game_by_points  # a game won by hands shows them

    @classmethod
    def target_of(cls, options: Any) -> int | None:
        """No target in a game won by hands (section 9), ``target`` with ``game_by_points``.

        >>> XeriGame.target_of(XeriOptions()), XeriGame.target_of(XeriOptions(game_by_points=True))
        (None, 101)
        """
        return int(options.target) if options.game_by_points else None

    @classmethod
    def hands_of(cls, options: Any) -> int | None:
        return int(options.hands)  # the game's length in hands (the option stands even when points decide)

    @staticmethod
    def decide(options: Any, hands: Sequence[Sequence[int]]) -> int | None:
        """Section 9: by hands won, stopping when the hands left cannot change the winner, and one more
        hand at a time after a tie; with ``game_by_points``, the side alone at the top at the target.

        >>> XeriGame.decide(XeriOptions(), [(30, 1)] * 5 + [(1, 30)] * 3 + [(5, 5)])
        0
        >>> XeriGame.decide(XeriOptions(), [(30, 1)] * 5 + [(1, 30)] * 5), XeriGame.decide(XeriOptions(), [(9, 9)])
        (None, None)
        >>> XeriGame.decide(XeriOptions(game_by_points=True), [(96, 88), (12, 30)])
        1
        """
        if options.game_by_points:
            return points_winner(hands, options.target)
        won = hands_won(hands)
        left = max(0, options.hands - len(hands))
        if won[0] > won[1] + left:
            return 0
        if won[1] > won[0] + left:
            return 1
        return None

    @classmethod
    def summary(cls, options: Any, hands: Sequence[Sequence[int]]) -> str:
        if options.game_by_points or not hands:
            return super().summary(options, hands)
        won = hands_won(hands)
        return f"{won[0]}-{won[1]}"


__all__ = ["HONOURS", "XeriGame", "XeriOptions", "XeriSide", "XeriState", "XeriView", "hands_won",
           "pile_must_be_redealt", "score_xeri", "standing_piles"]
