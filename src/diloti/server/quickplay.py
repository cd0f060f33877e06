"""Quick play: "play now" with chosen settings. The player waits in the database's queue (so every server
process pairs from the same one) and is seated with the waiting players of a similar rating; after a short
wait the computer is offered instead, at the level whose fixed rating is nearest the player's.

The ticket's secret is also the seat's token once it is seated, so nothing secret is ever stored in clear:
the page that made the ticket polls it and, once seated, opens the table with the secret it already has.

>>> round(width(0)), round(width(30)), round(width(600))
(150, 450, 1000)
>>> level_near(1500.0), level_near(900.0), level_near(2400.0)
('heuristic', 'greedy', 'master')
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request

from diloti.ai import LEVELS
from diloti.core.errors import DilotiError
from diloti.games import DEFAULT_GAME, find_game
from diloti.server.limits import Limiter
from diloti.server.live import AWAY_LEVEL, GRACE, token_hash
from diloti.server.names import player_name
from diloti.server.player_models import Done, QuickPlay, QuickPlayComputer, QuickPlayTicket, TicketSecret
from diloti.server.protocol import ProtocolError, read_body
from diloti.server.ratings import ANCHORS, shown
from diloti.server.seating import parse_clock
from diloti.store.db import SeatData, TableData, now
from diloti.store.quickplay import QueueStore, Ticket

if TYPE_CHECKING:
    from diloti.server.players import Players
    from diloti.server.tables import TableManager

OFFER_COMPUTER = 20.0  # seconds of waiting after which the computer is offered
# Quick play's game: its requests name none, so it is the default game's (Diloti's: rated, its pool's ratings).
POOL_GAME = find_game(DEFAULT_GAME)


def width(waited: float) -> float:
    """How far apart (in shown rating points) two waiting players may be after ``waited`` seconds."""
    return min(1000.0, 150.0 + 10.0 * max(0.0, waited))


def level_near(rating: float) -> str:
    """The computer level whose fixed rating is nearest ``rating`` (the random level is no opponent)."""
    levels = [lv for lv in ANCHORS if lv in LEVELS and lv != "random"]
    return min(levels, key=lambda lv: abs(shown(*ANCHORS[lv])["rating"] - rating))


class QuickPlayDesk:
    """The routes' work: tickets in, tables out."""

    def __init__(self, manager: Callable[[], TableManager], players: Players, limiter: Limiter) -> None:
        self.manager = manager
        self.players = players
        self.limiter = limiter

    @property
    def queue(self) -> QueueStore:
        return QueueStore(self.manager().store)

    def _reply(self, t: Ticket, secret: str | None = None) -> dict[str, Any]:
        waited = 0.0 if t.created is None else max(0.0, (now() - t.created).total_seconds())
        return {"ticket": t.id, "secret": secret, "status": "waiting" if t.table_id is None else "seated",
                "waited": round(waited, 1), "computer": t.table_id is None and waited >= OFFER_COMPUTER,
                "table": t.table_id, "seat": t.seat}

    def _table(self, tickets: list[Ticket], level: str | None = None) -> TableData:
        """The new table of these tickets (seats in their order; with ``level``, computers in the other seats)."""
        first = tickets[0]
        settings = json.loads(first.settings)
        players = first.players
        seats = [SeatData(i, "human", None, t.name, t.secret_hash, player_id=t.player_id)
                 for i, t in enumerate(tickets)]
        seats += [SeatData(i, "bot", level) for i in range(len(seats), players)]
        clock = settings.get("clock")
        return TableData(secrets.token_urlsafe(8), players, settings["options"], secrets.randbelow(2**63), 0,
                         True, "playing", seats=seats, away_level=AWAY_LEVEL, grace=GRACE,
                         clock=None if clock is None else (clock[0], clock[1]), game=POOL_GAME.name,
                         bots=bool(settings.get("bots")))

    async def create(self, request: Request, req: dict[str, Any], bot: Any = None) -> dict[str, Any]:
        """A ticket (``bot``: a bot account's, through the Bot API: always in the pool that welcomes bots)."""
        self.limiter.check("create", request)
        player = bot if bot is not None else await self.players.optional(request)
        if player is not None and player.bot and bot is None:
            raise ProtocolError("bot_account", "a bot account plays quick play through the Bot API "
                                "(POST /api/bot/quickplay; docs/BOTS.md)", 403)
        players = req.get("players", 2)
        try:
            options = POOL_GAME.options.from_dict(req.get("options") or {})
        except DilotiError as exc:
            raise ProtocolError("bad_options", str(exc)) from None
        clock = parse_clock(req.get("clock"))
        if player is not None:
            name = player.name or "?"
            rating = max((shown(r.mu, r.sigma)["rating"] for r in
                          await self.manager().db(self.players.store.ratings, player.id)
                          if r.mode == POOL_GAME.rating_mode(players)), default=1500)
        else:
            # A guest waits under a name of their own: not a computer's, not a player's who comes back (as when
            # creating or joining a table).
            name, _ = player_name(req.get("name"))
            await self.players.free_name(name)
            rating = 1500
        # Bots welcome is a setting of its own: only tickets that welcome bots meet a bot's (people choose).
        welcome = bool(req.get("bots")) or bot is not None
        settings = json.dumps({"options": options.to_dict(), "clock": clock, **({"bots": True} if welcome else {})},
                              sort_keys=True)
        key = token_hash(f"{players}|{settings}")  # tickets of the same game and settings share it
        secret = secrets.token_urlsafe(32)
        ticket = Ticket(secrets.token_urlsafe(12), token_hash(secret), key, players, settings, float(rating), name,
                        None if player is None else player.id)
        mgr = self.manager()
        await mgr.db(self.queue.enqueue, ticket, now())
        await self._pair(ticket.id)
        got = await mgr.db(self.queue.status, ticket.id, ticket.secret_hash, now())
        assert got is not None
        return self._reply(got, secret)

    async def _pair(self, ticket_id: str, level: str | None = None) -> None:
        mgr = self.manager()
        seated = await mgr.db(self.queue.pair, ticket_id, width, lambda ts: self._table(ts, level), now(),
                              level is not None)
        if seated is not None:
            await mgr.get(seated[0])  # this process holds it now; its seats' players connect with their secrets

    async def _mine(self, ticket_id: str, req: dict[str, Any]) -> Ticket:
        got = await self.manager().db(self.queue.status, ticket_id, token_hash(req["secret"]), now())
        if got is None:
            raise ProtocolError("unknown_ticket", f"no quick-play ticket {ticket_id!r:.40} with that secret "
                                "(cancelled, or too long unpolled)", 404)
        return got

    async def poll(self, ticket_id: str, req: dict[str, Any]) -> dict[str, Any]:
        t = await self._mine(ticket_id, req)
        if t.table_id is None:
            await self._pair(ticket_id)  # the longer one waits, the wider the pairing: try again now
            t = await self._mine(ticket_id, req)
        return self._reply(t)

    async def computer(self, ticket_id: str, req: dict[str, Any]) -> dict[str, Any]:
        t = await self._mine(ticket_id, req)
        if t.table_id is None:
            level = req.get("level") or level_near(t.rating)
            if level not in LEVELS:
                raise ProtocolError("bad_level", f"unknown level {level!r:.40} (known: {', '.join(LEVELS)})")
            await self._pair(ticket_id, level)
            t = await self._mine(ticket_id, req)
        return self._reply(t)

    async def cancel(self, ticket_id: str, req: dict[str, Any]) -> dict[str, Any]:
        t = await self._mine(ticket_id, req)
        if t.table_id is not None:
            raise ProtocolError("seated", f"ticket {ticket_id} is seated at table {t.table_id} already", 409)
        await self.manager().db(self.queue.cancel, ticket_id, t.secret_hash)
        return {"ok": True}


def add_routes(app: FastAPI, desk: QuickPlayDesk, body: Callable[[Request], Awaitable[Any]],
               documented: Callable[..., dict[str, Any]]) -> None:
    """The quick-play routes on ``app``."""
    @app.post("/api/quickplay", status_code=201, **documented(QuickPlayTicket, QuickPlay, 201))
    async def quickplay(request: Request) -> dict[str, Any]:
        return await desk.create(request, read_body(QuickPlay, await body(request)))

    @app.post("/api/quickplay/{ticket}/poll", **documented(QuickPlayTicket, TicketSecret))
    async def poll(ticket: str, request: Request) -> dict[str, Any]:
        return await desk.poll(ticket, read_body(TicketSecret, await body(request)))

    @app.post("/api/quickplay/{ticket}/computer", **documented(QuickPlayTicket, QuickPlayComputer))
    async def computer(ticket: str, request: Request) -> dict[str, Any]:
        return await desk.computer(ticket, read_body(QuickPlayComputer, await body(request)))

    @app.post("/api/quickplay/{ticket}/cancel", **documented(Done, TicketSecret))
    async def cancel(ticket: str, request: Request) -> dict[str, Any]:
        return await desk.cancel(ticket, read_body(TicketSecret, await body(request)))
