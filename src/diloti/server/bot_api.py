"""The Bot API's routes (docs/BOTS.md): bot accounts and their tokens, the event and game streams (NDJSON), a
game's moves, chat and resignation, challenges, and bots joining the tables that welcome them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import StreamingResponse
from pydantic import Field

from diloti.server.bot_games import BotGames
from diloti.server.bots import Account, BotDesk, Stream
from diloti.server.messages import Claimed, ClockSettings
from diloti.server.model_base import CHAT_FIELD_MAX, FIELD_MAX, Strict
from diloti.server.player_models import QuickPlay, QuickPlayTicket
from diloti.server.protocol import read_body
from diloti.server.quickplay import QuickPlayDesk

NDJSON = "application/x-ndjson"


class NewBotToken(Strict):
    """``POST /api/me/bot/tokens``: a new token of a bot account (shown once)."""

    label: Annotated[str, Field(max_length=64, description="a note to tell tokens apart")] = ""
    scopes: Annotated[list[Literal["play", "challenge"]] | None, Field(
        min_length=1, max_length=2, description="play: the streams and a game's moves, chat and resignation; "
        "challenge: challenging others (default: both)")] = None


class BotToken(Strict):
    """A token as made: ``token`` is shown this once (only its SHA-256 is kept)."""

    id: str
    token: Annotated[str, Field(examples=["dlb_q0Ou2L1sJxWmYt7bgm0Mpb4kY5nNqFv8TjzR3bXg1aQ"])]
    scopes: list[str]
    label: str


class BotTokenInfo(Strict):
    id: str
    scopes: list[str]
    label: str
    created: str
    revoked: str | None


class BotTokens(Strict):
    """``GET /api/me/bot/tokens``: the account's tokens (never the tokens themselves)."""

    bot: bool
    tokens: list[BotTokenInfo]


class BotAccount(Strict):
    """``POST /api/me/bot``: the account is a bot account now (for good)."""

    player: str
    name: str
    bot: bool


class BotMove(Strict):
    """A bot's move in the game's notation, and (optionally) the ply it answers (``stale`` if the game moved on)."""

    move: Annotated[str, Field(max_length=FIELD_MAX, examples=["9D x 4H 5C"])]
    ply: int | None = None


class BotChat(Strict):
    text: Annotated[str, Field(max_length=CHAT_FIELD_MAX)]


class NewChallenge(Strict):
    """``POST /api/challenge/{player}``: a game of two against a player or a bot."""

    game: Annotated[str, Field(max_length=16, description="a game of /api/info games")] = "diloti"
    options: Annotated[dict[str, Any] | None, Field(description="the game's options (any subset)")] = None
    rated: bool | None = None
    clock: ClockSettings | None = None
    seat: Annotated[int | None, Field(description="the challenger's seat, 0 or 1 (null: either)")] = None


class VsComputer(Strict):
    """``POST /api/bot/computer``: a table against the server's computer players (every other seat one of them)."""

    game: Annotated[str, Field(max_length=16)] = "diloti"
    players: int = 2
    level: Annotated[str, Field(max_length=40, description="the computers' level, as a table's seats take it")] = \
        "heuristic"
    seat: int = 0
    options: dict[str, Any] | None = None
    rated: bool | None = None
    clock: ClockSettings | None = None


class ChallengeSide(Strict):
    id: str
    name: str | None
    bot: bool


class ChallengeInfo(Strict):
    """A challenge as its two accounts see it."""

    id: str
    status: Literal["open", "accepted", "declined", "canceled", "expired"]
    table: str | None
    game: str
    players: int
    options: dict[str, Any]
    rated: bool
    clock: ClockSettings | None
    expires_in: int
    from_: Annotated[ChallengeSide, Field(alias="from")]
    to: ChallengeSide


class ChallengeMade(Strict):
    """The challenge, and the challenger's seat token (a person plays with it on the websocket once accepted)."""

    challenge: ChallengeInfo
    token: str


class BotJoined(Strict):
    table: str
    seat: int


class BotDone(Strict):
    ok: bool
    ply: int | None = None


BOT_MODELS: tuple[type[Strict], ...] = (NewBotToken, BotToken, BotTokens, BotAccount, BotMove, BotChat,
                                        NewChallenge, VsComputer, ChallengeInfo, ChallengeMade, BotJoined, BotDone)


def add_routes(app: FastAPI, desk: BotDesk, body: Callable[[Request], Awaitable[Any]],
               documented: Callable[..., dict[str, Any]], quick: QuickPlayDesk) -> None:
    """The Bot API's routes on ``app`` (``quick``: quick play's desk, which bots join through their own door)."""
    games = BotGames(desk)

    def ndjson(stream: Stream) -> StreamingResponse:
        async def lines() -> AsyncIterator[str]:
            try:
                async for line in stream.lines():
                    yield line
            finally:
                games.end_stream(stream)

        return StreamingResponse(lines(), media_type=NDJSON, headers={"Cache-Control": "no-cache",
                                                                      "X-Accel-Buffering": "no"})

    async def bot(request: Request, scope: str = "play") -> Account:
        return await desk.account(request, scope, bot=True)

    @app.post("/api/me/bot", **documented(BotAccount))
    async def make_bot(request: Request) -> dict[str, Any]:
        return await desk.make_bot(request)

    @app.post("/api/me/bot/tokens", status_code=201, **documented(BotToken, NewBotToken, 201))
    async def new_token(request: Request) -> dict[str, Any]:
        return await desk.new_token(request, read_body(NewBotToken, await body(request)))

    @app.get("/api/me/bot/tokens", **documented(BotTokens))
    async def tokens(request: Request) -> dict[str, Any]:
        return await desk.list_tokens(request)

    @app.delete("/api/me/bot/tokens/{token_id}", **documented(BotDone))
    async def revoke(request: Request, token_id: str) -> dict[str, Any]:
        return await desk.revoke(request, token_id)

    @app.get("/api/bot/account", **documented(BotAccount))
    async def account(request: Request) -> dict[str, Any]:
        me = await bot(request)
        return {"player": me.id, "name": me.player.name or "", "bot": True}

    @app.get("/api/stream/event", **documented(None, media=NDJSON))
    async def event_stream(request: Request) -> StreamingResponse:
        account = await desk.account(request, "play")
        return ndjson(await games.event_stream(account))

    @app.get("/api/bot/game/stream/{table_id}", **documented(None, media=NDJSON))
    async def game_stream(request: Request, table_id: str) -> StreamingResponse:
        return ndjson(await games.game_stream(await bot(request), table_id))

    @app.post("/api/bot/game/{table_id}/move", **documented(BotDone, BotMove))
    async def move(request: Request, table_id: str) -> dict[str, Any]:
        account = await bot(request)
        return await games.move(account, table_id, read_body(BotMove, await body(request)))

    @app.post("/api/bot/game/{table_id}/chat", **documented(BotDone, BotChat))
    async def chat(request: Request, table_id: str) -> dict[str, Any]:
        account = await bot(request)
        return await games.chat(account, table_id, read_body(BotChat, await body(request))["text"])

    @app.post("/api/bot/game/{table_id}/resign", **documented(BotDone))
    async def resign(request: Request, table_id: str) -> dict[str, Any]:
        return await games.resign(await bot(request), table_id)

    @app.post("/api/bot/computer", **documented(BotJoined, VsComputer))
    async def computer(request: Request) -> dict[str, Any]:
        account = await bot(request)
        return await games.computer(account, read_body(VsComputer, await body(request)))

    @app.post("/api/bot/quickplay", status_code=201, **documented(QuickPlayTicket, QuickPlay, 201))
    async def quickplay(request: Request) -> dict[str, Any]:
        """Quick play for a bot: paired only with people who welcome bots (and other bots); poll the ticket with
        ``POST /api/quickplay/{ticket}/poll`` as a person does."""
        account = await bot(request)
        await desk.check_games(account.id)
        data = read_body(QuickPlay, await body(request))
        return await quick.create(request, data, account.player)

    @app.post("/api/bot/tables/{table_id}/join", **documented(BotJoined))
    async def join(request: Request, table_id: str) -> dict[str, Any]:
        return await games.join(await bot(request), table_id)

    @app.post("/api/challenge/{player}", **documented(ChallengeMade, NewChallenge))
    async def challenge(request: Request, player: str) -> dict[str, Any]:
        account = await desk.account(request, "challenge")
        return await games.challenge(account, player, read_body(NewChallenge, await body(request)))

    @app.get("/api/challenge/{challenge_id}", **documented(ChallengeInfo))
    async def show(request: Request, challenge_id: str) -> dict[str, Any]:
        return await games.show(await desk.account(request), challenge_id)

    @app.post("/api/challenge/{challenge_id}/accept", **documented(Claimed))
    async def accept(request: Request, challenge_id: str) -> dict[str, Any]:
        return await games.accept(await desk.account(request, "play"), challenge_id)

    @app.post("/api/challenge/{challenge_id}/decline", **documented(BotDone))
    async def decline(request: Request, challenge_id: str) -> dict[str, Any]:
        return await games.answer(await desk.account(request, "play"), challenge_id, "declined")

    @app.post("/api/challenge/{challenge_id}/cancel", **documented(BotDone))
    async def cancel(request: Request, challenge_id: str) -> dict[str, Any]:
        return await games.answer(await desk.account(request, "challenge"), challenge_id, "canceled")


__all__ = ["BOT_MODELS", "add_routes"]
