"""Perft: count the move sequences of a given length, to check move generation.

``perft(p, 0) = 1``; ``perft(p, d)`` sums ``perft`` over the result of every
legal move at ``d - 1``. A deal from the stock happens inside the move that
empties the last hand, and a finished round has no moves (so it counts 0 at
any depth above 0). The walk uses ``push``/``pop`` on one state.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=1)
>>> perft(s, 0), perft(s, 1) == len(s.legal_moves())
(1, True)
>>> sum(n for _, n in divide(s, 2)) == perft(s, 2)
True
"""

from __future__ import annotations

from typing import Protocol

from diloti.core.moves import Move


class Walkable(Protocol):
    """What perft needs of a position: any game's round (:class:`~diloti.core.interface.RoundRules`)."""

    def legal_moves(self) -> list[Move]: ...
    def push(self, move: Move) -> None: ...
    def pop(self) -> Move: ...


def perft(state: Walkable, depth: int) -> int:
    """The number of legal move sequences of length ``depth`` from ``state``.

    The state is left as it was.
    """
    if depth <= 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    push, pop = state.push, state.pop
    for m in moves:
        push(m)
        total += perft(state, depth - 1)
        pop()
    return total


def divide(state: Walkable, depth: int) -> list[tuple[Move, int]]:
    """Each legal move with the perft count below it (``depth - 1``)."""
    out = []
    for m in state.legal_moves():
        state.push(m)
        out.append((m, perft(state, depth - 1)))
        state.pop()
    return out


__all__ = ["divide", "perft"]
