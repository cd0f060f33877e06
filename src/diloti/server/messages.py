"""Typed models of the protocol (docs/PROTOCOL.md): websocket messages both ways and the HTTP bodies.

Every model is strict: a field it does not know is refused, nothing is coerced (``"3"`` is
not 3, ``true`` is not 1, ``4.0`` is not 4) and text has a length limit. Client messages
are read through :data:`CLIENT_MESSAGE`, a union told apart by ``type``;
:mod:`diloti.server.protocol` turns a failed check into a
:class:`~diloti.server.protocol.ProtocolError` with the protocol's codes.

The HTTP request models only check the shape of a body; what a value means (a seat that
exists, a known level, a legal combination of options) is checked by the table manager
after them. The server's messages are built as plain dicts (they are sent often and
built from trusted data); their models here describe them for the OpenAPI document and
let the tests check what the server sends and what docs/PROTOCOL.md shows.

>>> CLIENT_MESSAGE.validate_python({"type": "move", "move": "7H", "ply": 3})
ClientMove(type='move', move='7H', ply=3)
>>> " ".join(CLIENT_MODELS)
'hello watch move hint choices sync ping chat resign leave hand_over rematch back claim arena'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BeforeValidator, Field, TypeAdapter, create_model

from diloti.core.registry import GameInfo
from diloti.games import DEFAULT_GAME, GAMES, find_game
from diloti.server.client_models import (  # the client's messages, named here with the server's
    CLIENT_MESSAGE as CLIENT_MESSAGE,
)
from diloti.server.client_models import (
    CLIENT_MODELS as CLIENT_MODELS,
)
from diloti.server.client_models import (
    ClientArena as ClientArena,
)
from diloti.server.client_models import (
    ClientBack as ClientBack,
)
from diloti.server.client_models import (
    ClientChat as ClientChat,
)
from diloti.server.client_models import (
    ClientChoices as ClientChoices,
)
from diloti.server.client_models import (
    ClientClaim as ClientClaim,
)
from diloti.server.client_models import (
    ClientHandOver as ClientHandOver,
)
from diloti.server.client_models import (
    ClientHello as ClientHello,
)
from diloti.server.client_models import (
    ClientHint as ClientHint,
)
from diloti.server.client_models import (
    ClientLeave as ClientLeave,
)
from diloti.server.client_models import (
    ClientMessage as ClientMessage,
)
from diloti.server.client_models import (
    ClientMove as ClientMove,
)
from diloti.server.client_models import (
    ClientPing as ClientPing,
)
from diloti.server.client_models import (
    ClientRematch as ClientRematch,
)
from diloti.server.client_models import (
    ClientResign as ClientResign,
)
from diloti.server.client_models import (
    ClientSync as ClientSync,
)
from diloti.server.client_models import (
    ClientWatch as ClientWatch,
)
from diloti.server.clock import CLOCK_MOVE, CLOCK_RESERVE
from diloti.server.game_models import (
    AnyOptionsBody,
    AnySideScore,
    GameName,
    OptionsBody,
    choices_text,
    one_of,
    options_body,
)
from diloti.server.model_base import (
    FIELD_MAX,
    GRACE_MAX,
    NAME_MAX,
    SEED_MAX,
    Card,
    Strict,
    _int_only,
)


# ------------------------------------------------------------------ HTTP request bodies
class SeatRequest(Strict):
    """One seat of a new table: ``{"kind": "human"}`` or ``{"kind": "bot", "level": LEVEL}``."""

    kind: Literal["human", "bot"]
    level: Annotated[str, Field(max_length=40, description="a computer seat's level, one of /api/info `levels`")] \
        | None = None


class ClockSettings(Strict):
    """A turn clock: seconds per move, then a reserve per player for the moves that take longer."""

    move: Annotated[int, BeforeValidator(_int_only), Field(ge=CLOCK_MOVE[0], le=CLOCK_MOVE[1],
                                                           description="seconds for each move")]
    reserve: Annotated[int, BeforeValidator(_int_only), Field(ge=CLOCK_RESERVE[0], le=CLOCK_RESERVE[1],
                                                              description="each player's reserve, in seconds")] = 0


_DEFAULT = find_game(DEFAULT_GAME)  # a body naming no game plays it (Diloti)
if TYPE_CHECKING:
    DefaultPlayers = int
else:
    DefaultPlayers = one_of(_DEFAULT.players)  # the seat counts of the default game


class NewTable(Strict):
    """``POST /api/tables``: a new table. ``null`` for an optional field is the same as leaving it out."""

    game: Annotated[GameName, Field(description=f"the game (default {DEFAULT_GAME})")] = DEFAULT_GAME
    players: Annotated[DefaultPlayers, BeforeValidator(_int_only),
                       Field(description=choices_text(list(_DEFAULT.players)))] = 2
    options: Annotated[OptionsBody | None, Field(description="any subset of the options")] = None
    seats: Annotated[list[SeatRequest] | None,
                     Field(max_length=4, description="one entry per seat (default: every seat human)")] = None
    seat: Annotated[int | None, Field(ge=0, le=3, description="the creator's seat, a human one "
                                                               "(default: the first human seat)")] = None
    name: Annotated[str, Field(max_length=FIELD_MAX, description=f"the creator's name: 1..{NAME_MAX} "
                                                                  "characters after trimming, no control characters")]
    private: Annotated[bool, Field(description="not listed in the lobby")] = False
    seed: Annotated[int | None, Field(ge=0, le=SEED_MAX, description="fixes the deal; tests only "
                                                                     "(servers run with --allow-seed)")] = None
    away_level: Annotated[str | None, Field(max_length=40, description="the computer that plays for a player who "
                                            "left or was handed over, one of /api/info `levels` "
                                            "(default heuristic)")] = None
    grace: Annotated[int | None, Field(ge=0, le=GRACE_MAX, description="seconds a disconnected player keeps the "
                                       "seat before the others may hand it to the computer (default 60)")] = None
    clock: Annotated[ClockSettings | None, Field(description="the turn clock (default: none); when a player's "
                                                 "runs out the computer plays for them until they are back")] = None
    rated: Annotated[bool, Field(description="the game counts for the ratings of its players who come back "
                                 "(false: a casual game)")] = True
    bots: Annotated[bool, Field(description="bot accounts (outside programs, docs/BOTS.md) may take its free seats "
                                "(default false: people only)")] = False


_others = [g for g in GAMES.values() if g.named]  # the games read with their own models (table_model)
NewTable.__doc__ = (f"{NewTable.__doc__}\n\nWith ``game`` {' or '.join(f'``{g.name}``' for g in _others)} the body is "
                    f"read as {' or '.join(f':class:`New{g.title}Table`' for g in _others)}\n"
                    "(their own options and players).\n")


def table_model(info: GameInfo) -> type[NewTable]:
    """The model of a new table of a game: :class:`NewTable` with the game's own players, options and rating
    (``NewXeriTable``, ...; the default game's is :class:`NewTable` itself).

    >>> model = table_model(find_game("kontsina"))
    >>> model.__name__, model.model_validate({"game": "kontsina", "name": "Ann", "players": 3}).players
    ('NewKontsinaTable', 3)
    """
    if not info.named:
        return NewTable
    made = _TABLE_MODELS.get(info.name)
    if made is None or made[0] is not info:  # a game registered again (a test's) gets a model of its own
        players: Any = Annotated[one_of(info.players), BeforeValidator(_int_only),
                                 Field(description=choices_text(list(info.players)))]
        body: Any = Annotated[options_body(info) | None, Field(description=f"any subset of {info.title}'s options")]
        rated: Any = Annotated[bool, Field(description="the game counts for the ratings of its players who come back "
                                      "(false: a casual game)" if info.rated else f"false: games of {info.title} "
                                      "are casual")]
        model = create_model(f"New{info.title}Table", __base__=NewTable, __module__=__name__,
                             __doc__=f"``POST /api/tables`` with ``\"game\": \"{info.name}\"``: "
                                     f"{choices_text(list(info.players))} players.",
                             game=(one_of([info.name]), ...), players=(players, info.players[0]),
                             options=(body, None), rated=(rated, info.rated))
        made = _TABLE_MODELS[info.name] = (info, model)
    return made[1]


_TABLE_MODELS: dict[str, tuple[GameInfo, type[NewTable]]] = {}


def __getattr__(name: str) -> type[NewTable]:
    """A game's model of a new table by its name (``from diloti.server.messages import NewKontsinaTable``)."""
    game = next((g for g in GAMES.values() if name == f"New{g.title}Table"), None)
    if game is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return table_model(game)


def new_table_model(body: Any) -> type[NewTable]:
    """The model a ``POST /api/tables`` body is read with, by its ``game`` (:class:`NewTable` for a game that is
    not registered: its ``game`` field refuses it)."""
    game = body.get("game") if isinstance(body, dict) else None
    return table_model(GAMES[game]) if isinstance(game, str) and game in GAMES else NewTable


class JoinTable(Strict):
    """``POST /api/tables/{id}/join``: claim a free human seat."""

    name: Annotated[str, Field(max_length=FIELD_MAX, description=f"1..{NAME_MAX} characters after trimming")]
    seat: Annotated[int | None, Field(ge=0, le=3, description="default: the first free human seat")] = None


# ------------------------------------------------------------------ parts of server messages and replies
class MoveParts(Strict):
    """A move with its notation and parts (a ``legal`` entry)."""

    move: str
    card: Card | None
    kind: Literal["lay", "capture", "plain", "group", "keep", "redeal"]
    value: int
    cards: list[Card]


class PlayedMove(MoveParts):
    xeri: bool


class LastMove(PlayedMove):
    seat: int
    ply: int
    round: int
    by: Annotated[str | None, Field(description="the level of the computer that made this move for an away "
                                    "player (null: the seat's own player, or its computer)")]


class RankedMove(MoveParts):
    score: float
    win: Annotated[float | None, Field(description="the chance (0..1) to win the game after this move (Diloti; "
                                       "null in the parent games)")]


class RoundScore(Strict):
    number: int
    dealer: int
    score: list[AnySideScore]
    totals: list[int]
    scores: list[int]


class DeclarationInfo(Strict):
    cards: list[Card]
    value: int
    kind: Literal["plain", "group"]
    owner: int


class SeatInfo(Strict):
    seat: int
    kind: Literal["human", "bot"]
    level: str | None
    name: str | None
    taken: bool
    connected: bool
    side: int
    away: Annotated[bool, Field(description="the computer plays this human seat (handed over, or left)")]
    player: Annotated[str | None, Field(description="the id of the player who comes back holding this seat (their "
                                        "profile: /api/players/{id}); null: a guest, a computer or a free seat")]
    hand_over_in: Annotated[int | None, Field(
        description="seconds before the other players may hand this seat to the computer ('hand_over'): 0 now; "
                    "null when it cannot be (a computer's or free seat, one the computer plays already, one whose "
                    "player is connected, a game not under way). The page counts down from it")] = None
    bot: Annotated[bool, Field(description="the seat's player is a bot account: an outside program plays it "
                               "(docs/BOTS.md)")] = False


class RematchOffer(Strict):
    """A rematch offer waiting for the other players: who accepted, and when it lapses."""

    seats: Annotated[list[int], Field(description="the seats that asked for the rematch or accepted it")]
    expires_in: Annotated[int, Field(description="seconds until the offer lapses")]


class TableSummary(Strict):
    """The public summary of a table (no cards); in the lobby ``options`` holds only the changed ones."""

    id: str
    game: Annotated[GameName, Field(description="the game the table plays")]
    players: int
    sides: Annotated[int, Field(description="sides that score apart: 2 in Diloti (partners share one); in the "
                                "parent games each player alone unless partnerships")]
    options: AnyOptionsBody
    target: Annotated[int | None, Field(description="the points that win (null: Xeri decided by hands won)")]
    private: bool
    status: Literal["waiting", "playing", "over", "closed"]
    seats: list[SeatInfo]
    free: list[int]
    scores: list[int]
    round: int
    winner: int | None
    hints: bool
    hint_level: Annotated[Literal["expert", "master"], Field(description="whose search gives the hints")]
    ply: int
    spectators: Annotated[int, Field(description="connections watching the table now (on this server process)")]
    created: Annotated[str, Field(examples=["2026-11-22T02:40:00Z"])]
    end_reason: Annotated[str | None, Field(description="why the game ended early: resigned:SEAT, abandoned:SEAT "
                                            "(claimed from an absent player), aborted:SEAT (null if played out "
                                            "or not over)")]
    away_level: Annotated[str, Field(description="the computer that plays for absent players")]
    grace: Annotated[int, Field(description="seconds before an absent player's seat may be handed over")]
    series: Annotated[str | None, Field(description="the id of the first game of the series this table belongs to "
                                        "(null until a rematch of it is made)")]
    series_score: Annotated[list[int], Field(description="games won by each side over the finished games of the "
                                             "series (this one included once over)")]
    next_table: Annotated[str | None, Field(description="the rematch of this finished game, once made")]
    clock: Annotated[ClockSettings | None, Field(description="the table's turn clock (null: none)")]
    rated: Annotated[bool, Field(description="the game counts for its players' ratings once over (if every human "
                                 "seat is a player who comes back)")]
    event: Annotated[str | None, Field(None, description="the event the table belongs to: daily:DAY (the daily "
                                       "deal), arena:ID (an arena's game); null: none")]
    rematch_offer: Annotated[RematchOffer | None, Field(description="a standing rematch offer of this finished "
                                                        "game (null: none)")]
    bots: Annotated[bool, Field(description="bot accounts may sit at this table (its creator's choice)")] = False


class Claimed(Strict):
    """The reply to a new table or a join: the seat and its token (keep it: the token is the seat)."""

    table: str
    seat: int
    token: str
    invite: str


class Lobby(Strict):
    tables: list[TableSummary]
    page: int = 1  # this page of the list (1 = the newest tables)
    pages: int = 1  # pages in all
    total: int = 0  # tables in all (for ``over``: the most recent 500 at most)


class InfoChoices(Strict):
    face_card_redeal: list[str]


class InfoLimits(Strict):
    name_max: int
    message_max: int
    rate: float
    burst: float
    connections: int
    chat_max: int
    chat_lines: int
    chat_seconds: float


class Seating(Strict):
    """One way a game seats ``players``: ``sides`` scoring apart, with its seating flags set to ``options``."""

    players: int
    sides: int
    options: Annotated[dict[str, bool], Field(description="the game's seating flags (partnerships) for this way")]


class InfoGame(Strict):
    """One game a table may play: its seats, its options, and what the page draws it by."""

    players: list[int]
    options: AnyOptionsBody
    title: Annotated[str, Field(description="the game's name as a sentence writes it (English)")]
    named: Annotated[bool, Field(description="outputs name the game (every game but the default one)")]
    rated: Annotated[bool, Field(description="its games may count for the ratings")]
    quick_play: Annotated[bool, Field(description="quick play (POST /api/quickplay) plays this game")]
    pile: Annotated[bool, Field(description="the table is one pile that a capture takes whole (Xeri)")]
    declarations: Annotated[bool, Field(description="its moves may declare (build piles on the table)")]
    hands_won: Annotated[bool, Field(description="the game counts the hands each side wins")]
    goal: Annotated[Literal["target", "hands"], Field(description="what decides a game under the default "
                                                                  "options: a target score, or hands won")]
    goal_flags: Annotated[list[str], Field(description="the flags that, turned on, switch the goal to the other")]
    seating: list[Seating]
    levels: Annotated[dict[str, list[str]], Field(description="for each player count (as text), the computer's "
                                                             "levels that play it (of the top-level levels)")]
    ranges: Annotated[dict[str, list[int]], Field(description="each number option's least and greatest value")]
    choices: Annotated[dict[str, list[str]], Field(description="the words each option of words takes")]
    help: Annotated[dict[str, str], Field(description="what each option means (English)")]


class Info(Strict):
    """``GET /api/info``: what a new-table form needs (``options``: Diloti's; ``games``: every game's)."""

    version: str
    levels: list[str]
    options: OptionsBody
    games: Annotated[dict[str, InfoGame], Field(description=f"{', '.join(GAMES)} (every registered game, the "
                                                           "default one first): seats, options, what it is drawn by")]
    choices: InfoChoices
    limits: InfoLimits


class Health(Strict):
    ok: bool


class Frame(Strict):
    """A replay frame: the position after ``move`` (before the first move of a round: ``move`` null)."""

    ply: int
    seat: int | None
    move: str | None
    played: PlayedMove | None
    hands: list[list[Card]]
    table: list[Card]
    declarations: list[DeclarationInfo]
    stock: int
    captured: list[int]
    xeri: list[int]
    turn: int
    phase: Literal["play", "decide", "over"]


class ReplayRound(Strict):
    number: int
    dealer: int
    frames: list[Frame]
    score: list[AnySideScore] | None
    totals: list[int]
    scores: list[int]


class Replay(Strict):
    """``GET /api/tables/{id}/replay``: every round of a finished game, every hand shown."""

    id: str
    game: GameName
    players: int
    sides: int
    options: AnyOptionsBody
    seats: list[SeatInfo]
    names: list[str]
    winner: int | None
    scores: list[int]
    end_reason: Annotated[str | None, Field(description="resigned:SEAT, abandoned:SEAT or aborted:SEAT if the game "
                                            "ended early")]
    by: Annotated[dict[str, str], Field(description="ply (as text) -> level, for the moves the computer made for "
                                        "an away player")]
    rounds: list[ReplayRound]


# ------------------------------------------------------------------ server -> client (websocket)
class Welcome(Strict):
    """The reply to a good ``hello`` (your seat) or ``watch`` (``seat`` null: a spectator)."""

    type: Literal["welcome"]
    table: str
    seat: int | None
    name: str | None


class TableMessage(Strict):
    type: Literal["table"]
    table: TableSummary


class ClockState(Strict):
    """The turn clock now: the page counts ``left`` (then the running seat's reserve) down from its arrival."""

    move: int
    reserve: int
    reserves: Annotated[list[int], Field(description="each seat's reserve left, in ms")]
    running: Annotated[int | None, Field(description="the seat whose clock runs (null: none: a computer or an "
                                         "away seat is to move, or the game is not under way)")]
    left: Annotated[int | None, Field(description="the running seat's move time left, in ms")]
    ply: int | None


class StateMessage(Strict):
    """A seat's view (``seat`` null: a spectator's, with no hand and no legal moves)."""

    type: Literal["state"]
    game: GameName
    ply: int
    round: int
    seat: int | None
    players: int
    sides: Annotated[int, Field(description="sides that score apart (2 in Diloti)")]
    dealer: int
    turn: int
    phase: Literal["play", "decide", "over"]
    your_turn: bool
    hand: list[Card]
    table: list[Card]
    declarations: list[DeclarationInfo]
    hand_sizes: list[int]
    stock: int
    deal: int
    xeri: list[int]
    captured: list[list[Card]]
    captured_counts: list[int]
    last_capturer: int | None
    pending: list[int]
    bottom: Card | None
    scores: list[int]
    target: Annotated[int | None, Field(description="the points that win (null: Xeri decided by hands won)")]
    jack_xeri: Annotated[list[int] | None, Field(description="Xeri and Kontsina: xeris made by a jack on a lone "
                                                 "jack, per side (null in Diloti)")]
    hands: Annotated[int | None, Field(description="Xeri decided by hands won: the hands of a game")]
    hands_won: Annotated[list[int] | None, Field(description="Xeri decided by hands won: hands each side won")]
    history: list[tuple[int, str]]
    first_table: list[Card]
    legal: Annotated[list[MoveParts], Field(description="the seat's legal moves when it is to move: all of them, or "
                                         "when they are too many to list (a table grown by lays) a bounded "
                                         "sample with every kind and value each card can make")]
    legal_complete: Annotated[bool, Field(description="whether legal holds every legal move (false: ask "
                                                      "'choices' for a card's moves)")]
    last: LastMove | None
    rounds: list[RoundScore]
    clock: Annotated[ClockState | None, Field(description="the turn clock (null: the table has none)")]


class Played(LastMove):
    type: Literal["played"]


class RoundOver(Strict):
    type: Literal["round_over"]
    round: int
    swept: list[Card]
    swept_to: int | None
    score: list[AnySideScore]
    totals: list[int]
    scores: list[int]


class GameOver(Strict):
    type: Literal["game_over"]
    winner: int | None
    scores: list[int]
    rounds: int
    end_reason: Annotated[str | None, Field(description="resigned:SEAT if a player resigned, abandoned:SEAT or "
                                            "aborted:SEAT (an absent player); null if played out")]


class ClockMessage(ClockState):
    """The clock started or stopped without a move (a seat went away or came back)."""

    type: Literal["clock"]


class Timeout(Strict):
    """A player's clock ran out (or, the table's grace period over, they were still disconnected at their
    turn): the computer plays their seat until they are back."""

    type: Literal["timeout"]
    seat: int
    ply: int
    reason: Literal["clock", "disconnected"]


class Left(Strict):
    """To every connection of a seat that was left: it holds the seat no more (the server then closes it)."""

    type: Literal["left"]
    table: str
    seat: int


class Rematch(Strict):
    """To every connection of a finished table once its rematch exists: its id (the same tokens hold the same
    seats there)."""

    type: Literal["rematch"]
    table: str


class HintReply(Strict):
    type: Literal["hint"]
    ply: int
    level: Annotated[Literal["expert", "master"], Field(description="whose search ranked the moves")]
    moves: list[RankedMove]


class ChoicesReply(Strict):
    """The answer to ``choices``: what ``card`` can do with the table cards ``chosen`` (whole declarations)."""

    type: Literal["choices"]
    ply: int
    card: Card
    chosen: list[Card]
    moves: Annotated[list[MoveParts], Field(description="the legal moves taking exactly the chosen cards")]
    open: Annotated[list[Card], Field(description="the table cards that can still be added on the way to a legal "
                                                  "move")]


class IdleWarning(Strict):
    type: Literal["idle_warning"]
    closes_in: Annotated[int, Field(description="seconds until the table closes for idleness")]


class Pong(Strict):
    type: Literal["pong"]
    id: int | None


class ChatMessage(Strict):
    """A chat line, as it is said and, on ``hello``/``watch``, the table's last lines."""

    type: Literal["chat"]
    id: Annotated[int, Field(description="the line's number (increasing at a table)")]
    seat: int
    name: str
    text: str
    at: Annotated[str, Field(examples=["2026-11-22T02:41:07Z"])]


class ErrorMessage(Strict):
    """Every error, HTTP (with a 4xx or 5xx status) or websocket."""

    type: Literal["error"]
    code: str
    message: str


class ArenaMessage(Strict):
    """An arena's standings and games, to everyone following it (``GET /api/arenas/{id}``'s document)."""

    type: Literal["arena"]
    arena: Annotated[dict[str, Any], Field(description="the arena as GET /api/arenas/{id} answers (without me)")]


class ArenaGameMessage(Strict):
    """A game of the player's in an arena (to the connections that follow it with the player's secret): sent when
    a pass pairs them, by whichever process paired them, and at once on following while a game is under way."""

    type: Literal["arena_game"]
    arena: str
    table: Annotated[str, Field(description="the game: hello with the arena secret as token")]
    seat: int


ServerMessage = Annotated[Welcome | TableMessage | StateMessage | Played | RoundOver | GameOver | HintReply
                          | ChoicesReply | IdleWarning | ChatMessage | Left | Rematch | Pong | ClockMessage | Timeout
                          | ErrorMessage | ArenaMessage | ArenaGameMessage,
                          Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
SERVER_MODELS: dict[str, type[Strict]] = {
    "welcome": Welcome, "table": TableMessage, "state": StateMessage, "played": Played, "round_over": RoundOver,
    "game_over": GameOver, "hint": HintReply, "choices": ChoicesReply, "idle_warning": IdleWarning,
    "chat": ChatMessage, "left": Left, "rematch": Rematch, "pong": Pong, "clock": ClockMessage, "timeout": Timeout,
    "error": ErrorMessage, "arena": ArenaMessage, "arena_game": ArenaGameMessage}

# The models the OpenAPI document lists (the websocket's too, though OpenAPI cannot describe a websocket).
SCHEMA_MODELS: tuple[type[Strict], ...] = (
    NewTable, JoinTable, Claimed, Info, Lobby, TableSummary, Replay, Health, ErrorMessage,
    *CLIENT_MODELS.values(), *(m for m in SERVER_MODELS.values() if m is not ErrorMessage))
