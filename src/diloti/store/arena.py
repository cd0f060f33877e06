"""Arena tournaments as stored: the arenas, their players, their games, their standings and final results.

The standings are computed from the games' stored results (the ``results`` rows a game's end writes), never
kept apart: every process reads the same standings, and a process killed mid-arena loses nothing that its
games did not store. Pairing is one transaction per arena with the arena's row locked (``FOR UPDATE SKIP
LOCKED`` on PostgreSQL: another process pairing it now is skipped, not waited for; SQLite has one writer), in
which the new tables and their ``arena_games`` rows are written: every pairing is made once.

Scoring is lichess's arena's: a win 2, a draw 1, a loss 0; after two wins in a row each game counts double
until one is not won (the player is "on fire").

>>> score_sheet([True, True, True, None, False, True])
(12, [2, 2, 4, 2, 0, 2], 4, False)
>>> score_sheet([True, True])[3]  # two wins in a row: the next counts double
True
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from diloti.store.db import Store, TableData, _aware, now
from diloti.store.models import (
    ArenaGameRow,
    ArenaPlayerRow,
    ArenaResultRow,
    ArenaRow,
    ResultRow,
    TableRow,
)

LIVE = ("waiting", "playing")


def score_sheet(outcomes: list[bool | None]) -> tuple[int, list[int], int, bool]:
    """(score, each game's points, wins, on fire) of a player's finished games in order (True won, None drawn)."""
    streak = 0
    sheet: list[int] = []
    for won in outcomes:
        double = 2 if streak >= 2 else 1
        if won is True:
            sheet.append(2 * double)
            streak += 1
        else:
            sheet.append(double if won is None else 0)
            streak = 0
    return sum(sheet), sheet, sum(1 for w in outcomes if w is True), streak >= 2


@dataclass
class ArenaData:
    """An arena's settings and timing."""

    id: str
    name: str
    game: str
    players: int
    options: dict[str, Any]
    clock: tuple[int, int]
    starts: datetime
    seconds: int
    wait: int
    schedule: str | None = None
    creator: str | None = None
    created: datetime | None = None
    final: bool = False

    @property
    def ends(self) -> datetime:
        return self.starts + timedelta(seconds=self.seconds)


@dataclass
class Entry:
    """A player of an arena."""

    player_id: str
    name: str
    secret_hash: str
    rating: float
    joined: datetime
    seen: datetime
    withdrawn: bool = False


@dataclass
class Line:
    """A player's line of the standings (``table``/``seat``: the game they play now)."""

    player_id: str
    name: str
    score: int = 0
    games: int = 0
    wins: int = 0
    fire: bool = False
    sheet: list[int] = field(default_factory=list)
    table: str | None = None
    seat: int | None = None
    withdrawn: bool = False
    rank: int = 0
    free_since: datetime | None = None
    last_opponent: str | None = None  # the last game's opponent ("" for the computer)
    rating: float = 1500.0
    seen: datetime | None = None
    secret_hash: str = ""

    def public(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player_id, "name": self.name, "score": self.score,
                "games": self.games, "wins": self.wins, "fire": self.fire, "sheet": self.sheet,
                "table": self.table, "seat": self.seat, "withdrawn": self.withdrawn}


@dataclass
class Game:
    """A game of an arena, as the standings read it."""

    table_id: str
    seats: list[str | None]  # player ids by seat (None: the computer)
    level: str | None
    status: str
    created: datetime
    names: list[str] = field(default_factory=list)
    winner: int | None = None  # the winning seat of a finished game (None: drawn, or not over)
    end_reason: str | None = None


@dataclass
class Paired:
    """A game a pairing pass made: its table and its players by seat (None: the computer)."""

    table: str
    seats: list[str | None]

    @property
    def computer(self) -> bool:
        return None in self.seats


MakeTable = Callable[[ArenaData, list[Entry | None], str | None], TableData]
GAME_NOTICE = "arena_game"  # the kind of the notice a pairing sends each of its players' processes


def _arena(r: ArenaRow) -> ArenaData:
    return ArenaData(r.id, r.name, r.game, r.players, json.loads(r.options), (r.clock_move, r.clock_reserve),
                     _aware(r.starts), r.seconds, r.wait, r.schedule, r.creator, _aware(r.created), bool(r.final))


class ArenaStore:
    """The arenas' rows, on the engine of a :class:`~diloti.store.db.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = store.session

    # ------------------------------------------------------------ arenas
    def create(self, a: ArenaData) -> bool:
        """Store a new arena; False if its schedule made this one already (another process, just now)."""
        try:
            with self.session.begin() as s:
                s.add(ArenaRow(id=a.id, name=a.name, game=a.game, players=a.players, options=json.dumps(a.options),
                               clock_move=a.clock[0], clock_reserve=a.clock[1], starts=a.starts, seconds=a.seconds,
                               wait=a.wait, schedule=a.schedule, creator=a.creator, created=a.created or a.starts,
                               final=False))
        except IntegrityError:
            return False
        return True

    def get(self, arena_id: str) -> ArenaData | None:
        with self.session() as s:
            row = s.get(ArenaRow, arena_id)
            return None if row is None else _arena(row)

    def listing(self, at: datetime, ahead: timedelta, over: int = 5) -> list[ArenaData]:
        """The arenas not final that start before ``at + ahead``, then the last ``over`` final ones."""
        with self.session() as s:
            live = s.scalars(select(ArenaRow).where(ArenaRow.final.is_(False), ArenaRow.starts <= at + ahead)
                             .order_by(ArenaRow.starts).limit(100)).all()
            done = s.scalars(select(ArenaRow).where(ArenaRow.final.is_(True)).order_by(ArenaRow.starts.desc())
                             .limit(over)).all()
            return [_arena(r) for r in (*live, *done)]

    def joined_by(self, player_id: str) -> list[str]:
        """The arenas not final the player joined (and did not withdraw from)."""
        with self.session() as s:
            return list(s.scalars(select(ArenaPlayerRow.arena_id).join(ArenaRow, ArenaRow.id == ArenaPlayerRow.arena_id)
                                  .where(ArenaPlayerRow.player_id == player_id, ArenaRow.final.is_(False),
                                         ArenaPlayerRow.withdrawn.is_(False))))

    # ------------------------------------------------------------ players
    def join(self, arena_id: str, e: Entry) -> None:
        """Join (or come back to) the arena: the entry's secret is the seat token of the player's next games."""
        with self.session.begin() as s:
            row = s.get(ArenaPlayerRow, (arena_id, e.player_id))
            if row is None:
                s.add(ArenaPlayerRow(arena_id=arena_id, player_id=e.player_id, name=e.name, secret_hash=e.secret_hash,
                                     rating=e.rating, joined=e.joined, seen=e.seen, withdrawn=False))
            else:
                row.secret_hash, row.seen, row.withdrawn, row.name = e.secret_hash, e.seen, False, e.name

    def withdraw(self, arena_id: str, player_id: str) -> bool:
        with self.session.begin() as s:
            res = s.execute(update(ArenaPlayerRow).where(ArenaPlayerRow.arena_id == arena_id,
                                                         ArenaPlayerRow.player_id == player_id).values(withdrawn=True))
            return bool(getattr(res, "rowcount", 0))

    def seen(self, arena_id: str, player_id: str, at: datetime) -> None:
        """The player's page is open (polled now): they may be paired."""
        with self.session.begin() as s:
            s.execute(update(ArenaPlayerRow).where(ArenaPlayerRow.arena_id == arena_id,
                                                   ArenaPlayerRow.player_id == player_id).values(seen=at))

    def seen_many(self, arena_id: str, player_ids: list[str], at: datetime) -> None:
        """These players' pages are open (their websockets follow the arena here): they may be paired."""
        with self.session.begin() as s:
            s.execute(update(ArenaPlayerRow).where(ArenaPlayerRow.arena_id == arena_id,
                                                   ArenaPlayerRow.player_id.in_(player_ids)).values(seen=at))

    def player_of(self, arena_id: str, secret_hash: str) -> tuple[str, str | None, int | None] | None:
        """The player whose arena secret this is (not withdrawn), with the table they play now and their seat."""
        with self.session() as s:
            pid = s.scalars(select(ArenaPlayerRow.player_id).where(
                ArenaPlayerRow.arena_id == arena_id, ArenaPlayerRow.secret_hash == secret_hash,
                ArenaPlayerRow.withdrawn.is_(False))).first()
        if pid is None:
            return None
        _, table, seat = self.current(arena_id, pid, None)
        return pid, table, seat

    def current(self, arena_id: str, player_id: str, at: datetime | None) -> tuple[bool, str | None, int | None]:
        """(joined and not withdrawn, the table the player plays now, their seat); with ``at``, marking them present
        (a write: the caller spares it when it marked them present a moment ago)."""
        with self.session.begin() as s:
            if at is not None:
                res = s.execute(update(ArenaPlayerRow).where(ArenaPlayerRow.arena_id == arena_id,
                                                             ArenaPlayerRow.player_id == player_id,
                                                             ArenaPlayerRow.withdrawn.is_(False)).values(seen=at))
                joined = bool(getattr(res, "rowcount", 0))
            else:
                joined = s.scalars(select(ArenaPlayerRow.player_id).where(
                    ArenaPlayerRow.arena_id == arena_id, ArenaPlayerRow.player_id == player_id,
                    ArenaPlayerRow.withdrawn.is_(False))).first() is not None
            if not joined:
                return False, None, None
            row = s.execute(select(ArenaGameRow.table_id, ArenaGameRow.p0).join(
                TableRow, TableRow.id == ArenaGameRow.table_id).where(
                ArenaGameRow.arena_id == arena_id, TableRow.status.in_(LIVE),
                (ArenaGameRow.p0 == player_id) | (ArenaGameRow.p1 == player_id))
                .order_by(ArenaGameRow.created.desc())).first()
            return True, None if row is None else row[0], None if row is None else (0 if row[1] == player_id else 1)

    # ------------------------------------------------------------ standings
    def standings(self, arena_id: str) -> tuple[list[Line], list[Game]]:
        """The standings (ranked) and the games of the arena, as stored now."""
        with self.session() as s:
            return self._standings(s, arena_id)

    def _standings(self, s: Session, arena_id: str) -> tuple[list[Line], list[Game]]:
        # Columns, not ORM objects: every pass and every document reads every player and game of the arena, and
        # building ORM objects for 200 players was most of a loaded process's database thread (measured).
        p = ArenaPlayerRow
        lines = {pid: Line(pid, name, withdrawn=bool(withdrawn), free_since=_aware(joined), rating=rating,
                           seen=_aware(seen), secret_hash=secret_hash)
                 for pid, name, withdrawn, joined, rating, seen, secret_hash in s.execute(
                     select(p.player_id, p.name, p.withdrawn, p.joined, p.rating, p.seen, p.secret_hash)
                     .where(p.arena_id == arena_id))}
        g = ArenaGameRow
        rows = s.execute(select(g.table_id, g.p0, g.p1, g.level, g.created, TableRow.status, TableRow.end_reason,
                                TableRow.updated, TableRow.winner)
                         .join(TableRow, TableRow.id == g.table_id)
                         .where(g.arena_id == arena_id)
                         .order_by(g.created, g.table_id)).all()
        over = [r[0] for r in rows if r[5] == "over"]  # only a finished game has results
        won = {(t, pid): w for t, pid, w in s.execute(
            select(ResultRow.table_id, ResultRow.player_id, ResultRow.won).where(
                ResultRow.table_id.in_(over), ResultRow.player_id.is_not(None)))} if over else {}
        outcomes: dict[str, list[bool | None]] = {pid: [] for pid in lines}
        games: list[Game] = []
        for table_id, p0, p1, level, created, status, reason, updated, winner in rows:
            seats = [p0, p1]
            games.append(Game(table_id, seats, level, status, _aware(created),
                              [lines[x].name if x in lines else (level or "") for x in seats], winner, reason))
            for seat, pid in enumerate(seats):
                if pid is None or pid not in lines:
                    continue
                line = lines[pid]
                other = seats[1 - seat]
                line.last_opponent = other or ""
                if status in LIVE:
                    line.table, line.seat = table_id, seat
                    continue
                line.free_since = max(line.free_since or _aware(updated), _aware(updated))
                if status == "over" and not (reason or "").startswith("aborted") and (table_id, pid) in won:
                    outcomes[pid].append(won[(table_id, pid)])
        for pid, line in lines.items():
            line.score, line.sheet, line.wins, line.fire = score_sheet(outcomes[pid])
            line.games = len(line.sheet)
        ranked = sorted(lines.values(), key=lambda x: (-x.score, -x.wins, x.games, x.name.casefold(), x.player_id))
        for i, line in enumerate(ranked):
            same = i and (ranked[i - 1].score, ranked[i - 1].wins) == (line.score, line.wins)
            line.rank = ranked[i - 1].rank if same else i + 1
        return ranked, games

    # ------------------------------------------------------------ pairing
    def _lock(self, s: Session, arena_id: str) -> ArenaRow | None:
        q = select(ArenaRow).where(ArenaRow.id == arena_id)
        if self.store.is_postgres:
            q = q.with_for_update(skip_locked=True)  # another process pairs it now: its turn, not ours
        return s.scalars(q).first()

    def pair(self, arena_id: str, at: datetime, present: float, level_of: Callable[[float], str],
             make_table: MakeTable) -> list[Paired]:
        """Pair the arena's free players (one transaction, the arena locked): the free players present (their
        page seen within ``present`` seconds), by score, each with the nearest free player who was not their
        last opponent; one who waited the arena's ``wait`` alone plays the computer of ``level_of(rating)``.
        Returns the new games. On PostgreSQL the same transaction tells the other processes each player's new game
        (a :data:`GAME_NOTICE` notice): a player whose page is connected to another process hears of it there."""
        with self.session.begin() as s:
            row = self._lock(s, arena_id)
            at = max(at, now())  # the time it pairs, not the time it was asked (a busy database: seconds later)
            if row is None or row.final:
                return []
            arena = _arena(row)
            if not arena.starts <= at < arena.ends:
                return []
            lines, _ = self._standings(s, arena_id)
            free = [ln for ln in lines if not ln.withdrawn and ln.table is None and ln.seen is not None
                    and ln.seen >= at - timedelta(seconds=present)]
            free.sort(key=lambda ln: (-ln.score, -ln.rating, ln.player_id))
            used: set[str] = set()
            groups: list[tuple[list[Line | None], str | None]] = []
            for i, a in enumerate(free):
                if a.player_id in used:
                    continue
                for b in free[i + 1:]:
                    if b.player_id in used or a.last_opponent == b.player_id or b.last_opponent == a.player_id:
                        continue  # never the same opponent twice in a row
                    used.update((a.player_id, b.player_id))
                    pair: list[Line | None] = [a, b] if secrets.randbelow(2) else [b, a]
                    groups.append((pair, None))
                    break
            for a in free:
                since = max(a.free_since or arena.starts, arena.starts)
                if a.player_id not in used and (at - since).total_seconds() >= arena.wait:
                    solo: list[Line | None] = [a, None] if secrets.randbelow(2) else [None, a]
                    groups.append((solo, level_of(a.rating)))
            tables = [(make_table(arena, [None if ln is None else Entry(ln.player_id, ln.name, ln.secret_hash,
                                                                        ln.rating, at, at) for ln in group],
                                  computer), [None if ln is None else ln.player_id for ln in group], computer)
                      for group, computer in groups]
            made = [Paired(table.id, seats) for table, seats, _ in tables]
            # The players' notices before the tables' own ("created", sent by add_table): another process handles
            # a table's notices in the order sent, and loads a created table from the database first; a hundred
            # such loads queued on its database thread, its players heard of their games seconds late (their pages
            # asked /me first: measured, docs/SERVER.md).
            self.store._notify(s, [{"k": GAME_NOTICE, "t": g.table, "a": arena_id, "p": pid, "s": seat}
                                   for g in made for seat, pid in enumerate(g.seats) if pid is not None])
            for table, seats, computer in tables:
                self.store.add_table(s, table)
                s.add(ArenaGameRow(table_id=table.id, arena_id=arena_id, p0=seats[0], p1=seats[1], level=computer,
                                   created=at))
            return made

    def finish(self, arena_id: str, at: datetime, grace: float) -> bool:
        """Store the final standings once the arena is over and its games are (or ``grace`` seconds after its
        end, whatever is still played): once, whichever process does it; True if this call did."""
        with self.session.begin() as s:
            row = self._lock(s, arena_id)
            if row is None or row.final:
                return False
            arena = _arena(row)
            if at < arena.ends:
                return False
            lines, games = self._standings(s, arena_id)
            if any(g.status in LIVE for g in games) and at < arena.ends + timedelta(seconds=grace):
                return False
            row.final = True
            for ln in lines:
                if ln.games:
                    s.add(ArenaResultRow(arena_id=arena_id, player_id=ln.player_id, rank=ln.rank, score=ln.score,
                                         games=ln.games, wins=ln.wins))
            return True

    def results_of(self, player_id: str, limit: int = 50) -> list[tuple[ArenaData, ArenaResultRow]]:
        """The player's final standings, newest arena first."""
        with self.session() as s:
            rows = s.execute(select(ArenaRow, ArenaResultRow).join(ArenaResultRow,
                                                                    ArenaResultRow.arena_id == ArenaRow.id)
                             .where(ArenaResultRow.player_id == player_id).order_by(ArenaRow.starts.desc())
                             .limit(limit)).all()
            return [(_arena(a), r) for a, r in rows]
