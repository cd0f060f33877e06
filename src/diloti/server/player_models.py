"""Typed models of the players' HTTP API (identity, login, profiles, leaderboard): docs/PROTOCOL.md,
"Players who come back". Strict like every model of :mod:`diloti.server.messages`, whose base they share."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field

from diloti.server.game_models import OptionsBody
from diloti.server.messages import ClockSettings
from diloti.server.model_base import FIELD_MAX, NAME_MAX, Strict, _int_only

PASSWORD_MIN, PASSWORD_MAX = 8, 128
Name = Annotated[str, Field(max_length=FIELD_MAX, description=f"1..{NAME_MAX} characters after trimming, no "
                            "control characters, unique (compared case-insensitively), not a computer level's")]


class NewPlayer(Strict):
    """``POST /api/players``: become a player who comes back (no password needed)."""

    name: Name


class Rename(Strict):
    """``PATCH /api/me``: a new name."""

    name: Name


class Recover(Strict):
    """``POST /api/players/recover``: move to this device with the recovery code."""

    recovery: Annotated[str, Field(max_length=FIELD_MAX, description="the code shown when the player was made "
                                   "(dashes, spaces and case do not matter)")]


class SetPassword(Strict):
    """``PUT /api/me/password``: set (or change) the optional password."""

    password: Annotated[str, Field(max_length=FIELD_MAX, description=f"{PASSWORD_MIN}..{PASSWORD_MAX} characters, "
                                   "not the name")]
    current: Annotated[str | None, Field(max_length=FIELD_MAX, description="the password now, when one is set")] = None


class Login(Strict):
    """``POST /api/login``: sign in on this device with a name and password."""

    name: Annotated[str, Field(max_length=FIELD_MAX)]
    password: Annotated[str, Field(max_length=FIELD_MAX)]


class Identity(Strict):
    """A player's key for this device (kept by the page; send it as ``Authorization: Bearer KEY``) and, when the
    player is made or recovered, the recovery code to write down (shown once; null after a login)."""

    player: str
    name: str
    key: str
    recovery: str | None


class Me(Strict):
    """``GET /api/me``: the player this key belongs to."""

    player: str
    name: str
    password: Annotated[bool, Field(description="a password is set (the player can sign in by name)")]
    created: Annotated[str, Field(examples=["2026-11-22T02:40:00Z"])]


class RecoveryCode(Strict):
    """``POST /api/me/recovery``: a new recovery code (the old one stops working)."""

    recovery: str


class Done(Strict):
    ok: bool


class PlayerRef(Strict):
    """``GET /api/players?name=NAME``: the player of that name."""

    player: str
    name: str


class RatingInfo(Strict):
    """A rating as shown: ``rating`` ± ``deviation`` (1500 ± 333 for a newcomer); ``conservative`` = rating − 3
    deviations orders the leaderboard; ``mu``/``sigma`` are OpenSkill's own figures."""

    mode: Literal["overall", "2p", "4p"]
    rating: int
    deviation: int
    conservative: int
    provisional: Annotated[bool, Field(description="deviation over 200: few games yet (about 10)")]
    mu: float
    sigma: float
    games: Annotated[int, Field(description="rated games")]
    wins: int
    losses: int
    rank: Annotated[int | None, Field(description="place on the leaderboard of the mode (1: first; null beyond "
                                      "the first 10,000)")]


class PlayerStats(Strict):
    """Every finished game of a mode (``all``: both), rated or not."""

    mode: Literal["all", "2p", "4p", "x2p", "x4p", "k2p", "k3p", "k4p"]
    games: int
    won: int
    lost: int
    xeris: Annotated[int, Field(description="xeris the player made")]
    points_per_round: Annotated[float, Field(description="the player's side's points a round")]


class Opponent(Strict):
    """An opponent met often: a player (``player``, ``name``) or a computer (``level``); the games and the
    player's wins and losses against them."""

    player: str | None
    name: str | None
    level: str | None
    games: int
    won: int
    lost: int


class HistoryPoint(Strict):
    at: Annotated[str, Field(examples=["2026-11-22T02:40:00Z"])]
    rating: int
    deviation: int


class RatingHistory(Strict):
    """The rating after each rated game of a mode (the last 500), oldest first: the profile's plot."""

    mode: Literal["overall", "2p", "4p"]
    points: list[HistoryPoint]


class GameSeat(Strict):
    """A seat of a past game: a player (``player`` and their name now; null name: deleted), a computer (its
    level as ``name``) or a guest (the name it played under)."""

    seat: int
    kind: Literal["human", "bot"]
    player: str | None
    name: str | None
    bot: Annotated[bool, Field(description="the player is a bot account (docs/BOTS.md)")] = False


class GameEntry(Strict):
    """One finished game of a player, from their seat: links to its replay and its record."""

    table: str
    finished: Annotated[str, Field(examples=["2026-11-22T03:10:00Z"])]
    mode: Literal["2p", "4p", "x2p", "x4p", "k2p", "k3p", "k4p"]
    seat: int
    side: int
    result: Literal["won", "lost", "draw"]
    points: int
    against: int
    rounds: int
    xeris: int
    rated: bool
    end_reason: str | None
    rating: Annotated[int | None, Field(description="the player's rating in the mode after the game (shown "
                                        "scale); null if not rated")]
    seats: list[GameSeat]
    replay: Annotated[str, Field(examples=["/?replay=k3J9x_aQ2mE"])]
    record: Annotated[str, Field(examples=["/api/tables/k3J9x_aQ2mE/record"])]


class GamePage(Strict):
    """``GET /api/players/{id}/games``: a page of a player's finished games, newest first."""

    total: int
    page: int
    per_page: int
    pages: int
    games: list[GameEntry]


class Profile(Strict):
    """``GET /api/players/{id}``: a player's profile."""

    player: str
    name: str
    created: Annotated[str, Field(examples=["2026-11-22T02:40:00Z"])]
    bot: Annotated[bool, Field(description="a bot account: an outside program plays it (docs/BOTS.md)")] = False
    ratings: Annotated[list[RatingInfo], Field(description="the modes with at least one rated game")]
    stats: list[PlayerStats]
    opponents: Annotated[list[Opponent], Field(description="the 5 opponents met most in the last 1,000 games")]
    history: list[RatingHistory]
    games: Annotated[GamePage, Field(description="the first page of finished games (10)")]


class BoardRow(Strict):
    rank: int
    player: str
    name: str
    rating: int
    deviation: int
    conservative: int
    provisional: bool
    games: int
    wins: int
    losses: int


class Leaderboard(Strict):
    """``GET /api/leaderboard``: a page of the players of a mode who have a rated game in it."""

    mode: Literal["overall", "2p", "4p"]
    bots: Annotated[bool, Field(description="the bot accounts' own list (?bots=true); the people's list never "
                                "shows a bot")] = False
    page: int
    per_page: int
    total: int
    pages: int
    players: list[BoardRow]

# The players' models the OpenAPI document lists (with :data:`diloti.server.messages.SCHEMA_MODELS`).
PLAYER_SCHEMA_MODELS: tuple[type[Strict], ...] = (
    NewPlayer, Rename, Recover, SetPassword, Login, Identity, Me, RecoveryCode, Done, PlayerRef, Profile, GamePage,
    Leaderboard)


# ------------------------------------------------------------------ quick play
class QuickPlay(Strict):
    """``POST /api/quickplay``: wait for a game with these settings against players of a similar rating."""

    players: Annotated[Literal[2, 4], BeforeValidator(_int_only), Field(description="2 or 4")] = 2
    options: Annotated[OptionsBody | None, Field(description="any subset of the options (default: standard)")] = None
    clock: Annotated[ClockSettings | None, Field(description="a turn clock (default: none)")] = None
    name: Annotated[str | None, Field(max_length=FIELD_MAX, description="a guest's name (a player's own name is "
                                      "used for a player who comes back)")] = None
    bots: Annotated[bool, Field(description="bots welcome: bot accounts (docs/BOTS.md) may be paired with this "
                                "player (default false: people only)")] = False


class TicketSecret(Strict):
    """The ticket's secret, to poll, cancel or take the computer (and, once seated, the seat's token)."""

    secret: Annotated[str, Field(max_length=FIELD_MAX)]


class QuickPlayComputer(TicketSecret):
    """``POST /api/quickplay/{id}/computer``: stop waiting, play the computer now."""

    level: Annotated[str | None, Field(max_length=40, description="a level of /api/info (default: the one whose "
                                       "fixed rating is nearest the player's)")] = None


class QuickPlayTicket(Strict):
    """A quick-play ticket as it stands."""

    ticket: str
    secret: Annotated[str | None, Field(description="only in the reply that made the ticket: keep it")]
    status: Literal["waiting", "seated"]
    waited: Annotated[float, Field(description="seconds in the queue")]
    computer: Annotated[bool, Field(description="the computer is offered (after a short wait)")]
    table: Annotated[str | None, Field(description="once seated: the table; the secret is the seat's token")]
    seat: int | None


QUICKPLAY_MODELS: tuple[type[Strict], ...] = (QuickPlay, TicketSecret, QuickPlayComputer, QuickPlayTicket)
