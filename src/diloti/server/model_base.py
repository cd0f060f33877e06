"""The base of the protocol's models (:mod:`diloti.server.messages`, :mod:`diloti.server.game_models`,
:mod:`diloti.server.player_models`): strict models, the limits of text fields, integers only."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

FIELD_MAX = 200  # characters of any text field a client sends
NAME_MAX = 24  # characters of a player's name, after trimming
CHAT_MAX = 200  # characters of a chat line, after trimming
CHAT_FIELD_MAX = 2 * CHAT_MAX  # characters of the chat text as sent (trimmed to at most CHAT_MAX)
SEED_MAX = 2**63 - 1
GRACE_MAX = 3600  # the longest grace period of a table, in seconds

Text = Annotated[str, Field(max_length=FIELD_MAX)]
Card = Annotated[str, Field(max_length=3, examples=["10D"])]


def _int_only(value: Any) -> Any:
    # A choice of numbers (``Literal[2, 4]``) would take 4.0 or True; an integer is asked for.
    if type(value) is not int:
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


class Strict(BaseModel):
    """The base of every model: unknown fields refused, no coercion, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
