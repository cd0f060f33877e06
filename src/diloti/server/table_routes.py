"""The tables' HTTP routes: the lobby, a new table, a table's summary, joining it, and a finished game's record
and replay (docs/PROTOCOL.md). The live game is on the websocket (:mod:`diloti.server.sockets`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from diloti.server.events import check_unsealed
from diloti.server.limits import Limiter
from diloti.server.messages import Claimed, JoinTable, Lobby, NewTable, Replay, TableSummary, new_table_model
from diloti.server.players import Players
from diloti.server.protocol import ProtocolError, read_body
from diloti.server.replay import record_text, replay_data
from diloti.server.seating import LOBBY_PAGE, LOBBY_PAGE_MAX
from diloti.server.tables import LiveTable, TableManager


def add_routes(app: FastAPI, mgr: Callable[[], TableManager], limiter: Limiter, players: Players,
               body: Callable[[Request], Awaitable[Any]], documented: Callable[..., dict[str, Any]]) -> None:
    """The tables' routes on ``app`` (``mgr()`` is the running table manager; ``body`` reads a request body
    within the size limit)."""

    @app.get("/api/tables", **documented(Lobby))
    async def lobby(status: str = "waiting", page: int = 1, per_page: int = LOBBY_PAGE) -> JSONResponse:
        if status not in ("waiting", "over"):
            raise ProtocolError("bad_request", f"invalid status {status!r:.40}: expected waiting or over")
        if not 1 <= page <= 10_000:
            raise ProtocolError("bad_request", f"invalid page {page}: expected 1..10000")
        if not 1 <= per_page <= LOBBY_PAGE_MAX:
            raise ProtocolError("bad_request", f"invalid per_page {per_page}: expected 1..{LOBBY_PAGE_MAX}")
        # A JSONResponse as it is: FastAPI's encoder would walk every summary again (most of a lobby's cost).
        return JSONResponse(await mgr().lobby_page(status, page, per_page))

    @app.post("/api/tables", status_code=201, **documented(Claimed, NewTable, 201))
    async def new_table(request: Request) -> dict[str, Any]:
        limiter.check("create", request)
        raw = await body(request)
        data = read_body(new_table_model(raw), raw)
        player = await players.optional(request)
        return await mgr().create(data, request.client.host if request.client else None, player)

    @app.get("/api/tables/{table_id}", **documented(TableSummary))
    async def table_summary(table_id: str) -> dict[str, Any]:
        return (await mgr().must_get(table_id)).summary()

    @app.post("/api/tables/{table_id}/join", **documented(Claimed, JoinTable))
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        limiter.check("join", request)
        data = read_body(JoinTable, await body(request))
        return await mgr().join(table_id, data, await players.optional(request))

    async def finished(table_id: str) -> LiveTable:
        table = await mgr().must_get(table_id)
        if not table.over:
            raise ProtocolError("game_not_over", "the record is available once the game is over "
                                "(until then it would reveal hidden cards)", 409)
        check_unsealed(table, "its record")
        return table

    @app.get("/api/tables/{table_id}/record", response_class=PlainTextResponse,
             **documented(None, media="text/plain"))
    async def record(table_id: str) -> PlainTextResponse:
        table = await finished(table_id)
        return PlainTextResponse(record_text(table), headers={
            "Content-Disposition": f'attachment; filename="diloti-{table.id}.txt"'})

    @app.get("/api/tables/{table_id}/replay", **documented(Replay))
    async def replay(table_id: str) -> dict[str, Any]:
        return replay_data(await finished(table_id))
