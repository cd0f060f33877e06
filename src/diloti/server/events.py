"""Events a table may belong to: the daily deal (``daily:DAY``) and arena tournaments (``arena:ID``).

A table of the daily deal is sealed while its day lasts: its record, replay, review and its game as a spectator
sees it would show the day's cards to a player who has not played them yet, so the table routes refuse them
(``sealed``). The player who finished sees the field through the daily deal's own routes
(:mod:`diloti.server.daily`); from the next UTC day on, the day's tables are open like any other.

>>> day_of("daily:2026-11-29"), day_of("arena:x1"), day_of(None)
('2026-11-29', None, None)
>>> from datetime import UTC, datetime
>>> today(datetime(2026, 11, 29, 23, 59, tzinfo=UTC))
'2026-11-29'
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

from diloti.server.protocol import ProtocolError

DAILY = "daily:"
ARENA = "arena:"


class Evented(Protocol):
    """What the guard reads of a table."""

    id: str
    event: str | None


def today(at: datetime | None = None) -> str:
    """The UTC day of ``at`` (default now), as the daily deal names it: ``YYYY-MM-DD``."""
    return (at or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%d")


def day_end(day: str) -> datetime:
    """When the UTC day ``day`` ends (the next day's deal starts)."""
    return datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC) + timedelta(days=1)


def day_of(event: str | None) -> str | None:
    """The day of a daily deal's event (None for another event or none)."""
    return event[len(DAILY):] if event is not None and event.startswith(DAILY) else None


def arena_of(event: str | None) -> str | None:
    """The arena of an arena game's event (None for another event or none)."""
    return event[len(ARENA):] if event is not None and event.startswith(ARENA) else None


def sealed(table: Evented, at: datetime | None = None) -> bool:
    """The table is a daily deal's game of a day that is not over yet."""
    day = day_of(table.event)
    return day is not None and day >= today(at)


def check_unsealed(table: Evented, what: str) -> None:
    """Refuse ``what`` (the record, the replay, watching ...) of a sealed table: ``sealed`` (403)."""
    if sealed(table):
        raise ProtocolError("sealed", f"table {table.id} is a game of today's daily deal: {what} would show the "
                            "day's cards to players who have not played them; the player who finished sees the "
                            "field at POST /api/daily/field, everyone from the next UTC day on", 403)
