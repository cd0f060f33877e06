"""One hand of a one-card game (Xeri, Kontsina, any game whose move is one card): the frame every such game's
round state builds on.

Each game's own rules (its moves, what a capture does, its scoring and when a game is won) live in its
package (:mod:`diloti.games.xeri.rules`, :mod:`diloti.games.kontsina.rules`); :class:`HandState` holds the
frame they share, in the shape of Diloti's round (:mod:`diloti.games.diloti.state`): ``new``, ``legal_moves``,
``push``/``pop``/``play``, ``copy``, ``view``, ``score``; the deck is dealt from a seed (or given, or card by
card: :mod:`diloti.games.onecard.chance`), so a hand replays exactly. Moves are the core's
:class:`~diloti.core.moves.Move` values: a lay or a capture of one card, so notation and records read them
alike.

>>> from diloti.games.xeri.rules import XeriState
>>> s = XeriState.new(seed=1)
>>> s.game, len(s.hands[0]), len(s.table), s.stock_size
('xeri', 6, 4, 36)
>>> m = s.legal_moves()[0]
>>> s.push(m); s.pop() == m
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from diloti.core.cards import CARDS, NAMES, Card, cards_of, mask_of, parse_card
from diloti.core.errors import DilotiError, IllegalMoveError, InvalidCardError, InvalidPositionError, OptionsError
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.core.round_state import slot_names
from diloti.core.view import cards_of_set, view_maker
from diloti.games.onecard.chance import HandChance
from diloti.games.onecard.view import HandView

PLAY, OVER = Phase.PLAY, Phase.OVER

S = TypeVar("S", bound="HandState")


def strict_most(counts: Sequence[int]) -> int | None:
    """The index holding strictly more than every other, or None when the top is shared.

    >>> strict_most([20, 20, 12]), strict_most([30, 22])
    (None, 0)
    """
    top = max(counts)
    return counts.index(top) if counts.count(top) == 1 else None


_VIEW_MAKERS: dict[type[HandView], Callable[..., HandView]] = {}


class HandState(HandChance, ABC):
    """One hand of a one-card game in play: hands, table, stock, captures and sweeps per side, whose turn.

    Subclasses set the game's name, hand size and seat counts, and write its rules:
    :meth:`_generate` (the legal moves), :meth:`_apply` (what a played card does),
    :meth:`_lay_first_table` (the first table, with any redeal) and :meth:`score`.
    """

    GAME: ClassVar[str] = ""
    HAND_SIZE: ClassVar[int] = 6
    OPTIONS: ClassVar[type[Any]]
    # The game's own per-side counts besides its cards and sweeps (Xeri's jack-on-jack xeris): each a slot of the
    # game's state holding a list per side, kept through push and pop, copied, compared, and shown by the game's
    # view (``VIEW``: a HandView with a field of each name).
    TALLIES: ClassVar[tuple[str, ...]] = ()
    VIEW: ClassVar[type[HandView]] = HandView
    # The per-side counts a position of the game carries besides its cards, by the words the one-card games'
    # positions write them with (:mod:`diloti.games.onecard.formats.position`).
    POSITION_COUNTS: ClassVar[tuple[str, ...]] = ()
    # A record writes a move as its card alone when the game's rules say what the card does.
    RECORD_CARD_ONLY: ClassVar[bool] = False
    # The table is a pile whose top card a capture matches, and a lone card taken sweeps it: said so wherever
    # the table and moves are shown in words.
    PILE: ClassVar[bool] = False
    # How a move is typed, for a terminal game's help.
    MOVE_HELP: ClassVar[str] = "Play a card by its number in the list, or in notation: 7S (lay), 7S x 7D (capture)."

    # Its fields besides those of RoundState and ChanceEvents (which may be native classes: a slot of the same
    # name here would hide theirs).
    __slots__ = (
        "_stack", "captured", "deal_no", "deck", "explicit", "first_table", "last_capturer", "options",
        "plays", "shuffles", "sides", "sweeps", "swept", "table", "turn",
    )

    def __init__(self, players: int = 2, options: Any = None, dealer: int = 0) -> None:
        options = self.OPTIONS() if options is None else options
        if not isinstance(options, self.OPTIONS):
            raise OptionsError(f"invalid options for {self.GAME}: expected {self.OPTIONS.__name__}, "
                               f"got {type(options).__name__}")
        self.sides = self.check_players(players, options)
        self.players = players
        self.options = options
        self.dealer = dealer % players
        self.turn = (self.dealer + 1) % players
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.table: list[Card] = []
        self.stock: list[Card] = []
        self.stock_pos = 0
        self.captured = [0] * self.sides
        self.sweeps = [0] * self.sides
        for name in self.TALLIES:
            setattr(self, name, [0] * self.sides)
        self.last_capturer: int | None = None
        self.plays = 0
        self.phase = PLAY
        self.deal_no = 1
        self.seed = 0
        self.shuffles = 0
        self.swept = 0
        self.history: list[tuple[int, Move]] = []
        self._stack: list[tuple[Any, ...]] = []
        self._legal: list[Move] | None = None
        self.deck: tuple[Card, ...] = ()
        self.first_table: tuple[Card, ...] = ()
        self.explicit, self.batch = False, None  # explicit: deals wait for deal() (onecard.chance)

    @classmethod
    @abstractmethod
    def check_players(cls, players: int, options: Any) -> int:
        """The number of sides for ``players`` under ``options``; an :class:`InvalidPositionError` if none."""

    @property
    def game(self) -> str:
        return self.GAME

    # ------------------------------------------------------------------ dealing
    @classmethod
    def new(cls: type[S], players: int = 2, options: Any = None, dealer: int = 0, seed: int | None = None,
            deck: Sequence[int] | None = None, explicit_chance: bool = False) -> S:
        """Deal a new hand from ``seed`` (random if None), from ``deck`` (top card first) or, with
        ``explicit_chance``, card by card as the caller chooses (:mod:`diloti.games.onecard.chance`).

        Any later shuffle (Xeri's redeal of the first pile) also comes from ``seed``, so a hand is
        fully determined by ``(players, options, dealer, seed, deck)``.
        """
        if explicit_chance:
            return cls._new_explicit(players, options, dealer, deck)
        s = cls(players, options, dealer)
        s.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        if deck is None:
            cards = list(CARDS)
            s._shuffle(cards)
        else:
            try:
                cards = [Card(int(c)) for c in deck]
            except (TypeError, ValueError, DilotiError):
                raise InvalidPositionError("invalid deck: expected each of the 52 cards exactly once") from None
            if sorted(cards) != list(CARDS):
                raise InvalidPositionError("invalid deck: expected each of the 52 cards exactly once")
            s.shuffles = 1  # shuffle 0 of a seed is the deck itself
        s.deck = tuple(cards)
        s.stock = cards
        s._deal_hands()
        s._lay_first_table()
        s.first_table = tuple(s.table)
        return s

    def _shuffle(self, cards: list[Card]) -> None:
        rng = random.Random(f"{self.GAME}/{self.seed}/{self.shuffles}")
        self.shuffles += 1
        rng.shuffle(cards)

    def _deal_hands(self) -> None:
        n, size, pos = self.players, self.HAND_SIZE, self.stock_pos
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            hands[seat] = sorted(self.stock[pos:pos + size])
            pos += size
        self.hands = hands
        self.stock_pos = pos

    @abstractmethod
    def _lay_first_table(self) -> None:
        """Lay the first table from the stock (after the hands), redealing it if the game says so."""

    # ---------------------------------------------------------------- queries
    def side_of(self, seat: int) -> int:
        return seat % self.sides

    # ---------------------------------------------------------- move generation
    @abstractmethod
    def _generate(self) -> list[Move]:
        """The legal moves of the seat to move, each once."""

    def _moves(self) -> list[Move]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate() if self.phase == PLAY else []
        return legal

    def is_legal(self, move: Move) -> bool:
        return move in self._moves()

    def read_move(self, text: str) -> Move:
        """A legal move from notation: ``7S``, ``7S x 3C 4H``; a card alone names its only legal move."""
        legal = self._moves()
        move = Move.parse(text)
        if move in legal:
            return move
        try:
            card = parse_card(text)
        except InvalidCardError:
            card = None
        if card is not None:
            mine = [m for m in legal if m[0] == card]
            if len(mine) == 1:
                return mine[0]
        raise IllegalMoveError(f"illegal move {text!r} in {self.describe()}")

    # ------------------------------------------------------------- push / pop
    def play(self, move: Move | str) -> Move:
        """Play a move after checking it (a :class:`Move` or notation)."""
        if isinstance(move, str):
            move = self.read_move(move)
        elif not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {str(move)!r} in {self.describe()}")
        self.push(move)
        return move

    def push(self, move: Move) -> None:
        """Play a legal move without checking it (fast; for search)."""
        card = move[0]
        turn = self.turn
        # Every list changed below is replaced by a changed copy, so the frame keeps the objects themselves.
        tallies = self.TALLIES
        self._stack.append((turn, self.hands, self.table, self.captured, self.sweeps, self.last_capturer,
                            self.phase, self.stock_pos, self.deal_no, self.swept, self.stock,
                            tuple([getattr(self, name) for name in tallies]) if tallies else ()))
        self.history.append((turn, move))
        self._legal = None
        assert card is not None
        hands = self.hands = self.hands.copy()
        hand = hands[turn] = hands[turn].copy()
        hand.remove(card)
        self.plays += 1
        last = not self.stock_size and not any(hands)
        self._apply(turn, move, last)
        if not hand and turn == self.dealer:
            self._end_of_deal()
        else:
            self.turn = (turn + 1) % self.players

    @abstractmethod
    def _apply(self, turn: int, move: Move, last: bool) -> None:
        """Put the played card on the table or capture with it (``last``: the hand's last card)."""

    def _capture(self, turn: int, taken: int) -> None:
        side = turn % self.sides
        cap = self.captured = self.captured.copy()
        cap[side] |= taken
        self.last_capturer = turn

    def _end_of_deal(self) -> None:
        n = self.players
        self.turn = (self.dealer + 1) % n
        if self.stock_pos < len(self.stock):
            self.deal_no += 1
            self._deal_next()
            return
        rest = mask_of(self.table)
        if rest and self.last_capturer is not None:
            cap = self.captured = self.captured.copy()
            cap[self.last_capturer % self.sides] |= rest
            self.swept = rest
            self.table = []
        self.phase = OVER

    def pop(self) -> Move:
        """Take back the last move and return it."""
        (self.turn, self.hands, self.table, self.captured, self.sweeps, self.last_capturer, self.phase,
         self.stock_pos, self.deal_no, self.swept, self.stock, tallies) = self._stack.pop()
        for name, counts in zip(self.TALLIES, tallies, strict=False):
            setattr(self, name, counts)
        self._legal = None
        self.plays -= 1
        return self.history.pop()[1]

    def copy(self: S, stack: bool = False) -> S:
        """An independent copy; with ``stack`` the history is kept so the copy can ``pop``."""
        cls = type(self)
        s = cls.__new__(cls)
        for name in slot_names(cls):
            setattr(s, name, getattr(self, name))
        s.hands = [h.copy() for h in self.hands]
        s.table = self.table.copy()
        s.stock = self.stock.copy()
        s.captured = self.captured.copy()
        s.sweeps = self.sweeps.copy()
        for name in self.TALLIES:
            setattr(s, name, getattr(self, name).copy())
        s.history = self.history.copy() if stack else []
        s._stack = self._stack.copy() if stack else []
        s._legal = None
        return s

    # --------------------------------------------------------------- scoring
    @abstractmethod
    def score(self) -> tuple[Any, ...]:
        """The hand's score per side (meaningful once the hand is over): objects with a ``total``."""

    def points(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.score())

    # ------------------------------------------------------------------ views
    def view(self, seat: int, scores: Sequence[int] = (), legal: bool = True) -> HandView:
        """What ``seat`` may know (the game's ``VIEW``); with ``legal=False`` its legal moves are left out (an
        observation does not read them, and listing them is most of a view's cost)."""
        if not 0 <= seat < self.players:
            raise InvalidPositionError(f"invalid seat {seat!r}: expected 0..{self.players - 1}")
        cls = self.VIEW
        make = _VIEW_MAKERS.get(cls)
        if make is None:
            make = _VIEW_MAKERS[cls] = view_maker(cls)
        return make(  # HandView's fields in order, then the game's tallies
            self.GAME, seat, self.players, self.sides, self.options, self.dealer, self.turn, self.phase,
            tuple(self.hands[seat]), tuple(self.table), tuple(map(len, self.hands)), len(self.stock) - self.stock_pos,
            self.plays, self.deal_no, tuple(map(cards_of_set, self.captured)), tuple(self.sweeps), self.last_capturer,
            tuple(self.history), tuple(scores) or (0,) * self.sides,
            tuple(self._moves()) if legal and seat == self.turn and self.phase == PLAY else (),
            *[tuple(getattr(self, name)) for name in self.TALLIES],
        )

    # ------------------------------------------------------------ comparison
    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position (for equality and tests)."""
        return (
            self.GAME, self.players, self.options, self.dealer, self.turn, tuple(tuple(h) for h in self.hands),
            tuple(self.table), tuple(self.remaining_stock), tuple(self.captured), tuple(self.sweeps),
            tuple(tuple(getattr(self, name)) for name in self.TALLIES), self.last_capturer, self.plays, self.phase,
            self.deal_no, self.seed,
            self.shuffles, self.swept, self.explicit, self.batch if self.phase == Phase.CHANCE else None,
        )

    def describe(self) -> str:
        """A compact one-line description for error messages."""
        hands = " | ".join(" ".join(NAMES[c] for c in h) or "-" for h in self.hands)
        table = " ".join(NAMES[c] for c in self.table) or "-"
        return (f"[{self.GAME} {Phase(self.phase).label}, seat {self.turn} to play; table: {table}; "
                f"hands: {hands}; stock {self.stock_size}]")

    # ---------------------------------------------------------- construction
    @classmethod
    def from_parts(cls: type[S], *, players: int = 2, options: Any = None, dealer: int = 0,
                   turn: int | None = None, hands: Sequence[Iterable[int]], table: Iterable[int] = (),
                   stock: Iterable[int] = (), captured: Sequence[Iterable[int]] | None = None,
                   sweeps: Sequence[int] | None = None, tallies: Mapping[str, Sequence[int]] | None = None,
                   last_capturer: int | None = None, seed: int = 0, shuffles: int = 1,
                   check: bool = True) -> S:
        """Build a position from its parts (the JSON reader, samplers and tests).

        ``table`` keeps its order (a pile's bottom first, unless the game sorts it: :meth:`_order_table`).
        ``tallies``: the game's own per-side counts by name (:attr:`TALLIES`; 0 each where not given). ``plays``
        and the deal number follow from the hand sizes and the stock.
        """
        s = cls(players, options, dealer)
        s.turn = (s.dealer + 1) % players if turn is None else turn
        if len(hands) != players:
            raise InvalidPositionError(f"invalid position: {len(hands)} hands for {players} players")
        s.hands = [sorted(Card(int(c)) for c in h) for h in hands]
        s.table = s._order_table([Card(int(c)) for c in table])
        s.stock = [Card(int(c)) for c in stock]
        sides = s.sides
        captured = captured if captured is not None else [()] * sides
        if len(captured) != sides:
            raise InvalidPositionError(f"invalid position: field 'captured': expected {sides} sides")
        s.captured = [mask_of(Card(int(c)) for c in side) for side in captured]
        tallies = dict(tallies or {})
        unknown = sorted(set(tallies) - set(cls.TALLIES))
        if unknown:
            raise InvalidPositionError(f"invalid position: {cls.GAME} keeps no count {unknown[0]!r}")
        for name, counts in (("sweeps", sweeps), *((n, tallies.get(n)) for n in cls.TALLIES)):
            values = [0] * sides if counts is None else [int(x) for x in counts]
            if len(values) != sides:
                raise InvalidPositionError(f"invalid position: field {name!r}: expected {sides} counts")
            setattr(s, name, values)
        s.last_capturer = last_capturer
        s.seed, s.shuffles = seed, shuffles
        per_deal = cls.HAND_SIZE * players
        dealt = 52 - 4 - len(s.stock)
        s.deal_no = max(1, dealt // per_deal)
        s.plays = max(0, dealt - sum(len(h) for h in s.hands))
        s.first_table = tuple(s.table) if s.plays == 0 else ()
        if all(not h for h in s.hands) and not s.stock:
            s.phase = OVER
        if check:
            s.validate()
        return s

    def _order_table(self, table: list[Card]) -> list[Card]:
        return sorted(table)

    def validate(self) -> None:
        """Raise :class:`InvalidPositionError`, naming the field, if the position cannot exist."""
        n = self.players
        for name, seat in (("dealer", self.dealer), ("turn", self.turn)):
            if not 0 <= seat < n:
                raise InvalidPositionError(f"invalid position: field {name!r}: expected a seat 0..{n - 1}")
        if self.last_capturer is not None and not 0 <= self.last_capturer < n:
            raise InvalidPositionError(f"invalid position: field 'last_capturer': expected null or a seat 0..{n - 1}")
        where: dict[int, str] = {}

        def place(name: str, cards: Iterable[int]) -> None:
            for c in cards:
                if c in where:
                    raise InvalidPositionError(f"invalid position: field {name!r}: card {NAMES[c]} appears twice "
                                               f"(also in {where[c]})")
                where[c] = name

        for i, h in enumerate(self.hands):
            place(f"hands[{i}]", h)
        place("table", self.table)
        place("stock", self.remaining_stock)
        for i, m in enumerate(self.captured):
            place(f"captured[{i}]", cards_of(m))
        if len(where) != 52:
            missing = " ".join(NAMES[c] for c in range(52) if c not in where)
            raise InvalidPositionError(f"invalid position: cards missing (each of the 52 must appear once): {missing}")
        size = self.HAND_SIZE
        if any(len(h) > size for h in self.hands):
            raise InvalidPositionError(f"invalid position: field 'hands': at most {size} cards in a hand")
        if self.stock_size % (size * n):
            raise InvalidPositionError(f"invalid position: field 'stock': {self.stock_size} cards is not whole deals "
                                       f"of {size * n}")


__all__ = ["HandState", "HandView", "strict_most"]
