"""A bot's games (docs/BOTS.md): its game streams, its moves, chat and resignations, its challenges, and the
tables that welcome bots.

A game stream is one more connection of the bot's seat, as a page's websocket is: it gets the seat's messages
(``state`` with the seat's own view, never another seat's cards) after a first ``gameFull`` message, the game as
the seat sees it now; while one is open the seat is present, and when none is, the table's away rules run as
for a person. A move goes through the same checks as a person's (the engine, the ply, the clock).
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from diloti.formats.views import view_to_dict
from diloti.server.away import set_away
from diloti.server.bots import Account, BotDesk, EventStream, Stream
from diloti.server.live import LiveTable, token_hash
from diloti.server.protocol import ProtocolError, chat_dict, clean_chat
from diloti.server.seating import read_conditions, read_game
from diloti.store.bots import ChallengeData
from diloti.store.db import SeatData, TableData, now
from diloti.store.players import PlayerData, name_key

if TYPE_CHECKING:
    from diloti.server.tables import TableManager


class GameStream(Stream):
    """A bot's stream of one game: a connection of its seat (the seat's messages, each ``state`` with its view)."""

    def __init__(self, account: Account, table: LiveTable, seat: int) -> None:
        super().__init__(account)
        self.table = table
        self.seat = seat

    def view(self) -> dict[str, Any] | None:
        """The seat's view now (None once the game is over: nobody moves any more)."""
        return None if self.table.over else view_to_dict(self.table.game.view(self.seat))

    def send(self, message: dict[str, Any]) -> None:
        if message.get("type") == "state":  # the seat's own state: its view goes with it (one door)
            message = {**message, "view": self.view()}
        super().send(message)


class BotGames:
    """The routes' work for a bot's games and challenges."""

    def __init__(self, desk: BotDesk) -> None:
        self.desk = desk

    @property
    def manager(self) -> TableManager:
        return self.desk.manager()

    # ---------------------------------------------------------------- streams
    async def event_stream(self, account: Account) -> EventStream:
        """An account's event stream: first its unfinished games and open challenges, then each new event."""
        stream = EventStream(account)
        self.desk.add(stream)
        try:
            for tid, seat in await self.desk.db(self.desk.store.active_games, account.id):
                stream.send({"type": "gameStart", "game": {"id": tid, "seat": seat}})
            since = now() - timedelta(seconds=self.desk.limits.challenge_seconds)
            for c in await self.desk.db(self.desk.store.open_challenges, account.id, since):
                stream.send({"type": "challenge", "challenge": await self.challenge_dict(c)})
        except BaseException:
            self.desk.remove(stream)
            raise
        return stream

    async def _seat(self, account: Account, table_id: str) -> tuple[LiveTable, int]:
        """The table and the seat the account holds at it (``not_your_game`` if none)."""
        m = self.manager
        table = await m.must_get(table_id)
        seat = _held(table, account.id)
        if seat is None and m.owners.shared:  # seated through another process just now
            async with table.lock:
                await m.copies.refresh_seats(table)
            seat = _held(table, account.id)
        if seat is None:
            raise ProtocolError("not_your_game", f"this account holds no seat at table {table.id}", 404)
        return table, seat

    async def game_stream(self, account: Account, table_id: str) -> GameStream:
        """The stream of one of the account's games, from the game as it is now (a reconnection resumes)."""
        m = self.manager
        table, seat = await self._seat(account, table_id)
        if table.status == "closed":
            raise ProtocolError("table_closed", f"table {table.id} was closed for idleness", 409)
        stream = GameStream(account, table, seat)
        self.desk.add(stream)
        s = table.seats[seat]
        if s.away:  # back from the computer, as a person who reconnects
            async with table.lock:
                if s.away and s.token_hash is not None:
                    await set_away(m.storage, table, s, False)
        s.conns.add(stream)
        m.held.touch(table)
        playing = table.status in ("playing", "over")
        stream.send({"type": "gameFull", "seat": seat, "table": table.summary(),
                     "state": table.state_for(seat) if playing else None,
                     "view": stream.view() if playing else None,
                     "chat": [chat_dict(line) for line in table.chat]})
        table.send_all({"type": "table", "table": table.summary()})
        return stream

    def end_stream(self, stream: Stream) -> None:
        """A stream ended (the client went, the token was revoked): a game stream's seat loses a connection."""
        self.desk.remove(stream)
        stream.close()
        if isinstance(stream, GameStream):
            self.manager.detach(stream, stream.table, stream.seat)

    # ---------------------------------------------------------------- playing
    async def move(self, account: Account, table_id: str, data: dict[str, Any]) -> dict[str, Any]:
        table, seat = await self._seat(account, table_id)
        self.desk.count_move(account)
        await self.manager.play_text(table, seat, data["move"], data.get("ply"))
        return {"ok": True, "ply": table.ply}

    async def chat(self, account: Account, table_id: str, text: str) -> dict[str, Any]:
        table, seat = await self._seat(account, table_id)
        clean_chat(text)
        limiter = self.desk.players.limiter
        if not limiter.chat(f"{table.id}/{seat}", f"player:{account.id}"):
            raise ProtocolError("rate_limited", f"more than {limiter.chat_lines} chat lines in "
                                f"{limiter.chat_seconds:g} seconds from this seat or player; line dropped", 429,
                                retry_after=max(1, round(limiter.chat_seconds)))
        await self.manager.chat(table, seat, text)
        return {"ok": True}

    async def resign(self, account: Account, table_id: str) -> dict[str, Any]:
        table, seat = await self._seat(account, table_id)
        await self.manager.resign(table, seat)
        return {"ok": True}

    async def computer(self, account: Account, data: dict[str, Any]) -> dict[str, Any]:
        """A bot opens a table against the server's computer players (every other seat one of them)."""
        await self.desk.check_games(account.id)
        players = data.get("players", 2)
        level = data.get("level", "heuristic")
        seat = data.get("seat", 0)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise ProtocolError("bad_players", f"invalid players {players!r:.40}: expected 2..4")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ProtocolError("bad_seat", f"invalid seat {seat!r:.40}: expected 0..{players - 1}")
        req: dict[str, Any] = {k: data[k] for k in ("game", "options", "rated", "clock") if k in data}
        req.update(players=players, seat=seat, name=account.player.name, bots=True,
                   seats=[{"kind": "human"} if i == seat else {"kind": "bot", "level": level} for i in range(players)])
        out = await self.manager.create(req, None, account.player)
        await self.desk.db(self.desk.store.add_events, [(account.id, "gameStart", {
            "type": "gameStart", "game": {"id": out["table"], "seat": out["seat"]}})])
        self.desk.wake()
        return {"table": out["table"], "seat": out["seat"]}

    async def join(self, account: Account, table_id: str) -> dict[str, Any]:
        """A bot takes a free seat of a table that welcomes bots."""
        await self.desk.check_games(account.id)
        out = await self.manager.join(table_id, {"name": account.player.name}, account.player)
        await self.desk.db(self.desk.store.add_events, [(account.id, "gameStart", {
            "type": "gameStart", "game": {"id": out["table"], "seat": out["seat"]}})])
        self.desk.wake()
        return {"table": out["table"], "seat": out["seat"]}

    # ---------------------------------------------------------------- challenges
    async def _player(self, pid: str) -> PlayerData | None:
        found: PlayerData | None = await self.desk.db(self.desk.players.store.by_id, pid)
        return found

    async def challenge_dict(self, c: ChallengeData) -> dict[str, Any]:
        who = {pid: await self._player(pid) for pid in (c.from_id, c.to_id)}

        def side(pid: str) -> dict[str, Any]:
            p = who[pid]
            return {"id": pid, "name": None if p is None else p.name, "bot": p is not None and p.bot}

        left = self.desk.limits.challenge_seconds - (now() - c.created).total_seconds()
        status = "expired" if c.status == "open" and left <= 0 else c.status
        return {"id": c.id, "from": side(c.from_id), "to": side(c.to_id), "status": status, "table": c.table_id,
                "game": c.settings["game"], "players": c.settings["players"], "options": c.settings["options"],
                "rated": c.settings["rated"], "clock": c.settings["clock"],
                "expires_in": max(0, round(left)) if status == "open" else 0}

    async def challenge(self, account: Account, target: str, data: dict[str, Any]) -> dict[str, Any]:
        """Challenge a player or a bot (by name or id) to a game of two; the challenger's seat token is made now
        (a person needs it to play on the websocket once the challenge is accepted)."""
        store = self.desk.players.store
        to = await self.desk.db(store.by_name, name_key(target)[:100])
        if to is None and 1 <= len(target) <= 16:
            to = await self.desk.db(store.by_id, target)
        if to is None or to.name is None:
            raise ProtocolError("unknown_player", f"no player {target!r:.40}", 404)
        if to.id == account.id:
            raise ProtocolError("bad_request", "an account cannot challenge itself")
        req = {"game": data.get("game", "diloti"), "players": 2, "options": data.get("options") or {}}
        game, players, options = read_game(req)
        cond: dict[str, Any] = {k: data[k] for k in ("rated", "clock") if k in data}
        _, _, clock, rated = read_conditions(cond, game)
        seat = data.get("seat")
        if seat is not None and seat not in (0, 1):
            raise ProtocolError("bad_seat", f"invalid seat {seat!r:.40}: expected 0, 1 or null (either)")
        bots = account.player.bot and to.bot
        await self.desk.check_daily(account.id, bots)
        token = secrets.token_urlsafe(32)
        settings = {"game": game, "players": players, "options": options.to_dict(), "rated": rated,
                    "clock": None if clock is None else {"move": clock[0], "reserve": clock[1]}, "seat": seat}
        c = ChallengeData(secrets.token_urlsafe(9), account.id, to.id, settings, token_hash(token), "open", bots,
                          None, now(), None)
        body = {"type": "challenge", "challenge": await self.challenge_dict(c)}
        await self.desk.db(self.desk.store.create_challenge, c, body)
        self.desk.wake()
        return {"challenge": body["challenge"], "token": token}

    async def _open(self, cid: str) -> ChallengeData:
        c: ChallengeData | None = await self.desk.db(self.desk.store.challenge, cid[:32])
        if c is None:
            raise ProtocolError("unknown_challenge", f"no challenge {cid!r:.40}", 404)
        return c

    async def show(self, account: Account, cid: str) -> dict[str, Any]:
        c = await self._open(cid)
        if account.id not in (c.from_id, c.to_id):
            raise ProtocolError("unknown_challenge", f"no challenge {cid!r:.40} of this account", 404)
        return await self.challenge_dict(c)

    async def accept(self, account: Account, cid: str) -> dict[str, Any]:
        """Accept a challenge made to this account: the table is made, both accounts' streams hear gameStart."""
        c = await self._open(cid)
        if c.to_id != account.id:
            raise ProtocolError("unknown_challenge", f"no challenge {cid!r:.40} to this account", 404)
        info = await self.challenge_dict(c)
        if info["status"] != "open":
            raise ProtocolError("challenge_closed", f"challenge {c.id} is {info['status']}", 409)
        for pid in (c.from_id, c.to_id):
            await self.desk.check_games(pid)
        if c.bots:  # both bots' games between bots a day (the challenger may have many challenges open)
            for pid in (c.from_id, c.to_id):
                await self.desk.check_daily(pid, True, challenging=False)
        token = secrets.token_urlsafe(32)
        st = c.settings
        first = st["seat"] if st["seat"] is not None else secrets.randbelow(2)
        names = {pid: await self._player(pid) for pid in (c.from_id, c.to_id)}
        seats = [SeatData(i, "human") for i in range(2)]
        for i, (pid, h) in ((first, (c.from_id, c.token_hash)), (1 - first, (c.to_id, token_hash(token)))):
            p = names[pid]
            if p is None or p.name is None:
                raise ProtocolError("unknown_player", "a player of this challenge was deleted", 409)
            seats[i].name, seats[i].token_hash, seats[i].player_id = p.name, h, pid
        tid = await self._make_table(c, seats)
        events = [(pid, "gameStart", {"type": "gameStart", "game": {"id": tid, "seat": i, "challenge": c.id}})
                  for i, pid in ((first, c.from_id), (1 - first, c.to_id))]
        if not await self.desk.db(self.desk.store.decide, c.id, "open", "accepted", tid, events):
            await self._drop_table(tid)
            raise ProtocolError("challenge_closed", f"challenge {c.id} was answered already", 409)
        self.desk.wake()
        return {"table": tid, "seat": 1 - first, "token": token, "invite": f"/?join={tid}"}

    async def _make_table(self, c: ChallengeData, seats: list[SeatData]) -> str:
        m = self.manager
        st = c.settings
        game, _, options = read_game({"game": st["game"], "players": 2, "options": st["options"]})
        clock = None if st["clock"] is None else (st["clock"]["move"], st["clock"]["reserve"])
        tid = secrets.token_urlsafe(8)
        data = TableData(tid, 2, options.to_dict(), secrets.randbelow(2**63), 0, True, "playing", seats=seats,
                         clock=clock, rated=bool(st["rated"]), game=game, bots=True)
        await m.owners.claim([tid])
        try:
            await m.db(m.store.create_table, data)
        except BaseException:
            await m.owners.release(tid)
            raise
        table = LiveTable(data)
        m.held.add(table)
        m.computers.kick(table)
        return tid

    async def _drop_table(self, tid: str) -> None:
        m = self.manager
        table = m.tables.get(tid)
        if table is not None:
            m.held.drop(table)
        await m.db(m.store.delete_table, tid)

    async def answer(self, account: Account, cid: str, status: str) -> dict[str, Any]:
        """Decline (the challenged) or cancel (the challenger) an open challenge."""
        c = await self._open(cid)
        mine = c.to_id if status == "declined" else c.from_id
        if mine != account.id:
            raise ProtocolError("unknown_challenge", f"no challenge {cid!r:.40} this account may "
                                f"{'decline' if status == 'declined' else 'cancel'}", 404)
        kind = "challengeDeclined" if status == "declined" else "challengeCanceled"
        body = {"type": kind, "challenge": {"id": c.id}}
        if not await self.desk.db(self.desk.store.decide, c.id, "open", status, None,
                                  [(c.from_id, kind, body), (c.to_id, kind, body)]):
            raise ProtocolError("challenge_closed", f"challenge {c.id} was answered already", 409)
        self.desk.wake()
        return {"ok": True}


def _held(table: LiveTable, pid: str) -> int | None:
    return next((s.seat for s in table.seats if s.player == pid and s.token_hash is not None), None)


__all__ = ["BotGames", "GameStream"]
