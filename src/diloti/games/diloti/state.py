"""The full state of one round, with move generation, push and undo.

>>> s = State.new(seed=7)
>>> len(s.hands[0]), len(s.hands[1]), len(s.table), s.stock_size
(6, 6, 4, 36)
>>> moves = s.legal_moves()
>>> s.push(moves[0]); s.plays
1
>>> s.pop() == moves[0], s.plays
(True, 0)

The state holds hidden information (every hand, the stock order). Players,
bots and user interfaces get a :class:`diloti.core.view.View` instead.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar, Final, Literal, overload

from diloti.core.cards import BIT, CARDS, NAMES, Card, mask_of
from diloti.core.chance import HAND_SIZE as HAND_SIZE  # re-exported: readers of positions count hands
from diloti.core.chance import HANDS
from diloti.core.errors import IllegalMoveError, InvalidPositionError
from diloti.core.moves import CAPTURE, KEEP, LAY, REDEAL, Declaration, Move
from diloti.core.phase import Phase
from diloti.core.round_state import slot_names
from diloti.core.shuffling import shuffle
from diloti.core.view import cards_of_set
from diloti.games.diloti.bigtable import LAZY_ITEMS, generate_lazy, is_legal_lazy
from diloti.games.diloti.chance import ExplicitChance
from diloti.games.diloti.choices import Query, candidate_moves
from diloti.games.diloti.movegen import generate, is_large
from diloti.games.diloti.options import Options
from diloti.games.diloti.reading import read_move
from diloti.games.diloti.scoring import Side, score_sides
from diloti.games.diloti.validation import check_position
from diloti.games.diloti.view import View, new_view

PLAY, DECIDE, OVER, CHANCE = Phase.PLAY, Phase.DECIDE, Phase.OVER, Phase.CHANCE


# Options are frozen: one default serves every state (a copy builds its state through __init__ when compiled).
_DEFAULT_OPTIONS = Options()
# push reads these as C variables when compiled (module names are looked up by name otherwise).
_KEEP: Final[int] = int(KEEP)
_REDEAL: Final[int] = int(REDEAL)
_LAY: Final[int] = int(LAY)
_CAPTURE: Final[int] = int(CAPTURE)
_BITS: Final[tuple[int, ...]] = BIT
_INSORT: Final = insort
_DECLARATION: Final = Declaration


def _rng(seed: int, n: int) -> random.Random:
    # A str seed is hashed with SHA-512, so the stream is the same in every process.
    return random.Random(f"diloti/{seed}/{n}")


class State(ExplicitChance):
    """One round in play: hands, table, stock, captures, whose turn.

    Use :meth:`new` to deal a round, :meth:`legal_moves` to list moves,
    :meth:`push` to play one without checks (fast), :meth:`play` to play one
    with checks, :meth:`pop` to take the last one back, :meth:`copy` for a
    cheap independent copy.
    """

    # Its fields besides its bases' (slots; a native class's own fields, compiled).
    FIELDS: ClassVar[tuple[str, ...]] = ("_sample", "_stack", "captured", "deck", "explicit", "last_capturer",
                                         "pending", "plays", "shuffles", "sweeps", "swept")
    __slots__ = FIELDS

    def __init__(self, players: int = 2, options: Options | None = None, dealer: int = 0) -> None:
        if players not in (2, 4):
            raise InvalidPositionError(f"invalid number of players {players!r}: expected 2 or 4")
        self.players = players
        self.options = options or _DEFAULT_OPTIONS
        self.dealer = dealer % players
        self.turn = (dealer + 1) % players
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.table: list[Card] = []
        self.declarations: list[Declaration] = []
        self.stock: list[Card] = []
        self.stock_pos = 0
        self.captured = [0, 0]  # per side, 52-bit masks
        self.sweeps = [0, 0]  # per side: Diloti's xeris
        self.last_capturer: int | None = None
        self.plays = 0
        self.phase = PLAY
        self.pending: tuple[int, ...] = ()  # seats still to decide on a face-card redeal
        self.deal_no = 1
        self.bottom: Card | None = None
        self.seed = 0
        self.shuffles = 0
        self.swept = 0  # cards the end-of-round sweep gave to the last capturer
        self.history: list[tuple[int, Move]] = []
        self._stack: list[tuple[Any, ...]] = []
        self._legal: list[Move] | None = None
        # A large table's candidates worked out elsewhere (a server's worker), for the position of its key.
        self._sample: tuple[tuple[Any, ...], list[Move], bool] | None = None
        self.first_table: tuple[Card, ...] = ()
        self.deck: tuple[Card, ...] = ()
        self.explicit = False  # deals wait for the caller (State.deal) instead of coming from the seed
        self.batch: tuple[str, int, int, bool] | None = None  # a deal under way: kind, next, end, table next

    GAME: ClassVar[str] = "diloti"  # the game's name in the registry (diloti.games)

    @property
    def game(self) -> str:
        return self.GAME

    @classmethod
    def check_players(cls, players: int, options: Any = None) -> int:
        """The number of sides for ``players``: always 2 (seats 0+2 against 1+3 with four players).

        >>> State.check_players(4)
        2
        """
        if players not in (2, 4):
            raise InvalidPositionError(f"invalid number of players {players!r}: expected 2 or 4")
        return 2

    # ------------------------------------------------------------------ dealing
    @overload
    @classmethod
    def new(cls, players: int = 2, options: Options | None = None, dealer: int = 0, seed: int | None = None,
            deck: Sequence[int] | None = None, explicit_chance: bool = False,
            game: Literal["diloti"] = "diloti") -> State: ...

    @overload
    @classmethod
    def new(cls, players: int = 2, options: Any = None, dealer: int = 0, seed: int | None = None,
            deck: Sequence[int] | None = None, explicit_chance: bool = False, *, game: str) -> Any: ...

    @classmethod
    def new(cls, players: int = 2, options: Any = None, dealer: int = 0,
            seed: int | None = None, deck: Sequence[int] | None = None, explicit_chance: bool = False,
            game: str = "diloti") -> Any:
        """Deal a new round.

        ``game`` names the game (``diloti``, ``xeri``, ``kontsina``): the parent games deal their own
        hand state (:mod:`diloti.games`), with their own options.

        >>> State.new(seed=1, game="kontsina").stock_size
        40

        The deck is shuffled from ``seed`` (a random one if None) unless given
        in full (top card first). Every later shuffle (a redeal of the first
        table, a face-card redeal) also comes from ``seed``, so a round is
        fully determined by ``(players, options, dealer, seed)`` or by its deck.

        With ``explicit_chance`` nothing is dealt: the round starts in the
        ``CHANCE`` phase and every card dealt is chosen by the caller (see
        :attr:`chance` and :meth:`deal`).
        """
        if game != "diloti":
            from diloti.core.registry import find_game

            return find_game(game).state.new(players, options, dealer, seed, deck, explicit_chance)
        s = cls(players, options, dealer)
        s.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        if explicit_chance:
            if deck is not None:
                raise InvalidPositionError("invalid deck: a round with explicit chance is dealt by State.deal")
            s.explicit = True
            s._begin_explicit_round()
            return s
        if deck is None:
            cards = list(CARDS)
            s._shuffle(cards)
        else:
            cards = [Card(int(c)) for c in deck]
            if sorted(cards) != list(CARDS):
                raise InvalidPositionError("invalid deck: expected each of the 52 cards exactly once")
            s.shuffles = 1  # shuffle 0 of a seed is the deck itself
        s.deck = tuple(cards)
        s._start_round(cards)
        return s

    def _shuffle(self, cards: list[Card], bottom: Card | None = None) -> None:
        rng = _rng(self.seed, self.shuffles)
        self.shuffles += 1
        if bottom is not None and bottom in cards:
            # The card the dealer saw stays last (dealt to the dealer in the round's final deal) through every
            # reshuffle: the cards that go back (a first table, or hands dealt) may lie after it.
            if cards[-1] != bottom:
                cards.remove(bottom)
                cards.append(bottom)
            head = cards[:-1]
            shuffle(rng, head)
            cards[:-1] = head
        else:
            shuffle(rng, cards)

    def _start_round(self, deck: list[Card]) -> None:
        opts = self.options
        self.bottom = deck[-1] if opts.dealer_sees_bottom else None
        self.stock = list(deck)
        self.stock_pos = 0
        self._deal_hands()
        while True:
            table = self.stock[self.stock_pos:self.stock_pos + 4]
            if not self._table_must_be_redealt(table):
                break
            rest = self.stock[self.stock_pos + 4:] + table
            self._shuffle(rest, self.bottom)
            self.stock[self.stock_pos:] = rest
        self._lay_first_table(table)

    def _lay_first_table(self, table: list[Card]) -> None:
        self.stock_pos += 4
        self.table = sorted(table)
        self.first_table = tuple(self.table)
        self.declarations = []
        self.captured = [0, 0]
        self.sweeps = [0, 0]
        self.last_capturer = None
        self.plays = 0
        self.deal_no = 1
        self.turn = (self.dealer + 1) % self.players
        self.phase = PLAY
        self._ask_redeal()

    def _table_must_be_redealt(self, table: list[Card]) -> bool:
        opts = self.options
        counts: dict[int, int] = {}
        for c in table:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
        for rank, k in counts.items():
            if k < 3:
                continue
            face = rank >= 10
            if face and k == 3 and opts.three_faces_stay:
                continue
            if face or opts.any_rank_redeal:
                return True
        return False

    def _deal_hands(self) -> None:
        n = self.players
        pos = self.stock_pos
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            hands[seat] = sorted(self.stock[pos:pos + HAND_SIZE])
            pos += HAND_SIZE
        self.hands = hands
        self.stock_pos = pos

    def _ask_redeal(self) -> None:
        mode = self.options.face_card_redeal
        if mode == "off" or (mode == "first_deal" and self.deal_no != 1):
            return
        n = self.players
        order = [(self.dealer + 1 + i) % n for i in range(n)]
        self.pending = tuple(s for s in order if sum(1 for c in self.hands[s] if c >= 40) >= 5)
        if self.pending:
            self.phase = DECIDE
            self.turn = self.pending[0]

    # ---------------------------------------------------------------- queries
    def declaration_of(self, seat: int) -> Declaration | None:
        """The declaration ``seat`` owns, if any."""
        for p in self.declarations:
            if p.owner == seat:
                return p
        return None

    def table_mask(self) -> int:
        m = mask_of(self.table)
        for p in self.declarations:
            m |= p.mask
        return m

    # ---------------------------------------------------------- move generation
    def _moves(self) -> list[Move]:
        # The legal moves, worked out once per position (push and pop forget them).
        legal = self._legal
        if legal is None:
            legal = self._legal = generate(self.phase, self.turn, self.hands[self.turn], self.table,
                                           self.declarations, self.options)
        return legal

    def generate_legal_moves(self) -> Iterator[Move]:
        """The legal moves, lazily: on a large table (more than a dozen items) one at a time, in memory
        bounded however many there are (:mod:`diloti.games.diloti.bigtable`)."""
        if self._legal is None and self.phase == PLAY and is_large(self.table, self.declarations):
            # push and pop replace the lists they change, so these stay as they are while the caller iterates.
            yield from generate_lazy(self.turn, self.hands[self.turn], self.table, self.declarations, self.options)
            return
        yield from self._moves()

    def candidate_moves(self) -> tuple[list[Move], bool]:
        """The moves to choose from, and whether they are all the legal moves: :meth:`legal_moves`, except on a
        large table whose moves pass :data:`~diloti.games.diloti.choices.LIST_LIMIT`, where they are a bounded
        sample with every kind and value each card can make (:func:`~diloti.games.diloti.choices.sample_moves`).
        Players, hints and views use it: its work is bounded whatever the table holds.

        >>> s = State.new(seed=1)
        >>> s.candidate_moves() == (s.legal_moves(), True)
        True
        """
        if self._legal is None and self.phase == PLAY and is_large(self.table, self.declarations):
            kept = self._sample
            if kept is not None and kept[0] == self.candidates_key():
                return list(kept[1]), kept[2]
            return candidate_moves(self.turn, self.hands[self.turn], self.table, self.declarations, self.options)
        return list(self._moves()), True

    def candidates_key(self) -> tuple[Any, ...]:
        """What :meth:`candidate_moves` depends on: the seat to move, its hand, the table (the options are
        the state's own)."""
        return (self.phase, self.turn, tuple(self.hands[self.turn]), tuple(self.table), tuple(self.declarations))

    def keep_candidates(self, key: tuple[Any, ...], moves: list[Move], complete: bool) -> None:
        """Remember :meth:`candidate_moves` of the position whose :meth:`candidates_key` is ``key``, worked out
        elsewhere (a server's worker process: the event loop then does not); unchecked. Any other position,
        before or after a push, works its own out as before."""
        self._sample = (tuple(key), list(moves), complete)

    def may_sample(self) -> bool:
        """Whether the next position may be a large table (one more item than now would do)."""
        return self.phase == PLAY and len(self.table) + len(self.declarations) + 1 > LAZY_ITEMS

    def is_legal(self, move: Move) -> bool:
        if self._legal is None and self.phase == PLAY and is_large(self.table, self.declarations):
            return is_legal_lazy(self.turn, self.hands[self.turn], self.table, self.declarations, self.options, move)
        return move in self._moves()

    # ------------------------------------------------------------- push / pop
    def play(self, move: Move | str) -> Move:
        """Play a move after checking it (a :class:`Move` or notation)."""
        if isinstance(move, str):
            legal, complete = self.candidate_moves()
            exact = None if complete else Query(self.turn, self.hands[self.turn], self.table, self.declarations,
                                                self.options).read(move)
            move = exact if exact is not None else read_move(move, legal, self.table, self.declarations,
                                                             self.hands[self.turn], self.describe())
        elif not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {str(move)!r} in {self.describe()}")
        self.push(move)
        return move

    def push(self, move: Move) -> None:
        """Play a legal move without checking it (fast; for search)."""
        card, kind, value, mask = move
        k: int = kind  # unboxed once (compiled, the kinds are then compared as C integers)
        turn = self.turn
        # captured, sweeps, hands, loose and piles are copied before any change, so the frame can keep
        # the objects themselves.
        self._stack.append((
            turn, self.hands, self.table, self.declarations, self.captured, self.sweeps, self.last_capturer,
            self.phase, self.pending, self.stock_pos, self.deal_no, self.swept, None,
        ))
        self.history.append((turn, move))
        self._legal = None
        if k >= _KEEP:
            self._decide(k == _REDEAL)
            return
        assert card is not None
        c: int = card
        hands = self.hands = self.hands.copy()
        hand = hands[turn] = hands[turn].copy()
        hand.remove(card)
        n_players = self.players
        plays_before = self.plays
        self.plays = plays_before + 1
        if k == _LAY:
            table = self.table = self.table.copy()
            _INSORT(table, card)
        else:
            table = self.table
            declarations = self.declarations
            lmask = mask & ~self._pile_mask() if declarations else mask
            if lmask:
                table = self.table = [t for t in table if not _BITS[t] & lmask]
            if mask != lmask:
                declarations = [p for p in declarations if not p.mask & mask]
            if k == _CAPTURE:
                self.declarations = declarations
                side = turn & 1
                cap = self.captured = self.captured.copy()
                cap[side] |= mask | _BITS[c]
                self.last_capturer = turn
                if not table and not declarations:
                    last = not hand and turn == self.dealer and self.stock_pos == len(self.stock)
                    opts = self.options
                    if (plays_before or opts.xeri_first_card) and not (last and opts.no_xeri_last_card):
                        xeri = self.sweeps = self.sweeps.copy()
                        xeri[side] += 1
            else:
                self.declarations = [*declarations, _DECLARATION(mask | _BITS[c], value, kind, turn)]
        if not hand and turn == self.dealer:
            self._end_of_deal()
        else:
            self.turn = (turn + 1) % n_players

    def _pile_mask(self) -> int:
        m = 0
        for p in self.declarations:
            m |= p.mask
        return m

    def _end_of_deal(self) -> None:
        n = self.players
        if self.stock_pos < len(self.stock):
            self.deal_no += 1
            self.turn = (self.dealer + 1) % n
            if self.explicit:
                self.phase = CHANCE
                self.batch = (HANDS, self.stock_pos, self.stock_pos + HAND_SIZE * n, False)
                return
            self._deal_hands()
            self._ask_redeal()
            return
        rest = self.table_mask()
        if rest and self.last_capturer is not None:
            cap = self.captured = self.captured.copy()
            cap[self.last_capturer & 1] |= rest
            self.swept = rest
            self.table = []
            self.declarations = []
        self.phase = OVER
        self.turn = (self.dealer + 1) % n

    def _decide(self, redeal: bool) -> None:
        if not redeal:
            self.pending = self.pending[1:]
            if self.pending:
                self.turn = self.pending[0]
            else:
                self.phase = PLAY
                self.turn = (self.dealer + 1) % self.players
            return
        # A redeal also changes the stock and the shuffle counter: keep them for pop().
        frame = self._stack.pop()
        self._stack.append((*frame[:-1], (list(self.stock), self.shuffles, self.first_table, self.bottom,
                                          self.plays)))
        self.pending = ()
        if self.explicit:
            self._redeal_explicit()
            return
        if self.deal_no == 1:
            deck = list(CARDS)
            self._shuffle(deck)
            self._start_round(deck)  # self.deck keeps the round's first deck
            return
        n = self.players
        dealt = [c for s in range(n) for c in self.hands[s]]
        rest = dealt + self.stock[self.stock_pos:]
        self._shuffle(rest, self.bottom)
        self.stock_pos -= len(dealt)
        self.stock[self.stock_pos:] = rest
        self._deal_hands()
        self.turn = (self.dealer + 1) % n
        self.phase = PLAY
        self._ask_redeal()

    def pop(self) -> Move:
        """Take back the last move and return it."""
        (self.turn, self.hands, self.table, self.declarations, self.captured, self.sweeps, self.last_capturer,
         self.phase, self.pending, self.stock_pos, self.deal_no, self.swept, extra) = self._stack.pop()
        self._legal = None
        _, move = self.history.pop()
        if extra is not None:
            self.stock, self.shuffles, self.first_table, self.bottom, self.plays = extra
        elif move[1] < KEEP:
            self.plays -= 1
        return move

    def copy(self, stack: bool = False) -> State:
        """An independent copy (lists are copied; cards and piles are immutable).

        With ``stack`` the move history is kept so the copy can ``pop``.
        """
        s = State.__new__(State)
        for name in slot_names(State):
            setattr(s, name, getattr(self, name))
        s.hands = [h.copy() for h in self.hands]
        s.table = self.table.copy()
        s.declarations = self.declarations.copy()
        s.stock = self.stock.copy()
        s.captured = self.captured.copy()
        s.sweeps = self.sweeps.copy()
        s.history = self.history.copy() if stack else []
        s._stack = self._stack.copy() if stack else []
        s._legal = None
        return s

    # --------------------------------------------------------------- scoring
    def score(self) -> tuple[Side, Side]:
        """The round's score per side (meaningful once the round is over)."""
        return score_sides(self.captured, self.sweeps)

    def points(self) -> tuple[int, int]:
        a, b = self.score()
        return a.total, b.total

    # ------------------------------------------------------------------ views
    def view(self, seat: int, scores: tuple[int, int] = (0, 0)) -> View:
        """What ``seat`` may know (see :class:`diloti.core.view.View`)."""
        if not 0 <= seat < self.players:
            raise InvalidPositionError(f"invalid seat {seat!r}: expected 0..{self.players - 1}")
        cap, xeri = self.captured, self.sweeps
        return new_view(  # View's fields in order
            seat, self.players, self.options, self.dealer, self.turn, self.phase, tuple(self.hands[seat]),
            tuple(self.table), tuple(self.declarations), tuple(map(len, self.hands)),
            len(self.stock) - self.stock_pos, self.plays, self.deal_no, (xeri[0], xeri[1]),
            (cards_of_set(cap[0]), cards_of_set(cap[1])), self.last_capturer, tuple(self.history),
            self.first_table, self.bottom if seat == self.dealer else None, scores, self.pending,
            *self._view_moves(seat),
        )

    def _view_moves(self, seat: int) -> tuple[tuple[Move, ...], bool]:
        # A view's legal moves and whether they are all of them (View.legal).
        if seat != self.turn or self.phase == OVER:
            return (), True
        moves, complete = self.candidate_moves()
        return tuple(moves), complete

    # ------------------------------------------------------------ comparison
    def key(self) -> tuple[Any, ...]:
        """Everything that defines the position (for equality and tests)."""
        return (
            self.players, self.options, self.dealer, self.turn, tuple(tuple(h) for h in self.hands),
            tuple(self.table), tuple(self.declarations), tuple(self.stock[self.stock_pos:]),
            tuple(self.captured), tuple(self.sweeps), self.last_capturer, self.plays, self.phase,
            self.pending, self.deal_no, self.bottom, self.seed, self.shuffles, self.swept, self.explicit,
            self.batch if self.phase == CHANCE else None,
        )

    def describe(self) -> str:
        """A compact one-line description for error messages."""
        hands = " | ".join(" ".join(NAMES[c] for c in h) or "-" for h in self.hands)
        table = " ".join([NAMES[c] for c in self.table] + [str(p) for p in self.declarations]) or "-"
        return (f"[{Phase(self.phase).label}, seat {self.turn} to play; table: {table}; "
                f"hands: {hands}; stock {self.stock_size}]")

    # ---------------------------------------------------------- construction
    @classmethod
    def from_parts(cls, *, players: int = 2, options: Options | None = None, dealer: int = 0,
                   turn: int | None = None, hands: Sequence[Iterable[int]],
                   table: Iterable[int] = (), declarations: Iterable[Declaration] = (),
                   stock: Iterable[int] = (), captured: Sequence[Iterable[int]] = ((), ()),
                   sweeps: Sequence[int] = (0, 0), last_capturer: int | None = None,
                   plays: int = 0, seed: int = 0, bottom: int | None = None,
                   pending: Sequence[int] = (), shuffles: int = 1, check: bool = True) -> State:
        """Build a position from its parts (used by the JSON reader and tests).

        ``pending`` lists the seats still to decide on a face-card redeal (the
        first one is to move); ``shuffles`` counts the shuffles already drawn
        from ``seed``, so that a later redeal shuffles as the original game did.
        """
        s = cls(players, options, dealer)
        s.turn = (dealer + 1) % players if turn is None else turn
        if len(hands) != players:
            raise InvalidPositionError(f"invalid position: {len(hands)} hands for {players} players")
        s.hands = [sorted(Card(int(c)) for c in h) for h in hands]
        s.table = sorted(Card(int(c)) for c in table)
        s.declarations = list(declarations)
        s.stock = [Card(int(c)) for c in stock]
        s.stock_pos = 0
        s.captured = [mask_of(Card(int(c)) for c in captured[0]), mask_of(Card(int(c)) for c in captured[1])]
        s.sweeps = [int(sweeps[0]), int(sweeps[1])]
        s.last_capturer = last_capturer
        s.plays = plays
        s.seed = seed
        s.shuffles = shuffles
        s.bottom = Card(int(bottom)) if bottom is not None else None
        s.first_table = tuple(s.table) if plays == 0 else ()
        dealt = (52 - 4 - len(s.stock)) // (HAND_SIZE * players)
        s.deal_no = max(1, dealt)
        if all(not h for h in s.hands) and not s.stock:
            s.phase = OVER
        if pending:
            s.pending = tuple(pending)
            s.phase = DECIDE
            s.turn = s.pending[0]
        if check:
            s.validate()
        return s

    def validate(self) -> None:
        """Raise :class:`InvalidPositionError`, naming the field, if the position cannot exist."""
        check_position(self.players, self.dealer, self.turn, self.hands, self.table, self.declarations,
                       self.remaining_stock, self.captured)
