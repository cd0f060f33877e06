"""Bot accounts (docs/BOTS.md): who asks (a bot's token or a person's key), their tokens, their limits, and the
event hub that feeds every account's event stream on this process.

A registered player turns a new account (no games yet) into a bot account, for good, and makes tokens for it:
``dlb_`` and 43 random characters, shown once, stored as SHA-256, each with its scopes (``play``: the streams and
a game's moves, chat and resignation; ``challenge``: challenging others) and revocable. Events (a challenge, a
game's start or end, a token revoked) are rows of ``bot_events``, each stored with a ``NOTIFY`` on PostgreSQL: every
process reads the new ones as soon as it or another process has committed them (and every :data:`POLL` seconds
anyway), so a stream on any process hears what any process did, and a revoked token's streams end at once.

>>> b = Bucket(60)  # 60 a minute
>>> [b.take(0.0) for _ in range(60)].count(0), b.take(0.0), b.take(1.0)
(60, 1, 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from fastapi import Request

from diloti.server.live import BOT_ACCOUNTS, LiveTable, token_hash
from diloti.server.protocol import ProtocolError
from diloti.store.bots import BotStore, EventData
from diloti.store.db import now
from diloti.store.players import PlayerData

if TYPE_CHECKING:
    from diloti.server.players import Players
    from diloti.server.tables import TableManager

log = logging.getLogger("diloti.server")

TOKEN_PREFIX = "dlb_"
SCOPES = ("play", "challenge")
# Seconds between reads of new events when nothing woke the reader. Events stored by this process wake it at
# once; on PostgreSQL those of another process do too (NOTIFY), so this is only the safety net for a lost notice.
POLL = 2.0
KEEPALIVE = 5.0  # an empty line this often on every stream (lichess does the same): proxies keep it open
STREAM_QUEUE = 1024  # lines waiting for a slow stream before it is closed


@dataclass(frozen=True)
class BotLimits:
    """The Bot API's limits (docs/BOTS.md: Limits). ``moves``/``requests``: per token a minute (counted by each
    process, as the websocket's rate); the others are counted in the database, for the whole service."""

    moves: int = 120  # moves a minute, per token
    requests: int = 300  # requests a minute (every call, streams opened included), per token
    games: int = 8  # unfinished games at once, per bot
    bot_games: int = 100  # games between two bots a day, per bot
    challenges: int = 400  # challenges made a day, per account
    challenge_seconds: float = 600.0  # an open challenge lapses after this long
    streams: int = 16  # streams open at once on this process, per token


def parse_limits(text: str) -> BotLimits:
    """``diloti serve --bot-limits``: some of the limits as ``NAME=N,...`` (the others keep their defaults).

    >>> parse_limits("moves=60, games=2").games
    2
    >>> parse_limits("speed=3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown bot limit 'speed' (known: moves, requests, games, bot_games, challenges, ...)
    """
    names = [f.name for f in dataclasses.fields(BotLimits)]
    values: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, value = part.partition("=")
        name = name.strip()
        if name not in names:
            raise ValueError(f"unknown bot limit {name!r} (known: {', '.join(names)})")
        try:
            number = float(value) if name == "challenge_seconds" else int(value)
        except ValueError:
            raise ValueError(f"invalid bot limit {part!r}: expected {name}=NUMBER") from None
        if not eq or number <= 0:
            raise ValueError(f"invalid bot limit {part!r}: expected {name}=a positive number")
        values[name] = number
    return BotLimits(**values)


class Bucket:
    """``per_minute`` events a minute with bursts of as many; :meth:`take` says 0 (taken) or the seconds to wait."""

    def __init__(self, per_minute: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(per_minute)
        self.tokens = self.burst
        self.stamp: float | None = None

    def take(self, at: float | None = None) -> int:
        at = time.monotonic() if at is None else at
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (at - self.stamp) * self.rate)
        self.stamp = at
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0
        return max(1, math.ceil((1.0 - self.tokens) / self.rate))


@dataclass(frozen=True)
class Account:
    """Who asks: a bot account through one of its tokens (``token`` its id), or a person through their key."""

    player: PlayerData
    token: str | None
    scopes: frozenset[str]

    @property
    def id(self) -> str:
        return self.player.id


class Stream:
    """One NDJSON stream: lines queued by the hub or a table, written by the response (a slow reader is closed)."""

    def __init__(self, account: Account) -> None:
        self.account = account
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(STREAM_QUEUE)
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
        except asyncio.QueueFull:
            log.warning("closing a bot stream that does not read its lines")
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def lines(self) -> AsyncIterator[str]:
        """The stream's lines until it closes, with an empty line every :data:`KEEPALIVE` seconds meanwhile."""
        while True:
            try:
                line = await asyncio.wait_for(self.queue.get(), KEEPALIVE)
            except TimeoutError:
                if self.closed:
                    return
                yield "\n"
                continue
            if line is None:
                return
            yield line


@dataclass
class _Tokens:
    """This process's memory of tokens: who each one is (read once), and its per-minute buckets."""

    known: dict[str, tuple[str, frozenset[str], PlayerData]] = field(default_factory=dict)
    moves: dict[str, Bucket] = field(default_factory=dict)
    requests: dict[str, Bucket] = field(default_factory=dict)


# Seconds after which an id still missing below ids already read is given up: its transaction rolled back (no
# transaction writing events lives that long: the database ends one idle for 60 s, a statement after 30 s).
GAP = 90.0


class EventCursor:
    """Which events are new, when ids commit out of order.

    An event's id is handed out at its insert and transactions commit in any order, so event 11 can be read before
    event 10 is committed: reading "after the last id read" would lose event 10 for good. The cursor reads from
    the lowest id it may still miss (its ``floor``) and hands out each id once; a gap is given up after
    :data:`GAP` seconds.

    >>> c = EventCursor(9)
    >>> c.new([11], now=0.0), c.floor  # 10 is not committed yet
    ([11], 9)
    >>> c.new([10, 11], now=1.0), c.floor
    ([10], 11)
    >>> c.new([13], now=2.0), c.new([13], now=2.0 + GAP + 1), c.floor  # 12 rolled back
    ([13], [], 13)
    """

    def __init__(self, last: int) -> None:
        self.floor = last  # every id up to here is handed out or given up
        self.seen: dict[int, float] = {}  # ids above the floor already handed out -> when first read

    def new(self, ids: list[int], now: float) -> list[int]:
        """The ids of ``ids`` (read in one go, above :attr:`floor`) not handed out before."""
        fresh = [i for i in ids if i > self.floor and i not in self.seen]
        for i in fresh:
            self.seen[i] = now
        while self.seen:
            if self.floor + 1 in self.seen:
                del self.seen[self.floor + 1]
                self.floor += 1
            elif now - self.seen[min(self.seen)] > GAP:
                self.floor = min(self.seen) - 1
            else:
                break
        return fresh


class BotDesk:
    """Bot accounts, tokens, limits and the event hub (the routes are in :mod:`diloti.server.bot_api`)."""

    def __init__(self, manager: Callable[[], TableManager], players: Players, limits: BotLimits | None = None) -> None:
        self.manager = manager
        self.players = players
        self.limits = limits or BotLimits()
        self.tokens = _Tokens()
        self.streams: dict[str, set[Stream]] = {}  # account id -> its open streams (event and game streams)
        self.on_event: list[Callable[[EventData], None]] = []
        self._cursor = EventCursor(0)
        self._loop: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    @property
    def store(self) -> BotStore:
        return BotStore(self.manager().store)

    def db(self, fn: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        return self.manager().db(fn, *args)

    # ---------------------------------------------------------------- lifecycle
    async def start(self) -> None:
        BOT_ACCOUNTS.update(await self.db(self.store.bot_ids))
        self._cursor = EventCursor(await self.db(self.store.last_event))
        self.manager().storage.on_end.append(self._game_ended)
        replica = self.manager().replica
        if replica is not None:  # several processes: another's events wake this one's reader (LISTEN/NOTIFY)
            replica.listeners["bot"] = lambda _notice: self.wake()
        self._loop = asyncio.create_task(self._poll())

    async def stop(self) -> None:
        for streams in list(self.streams.values()):
            for s in list(streams):
                s.close()
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loop

    def wake(self) -> None:
        """Read the events now (one this process just stored)."""
        self._wake.set()

    async def _poll(self) -> None:
        pruned = time.monotonic()
        refreshed = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL)
            self._wake.clear()
            try:
                events = await self.db(self.store.events_after, self._cursor.floor)
                fresh = set(self._cursor.new([e.id for e in events], time.monotonic()))
                for event in events:
                    if event.id in fresh:
                        self._dispatch(event)
                if time.monotonic() - refreshed > 5.0:  # an account made a bot through another process
                    refreshed = time.monotonic()
                    BOT_ACCOUNTS.update(await self.db(self.store.bot_ids))
                if time.monotonic() - pruned > 60.0:
                    pruned = time.monotonic()
                    await self.db(self.store.prune_events)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cannot read the bot events", exc_info=True)
                await asyncio.sleep(1.0)

    def _dispatch(self, event: EventData) -> None:
        if event.kind == "revoked":
            self._revoked(event.player_id, event.body.get("token"))
            return
        for s in list(self.streams.get(event.player_id, ())):
            if isinstance(s, EventStream):
                s.send(event.body)
        for listener in self.on_event:
            listener(event)

    def _revoked(self, pid: str, token: Any) -> None:
        """A token was revoked: this process forgets it and ends its streams."""
        for h, (tid, _, _) in list(self.tokens.known.items()):
            if tid == token:
                del self.tokens.known[h]
        for s in list(self.streams.get(pid, ())):
            if s.account.token == token:
                s.send({"type": "error", "code": "token_revoked", "message": "this token was revoked"})
                s.close()

    def add(self, stream: Stream) -> None:
        mine = self.streams.setdefault(stream.account.id, set())
        # Per token (a person's key: per account), so that no client holds this process's memory without bound.
        if sum(1 for s in mine if s.account.token == stream.account.token) >= self.limits.streams:
            if not mine:
                del self.streams[stream.account.id]
            raise ProtocolError("too_many_streams", f"more than {self.limits.streams} streams open with this "
                                "token on this server", 429, retry_after=5)
        mine.add(stream)

    def remove(self, stream: Stream) -> None:
        mine = self.streams.get(stream.account.id)
        if mine is not None:
            mine.discard(stream)
            if not mine:
                del self.streams[stream.account.id]

    def _game_ended(self, table: LiveTable, winner: int | None, reason: str | None) -> None:
        """A game this process stored the end of: its accounts' streams hear ``gameFinish`` (once, whichever
        processes store it)."""
        if not table.bots:
            return
        events = [(s.player, "gameFinish", {"type": "gameFinish", "game": {"id": table.id, "seat": s.seat,
                                                                        "winner": winner, "end_reason": reason}})
                  for s in table.seats if s.player is not None]
        if events:
            task = asyncio.ensure_future(self.db(self.store.add_events, events, True))
            task.add_done_callback(lambda t: self.wake() if not t.cancelled() and t.exception() is None else None)

    # ---------------------------------------------------------------- who asks
    async def account(self, request: Request, scope: str | None = None, bot: bool = False) -> Account:
        """The account of ``Authorization: Bearer ...``: a bot token (with ``scope``), or, unless ``bot``, a
        person's key; counted against the token's requests a minute."""
        header = request.headers.get("authorization") or ""
        scheme, _, secret = header.partition(" ")
        secret = secret.strip()
        if scheme.lower() != "bearer" or not secret or len(secret) > 200:
            raise ProtocolError("no_key", "this needs 'Authorization: Bearer TOKEN' (a bot's token; docs/BOTS.md)",
                                401)
        if not secret.startswith(TOKEN_PREFIX):
            if bot:
                raise ProtocolError("bad_token", "this needs a bot account's token (dlb_...), not a player's key",
                                    401)
            player = await self.players.me(request)
            return Account(player, None, frozenset(SCOPES))
        h = token_hash(secret)
        known = self.tokens.known.get(h)
        if known is None:
            found = await self.db(self.store.by_token, h)
            owner: PlayerData | None = None if found is None else await self.db(self.players.store.by_id, found[2])
            if found is None or owner is None:
                raise ProtocolError("bad_token", "that token is no bot's (revoked, or never made)", 401)
            known = (found[0], frozenset(found[1].split()), owner)
            if len(self.tokens.known) > 10_000:
                self.tokens.known.clear()
            self.tokens.known[h] = known
            BOT_ACCOUNTS.add(owner.id)
        tid, scopes, player = known
        if scope is not None and scope not in scopes:
            raise ProtocolError("missing_scope", f"this token lacks the scope {scope!r} (it has: "
                                f"{', '.join(sorted(scopes)) or 'none'})", 403)
        wait = self.tokens.requests.setdefault(tid, Bucket(self.limits.requests)).take()
        if wait:
            raise ProtocolError("rate_limited", f"more than {self.limits.requests} requests a minute with this "
                                "token", 429, retry_after=wait)
        return Account(player, tid, scopes)

    def count_move(self, account: Account) -> None:
        """A move of a bot, against its token's moves a minute."""
        if account.token is None:
            return
        wait = self.tokens.moves.setdefault(account.token, Bucket(self.limits.moves)).take()
        if wait:
            raise ProtocolError("rate_limited", f"more than {self.limits.moves} moves a minute with this token",
                                429, retry_after=wait)

    # ---------------------------------------------------------------- accounts and tokens
    async def make_bot(self, request: Request) -> dict[str, Any]:
        player = await self.players.me(request)
        why = await self.db(self.store.make_bot, player.id)
        if why is not None:
            raise ProtocolError("not_allowed", f"this account cannot become a bot account: {why}", 409)
        BOT_ACCOUNTS.add(player.id)
        return {"player": player.id, "name": player.name, "bot": True}

    async def new_token(self, request: Request, data: dict[str, Any]) -> dict[str, Any]:
        player = await self.players.me(request)
        if not player.bot:
            raise ProtocolError("not_a_bot", "only a bot account has tokens: POST /api/me/bot first (a new account "
                                "only; it cannot be undone)", 409)
        scopes = data.get("scopes") or list(SCOPES)
        bad = [s for s in scopes if s not in SCOPES]
        if bad or not scopes:
            raise ProtocolError("bad_request", f"invalid scopes {scopes!r:.60}: expected some of {', '.join(SCOPES)}")
        label = " ".join(str(data.get("label", "")).split())[:64]
        have = await self.db(self.store.tokens, player.id)
        if sum(1 for t in have if t.revoked is None) >= 20:
            raise ProtocolError("too_many_tokens", "a bot has at most 20 tokens: revoke one first", 409)
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        tid = secrets.token_urlsafe(9)
        await self.db(self.store.add_token, player.id, tid, token_hash(secret), " ".join(sorted(set(scopes))), label)
        return {"id": tid, "token": secret, "scopes": sorted(set(scopes)), "label": label}

    async def list_tokens(self, request: Request) -> dict[str, Any]:
        player = await self.players.me(request)
        return {"bot": player.bot, "tokens": [
            {"id": t.id, "scopes": t.scopes.split(), "label": t.label, "created": _stamp(t.created),
             "revoked": None if t.revoked is None else _stamp(t.revoked)}
            for t in await self.db(self.store.tokens, player.id)]}

    async def revoke(self, request: Request, tid: str) -> dict[str, Any]:
        player = await self.players.me(request)
        if not await self.db(self.store.revoke_token, player.id, tid[:32]):
            raise ProtocolError("unknown_token", f"no token {tid!r:.40} of this account to revoke", 404)
        self._revoked(player.id, tid[:32])  # here at once; the other processes at their next read of the events
        self.wake()
        return {"ok": True}

    # ---------------------------------------------------------------- the limits counted in the database
    async def check_daily(self, pid: str, bots: bool, challenging: bool = True) -> None:
        """The account's challenges a day (``challenging``) and, ``bots``, its games between bots a day leave room
        for one more."""
        since = now() - timedelta(days=1)
        checks = [(False, self.limits.challenges, self.store.challenges_since, "challenges")] if challenging else []
        if bots:
            checks.append((True, self.limits.bot_games, self.store.bot_games_since, "games between bots"))
        for is_bots, cap, count, what in checks:
            if await self.db(count, pid, since) >= cap:
                first = await self.db(self.store.oldest_since, pid, since, is_bots)
                wait = 60 if first is None else max(1, math.ceil((first - since).total_seconds()))
                raise ProtocolError("daily_limit", f"more than {cap} {what} a day for this account", 429,
                                    retry_after=wait)

    async def check_games(self, pid: str) -> None:
        if pid in BOT_ACCOUNTS and len(await self.db(self.store.active_games, pid)) >= self.limits.games:
            raise ProtocolError("too_many_games", f"a bot plays at most {self.limits.games} games at once", 429,
                                retry_after=30)


class EventStream(Stream):
    """An account's event stream (``GET /api/stream/event``)."""


def _stamp(at: Any) -> str:
    return str(at.strftime("%Y-%m-%dT%H:%M:%SZ"))


__all__ = ["SCOPES", "Account", "BotDesk", "BotLimits", "Bucket", "EventStream", "Stream", "parse_limits"]
