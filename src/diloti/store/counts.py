"""Counts that every server process keeps together, in the database: the limits that protect a player (the login
lockout, recovery attempts, renames; :mod:`diloti.server.lockout`) and the addresses players signed in from.

``limit_hits`` holds one row per limit and key: the key's hits as a JSON list of ``[expires, tag]`` (epoch seconds
when the hit leaves the moving window, and the attempt that made it) and ``expires``, when the last of them does.
Keys are opaque (the caller's digests: no names or addresses in the clear). One :meth:`CountStore.counting` is one
transaction that first *upserts* the row of every key it reads, in the keys' order (``INSERT ... ON CONFLICT DO
UPDATE``): on PostgreSQL that locks each row until the commit, so a second process counting the same key waits,
then reads the first one's hits; SQLite has one writer, and the upsert, the transaction's first statement, takes its
write lock. Checking a limit and counting a hit are therefore one step, never a read and a later write that another
process can come between.

Rows whose every hit has left its window are deleted at most once a :data:`PRUNE_SECONDS` per process (on
PostgreSQL skipping rows a count holds), with sign-in addresses unused for :data:`SIGN_IN_DAYS`; a player keeps
the :data:`SIGN_IN_KEEP` most recent addresses.

>>> import tempfile, os
>>> from diloti.store.db import Store
>>> clock = [1000.0]
>>> counts = CountStore(Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'c.sqlite3')}"), lambda: clock[0])
>>> rule = Rule("rename", "p1", 2, 60.0)  # 2 a minute
>>> [counts.take(rule, "a"), counts.take(rule, "b"), counts.take(rule, "c")]  # the third waits 60 s
[0, 0, 60]
>>> clock[0] += 30; counts.forgive([rule], "b"); counts.take(rule, "d")  # a hit forgiven is not counted
0
>>> clock[0] += 31; counts.take(rule, "e")  # the first hit left the window (d's is still in it)
0
>>> counts.store.close()
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select, tuple_, update
from sqlalchemy.orm import Session

from diloti.store.db import Store
from diloti.store.models import LimitHitRow, PlayerRow, SignInRow

PRUNE_SECONDS = 60.0  # how often a process deletes the rows nothing counts any more
SIGN_IN_KEEP = 10  # addresses remembered per player (the most recent)
SIGN_IN_DAYS = 365  # an address unused this long is forgotten


def _at(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, UTC)


@dataclass(frozen=True)
class Rule:
    """A limit on one key: at most ``amount`` hits in any ``seconds`` (a moving window). ``kind`` names the limit
    (at most 16 characters), ``key`` what it counts (an opaque text of at most 64 characters: a digest)."""

    kind: str
    key: str
    amount: int
    seconds: float


class Window:
    """One key's hits in its window, as read (and locked) by one :meth:`CountStore.counting`."""

    def __init__(self, rule: Rule, hits: list[tuple[float, str]], now: float) -> None:
        self.rule = rule
        self.now = now
        self.hits = sorted(h for h in hits if h[0] > now)  # the ones still in the window, oldest first
        self.changed = len(self.hits) != len(hits)

    def room(self) -> bool:
        """One more hit is within the limit."""
        return len(self.hits) < self.rule.amount

    def retry(self) -> int:
        """Seconds until one more hit is within the limit (0: now)."""
        over = len(self.hits) - self.rule.amount
        return 0 if over < 0 else max(1, math.ceil(self.hits[over][0] - self.now))

    def add(self, tag: str) -> None:
        self.hits.append((self.now + self.rule.seconds, tag))
        self.changed = True

    def drop(self, tag: str) -> None:
        """Forget the hits of attempt ``tag``."""
        kept = [h for h in self.hits if h[1] != tag]
        self.changed = self.changed or len(kept) != len(self.hits)
        self.hits = kept


class Counting:
    """The windows of the keys one transaction locked, and what it may read besides (the sign-in addresses)."""

    def __init__(self, session: Session, windows: dict[tuple[str, str], Window], now: float) -> None:
        self.session = session
        self.windows = windows
        self.now = now

    def window(self, rule: Rule) -> Window:
        return self.windows[(rule.kind, rule.key)]

    def known(self, player_id: str, address: str) -> bool:
        """Whether the player signed in from ``address`` (a digest) within :data:`SIGN_IN_DAYS`."""
        since = _at(self.now) - timedelta(days=SIGN_IN_DAYS)
        return self.session.scalar(select(SignInRow.at).where(
            SignInRow.player_id == player_id, SignInRow.address == address, SignInRow.at >= since)) is not None


class CountStore:
    """The shared counts, on the engine of a :class:`~diloti.store.db.Store`; ``clock`` gives epoch seconds."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.session = store.session
        self.clock = clock
        self.pruned = -math.inf  # when this process last pruned

    def _insert(self, table: Any) -> Any:
        """An ``INSERT`` that can say ``ON CONFLICT``: the dialect's own (PostgreSQL and SQLite spell it alike)."""
        if self.store.is_postgres:
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            return pg_insert(table)
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table)

    @contextmanager
    def counting(self, rules: Sequence[Rule]) -> Iterator[Counting]:
        """One transaction holding the windows of ``rules`` locked: what the body adds or drops is written when it
        ends, and nothing if it raises."""
        now = self.clock()
        if now - self.pruned >= PRUNE_SECONDS:
            self.pruned = now
            self.prune(now)
        with self.session.begin() as s:
            windows: dict[tuple[str, str], Window] = {}
            for rule in sorted({(r.kind, r.key): r for r in rules}.values(), key=lambda r: (r.kind, r.key)):
                ins = self._insert(LimitHitRow).values(kind=rule.kind, key=rule.key, hits="[]", expires=_at(now))
                # The upsert changes nothing but locks the row: it holds the key until this transaction ends.
                s.execute(ins.on_conflict_do_update(index_elements=["kind", "key"], set_={"kind": ins.excluded.kind}))
                raw = s.scalar(select(LimitHitRow.hits).where(LimitHitRow.kind == rule.kind,
                                                              LimitHitRow.key == rule.key))
                hits = [(float(e), str(t)) for e, t in json.loads(raw or "[]")]
                windows[(rule.kind, rule.key)] = Window(rule, hits, now)
            yield Counting(s, windows, now)
            for w in windows.values():
                if w.changed:
                    last = max((e for e, _ in w.hits), default=now)
                    s.execute(update(LimitHitRow).where(LimitHitRow.kind == w.rule.kind, LimitHitRow.key == w.rule.key)
                              .values(hits=json.dumps(w.hits, separators=(",", ":")), expires=_at(last)))

    def take(self, rule: Rule, tag: str) -> int:
        """Count one hit of ``rule``'s key if it is within the limit (0), else count nothing and return the seconds
        until it would be."""
        with self.counting([rule]) as c:
            w = c.window(rule)
            if not w.room():
                return w.retry()
            w.add(tag)
            return 0

    def forgive(self, rules: Sequence[Rule], tag: str) -> None:
        """Forget the hits attempt ``tag`` made on these keys (a login whose password was right)."""
        with self.counting(rules) as c:
            for w in c.windows.values():
                w.drop(tag)

    def signed_in(self, player_id: str, address: str) -> None:
        """The player signed in from ``address`` (a digest) now; only their :data:`SIGN_IN_KEEP` latest are kept."""
        at = _at(self.clock())
        with self.session.begin() as s:
            if self.store.is_postgres:  # two sign-ins of one player at once: one after the other
                s.execute(select(PlayerRow.id).where(PlayerRow.id == player_id).with_for_update())
            ins = self._insert(SignInRow).values(player_id=player_id, address=address, at=at)
            s.execute(ins.on_conflict_do_update(index_elements=["player_id", "address"], set_={"at": ins.excluded.at}))
            keep = (select(SignInRow.address).where(SignInRow.player_id == player_id)
                    .order_by(SignInRow.at.desc(), SignInRow.address).limit(SIGN_IN_KEEP))
            s.execute(delete(SignInRow).where(SignInRow.player_id == player_id, SignInRow.address.not_in(keep)))

    def prune(self, now: float | None = None) -> int:
        """Delete the rows nothing counts any more (every hit out of its window) and sign-ins unused for
        :data:`SIGN_IN_DAYS`; returns how many rows of ``limit_hits`` went."""
        at = _at(self.clock() if now is None else now)
        with self.session.begin() as s:
            stale = select(LimitHitRow.kind, LimitHitRow.key).where(LimitHitRow.expires <= at)
            old = select(SignInRow.player_id, SignInRow.address).where(SignInRow.at < at - timedelta(days=SIGN_IN_DAYS))
            if self.store.is_postgres:  # rows a count holds now are left for the next time
                stale, old = stale.with_for_update(skip_locked=True), old.with_for_update(skip_locked=True)
            gone = s.execute(delete(LimitHitRow).where(tuple_(LimitHitRow.kind, LimitHitRow.key).in_(stale)))
            s.execute(delete(SignInRow).where(tuple_(SignInRow.player_id, SignInRow.address).in_(old)))
            return int(getattr(gone, "rowcount", 0) or 0)
