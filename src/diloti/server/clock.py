"""The turn clock of a table: seconds per move, and a reserve per player for the moves that take longer.

The player to move has ``move`` seconds; past them the reserve runs down; when both are spent the
clock has run out and the computer plays for the seat (the table shows it away) until its player
takes it back. The reserve each player has left is stored with each of their moves, so a restarted
server (or another process) resumes every clock with the reserve it had; the move's own seconds
start again then, since nobody could move while the server was down.

>>> c = TurnClock(30, 60, 2)
>>> c.start(0, ply=0, now=100.0)
>>> c.deadline()
190.0
>>> c.left_after(0, now=145.0)  # 45 s: 15 s of the reserve spent
45000
>>> c.to_dict(now=110.0)["left"], c.to_dict(now=110.0)["running"]
(20000, 0)
"""

from __future__ import annotations

import time
from typing import Any

CLOCK_MOVE = (5, 600)  # the seconds per move a table may choose
CLOCK_RESERVE = (0, 3600)  # the reserve seconds a table may choose


class TurnClock:
    """Seconds per move plus a reserve per seat; runs for the seat to move while its player plays it."""

    def __init__(self, move: int, reserve: int, players: int, left: dict[int, int] | None = None) -> None:
        self.move = move
        self.reserve = reserve
        self.reserves = [reserve * 1000] * players  # each seat's reserve, in ms
        for seat, ms in (left or {}).items():
            self.reserves[seat] = ms
        self.seat: int | None = None  # whose clock runs (None: nobody's)
        self.ply = -1  # the ply it runs for
        self.started = 0.0  # when it started, on the monotonic clock

    def start(self, seat: int, ply: int, now: float | None = None) -> None:
        """Run ``seat``'s clock for ``ply`` (from now); running already for that ply and seat, it goes on."""
        if self.seat == seat and self.ply == ply:
            return
        self.seat, self.ply = seat, ply
        self.started = time.monotonic() if now is None else now

    def stop(self) -> None:
        self.seat = None

    def deadline(self) -> float | None:
        """When the running clock runs out (monotonic), or None if none runs."""
        if self.seat is None:
            return None
        return self.started + self.move + self.reserves[self.seat] / 1000

    def left_after(self, seat: int, now: float | None = None) -> int:
        """``seat``'s reserve in ms if it moved now (what to store with the move; nothing changes here)."""
        if self.seat != seat:
            return self.reserves[seat]
        used = (time.monotonic() if now is None else now) - self.started
        return max(0, self.reserves[seat] - max(0, round((used - self.move) * 1000)))

    def moved(self, seat: int, left: int | None) -> None:
        """``seat`` moved (its reserve is now ``left`` ms, if known): its clock stops."""
        if left is not None:
            self.reserves[seat] = max(0, left)
        if self.seat == seat:
            self.seat = None

    def ran_out(self, seat: int) -> None:
        """``seat``'s clock ran out: its reserve is spent."""
        self.reserves[seat] = 0
        if self.seat == seat:
            self.seat = None

    def to_dict(self, now: float | None = None) -> dict[str, Any]:
        """The clock as the players see it: ``left`` is the running seat's move seconds left, in ms
        (its reserve follows), counted down by the page from when the message arrives."""
        t = time.monotonic() if now is None else now
        left = None
        reserves = list(self.reserves)
        if self.seat is not None:
            used = t - self.started
            left = max(0, round((self.move - used) * 1000))
            reserves[self.seat] = max(0, reserves[self.seat] - max(0, round((used - self.move) * 1000)))
        return {"move": self.move, "reserve": self.reserve, "reserves": reserves, "running": self.seat,
                "left": left, "ply": self.ply if self.seat is not None else None}
