"""The ASGI application: the page, the JSON API and the ``/ws`` websocket (docs/PROTOCOL.md).

Request bodies are read by the application itself (so an oversized body is refused while it
streams in), then checked by their models (:mod:`diloti.server.messages`) before the table
manager sees them. ``/openapi.json`` describes the HTTP part from the same models.

>>> import tempfile, os
>>> from fastapi.testclient import TestClient
>>> app = create_app(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'd.sqlite3')}")
>>> with TestClient(app) as client:
...     r = client.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"},
...                                                                   {"kind": "bot", "level": "random"}]})
...     with client.websocket_connect("/ws") as ws:
...         ws.send_json({"type": "hello", "table": r.json()["table"], "token": r.json()["token"]})
...         [ws.receive_json()["type"] for _ in range(3)]
['welcome', 'table', 'state']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema
from starlette.websockets import WebSocketState

from diloti import __version__
from diloti.ai import LEVELS
from diloti.ai.review import DEFAULT_WORLDS
from diloti.games import DEFAULT_GAME, GAMES, find_game
from diloti.match.workers import PoolSpec
from diloti.server.health import Errors, readiness
from diloti.server.limits import Limiter, Limits
from diloti.server.messages import (
    CLIENT_MESSAGE,
    SCHEMA_MODELS,
    SERVER_MESSAGE,
    Claimed,
    ClientBack,
    ClientChat,
    ClientClaim,
    ClientHandOver,
    ClientHello,
    ClientHint,
    ClientLeave,
    ClientMessage,
    ClientMove,
    ClientPing,
    ClientRematch,
    ClientResign,
    ClientSync,
    ClientWatch,
    ErrorMessage,
    Health,
    Info,
    JoinTable,
    Lobby,
    NewTable,
    Replay,
    TableSummary,
    new_table_model,
)
from diloti.server.metrics import CONTENT_TYPE, Metrics, may_read, parse_allow
from diloti.server.player_models import PLAYER_SCHEMA_MODELS, QUICKPLAY_MODELS
from diloti.server.players import Players, add_routes
from diloti.server.protocol import (
    CHAT_MAX,
    MAX_MESSAGE,
    NAME_MAX,
    ProtocolError,
    clean_chat,
    error,
    read_body,
    read_message,
)
from diloti.server.quickplay import QuickPlayDesk
from diloti.server.quickplay import add_routes as add_quickplay_routes
from diloti.server.replay import record_text, replay_data
from diloti.server.reviews import REVIEW_MODELS, ReviewDesk
from diloti.server.reviews import add_routes as add_review_routes
from diloti.server.seating import LOBBY_PAGE, LOBBY_PAGE_MAX
from diloti.server.tables import LiveTable, TableManager
from diloti.store.db import Store

log = logging.getLogger("diloti.server")

RATE = 20.0  # messages a second, per connection
BURST = 40.0
MAX_BODY = 16 * MAX_MESSAGE  # bytes of an HTTP request body
BODY_TIMEOUT = 10.0  # seconds to receive a request body (at most MAX_BODY bytes)
QUEUE_MAX = 512  # messages waiting for a slow client before it is dropped
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Diloti</title>
<p>The Diloti page is not installed; the API is at <code>/api/info</code>.</p></html>"""


def static_dir() -> Path:
    return Path(str(resources.files("diloti.server") / "static"))


REF = "#/components/schemas/{model}"
JSON = "application/json"
API_DESCRIPTION = """The JSON API of `diloti serve` (docs/PROTOCOL.md). Every error is
`{"type": "error", "code": CODE, "message": TEXT}` with a 4xx or 5xx status.

Live play is on the websocket `/ws`, which OpenAPI cannot describe: its messages are the schemas
`ClientMessage` (client to server) and `ServerMessage` (server to client) below."""


def _ref(model: type[BaseModel] | str) -> dict[str, str]:
    return {"$ref": REF.format(model=model if isinstance(model, str) else model.__name__)}


def documented(reply: type[BaseModel] | None, body: type[BaseModel] | None = None, status: int = 200,
               media: str = JSON) -> dict[str, Any]:
    """Route arguments that describe a route in the OpenAPI document by its models.

    The routes read their bodies themselves (to refuse an oversized one while it streams in)
    and return plain dicts, so the models are named here instead of in the signatures.
    """
    ok: dict[str, Any] = {"content": {media: {"schema": _ref(reply) if reply is not None else {"type": "string"}}}}
    extra: dict[str, Any] = {"responses": {str(status): ok}}
    if body is not None:
        extra["requestBody"] = {"required": True, "content": {JSON: {"schema": _ref(body)}}}
    errors = {"4XX": {"description": "Error (docs/PROTOCOL.md: error codes)",
                      "content": {JSON: {"schema": _ref(ErrorMessage)}}}}
    return {"response_model": None, "responses": errors, "openapi_extra": extra}


def openapi_schema(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document: the routes, and every model (the websocket's too) as a component."""
    schema = get_openapi(title=app.title, version=app.version, description=API_DESCRIPTION, routes=app.routes)
    models = (*SCHEMA_MODELS, *PLAYER_SCHEMA_MODELS, *QUICKPLAY_MODELS, *REVIEW_MODELS)
    _, defs = models_json_schema([(m, "validation") for m in models], ref_template=REF)
    components: dict[str, Any] = dict(defs.get("$defs", {}))
    adapters: tuple[tuple[str, TypeAdapter[Any]], ...] = (("ClientMessage", CLIENT_MESSAGE),
                                                           ("ServerMessage", SERVER_MESSAGE))
    for name, adapter in adapters:
        union = adapter.json_schema(ref_template=REF)
        components.update(union.pop("$defs", {}))
        components[name] = union
    schema.setdefault("components", {}).setdefault("schemas", {}).update(components)
    return schema


class SecurityHeaders:
    """Adds the security headers to every HTTP response (a plain ASGI middleware: no per-request task)."""

    HEADERS = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
               (b"content-security-policy", CSP.encode()))

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class TokenBucket:
    """``rate`` events a second with bursts of ``burst``.

    >>> b = TokenBucket(1.0, 2.0)
    >>> [b.take(now=0.0) for _ in range(3)], b.take(now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp: float | None = None

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class WsConnection:
    """One websocket: an outbound queue drained by its own task, so a slow client never stalls a table."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_MAX)
        self.closed = False
        self.closer: asyncio.Task[None] | None = None
        self.writer = asyncio.create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
        except asyncio.QueueFull:
            log.warning("dropping a connection that does not read its messages")
            self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.writer.cancel()
            self.closer = asyncio.create_task(self._close())

    async def _close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(1008)

    async def _write(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
            await self.ws.close(1000)
        except Exception:  # the client went away; the reader notices and cleans up
            self.closed = True

    async def finish(self) -> None:
        if self.closed and not self.writer.done():
            # Closed by the server (a left seat, a closed table): its last messages go out first.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self.writer), 2.0)
        self.closed = True
        self.writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.writer


def create_app(db_url: str, *, idle_minutes: float = 60.0, bot_delay: float = 0.0, allow_seed: bool = False,
               workers: PoolSpec = 2, rate: float = RATE, burst: float = BURST,
               limits: Limits | None = None, review_worlds: int = DEFAULT_WORLDS,
               metrics_allow: str = "") -> FastAPI:
    """The application on the database at ``db_url`` (migrated at start).

    ``rate``/``burst`` limit the messages a second each websocket may send; ``limits`` the tables
    each address may create and join, and the hints it may ask for; ``review_worlds`` is a game review's
    budget (worlds a decision, :mod:`diloti.ai.review`). ``metrics_allow``: the addresses or networks
    (comma-separated) besides the loopback that may read ``/metrics``.
    """
    holder: dict[str, TableManager] = {}
    limiter = Limiter(limits or Limits())
    metrics = Metrics()
    allowed = parse_allow(metrics_allow)
    limiter.on_hit = lambda name: metrics.limits.labels(name).inc()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, db_url, True, True)
        manager = TableManager(store, idle_minutes=idle_minutes, bot_delay=bot_delay, allow_seed=allow_seed,
                               workers=workers, metrics=metrics)
        holder["m"] = manager
        _app.state.manager = manager
        await manager.start()
        try:
            yield
        finally:
            await reviews.stop()
            await manager.stop()
            store.close()

    # /openapi.json only: the interactive pages load their scripts from a CDN and run inline code,
    # both refused by this site's Content-Security-Policy (default-src 'self').
    app = FastAPI(title="Diloti", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url="/openapi.json")

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = openapi_schema(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.state.limiter = limiter

    def mgr() -> TableManager:
        return holder["m"]

    players = Players(mgr, limiter)
    reviews = ReviewDesk(mgr, players, review_worlds)
    app.state.reviews = reviews

    app.add_middleware(Errors, on_outage=lambda _exc: metrics.db_errors.labels("request").inc())
    app.add_middleware(SecurityHeaders)

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, exc: ProtocolError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after is not None else None
        return JSONResponse(exc.to_message(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # A query or path parameter of the wrong type; named in our words, never the library's text.
        where = ".".join(str(p) for p in exc.errors()[0].get("loc", ())[1:]) if exc.errors() else "request"
        return JSONResponse(error("bad_request", f"invalid {where or 'request'}"), status_code=400)

    @app.exception_handler(404)
    async def not_found(_request: Request, _exc: Exception) -> JSONResponse:
        return JSONResponse(error("not_found", "no such page"), status_code=404)

    @app.exception_handler(405)
    async def bad_method(request: Request, _exc: Exception) -> JSONResponse:
        return JSONResponse(error("bad_method", f"method {request.method} is not allowed here"), status_code=405)

    async def body(request: Request) -> Any:
        # Refused while it streams in: a huge body is never read past the limit, nor held in memory.
        limit = MAX_BODY
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise ProtocolError("too_large", f"request body of {declared} bytes is over the limit of {limit}", 413)
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(BODY_TIMEOUT):  # a body sent a byte at a time holds no task for ever
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > limit:
                        raise ProtocolError("too_large", f"request body is over the limit of {limit} bytes", 413)
                    chunks.append(chunk)
        except TimeoutError:
            raise ProtocolError("timeout", f"request body not received within {BODY_TIMEOUT:g} s", 408) from None
        raw = b"".join(chunks)
        try:
            data = json.loads(raw or b"{}")
        except ValueError as exc:
            raise ProtocolError("bad_json", f"request body is not valid JSON: {exc}") from None
        except RecursionError:
            raise ProtocolError("bad_json", "request body is nested too deeply") from None
        if (where := nul_at(data)) is not None:  # no text of this server holds one; PostgreSQL stores none
            raise ProtocolError("bad_request", f"invalid {where}: a NUL character is not allowed")
        return data

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> Response:
        page = static_dir() / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html; charset=utf-8")
        return HTMLResponse(PLACEHOLDER)

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # Served from the root so that its scope is the whole site; never cached by the browser's
        # HTTP cache, so a new version is picked up on the next visit.
        return FileResponse(static_dir() / "sw.js", media_type="text/javascript; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=static_dir(), check_dir=False), name="static")

    @app.get("/healthz", **documented(Health))
    async def healthz() -> dict[str, Any]:
        """Alive: the event loop answers (whatever the database does)."""
        return {"ok": True}

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> JSONResponse:
        """Ready: the database answers within a timeout and, on PostgreSQL, the listener is connected."""
        m = mgr()
        ok, out = await readiness(m.store.ping, None if m.cluster is None else m.cluster.listening)
        return JSONResponse(out, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        """Prometheus metrics: for the loopback and the addresses of --metrics-allow-ips only."""
        if not may_read(request.client.host if request.client else None, allowed):
            raise ProtocolError("forbidden", "the metrics are for the operator's addresses only", 403)
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    @app.get("/api/info", **documented(Info))
    async def info() -> dict[str, Any]:
        default = find_game(DEFAULT_GAME).options  # the form's first game: a request naming no game plays it
        return {"version": __version__, "levels": list(LEVELS), "options": default().to_dict(),
                "games": {g.name: {"players": list(g.players), "options": g.options().to_dict()}
                          for g in GAMES.values()},
                "choices": {name: list(words) for name, words in default.CHOICES.items()},
                "limits": {"name_max": NAME_MAX, "message_max": MAX_MESSAGE, "rate": rate, "burst": burst,
                           "connections": limiter.max_connections, "chat_max": CHAT_MAX,
                           "chat_lines": limiter.chat_lines, "chat_seconds": limiter.chat_seconds}}

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

    add_routes(app, players, body, documented)
    add_review_routes(app, reviews, body, documented)
    add_quickplay_routes(app, QuickPlayDesk(mgr, players, limiter), body, documented)

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        try:
            address = limiter.connect(ws)
        except ProtocolError as exc:
            await refuse(ws, exc)
            return
        metrics.sockets.inc()
        try:
            await ws.accept()
            await serve_socket(mgr(), ws, TokenBucket(rate, burst), limiter)
        finally:
            metrics.sockets.dec()
            limiter.disconnect(address)

    return app


def nul_at(data: Any, where: str = "") -> str | None:
    """Where in a JSON value a text (or a key) holds a NUL character (None: nowhere).

    >>> nul_at({"name": "Ann", "seats": [{"kind": "hu\\x00man"}]}), nul_at({"name": "Ann"})
    ('seats[0].kind', None)
    """
    if isinstance(data, str):
        return (where or "request body") if "\x00" in data else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        here = f"{where}[{k}]" if isinstance(k, int) else f"{where}.{k}" if where else str(k)
        if isinstance(k, str) and "\x00" in k:
            return f"a key of {where or 'the request body'}"
        found = nul_at(v, here)
        if found is not None:
            return found
    return None


async def refuse(ws: WebSocket, exc: ProtocolError) -> None:
    """Accept only to say why, then close with 1008 (policy violation): the client can tell the reason."""
    with contextlib.suppress(Exception):
        await ws.accept()
        await ws.send_text(json.dumps(exc.to_message(), ensure_ascii=False, separators=(",", ":")))
        await ws.close(1008, reason=exc.code)


async def serve_socket(manager: TableManager, ws: WebSocket, bucket: TokenBucket, limiter: Limiter) -> None:
    """Read one websocket's messages until it closes; bad input gets an error, never a crash."""
    conn = WsConnection(ws)
    joined: tuple[LiveTable, int | None] | None = None  # the table, and the seat (None: watching)
    try:
        while not conn.closed:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            data: str | bytes = text if text is not None else (raw.get("bytes") or b"")
            if not bucket.take():
                conn.send(error("rate_limited", f"more than {bucket.rate:g} messages a second; message dropped"))
                continue
            try:
                msg = read_message(data)
                if isinstance(msg, ClientHint):
                    limiter.check("hint", ws)
                joined = await handle(manager, conn, joined, msg, limiter)
            except ProtocolError as exc:
                conn.send(exc.to_message())
                if exc.code == "stale" and joined is not None:
                    manager.sync(conn, *joined)
            except Exception:
                log.exception("unexpected fault handling a message")
                conn.send(error("server_error", "unexpected fault; the game is unchanged"))
    except Exception:  # a broken socket ends this connection only
        log.debug("websocket ended", exc_info=True)
    finally:
        if joined is not None:
            manager.detach(conn, *joined)
        await conn.finish()
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def handle(manager: TableManager, conn: WsConnection, joined: tuple[LiveTable, int | None] | None,
                 msg: ClientMessage, limiter: Limiter | None = None) -> tuple[LiveTable, int | None] | None:
    if isinstance(msg, ClientPing):
        conn.send({"type": "pong", "id": msg.id})
        return joined
    if isinstance(msg, ClientHello | ClientWatch):
        if joined is not None:
            held = f"watches table {joined[0].id}" if joined[1] is None else \
                f"holds seat {joined[1]} of table {joined[0].id}"
            raise ProtocolError("already_joined", f"this connection already {held}; open another connection "
                                "for another seat or table")
        if isinstance(msg, ClientWatch):
            return await manager.watch(conn, msg.table), None
        return await manager.hello(conn, msg.table, msg.token)
    if joined is None:
        raise ProtocolError("not_joined", f"send 'hello' (or 'watch') with a table before {msg.type!r}")
    table, seat = joined
    if isinstance(msg, ClientSync):
        manager.sync(conn, table, seat)
        return joined
    if seat is None:
        raise ProtocolError("spectator", f"spectators may not send {msg.type!r}: only the seated players play "
                            "and chat")
    if conn not in table.seats[seat].conns:  # the seat was left (through this tab or another)
        raise ProtocolError("not_joined", f"this connection no longer holds seat {seat}")
    if isinstance(msg, ClientLeave):
        await manager.leave(table, seat)
        return None
    if isinstance(msg, ClientRematch):
        await manager.rematch(table, seat)
    elif isinstance(msg, ClientResign):
        await manager.resign(table, seat)
    elif isinstance(msg, ClientHandOver):
        await manager.hand_over(table, seat, msg.seat)
    elif isinstance(msg, ClientBack):
        await manager.back(table, seat)
    elif isinstance(msg, ClientClaim):
        await manager.claim(table, seat)
    elif isinstance(msg, ClientMove):
        await manager.play_text(table, seat, msg.move, msg.ply)
    elif isinstance(msg, ClientHint):
        conn.send(await manager.hint(table, seat))
    elif isinstance(msg, ClientChat):
        clean_chat(msg.text)  # a bad line is refused before it counts against the chat allowance
        # Counted per seat (and per player across tables): more connections of a seat do not say more.
        player = table.seats[seat].player
        keys = (f"{table.id}/{seat}",) if player is None else (f"{table.id}/{seat}", f"player:{player}")
        if limiter is not None and not limiter.chat(*keys):
            raise ProtocolError("rate_limited", f"more than {limiter.chat_lines} chat lines in "
                                f"{limiter.chat_seconds:g} seconds from this seat or player; line dropped")
        await manager.chat(table, seat, msg.text)
    return joined
