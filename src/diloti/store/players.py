"""Players who come back, as stored: identities and device keys, ratings, per-seat results, profiles and the
leaderboard (:class:`PlayerStore`, on the engine of a :class:`~diloti.store.db.Store`).

Secrets are stored only as SHA-256 hashes (device keys, recovery codes) or argon2 hashes (passwords,
made by the caller). A game's end, its results and its rating updates are one transaction, written
once whichever process sees the game end (``tables.scored`` is set by a conditional update).

>>> import tempfile, os
>>> from diloti.store.db import Store, TableData, SeatData
>>> st = Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'p.sqlite3')}")
>>> ps = PlayerStore(st)
>>> ps.create_player("p1", "Ann", "ann", "k" * 64, "r" * 64)
>>> ps.by_key("k" * 64).name, ps.by_key("x" * 64)
('Ann', None)
>>> st.create_table(TableData("t1", 2, {}, 7, 0, False, "playing",
...                 seats=[SeatData(0, "human", None, "Ann", "h" * 64, player_id="p1"), SeatData(1, "bot", "greedy")]))
>>> seats = [SeatResult(0, "human", None, "p1", 0, 61, 40, 5, 2), SeatResult(1, "bot", "greedy", None, 1, 40, 61, 5, 0)]
>>> ps.finish(GameResult("t1", "2p", 0, None, True, seats), lambda teams, winner: [(30.0, 7.0), None])
True
>>> ps.finish(GameResult("t1", "2p", 0, None, True, seats), lambda teams, winner: [(99.0, 1.0), None])  # once
True
>>> [(r.mode, r.mu, r.games, r.wins) for r in ps.ratings("p1")]
[('2p', 30.0, 1, 1), ('overall', 30.0, 1, 1)]
>>> st.close()
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, case, delete, func, insert, or_, select, text, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from diloti.store.db import Store, StoreError, _aware, now
from diloti.store.models import (
    ChatRow,
    PlayerKeyRow,
    PlayerRow,
    PlayerStatsRow,
    RatingRow,
    ResultRow,
    SeatRow,
    SignInRow,
    TableRow,
)

# Letters of the Greek and Cyrillic alphabets that look like a Latin one (in either case), by their case-folded
# form: "ΕΛΕΝΗ" typed with a Latin E or H must not be a second player beside the Greek one.
_ALIKE = str.maketrans({
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "y", "χ": "x", "а": "a", "в": "b", "е": "e", "ё": "e", "і": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ӏ": "l",
})


def name_key(name: str) -> str:
    """The form of a name that must be unique: compatibility-normalised, case-folded, accents and spaces
    taken out or collapsed, and letters that look alike across the Latin, Greek and Cyrillic alphabets made one,
    so that two names that look the same are one name.

    >>> name_key("  Ελένη  Π. ") == name_key("ΕΛΕΝΗ π.") == name_key("Eλενη Π.")  # Latin E, no accent
    True
    >>> name_key("Nikos") == name_key("Νikos"), name_key("Nikos") == name_key("Νίκος")  # Greek N; all Greek
    (True, False)
    """
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).translate(_ALIKE)
    return " ".join(unicodedata.normalize("NFC", text).split())


MODES = ("overall", "2p", "4p")


class NameTaken(StoreError):
    """Another player has that name (names are unique, compared case-folded)."""


@dataclass(frozen=True)
class PlayerData:
    """A player as stored (``name`` is None once deleted)."""

    id: str
    name: str | None
    password_hash: str | None
    created: datetime
    deleted: bool = False
    bot: bool = False  # a bot account: an outside program plays it (docs/BOTS.md)


@dataclass(frozen=True)
class RatingData:
    """A player's rating in one mode with the counts of their rated games in it."""

    mode: str
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    rank: int | None = 0  # on the leaderboard of the mode (1 = first; None: beyond the first 10,000); 0: not asked


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game: who (a player's id, a computer's level, or neither: a guest), its side and
    the side's points (``against``: the other side's), the rounds played and the xeris this seat made."""

    seat: int
    kind: str
    level: str | None
    player_id: str | None
    side: int
    points: int
    against: int
    rounds: int
    xeris: int


@dataclass(frozen=True)
class GameResult:
    """A finished game: ``mode`` ``2p`` or ``4p``, the winning side (None: a draw), why it ended early (None:
    played out) and whether it may be rated (the caller's rules; the store adds: every player still exists)."""

    table_id: str
    mode: str
    winner: int | None
    end_reason: str | None
    rated: bool
    seats: list[SeatResult]


# (side, the player's rating (mu, sigma) or None: a newcomer, the computer's level or None) per seat, and the
# winning side -> each seat's new rating (None for a seat that is not a player's).
Rater = Callable[[list[tuple[int, tuple[float, float] | None, str | None]], int | None],
                 list[tuple[float, float] | None]]


@dataclass(frozen=True)
class GameLine:
    """A finished game in a player's list: their seat's result and every seat's name."""

    table_id: str
    finished: datetime
    mode: str
    seat: int
    side: int
    won: bool | None
    points: int
    against: int
    rounds: int
    xeris: int
    rated: bool
    end_reason: str | None
    mu: float | None
    sigma: float | None
    seats: list[tuple[int, str, str | None, str | None]]  # (seat, kind, player id, name or level) in seat order


@dataclass(frozen=True)
class ProfileData:
    """What a profile shows, as of one moment (:meth:`PlayerStore.profile_data`)."""

    ratings: list[RatingData]  # with ranks
    totals: dict[str, dict[str, int]]  # per mode: games, won, lost, xeris, points, rounds
    # (player id, name, level, games, won, lost)
    opponents: list[tuple[str | None, str | None, str | None, int, int, int]]
    history: dict[str, list[tuple[datetime, float, float]]]  # mode -> (when, mu, sigma), oldest first
    games: tuple[int, list[GameLine]]  # the first page, as :meth:`PlayerStore.games`


RECENT = 1000  # the favourite opponents are counted over a player's last this many games


def _opponents() -> Select[Any]:
    """The favourite opponents' query (built once: adapting the aliases costs more than running it)."""
    recent = (select(ResultRow.table_id, ResultRow.side, ResultRow.won).where(ResultRow.player_id == bindparam("pid"))
              .order_by(ResultRow.finished.desc()).limit(RECENT).subquery())
    me, other = recent.c, aliased(ResultRow)
    n = func.count().label("n")
    top = (select(other.player_id, other.level, n, func.sum(case((me.won.is_(True), 1), else_=0)).label("w"),
                  func.sum(case((me.won.is_(False), 1), else_=0)).label("lo"))
           .select_from(recent).join(other, and_(other.table_id == me.table_id, other.side != me.side))
           .where(or_(other.player_id.is_not(None), other.kind == "bot"))
           .group_by(other.player_id, other.level).order_by(n.desc(), other.player_id, other.level)
           .limit(bindparam("n")).subquery())
    return (select(top.c.player_id, top.c.level, top.c.n, top.c.w, top.c.lo, PlayerRow.name)
            .outerjoin(PlayerRow, PlayerRow.id == top.c.player_id)
            .order_by(top.c.n.desc(), top.c.player_id, top.c.level))


_OPPONENTS = _opponents()


class PlayerStore:
    """Player queries on a :class:`Store`'s engine."""

    COUNT_SECONDS = 30.0  # how long a leaderboard's player count is reused (this process's changes: none)

    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = store.session
        self._counts: dict[str, tuple[float, int]] = {}  # mode -> (when counted, players)
        self._cuts: dict[str, tuple[float, tuple[float, str] | None]] = {}  # mode -> (when, last ranked player)

    def _count(self, s: Session, mode: str, bots: bool = False) -> int:
        """The players of a mode's leaderboard (``bots``: the bot accounts' own list): counting 100,000 index
        entries takes longer than the page itself, so the count is kept a while (forgotten at once when this
        process adds or removes a player's rating)."""
        key = f"{mode}/bots" if bots else mode
        got = self._counts.get(key)
        if got is not None and time.monotonic() - got[0] < self.COUNT_SECONDS:
            return got[1]
        n = int(s.scalar(select(func.count()).select_from(RatingRow)
                         .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                         .where(RatingRow.mode == mode, PlayerRow.bot.is_(bots))) or 0)
        self._counts[key] = (time.monotonic(), n)
        return n

    # ------------------------------------------------------------ identities
    def create_player(self, pid: str, name: str, name_key: str, key_hash: str, recovery_hash: str) -> None:
        """A new player with one device key; :class:`NameTaken` if the name is another player's."""
        stamp = now()
        try:
            with self.session.begin() as s:
                s.add(PlayerRow(id=pid, name=name, name_key=name_key, recovery_hash=recovery_hash, created=stamp,
                                seen=stamp))
                s.flush()
                s.add(PlayerKeyRow(key_hash=key_hash, player_id=pid, created=stamp))
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None

    @staticmethod
    def _data(row: PlayerRow) -> PlayerData:
        return PlayerData(row.id, row.name, row.password_hash, _aware(row.created), row.deleted is not None,
                          bool(row.bot))

    def by_key(self, key_hash: str) -> PlayerData | None:
        """The player a device key belongs to (None: no such key)."""
        with self.session() as s:
            row = s.scalars(select(PlayerRow).join(PlayerKeyRow, PlayerKeyRow.player_id == PlayerRow.id)
                            .where(PlayerKeyRow.key_hash == key_hash, PlayerRow.deleted.is_(None))).first()
            return None if row is None else self._data(row)

    def by_name(self, name_key: str) -> PlayerData | None:
        with self.session() as s:
            row = s.scalars(select(PlayerRow).where(PlayerRow.name_key == name_key)).first()
            return None if row is None else self._data(row)

    def by_id(self, pid: str) -> PlayerData | None:
        with self.session() as s:
            row = s.get(PlayerRow, pid)
            return None if row is None or row.deleted is not None else self._data(row)

    def recover(self, recovery_hash: str, key_hash: str, new_recovery_hash: str) -> PlayerData | None:
        """Move a player to a new device: every old key stops working, a new key and a new recovery code take
        their place (the code is used up). None if no player has that code."""
        with self.session.begin() as s:
            row = s.scalars(select(PlayerRow).where(PlayerRow.recovery_hash == recovery_hash,
                                                    PlayerRow.deleted.is_(None))).first()
            if row is None:
                return None
            s.execute(delete(PlayerKeyRow).where(PlayerKeyRow.player_id == row.id))
            s.add(PlayerKeyRow(key_hash=key_hash, player_id=row.id, created=now()))
            row.recovery_hash = new_recovery_hash
            row.seen = now()
            return self._data(row)

    def new_recovery(self, pid: str, recovery_hash: str) -> None:
        """Replace a player's recovery code (the old one stops working)."""
        with self.session.begin() as s:
            s.execute(update(PlayerRow).where(PlayerRow.id == pid).values(recovery_hash=recovery_hash))

    def add_key(self, pid: str, key_hash: str) -> None:
        """One more device key (a login); the other devices stay signed in."""
        with self.session.begin() as s:
            s.add(PlayerKeyRow(key_hash=key_hash, player_id=pid, created=now()))
            s.execute(update(PlayerRow).where(PlayerRow.id == pid).values(seen=now()))

    def drop_key(self, key_hash: str) -> bool:
        """Sign one device out."""
        with self.session.begin() as s:
            return bool(getattr(s.execute(delete(PlayerKeyRow).where(PlayerKeyRow.key_hash == key_hash)),
                                "rowcount", 0))

    def rename(self, pid: str, name: str, name_key: str) -> None:
        """:class:`NameTaken` if the name is another player's."""
        try:
            with self.session.begin() as s:
                s.execute(update(PlayerRow).where(PlayerRow.id == pid).values(name=name, name_key=name_key))
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken") from None

    def set_password(self, pid: str, password_hash: str | None) -> None:
        with self.session.begin() as s:
            s.execute(update(PlayerRow).where(PlayerRow.id == pid).values(password_hash=password_hash))

    def delete_player(self, pid: str) -> list[str]:
        """Remove a player's personal data: name, password, recovery code, keys, ratings, the addresses they signed in
        from; their seats keep the games with no name, and what they said in chat is deleted. The row stays
        (nameless) so that the games' results stay whole, anonymised. Returns the ids of the tables they sat at."""
        with self.session.begin() as s:
            tables = list(s.scalars(select(SeatRow.table_id).where(SeatRow.player_id == pid)))
            seats = select(SeatRow.table_id, SeatRow.seat).where(SeatRow.player_id == pid)
            s.execute(delete(ChatRow).where(tuple_(ChatRow.table_id, ChatRow.seat).in_(seats)))
            s.execute(update(SeatRow).where(SeatRow.player_id == pid).values(name=None))
            s.execute(delete(PlayerKeyRow).where(PlayerKeyRow.player_id == pid))
            s.execute(delete(SignInRow).where(SignInRow.player_id == pid))
            s.execute(delete(RatingRow).where(RatingRow.player_id == pid))
            s.execute(delete(PlayerStatsRow).where(PlayerStatsRow.player_id == pid))
            self._counts.clear()
            s.execute(update(PlayerRow).where(PlayerRow.id == pid).values(
                name=None, name_key=None, recovery_hash=None, password_hash=None, deleted=now()))
            # The other processes re-read the seats of the games under way (finished ones are read when loaded).
            live = s.scalars(select(TableRow.id).where(TableRow.id.in_(select(SeatRow.table_id).where(
                SeatRow.player_id == pid)), TableRow.status.in_(("waiting", "playing"))))
            self.store._notify(s, [{"k": "seat", "t": t} for t in live])
            return tables

    def names(self, ids: Sequence[str]) -> dict[str, str | None]:
        """The names of players (None for a deleted one)."""
        if not ids:
            return {}
        with self.session() as s:
            return {pid: name for pid, name in s.execute(select(PlayerRow.id, PlayerRow.name)
                                                         .where(PlayerRow.id.in_(list(set(ids)))))}

    # ------------------------------------------------------------ the end of a game
    def finish(self, result: GameResult, rate: Rater, end: tuple[int, str] | None = None) -> bool:
        """Store that a game is over (``end``: it ended early, ``(winner, reason)``, only if still under way;
        else it was played out) and, once, its results and rating updates, in one transaction.

        False (nothing changed) only for an early end of a game that is no longer under way.
        """
        with self.session.begin() as s:
            table = TableRow.id == result.table_id
            if end is not None:
                res = s.execute(update(TableRow).where(table, TableRow.status == "playing").values(
                    status="over", winner=end[0], end_reason=end[1], updated=now()))
                if getattr(res, "rowcount", 0) != 1:
                    return False
            else:
                s.execute(update(TableRow).where(table).values(status="over", winner=result.winner, updated=now()))
            self.store._notify(s, [{"k": "status", "t": result.table_id, "status": "over"}])
            if any(st.player_id for st in result.seats):
                done = s.execute(update(TableRow).where(table, TableRow.scored.is_(False)).values(scored=True))
                if getattr(done, "rowcount", 0) == 1:
                    self._score(s, result, rate)
            return True

    def _score(self, s: Session, result: GameResult, rate: Rater) -> None:
        players = sorted({st.player_id for st in result.seats if st.player_id})
        # Each player's row locked (in id order: no deadlock): two games of one player ending at once in two
        # processes update the rating one after the other.
        q = select(PlayerRow.id, PlayerRow.deleted).where(PlayerRow.id.in_(players)).order_by(PlayerRow.id)
        if self.store.is_postgres:
            q = q.with_for_update()
        alive = {pid for pid, deleted in s.execute(q) if deleted is None}
        rated = result.rated and alive == set(players)
        stamp = now()
        after = self._rate(s, result, rate, players, stamp) if rated else {}
        self._add_totals(s, result, alive)
        s.execute(insert(ResultRow), [_result_row(result, st, rated, stamp, after.get(st.player_id or "", {}))
                                      for st in result.seats])

    def _rate(self, s: Session, result: GameResult, rate: Rater, players: list[str],
              stamp: datetime) -> dict[str, dict[str, tuple[float, float]]]:
        """The players' ratings after the game, in its mode and overall, written to their rows; by player, then mode."""
        after: dict[str, dict[str, tuple[float, float]]] = {}
        old = {(r.player_id, r.mode): r for r in
               s.scalars(select(RatingRow).where(RatingRow.player_id.in_(players),
                                                 RatingRow.mode.in_((result.mode, "overall"))))}
        for mode in (result.mode, "overall"):
            teams = [(st.side, (had.mu, had.sigma) if (had := old.get((st.player_id or "", mode))) else None,
                      st.level if st.kind == "bot" else None) for st in result.seats]
            for st, new in zip(result.seats, rate(teams, result.winner), strict=True):
                if st.player_id is None or new is None:
                    continue
                after.setdefault(st.player_id, {})[mode] = new
                won = result.winner is not None and st.side == result.winner
                lost = result.winner is not None and st.side != result.winner
                row = old.get((st.player_id, mode))
                mu, sigma = new
                if row is None:
                    self._counts.clear()
                    s.add(RatingRow(player_id=st.player_id, mode=mode, mu=mu, sigma=sigma, score=mu - 3 * sigma,
                                    games=1, wins=int(won), losses=int(lost), updated=stamp))
                else:
                    row.mu, row.sigma, row.score, row.updated = mu, sigma, mu - 3 * sigma, stamp
                    row.games += 1
                    row.wins += int(won)
                    row.losses += int(lost)
        return after

    @staticmethod
    def _add_totals(s: Session, result: GameResult, alive: set[str]) -> None:
        """The game added to each (not deleted) player's totals in its mode, rated or not."""
        totals = {r.player_id: r for r in s.scalars(select(PlayerStatsRow).where(
            PlayerStatsRow.player_id.in_(sorted(alive)), PlayerStatsRow.mode == result.mode))}
        for st in result.seats:
            if st.player_id not in alive:
                continue
            t = totals.get(st.player_id)
            if t is None:
                t = totals[st.player_id] = PlayerStatsRow(player_id=st.player_id, mode=result.mode, games=0, won=0,
                                                          lost=0, xeris=0, points=0, rounds=0)
                s.add(t)
            t.games += 1
            t.won += int(result.winner is not None and st.side == result.winner)
            t.lost += int(result.winner is not None and st.side != result.winner)
            t.xeris += st.xeris
            t.points += st.points
            t.rounds += st.rounds

    # ------------------------------------------------------------ profiles
    @contextmanager
    def snapshot(self) -> Iterator[Session]:
        """A session whose reads all see the database as of one moment, for a page made of several queries (a
        profile): a game's end committed meanwhile is in all of them or in none. REPEATABLE READ on PostgreSQL;
        on SQLite one read transaction (its driver begins one only before a write)."""
        with self.session() as s:
            if self.store.is_postgres:
                s.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            else:
                s.execute(text("BEGIN"))
            yield s

    def profile_data(self, pid: str, modes: Sequence[str], games: int) -> ProfileData:
        """Everything a profile shows, read in one :meth:`snapshot`: the rating history of each of ``modes`` and
        the newest ``games`` games."""
        with self.snapshot() as s:
            return ProfileData(self._ratings(s, pid, True), self._totals(s, pid), self._opponents(s, pid),
                               {mode: self._history(s, pid, mode) for mode in modes},
                               self._games(s, pid, 0, games))

    def ratings(self, pid: str, ranks: bool = False) -> list[RatingData]:
        """A player's ratings (modes with at least one rated game), with their leaderboard ranks if asked."""
        with self.session() as s:
            return self._ratings(s, pid, ranks)

    def _ratings(self, s: Session, pid: str, ranks: bool) -> list[RatingData]:
        out = []
        for r in s.scalars(select(RatingRow).where(RatingRow.player_id == pid).order_by(RatingRow.mode)):
            rank: int | None = 0
            if ranks:
                rank = self._rank(s, r.mode, r.score, pid)
            out.append(RatingData(r.mode, r.mu, r.sigma, r.games, r.wins, r.losses, rank))
        return out

    RANKED = 10_000  # ranks are counted this far (a player further down has no rank shown)

    def _rank(self, s: Session, mode: str, score: float, pid: str) -> int | None:
        """A player's place on a leaderboard, if among the first :attr:`RANKED`: the players ahead are counted in
        two ranges of the leaderboard's index (one OR of both would scan the whole mode), at most RANKED."""
        cut = self._cutoff(s, mode)
        if cut is not None and (score, pid) < cut:
            return None  # below the last ranked player (as of up to COUNT_SECONDS ago): nothing to count
        ahead = 0
        for where in ((RatingRow.score > score,), (RatingRow.score == score, RatingRow.player_id > pid)):
            some = select(RatingRow.player_id).where(RatingRow.mode == mode, *where).limit(self.RANKED).subquery()
            ahead += int(s.scalar(select(func.count()).select_from(some)) or 0)
        return ahead + 1 if ahead < self.RANKED else None

    def _cutoff(self, s: Session, mode: str) -> tuple[float, str] | None:
        """The ``(score, player id)`` of the last ranked player of a mode (None: fewer players), kept a while."""
        got = self._cuts.get(mode)
        if got is not None and time.monotonic() - got[0] < self.COUNT_SECONDS:
            return got[1]
        row = s.execute(select(RatingRow.score, RatingRow.player_id).where(RatingRow.mode == mode)
                        .order_by(RatingRow.score.desc(), RatingRow.player_id.desc()).offset(self.RANKED - 1)
                        .limit(1)).first()
        cut = None if row is None else (float(row[0]), str(row[1]))
        self._cuts[mode] = (time.monotonic(), cut)
        return cut

    # The parts of a profile, read in the session given (profile_data's snapshot).
    @staticmethod
    def _totals(s: Session, pid: str) -> dict[str, dict[str, int]]:
        """Per mode (``2p``, ``4p``) over every finished game (rated or not): games, won, lost, xeris, points and
        rounds."""
        return {r.mode: {"games": r.games, "won": r.won, "lost": r.lost, "xeris": r.xeris, "points": r.points,
                         "rounds": r.rounds}
                for r in s.scalars(select(PlayerStatsRow).where(PlayerStatsRow.player_id == pid))}

    @staticmethod
    def _opponents(s: Session, pid: str, limit: int = 5) -> list[tuple[str | None, str | None, str | None, int, int,
                                                                         int]]:
        """The opponents a player met most in their last 1,000 games: ``(player id, name, level, games, won,
        lost)`` (a computer by its level; guests are left out), most games first."""
        return [(p, name, lv, int(c), int(w or 0), int(lo or 0))
                for p, lv, c, w, lo, name in s.execute(_OPPONENTS, {"pid": pid, "n": limit})]

    @staticmethod
    def _history(s: Session, pid: str, mode: str, limit: int = 500) -> list[tuple[datetime, float, float]]:
        """A player's rating after each of their last ``limit`` rated games of a mode (``overall``: every
        mode), oldest first."""
        mu, sigma = (ResultRow.omu, ResultRow.osigma) if mode == "overall" else (ResultRow.mu, ResultRow.sigma)
        q = select(ResultRow.finished, mu, sigma).where(ResultRow.player_id == pid, ResultRow.rated.is_(True),
                                                        mu.is_not(None))
        if mode != "overall":
            q = q.where(ResultRow.mode == mode)
        rows = list(s.execute(q.order_by(ResultRow.finished.desc()).limit(limit)))
        return [(_aware(at), float(m or 0.0), float(sg or 0.0)) for at, m, sg in reversed(rows)]

    def games(self, pid: str, offset: int, limit: int) -> tuple[int, list[GameLine]]:
        """A player's finished games, newest first (a page of them) and how many there are."""
        with self.session() as s:
            return self._games(s, pid, offset, limit)

    @staticmethod
    def _games(s: Session, pid: str, offset: int, limit: int) -> tuple[int, list[GameLine]]:
        total = int(s.scalar(select(func.count()).select_from(ResultRow).where(ResultRow.player_id == pid))
                    or 0)
        mine = list(s.scalars(select(ResultRow).where(ResultRow.player_id == pid)
                              .order_by(ResultRow.finished.desc(), ResultRow.table_id).offset(offset)
                              .limit(limit)))
        ids = [r.table_id for r in mine]
        seats: dict[str, list[tuple[int, str, str | None, str | None]]] = {}
        if ids:
            q = (select(ResultRow.table_id, ResultRow.seat, ResultRow.kind, ResultRow.player_id, ResultRow.level,
                        PlayerRow.name, SeatRow.name)
                 .outerjoin(PlayerRow, PlayerRow.id == ResultRow.player_id)
                 .outerjoin(SeatRow, and_(SeatRow.table_id == ResultRow.table_id, SeatRow.seat == ResultRow.seat))
                 .where(ResultRow.table_id.in_(ids)).order_by(ResultRow.table_id, ResultRow.seat))
            for tid, seat, kind, player, level, pname, sname in s.execute(q):
                shown = level if kind == "bot" else (pname if player else sname)
                seats.setdefault(tid, []).append((seat, kind, player, shown))
        return total, [GameLine(r.table_id, _aware(r.finished), r.mode, r.seat, r.side, r.won, r.points, r.against,
                                r.rounds, r.xeris, r.rated, r.end_reason, r.mu, r.sigma, seats.get(r.table_id, []))
                       for r in mine]

    # ------------------------------------------------------------ the leaderboard
    def leaderboard(self, mode: str, offset: int, limit: int,
                    bots: bool = False) -> tuple[int, list[tuple[str, str | None, RatingData]]]:
        """A page of the players of a mode, best conservative rating first (ties: by id), and how many there
        are (players with at least one rated game in the mode). ``bots``: the bot accounts' own list (the
        people's list never shows a bot)."""
        with self.session() as s:
            total = self._count(s, mode, bots)
            # The page's ids are found in the leaderboard's index alone (an index-only scan: the rows skipped to
            # reach a far page are never read), then the page's rows and names are read.
            order = (RatingRow.score.desc(), RatingRow.player_id.desc())
            page = (select(RatingRow.player_id).join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                    .where(RatingRow.mode == mode, PlayerRow.bot.is_(bots)).order_by(*order).offset(offset)
                    .limit(limit).subquery())
            q = (select(RatingRow, PlayerRow.name).join(page, page.c.player_id == RatingRow.player_id)
                 .join(PlayerRow, PlayerRow.id == RatingRow.player_id).where(RatingRow.mode == mode).order_by(*order))
            rows = [(r.player_id, name, RatingData(mode, r.mu, r.sigma, r.games, r.wins, r.losses, offset + i + 1))
                    for i, (r, name) in enumerate(s.execute(q))]
        return total, rows


def _result_row(result: GameResult, st: SeatResult, rated: bool, stamp: datetime,
                ratings: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """One seat's row of a finished game, with its player's ratings after it (``ratings``: by mode) if rated."""
    none = (None, None)
    return {"table_id": result.table_id, "seat": st.seat, "player_id": st.player_id, "kind": st.kind,
            "level": st.level, "side": st.side, "mode": result.mode, "rated": rated,
            "won": None if result.winner is None else st.side == result.winner,
            "points": st.points, "against": st.against, "rounds": st.rounds, "xeris": st.xeris,
            "end_reason": result.end_reason, "finished": stamp,
            "mu": ratings.get(result.mode, none)[0], "sigma": ratings.get(result.mode, none)[1],
            "omu": ratings.get("overall", none)[0], "osigma": ratings.get("overall", none)[1]}
