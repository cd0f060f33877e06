"""The client side of ``bench/load.py``: simulated players over websockets, and a flood of table creations.

Each table's players come from a loopback address of their own (Linux routes all of 127/8 to
``lo``), so the server's per-address limits (20 tables created and 60 joins a minute) apply to
each table's players as they would to real people, not to the benchmark as a whole; the flood
comes from ``127.0.0.1``, which no player uses.

A player answers its turn after a random think time with a random legal move. With
``reconnect`` it survives the loss of its server: it opens a websocket to the next server in
the list, says ``hello`` with its token again, and goes on from the ``state`` it gets. A move the
server drops for its per-connection message rate (``rate_limited``: think times of a few ms reach
it) is sent again 0.1 s later and counted, never left unanswered.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

Sample = tuple[float, float]  # (when the move was sent, seconds since the start; latency, seconds)


def address(i: int) -> str:
    """Table ``i``'s own loopback address: 127.0.0.2, 127.0.0.3, ... (250 a block: 127.0.1.2 next)."""
    return f"127.0.{i // 250 % 256}.{2 + i % 250}"


@dataclass
class Stats:
    """What every player of a run reports."""

    t0: float = field(default_factory=time.perf_counter)
    own: list[Sample] = field(default_factory=list)  # a move to its own `played`
    cross: list[Sample] = field(default_factory=list)  # a move to the other human's `played`
    reply: list[Sample] = field(default_factory=list)  # own `played` to the computer seat's next `played`
    seen: dict[tuple[str, int], str] = field(default_factory=dict)  # (table, stored ply) -> move announced
    first_seen: dict[tuple[str, int], float] = field(default_factory=dict)  # ... -> when first announced
    acked: set[tuple[str, int, str]] = field(default_factory=set)  # own moves whose `played` came back
    moves: int = 0  # moves sent by players
    computer: set[tuple[str, int]] = field(default_factory=set)  # (table, stored ply) of the computer seats' moves
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    stale: int = 0
    limited: int = 0  # moves the server dropped for its per-connection message rate, sent again
    drops: int = 0  # connections lost
    reconnects: list[float] = field(default_factory=list)  # connection lost -> `state` from another server


@dataclass
class TableRun:
    id: str
    humans: int
    sent: dict[int, float] = field(default_factory=dict)  # ply after a move -> when it was sent


class Player:
    """One human seat, played to the end of the game."""

    def __init__(self, run: TableRun, token: str, bases: list[str], home: int, addr: str | None,
                 rng: random.Random, args: argparse.Namespace, stats: Stats, reconnect: bool) -> None:
        self.run, self.token, self.bases, self.home, self.addr = run, token, bases, home, addr
        self.rng, self.args, self.stats, self.reconnect = rng, args, stats, reconnect
        self.seat: int | None = None
        self.moved_ply: int | None = None  # the ply of the state we last answered
        self.my_played_at: float | None = None
        self.lost_at: float | None = None
        self.pending: tuple[int, str] | None = None  # the last move sent (its ply, its text) until it is played

    async def _connect(self, first: int) -> tuple[ClientConnection, int]:
        """A websocket to the first server in the list, from ``first`` on, that accepts it."""
        deadline = time.monotonic() + 60
        extra: dict[str, Any] = {"local_addr": (self.addr, 0)} if self.addr else {}
        while True:
            for k in range(len(self.bases)):
                i = (first + k) % len(self.bases)
                try:
                    ws = await connect(self.bases[i].replace("http://", "ws://") + "/ws", max_size=2**22,
                                       open_timeout=60, ping_interval=None, **extra)
                    return ws, i
                except (OSError, InvalidHandshake, TimeoutError):
                    if not self.reconnect:
                        raise
            if time.monotonic() > deadline:
                raise RuntimeError(f"table {self.run.id}: no server accepts a websocket")
            await asyncio.sleep(0.2)

    async def play(self) -> None:
        at = self.home
        while True:
            ws, at = await self._connect(at)
            try:
                if await self._session(ws):
                    return
            except (ConnectionClosed, OSError):
                pass
            finally:
                await ws.close()
            if not self.reconnect:
                raise RuntimeError(f"table {self.run.id}: connection closed before the end of the game")
            self.lost_at = time.perf_counter()
            self.stats.drops += 1
            self.moved_ply = self.my_played_at = self.pending = None
            at = (at + 1) % len(self.bases)

    async def _session(self, ws: ClientConnection) -> bool:
        """Play over one connection; True once the game is over, False if the server closed it."""
        st = self.stats
        await ws.send(json.dumps({"type": "hello", "table": self.run.id, "token": self.token}))
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "played":
                self._played(msg)
            elif kind == "welcome":
                self.seat = msg["seat"]
            elif kind == "state":
                if self.lost_at is not None:
                    st.reconnects.append(time.perf_counter() - self.lost_at)
                    self.lost_at = None
                if msg["phase"] == "over":
                    return True
                ply = msg["ply"]
                if msg["your_turn"] and ply != self.moved_ply:
                    self.moved_ply = ply
                    await asyncio.sleep(self.rng.uniform(self.args.think_min, self.args.think_max))
                    choice = self.rng.choice(msg["legal"])["move"]
                    self.run.sent[ply + 1] = time.perf_counter()
                    self.pending = (ply, json.dumps({"type": "move", "move": choice, "ply": ply}))
                    await ws.send(self.pending[1])
                    st.moves += 1
            elif kind == "error":
                if msg["code"] == "stale":
                    st.stale += 1
                elif msg["code"] == "rate_limited" and self.pending is not None:
                    # Over the server's messages a second per connection (a short think time does it): the
                    # move was dropped unread, so it is sent again once the bucket has refilled a little.
                    st.limited += 1
                    await asyncio.sleep(0.1)
                    self.run.sent[self.pending[0] + 1] = time.perf_counter()  # its latency from this send
                    await ws.send(self.pending[1])
                else:
                    st.errors.append(f"{self.run.id}: {msg['code']}: {msg['message']}")
            elif kind == "game_over":
                return True
        return False

    def _played(self, msg: dict[str, Any]) -> None:
        st, now = self.stats, time.perf_counter()
        key = (self.run.id, msg["ply"] - 1)  # `ply` counts the moves after this one; rows count from 0
        if st.seen.setdefault(key, msg["move"]) != msg["move"]:
            st.errors.append(f"{self.run.id}: ply {key[1]} announced as {st.seen[key]!r} and {msg['move']!r}")
        st.first_seen.setdefault(key, now - st.t0)
        sent = self.run.sent.get(msg["ply"])
        if msg["seat"] == self.seat:
            self.pending = None
            st.acked.add((*key, msg["move"]))
            if sent is not None:
                st.own.append((sent - st.t0, now - sent))
            self.my_played_at = now
        elif self.run.humans == 2:
            if sent is not None:
                st.cross.append((sent - st.t0, now - sent))
        else:
            st.computer.add(key)
            if self.my_played_at is not None:
                st.reply.append((self.my_played_at - st.t0, now - self.my_played_at))
                self.my_played_at = None


async def _post(client: httpx.AsyncClient, bases: list[str], first: int, path: str, body: Any) -> dict[str, Any]:
    """POST to the first server from ``first`` on that is up."""
    for k in range(len(bases)):
        try:
            r = await client.post(bases[(first + k) % len(bases)] + path, json=body)
        except httpx.ConnectError:
            continue
        r.raise_for_status()
        return dict(r.json())
    raise RuntimeError(f"no server answered {path}")


async def one_table(i: int, bases: list[str], args: argparse.Namespace, stats: Stats, spread: bool,
                    reconnect: bool) -> str:
    """Create table ``i``, seat its players and play the game to the end; returns its id.

    Two humans: created through server ``i``, joined through ``i + 1`` and each plays on the
    server it used, so every move crosses processes. One human and a computer seat: created
    through server ``i + 1`` (which runs the computer seat), played on server ``i``.
    """
    n = len(bases)
    rng = random.Random(args.seed * 1_000_003 + i)
    addr = address(i) if spread else None
    seats: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "bot", "level": args.bot_level} if args.bots
                                   else {"kind": "human"}]
    transport = httpx.AsyncHTTPTransport(local_address=addr, verify=False)  # plain HTTP: no TLS context (50 ms each)
    async with httpx.AsyncClient(timeout=60, transport=transport) as client:
        body: dict[str, Any] = {"name": f"p{i}a", "seats": seats, "options": {"target": args.target}, "private": True}
        if args.fixed_deals:  # the same deals, and so (seeded players) the same games, in every run of one seed
            body["seed"] = args.seed * 1_000_003 + i
        t = await _post(client, bases, (i + 1) % n if args.bots else i % n, "/api/tables", body)
        homes, tokens = [i % n], [t["token"]]
        if not args.bots:
            j = await _post(client, bases, (i + 1) % n, f"/api/tables/{t['table']}/join", {"name": f"p{i}b"})
            homes.append((i + 1) % n)
            tokens.append(j["token"])
    run = TableRun(t["table"], len(tokens))
    await asyncio.gather(*(Player(run, tok, bases, home, addr, random.Random(rng.random()), args, stats,
                                  reconnect).play() for tok, home in zip(tokens, homes, strict=True)))
    stats.finished += 1
    return run.id
