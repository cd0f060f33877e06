"""What every game provides: one interface for every game, built in or added later.

Modelled on OpenSpiel's ``Game``/``State`` split. A game is an entry in the registry
(:class:`~diloti.core.registry.GameInfo`): its name, the seats it takes, its frozen options, the state of
one round (:class:`RoundRules`), a whole game of rounds (:class:`WholeGame`) and the per-seat
view that is the one door to hidden information (:class:`SeatViewLike`). Everything above the
games (formats, players, matches, environments, the command line, the server) knows a game
only through these protocols; mypy checks each built-in game's classes against them
(tests/test_interface.py assigns them to these types, and the tests are type-checked).

Moves of every game are :class:`~diloti.core.moves.Move` values and cards are
:class:`~diloti.core.cards.Card` values, so notation, records and the protocol read them alike.

>>> from diloti.core.registry import GAMES
>>> for info in GAMES.values():
...     s: RoundRules = info.state.new(2, info.options(), seed=5)
...     m = s.legal_moves()[0]
...     s.push(m)
...     assert s.pop() == m and s == info.state.new(2, info.options(), seed=5)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from diloti.core.cards import Card
from diloti.core.choice import Choices
from diloti.core.moves import Move
from diloti.core.phase import Phase


@runtime_checkable
class GameOptions(Protocol):
    """A game's options: one frozen object with a text form (a record's ``Options`` header) and a dict form;
    the class's defaults are ``cls()``. Its fields are flags (bool), numbers 1..``MAXIMUM[name]`` (int) and
    words, one of ``CHOICES[name]`` (str); ``help(name)`` says what one means (the server's request models and
    the command line's flags are made from these)."""

    MAXIMUM: ClassVar[dict[str, int]]
    CHOICES: ClassVar[dict[str, tuple[str, ...]]]

    def to_dict(self) -> dict[str, Any]: ...

    def to_text(self) -> str: ...

    def replace(self, **changes: Any) -> Self: ...

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], /) -> Self: ...

    @classmethod
    def from_text(cls, text: str, /) -> Self: ...

    @classmethod
    def names(cls) -> list[str]: ...

    @classmethod
    def help(cls, name: str, /) -> str: ...


class Score(Protocol):
    """One side's score of a round: its parts, and the ``total`` that counts towards the game."""

    @property
    def total(self) -> int: ...


class SeatViewLike(Protocol):
    """What one seat may know of a round: copies of public information and its own hand, never a
    reference to the state (:class:`~diloti.core.view.SeatView` is the shared base).

    ``game`` is the game's name in the registry: the players find the game's card sense by it
    (:func:`diloti.ai.games.players_part`).
    """

    @property
    def game(self) -> str: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def players(self) -> int: ...

    @property
    def turn(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def hand(self) -> tuple[Card, ...]: ...

    @property
    def table(self) -> tuple[Card, ...]: ...

    @property
    def hand_sizes(self) -> tuple[int, ...]: ...

    @property
    def stock_size(self) -> int: ...

    def lists_all(self) -> bool: ...  # whether ``legal`` is every legal move (else a bounded sample)

    def items(self) -> list[int]: ...  # the table's items as card masks (a loose card, a whole pile)

    def choices(self, card: Card, chosen: int) -> Choices: ...  # bounded: a card's moves taking exactly ``chosen``

    @property
    def legal(self) -> tuple[Move, ...]: ...

    @property
    def history(self) -> tuple[tuple[int, Move], ...]: ...

    @property
    def to_move(self) -> bool: ...

    @property
    def unseen_count(self) -> int: ...

    def to_dict(self) -> dict[str, object]: ...


class RoundRules(Protocol):
    """One round (a hand) of a game in play: unchecked ``push`` and checked ``play``, ``pop`` to take back,
    cheap ``copy``, the per-seat ``view``, explicit chance, and the round's score once it is over."""

    SWEEPS: ClassVar[bool]  # whether the rules count sweeps (captures that clear the table)
    players: int
    dealer: int
    turn: int
    phase: Phase
    seed: int
    hands: list[list[Card]]
    history: list[tuple[int, Move]]

    @property
    def game(self) -> str: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def stock_size(self) -> int: ...

    @property
    def remaining_stock(self) -> list[Card]: ...  # the undealt cards, next first (hidden information)

    @property
    def plays(self) -> int: ...

    @property
    def sweeps(self) -> Sequence[int]: ...  # each side's sweeps this round (captures that clear the table)

    @property
    def last_capturer(self) -> int | None: ...  # the seat that captured last (the end-of-round sweep is its)

    def legal_moves(self) -> list[Move]: ...

    def generate_legal_moves(self) -> Iterator[Move]: ...  # lazily: bounded memory on any table

    def candidate_moves(self) -> tuple[list[Move], bool]: ...  # bounded: all the moves, or a sample (False)

    def candidates_key(self) -> tuple[Any, ...]: ...

    def copy(self, stack: bool = False) -> Self: ...  # independent; with ``stack`` it can pop

    def keep_candidates(self, key: tuple[Any, ...], moves: list[Move], complete: bool) -> None: ...

    def may_sample(self) -> bool: ...

    def is_legal(self, move: Move) -> bool: ...

    def push(self, move: Move) -> None: ...

    def play(self, move: Move | str) -> Move: ...

    def pop(self) -> Move: ...

    def view(self, seat: int, scores: Any = ...) -> Any: ...

    def score(self) -> Sequence[Any]: ...

    def points(self) -> tuple[int, ...]: ...

    def describe(self) -> str: ...

    def key(self) -> tuple[Any, ...]: ...


class RoundRecordLike(Protocol):
    """One round as played: enough to replay it exactly (the deck before the deal and the moves), and its score
    once it is over (``score`` per side, ``points`` their totals, ``swept`` the mask of the end-of-round sweep)."""

    @property
    def number(self) -> int: ...

    @property
    def dealer(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def deck(self) -> tuple[Card, ...]: ...

    @property
    def moves(self) -> list[tuple[int, Move]]: ...

    @property
    def score(self) -> Sequence[Any] | None: ...

    @property
    def swept(self) -> int: ...

    @property
    def points(self) -> tuple[int, ...]: ...


class WholeGame(Protocol):
    """A whole game: rounds of :class:`RoundRules` until the game's own rule names a winning side."""

    players: int
    seed: int
    scores: list[int]
    round_no: int
    winner: int | None

    @property
    def sides(self) -> int: ...  # how many sides score apart

    @property
    def is_over(self) -> bool: ...

    @property
    def state(self) -> RoundRules: ...  # the round in play (the last one, once the game is over)

    @property
    def rounds(self) -> Sequence[RoundRecordLike]: ...  # each round's record, in order

    @property
    def current(self) -> RoundRecordLike: ...  # the record of the round in play (the last one, once over)

    def view(self, seat: int) -> SeatViewLike: ...  # the round in play as ``seat`` sees it, with the game's score

    def push(self, move: Move) -> None: ...

    def play(self, move: Move | str) -> Move: ...


__all__ = ["GameOptions", "RoundRecordLike", "RoundRules", "Score", "SeatViewLike", "WholeGame"]
