"""Players who come back: identities (a key kept by the browser, a recovery code, an optional password),
profiles and the leaderboard, as HTTP routes (docs/PROTOCOL.md, "Players who come back").

A player is made with a name alone: the reply's key is the player on this device (the page keeps it
and sends ``Authorization: Bearer KEY``), the recovery code moves the player to another device. Keys
and codes come from :mod:`secrets` and only their SHA-256 is stored; a password is optional and
stored as an argon2id hash (``argon2-cffi``), checked off the event loop.

>>> name_key("  Ελένη  Π. ")  # accents out, letters alike in Latin made Latin
'eλenh π.'
>>> player_name("Heuristic")
Traceback (most recent call last):
...
diloti.server.protocol.ProtocolError: invalid name 'Heuristic': that is the name of a computer level
>>> code = new_recovery()[0]
>>> len(code), code.count("-"), recovery_hash(code.lower().replace("-", " ")) == recovery_hash(code)
(24, 4, True)
"""

from __future__ import annotations

import math
import re
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, Response

from diloti.server.hashing import Hashing
from diloti.server.limits import Limiter
from diloti.server.live import BOT_ACCOUNTS, token_hash
from diloti.server.lockout import LoginGuard
from diloti.server.names import player_name
from diloti.server.player_models import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    Done,
    GamePage,
    Identity,
    Leaderboard,
    Login,
    Me,
    NewPlayer,
    PlayerRef,
    Profile,
    Recover,
    RecoveryCode,
    Rename,
    SetPassword,
)
from diloti.server.protocol import ProtocolError, read_body
from diloti.server.ratings import shown
from diloti.store.players import MODES, GameLine, NameTaken, PlayerData, PlayerStore, name_key

if TYPE_CHECKING:
    from diloti.server.tables import TableManager

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U to misread
PER_PAGE, PER_PAGE_MAX, PAGE_MAX = 50, 100, 100_000
GAMES_SHOWN = 10  # games on the profile itself (the rest: /api/players/{id}/games)
WRONG = "wrong name or password"




def secret_hash(secret: str) -> str:
    """The stored form of a device key or recovery code: the seat tokens' (one hashing recipe)."""
    return token_hash(secret)


def new_key() -> tuple[str, str]:
    """A device key and its stored hash."""
    key = secrets.token_urlsafe(32)
    return key, secret_hash(key)


def new_recovery() -> tuple[str, str]:
    """A recovery code to write down (five groups of four, e.g. ``7QX2-M9KD-0T4R-VH6W-3NZB``: 100 random bits) and
    its stored hash."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(20))
    code = "-".join(raw[i:i + 4] for i in range(0, 20, 4))
    return code, recovery_hash(code)


def recovery_hash(code: str) -> str:
    """The stored hash of a recovery code as typed (case, spaces and dashes ignored; O read as 0, I and L as 1)."""
    plain = re.sub(r"[\s-]", "", code.upper()).replace("O", "0").replace("I", "1").replace("L", "1")
    return secret_hash(plain)


def stamp(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def page_of(page: int, per_page: int) -> tuple[int, int]:
    """``(offset, limit)`` of a page (1-based), or ``bad_page``."""
    if not 1 <= per_page <= PER_PAGE_MAX:
        raise ProtocolError("bad_page", f"invalid per_page {per_page}: expected 1..{PER_PAGE_MAX}")
    if not 1 <= page <= PAGE_MAX:
        raise ProtocolError("bad_page", f"invalid page {page}: expected 1..{PAGE_MAX}")
    return (page - 1) * per_page, per_page


def _pages(total: int, per_page: int) -> int:
    return max(1, math.ceil(total / per_page))


def _game_page(games: tuple[int, list[GameLine]], page: int, limit: int) -> dict[str, Any]:
    """A page of a player's games as the API gives it."""
    total, lines = games
    return {"total": total, "page": page, "per_page": limit, "pages": _pages(total, limit),
            "games": [game_entry(line) for line in lines]}


def game_entry(line: GameLine) -> dict[str, Any]:
    return {"table": line.table_id, "finished": stamp(line.finished), "mode": line.mode, "seat": line.seat,
            "side": line.side, "result": "draw" if line.won is None else ("won" if line.won else "lost"),
            "points": line.points, "against": line.against, "rounds": line.rounds, "xeris": line.xeris,
            "rated": line.rated, "end_reason": line.end_reason,
            "rating": None if line.mu is None or line.sigma is None else shown(line.mu, line.sigma)["rating"],
            "seats": [{"seat": seat, "kind": kind, "player": pid, "name": name, "bot": pid in BOT_ACCOUNTS}
                      for seat, kind, pid, name in line.seats],
            "replay": f"/?replay={line.table_id}", "record": f"/api/tables/{line.table_id}/record"}


class Players:
    """The routes' work: identities, profiles, the leaderboard (database calls on the manager's worker)."""

    def __init__(self, manager: Callable[[], TableManager], limiter: Limiter) -> None:
        self.manager = manager
        self.limiter = limiter
        # The lockout policy of password logins, and the other limits that protect a player: counted in the database.
        self.guard = LoginGuard(limiter, lambda: self.manager().store, self.db)
        self.hashing = Hashing()  # password hashes: a few at a time, a short line, a cheap refusal

    @property
    def store(self) -> PlayerStore:
        return self.manager().players

    def db(self, fn: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        return self.manager().db(fn, *args)

    # ---------------------------------------------------------------- who is asking
    async def optional(self, request: Request) -> PlayerData | None:
        """The player of the request's ``Authorization: Bearer KEY`` (None without the header); ``bad_key`` if
        the key is no player's."""
        header = request.headers.get("authorization")
        if header is None:
            return None
        scheme, _, key = header.partition(" ")
        key = key.strip()
        if scheme.lower() != "bearer" or not key or len(key) > 200:
            raise ProtocolError("bad_key", "the Authorization header must be 'Bearer KEY' with the player's key", 401)
        player: PlayerData | None = await self.db(self.store.by_key, secret_hash(key))
        if player is None:
            raise ProtocolError("bad_key", "that key belongs to no player (it was replaced by a recovery, signed "
                                "out, or the player was deleted)", 401)
        return player

    async def me(self, request: Request) -> PlayerData:
        player = await self.optional(request)
        if player is None:
            raise ProtocolError("no_key", "this needs the player's key: send 'Authorization: Bearer KEY'", 401)
        return player

    async def free_name(self, name: str) -> None:
        """A guest may not sit under a player's name (``name_taken``)."""
        if await self.db(self.store.by_name, name_key(name)) is not None:
            raise ProtocolError("name_taken", f"the name {name!r} belongs to a player who comes back: use that "
                                "player's key, or choose another name", 409)

    # ---------------------------------------------------------------- identities
    async def create(self, request: Request, data: dict[str, Any], response: Response | None = None) -> dict[str, Any]:
        name, key_of_name = player_name(data["name"])
        self.limiter.check("players", request)
        pid = secrets.token_urlsafe(9)
        key, key_hash = new_key()
        code, code_hash = new_recovery()
        try:
            await self.db(self.store.create_player, pid, name, key_of_name, key_hash, code_hash)
        except NameTaken:
            raise ProtocolError("name_taken", f"the name {name!r} is taken", 409) from None
        await self.guard.signed_in(request, response, pid)
        return {"player": pid, "name": name, "key": key, "recovery": code}

    async def recover(self, request: Request, data: dict[str, Any], response: Response | None = None) -> dict[str, Any]:
        await self.guard.take("recover", request)
        key, key_hash = new_key()
        code, code_hash = new_recovery()
        player = await self.db(self.store.recover, recovery_hash(data["recovery"]), key_hash, code_hash)
        if player is None or player.name is None:
            raise ProtocolError("bad_recovery", "that recovery code belongs to no player", 401)
        await self.guard.signed_in(request, response, player.id)
        return {"player": player.id, "name": player.name, "key": key, "recovery": code}

    async def login(self, request: Request, data: dict[str, Any], response: Response | None = None) -> dict[str, Any]:
        self.limiter.check("login", request)
        name = data["name"]
        key_of_name = name_key(name)[:100]
        player = await self.db(self.store.by_name, key_of_name)
        attempt = await self.guard.check(request, key_of_name, player)  # the lockout policy (diloti.server.lockout)
        stored = player.password_hash if player is not None and not player.deleted else None
        if stored is None:  # refused without hashing, in the time and line of a real check (server/hashing.py)
            await self.guard.verify(attempt, self.hashing.pretend())
            raise ProtocolError("wrong_password", WRONG, 401)
        if not await self.guard.verify(attempt, self.hashing.verify(stored, data["password"])):
            raise ProtocolError("wrong_password", WRONG, 401)
        assert player is not None and player.name is not None
        if self.hashing.needs_rehash(stored):
            await self.db(self.store.set_password, player.id, await self.hashing.hash(data["password"]))
        key, key_hash = new_key()
        await self.db(self.store.add_key, player.id, key_hash)
        await self.guard.signed_in(request, response, player.id)
        return {"player": player.id, "name": player.name, "key": key, "recovery": None}

    async def logout(self, request: Request) -> dict[str, Any]:
        await self.me(request)
        _, _, key = (request.headers.get("authorization") or "").partition(" ")
        await self.db(self.store.drop_key, secret_hash(key.strip()))
        return {"ok": True}

    def me_dict(self, player: PlayerData) -> dict[str, Any]:
        return {"player": player.id, "name": player.name, "password": player.password_hash is not None,
                "created": stamp(player.created)}

    async def rename(self, request: Request, data: dict[str, Any]) -> dict[str, Any]:
        player = await self.me(request)
        name, key_of_name = player_name(data["name"])
        await self.guard.take("rename", request, player.id)
        try:
            await self.db(self.store.rename, player.id, name, key_of_name)
        except NameTaken:
            raise ProtocolError("name_taken", f"the name {name!r} is taken", 409) from None
        return self.me_dict(await self.db(self.store.by_id, player.id))

    async def set_password(self, request: Request, data: dict[str, Any]) -> dict[str, Any]:
        player = await self.me(request)
        password = data["password"]
        if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
            raise ProtocolError("bad_password", f"invalid password: {len(password)} characters (expected "
                                f"{PASSWORD_MIN}..{PASSWORD_MAX})")
        if not password.strip():
            raise ProtocolError("bad_password", "invalid password: only spaces")
        if player.name is not None and name_key(password) == name_key(player.name):
            raise ProtocolError("bad_password", "invalid password: it is the player's name")
        if player.password_hash is not None:
            current = data.get("current")
            if current is None:
                raise ProtocolError("bad_password", "a password is set: send it as 'current' to change it")
            attempt = await self.guard.check(request, name_key(player.name or ""), player)
            if not await self.guard.verify(attempt, self.hashing.verify(player.password_hash, current)):
                raise ProtocolError("wrong_password", "the current password is wrong", 401)
        await self.db(self.store.set_password, player.id, await self.hashing.hash(password))
        return {"ok": True}

    async def new_recovery_code(self, request: Request) -> dict[str, Any]:
        player = await self.me(request)
        code, code_hash = new_recovery()
        await self.db(self.store.new_recovery, player.id, code_hash)
        return {"recovery": code}

    async def delete(self, request: Request) -> dict[str, Any]:
        player = await self.me(request)
        tables = await self.db(self.store.delete_player, player.id)
        for tid in tables:  # this process's copies show no name either
            table = self.manager().tables.get(tid)
            if table is not None:
                for s in table.seats:
                    if s.player == player.id:
                        s.name = None
        return {"ok": True}

    # ---------------------------------------------------------------- profiles and the leaderboard
    async def find(self, name: str) -> dict[str, Any]:
        player = await self.db(self.store.by_name, name_key(name)[:100])
        if player is None or player.name is None:
            raise ProtocolError("unknown_player", f"no player named {name!r:.40}", 404)
        return {"player": player.id, "name": player.name}

    async def _known(self, pid: str) -> PlayerData:
        player: PlayerData | None = await self.db(self.store.by_id, pid) if 1 <= len(pid) <= 16 else None
        if player is None or player.name is None:
            raise ProtocolError("unknown_player", f"no player {pid!r:.40}", 404)
        return player

    async def games(self, pid: str, page: int = 1, per_page: int = GAMES_SHOWN) -> dict[str, Any]:
        offset, limit = page_of(page, per_page)
        await self._known(pid)
        return await self._games(pid, page, offset, limit)

    async def _games(self, pid: str, page: int, offset: int, limit: int) -> dict[str, Any]:
        return _game_page(await self.db(self.store.games, pid, offset, limit), page, limit)

    async def profile(self, pid: str) -> dict[str, Any]:
        player = await self._known(pid)
        # One snapshot: a game's end committed while the page is read is in every part of it or in none.
        data = await self.db(self.store.profile_data, pid, MODES, GAMES_SHOWN)
        totals = data.totals
        rows = [("all", {k: sum(t[k] for t in totals.values()) for k in ("games", "won", "lost", "xeris", "points",
                                                                         "rounds")})]
        rows += [(mode, totals.get(mode, dict.fromkeys(("games", "won", "lost", "xeris", "points", "rounds"), 0)))
                 for mode in ("2p", "4p")]
        history = [{"mode": mode, "points": [{"at": stamp(at), "rating": shown(mu, sg)["rating"],
                                              "deviation": shown(mu, sg)["deviation"]} for at, mu, sg in points]}
                   for mode in MODES if (points := data.history[mode])]
        return {
            "player": player.id, "name": player.name, "created": stamp(player.created), "bot": player.bot,
            "ratings": [{"mode": r.mode, **shown(r.mu, r.sigma), "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                         "games": r.games, "wins": r.wins, "losses": r.losses, "rank": r.rank}
                        for r in sorted(data.ratings, key=lambda r: MODES.index(r.mode))],
            "stats": [{"mode": mode, "games": t["games"], "won": t["won"], "lost": t["lost"], "xeris": t["xeris"],
                       "points_per_round": round(t["points"] / t["rounds"], 2) if t["rounds"] else 0.0}
                      for mode, t in rows],
            "opponents": [{"player": p, "name": name if p else level, "level": level, "games": n, "won": w,
                           "lost": lo} for p, name, level, n, w, lo in data.opponents],
            "history": history,
            "games": _game_page(data.games, 1, GAMES_SHOWN),
        }

    async def leaderboard(self, mode: str, page: int, per_page: int, bots: bool = False) -> dict[str, Any]:
        if mode not in MODES:
            raise ProtocolError("bad_mode", f"invalid mode {mode!r:.40}: expected {', '.join(MODES)}")
        offset, limit = page_of(page, per_page)
        total, rows = await self.db(self.store.leaderboard, mode, offset, limit, bots)
        return {"mode": mode, "bots": bots, "page": page, "per_page": limit, "total": total,
                "pages": _pages(total, limit),
                "players": [{"rank": r.rank, "player": pid, "name": name or "", **shown(r.mu, r.sigma),
                             "games": r.games, "wins": r.wins, "losses": r.losses} for pid, name, r in rows]}




def add_routes(app: FastAPI, players: Players, body: Callable[[Request], Awaitable[Any]],
               documented: Callable[..., dict[str, Any]]) -> None:
    """The players' routes on ``app`` (``body`` reads a request body within the size limit)."""

    @app.post("/api/players", status_code=201, **documented(Identity, NewPlayer, 201))
    async def new_player(request: Request, response: Response) -> dict[str, Any]:
        return await players.create(request, read_body(NewPlayer, await body(request)), response)

    @app.post("/api/players/recover", **documented(Identity, Recover))
    async def recover(request: Request, response: Response) -> dict[str, Any]:
        return await players.recover(request, read_body(Recover, await body(request)), response)

    @app.post("/api/login", **documented(Identity, Login))
    async def login(request: Request, response: Response) -> dict[str, Any]:
        return await players.login(request, read_body(Login, await body(request)), response)

    @app.post("/api/logout", **documented(Done))
    async def logout(request: Request) -> dict[str, Any]:
        return await players.logout(request)

    @app.get("/api/me", **documented(Me))
    async def me(request: Request) -> dict[str, Any]:
        return players.me_dict(await players.me(request))

    @app.patch("/api/me", **documented(Me, Rename))
    async def rename(request: Request) -> dict[str, Any]:
        return await players.rename(request, read_body(Rename, await body(request)))

    @app.delete("/api/me", **documented(Done))
    async def delete_me(request: Request) -> dict[str, Any]:
        return await players.delete(request)

    @app.put("/api/me/password", **documented(Done, SetPassword))
    async def password(request: Request) -> dict[str, Any]:
        return await players.set_password(request, read_body(SetPassword, await body(request)))

    @app.post("/api/me/recovery", **documented(RecoveryCode))
    async def recovery(request: Request) -> dict[str, Any]:
        return await players.new_recovery_code(request)

    @app.get("/api/players", **documented(PlayerRef))
    async def find(name: str) -> dict[str, Any]:
        return await players.find(name)

    @app.get("/api/players/{player_id}", **documented(Profile))
    async def profile(player_id: str) -> dict[str, Any]:
        return await players.profile(player_id)

    @app.get("/api/players/{player_id}/games", **documented(GamePage))
    async def games(player_id: str, page: int = 1, per_page: int = GAMES_SHOWN) -> dict[str, Any]:
        return await players.games(player_id, page, per_page)

    @app.get("/api/leaderboard", **documented(Leaderboard))
    async def leaderboard(mode: str = "overall", page: int = 1, per_page: int = PER_PAGE,
                          bots: bool = False) -> dict[str, Any]:
        return await players.leaderboard(mode, page, per_page, bots)

