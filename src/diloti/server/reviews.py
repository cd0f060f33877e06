"""Game reviews in the browser: ``POST``/``GET /api/tables/{id}/review`` (docs/PROTOCOL.md, "Game review").

The review of one seat of a finished table (:mod:`diloti.ai.review`) is made once and kept in the database
(:class:`~diloti.store.reviews.ReviewStore`); later requests get the stored one. Its decisions run one at a
time in the server's worker pool (never on the event loop), so a review shares the pool with the computer
players' moves instead of taking it over; the progress (decisions done of all) is in the status.

Bounded: :data:`AT_ONCE` reviews run at a time, at most :data:`QUEUE_MAX` wait behind them (beyond that the
answer is ``busy``, 503 with Retry-After), and one player (a signed-in player, else an address) has at most one
review under way (``review_busy``, 429). A review asked for while it is under way is that same job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from diloti.ai.review import (
    DEFAULT_WORLDS,
    VERSION,
    Decision,
    away_plies,
    decision_points,
    review_decision,
    summarise,
)
from diloti.formats.games import read_any_record
from diloti.games import GameInfo
from diloti.server.events import check_unsealed
from diloti.server.limits import address_of
from diloti.server.protocol import ProtocolError, read_body
from diloti.server.replay import record_text
from diloti.store.reviews import ReviewStore

if TYPE_CHECKING:
    from diloti.server.live import LiveTable
    from diloti.server.players import Players
    from diloti.server.tables import TableManager

log = logging.getLogger("diloti.server")

AT_ONCE = 1  # reviews running at a time: each uses one worker process at a time
QUEUE_MAX = 6  # reviews waiting for their turn
RETRY_SECONDS = 60
FAILED_KEPT = 600.0  # seconds a failed review is reported before it is forgotten
REVIEW_SEED = 0  # the seed `diloti review` uses by default: the downloaded record reviews the same


class ReviewRequest(BaseModel):
    """``POST /api/tables/{id}/review``: review this seat's decisions."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # The range is the table's (0..1 or 0..3), checked with the table, so POST and GET refuse a seat alike.
    seat: int = Field(description="the seat whose decisions are reviewed: 0..players-1 of this table")


class ReviewStatus(BaseModel):
    """A review's state: ``done`` with the review (``diloti review --json``'s document), or under way."""

    status: Literal["queued", "running", "done", "failed", "none"]
    table: str
    seat: int
    done: int = 0
    total: int = 0
    position: int = Field(0, description="reviews ahead of this one in the queue")
    message: str | None = None
    review: dict[str, Any] | None = None


REVIEW_MODELS: tuple[type[BaseModel], ...] = (ReviewRequest, ReviewStatus)


@dataclass
class Job:
    """A review under way (or waiting, or just failed)."""

    table: str
    seat: int
    owner: str
    state: str = "queued"
    done: int = 0
    total: int = 0
    message: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class ReviewDesk:
    """The reviews under way in this process, and the queue in front of the worker pool."""

    def __init__(self, manager: Callable[[], TableManager], players: Players, worlds: int = DEFAULT_WORLDS,
                 at_once: int = AT_ONCE, queue_max: int = QUEUE_MAX) -> None:
        self.manager = manager
        self.players = players
        self.worlds = worlds
        self.queue_max = queue_max
        self.jobs: dict[tuple[str, int], Job] = {}
        self._gate: asyncio.Semaphore | None = None
        self._at_once = at_once

    def gate(self) -> asyncio.Semaphore:
        if self._gate is None:  # made on the running loop
            self._gate = asyncio.Semaphore(self._at_once)
        return self._gate

    def _status(self, table: str, seat: int, job: Job | None = None,
                review: dict[str, Any] | None = None) -> dict[str, Any]:
        if review is not None:
            return {"status": "done", "table": table, "seat": seat, "done": 0, "total": 0, "position": 0,
                    "message": None, "review": review}
        if job is None:
            return {"status": "none", "table": table, "seat": seat, "done": 0, "total": 0, "position": 0,
                    "message": None, "review": None}
        waiting = [j for j in self.jobs.values() if j.state == "queued"]
        position = waiting.index(job) if job in waiting else 0
        return {"status": job.state, "table": table, "seat": seat, "done": job.done, "total": job.total,
                "position": position, "message": job.message, "review": None}

    async def _table(self, table_id: str, seat: int, unseal: bool = False) -> LiveTable:
        table = await self.manager().must_get(table_id)
        if not unseal:  # (the daily deal's field asks for its finished player's own review)
            check_unsealed(table, "its review")
        if not table.over:
            raise ProtocolError("game_not_over", "a game is reviewed once it is over (until then the review "
                                "would tell the players their best moves)", 409)
        if not 0 <= seat < table.players:
            raise ProtocolError("bad_request", f"invalid seat {seat!r:.40}: expected a seat 0..{table.players - 1} of "
                                "this table")
        return table

    async def _stored(self, table_id: str, seat: int) -> dict[str, Any] | None:
        mgr = self.manager()
        stored: dict[str, Any] | None = await mgr.db(ReviewStore(mgr.store).get, table_id, seat, VERSION)
        return stored

    async def status(self, table_id: str, seat: int) -> dict[str, Any]:
        """The review of ``seat``: stored, under way, or none yet."""
        await self._table(table_id, seat)
        stored = await self._stored(table_id, seat)
        return self._status(table_id, seat, self.jobs.get((table_id, seat)), stored)

    async def request(self, request: Request, table_id: str, seat: int) -> tuple[int, dict[str, Any]]:
        """Start (or find) the review of ``seat``: 200 with a stored review, else 202 with its progress."""
        table = await self._table(table_id, seat)
        player = await self.players.optional(request)
        owner = f"player:{player.id}" if player is not None else f"address:{address_of(request)}"
        return await self.start(table, seat, owner)

    async def start(self, table: LiveTable, seat: int, owner: str) -> tuple[int, dict[str, Any]]:
        """Start (or find) the review of ``seat`` of the finished ``table`` for ``owner`` (one review under way
        an owner)."""
        table_id = table.id
        stored = await self._stored(table_id, seat)
        if stored is not None:
            return 200, self._status(table_id, seat, review=stored)
        key = (table_id, seat)
        job = self.jobs.get(key)
        if job is not None and job.state == "failed":
            del self.jobs[key]  # asked again: try again
            job = None
        if job is not None:
            return 202, self._status(table_id, seat, job)
        mine = next((j for j in self.jobs.values() if j.owner == owner and j.state in ("queued", "running")), None)
        if mine is not None:
            raise ProtocolError("review_busy", f"you already have a review under way (table {mine.table}, seat "
                                f"{mine.seat}): one at a time; ask again when it is done", 429,
                                retry_after=RETRY_SECONDS)
        waiting = sum(j.state == "queued" for j in self.jobs.values())
        if waiting >= self.queue_max:
            raise ProtocolError("busy", f"the reviewer is busy: {waiting} reviews are waiting; try again in a few "
                                "minutes", 503, retry_after=RETRY_SECONDS)
        job = self.jobs[key] = Job(table_id, seat, owner)
        job.task = asyncio.create_task(self._run(job, record_text(table), table.info))
        return 202, self._status(table_id, seat, job)

    async def _run(self, job: Job, text: str, game: GameInfo) -> None:
        mgr = self.manager()
        try:
            async with self.gate():
                job.state = "running"
                rec = await asyncio.to_thread(read_any_record, text)
                points = await asyncio.to_thread(decision_points, rec, [job.seat], away_plies(text))
                job.total = len(points)
                decisions: list[Decision] = []
                for point in points:  # one at a time: the computer players' moves get the pool in between
                    decisions.append(await mgr.compute(game, review_decision, point, self.worlds, REVIEW_SEED))
                    job.done += 1
                data = summarise(decisions, [job.seat], self.worlds, REVIEW_SEED).to_dict()
                await mgr.db(ReviewStore(mgr.store).put, job.table, job.seat, VERSION, self.worlds, data)
            del self.jobs[(job.table, job.seat)]
        except asyncio.CancelledError:
            self.jobs.pop((job.table, job.seat), None)
            raise
        except Exception as exc:  # kept as "failed" (so the page can say so) until asked again
            log.exception("review of table %s seat %s failed", job.table, job.seat)
            job.state = "failed"
            job.message = f"the review could not be made ({exc.__class__.__name__}); ask again to retry"
            # Forgotten after a while if nobody asks again, so failures do not pile up.
            asyncio.get_running_loop().call_later(FAILED_KEPT, self._forget, job)

    def _forget(self, job: Job) -> None:
        if self.jobs.get((job.table, job.seat)) is job and job.state == "failed":
            del self.jobs[(job.table, job.seat)]

    async def stop(self) -> None:
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t


def add_routes(app: FastAPI, desk: ReviewDesk, body: Callable[[Request], Awaitable[Any]],
               documented: Callable[..., dict[str, Any]]) -> None:
    """``POST /api/tables/{id}/review`` (start, or get the stored review) and ``GET`` (its status)."""
    from fastapi.responses import JSONResponse

    @app.post("/api/tables/{table_id}/review", **documented(ReviewStatus, ReviewRequest, 202))
    async def start_review(table_id: str, request: Request) -> JSONResponse:
        data = read_body(ReviewRequest, await body(request))
        code, status = await desk.request(request, table_id, int(data["seat"]))
        return JSONResponse(status, status_code=code)

    @app.get("/api/tables/{table_id}/review", **documented(ReviewStatus))
    async def review_status(table_id: str, seat: int = 0) -> dict[str, Any]:
        return await desk.status(table_id, seat)
