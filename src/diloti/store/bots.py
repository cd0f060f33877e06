"""Bot accounts as stored (docs/BOTS.md): the bot mark of a player, its revocable tokens (SHA-256 only), the
challenges between accounts and the events each account's stream tells, which every server process reads.

>>> import tempfile, os
>>> from diloti.store.db import Store
>>> from diloti.store.players import PlayerStore
>>> st = Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'b.sqlite3')}")
>>> PlayerStore(st).create_player("p1", "Robo", "robo", "k" * 64, "r" * 64)
>>> bs = BotStore(st)
>>> bs.make_bot("p1"), bs.make_bot("p1")
(None, 'already a bot account')
>>> bs.add_token("p1", "t1", "h" * 64, "play challenge", "laptop")
>>> bs.by_token("h" * 64)[1:]
('play challenge', 'p1')
>>> bs.revoke_token("p1", "t1"), bs.by_token("h" * 64)
(True, None)
>>> [(e.player_id, e.kind) for e in bs.events_after(0)]
[('p1', 'revoked')]
>>> st.close()
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from diloti.store.db import Store, _aware, now
from diloti.store.models import (
    BotEventRow,
    BotTokenRow,
    ChallengeRow,
    PlayerRow,
    ResultRow,
    SeatRow,
    TableRow,
)

EVENTS_KEEP = timedelta(hours=1)  # events older than this are pruned (a stream that reconnects lists its games)


@dataclass(frozen=True)
class TokenData:
    """A bot token as listed to its owner (never the token itself)."""

    id: str
    scopes: str
    label: str
    created: datetime
    revoked: datetime | None


@dataclass(frozen=True)
class ChallengeData:
    """A challenge: who challenged whom, to what game (``settings``), and what became of it."""

    id: str
    from_id: str
    to_id: str
    settings: dict[str, Any]
    token_hash: str
    status: str
    bots: bool
    table_id: str | None
    created: datetime
    decided: datetime | None


@dataclass(frozen=True)
class EventData:
    """One event of an account's stream."""

    id: int
    player_id: str
    kind: str
    body: dict[str, Any]


def _challenge(row: ChallengeRow) -> ChallengeData:
    decided = None if row.decided is None else _aware(row.decided)
    return ChallengeData(row.id, row.from_id, row.to_id, json.loads(row.settings), row.token_hash, row.status,
                         row.bots, row.table_id, _aware(row.created), decided)


class BotStore:
    """Bot accounts, tokens, challenges and events on a :class:`Store`'s engine (blocking: run off the loop)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.session = store.session

    # ------------------------------------------------------------ accounts and tokens
    def make_bot(self, pid: str) -> str | None:
        """Make a player a bot account, for good; the reason it may not be (None: done). Only an account with no
        games (no result, no seat at any table) may become one: a person's history never becomes a bot's."""
        with self.session.begin() as s:
            row = s.get(PlayerRow, pid)
            if row is None or row.deleted is not None:
                return "no such player"
            if row.bot:
                return "already a bot account"
            if s.scalar(select(func.count()).select_from(ResultRow).where(ResultRow.player_id == pid)) or \
                    s.scalar(select(func.count()).select_from(SeatRow).where(SeatRow.player_id == pid)):
                return "the account has played games: only a new account may become a bot"
            row.bot = True
            return None

    def bot_ids(self) -> set[str]:
        """Every bot account's id."""
        with self.session() as s:
            return set(s.scalars(select(PlayerRow.id).where(PlayerRow.bot.is_(True))))

    def add_token(self, pid: str, tid: str, token_hash: str, scopes: str, label: str) -> None:
        with self.session.begin() as s:
            s.add(BotTokenRow(id=tid, player_id=pid, token_hash=token_hash, scopes=scopes, label=label,
                              created=now()))

    def tokens(self, pid: str) -> list[TokenData]:
        with self.session() as s:
            return [TokenData(r.id, r.scopes, r.label, _aware(r.created), None if r.revoked is None else
                              _aware(r.revoked))
                    for r in s.scalars(select(BotTokenRow).where(BotTokenRow.player_id == pid)
                                       .order_by(BotTokenRow.created))]

    def by_token(self, token_hash: str) -> tuple[str, str, str] | None:
        """(token id, scopes, player id) of a token not revoked, of a bot account not deleted."""
        with self.session() as s:
            row = s.execute(select(BotTokenRow.id, BotTokenRow.scopes, BotTokenRow.player_id)
                            .join(PlayerRow, PlayerRow.id == BotTokenRow.player_id)
                            .where(BotTokenRow.token_hash == token_hash, BotTokenRow.revoked.is_(None),
                                   PlayerRow.deleted.is_(None), PlayerRow.bot.is_(True))).first()
            return None if row is None else (row[0], row[1], row[2])

    def revoke_token(self, pid: str, tid: str) -> bool:
        """Revoke a token (its streams end on every process within a second: the event tells them)."""
        with self.session.begin() as s:
            res = s.execute(update(BotTokenRow).where(BotTokenRow.id == tid, BotTokenRow.player_id == pid,
                                                      BotTokenRow.revoked.is_(None)).values(revoked=now()))
            if getattr(res, "rowcount", 0) != 1:
                return False
            self._event(s, pid, "revoked", {"type": "revoked", "token": tid})
            return True

    # ------------------------------------------------------------ events
    def _event(self, s: Session, pid: str, kind: str, body: dict[str, Any]) -> None:
        s.add(BotEventRow(player_id=pid, kind=kind, body=json.dumps(body, separators=(",", ":")), created=now()))
        self._wake_others(s)

    def _wake_others(self, s: Session) -> None:
        # In the events' own transaction: the other processes hear of them once they are committed, and read
        # them at once (LISTEN/NOTIFY) rather than at their next safety poll.
        self.store._notify(s, [{"k": "bot"}])

    def add_events(self, events: list[tuple[str, str, dict[str, Any]]], once: bool = False) -> None:
        """Add ``(player, kind, body)`` events; ``once``: an event already stored (same player, kind and body) is not
        added again (a game's end seen by two processes)."""
        with self.session.begin() as s:
            for pid, kind, body in events:
                text = json.dumps(body, separators=(",", ":"))
                if once and s.scalar(select(BotEventRow.id).where(BotEventRow.player_id == pid,
                                                                  BotEventRow.kind == kind,
                                                                  BotEventRow.body == text).limit(1)) is not None:
                    continue
                s.add(BotEventRow(player_id=pid, kind=kind, body=text, created=now()))
            self._wake_others(s)

    def last_event(self) -> int:
        with self.session() as s:
            return int(s.scalar(select(func.max(BotEventRow.id))) or 0)

    def events_after(self, last: int, limit: int = 500) -> list[EventData]:
        with self.session() as s:
            return [EventData(r.id, r.player_id, r.kind, json.loads(r.body))
                    for r in s.scalars(select(BotEventRow).where(BotEventRow.id > last).order_by(BotEventRow.id)
                                       .limit(limit))]

    def prune_events(self) -> None:
        with self.session.begin() as s:
            s.execute(delete(BotEventRow).where(BotEventRow.created < now() - EVENTS_KEEP))

    # ------------------------------------------------------------ games and challenges
    def active_games(self, pid: str) -> list[tuple[str, int]]:
        """The unfinished tables (id, seat) where the account holds a seat."""
        with self.session() as s:
            return [(t, seat) for t, seat in s.execute(
                select(SeatRow.table_id, SeatRow.seat).join(TableRow, TableRow.id == SeatRow.table_id)
                .where(SeatRow.player_id == pid, SeatRow.token_hash.is_not(None),
                       TableRow.status.in_(("waiting", "playing"))).order_by(TableRow.created))]

    def create_challenge(self, c: ChallengeData, body: dict[str, Any]) -> None:
        """Store an open challenge; both accounts' streams hear ``body``."""
        with self.session.begin() as s:
            s.execute(insert(ChallengeRow).values(
                id=c.id, from_id=c.from_id, to_id=c.to_id, settings=json.dumps(c.settings, separators=(",", ":")),
                token_hash=c.token_hash, status="open", bots=c.bots, created=c.created))
            self._event(s, c.to_id, "challenge", body)
            self._event(s, c.from_id, "challenge", body)

    def challenge(self, cid: str) -> ChallengeData | None:
        with self.session() as s:
            row = s.get(ChallengeRow, cid)
            return None if row is None else _challenge(row)

    def open_challenges(self, pid: str, since: datetime) -> list[ChallengeData]:
        """Open challenges to or from the account made after ``since`` (older ones have lapsed)."""
        with self.session() as s:
            return [_challenge(r) for r in s.scalars(
                select(ChallengeRow).where(or_(ChallengeRow.to_id == pid, ChallengeRow.from_id == pid),
                                           ChallengeRow.status == "open", ChallengeRow.created > since)
                .order_by(ChallengeRow.created))]

    def decide(self, cid: str, was: str, status: str, table_id: str | None = None,
               events: list[tuple[str, str, dict[str, Any]]] | None = None) -> bool:
        """Move a challenge from ``was`` to ``status`` (exactly once, whichever process asks), with its events."""
        with self.session.begin() as s:
            res = s.execute(update(ChallengeRow).where(ChallengeRow.id == cid, ChallengeRow.status == was)
                            .values(status=status, table_id=table_id, decided=now()))
            if getattr(res, "rowcount", 0) != 1:
                return False
            for pid, kind, body in events or []:
                self._event(s, pid, kind, body)
            return True

    def challenges_since(self, pid: str, since: datetime) -> int:
        """Challenges the account made since ``since``."""
        with self.session() as s:
            return int(s.scalar(select(func.count()).select_from(ChallengeRow).where(
                ChallengeRow.from_id == pid, ChallengeRow.created > since)) or 0)

    def bot_games_since(self, pid: str, since: datetime) -> int:
        """Games between two bot accounts the account played (or started) since ``since``."""
        with self.session() as s:
            return int(s.scalar(select(func.count()).select_from(ChallengeRow).where(
                or_(ChallengeRow.from_id == pid, ChallengeRow.to_id == pid), ChallengeRow.bots.is_(True),
                ChallengeRow.status == "accepted", ChallengeRow.decided > since)) or 0)

    def oldest_since(self, pid: str, since: datetime, bots: bool) -> datetime | None:
        """The first of the account's challenges (``bots``: of its accepted bot games) since ``since``: when the
        daily count next goes down."""
        with self.session() as s:
            if bots:
                q = select(func.min(ChallengeRow.decided)).where(
                    or_(ChallengeRow.from_id == pid, ChallengeRow.to_id == pid), ChallengeRow.bots.is_(True),
                    ChallengeRow.status == "accepted", ChallengeRow.decided > since)
            else:
                q = select(func.min(ChallengeRow.created)).where(ChallengeRow.from_id == pid,
                                                                 ChallengeRow.created > since)
            at = s.scalar(q)
            return None if at is None else _aware(at)


__all__ = ["BotStore", "ChallengeData", "EventData", "TokenData"]
