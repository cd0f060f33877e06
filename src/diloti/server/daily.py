"""The daily deal: each UTC day one game of fixed deals that every player plays against the same computer.

The day's table is the default game (Diloti: 2 players, the default options, to 61) dealt from the day's seed,
a random number the server makes at the day's first request and keeps secret (the seed deals the cards: a seed
anyone could derive from the date would show the deal). Every round is dealt from that seed and the round's
number (:mod:`diloti.core.seeds`), so every player gets the same cards round by round; the computer opponent is a
level with a playout budget and no clock (``master:iterations=800,seconds=none,model=play``, kept with the day),
seeded by the table's seed, its seat and the ply (:class:`~diloti.server.computers.Computers`): two players who play the
same moves meet the same replies. Its moves are chosen in the worker processes, as at any table.

A player who comes back gets one ranked attempt a day, and so does each address and each device id the page
sends (the database's unique constraints hold it across processes); a guest, or a player who asks, plays
unranked. The result is the points difference against the computer, ranked on the day's leaderboard; the
player's streak and history are on their profile. Until the day is over its tables are sealed
(:mod:`diloti.server.events`); the player who finished sees how the field played through
``POST /api/daily/field``: each decision's position reached by how many games and played alike by how many,
the review's verdict, and the best game of the day with its replay.

>>> streak_of(["2026-11-29", "2026-11-28", "2026-11-26"], "2026-11-29")
(2, 2)
>>> streak_of(["2026-11-28", "2026-11-27"], "2026-11-29")  # yesterday's streak still stands today
(2, 2)
>>> streak_of(["2026-11-26", "2026-11-25", "2026-11-24"], "2026-11-29")
(0, 3)
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request

from diloti.games import DEFAULT_GAME, find_game
from diloti.server.event_models import (
    DailyBoard,
    DailyField,
    DailyFieldReply,
    DailyHistory,
    DailyInfo,
    DailyStart,
    DailyStarted,
)
from diloti.server.events import day_end, day_of, today
from diloti.server.limits import Limiter, address_of
from diloti.server.live import AWAY_LEVEL, GRACE, LiveTable, token_hash
from diloti.server.names import player_name
from diloti.server.protocol import ProtocolError, read_body
from diloti.server.replay import replay_data
from diloti.store.daily import Attempt, DailyStore, DailyTaken, Standing
from diloti.store.db import SeatData, TableData, now

if TYPE_CHECKING:
    from diloti.server.players import Players
    from diloti.server.reviews import ReviewDesk
    from diloti.server.tables import TableManager

# The opponent: reproducible from the position and the seed on any server. ``model=play``: the master's default model
# of play since issue 53 is the learned one where numpy is installed, and one day's replies must not depend on which
# server's worker chose them.
DAILY_LEVEL = "master:iterations=800,seconds=none,model=play"
# Days stored before that name kept the master of then under a name that now means more: they still get it.
_STORED_BEFORE = {"master:iterations=800,seconds=none": DAILY_LEVEL}
BOARD_PAGE, BOARD_PAGE_MAX = 50, 200
GAME = find_game(DEFAULT_GAME)  # the daily deal's game: the default game's, as quick play's


def streak_of(days: list[str], on: str) -> tuple[int, int]:
    """(the streak standing on day ``on``, the longest) of the days a player finished, newest first."""
    def prev(d: str) -> str:
        return (datetime.strptime(d, "%Y-%m-%d") - timedelta(days=1)).strftime("%Y-%m-%d")

    ordered = sorted(set(days), reverse=True)
    best = run = 0
    last: str | None = None
    for d in ordered:
        run = run + 1 if last is not None and prev(last) == d else 1
        best = max(best, run)
        last = d
    current = 0
    expect = on if ordered and ordered[0] == on else prev(on)
    for d in ordered:
        if d != expect:
            break
        current += 1
        expect = prev(d)
    return current, best


def _entry(st: Standing, show_table: bool) -> dict[str, Any]:
    return {"rank": st.rank, "player": st.player_id, "name": st.name, "diff": st.diff, "points": st.points,
            "against": st.against, "table": st.table_id if show_table else None}


class DailyDesk:
    """The daily deal's routes' work."""

    def __init__(self, manager: Callable[[], TableManager], players: Players, limiter: Limiter,
                 reviews: ReviewDesk, level: str = DAILY_LEVEL) -> None:
        self.manager = manager
        self.players = players
        self.limiter = limiter
        self.reviews = reviews
        self.level = level

    @property
    def store(self) -> DailyStore:
        return DailyStore(self.manager().store)

    async def _day(self, day: str) -> tuple[int, str]:
        seed, level = await self.manager().db(self.store.day, day, lambda: secrets.randbelow(2**63), self.level, now())
        return seed, _STORED_BEFORE.get(level, level)

    async def _finished(self, day: str, player_id: str | None) -> bool:
        """The player finished their ranked attempt of ``day`` (a day that is over is open to everyone)."""
        if day < today():
            return True
        if player_id is None:
            return False
        mine = await self.manager().db(self.store.mine, day, player_id)
        return mine is not None and mine[1] == "over"

    async def info(self, request: Request) -> dict[str, Any]:
        self.limiter.check("poll", request)
        player = await self.players.optional(request)
        day = today()
        _, level = await self._day(day)
        board = await self.manager().db(self.store.standings, day)
        mine = None
        streak = 0
        if player is not None:
            got = await self.manager().db(self.store.mine, day, player.id)
            if got is not None:
                st = next((s for s in board if s.table_id == got[0].table_id), None)
                mine = {"table": got[0].table_id, "status": got[1], "diff": None if st is None else st.diff,
                        "rank": None if st is None else st.rank}
            history = await self.manager().db(self.store.history, player.id)
            streak = streak_of([d for d, st in history if st is not None], day)[0]
        return {"day": day, "game": GAME.name, "players": 2, "options": GAME.options().to_dict(), "opponent": level,
                "ends_in": max(0, int((day_end(day) - datetime.now(UTC)).total_seconds())),
                "finished": len(board), "mine": mine, "streak": streak}

    async def start(self, request: Request, req: dict[str, Any]) -> dict[str, Any]:
        self.limiter.check("daily", request)
        player = await self.players.optional(request)
        ranked = player is not None and req.get("ranked", True)
        if ranked and player is not None and player.bot:
            # The day's leaderboard ranks people: a bot account plays the deal unranked (docs/BOTS.md).
            raise ProtocolError("bot_account", "a bot account plays the daily deal unranked only: send "
                                "\"ranked\": false", 403)
        if player is not None:
            name = player.name or "?"
        else:
            name, _ = player_name(req.get("name"))
            await self.players.free_name(name)
        day = today()
        seed, level = await self._day(day)
        if ranked:
            assert player is not None
            got = await self.manager().db(self.store.mine, day, player.id)
            if got is not None:
                raise ProtocolError("daily_played", f"you have played today's deal ranked already (table "
                                    f"{got[0].table_id}, {got[1]}): one ranked attempt a day; come back at the next "
                                    "UTC day, or play it unranked", 409)
        token = secrets.token_urlsafe(32)
        tid = secrets.token_urlsafe(8)
        seats = [SeatData(0, "human", None, name, token_hash(token), player_id=None if player is None else player.id),
                 SeatData(1, "bot", level)]
        data = TableData(tid, 2, GAME.options().to_dict(), seed, 0, True, "playing", seats=seats,
                         away_level=AWAY_LEVEL, grace=GRACE, rated=False, game=GAME.name, event=f"daily:{day}")
        device = req.get("device")
        attempt = Attempt(tid, day, None if player is None else player.id, name, bool(ranked), data.created,
                          token_hash(f"address|{address_of(request)}"),
                          None if device is None else token_hash(f"device|{device}"))
        mgr = self.manager()
        await mgr.owners.claim([tid])  # owned before it is stored, as any new table
        try:
            await mgr.db(self.store.start, attempt, data)
        except DailyTaken as exc:
            await mgr.owners.release(tid)
            raise ProtocolError("daily_played", f"today's deal was played ranked already from this {exc.what}: "
                                "one ranked attempt a day for each player, address and device (a new name does "
                                "not make a new one); play it unranked with ranked: false", 409) from None
        except Exception:
            await mgr.owners.release(tid)
            raise
        table = LiveTable(data)
        table.client = address_of(request)
        mgr.held.add(table)
        mgr.computers.kick(table)
        return {"day": day, "table": tid, "seat": 0, "token": token, "ranked": bool(ranked)}

    async def leaderboard(self, request: Request, day: str | None, page: int, per_page: int) -> dict[str, Any]:
        self.limiter.check("poll", request)
        day = day or today()
        try:
            datetime.strptime(day, "%Y-%m-%d")
        except ValueError:
            raise ProtocolError("bad_request", f"invalid day {day!r:.20}: expected YYYY-MM-DD") from None
        if not 1 <= per_page <= BOARD_PAGE_MAX or page < 1:
            raise ProtocolError("bad_request", f"invalid page {page} or per_page {per_page}: expected page >= 1 and "
                                f"per_page 1..{BOARD_PAGE_MAX}")
        player = await self.players.optional(request)
        show = await self._finished(day, None if player is None else player.id)
        board = await self.manager().db(self.store.standings, day)
        part = board[(page - 1) * per_page: page * per_page]
        return {"day": day, "total": len(board), "page": page, "per_page": per_page,
                "entries": [_entry(st, show) for st in part]}

    async def field(self, request: Request, req: dict[str, Any]) -> dict[str, Any]:
        """How the field played the deal of the caller's finished attempt (``table`` with its seat's ``token``)."""
        self.limiter.check("poll", request)
        mgr = self.manager()
        attempt = await mgr.db(self.store.attempt, req["table"])
        table = None if attempt is None else await mgr.get(attempt.table_id)
        if attempt is None or table is None or table.seat_of(token_hash(req["token"])) is not table.seats[0]:
            raise ProtocolError("bad_token", "no attempt of the daily deal with that table and token", 404)
        if not table.over:
            raise ProtocolError("game_not_over", "the field is shown once your game of the deal is over (until then "
                                "it would show you the deal)", 409)
        day = day_of(table.event) or attempt.day
        stored = await mgr.db(mgr.store.load, table.id)
        assert stored is not None
        mine = [(seat, move) for seat, move in stored.moves]
        counts = await mgr.db(self.store.field, day, mine, 0)
        try:
            _, review = await self.reviews.start(table, 0, f"daily:{table.id}")
        except ProtocolError as exc:  # the reviewer is busy: the counts now, the verdicts later
            review = {"status": "queued", "table": table.id, "seat": 0, "done": 0, "total": 0, "position": 0,
                      "message": str(exc), "review": None}
        verdicts = {d["ply"]: d for d in (review.get("review") or {}).get("decisions", [])}
        decisions = []
        for ply, reached, same in counts:
            if ply in stored.by:  # the computer played it for the player while away
                continue
            d = {"ply": ply, "move": mine[ply][1], "reached": reached, "same": same}
            v = verdicts.get(ply)
            if v is not None:
                d["mark"], d["best"] = v.get("mark"), v.get("best")
            decisions.append(d)
        board = await mgr.db(self.store.standings, day)
        me = next((st for st in board if st.table_id == table.id), None)
        best = board[0] if board else None
        replay = None
        if best is not None:
            best_table = await mgr.get(best.table_id)
            replay = None if best_table is None else replay_data(best_table)
        scores = list(table.game.scores)
        return {"day": day, "diff": int(scores[0] - scores[1]), "rank": None if me is None else me.rank,
                "decisions": decisions, "review": {k: v for k, v in review.items() if k != "review"},
                "best": None if best is None else _entry(best, True), "replay": replay}

    async def history(self, player_id: str) -> dict[str, Any]:
        history = await self.manager().db(self.store.history, player_id)
        current, best = streak_of([d for d, st in history if st is not None], today())
        days = [{"day": d, "diff": None if st is None else st.diff, "rank": None if st is None else st.rank,
                 "table": "" if st is None else st.table_id} for d, st in history]
        return {"player": player_id, "streak": current, "best_streak": best, "days": days}


def add_routes(app: FastAPI, desk: DailyDesk, body: Callable[[Request], Awaitable[Any]],
               documented: Callable[..., dict[str, Any]]) -> None:
    """The daily deal's routes on ``app``."""

    @app.get("/api/daily", **documented(DailyInfo))
    async def daily(request: Request) -> dict[str, Any]:
        return await desk.info(request)

    @app.post("/api/daily", status_code=201, **documented(DailyStarted, DailyStart, 201))
    async def start(request: Request) -> dict[str, Any]:
        return await desk.start(request, read_body(DailyStart, await body(request)))

    @app.get("/api/daily/leaderboard", **documented(DailyBoard))
    async def leaderboard(request: Request, day: str | None = None, page: int = 1,
                          per_page: int = BOARD_PAGE) -> dict[str, Any]:
        return await desk.leaderboard(request, day, page, per_page)

    @app.post("/api/daily/field", **documented(DailyFieldReply, DailyField))
    async def field(request: Request) -> dict[str, Any]:
        return await desk.field(request, read_body(DailyField, await body(request)))

    @app.get("/api/players/{player_id}/daily", **documented(DailyHistory))
    async def history(player_id: str) -> dict[str, Any]:
        return await desk.history(player_id)
