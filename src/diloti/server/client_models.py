"""The websocket's client messages (docs/PROTOCOL.md, client to server), read through :data:`CLIENT_MESSAGE`, a
union told apart by ``type``. Strict like every model of :mod:`diloti.server.messages` (which names them too).

>>> CLIENT_MESSAGE.validate_python({"type": "ping"})
ClientPing(type='ping', id=None)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from diloti.server.model_base import CHAT_FIELD_MAX, CHAT_MAX, Strict, Text


# ------------------------------------------------------------------ client -> server (websocket)
class ClientHello(Strict):
    """Claim a seat (the first message, and again on every reconnect)."""

    type: Literal["hello"]
    table: Text
    token: Text


class ClientWatch(Strict):
    """Watch a table as a spectator (no token: anyone with the table's id may watch)."""

    type: Literal["watch"]
    table: Text


class ClientArena(Strict):
    """Follow an arena's standings (players and spectators alike): an ``arena`` message now and at each change;
    with the player's arena ``secret``, also an ``arena_game`` message for each game they are paired into (the one
    under way at once), and the connection keeps them present (paired) while it is open."""

    type: Literal["arena"]
    arena: Text
    secret: Text | None = None


class ClientMove(Strict):
    """Play a move given in notation; ``ply`` (the ``ply`` of the last ``state`` seen) refuses a stale click."""

    type: Literal["move"]
    move: Text
    ply: Annotated[int, Field(ge=0)] | None = None


class ClientHint(Strict):
    """Ask the expert for the best moves."""

    type: Literal["hint"]


class ClientChoices(Strict):
    """Ask what a hand card can do with some table cards (the seat to move): the legal moves that take exactly
    ``chosen`` and the table cards that can still be added. Bounded on any table: a client's way to the moves
    when a ``state``'s ``legal`` is a sample (``legal_complete`` false)."""

    type: Literal["choices"]
    card: Text
    chosen: Annotated[list[Text], Field(default_factory=list, max_length=52,
                                        description="table cards (a declaration by any of its cards)")]


class ClientSync(Strict):
    """Ask for ``table`` and ``state`` again."""

    type: Literal["sync"]


class ClientPing(Strict):
    """Keep-alive, answered by ``pong`` with the same ``id``."""

    type: Literal["ping"]
    id: int | None = None


class ClientChat(Strict):
    """Say something to the table (seated players only)."""

    type: Literal["chat"]
    text: Annotated[str, Field(max_length=CHAT_FIELD_MAX,
                               description=f"1..{CHAT_MAX} characters after trimming, no control characters")]


class ClientResign(Strict):
    """Resign the game (seated players): it ends at once and the other side wins."""

    type: Literal["resign"]


class ClientLeave(Strict):
    """Give up your seat: it is free for anyone with the invitation link (the computer plays it meanwhile)."""

    type: Literal["leave"]


class ClientHandOver(Strict):
    """Hand an absent player's seat to the computer (after the table's grace period)."""

    type: Literal["hand_over"]
    seat: Annotated[int, Field(ge=0, le=3, description="the absent player's seat")]


class ClientRematch(Strict):
    """Play again with the same seats, once the game is over (seated players; made once, however often asked)."""

    type: Literal["rematch"]


class ClientClaim(Strict):
    """Claim the game from an absent opponent (their seat away): their side loses, or, if they had not played yet,
    the game is aborted (no result)."""

    type: Literal["claim"]


class ClientBack(Strict):
    """Take your seat back from the computer (it plays for you since your clock ran out)."""

    type: Literal["back"]


ClientMessage = Annotated[ClientHello | ClientWatch | ClientMove | ClientHint | ClientChoices | ClientSync
                          | ClientPing | ClientChat | ClientResign | ClientLeave | ClientHandOver | ClientRematch
                          | ClientBack | ClientClaim | ClientArena,
                          Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_MODELS: dict[str, type[Strict]] = {
    "hello": ClientHello, "watch": ClientWatch, "move": ClientMove, "hint": ClientHint, "choices": ClientChoices,
    "sync": ClientSync, "ping": ClientPing, "chat": ClientChat, "resign": ClientResign, "leave": ClientLeave,
    "hand_over": ClientHandOver, "rematch": ClientRematch, "back": ClientBack, "claim": ClientClaim,
    "arena": ClientArena}


__all__ = ["CLIENT_MESSAGE", "CLIENT_MODELS", "ClientArena", "ClientBack", "ClientChat", "ClientChoices", "ClientClaim",
           "ClientHandOver", "ClientHello", "ClientHint", "ClientLeave", "ClientMessage", "ClientMove", "ClientPing",
           "ClientRematch", "ClientResign", "ClientSync", "ClientWatch"]
