"""Typed models of the daily deal's and the arenas' HTTP API (docs/PROTOCOL.md, "The daily deal", "Arena
tournaments"): strict like every body model (:mod:`diloti.server.model_base`), so a bad body is refused with its
field named."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field

from diloti.server.game_models import OptionsBody
from diloti.server.messages import ClockSettings
from diloti.server.model_base import FIELD_MAX, Strict, _int_only

Secret = Annotated[str, Field(max_length=FIELD_MAX)]


class DailyStart(Strict):
    """``POST /api/daily``: play today's deal (a player's first attempt of the day is ranked)."""

    name: Annotated[str | None, Field(max_length=FIELD_MAX, description="a guest's name (a player's own name is "
                                      "used for a player who comes back)")] = None
    device: Annotated[str | None, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                                        description="the page's device id (kept in the browser): one ranked "
                                        "attempt a day per device")] = None
    ranked: Annotated[bool | None, Field(description="false: play unranked (a guest always does)")] = None


class DailyStarted(Strict):
    """The attempt's table and seat, and the seat's token (kept by the page, as for any table)."""

    day: str
    table: str
    seat: int
    token: str
    ranked: bool


class DailyMine(Strict):
    """The signed-in player's ranked attempt of the day."""

    table: str
    status: Literal["waiting", "playing", "over", "closed"]
    diff: int | None = None
    rank: int | None = None


class DailyInfo(Strict):
    """``GET /api/daily``: today's deal (never its cards), the countdown to the next, the player's attempt."""

    day: Annotated[str, Field(examples=["2026-11-29"])]
    game: str
    players: int
    options: dict[str, Any]
    opponent: Annotated[str, Field(description="the computer every player meets: a level with a playout budget")]
    ends_in: Annotated[int, Field(description="seconds until the next UTC day's deal")]
    finished: Annotated[int, Field(description="ranked attempts finished today")]
    mine: DailyMine | None = None
    streak: Annotated[int, Field(description="days in a row the player finished the deal ranked (0 for a guest)")]


class DailyEntry(Strict):
    """A line of the day's leaderboard (``table`` only for a player who finished that day, or once it is over)."""

    rank: int
    player: str
    name: str
    diff: Annotated[int, Field(description="the player's game points minus the computer's")]
    points: int
    against: int
    table: str | None = None


class DailyBoard(Strict):
    """``GET /api/daily/leaderboard``: one page of a day's leaderboard."""

    day: str
    total: int
    page: int
    per_page: int
    entries: list[DailyEntry]


class DailyField(Strict):
    """``POST /api/daily/field``: a finished attempt's table and its seat's token."""

    table: Annotated[str, Field(max_length=32)]
    token: Secret


class FieldDecision(Strict):
    """One of the player's decisions, and how the field played the same position."""

    ply: int
    move: str
    reached: Annotated[int, Field(description="finished games of the day that reached this position")]
    same: Annotated[int, Field(description="of them, those that played this move here")]
    mark: Annotated[str | None, Field(description="the review's verdict (inaccuracy, mistake, blunder; null: good "
                                      "or not judged; absent until the review is done)")] = None
    best: Annotated[str | None, Field(description="the review's best move")] = None


class DailyFieldReply(Strict):
    """How the field played the player's deal, the review's progress, and the day's best game so far."""

    day: str
    diff: int
    rank: int | None
    decisions: list[FieldDecision]
    review: Annotated[dict[str, Any], Field(description="the review's status (POST /api/tables/{id}/review's)")]
    best: DailyEntry | None
    replay: Annotated[dict[str, Any] | None, Field(description="the best game's replay (GET /api/tables/{id}/replay's "
                                                   "document)")] = None


class DailyDay(Strict):
    """A day of the player's daily history."""

    day: str
    diff: int | None
    rank: int | None
    table: str


class DailyHistory(Strict):
    """``GET /api/players/{id}/daily``: the player's streak and their ranked attempts, newest first."""

    player: str
    streak: int
    best_streak: int
    days: list[DailyDay]


class NewArena(Strict):
    """``POST /api/arenas``: a new arena (a signed-in player; rate-limited)."""

    name: Annotated[str | None, Field(max_length=FIELD_MAX, description="its name (default: the creator's)")] = None
    game: Annotated[str | None, Field(max_length=16, description="a registered game (default: Diloti)")] = None
    options: Annotated[OptionsBody | None, Field(description="any subset of the options (default: standard)")] = None
    clock: Annotated[ClockSettings | None, Field(description="the games' turn clock (default: 20 s a move, 120 s "
                                                 "reserve)")] = None
    starts_in: Annotated[int | None, BeforeValidator(_int_only),
                         Field(ge=0, le=86400, description="seconds from now until it starts (default 60)")] = None
    minutes: Annotated[int | None, BeforeValidator(_int_only),
                       Field(ge=1, le=180, description="its length in minutes (default 30)")] = None
    wait: Annotated[int | None, BeforeValidator(_int_only),
                    Field(ge=5, le=600, description="seconds a player waits alone before a computer of the "
                          "nearest level is their opponent (default 30)")] = None


class ArenaSecret(Strict):
    """The player's arena secret (shown when they joined: the seat token of each of their arena games)."""

    secret: Secret


class ArenaJoined(Strict):
    """``POST /api/arenas/{id}/join``: the player's secret, the seat token of each of their games there."""

    arena: str
    player: str
    secret: str


class ArenaMine(Strict):
    """``GET /api/arenas/{id}/me``: the player's game now (the poll marks them present: they may be paired)."""

    arena: str
    status: Literal["upcoming", "running", "finishing", "over"]
    joined: Annotated[bool, Field(description="joined and not withdrawn")]
    table: Annotated[str | None, Field(description="the game to play now: hello with the arena secret as token")]
    seat: int | None
    starts_in: int
    ends_in: int


class ArenaLine(Strict):
    """A player's line of the standings."""

    rank: int
    player: str
    name: str
    score: int
    games: int
    wins: int
    fire: Annotated[bool, Field(description="on a win streak: the next win counts double")]
    sheet: Annotated[list[int], Field(description="the points of each finished game, in order")]
    table: Annotated[str | None, Field(description="the game the player is playing now (watchable)")]
    seat: int | None
    withdrawn: bool


class ArenaGame(Strict):
    """A game of the arena."""

    table: str
    players: list[str | None]
    level: str | None
    status: str


class ArenaPlayed(Strict):
    """A finished game of the arena, with its replay."""

    table: str
    players: Annotated[list[str | None], Field(description="the names by seat (the computer's level for its seat)")]
    level: str | None
    winner: Annotated[int | None, Field(description="the winning seat (null: a draw)")]
    end_reason: Annotated[str | None, Field(description="how it ended, when not played out (resigned, aborted, ...)")]
    replay: Annotated[str, Field(description="the page of its replay (its document: GET /api/tables/{id}/replay)")]


class Arena(Strict):
    """``GET /api/arenas/{id}``: an arena, its standings and its games being played."""

    id: str
    name: str
    game: str
    players: int
    options: dict[str, Any]
    clock: ClockSettings
    starts: str
    seconds: int
    wait: int
    status: Literal["upcoming", "running", "finishing", "over"]
    starts_in: int
    ends_in: int
    schedule: str | None
    creator: str | None
    standings: list[ArenaLine]
    playing: list[ArenaGame]
    played: Annotated[list[ArenaPlayed], Field(description="the finished games, newest first (the last 100; 10 in a "
                                               "listing), each with its replay")]
    me: ArenaLine | None = None


class ArenaResult(Strict):
    """A player's final standing in an arena."""

    arena: str
    name: str
    starts: str
    rank: int
    score: int
    games: int
    wins: int


class PlayerArenas(Strict):
    """``GET /api/players/{id}/arenas``: the final standings of the arenas the player played, newest first."""

    player: str
    arenas: list[ArenaResult]


class ArenaList(Strict):
    """``GET /api/arenas``: the arenas running and coming (and those the player joined), then the last finished."""

    arenas: list[Arena]


EVENT_MODELS: tuple[type[BaseModel], ...] = (
    DailyStart, DailyStarted, DailyInfo, DailyBoard, DailyField, DailyFieldReply, DailyHistory,
    NewArena, ArenaSecret, ArenaJoined, ArenaMine, Arena, ArenaList, PlayerArenas)
