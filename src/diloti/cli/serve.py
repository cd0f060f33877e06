"""``diloti serve``: the browser game (web page, websockets, database) in one process."""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from diloti.cli import CliError
from diloti.cli.common import non_negative_float, one_line_errors, pool_spec, positive_float, positive_int

ENV_DB = "DILOTI_DATABASE_URL"
DEFAULT_DB = "sqlite:///diloti.sqlite3"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "serve", help="run the browser game server",
        description="Run the Diloti web server: open the printed address in a browser and play. "
                    "Games are stored as they are played; a restarted server resumes them.",
    ))
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for all)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", metavar="URL", default=None,
                   help=f"database URL: sqlite:///PATH or postgresql://USER:PASS@HOST/DB "
                        f"(default: ${ENV_DB}, else {DEFAULT_DB}, i.e. ./diloti.sqlite3 in the current directory)")
    p.add_argument("--idle-minutes", type=positive_float, default=60.0, metavar="N",
                   help="close a table after N minutes without a move, join or message (default 60)")
    p.add_argument("--bot-delay", type=non_negative_float, default=0.0, metavar="SECONDS",
                   help="wait this long before each computer move (default 0: the page paces the display)")
    p.add_argument("--workers", type=pool_spec, default=2, metavar="SPEC",
                   help="where computer players and hints run: N local worker processes (default 2), or a Ray "
                        "cluster: ray, ray://HOST:PORT or ray:HOST:PORT (the 'cluster' extra; docs/WORKERS.md)")
    p.add_argument("--review-budget", type=positive_int, default=None, metavar="W",
                   help="worlds a decision for game reviews (default 24, as 'diloti review'; at most 1000)")
    p.add_argument("--allow-seed", action="store_true",
                   help="accept a 'seed' for new tables (for tests only: a seed reveals the deck)")
    p.add_argument("--forwarded-allow-ips", default="127.0.0.1", metavar="IPS",
                   help="comma-separated addresses of the front proxies to trust (default 127.0.0.1: a proxy on "
                        "this machine). A request from one of them is taken to come from the client its "
                        "X-Forwarded-For names, so the per-client limits (logins, new tables, connections) count "
                        "that client. Trust only your own proxy: anyone who can connect from a trusted address "
                        "can name any client and escape or shift those limits; '*' trusts everyone")
    p.add_argument("--metrics-allow-ips", type=metrics_allow, default="", metavar="IPS",
                   help="comma-separated addresses or networks (10.0.0.0/8) besides the loopback that may read "
                        "the Prometheus metrics at /metrics (default: the loopback only)")
    p.add_argument("--header-timeout", type=positive_float, default=10.0, metavar="SECONDS",
                   help="close a connection whose request head has not arrived within SECONDS (default 10)")
    p.add_argument("--limit-concurrency", type=positive_int, default=4000, metavar="N",
                   help="answer 503 to new requests while N connections or requests are open (default 4000)")
    p.add_argument("--bot-limits", type=bot_limits, default="", metavar="NAME=N,...",
                   help="the Bot API's limits (docs/BOTS.md): moves and requests a minute per token, games at once "
                        "per bot, bot-against-bot games and challenges a day, e.g. moves=60,games=4 (the others "
                        "keep their defaults)")
    p.add_argument("--daily-level", type=daily_level, default=None, metavar="SPEC",
                   help="the daily deal's computer opponent: a level with a playout budget and no clock, so that "
                        "its replies depend only on the position and the day's seed (default "
                        "master:iterations=800,seconds=none,model=play)")
    p.add_argument("--arena", type=arena_schedule, action="append", default=[], metavar="SCHEDULE",
                   help="a scheduled arena (repeatable): hourly or daily, then :KEY=VALUE,... with minutes (its "
                        "length), at (minutes past the hour, or HH:MM UTC), move and reserve (the clock's "
                        "seconds), wait (seconds alone before a computer); e.g. hourly:minutes=30 or "
                        "daily:at=18:00,minutes=60")
    p.add_argument("--arena-minute", type=positive_float, default=60.0, metavar="SECONDS",
                   help="the seconds an arena's minute lasts (default 60; the tests and the benchmark play a "
                        "real arena of 3 minutes in less)")
    p.add_argument("--arena-tick", type=positive_float, default=1.0, metavar="SECONDS",
                   help="seconds between two pairing passes of the arenas (default 1)")
    p.add_argument("--limit", type=limit_setting, action="append", default=[], metavar="NAME=RATE",
                   help="change one of the server's limits (repeatable), e.g. poll=600/minute or create=40/minute "
                        "(docs/PROTOCOL.md, Limits: the names and their defaults)")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=run)


def bot_limits(text: str) -> str:
    """A ``--bot-limits`` value, checked."""
    from diloti.server.bots import parse_limits

    try:
        parse_limits(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def metrics_allow(text: str) -> str:
    """A ``--metrics-allow-ips`` value, checked (comma-separated addresses or networks).

    >>> metrics_allow("10.0.0.0/8, 192.168.1.5")
    '10.0.0.0/8, 192.168.1.5'
    """
    import ipaddress

    for part in (p.strip() for p in text.split(",")):
        if part:
            try:
                ipaddress.ip_network(part, strict=False)
            except ValueError:
                raise argparse.ArgumentTypeError(f"invalid address or network {part!r}") from None
    return text


def daily_level(text: str) -> str:
    """A ``--daily-level`` value: a computer level with a playout budget and no clock (reproducible).

    >>> daily_level("expert:iterations=200,seconds=none")
    'expert:iterations=200,seconds=none'
    >>> daily_level("master")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid daily level 'master': its moves must not depend on a clock: ...
    >>> daily_level("master:iterations=400,seconds=none")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid daily level 'master:iterations=400,seconds=none': name its model of play ...
    """
    from diloti.ai import make_player, parse_spec
    from diloti.core.errors import DilotiError

    try:
        player = make_player(text, seed=0)
    except DilotiError as exc:
        raise argparse.ArgumentTypeError(f"invalid daily level {text!r}: {exc}") from None
    if getattr(player, "seconds", None) is not None or len(text) > 64:
        raise argparse.ArgumentTypeError(f"invalid daily level {text!r}: its moves must not depend on a clock: "
                                         "give iterations=N,seconds=none")
    if hasattr(player, "model") and "model" not in parse_spec(text)[1]:
        # The master's default model depends on the install (the learned one needs numpy): one day, one opponent.
        raise argparse.ArgumentTypeError(f"invalid daily level {text!r}: name its model of play (model=play, or "
                                         "model=learned where every server has numpy), so that its replies do not "
                                         "depend on which server chose them")
    return text


def arena_schedule(text: str) -> object:
    """An ``--arena`` value (:func:`diloti.server.arena.parse_schedule`)."""
    from diloti.server.arena import parse_schedule

    try:
        return parse_schedule(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def limit_setting(text: str) -> tuple[str, str]:
    """A ``--limit`` value: a limit's name and its rate (checked as the server reads it).

    >>> limit_setting("poll=600/minute")
    ('poll', '600/minute')
    """
    from dataclasses import fields

    from limits import parse

    from diloti.server.limits import Limits

    name, _, value = text.partition("=")
    known = [f.name for f in fields(Limits) if f.type in ("str", str)]
    if name not in known:
        raise argparse.ArgumentTypeError(f"invalid limit {name!r}: expected one of {', '.join(known)}")
    try:
        parse(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid rate {value!r} for limit {name}: expected N/UNIT, e.g. "
                                         "20/minute") from None
    return name, value


def database_url(arg: str | None) -> str:
    """The URL from ``--db``, else the environment, else ./diloti.sqlite3; a bare path means SQLite.

    >>> database_url("games.db")
    'sqlite:///games.db'
    >>> database_url("postgresql://u@localhost/diloti")
    'postgresql://u@localhost/diloti'
    """
    url = arg or os.environ.get(ENV_DB) or DEFAULT_DB
    if "://" not in url:
        url = f"sqlite:///{url}"
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if path and path != ":memory:" and not Path(path).parent.is_dir():
            raise CliError(f"invalid --db {url!r}: directory {str(Path(path).parent)!r} does not exist")
    elif not url.startswith(("postgres://", "postgresql://", "postgresql+psycopg://", "sqlite://")):
        raise CliError(f"invalid --db {url!r}: expected sqlite:///PATH or postgresql://...")
    return url


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise CliError(f"invalid --port {args.port}: expected 1..65535")
    if args.limit_concurrency < 1:
        raise CliError(f"invalid --limit-concurrency {args.limit_concurrency}: expected a positive number")
    try:
        url = database_url(args.db)
    except CliError as exc:
        raise CliError(redact(str(exc), args.db or os.environ.get(ENV_DB) or "")) from None
    try:
        import uvicorn

        from diloti.server import create_app
        from diloti.server.bots import parse_limits
        from diloti.server.bounded_http import uvicorn_settings
        from diloti.store import Store
    except ImportError as exc:
        raise CliError(f"the server needs the 'server' extra (pip install 'diloti[server]'): {exc}") from None
    # Open and migrate now, so a bad URL is one clear line before anything listens (never with its password).
    try:
        Store(url).close()
    except Exception as exc:
        raise CliError(redact(str(exc), url)) from None
    _log_to_stderr(args.log_level)
    warning = proxy_warning(args.host, args.forwarded_allow_ips)
    if warning:
        print(f"diloti serve: warning: {warning}", file=sys.stderr, flush=True)
    from diloti.server.arena import ArenaConfig

    events: dict[str, Any] = {"arenas": ArenaConfig(schedules=list(args.arena), tick=args.arena_tick,
                                                    minute=args.arena_minute)}
    if args.limit:
        from diloti.server.limits import Limits

        events["limits"] = Limits(**dict(args.limit))
    if args.daily_level is not None:
        events["daily_level"] = args.daily_level
    app = create_app(url, idle_minutes=args.idle_minutes, bot_delay=args.bot_delay, allow_seed=args.allow_seed,
                     workers=args.workers, metrics_allow=args.metrics_allow_ips, **events,
                     bot_limits=parse_limits(args.bot_limits),
                     **({} if args.review_budget is None else {"review_worlds": min(args.review_budget, 1000)}))
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"diloti serve: open http://{shown}:{args.port}/ in a browser (database {_safe(url)}; Ctrl-C stops)",
          flush=True)
    # No per-message deflate: messages are a few kB and compressing each costs more CPU than it saves.
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=1 << 20,
                ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False,
                proxy_headers=True, forwarded_allow_ips=args.forwarded_allow_ips,
                **uvicorn_settings(args.header_timeout, args.limit_concurrency))
    return 0


def _log_to_stderr(level: str) -> None:
    """The server's own log lines (takeovers, database trouble, slow commits) on stderr beside uvicorn's, at
    the chosen level (without a handler Python would show only warnings, and drop the info lines)."""
    import logging

    logger = logging.getLogger("diloti")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
    logger.setLevel(level.upper())


def _safe(url: str) -> str:
    """The URL without its password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        return f"{scheme}://{cred.split(':', 1)[0]}:***@{host}" if ":" in cred else url
    return url


def redact(text: str, url: str) -> str:
    """``text`` with the password of the database ``url`` (as written, and URL-decoded or -encoded) replaced by
    ``***``: an error about the database never shows it.

    >>> redact("cannot open 'postgresql://u:p%40ss@h/db': refused (p@ss)", "postgresql://u:p%40ss@h/db")
    "cannot open 'postgresql://u:***@h/db': refused (***)"
    """
    try:
        password = urlsplit(url).password
    except ValueError:  # not a URL that splits (a bad port): fall back to what stands between ':' and '@'
        password = url.split("://", 1)[-1].rpartition("@")[0].partition(":")[2] or None
    if not password:
        return text
    for form in sorted({password, unquote(password), quote(password, safe="")}, key=len, reverse=True):
        if form:
            text = text.replace(form, "***")
    return text


def proxy_warning(host: str, trusted: str) -> str | None:
    """What to say at start when forwarded addresses are trusted while the server listens beyond the loopback
    (then whoever reaches it from a trusted address may name any client); None when that cannot happen.

    >>> proxy_warning("127.0.0.1", "*") is None, proxy_warning("0.0.0.0", "") is None
    (True, True)
    >>> proxy_warning("0.0.0.0", "127.0.0.1").startswith("listening on 0.0.0.0 with --forwarded-allow-ips")
    True
    """
    addresses = [a.strip() for a in trusted.split(",") if a.strip()]
    if not addresses:
        return None
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if loopback:
        return None
    what = "every address ('*')" if "*" in addresses else "those addresses"
    return (f"listening on {host} with --forwarded-allow-ips {trusted}: requests from {what} are taken to come "
            "from the client their X-Forwarded-For names; make sure only your own proxy can connect from them")
