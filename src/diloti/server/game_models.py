"""The games' parts of the protocol's models, made from the games themselves: each game's options as a request
or reply carries them (from its options dataclass: the fields, their ``help``, ``MAXIMUM`` ranges, ``CHOICES``
and defaults), each game's score breakdown of a round (from its side dataclass), and the ``game`` field, checked
against the registry. Strict like every model of :mod:`diloti.server.messages`.

The default game's models keep the names they had when it was the only game (``OptionsBody``, ``SideScore``);
another game's are named for it (``XeriOptionsBody``, ``KontsinaSideScore``).

>>> from diloti.games import find_game
>>> body = options_body(find_game("kontsina"))
>>> body.__name__, body.model_validate({"target": 31}).target
('KontsinaOptionsBody', 31)
>>> body.model_json_schema()["properties"]["target"]["maximum"]
10000
>>> options_body(find_game("diloti")).__name__, side_model(find_game("xeri")).__name__
('OptionsBody', 'XeriSideScore')
>>> GAME_NAME.validate_python("xeri")
'xeri'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import BeforeValidator, Field, GetCoreSchemaHandler, TypeAdapter, ValidationError, create_model
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from diloti.games import DEFAULT_GAME, GAMES, GameInfo
from diloti.server.model_base import Strict


def choices_text(values: list[Any]) -> str:
    """Choices as the protocol's messages list them (``'a', 'b' or 'c'``).

    >>> choices_text(["diloti", "xeri", "kontsina"]), choices_text([2, 4])
    ("'diloti', 'xeri' or 'kontsina'", '2 or 4')
    """
    shown = [repr(v) for v in values]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def known_game(value: Any) -> Any:
    """``value`` if it names a registered game; else the same error a list of the games' names would give."""
    if not isinstance(value, str) or value not in GAMES:
        expected = {"expected": choices_text(list(GAMES))}
        raise PydanticCustomError("literal_error", "Input should be {expected}", expected)
    return value


def _games_enum(schema: dict[str, Any]) -> None:
    schema["enum"] = list(GAMES)  # read when the document is made: every game registered by then


GameName = Annotated[str, BeforeValidator(known_game), Field(json_schema_extra=_games_enum)]
"""A registered game's name (checked against the registry when a value is read)."""
GAME_NAME: TypeAdapter[str] = TypeAdapter(GameName)


def _model_name(info: GameInfo, suffix: str) -> str:
    return f"{info.title}{suffix}" if info.named else suffix  # the default game's as before there were others


def one_of(values: Sequence[Any]) -> Any:
    """``Literal[values...]``, made at run time (a game's seat counts, an option's words).

    >>> one_of((2, 4))
    typing.Literal[2, 4]
    """
    literal: Any = Literal
    return literal[tuple(values)]


_MADE: dict[tuple[type[Any], str], type[Strict]] = {}  # the models made, by the class they are made from


def _options_body(options: type[Any], name: str, title: str, rules: str) -> type[Strict]:
    if (options, name) in _MADE:
        return _MADE[options, name]
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        help = options.help(f.name)
        if f.name in options.MAXIMUM:
            kind: Any = Annotated[int, Field(ge=1, le=options.MAXIMUM[f.name], description=help)]
        elif f.name in options.CHOICES:
            kind = Annotated[one_of(options.CHOICES[f.name]), Field(description=help)]
        else:
            kind = Annotated[bool, Field(description=help)]
        fields[f.name] = (kind, f.default)
    doc = f"{title}'s options ({rules}); any subset. Mirrors :class:`{options.__module__}.{options.__qualname__}`."
    model: type[Strict] = create_model(name, __base__=Strict, __doc__=doc, __module__=__name__, **fields)
    _MADE[options, name] = model
    return model


def options_body(info: GameInfo) -> type[Strict]:
    """The model of a game's options in a request or a reply: any subset, each field as its dataclass says."""
    return _options_body(info.options, _model_name(info, "OptionsBody"), info.title, info.rules)


def _side_model(side: type[Any], name: str) -> type[Strict]:
    if (side, name) not in _MADE:
        fields: dict[str, Any] = {f.name: (int, ...) for f in dataclasses.fields(side)}
        _MADE[side, name] = create_model(name, __base__=Strict, __doc__=side.__doc__, __module__=__name__,
                                         **fields, total=(int, ...))
    return _MADE[side, name]


def side_model(info: GameInfo) -> type[Strict]:
    """The model of one side's score of a round of a game: its score dataclass's fields, and ``total``."""
    if info.side is None:
        raise TypeError(f"game {info.name!r} names no score class (GameInfo.side)")
    return _side_model(info.side, _model_name(info, "SideScore"))


def _union(models: list[type[Strict]]) -> Any:
    return models[0] if len(models) == 1 else Union[tuple(models)]  # noqa: UP007 (a union made at run time)


class OneOf:
    """A field holding one of the registered games' models (their options, their sides' scores): read against
    the games registered when a value is read; described (OpenAPI) by those registered when the models load."""

    def __init__(self, models: Callable[[], list[type[Strict]]]) -> None:
        self.models = models

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        described = handler.generate_schema(_union(self.models()))
        return core_schema.no_info_plain_validator_function(self.validate, json_schema_input_schema=described)

    def validate(self, value: Any) -> Strict:
        models = self.models()
        for model in models:
            try:
                return model.model_validate(value)
            except ValidationError:
                continue
        raise PydanticCustomError("model_type", "one of {models}", {"models": ", ".join(m.__name__ for m in models)})


def _options_bodies() -> list[type[Strict]]:
    return [options_body(g) for g in GAMES.values()]


def _side_models() -> list[type[Strict]]:
    return [side_model(g) for g in GAMES.values() if g.side is not None]


# The games' models in the server's replies.
if TYPE_CHECKING:  # to the type checker they are models; their fields are the games' own
    OptionsBody = Strict
    AnyOptionsBody = Strict
    AnySideScore = Strict
else:
    OptionsBody = options_body(GAMES[DEFAULT_GAME])
    AnyOptionsBody = Annotated[Strict, OneOf(_options_bodies)]
    AnySideScore = Annotated[Strict, OneOf(_side_models)]


def __getattr__(name: str) -> type[Strict]:
    """A game's model by its name (``XeriOptionsBody``, ``KontsinaSideScore``)."""
    for g in GAMES.values():
        if name == _model_name(g, "OptionsBody"):
            return options_body(g)
        if name == _model_name(g, "SideScore") and g.side is not None:
            return side_model(g)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAME_NAME", "AnyOptionsBody", "AnySideScore", "GameName", "OneOf", "OptionsBody", "choices_text",
           "known_game", "one_of", "options_body", "side_model"]
