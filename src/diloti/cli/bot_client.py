"""The reference client of the Bot API (docs/BOTS.md): plays a bot account's games on a server with any player
``diloti tournament`` accepts, through the same ``choose(view)`` door a local player has.

It follows the account's event stream, accepts or declines challenges by its filters, plays each game on a thread
of its own from that game's stream (the view each ``state`` carries, rebuilt as the game's own view class), and
reconnects, to either stream, after a lost connection or a server restart: a stream always starts from the game as
it is, so nothing is lost. Standard library only (``http.client``).

>>> f = Filters(games=("diloti",), source="bots", rated="any", allow=())
>>> f.accepts({"game": "diloti", "rated": True, "from": {"name": "R2", "bot": True}})
(True, '')
>>> f.accepts({"game": "xeri", "rated": False, "from": {"name": "Ann", "bot": False}})
(False, 'game xeri is not one of diloti')
"""

from __future__ import annotations

import http.client
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from diloti.ai import make_player
from diloti.formats.views import view_from_dict

log = logging.getLogger("diloti.bot")

RETRY = (0.5, 10.0)  # the first and the longest wait before reconnecting


class ApiError(Exception):
    """An error answer of the server (its code, message and Retry-After)."""

    def __init__(self, status: int, body: dict[str, Any], retry_after: float | None) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.status = status
        self.code = str(body.get("code"))
        self.retry_after = retry_after


@dataclass(frozen=True)
class Filters:
    """Which challenges to accept: games, who from (``any``, ``humans``, ``bots``), rated or casual, and only
    these challengers' names (empty: anyone)."""

    games: tuple[str, ...] = ()
    source: str = "any"
    rated: str = "any"
    allow: tuple[str, ...] = ()

    def accepts(self, c: dict[str, Any]) -> tuple[bool, str]:
        """(accept, why not)."""
        if self.games and c["game"] not in self.games:
            return False, f"game {c['game']} is not one of {', '.join(self.games)}"
        bot = bool(c["from"]["bot"])
        if (self.source == "humans" and bot) or (self.source == "bots" and not bot):
            return False, f"challenges from {self.source} only"
        if (self.rated == "rated" and not c["rated"]) or (self.rated == "casual" and c["rated"]):
            return False, f"{self.rated} games only"
        if self.allow and c["from"]["name"] not in self.allow:
            return False, "not a challenger this bot accepts"
        return True, ""


class Api:
    """The server's HTTP API with the bot's token (one connection a call: threads share nothing).

    ``servers``: the addresses of one service's processes (or one address, a proxy's): a call that cannot connect
    moves on to the next one, so a client outlives any one process.
    """

    def __init__(self, servers: str | list[str], token: str, timeout: float = 30.0) -> None:
        self.servers = []
        for server in [servers] if isinstance(servers, str) else servers:
            url = urlsplit(server)
            if url.scheme not in ("http", "https") or not url.hostname:
                raise ValueError(f"invalid server {server!r}: expected http://HOST[:PORT] or https://...")
            self.servers.append((url.scheme, url.hostname, url.port, url.path.rstrip("/")))
        if not self.servers:
            raise ValueError("no server given")
        self.at = 0
        self._lock = threading.Lock()
        self.token = token
        self.timeout = timeout

    def _base(self, at: int) -> str:
        """The path prefix of server ``at`` (a proxy's, or empty)."""
        return self.servers[at][3]

    def _conn(self, at: int, timeout: float | None) -> http.client.HTTPConnection:
        scheme, host, port, _ = self.servers[at]
        cls = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        return cls(host, port, timeout=timeout)

    def next_server(self, failed: int) -> None:
        """Connect to the process after ``failed`` from now on (it did not answer), unless another thread has
        moved on from it already: two threads failing on one process must not step twice, back onto it (an
        event stream and a game stream cut by one kill, reconnecting in step, stayed on the dead process).

        >>> api = Api(["http://a:1", "http://b:2"], "t")
        >>> api.next_server(0); api.next_server(0); api.at
        1
        """
        with self._lock:
            if self.at == failed:
                self.at = (failed + 1) % len(self.servers)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        at = self.at
        try:
            return self._call(at, method, path, body)
        except ConnectionError:
            self.next_server(at)
            raise

    def _call(self, at: int, method: str, path: str, body: dict[str, Any] | None) -> Any:
        conn = self._conn(at, self.timeout)
        try:
            data = None if body is None else json.dumps(body).encode()
            headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
            conn.request(method, self._base(at) + path, body=data, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            out = json.loads(raw) if raw else None
            if resp.status >= 400:
                after = resp.getheader("Retry-After")
                raise ApiError(resp.status, out if isinstance(out, dict) else {}, float(after) if after else None)
            return out
        finally:
            conn.close()

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The messages of an NDJSON stream until it ends (a keep-alive line is ``{}``: the reader may stop then)."""
        at = self.at
        conn = self._conn(at, 60.0)  # the server writes a line at least every few seconds
        try:
            try:
                conn.connect()
            except OSError:
                self.next_server(at)
                raise
            conn.request("GET", self._base(at) + path, headers={"Authorization": f"Bearer {self.token}"})
            resp = conn.getresponse()
            if resp.status >= 400:
                raw = resp.read()
                after = resp.getheader("Retry-After")
                raise ApiError(resp.status, json.loads(raw) if raw else {}, float(after) if after else None)
            while line := resp.readline():
                yield json.loads(line) if line.strip() else {}
        finally:
            conn.close()


class Game(threading.Thread):
    """One game: its stream read (again after a lost connection) and each of the seat's decisions played."""

    def __init__(self, bot: BotClient, table: str) -> None:
        super().__init__(name=f"game-{table}", daemon=True)
        self.bot = bot
        self.table = table
        self.player = make_player(bot.spec, seed=abs(hash(table)) % 2**31, outside=True)
        self.moved_at = -1  # the last ply this client answered
        self.seat: int | None = None
        self.result: dict[str, Any] | None = None
        self.transcript: list[dict[str, Any]] = []

    def run(self) -> None:
        wait = RETRY[0]
        while not self.bot.stopping.is_set() and self.result is None:
            try:
                for msg in self.bot.api.stream(f"/api/bot/game/stream/{quote(self.table)}"):
                    wait = RETRY[0]
                    self.transcript.append(msg)
                    self.on_message(msg)
                    if self.result is not None:
                        break
            except ApiError as exc:
                if exc.code in ("not_your_game", "unknown_table", "table_closed", "bad_token", "token_revoked"):
                    log.warning("game %s: %s", self.table, exc)
                    self.result = {"table": self.table, "error": exc.code}
                    break
                wait = exc.retry_after or wait
            except (OSError, http.client.HTTPException, ValueError) as exc:
                log.info("game %s: stream lost (%s); reconnecting", self.table, exc.__class__.__name__)
            time.sleep(wait)
            wait = min(RETRY[1], wait * 2)
        self.bot.finished(self)

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "gameFull":
            self.seat = int(msg["seat"])
            if msg.get("state") is not None:
                self.on_state({**msg["state"], "view": msg.get("view")})
        elif kind == "state":
            self.on_state(msg)
        elif kind == "game_over" or (kind == "table" and msg["table"]["status"] in ("over", "closed")):
            self.result = {"table": self.table, "seat": self.seat, **{
                k: msg.get(k) for k in ("winner", "scores", "end_reason")}}
            if kind == "table":
                t = msg["table"]
                self.result.update(winner=t["winner"], scores=t["scores"], end_reason=t["end_reason"])
        elif kind == "error" and msg.get("code") == "token_revoked":
            self.result = {"table": self.table, "error": "token_revoked"}

    def on_state(self, state: dict[str, Any]) -> None:
        view = state.get("view")
        ply = int(state["ply"])
        if not state.get("your_turn") or view is None or ply <= self.moved_at:
            return
        move = self.player.choose(view_from_dict(view))
        self.moved_at = ply
        while not self.bot.stopping.is_set():
            try:
                self.bot.api.call("POST", f"/api/bot/game/{quote(self.table)}/move", {"move": str(move), "ply": ply})
                return
            except ApiError as exc:
                log.info("game %s: move %s at ply %d refused: %s", self.table, move, ply, exc)
                if exc.code == "rate_limited":  # the same move once the limit allows (nothing else will ask)
                    time.sleep(exc.retry_after or 1.0)
                    continue
                if exc.code != "stale":  # stale: the game moved on, and its next state says what to do
                    self.moved_at = -1
                return
            except (OSError, http.client.HTTPException):
                self.moved_at = -1  # answered again from the state the reconnected stream starts with
                return


class BotClient:
    """A bot account's client: the event stream, challenges by the filters, one :class:`Game` a game."""

    def __init__(self, server: str | list[str], token: str, spec: str, filters: Filters, *,
                 log_dir: Path | None = None,
                 challenge: str | None = None, challenge_body: dict[str, Any] | None = None,
                 max_games: int = 0, say: Callable[[str], None] = print) -> None:
        make_player(spec, seed=0, outside=True)  # a bad player is refused before anything connects
        self.api = Api(server, token)
        self.spec = spec
        self.filters = filters
        self.log_dir = log_dir
        self.challenge = challenge
        self.challenge_body = challenge_body or {}
        self.max_games = max_games
        self.say = say
        self.games: dict[str, Game] = {}
        self.done = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.me: dict[str, Any] = {}

    def run(self) -> int:
        """Play until ``max_games`` games are over (0: until stopped); the games played."""
        wait = RETRY[0]
        while not self.stopping.is_set():
            try:
                if not self.me:
                    self.me = self.api.call("GET", "/api/bot/account")
                    self.say(f"bot {self.me['name']} ({self.me['player']}) playing as {self.spec}")
                    self._challenge()
                for event in self.api.stream("/api/stream/event"):
                    wait = RETRY[0]
                    self.on_event(event)
                    if self.stopping.is_set():
                        break
            except ApiError as exc:
                if exc.code in ("bad_token", "token_revoked", "missing_scope", "no_key"):
                    self.say(f"stopping: {exc}")
                    self.stopping.set()
                    break
                wait = exc.retry_after or wait
                log.info("event stream refused: %s", exc)
            except (OSError, http.client.HTTPException, ValueError) as exc:
                log.info("event stream lost (%s); reconnecting", exc.__class__.__name__)
            if not self.stopping.is_set():
                time.sleep(wait)
                wait = min(RETRY[1], wait * 2)
        for g in list(self.games.values()):
            g.join(timeout=1.0)
        return self.done

    def stop(self) -> None:
        self.stopping.set()

    def _challenge(self) -> None:
        if self.challenge is None or self.stopping.is_set():
            return
        try:
            made = self.api.call("POST", f"/api/challenge/{quote(self.challenge)}", self.challenge_body)
            self.say(f"challenged {self.challenge}: {made['challenge']['id']}")
        except ApiError as exc:
            self.say(f"cannot challenge {self.challenge}: {exc}")

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            c = event["challenge"]
            if c["to"]["id"] != self.me.get("player") or c.get("status", "open") != "open":
                return
            ok, why = self.filters.accepts(c)
            try:
                if ok:
                    self.api.call("POST", f"/api/challenge/{quote(c['id'])}/accept")
                    self.say(f"accepted challenge {c['id']} from {c['from']['name']}")
                else:
                    self.api.call("POST", f"/api/challenge/{quote(c['id'])}/decline")
                    self.say(f"declined challenge {c['id']} from {c['from']['name']}: {why}")
            except ApiError as exc:
                self.say(f"challenge {c['id']}: {exc}")
        elif kind == "gameStart":
            tid = event["game"]["id"]
            with self.lock:
                if tid in self.games or self.stopping.is_set():
                    return
                game = self.games[tid] = Game(self, tid)
            self.say(f"game {tid} started (seat {event['game']['seat']})")
            game.start()
        elif kind == "error" and event.get("code") == "token_revoked":
            self.say("stopping: the token was revoked")
            self.stopping.set()

    def finished(self, game: Game) -> None:
        """A game's thread ended: its line in the log, and a new challenge or the end."""
        r = game.result or {}
        self.say(f"game {game.table} over: seat {r.get('seat')}, winner {r.get('winner')}, scores "
                 f"{r.get('scores')}, end {r.get('end_reason') or r.get('error') or 'played out'}")
        if self.log_dir is not None:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            with (self.log_dir / f"{game.table}.ndjson").open("w", encoding="utf-8") as f:
                for msg in game.transcript:
                    f.write(json.dumps(msg, ensure_ascii=False) + "\n")
        with self.lock:
            self.done += 1
            enough = self.max_games and self.done >= self.max_games
        if enough:
            self.stopping.set()
        elif "error" not in r:
            self._challenge()


__all__ = ["Api", "ApiError", "BotClient", "Filters", "Game"]
