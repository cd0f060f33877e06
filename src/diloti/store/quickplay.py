"""Quick play as stored: the queue of players waiting for a game, and the pairing, done by the database.

Every process pairs from the same ``queue`` table in one transaction: the ticket being paired is locked,
then the oldest compatible tickets (same game and settings, a rating close enough, still polled) are
taken with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL (SQLite has one writer), and the new table and the
tickets' seats are written in that transaction: a ticket is seated once, whichever process pairs it.

>>> import tempfile, os
>>> from datetime import timedelta
>>> from diloti.store.db import SeatData, Store, TableData, now
>>> q = QueueStore(Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'q.sqlite3')}"))
>>> t0 = now()
>>> q.enqueue(Ticket("a", "h" * 64, "k", 2, "{}", 1500.0, "Ann", None), t0)
>>> def table(tickets):
...     return TableData("t1", 2, {}, 7, 0, True, "playing", seats=[SeatData(0, "human"), SeatData(1, "human")])
>>> q.pair("a", lambda waited: 100.0, table, t0) is None  # nobody else yet
True
>>> t1 = t0 + timedelta(seconds=1)
>>> q.enqueue(Ticket("b", "i" * 64, "k", 2, "{}", 1560.0, "Bob", None), t1)
>>> q.pair("b", lambda waited: 100.0, table, t1)  # Ann waited longer: seat 0
('t1', 1)
>>> q.status("a", "h" * 64, t1).table_id, q.status("a", "h" * 64, t1).seat
('t1', 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, or_, select, update

from diloti.store.db import Store, TableData, _aware
from diloti.store.models import QueueRow
from diloti.store.players import name_key

GONE = 20.0  # seconds without a poll after which a waiting ticket is no longer paired (its page closed)


@dataclass
class Ticket:
    """A player waiting: ``key`` names the game and settings (only tickets of the same key meet)."""

    id: str
    secret_hash: str
    key: str
    players: int
    settings: str
    rating: float
    name: str
    player_id: str | None
    created: datetime | None = None
    table_id: str | None = None
    seat: int | None = None


def _differ(a: QueueRow, b: QueueRow) -> bool:
    """Two tickets that may sit at one table: not one player, not one name (names alike count as one)."""
    return (a.player_id is None or a.player_id != b.player_id) and name_key(a.name) != name_key(b.name)


def _ticket(r: QueueRow) -> Ticket:
    return Ticket(r.id, r.secret_hash, r.key, r.players, r.settings, r.rating, r.name, r.player_id,
                  _aware(r.created), r.table_id, r.seat)


class QueueStore:
    """The quick-play queue, on the engine of a :class:`~diloti.store.db.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = store.session

    def enqueue(self, t: Ticket, at: datetime) -> None:
        with self.session.begin() as s:
            # Tickets nobody polls any more are let go (their pages closed without cancelling).
            s.execute(delete(QueueRow).where(QueueRow.table_id.is_(None), QueueRow.seen < at - timedelta(minutes=10)))
            s.add(QueueRow(id=t.id, secret_hash=t.secret_hash, key=t.key, players=t.players, settings=t.settings,
                           rating=t.rating, name=t.name, player_id=t.player_id, created=at, seen=at))

    def status(self, ticket_id: str, secret_hash: str, at: datetime) -> Ticket | None:
        """The ticket (marked as polled now), or None if there is no such ticket with that secret."""
        with self.session.begin() as s:
            row = s.get(QueueRow, ticket_id)
            if row is None or row.secret_hash != secret_hash:
                return None
            row.seen = at
            return _ticket(row)

    def cancel(self, ticket_id: str, secret_hash: str) -> bool:
        """Leave the queue; False if the ticket is seated already (or unknown)."""
        with self.session.begin() as s:
            res = s.execute(delete(QueueRow).where(QueueRow.id == ticket_id, QueueRow.secret_hash == secret_hash,
                                                   QueueRow.table_id.is_(None)))
            return bool(getattr(res, "rowcount", 0))

    def pair(self, ticket_id: str, width: Callable[[float], float], make_table: Callable[[list[Ticket]], TableData],
             at: datetime, alone: bool = False) -> tuple[str, int] | None:
        """Seat the ticket with the oldest compatible waiting tickets (or, ``alone``, by itself: a game against
        the computer), in one transaction with the table ``make_table`` adds; returns (table, seat) or None.

        ``width(waited)``: how far apart two ratings may be after ``waited`` seconds in the queue (the
        longer one waits, the wider). ``make_table(tickets)`` is the new table (stored in this transaction);
        the tickets get its seats in their order.
        """
        with self.session.begin() as s:
            q = select(QueueRow).where(QueueRow.id == ticket_id, QueueRow.table_id.is_(None))
            me = s.scalars(q.with_for_update() if self.store.is_postgres else q).first()
            if me is None:
                return None
            group = [me]
            if not alone:
                waited = (at - _aware(me.created)).total_seconds()
                span = width(waited)
                others = (select(QueueRow).where(
                    QueueRow.key == me.key, QueueRow.table_id.is_(None), QueueRow.id != me.id,
                    QueueRow.seen >= at - timedelta(seconds=GONE),
                    func.abs(QueueRow.rating - me.rating) <= span).order_by(QueueRow.created)
                    .limit(4 * me.players))
                if me.player_id is not None:  # never against oneself (two tabs, a double click)
                    others = others.where(or_(QueueRow.player_id.is_(None), QueueRow.player_id != me.player_id))
                if self.store.is_postgres:
                    others = others.with_for_update(skip_locked=True)
                # One seat a player and one seat a name (names alike count as one): the oldest that differ.
                for r in s.scalars(others):
                    if len(group) < me.players and all(_differ(r, g) for g in group):
                        group.append(r)
                if len(group) < me.players:
                    return None
                group.sort(key=lambda r: _aware(r.created))
            table = make_table([_ticket(r) for r in group])
            self.store.add_table(s, table)
            table_id = table.id
            for seat, r in enumerate(group):
                s.execute(update(QueueRow).where(QueueRow.id == r.id).values(table_id=table_id, seat=seat))
            return table_id, next(i for i, r in enumerate(group) if r.id == ticket_id)
