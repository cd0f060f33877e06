"""A move chosen in steps, in any game: what every game's fixed action encoding shares.

An environment offers a flat ``Discrete(num_actions)`` space whose ids mean the
same in every position; a move may take several steps (a head action, then
items). :class:`StepDecision` holds the legal moves grouped by head action and
the steps taken so far; each game's encoding (Diloti's in
:mod:`diloti.games.diloti.envs.actions`, the one-card games' in
:mod:`diloti.games.onecard.envs.actions`) says what its ids mean. An action the mask does
not allow raises :class:`InvalidActionError`, naming the step.

>>> from diloti.core.registry import default_game
>>> from diloti.envs.games import find_env_game
>>> s = default_game().new_state(seed=3)
>>> d = find_env_game(default_game().name).decision(s.view(s.turn))
>>> d.head, d.done, len(d.legal_actions()) == len(s.legal_moves())
(-1, False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, SupportsIndex, TypeVar

from diloti.core._mypyc import mypyc_attr
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.core.round_state import slot_names


class InvalidActionError(DilotiError, ValueError):
    """An action id that the mask does not allow at this step (the message names it and the step)."""


D = TypeVar("D", bound="StepDecision")


# Compiled (setup.py's list), a native class. The marker keeps ``cls.__new__(cls)`` from calling ``__init__``
# (copy and pickle make decisions that way), as in Python; each game's decision carries it too.
@mypyc_attr(allow_interpreted_subclasses=True)
class StepDecision:
    """A move being chosen in steps, in any game: what each game's decision (Diloti's
    :class:`~diloti.games.diloti.envs.actions.Decision`, the one-card games'
    :class:`~diloti.games.onecard.envs.actions.HandDecision`) shares.

    The legal moves are grouped by head action (``_groups``: head -> ``(item cards, move)`` pairs);
    :attr:`head` is -1 before the head is chosen, :attr:`chosen` the 52-bit set of item cards chosen
    since, :attr:`candidates` the moves still open. Each game says its action ids: ``actions``,
    ``apply``, ``encode``, :meth:`describe` and :attr:`num_actions`.
    """

    # The fields, for :meth:`copy` (``slot_names``: a compiled class keeps no ``__slots__`` at run time).
    FIELDS: ClassVar[tuple[str, ...]] = ("_actions", "_groups", "candidates", "chosen", "head", "steps")
    __slots__ = FIELDS

    _actions: list[int] | None
    _groups: dict[int, list[tuple[int, Move]]]
    candidates: list[tuple[int, Move]]
    chosen: int
    head: int
    steps: int

    # Each game's decision writes these (declared here for the methods below; compiled, they are the
    # native methods the subclasses override).
    @property
    def num_actions(self) -> int:
        raise NotImplementedError

    @property
    def actions(self) -> list[int]:
        """The actions allowed at this step, ascending (the decision's own list: do not change it)."""
        raise NotImplementedError

    def apply(self, action: SupportsIndex) -> Move | None:
        """Take ``action`` (any integer, numpy's too); the move once it is chosen, else None."""
        raise NotImplementedError

    def encode(self, move: Move) -> list[int]:
        """The action sequence that chooses ``move`` from the start (this decision is not changed)."""
        raise NotImplementedError

    def describe(self, action: SupportsIndex) -> str:
        """What ``action`` means, in words."""
        raise NotImplementedError

    @property
    def done(self) -> bool:
        """No action is open: there is no legal move (the round or hand is over, or cards are to be dealt)."""
        return not self._groups

    def legal_actions(self) -> list[int]:
        """The actions allowed at this step, ascending (a new list)."""
        return list(self.actions)

    def mask_bytes(self) -> bytearray:
        """The action mask: one byte an action id, 1 for the actions allowed at this step (a new buffer)."""
        b = bytearray(self.num_actions)
        for a in self.actions:
            b[a] = 1
        return b

    def _begin(self, groups: dict[int, list[tuple[int, Move]]]) -> None:
        """Start at the first step, with the legal moves grouped by head."""
        self._groups = groups
        self.head = -1
        self.chosen = 0
        self.steps = 0
        self.candidates = []
        self._actions = sorted(groups)

    def _illegal(self, action: int) -> InvalidActionError:
        """The error for an action the mask does not allow now, naming the step and the actions it does."""
        allowed = ", ".join(self.describe(a) for a in self.actions) or "none"
        what = self.describe(action) if 0 <= action < self.num_actions else "out of range"
        return InvalidActionError(f"illegal action {action} ({what}) at step {self.steps}; allowed: {allowed}")

    def _group(self, move: Move, head: int) -> list[tuple[int, Move]]:
        """The legal moves with ``move``'s head ``head``; raises unless ``move`` is one of them."""
        group = self._groups.get(head)
        if group is None or all(m != move for _, m in group):
            raise InvalidActionError(f"move {move} is not among the legal moves")
        return group

    def copy(self: D) -> D:
        """An independent copy at the same step (the legal moves are shared, never changed)."""
        cls = type(self)
        d = cls.__new__(cls)
        for name in slot_names(cls):
            setattr(d, name, getattr(self, name))
        return d

    # A decision never changes its lists in place (a step assigns new ones) and moves are immutable, so
    # the copy above is as deep as a copy needs to be. OpenSpiel's clone() deep-copies a state's attributes,
    # its decision among them: this keeps that at a slot copy instead of a walk over every legal move.
    def __deepcopy__(self: D, memo: dict[int, object]) -> D:
        return self.copy()

    # Pickled by the fields' values (a compiled class has neither ``__dict__`` nor ``__slots__`` to pickle).
    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in slot_names(type(self))}

    def __setstate__(self, data: object) -> None:
        if isinstance(data, tuple):  # (None, slots) from a pickle made before __getstate__ was written
            data = data[1]
        assert isinstance(data, dict)
        for name, value in data.items():
            setattr(self, name, value)

    def restart(self: D) -> D:
        """A copy back at the first step."""
        d = self.copy()
        d.head, d.chosen, d.steps, d.candidates = -1, 0, 0, []
        d._actions = sorted(self._groups)
        return d

    def decode(self, actions: Iterable[int]) -> Move:
        """The move that an action sequence chooses from the start (this decision is not changed)."""
        d = self.restart()
        move = None
        for a in actions:
            if move is not None:
                raise InvalidActionError("action sequence goes on after its move is unique")
            move = d.apply(a)
        if move is None:
            raise InvalidActionError("action sequence ends before its move is unique")
        return move


__all__ = ["InvalidActionError", "StepDecision"]
