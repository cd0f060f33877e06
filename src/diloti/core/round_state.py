"""What a round of every game is as an object: each game's round state builds on :class:`RoundState` (Diloti's
:class:`~diloti.games.diloti.state.State`, the one-card games' :class:`~diloti.games.onecard.state.HandState`).

It holds no rules: the stock and phase queries, the legal-move list's shape, copying and pickling
over the state's slots, a copy with other hidden cards (for samplers), and equality by
``key()``. Each game's state says its own slots, legal moves, ``copy``, ``key`` and ``describe``.

>>> from diloti.games.diloti.state import State
>>> import pickle
>>> s = State.new(seed=3)
>>> t = pickle.loads(pickle.dumps(s))
>>> t == s, t is s, t.stock_size, t.is_over
(True, False, 36, False)
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from collections.abc import Iterator
from typing import Any, ClassVar, Final, TypeVar

from diloti.core._mypyc import mypyc_attr
from diloti.core.cards import Card
from diloti.core.moves import Move
from diloti.core.phase import Phase

R = TypeVar("R", bound="RoundState")
_OVER: Final = Phase.OVER  # a C variable when compiled (a name looked up otherwise)
_FIELDS: dict[type, tuple[str, ...]] = {}


def slot_names(cls: type) -> tuple[str, ...]:
    """Every field of ``cls`` and its bases, each once: their ``__slots__``, or where a class compiled as a
    native class has none left at run time, its ``FIELDS`` (the same names)."""
    names = _FIELDS.get(cls)
    if names is None:
        seen: dict[str, None] = {}
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", klass.__dict__.get("FIELDS", ()))
            for name in (slots,) if isinstance(slots, str) else slots:
                seen[name] = None
        names = _FIELDS[cls] = tuple(seen)
    return names


# Compiled, the chain RoundState -> ChanceEvents -> ExplicitChance -> State is one of native classes (single
# inheritance); the one-card games' states subclass it in Python, which the marker allows.
@mypyc_attr(allow_interpreted_subclasses=True)
class RoundState(metaclass=ABCMeta):
    """The object side of a round of any game (see the module). Not an ``ABC``: Diloti's state keeps the
    plain class's fast ``isinstance``. ``_moves``, ``copy``, ``key`` and ``describe`` are each game's own."""

    # Whether the game's rules count sweeps, captures that clear the table (a game whose rules do not keeps its
    # ``sweeps`` at 0, and shows none).
    SWEEPS: ClassVar[bool] = True
    # The fields these methods read, slots of every game's state (a native class's own fields, compiled).
    FIELDS: ClassVar[tuple[str, ...]] = ("phase", "stock", "stock_pos", "hands", "history", "seed", "_legal")
    __slots__ = FIELDS
    phase: Phase
    stock: list[Card]
    stock_pos: int
    hands: list[list[Card]]
    history: list[tuple[int, Move]]
    seed: int
    _legal: list[Move] | None

    # Each game's state writes these (abstract: mypy refuses a game's state without them, and a pure
    # Python state cannot be made without them).
    @abstractmethod
    def _moves(self) -> list[Move]:
        """The legal moves of the position, computed (``legal_moves`` caches them)."""

    @abstractmethod
    def copy(self: R, stack: bool = False) -> R:
        """A copy of the position (with its undo stack when ``stack``)."""

    @abstractmethod
    def key(self) -> tuple[Any, ...]:
        """What makes two positions equal (equality and hashing use it)."""

    @abstractmethod
    def describe(self) -> str:
        """The position in a few lines of text."""

    # Declared here so that compiled code holding any game's state (core/playouts.py) calls them natively.
    @abstractmethod
    def push(self, move: Move) -> None:
        """Play a legal move without checking it."""

    @abstractmethod
    def pop(self) -> Move:
        """Take back the last move and return it."""

    # ---------------------------------------------------------------- queries
    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def remaining_stock(self) -> list[Card]:
        """The undealt cards, next to be dealt first (hidden information)."""
        return self.stock[self.stock_pos:]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER  # the phases are enum members: identity is equality

    def legal_moves(self) -> list[Move]:
        """Every legal move, each exactly once (a new list each call)."""
        return list(self._moves())

    def generate_legal_moves(self) -> Iterator[Move]:
        """The legal moves one at a time (a game whose moves can be too many to list overrides it to make
        them lazily, in bounded memory)."""
        yield from self._moves()

    def candidates_key(self) -> tuple[Any, ...]:
        """What :meth:`candidate_moves` depends on (here nothing is kept: see :meth:`keep_candidates`)."""
        return ()

    def keep_candidates(self, key: tuple[Any, ...], moves: list[Move], complete: bool) -> None:
        """Remember candidates worked out elsewhere, for a game whose candidates cost (Diloti's); here nothing."""
        return None

    def may_sample(self) -> bool:
        """Whether the next position's candidates may be costly to work out (a game that samples says so)."""
        return False

    def candidate_moves(self) -> tuple[list[Move], bool]:
        """The moves a player chooses from (a new list), and whether they are every legal move: here always
        all of them; a game whose moves can number in the millions returns a bounded sample instead
        (Diloti's :meth:`~diloti.games.diloti.state.State.candidate_moves`)."""
        return list(self._moves()), True

    def peek(self) -> Move:
        """The last move played."""
        return self.history[-1][1]

    # ---------------------------------------------------------------- copies
    def __copy__(self: R) -> R:
        return self.copy(stack=True)

    def __deepcopy__(self: R, memo: dict[int, object]) -> R:
        # Cards, moves and options are immutable and the lists kept in the undo frames are never changed
        # after a push (push replaces what it changes), so copy() is a deep copy.
        return self.copy(stack=True)

    def __getstate__(self) -> dict[str, Any]:
        # The legal-move list is a cache: it is worked out again after loading.
        return {name: getattr(self, name) for name in slot_names(type(self)) if name != "_legal"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)
        setattr(self, "_legal", None)  # noqa: B010 - a slot of the game's state, not of this base
        if "_sample" in slot_names(type(self)) and "_sample" not in data:
            setattr(self, "_sample", None)  # noqa: B010 - pickled before the slot existed

    def with_hidden(self: R, hands: list[list[Card]], stock: list[Card], seed: int) -> R:
        """A copy like this state but with other hands and stock (top first), unchecked.

        For samplers of hidden information: the hands must have this state's sizes (each is sorted
        here). The copy keeps the history but cannot ``pop`` what came before.
        """
        s = self.copy()
        s.hands = [sorted(h) for h in hands]
        s.stock = stock
        s.stock_pos = 0
        s.seed = seed
        s.history = self.history.copy()
        return s

    # ------------------------------------------------------------ comparison
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.describe()}>"


__all__ = ["RoundState", "slot_names"]
