"""The daily deal as stored: each UTC day's seed and opponent, each player's attempt, the day's leaderboard and
the field (what the players who finished played).

A ranked attempt is unique per day for its player, its address and its device (unique constraints: whichever
process is asked, the database keeps one); unranked attempts (guests, or a player who asked for one) have no
limit but the server's rate limits. A finished attempt is one whose table is over; its result (points against
the computer's) is the ``results`` row its end wrote, so nothing but the game itself is stored when it ends.

>>> import tempfile, os
>>> from diloti.store.db import SeatData, Store, TableData, now
>>> st = Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'd.sqlite3')}")
>>> d = DailyStore(st)
>>> d.day("2026-11-29", lambda: 42, "master:iterations=9,seconds=none", now())
(42, 'master:iterations=9,seconds=none')
>>> d.day("2026-11-29", lambda: 7, "greedy", now())  # the day keeps its first seed and opponent
(42, 'master:iterations=9,seconds=none')
>>> t = TableData("t1", 2, {}, 42, 0, True, "playing", seats=[SeatData(0, "human"), SeatData(1, "bot", "greedy")],
...               event="daily:2026-11-29")
>>> d.start(Attempt("t1", "2026-11-29", None, "Ann", False, None, "a" * 64, None), t)
>>> d.attempt("t1").name
'Ann'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from diloti.store.db import Store, StoreError, TableData, _aware
from diloti.store.models import DailyAttemptRow, DailyDayRow, MoveRow, ResultRow, TableRow


class DailyTaken(StoreError):
    """A ranked attempt refused: ``what`` (``player``, ``address``, ``device``) had one that day already."""

    def __init__(self, what: str) -> None:
        super().__init__(f"this {what} has played today's deal ranked already")
        self.what = what


@dataclass
class Attempt:
    """One game of the daily deal (``address``/``device``: SHA-256 of them; only a ranked attempt keeps them)."""

    table_id: str
    day: str
    player_id: str | None
    name: str
    ranked: bool
    started: datetime | None
    address: str | None = None
    device: str | None = None


@dataclass
class Standing:
    """A finished ranked attempt on its day's leaderboard."""

    rank: int
    table_id: str
    player_id: str
    name: str
    points: int
    against: int
    finished: datetime

    @property
    def diff(self) -> int:
        return self.points - self.against


def _attempt(r: DailyAttemptRow) -> Attempt:
    return Attempt(r.table_id, r.day, r.player_id, r.name, r.ranked, _aware(r.started), r.rank_address,
                   r.rank_device)


class DailyStore:
    """The daily deal's rows, on the engine of a :class:`~diloti.store.db.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = store.session

    def day(self, day: str, seed: Callable[[], int], level: str, at: datetime) -> tuple[int, str]:
        """The day's (seed, opponent), made now with ``seed()`` and ``level`` if nobody made them yet."""
        with self.session() as s:
            row = s.get(DailyDayRow, day)
            if row is not None:
                return row.seed, row.level
        try:
            with self.session.begin() as s:
                s.add(DailyDayRow(day=day, seed=seed(), level=level, created=at))
        except IntegrityError:
            pass  # another process made it just now: theirs stands
        with self.session() as s:
            row = s.get(DailyDayRow, day)
            assert row is not None
            return row.seed, row.level

    def start(self, a: Attempt, table: TableData) -> None:
        """Store the attempt with its table (one transaction); :class:`DailyTaken` if a ranked one is not allowed."""
        rank = a.ranked
        try:
            with self.session.begin() as s:
                if rank:  # the precise reason first; the unique constraints are the guard
                    for what, col, value in (("player", DailyAttemptRow.rank_player, a.player_id),
                                             ("address", DailyAttemptRow.rank_address, a.address),
                                             ("device", DailyAttemptRow.rank_device, a.device)):
                        if value is not None and s.scalars(select(DailyAttemptRow.table_id).where(
                                DailyAttemptRow.day == a.day, col == value)).first() is not None:
                            raise DailyTaken(what)
                self.store.add_table(s, table)
                s.add(DailyAttemptRow(table_id=a.table_id, day=a.day, player_id=a.player_id, name=a.name,
                                      ranked=rank, rank_player=a.player_id if rank else None,
                                      rank_address=a.address if rank else None,
                                      rank_device=a.device if rank else None, started=a.started or table.created))
        except IntegrityError:
            raise DailyTaken("player, address or device") from None

    def attempt(self, table_id: str) -> Attempt | None:
        with self.session() as s:
            row = s.get(DailyAttemptRow, table_id)
            return None if row is None else _attempt(row)

    def mine(self, day: str, player_id: str) -> tuple[Attempt, str] | None:
        """The player's ranked attempt of ``day`` and its table's status."""
        with self.session() as s:
            row = s.execute(select(DailyAttemptRow, TableRow.status).join(
                TableRow, TableRow.id == DailyAttemptRow.table_id).where(
                DailyAttemptRow.day == day, DailyAttemptRow.rank_player == player_id)).first()
            return None if row is None else (_attempt(row[0]), row[1])

    def standings(self, day: str) -> list[Standing]:
        """The day's leaderboard: its finished ranked attempts, best points difference first (then the earliest)."""
        with self.session() as s:
            rows = s.execute(select(DailyAttemptRow.table_id, DailyAttemptRow.player_id, DailyAttemptRow.name,
                                    ResultRow.points, ResultRow.against, TableRow.updated)
                             .join(TableRow, TableRow.id == DailyAttemptRow.table_id)
                             .join(ResultRow, (ResultRow.table_id == DailyAttemptRow.table_id)
                                   & (ResultRow.seat == 0))
                             .where(DailyAttemptRow.day == day, DailyAttemptRow.ranked.is_(True),
                                    TableRow.status == "over")).all()
        ordered = sorted(rows, key=lambda r: (-(r[3] - r[4]), _aware(r[5]), r[0]))
        out: list[Standing] = []
        for i, (tid, pid, name, points, against, finished) in enumerate(ordered):
            diff = points - against
            rank = out[-1].rank if out and out[-1].diff == diff else i + 1  # equal differences share a rank
            out.append(Standing(rank, tid, pid or "", name, points, against, _aware(finished)))
        return out

    def history(self, player_id: str, limit: int = 60) -> list[tuple[str, Standing | None]]:
        """The player's ranked attempts, newest day first: (day, its standing, or None if not finished)."""
        with self.session() as s:
            days = list(s.scalars(select(DailyAttemptRow.day).where(DailyAttemptRow.rank_player == player_id)
                                  .order_by(DailyAttemptRow.day.desc()).limit(limit)))
        out: list[tuple[str, Standing | None]] = []
        for day in days:
            mine = next((st for st in self.standings(day) if st.player_id == player_id), None)
            out.append((day, mine))
        return out

    def field(self, day: str, moves: list[tuple[int, str]], seat: int) -> list[tuple[int, int, int]]:
        """How the field played: for each of ``moves`` (the game's, ``(seat, move)``) made by ``seat``, its ply,
        how many finished games of the day reached that position (the same moves before it: the deals and the
        computer's replies are the same for everyone) and how many of them played the same move there."""
        with self.session() as s:
            tables = list(s.scalars(select(DailyAttemptRow.table_id).join(
                TableRow, TableRow.id == DailyAttemptRow.table_id).where(
                DailyAttemptRow.day == day, TableRow.status == "over")))
            games: dict[str, list[str]] = {t: [] for t in tables}
            for tid, move in s.execute(select(MoveRow.table_id, MoveRow.move).where(
                    MoveRow.table_id.in_(tables)).order_by(MoveRow.table_id, MoveRow.ply)):
                games[tid].append(move)
        reached: Counter[int] = Counter()
        same: Counter[tuple[int, str]] = Counter()
        for played in games.values():
            h = 0
            for move in played:
                reached[h] += 1
                same[(h, move)] += 1
                h = hash((h, move))
        out = []
        h = 0
        for ply, (mover, move) in enumerate(moves):
            if mover == seat:
                out.append((ply, reached[h], same[(h, move)]))
            h = hash((h, move))
        return out
