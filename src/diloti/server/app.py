"""The ASGI application: the page, the JSON API and the ``/ws`` websocket (docs/PROTOCOL.md).

Request bodies are read by the application itself (:mod:`diloti.server.bodies`: an oversized body
is refused while it streams in), then checked by their models (:mod:`diloti.server.messages`)
before the table manager sees them. ``/openapi.json`` describes the HTTP part from the same
models (:mod:`diloti.server.openapi`). The routes of each part are in its module (the tables',
the players', the reviews', quick play's); the websocket's connections in :mod:`diloti.server.sockets`.

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
import logging
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from diloti import __version__
from diloti.ai import LEVELS
from diloti.ai.review import DEFAULT_WORLDS
from diloti.games import DEFAULT_GAME, find_game
from diloti.match.workers import PoolSpec
from diloti.server.arena import ArenaConfig, ArenaDesk
from diloti.server.arena import add_routes as add_arena_routes
from diloti.server.bodies import read_json
from diloti.server.bot_api import add_routes as add_bot_routes
from diloti.server.bots import BotDesk, BotLimits
from diloti.server.daily import DAILY_LEVEL, DailyDesk
from diloti.server.daily import add_routes as add_daily_routes
from diloti.server.health import Errors, readiness
from diloti.server.info import games_info
from diloti.server.limits import Limiter, Limits
from diloti.server.messages import (
    Health,
    Info,
)
from diloti.server.metrics import CONTENT_TYPE, Instrument, Metrics, Network, may_read, parse_allow
from diloti.server.openapi import documented, openapi_schema
from diloti.server.players import Players
from diloti.server.players import add_routes as add_player_routes
from diloti.server.protocol import CHAT_MAX, MAX_MESSAGE, NAME_MAX, ProtocolError, error
from diloti.server.quickplay import QuickPlayDesk
from diloti.server.quickplay import add_routes as add_quickplay_routes
from diloti.server.retry import add_routes as add_retry_routes
from diloti.server.reviews import ReviewDesk
from diloti.server.reviews import add_routes as add_review_routes
from diloti.server.sockets import BURST, RATE, TokenBucket, refuse, serve_socket
from diloti.server.table_routes import add_routes as add_table_routes
from diloti.server.tables import TableManager
from diloti.store.db import Store

log = logging.getLogger("diloti.server")

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
PLACEHOLDER = """<!doctype html><html lang="en"><meta charset="utf-8"><title>Diloti</title>
<p>The Diloti page is not installed; the API is at <code>/api/info</code>.</p></html>"""


def static_dir() -> Path:
    return Path(str(resources.files("diloti.server") / "static"))


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


def create_app(db_url: str, *, idle_minutes: float = 60.0, bot_delay: float = 0.0, allow_seed: bool = False,
               workers: PoolSpec = 2, rate: float = RATE, burst: float = BURST,
               limits: Limits | None = None, review_worlds: int = DEFAULT_WORLDS,
               metrics_allow: str = "", bot_limits: BotLimits | None = None, daily_level: str = DAILY_LEVEL,
               arenas: ArenaConfig | None = None) -> FastAPI:
    """The application on the database at ``db_url`` (migrated at start).

    ``rate``/``burst`` limit the messages a second each websocket may send; ``limits`` the tables
    each address may create and join, and the hints it may ask for; ``review_worlds`` is a game review's
    budget (worlds a decision, :mod:`diloti.ai.review`). ``metrics_allow``: the addresses or networks
    (comma-separated) besides the loopback that may read ``/metrics``. ``daily_level``: the daily deal's computer
    opponent (a level with a playout budget: :mod:`diloti.server.daily`); ``arenas``: the scheduled arenas and
    the arenas' timing (:mod:`diloti.server.arena`).
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
        await bots.start()
        arena_desk.start()
        try:
            yield
        finally:
            await arena_desk.stop()
            await bots.stop()
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
    arena_desk = ArenaDesk(mgr, players, limiter, arenas or ArenaConfig())
    app.state.arenas = arena_desk
    app.state.reviews = reviews
    bots = BotDesk(mgr, players, bot_limits)
    app.state.bots = bots

    app.add_middleware(Errors, on_outage=lambda _exc: metrics.db_errors.labels("request").inc())
    app.add_middleware(SecurityHeaders)
    # The outermost of ours: every answer counted, the 500s and 503s of Errors included; the loop's lag and
    # the database pool watched for the app's lifespan.
    app.add_middleware(Instrument, metrics=metrics, router=app.router,
                       pool=lambda: holder["m"].store.engine.pool if "m" in holder else None)

    _add_error_handlers(app)

    _add_page_routes(app)
    _add_operator_routes(app, mgr, metrics, allowed)

    @app.get("/api/info", **documented(Info))
    async def info() -> dict[str, Any]:
        default = find_game(DEFAULT_GAME).options  # the form's first game: a request naming no game plays it
        return {"version": __version__, "levels": list(LEVELS), "options": default().to_dict(),
                "games": games_info(),
                "choices": {name: list(words) for name, words in default.CHOICES.items()},
                "limits": {"name_max": NAME_MAX, "message_max": MAX_MESSAGE, "rate": rate, "burst": burst,
                           "connections": limiter.max_connections, "chat_max": CHAT_MAX,
                           "chat_lines": limiter.chat_lines, "chat_seconds": limiter.chat_seconds}}

    add_table_routes(app, mgr, limiter, players, read_json, documented)
    add_player_routes(app, players, read_json, documented)
    add_review_routes(app, reviews, read_json, documented)
    add_retry_routes(app, mgr, limiter, players, read_json, documented)
    quick = QuickPlayDesk(mgr, players, limiter)
    add_quickplay_routes(app, quick, read_json, documented)
    add_bot_routes(app, bots, read_json, documented, quick)
    add_daily_routes(app, DailyDesk(mgr, players, limiter, reviews, daily_level), read_json, documented)
    add_arena_routes(app, arena_desk, read_json, documented)

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


def _add_error_handlers(app: FastAPI) -> None:
    """Every error a JSON body with a code and a message in our words (docs/PROTOCOL.md), never the library's."""

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


def _add_operator_routes(app: FastAPI, mgr: Callable[[], TableManager], metrics: Metrics,
                         allowed: tuple[Network, ...]) -> None:
    """What an operator's load balancer and Prometheus read: alive, ready, and the metrics."""

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


def _add_page_routes(app: FastAPI) -> None:
    """The page itself: its HTML, its service worker and its static files."""

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
