"""The computer players' errors: each a :class:`~diloti.core.errors.DilotiError` that keeps what it was given.

>>> from diloti.ai import make_player
>>> try:
...     make_player("grandmaster")
... except UnknownLevelError as exc:
...     print(exc.input, "|", exc)
grandmaster | unknown level 'grandmaster' (known: random, greedy, heuristic, expert, master, learned)
"""

from __future__ import annotations

from typing import Any

from diloti.core.errors import DilotiError


class PlayerError(DilotiError, ValueError):
    """A computer player cannot do what it was asked; ``input`` is what it was given."""

    def __init__(self, message: str, input: Any = None) -> None:
        super().__init__(message)
        self.input = input

    def __reduce__(self) -> tuple[Any, ...]:
        # The subclasses' __init__ take other arguments than the message, so pickling (a worker
        # process answering with this error) rebuilds the object as it is instead of calling them.
        return (_rebuild, (type(self), self.args, self.__dict__))


def _rebuild(cls: type[PlayerError], args: tuple[Any, ...], state: dict[str, Any]) -> PlayerError:
    err = cls.__new__(cls)
    err.args = args
    err.__dict__.update(state)
    return err


class UnknownLevelError(PlayerError):
    """No computer player has that name, or one of its settings is wrong; ``input`` is the spec."""


class InvalidSettingError(PlayerError):
    """A player's setting is out of range; ``name`` is the setting, ``input`` its value."""

    def __init__(self, name: str, value: Any, expected: str) -> None:
        super().__init__(f"invalid {name} {value!r}: expected {expected}", value)
        self.name = name


class NoMoveError(PlayerError):
    """The seat of the view has no move to make (not its turn, or the round is over); ``input`` is the view."""

    def __init__(self, view: Any) -> None:
        super().__init__(f"seat {view.seat} has no move to make", view)


__all__ = ["InvalidSettingError", "NoMoveError", "PlayerError", "UnknownLevelError"]
