"""One live table in memory: its seats, their connections, its spectators, its last chat lines and the game
rebuilt from the stored moves."""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import hmac
import math
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from diloti.core.cards import cards_of
from diloti.core.errors import DilotiError, UnknownGameError
from diloti.core.interface import WholeGame
from diloti.core.moves import Move
from diloti.formats.games import GameFormats, formats_of
from diloti.formats.wire import TableFacts
from diloti.games import find_game, new_game
from diloti.server.clock import TurnClock
from diloti.server.protocol import chat_dict, move_dict, side_dict
from diloti.store.db import CHAT_KEEP, ChatLine, StoreError, TableData

# The bot accounts' ids this process knows (:mod:`diloti.server.bots` keeps it current): their seats are marked.
BOT_ACCOUNTS: set[str] = set()
AWAY_LEVEL = "heuristic"  # the computer that plays for absent players, unless the table chose another
GRACE = 60  # seconds a disconnected player keeps the seat before the others may hand it to the computer
# A rematch offer stands this long for the other players to accept (lichess's offers last until the page closes;
# a fixed time shown on the page tells everyone when it lapses).
REMATCH_OFFER = 60


class Connection(Protocol):
    """What the manager needs of a websocket connection."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message (never blocks; a connection that cannot keep up is closed)."""
        ...

    def close(self) -> None:
        ...


def token_hash(token: str) -> str:
    """The stored form of a seat token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(eq=False)
class Seat:
    """A seat of a live table and the connections holding it."""

    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    away: bool = False  # a human seat the computer plays for (handed over, or left and not yet retaken)
    conns: set[Connection] = field(default_factory=set)
    player: str | None = None  # the player who comes back holding it (None: a guest, or a computer)
    gone: float = field(default_factory=time.monotonic)  # since when no connection of this process holds it

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    def take(self, name: str, player: str | None, token_hash: str) -> None:
        """A person sits here (a guest, or ``player``), present from now, holding the token of ``token_hash``."""
        self.name, self.player, self.token_hash = name, player, token_hash
        self.away = False
        self.gone = time.monotonic()

    def hand_over_in(self, grace: float, now: float | None = None) -> int | None:
        """Seconds before another player may hand this seat to the computer (0: now; None: it cannot be, as a
        computer's seat, a free one, one played by the computer already or one whose player is here).

        >>> s = Seat(1, "human", token_hash="h", gone=100.0)
        >>> s.hand_over_in(60, now=108.2), s.hand_over_in(60, now=170.0), Seat(2, "bot").hand_over_in(60)
        (52, 0, None)
        """
        if self.kind != "human" or self.token_hash is None or self.away or self.conns:
            return None
        left = grace - ((time.monotonic() if now is None else now) - self.gone)
        return max(0, math.ceil(left))  # rounded up: the page never offers it a moment before the server allows it


class LiveTable:
    """One table in memory: its game rebuilt from the stored moves."""

    def __init__(self, data: TableData) -> None:
        self.id = data.id
        self.players = data.players
        self.kind = data.game  # the game played: a registered game's name (diloti.games)
        try:
            self.info = find_game(data.game)  # what the table asks of its game, through the games' interface
        except UnknownGameError as exc:  # a plug-in's game this server does not register: the table waits for it
            raise StoreError(f"table {self.id}: {exc}") from None
        self.formats: GameFormats = formats_of(data.game)  # its messages' and replay frames' shapes, its notation
        self.options: Any = self.info.options.from_dict(data.options)
        self.seed = data.seed
        self.private = data.private
        self.status = data.status
        self.created = data.created
        self.seats = [Seat(s.seat, s.kind, s.level, s.name, s.token_hash, s.away, player=s.player_id)
                      for s in data.seats]
        self.rated = data.rated  # the game counts for its players' ratings (False: casual)
        self.bots = data.bots  # bot accounts may sit here (docs/BOTS.md)
        self.event = data.event  # "daily:DAY", "arena:ID" (diloti.server.events); None: a table of its own
        self.xeris = [0] * data.players  # xeris each seat made
        self.away_level = data.away_level or AWAY_LEVEL
        self.grace = GRACE if data.grace is None else data.grace
        self.end_reason = data.end_reason if data.status == "over" else None
        self.by = dict(data.by)  # ply -> level of the computer that played it for an away player
        self._winner = data.winner if self.end_reason else None
        self.first_dealer = data.first_dealer
        self.series = data.series  # the series' first game (None until a rematch is made)
        self.next_table = data.next_table  # the rematch, once made
        self.game: WholeGame = new_game(data.game, self.players, self.options, self.seed, data.first_dealer)
        self.sides: int = self.game.sides  # 2 in Diloti; the parent games may score each player apart
        # Games each side won earlier in the series.
        self.series_before = (list(data.series_before) + [0] * self.sides)[:self.sides]
        self.watchers: set[Connection] = set()  # spectators: public messages only
        self.chat: list[ChatLine] = list(data.chat)  # the last CHAT_KEEP lines, by id
        self.ply = 0
        self.last: dict[str, Any] | None = None
        self.lock = asyncio.Lock()
        self.bot_task: asyncio.Task[None] | None = None
        self.hint: tuple[int, asyncio.Future[list[tuple[Move, float, float | None]]]] | None = None
        self.warned = False  # told its players it will close for idleness
        self.touched = 0.0  # when this process last marked it used in the database
        self.client: str | None = None  # the creator's address, when this process created it
        age = (datetime.now(UTC) - data.updated).total_seconds()
        self.activity = time.monotonic() - max(0.0, age)
        self.clock: TurnClock | None = None
        if data.clock is not None:
            # Each seat's reserve as it was after its player's last clocked move.
            left = {data.moves[ply][0]: ms for ply, ms in sorted(data.left.items()) if ply < len(data.moves)}
            self.clock = TurnClock(data.clock[0], data.clock[1], self.players, left)
        self.timing_out = False  # a timeout of the running clock is being stored
        self.played: set[int] = set()  # human seats that made a move of their own (not the computer's for them)
        self.offer: set[int] = set()  # the seats that asked for (or accepted) a rematch, while the offer stands
        self.offer_until = 0.0  # when the rematch offer lapses (time.monotonic())
        for seat, text in data.moves:
            try:
                move = self.read_stored(text)
            except DilotiError as exc:
                raise StoreError(f"table {self.id}: stored move {self.ply} {text!r} is unreadable: {exc}") from None
            if self.game.is_over or self.game.state.turn != seat or not self.game.state.is_legal(move):
                raise StoreError(f"table {self.id}: stored move {self.ply} {text!r} is not legal when replayed")
            self.record_move(seat, move)
        if self.game.is_over and self.status != "closed":
            self.status = "over"  # the process stopped between storing the last move and the status
        self.arm()

    def read_stored(self, text: str) -> Move:
        """A move as stored (its notation; the game's formats may read it otherwise: in an old Xeri record a card
        alone names its one move)."""
        move = Move.parse(text)
        if not self.game.is_over and not self.game.state.is_legal(move):
            move = self.formats.read_played(self.game.state, text)
        return move

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: partners share one (Diloti's seats 0+2 and 1+3)."""
        return int(seat % self.sides)

    @property
    def over(self) -> bool:
        """The game is finished: played out, or ended early (a resignation)."""
        return self.end_reason is not None or self.game.is_over

    @property
    def winner(self) -> int | None:
        """The winning side: from the scores, or the other side of a resignation."""
        return self._winner if self.end_reason is not None else self.game.winner

    def runs_for(self, seat: Seat) -> str | None:
        """The level of the computer that plays this seat now, if any: a computer seat's own; an away
        human's the table's ``away_level``, while some other human still holds a seat (a table nobody
        sits at any more does not play itself out)."""
        if seat.kind == "bot":
            return seat.level
        if seat.away and any(s.kind == "human" and s.token_hash and not s.away for s in self.seats):
            return self.away_level
        return None

    def arm(self) -> bool:
        """Run the clock of the seat to move if its player plays it (not away, not a computer), else stop it;
        True if that changed which clock runs."""
        if self.clock is None:
            return False
        before = (self.clock.seat, self.clock.ply)
        s = self.seats[self.game.state.turn] if not self.game.is_over else None
        if (self.status == "playing" and not self.over and s is not None and s.kind == "human"
                and s.token_hash is not None and not s.away):
            self.clock.start(s.seat, self.ply)
        else:
            self.clock.stop()
        return (self.clock.seat, self.clock.ply) != before

    def timed_out(self, seat: int, ply: int, reason: str) -> None:
        """The seat's clock ran out at ``ply`` (stored here or by another process): its reserve is spent, and
        everyone is told, with the seat now away."""
        if self.clock is not None:
            self.clock.ran_out(seat)
        self.send_all({"type": "timeout", "seat": seat, "ply": ply, "reason": reason})
        self.send_all({"type": "table", "table": self.summary()})
        self.arm()
        self.send_clock()

    def send_clock(self) -> None:
        """Tell everyone the clock (after it started or stopped without a move: a seat away or back)."""
        if self.clock is not None:
            self.send_all({"type": "clock", **self.clock.to_dict()})

    def end(self, winner: int | None, reason: str) -> None:
        """End the game early (stored already) and tell everyone."""
        self.end_reason = reason
        self._winner = winner
        self.status = "over"
        self.hint = None
        self.arm()
        self.send_all({"type": "game_over", "winner": winner, "scores": list(self.game.scores),
                       "rounds": self.game.round_no, "end_reason": reason})
        self.send_all({"type": "table", "table": self.summary()})
        self.send_states()

    @property
    def hints(self) -> bool:
        """Hints only when every opponent of every human seat is a computer, and never in an event (the daily
        deal, an arena): there the hint would play for the player."""
        if self.event is not None:
            return False
        humans = [s for s in self.seats if s.kind == "human"]
        return all(o.kind == "bot" for h in humans for o in self.seats if self.side_of(o.seat) != self.side_of(h.seat))

    @property
    def hint_level(self) -> str:
        """Whose search gives the hints: the master's where a computer seat is a master and the game's hints may
        come from the master's search (Diloti's), else the expert's."""
        master = any(s.kind == "bot" and (s.level or "").partition(":")[0] == "master" for s in self.seats)
        return "master" if master and "master" in self.info.hint_levels else "expert"

    def seat_of(self, token_hash: str) -> Seat | None:
        """The seat this token hash holds (compared in constant time), if any."""
        return next((s for s in self.seats if s.token_hash and hmac.compare_digest(s.token_hash, token_hash)), None)

    def free(self) -> list[int]:
        return [s.seat for s in self.seats if not s.taken]

    def record_move(self, seat: int, move: Move) -> tuple[bool, bool]:
        """Push a checked move into the game; returns (xeri, round ended)."""
        st = self.game.state
        side = self.side_of(seat)
        before = st.sweeps[side]
        round_no = self.game.round_no
        self.game.push(move)
        if self.seats[seat].kind == "human" and self.by.get(self.ply) is None:
            self.played.add(seat)
        self.ply += 1
        xeri = st.sweeps[side] > before
        if xeri:
            self.xeris[seat] += 1
        self.last = {"seat": seat, **move_dict(move), "xeri": xeri, "ply": self.ply, "round": round_no,
                     "by": self.by.get(self.ply - 1)}
        return xeri, self.game.is_over or self.game.round_no != round_no

    def rounds(self) -> list[dict[str, Any]]:
        """Every finished round's breakdown (public), with the game totals after it."""
        out = []
        totals = [0] * self.sides
        for rec in self.game.rounds:
            if rec.score is None:
                continue
            pts = rec.points
            totals = [a + b for a, b in zip(totals, pts, strict=True)]
            out.append({"number": rec.number, "dealer": rec.dealer, "score": [side_dict(s) for s in rec.score],
                        "totals": list(pts), "scores": list(totals)})
        return out

    def summary(self) -> dict[str, Any]:
        """The public table summary (no cards)."""
        under_way = self.status == "playing" and not self.over
        return {
            "id": self.id, "game": self.kind, "players": self.players, "sides": self.sides,
            "options": self.options.to_dict(),
            "target": self.target, "private": self.private, "status": self.status,
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level,
                       "name": s.level if s.kind == "bot" else s.name, "taken": s.taken,
                       "connected": s.kind == "bot" or bool(s.conns), "side": self.side_of(s.seat), "away": s.away,
                       "player": s.player, "bot": s.player is not None and s.player in BOT_ACCOUNTS,
                       "hand_over_in": s.hand_over_in(self.grace) if under_way else None}
                      for s in self.seats],
            "rated": self.rated, "event": self.event,
            "free": self.free(), "scores": list(self.game.scores), "round": self.game.round_no,
            "winner": self.winner, "hints": self.hints,
            "hint_level": self.hint_level, "ply": self.ply,
            "spectators": len(self.watchers), "created": self.created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "end_reason": self.end_reason, "away_level": self.away_level, "grace": self.grace,
            "series": self.series, "series_score": self.series_score(), "next_table": self.next_table,
            "clock": None if self.clock is None else {"move": self.clock.move, "reserve": self.clock.reserve},
            "rematch_offer": self.offer_dict(), "bots": self.bots,
        }

    def offer_dict(self) -> dict[str, Any] | None:
        """The standing rematch offer: the seats that accepted it and the seconds before it lapses (None: no
        offer, or it lapsed)."""
        left = self.offer_until - time.monotonic()
        if not self.offer or left <= 0 or self.next_table is not None:
            return None
        return {"seats": sorted(self.offer), "expires_in": max(1, round(left))}

    @property
    def counts(self) -> bool:
        """The game would move ratings: a rated table of a rated game (Diloti) whose human seats are held by
        distinct players who come back (a guest, or one player in two seats, makes a casual game)."""
        humans = [s.player for s in self.seats if s.kind == "human"]
        return self.info.rated and self.rated and all(humans) and len(set(humans)) == len(humans)

    @property
    def target(self) -> int | None:
        """The points that win (None: a game decided by hands won, as Xeri's by default)."""
        return self.info.target(self.options)

    def hands_won(self) -> list[int] | None:
        """A game decided by hands won: the hands each side has won so far, alone at the top (None in others)."""
        if self.target is not None:
            return None
        won = [0] * self.sides
        for rec in self.game.rounds:
            if rec.score is not None:
                pts = rec.points
                top = max(pts)
                if list(pts).count(top) == 1:
                    won[list(pts).index(top)] += 1
        return won

    def resign_winner(self, seat: int) -> int:
        """The side that wins when ``seat`` resigns: the other side; with more than two sides (the parent games'
        players each alone), the other side with the most points, the first after the resigner in the order of
        play on a tie (they had the next turns)."""
        mine = self.side_of(seat)
        if self.sides == 2:
            return 1 - mine
        others = [self.side_of((seat + k) % self.players) for k in range(1, self.players)]
        others = [s for i, s in enumerate(others) if s != mine and s not in others[:i]]
        return max(others, key=lambda s: (self.game.scores[s], -others.index(s)))

    def series_score(self) -> list[int]:
        """Games won by each side over the finished games of the series, this one included once over."""
        score = list(self.series_before)
        winner = self.winner
        if self.over and winner is not None:
            score[winner] += 1
        return score

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """The ``state`` message of a seat, or (``None``) the spectators' one: public facts only."""
        facts = TableFacts(self.ply, self.game.round_no, self.target, self.info.hands(self.options),
                           self.hands_won(), self.last, self.rounds())
        msg = self.formats.state_message(self.game, seat, facts)
        if self.end_reason is not None:  # resigned: nobody moves any more
            msg.update(phase="over", your_turn=False, legal=[], legal_complete=True)
        msg["clock"] = None if self.clock is None else self.clock.to_dict()
        return msg

    def send_all(self, message: dict[str, Any], watchers: bool = True) -> None:
        """A public message to every seat's connections (and, unless told not to, to the spectators)."""
        for s in self.seats:
            for c in list(s.conns):
                c.send(message)
        if watchers:
            for c in list(self.watchers):
                c.send(message)

    def send_states(self) -> None:
        for s in self.seats:
            if s.conns:
                msg = self.state_for(s.seat)
                for c in list(s.conns):
                    c.send(msg)
        if self.watchers:
            msg = self.state_for(None)
            for c in list(self.watchers):
                c.send(msg)

    def hear(self, line: ChatLine) -> bool:
        """Keep a chat line (stored by any process) and tell everyone at the table; False if already heard."""
        ids = [c.id for c in self.chat]
        at = bisect.bisect_left(ids, line.id)
        if at < len(ids) and ids[at] == line.id:
            return False
        self.chat.insert(at, line)
        del self.chat[:-CHAT_KEEP]
        self.send_all(chat_dict(line))
        return True

    def send_chat(self, conn: Connection) -> None:
        """The last chat lines, oldest first, to one connection (after ``hello`` or ``watch``)."""
        for line in self.chat:
            conn.send(chat_dict(line))

    def close_all(self) -> None:
        for s in self.seats:
            for c in list(s.conns):
                c.close()
        for c in list(self.watchers):
            c.close()

    def advance(self, seat: int, move: Move, left: int | None = None) -> None:
        """Push a stored move into the table and tell its players (whichever process stored it); ``left``:
        the mover's clock reserve after it (ms), stored with a clocked player's move."""
        round_no = self.game.round_no
        rec = self.game.current
        st = self.game.state
        _, round_over = self.record_move(seat, move)
        if self.clock is not None:
            self.clock.moved(seat, left)
        self.activity = time.monotonic()
        self.warned = False
        assert self.last is not None
        self.send_all({"type": "played", **self.last})
        if round_over:
            assert rec.score is not None
            swept_to = self.side_of(st.last_capturer) if rec.swept and st.last_capturer is not None else None
            self.send_all({"type": "round_over", "round": round_no, "score": [side_dict(s) for s in rec.score],
                           "totals": list(rec.points),
                           "swept": [str(c) for c in cards_of(rec.swept)], "swept_to": swept_to,
                           "scores": list(self.game.scores)})
        if self.game.is_over:
            self.status = "over"
        self.arm()
        if self.game.is_over:
            self.send_all({"type": "game_over", "winner": self.game.winner,
                           "scores": list(self.game.scores), "rounds": self.game.round_no, "end_reason": None})
            self.send_all({"type": "table", "table": self.summary()})
        self.send_states()
