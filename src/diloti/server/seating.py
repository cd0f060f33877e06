"""Seating: new tables, claiming seats and the lobby.

:class:`Seating` makes a table from a ``POST /api/tables`` body (checked by the functions below), seats the
players who join it (the database decides who gets a seat, whichever process they reach), and lists the lobby.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any

from diloti.ai import LEVELS, UnknownLevelError, level_plays, parse_spec
from diloti.core.errors import DilotiError
from diloti.games import DEFAULT_GAME, GAMES, GameInfo
from diloti.server.clock import CLOCK_MOVE, CLOCK_RESERVE
from diloti.server.cluster import Ownership
from diloti.server.copies import Copies
from diloti.server.health import is_outage
from diloti.server.held import HeldTables
from diloti.server.live import AWAY_LEVEL, GRACE, LiveTable, token_hash
from diloti.server.model_base import GRACE_MAX
from diloti.server.names import player_name
from diloti.server.protocol import ProtocolError, clean_name
from diloti.server.storage import TableStore
from diloti.store.db import SeatData, TableData
from diloti.store.players import PlayerData, name_key

log = logging.getLogger("diloti.server")

LOBBY_PAGE, LOBBY_PAGE_MAX = 50, 100  # tables a lobby page lists (by default, at most)
LOBBY_OVER = 500  # finished tables the lobby can page through (the most recent)
THINK = (0.2, 5.0)  # the seconds a move a table may give its searching computer players (expert, master)


def table_level(text: Any, what: str) -> str:
    """A computer level as a table may choose it: a level's name, or ``expert``/``master`` with its own time
    a move, ``master:seconds=2``; ``what`` names the input in the error.

    >>> table_level("master", "seat 1"), table_level("master:seconds=2.50", "seat 1")
    ('master', 'master:seconds=2.5')
    >>> try:
    ...     table_level("master:iterations=9", "seat 1")
    ... except ProtocolError as exc:
    ...     print(exc.code, str(exc).split(": ", 1)[1])
    bad_level invalid level 'master:iterations=9': a table may set only seconds (0.2..5) of expert or master
    """
    if isinstance(text, str) and text in LEVELS:
        return text
    if not isinstance(text, str) or ":" not in text:
        raise ProtocolError("bad_level", f"{what}: unknown level {text!r:.40} (known: {', '.join(LEVELS)}; expert "
                                         f"or master may add :seconds=S, S in {THINK[0]:g}..{THINK[1]:g})")
    try:
        level, settings = parse_spec(text)
    except UnknownLevelError:  # not KEY=VALUE settings, or a value that is not a number
        level, settings = "", {}
    seconds = settings.get("seconds") if list(settings) == ["seconds"] else None
    if level not in ("expert", "master") or not isinstance(seconds, int | float) or not THINK[0] <= seconds <= THINK[1]:
        raise ProtocolError("bad_level", f"{what}: invalid level {text!r:.40}: a table may set only seconds "
                                         f"({THINK[0]:g}..{THINK[1]:g}) of expert or master")
    return f"{level}:seconds={seconds:g}"


class Seating:
    """Create tables, seat players, list the lobby."""

    def __init__(self, storage: TableStore, held: HeldTables, copies: Copies, owners: Ownership,
                 kick: Callable[[LiveTable], None], *, allow_seed: bool = False) -> None:
        self.storage = storage
        self.store = storage.store
        self.players = storage.players
        self.held = held
        self.copies = copies
        self.owners = owners
        self.kick = kick  # play a table's computer seats, if one is to move
        self.allow_seed = allow_seed  # a table may ask for its seed (a server for tests only: it reveals the deck)

    async def seat_name(self, raw: Any, player: PlayerData | None) -> str:
        """The name a seat is taken under: a player's own (the body's is checked all the same), or a guest's,
        which may not be a player's name."""
        clean_name(raw)
        if player is not None and player.name is not None:
            return player.name
        name, key = player_name(raw)  # a guest may not sit as a computer, nor as a player who comes back
        if await self.storage.db(self.players.by_name, key) is not None:
            raise ProtocolError("name_taken", f"the name {name!r} belongs to a player who comes back: use that "
                                "player's key, or choose another name", 409)
        return name

    async def create(self, req: Any, client: str | None = None, player: PlayerData | None = None) -> dict[str, Any]:
        """A new table from a ``POST /api/tables`` body; returns the creator's seat and token.

        ``client`` (the creator's address) shares out computer moves: see ``bot_slots``. ``player``: the
        creator is that player who comes back (the seat is theirs, under their name).
        """
        if not isinstance(req, dict):
            raise ProtocolError("bad_request", "the request body must be a JSON object")
        known = {"game", "players", "options", "seats", "seat", "name", "private", "seed", "away_level", "grace",
                 "clock", "rated", "bots"}
        for k in req:
            if k not in known:
                raise ProtocolError("bad_request", f"unknown field {k!r:.40} (known: {', '.join(sorted(known))})")
        game, players, options = read_game(req)
        bots = req.get("bots", False)
        if not isinstance(bots, bool):
            raise ProtocolError("bad_request", f"invalid bots {bots!r:.40}: expected true or false")
        seats = self._parse_seats(req.get("seats"), players)
        humans = [s.seat for s in seats if s.kind == "human"]
        if player is not None and player.bot and len(humans) > 1:
            # A bot opens a table against the computer alone: people choose where they meet a program.
            raise ProtocolError("bot_account", "a bot account opens tables against the computer only (every other "
                                "seat a computer); it challenges people, or joins a table that welcomes bots "
                                "(docs/BOTS.md)", 403)
        seat = req.get("seat", humans[0])
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in humans:
            raise ProtocolError("bad_seat", f"invalid seat {seat!r:.40}: expected a human seat ({humans})")
        name = await self.seat_name(req.get("name"), player)
        private = req.get("private", False)
        if not isinstance(private, bool):
            raise ProtocolError("bad_request", f"invalid private {private!r:.40}: expected true or false")
        seed = self._read_seed(req.get("seed"))
        away_level, grace, clock, rated = read_conditions(req, game)
        for what, level in [*((f"seat {s.seat}", s.level) for s in seats if s.kind == "bot"),
                            ("away_level", away_level)]:
            if level is not None and not level_plays(level, game, players):
                raise ProtocolError("bad_level", f"{what}: the level {level!r:.40} does not play {game} with "
                                                 f"{players} players")
        token = secrets.token_urlsafe(32)
        seats[seat].name = name
        seats[seat].token_hash = token_hash(token)
        seats[seat].player_id = player.id if player is not None else None
        status = "playing" if all(s.kind == "bot" or s.token_hash for s in seats) else "waiting"
        tid = secrets.token_urlsafe(8)
        data = TableData(tid, players, options.to_dict(), seed, 0, private, status, seats=seats,
                         away_level=away_level, grace=grace, clock=clock, rated=rated, game=game, bots=bots)
        await self.open(data, client)
        return {"table": tid, "seat": seat, "token": token, "invite": f"/?join={tid}"}

    async def open(self, data: TableData, client: str | None = None) -> LiveTable:
        """Store a new table (with the moves it starts from, if any: a retried position), hold it in this process
        and let its computer seats play if one is to move."""
        tid = data.id
        # Owned before it is stored: no other process ever sees it without an owner (its watcher would take
        # it over, counting the takeover of a process that is alive).
        await self.owners.claim([tid])
        try:
            await self.storage.db(self.store.create_table, data)
        except Exception as exc:
            await self.owners.release(tid)
            if is_outage(exc):
                raise  # answered 503 (try again) by diloti.server.health.Errors
            log.exception("cannot store a new table")
            raise ProtocolError("server_error", f"could not store the table: {exc.__class__.__name__}", 500) from None
        table = LiveTable(data)
        table.client = client
        self.held.add(table)
        self.kick(table)
        return table

    def _read_seed(self, seed: Any) -> int:
        """The table's seed: the one asked for (a server for tests only), or a random one."""
        if seed is None:
            return secrets.randbelow(2**63)
        if not self.allow_seed:
            raise ProtocolError("bad_seed", "this server does not accept seeds (they reveal the deck)")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise ProtocolError("bad_seed", f"invalid seed {seed!r:.40}: expected an integer 0..2^63-1")
        return seed

    @staticmethod
    def _parse_seats(raw: Any, players: int) -> list[SeatData]:
        if raw is None:
            return [SeatData(i, "human") for i in range(players)]
        if not isinstance(raw, list) or len(raw) != players:
            raise ProtocolError("bad_seats", f"seats must be a list of {players} entries")
        out = []
        for i, s in enumerate(raw):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
                raise ProtocolError("bad_seats", f"seat {i}: expected {{\"kind\": \"human\"}} or "
                                                 f"{{\"kind\": \"bot\", \"level\": LEVEL}}")
            if s["kind"] == "bot":
                out.append(SeatData(i, "bot", table_level(s.get("level"), f"seat {i}")))
            else:
                out.append(SeatData(i, "human"))
        if all(s.kind == "bot" for s in out):
            raise ProtocolError("bad_seats", "at least one seat must be human")
        return out

    async def join(self, table_id: str, req: Any, player: PlayerData | None = None) -> dict[str, Any]:
        """Claim a free human seat (``POST /api/tables/{id}/join``); ``player``: for that player who comes back."""
        _check_join_body(req)
        table = await self.held.must_get(table_id)
        if player is not None and player.bot and not table.bots:
            # People choose whether a program sits with them (and enters their rating pool): the table says.
            raise ProtocolError("bots_not_welcome", f"table {table.id} does not welcome bots", 403)
        name = await self.seat_name(req.get("name"), player)
        pid = player.id if player is not None else None
        async with table.lock:
            free = table.free()
            asked = req.get("seat")
            seat = _free_seat(table, asked, free, name, pid)
            token = secrets.token_urlsafe(32)
            h = token_hash(token)
            # The database decides the seat (any free one, if none was asked for) and whether the game
            # starts (the last free seat, claimed through any process); a seat left in a game under way
            # is taken over from the next move.
            claimed = await self.storage.db(self.store.claim_seat, table.id, asked, name, h, pid)
            if claimed is None:
                if self.owners.shared:  # claimed through another process: show it as it is
                    await self.copies.refresh_seats(table)
                if asked is None:
                    raise ProtocolError("table_full", f"table {table.id} has no free seat", 409)
                raise ProtocolError("seat_taken", f"seat {seat} of table {table.id} is not free", 409)
            seat, status = claimed
            table.seats[seat].take(name, pid, h)
            if self.owners.shared and len(free) > 1:
                # Other seats may have been claimed through other processes: read them (and start the
                # game here if this claim started it) before telling our players.
                await self.copies.refresh_seats(table)
            was = table.status
            table.status = status
            self.held.touch(table)
            rearmed = table.arm()
            table.send_all({"type": "table", "table": table.summary()})
            if status == "playing" and was == "waiting":
                table.send_states()
            elif rearmed:
                table.send_clock()
        self.kick(table)
        return {"table": table.id, "seat": seat, "token": token, "invite": f"/?join={table.id}"}

    async def lobby_page(self, status: str = "waiting", page: int = 1, per_page: int = LOBBY_PAGE) -> dict[str, Any]:
        """One page of the lobby, newest first: ``{"tables": [...], "page": P, "pages": N, "total": T}``.

        Only the page's tables are summarised (and, for finished ones, read from the database): a
        lobby of thousands of waiting tables costs a sort of their creation times, not their summaries.
        """
        if status == "waiting":
            tables = [t for t in self.held.tables.values() if t.status == "waiting" and not t.private]
            tables.sort(key=lambda t: t.created, reverse=True)
            total = len(tables)
            shown = tables[(page - 1) * per_page:page * per_page]
        else:
            ids = await self.storage.db(self.store.recent_ids, "over", LOBBY_OVER)
            total = len(ids)
            shown = []
            for tid in ids[(page - 1) * per_page:page * per_page]:
                t = await self.held.get(tid)
                if t is not None and not t.private:
                    shown.append(t)
            shown.sort(key=lambda t: t.created, reverse=True)
        out = []
        for t in shown:
            s = t.summary()
            s["options"] = t.options.changed()
            out.append(s)
        return {"tables": out, "page": page, "pages": max(1, -(-total // per_page)), "total": total}


def read_conditions(req: dict[str, Any], game: str) -> tuple[str, int, tuple[int, int] | None, bool]:
    """A new table's conditions from its body: the computer level for absent players, the grace, the clock,
    and whether it is rated.

    A rated table plays by the rated pool's conditions (the grace and the computer for absent players that quick
    play uses), so that nobody joins a rated game on conditions set against them; other conditions make the
    table casual by default.

    >>> read_conditions({}, "diloti")[3], read_conditions({"grace": 0}, "diloti")[3]
    (True, False)
    >>> try:
    ...     read_conditions({"grace": 0, "rated": True}, "diloti")
    ... except ProtocolError as e:
    ...     print(e.code, str(e)[:39])
    bad_request a rated table plays by the rated pool's
    """
    away_level = table_level(req.get("away_level", AWAY_LEVEL), "away_level")
    grace = req.get("grace", GRACE)
    if not isinstance(grace, int) or isinstance(grace, bool) or not 0 <= grace <= GRACE_MAX:
        raise ProtocolError("bad_grace", f"invalid grace {grace!r:.40}: expected 0..{GRACE_MAX} seconds")
    clock = parse_clock(req.get("clock"))
    info = GAMES[game]
    pool = grace == GRACE and away_level == AWAY_LEVEL
    rated = req.get("rated", info.rated and pool)
    if not isinstance(rated, bool):
        raise ProtocolError("bad_request", f"invalid rated {rated!r:.40}: expected true or false")
    if rated and not info.rated:
        raise ProtocolError("bad_request", f"a game of {game} is casual: the ratings are {rated_games()} "
                            "(rated: false)")
    if rated and not pool:
        raise ProtocolError("bad_request", f"a rated table plays by the rated pool's conditions: grace {GRACE} "
                            f"and away_level {AWAY_LEVEL} (or send rated: false)")
    return away_level, grace, clock, rated


GAME_LENGTHS = 10  # a table's game lasts at most this many of the game's standard games (its default options)


def table_ranges(game: GameInfo) -> dict[str, list[int]]:
    """The bounds a table puts on each number option of ``game`` (the new-table form's, from /api/info): from 1
    to :data:`GAME_LENGTHS` times the option's default, the length of the game its rules call standard (Diloti
    to 61 points: a table plays it to at most 610), and never past the game's own maximum (the command line's).
    A target of 10,000 would be a game of hundreds of rounds, which no table lasts: refused.

    >>> table_ranges(GAMES["diloti"]), table_ranges(GAMES["xeri"])
    ({'target': [1, 610]}, {'target': [1, 1010], 'hands': [1, 100]})
    """
    defaults = game.options().to_dict()
    return {n: [1, min(hi, GAME_LENGTHS * int(defaults[n]))] for n, hi in game.options.MAXIMUM.items()
            if n in defaults}


def read_game(req: dict[str, Any]) -> tuple[str, int, Any]:
    """A new table's game, players and options, each checked against the others.

    >>> read_game({"game": "kontsina", "players": 3})
    ('kontsina', 3, KontsinaOptions(target=21, forced_capture=False, partnerships=False))
    >>> for bad in ({"game": "pishti"}, {"game": "xeri", "players": 3}, {"game": "xeri", "options": {"soy": True}},
    ...             {"game": "kontsina", "players": 3, "options": {"partnerships": True}}):
    ...     try:
    ...         read_game(bad)
    ...     except ProtocolError as exc:
    ...         print(exc.code, exc)
    bad_game unknown game 'pishti' (known: diloti, xeri, kontsina)
    bad_players invalid players 3: xeri takes 2 or 4
    bad_options unknown xeri option 'soy' (known: xeri_jack_double, game_by_points, target, hands, ...)
    bad_options options that do not fit 3 players: invalid number of players for kontsina partnerships: expected 4
    >>> read_game({"game": "kontsina", "options": {"target": 10000}})
    Traceback (most recent call last):
    ...
    diloti.server.protocol.ProtocolError: invalid options.target 10000: a table plays kontsina to at most 210 \
(ten standard games)
    """
    game = req.get("game", DEFAULT_GAME)
    if not isinstance(game, str) or game not in GAMES:
        raise ProtocolError("bad_game", f"unknown game {game!r:.40} (known: {', '.join(GAMES)})")
    info = GAMES[game]
    players = req.get("players", 2)
    if players not in info.players or isinstance(players, bool):
        choices = " or ".join(", ".join(map(str, info.players)).rsplit(", ", 1))
        raise ProtocolError("bad_players", f"invalid players {players!r:.40}: {game} takes {choices}")
    raw = req.get("options") or {}
    try:
        options = info.options.from_dict(raw)
    except DilotiError as exc:
        raise ProtocolError("bad_options", str(exc)) from None
    try:
        info.sides(players, options)  # the game's own rule on its seats under these options
    except DilotiError as exc:
        raise ProtocolError("bad_options", f"options that do not fit {players} players: {exc}") from None
    chosen = options.to_dict()
    for name, (_, hi) in table_ranges(info).items():
        if chosen[name] > hi:
            raise ProtocolError("bad_options", f"invalid options.{name} {chosen[name]}: a table plays {game} to at "
                                f"most {hi} (ten standard games)")
    return game, players, options


def rated_games(games: dict[str, GameInfo] = GAMES) -> str:
    """Whose ratings there are, for a message: the rated games' names.

    >>> rated_games()
    "Diloti's"
    """
    return " and ".join(f"{g.title}'s" for g in games.values() if g.rated)


def parse_clock(raw: Any) -> tuple[int, int] | None:
    """A new table's ``clock`` field: None (no clock) or ``{"move": S, "reserve": S}``.

    >>> parse_clock({"move": 30, "reserve": 120}), parse_clock(None)
    ((30, 120), None)
    >>> parse_clock({"move": 2})
    Traceback (most recent call last):
    ...
    diloti.server.protocol.ProtocolError: invalid clock.move 2: expected 5..600 seconds
    """
    if raw is None:
        return None
    if not isinstance(raw, dict) or not set(raw) <= {"move", "reserve"} or "move" not in raw:
        raise ProtocolError("bad_clock", f"invalid clock {raw!r:.60}: expected null or "
                                         '{"move": SECONDS, "reserve": SECONDS}')
    out = []
    for key, (lo, hi), default in (("move", CLOCK_MOVE, None), ("reserve", CLOCK_RESERVE, 0)):
        v = raw.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise ProtocolError("bad_clock", f"invalid clock.{key} {v!r:.40}: expected {lo}..{hi} seconds")
        out.append(v)
    return out[0], out[1]


def _check_join_body(req: Any) -> None:
    """A join's body is an object of at most a name and a seat."""
    if not isinstance(req, dict):
        raise ProtocolError("bad_request", "the request body must be a JSON object")
    for k in req:
        if k not in ("name", "seat"):
            raise ProtocolError("bad_request", f"unknown field {k!r:.40} (known: name, seat)")


def _free_seat(table: LiveTable, asked: Any, free: list[int], name: str, pid: str | None) -> int:
    """The seat a join may claim as this process sees the table (the one asked for, or the first free), or the
    reason it may not. Called under the table's lock; the database has the last word (``claim_seat``)."""
    if table.status == "closed":
        raise ProtocolError("table_closed", f"table {table.id} was closed for idleness", 409)
    seat = asked
    if seat is None:
        if not free:
            raise ProtocolError("table_full", f"table {table.id} has no free seat", 409)
        seat = free[0]
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
        raise ProtocolError("bad_seat", f"invalid seat {seat!r:.40}: expected 0..{table.players - 1}")
    if seat not in free:
        raise ProtocolError("seat_taken", f"seat {seat} of table {table.id} is not free", 409)
    held = next((s.seat for s in table.seats if pid is not None and s.player == pid and s.token_hash), None)
    if held is not None:  # one seat a player: no game against oneself, no partnering oneself
        raise ProtocolError("already_seated", f"this player holds seat {held} of table {table.id} already", 409)
    same = next((s.seat for s in table.seats if s.kind == "human" and s.token_hash and s.name is not None
                 and name_key(s.name) == name_key(name)), None)
    if same is not None:  # two seats that look alike could not be told apart at the table and in chat
        raise ProtocolError("name_taken", f"seat {same} of table {table.id} is called {name!r} already: "
                            "choose another name", 409)
    return seat
