"""A simulated player of an arena, as an asyncio coroutine: the benchmark (bench/arena.py) runs hundreds in one
event loop; the tests (tests/test_arena*.py) run each in a thread of its own (:meth:`ArenaPlayer.start`).

It follows the arena on a websocket with its arena secret, which keeps it present and brings each of its games as
the server pairs it (``arena_game``; ``GET /api/arenas/{id}/me`` only as the fallback, or alone with
``push=False``), plays each game over another websocket (a random legal move at once) and notes how long it waited
between the end of a game and the start of the next (the pairing delay) and each move's round trip (sent to seen
played). A player whose server dies goes on through the next one (its game is taken over there).

Coroutines, not a thread each: 200 players as threads (three each: the player's and its two websockets' readers)
spent more CPU on the one GIL than the two server processes together (measured: docs/SERVER.md, Arenas).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake


@dataclass
class Played:
    """One game a simulated player finished."""

    table: str
    seat: int
    won: bool | None  # None: drawn
    delay: float  # seconds from the end of the previous game (or the start) to this one's pairing
    opponent: str | None = None  # the other seat's player id (None: the computer)
    found: str = "push"  # how the player learnt of it: "push" (arena_game), "quiet" or "end" (/me, and why asked)


class Unreachable(Exception):
    """The server did not answer (refused, reset, closed mid-game): another one is tried."""


# A server gone or going (or a handshake it dropped: a loaded one): kept if it still answers, else the next.
LOST = (OSError, TimeoutError, Unreachable, ConnectionClosed, InvalidHandshake)


def why(exc: BaseException) -> str:
    """An error in a few words: its class, and what it says (an Unreachable's request and its error)."""
    return f"{exc.__class__.__name__} {str(exc)[:60]}".strip()


@dataclass
class ArenaPlayer:
    """A simulated player of one arena, on the servers ``bases`` (the first that answers).

    A server that answers is kept, whatever it answers (a ``429`` is waited out as its ``Retry-After`` says);
    only one that does not answer is left for the next (a killed process's players go on through the other).
    A server that did not answer is tried again only when every other did not answer either: a dead process is
    not flipped back to while a live one answers."""

    bases: list[str]
    key: str
    player: str
    arena: str
    secret: str
    rng: random.Random
    poll: float = 0.2  # seconds between two polls of /me, without push
    push: bool = True  # follow the arena on a websocket with the secret: games pushed, /me only as a fallback
    fallback: float = 5.0  # seconds without a message after which /me is asked (push)
    address: str | None = None  # the player's own address, as a trusted proxy names it (X-Forwarded-For)
    games: list[Played] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)  # each move's round trip, seconds
    errors: list[str] = field(default_factory=list)
    failovers: int = 0
    limited: int = 0  # answers "rate_limited" (HTTP 429, or a move dropped by the websocket's rate), waited out
    pushed: int = 0  # games learnt of from an arena_game message
    polls: int = 0  # requests to /me
    late: int = 0  # arena_game messages for a game found through /me before (the push came, after)
    thread: threading.Thread | None = None
    down: set[str] = field(default_factory=set)  # bases that did not answer last time they were tried
    born: float = field(default_factory=time.monotonic)

    @property
    def base(self) -> str:
        return self.bases[0]

    def start(self) -> None:
        """Play in a thread of its own (its own event loop): the tests' way."""
        self.thread = threading.Thread(target=lambda: asyncio.run(self.run()), daemon=True)
        self.thread.start()

    async def fail_over(self, why: str) -> None:
        """Something failed on the current server: it is kept if it still answers (a connection dropped by a
        loaded server, a slow answer), else the next one that has not failed too (any, if all have) is tried."""
        self.errors.append(f"{time.monotonic() - self.born:.1f}s {why}")
        await asyncio.sleep(0.2)
        try:
            if (await self._http.get(f"{self.base}/healthz", timeout=5)).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        self.down.add(self.base)
        if len(self.bases) > 1:
            alive = [b for b in self.bases[1:] if b not in self.down]
            if not alive:
                self.down.clear()  # every one failed: each is tried again in turn
            nxt = alive[0] if alive else self.bases[1]
            i = self.bases.index(nxt)
            self.bases = self.bases[i:] + self.bases[:i]
            self.failovers += 1

    def headers(self, key: bool = True) -> dict[str, str]:
        """The player's key, and their address as the proxy (this machine, trusted by default) names it: each
        simulated player is a client of its own, under the per-address limits (20 websockets ...)."""
        out = {"Authorization": f"Bearer {self.key}"} if key else {}
        return out | ({"X-Forwarded-For": self.address} if self.address else {})

    def socket(self) -> Any:
        return connect(f"{self.base.replace('http', 'ws', 1)}/ws", open_timeout=30, max_queue=4096,
                       additional_headers=self.headers(key=False), proxy=None, ping_timeout=60)

    def answered(self) -> None:
        self.down.discard(self.base)

    async def get(self, path: str) -> dict[str, Any]:
        """``GET path`` on the current server with the player's key: waits out a 429, raises Unreachable for a
        server that does not answer (or answers 5xx: a process being killed), AssertionError for another error."""
        while True:
            try:
                r = await self._http.get(f"{self.base}{path}", timeout=10, headers=self.headers())
            except httpx.HTTPError as exc:
                raise Unreachable(f"GET {path}: {exc.__class__.__name__}") from None
            if r.status_code == 429:  # over the poll limit: this server answered, so it is waited out here
                self.limited += 1
                await asyncio.sleep(min(5.0, float(r.headers.get("retry-after") or 1)))
                continue
            if r.status_code >= 500:
                raise Unreachable(f"GET {path}: {r.status_code}")
            assert r.status_code == 200, f"GET {path}: {r.status_code} {r.text[:200]}"
            self.answered()
            return dict(r.json())

    async def run(self, http: httpx.AsyncClient | None = None) -> None:
        """Play the arena out: follow it (or poll /me), play each game, until it is over. ``http``: a client shared
        by the players of one event loop (each makes its own otherwise)."""
        self._free = time.monotonic()
        self._done: set[str] = set()
        self._found_me: set[str] = set()
        if http is None:
            async with httpx.AsyncClient(trust_env=False) as own:
                await self._run(own)
        else:
            await self._run(http)

    async def _run(self, http: httpx.AsyncClient) -> None:
        self._http = http
        while True:
            try:
                if self.push:
                    async with self.socket() as ws:
                        await self._listen(ws)
                else:
                    await self._poll()
                return
            except LOST as exc:
                await self.fail_over(f"arena: {why(exc)}")

    async def _listen(self, ws: ClientConnection) -> None:
        """The arena followed with the player's secret: each game as the server pushes it (``arena_game``), until
        the arena is over; ``/me`` asked only when nothing came for ``fallback`` seconds, or at the end."""
        await ws.send(json.dumps({"type": "arena", "arena": self.arena, "secret": self.secret}))
        self.answered()
        while True:
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), self.fallback))
            except TimeoutError:
                msg = None
            if msg is None or (msg["type"] == "arena" and msg["arena"]["status"] in ("finishing", "over")):
                # Nothing for a while (a lost message?), or the end: /me says whether a game is left to play.
                me = await self.get(f"/api/arenas/{self.arena}/me")
                self.polls += 1
                if me["table"] is not None and me["table"] not in self._done:
                    self._found_me.add(me["table"])
                    await self._game(me["table"], me["seat"], "quiet" if msg is None else "end")
                elif me["status"] in ("finishing", "over"):
                    return
            elif msg["type"] == "arena_game":
                if msg["table"] not in self._done:
                    self.pushed += 1
                    await self._game(msg["table"], msg["seat"], "push")
                elif msg["table"] in self._found_me:
                    self.late += 1
            elif msg["type"] == "error" and msg["code"] != "rate_limited":
                raise AssertionError(f"arena {self.arena}: {msg}")

    async def _poll(self) -> None:
        """The fallback alone: ``/me`` every ``poll`` seconds (it keeps the player present, and says their game)."""
        while True:
            me = await self.get(f"/api/arenas/{self.arena}/me")
            self.polls += 1
            if me["table"] is not None and me["table"] not in self._done:
                await self._game(me["table"], me["seat"], "poll")
                continue
            if me["status"] in ("finishing", "over") and (me["table"] is None or me["table"] in self._done):
                return
            await asyncio.sleep(self.poll)

    async def _game(self, table: str, seat: int, found: str) -> None:
        delay = time.monotonic() - self._free
        won = await self.play(table, seat)
        self._done.add(table)
        self.games.append(Played(table, seat, won, delay, found=found))
        self._free = time.monotonic()

    async def play(self, table: str, seat: int) -> bool | None:
        """Play the game out (through another server if this one dies); who won, from this seat's side."""
        while True:
            try:
                async with self.socket() as ws:
                    result = await self._play(ws, table, seat)
                self.answered()
                return result
            except LOST as exc:
                await self.fail_over(f"game {table}: {why(exc)}")

    async def _play(self, ws: ClientConnection, table: str, seat: int) -> bool | None:
        await ws.send(json.dumps({"type": "hello", "table": table, "token": self.secret}))
        sent: dict[int, float] = {}
        pending: dict[str, Any] | None = None  # the move sent and not yet seen played
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            kind = msg["type"]
            if kind == "error":
                if msg["code"] == "rate_limited" and pending is not None:
                    # Dropped by the connection's message rate (a person does not play 20 moves a second; a
                    # simulated one at a fast table does): sent again once the rate has room, or the game would
                    # wait for this seat's clock to run out.
                    self.limited += 1
                    await asyncio.sleep(0.1)
                    sent[pending["ply"]] = time.monotonic()
                    await ws.send(json.dumps(pending))
                    continue
                if msg["code"] in ("stale", "not_your_turn"):  # the next state says where the game is
                    if pending is not None:
                        sent.pop(pending["ply"], None)  # a state at that ply again is played again
                    pending = None
                    continue
                raise AssertionError(f"{table}: {msg}")
            if kind == "played":
                at = sent.pop(msg.get("ply", -1) - 1, None)
                if at is not None:
                    self.moves.append(time.monotonic() - at)
            if kind != "state":
                continue
            if msg["phase"] == "over":  # the winner as stored (the summary's: a resignation's too)
                w = (await self.get(f"/api/tables/{table}"))["winner"]
                return None if w is None else w == seat % 2
            if msg["your_turn"] and msg["ply"] not in sent:
                pending = {"type": "move", "move": self.rng.choice(msg["legal"])["move"], "ply": msg["ply"]}
                sent[msg["ply"]] = time.monotonic()
                await ws.send(json.dumps(pending))
