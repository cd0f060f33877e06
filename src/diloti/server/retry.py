"""Retry this position: ``POST /api/tables/{id}/retry`` (docs/PROTOCOL.md, "Game review"; docs/REVIEW.md).

From a finished game's review, a player plays a decision again against the master: a new casual (unrated), private
table of the same game, options, seed and first dealer, whose stored moves are the finished game's moves before
that decision. A table is its deal (the seed) and its moves replayed (:class:`~diloti.server.live.LiveTable`), so
the new table stands exactly where the old one stood, every hidden card as it was, and the player sits in the seat
that made the decision, every other seat the master. The player sees what any seated player sees: their own hand,
the table, what was played; the finished game's record was public already (a game's record is given once it is
over), so nothing is revealed that was not.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field

from diloti.server.limits import Limiter
from diloti.server.live import token_hash
from diloti.server.messages import Claimed
from diloti.server.protocol import ProtocolError, read_body
from diloti.server.seating import table_level
from diloti.store.db import SeatData, TableData

if TYPE_CHECKING:
    from diloti.server.players import Players
    from diloti.server.tables import TableManager

RETRY_LEVEL = "master"  # who plays every other seat of a retried position


class RetryRequest(BaseModel):
    """``POST /api/tables/{id}/retry``: play the finished game's position before move ``ply`` again, in ``seat``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int = Field(description="the seat that made the decision (0..players-1): the new table's player sits there")
    ply: int = Field(description="the decision's move, counted from 0 over the whole game (a review's `ply`)")
    name: str = Field(description="the name to sit under (a signed-in player sits under their own)")


RETRY_MODELS: tuple[type[BaseModel], ...] = (RetryRequest,)


def moves_before(game: Any, ply: int) -> list[tuple[int, str]]:
    """The moves ``(seat, notation)`` of a whole game before its move ``ply`` (counted over every round).

    >>> from diloti.games.diloti.game import Game
    >>> g = Game(seed=2)
    >>> for _ in range(3):
    ...     g.push(g.state.legal_moves()[0])
    >>> [seat for seat, _ in moves_before(g, 2)]
    [1, 0]
    """
    out = [(seat, str(move)) for r in game.rounds for seat, move in r.moves]
    return out[:ply]


async def retry(mgr: TableManager, request: Request, players: Players, table_id: str, seat: int, ply: int,
                name: str) -> dict[str, Any]:
    """The new table of a retried position; the player's seat and token (as a new table's)."""
    table = await mgr.must_get(table_id)
    if not table.over:
        raise ProtocolError("game_not_over", "a position is retried once its game is over (until then it would "
                            "reveal the deal)", 409)
    if not 0 <= seat < table.players:
        raise ProtocolError("bad_request", f"invalid seat {seat!r}: expected a seat 0..{table.players - 1} of this "
                            "table")
    every = moves_before(table.game, 1 << 30)
    if not 0 <= ply < len(every):
        raise ProtocolError("bad_request", f"invalid ply {ply!r}: expected a move 0..{len(every) - 1} of this game")
    if every[ply][0] != seat:
        raise ProtocolError("bad_request", f"invalid ply {ply!r}: that move was seat {every[ply][0]}'s, not seat "
                            f"{seat}'s")
    player = await players.optional(request)
    sitter = await mgr.seating.seat_name(name, player)
    token = secrets.token_urlsafe(32)
    level = table_level(RETRY_LEVEL, "the retried position's computer")
    seats = [SeatData(s, "bot", level) for s in range(table.players)]
    seats[seat] = SeatData(seat, "human", name=sitter, token_hash=token_hash(token),
                           player_id=player.id if player is not None else None)
    tid = secrets.token_urlsafe(8)
    data = TableData(tid, table.players, table.options.to_dict(), table.seed, table.first_dealer, True, "playing",
                     seats=seats, moves=every[:ply], rated=False, game=table.kind, away_level=table.away_level)
    client = request.client.host if request.client else None
    await mgr.seating.open(data, client)
    return {"table": tid, "seat": seat, "token": token, "invite": f"/?join={tid}"}


def add_routes(app: FastAPI, mgr: Callable[[], TableManager], limiter: Limiter, players: Players,
               body: Callable[[Request], Awaitable[Any]], documented: Callable[..., dict[str, Any]]) -> None:
    """``POST /api/tables/{id}/retry``: a new casual table from a finished game's position (counted as a table
    created, for the per-address limit)."""

    @app.post("/api/tables/{table_id}/retry", status_code=201, **documented(Claimed, RetryRequest, 201))
    async def retry_position(table_id: str, request: Request) -> dict[str, Any]:
        limiter.check("create", request)
        data = read_body(RetryRequest, await body(request))
        return await retry(mgr(), request, players, table_id, int(data["seat"]), int(data["ply"]), str(data["name"]))
