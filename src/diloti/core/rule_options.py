"""The frozen options of a game: their text and dict forms, ranges and one-line help, written once.

A game's options are a frozen dataclass built on :class:`RuleOptions` with :func:`option` fields:
flags (bool) and positive numbers (int, ranged by ``MAXIMUM``).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Toy(RuleOptions):
...     GAME = "toy"
...     MAXIMUM = {"target": 99}
...     target: int = option(11, "points to win")
...     sweep_bonus: bool = option(False, "a sweep scores one")
>>> Toy.from_text("target=21 sweep_bonus").to_dict()
{'target': 21, 'sweep_bonus': True}
>>> Toy(target=21).to_text()
'target=21'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import field
from typing import Any, ClassVar, TypeVar

from diloti.core.errors import OptionsError

MAX_TARGET = 10_000  # the largest target score any game takes (a whole game is a bounded thing)

_TRUE = ("true", "on", "yes")
_FALSE = ("false", "off", "no")

Opt = TypeVar("Opt", bound="RuleOptions")


def option(default: Any, help: str) -> Any:
    """A field of a game's options with its one-line meaning (read by :meth:`RuleOptions.help`)."""
    return field(default=default, metadata={"help": help})


class RuleOptions:
    """The text and dict forms of a game's frozen options (the one-card games' option classes are these).

    Every field is a flag (bool) or a positive number (int); the dataclass checks its ranges
    in ``__post_init__`` (inherited from here) by :meth:`check_numbers`.
    """

    __slots__ = ()
    GAME: ClassVar[str] = ""
    MAXIMUM: ClassVar[dict[str, int]] = {}
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}  # options that take one of some words (none here: flags)

    def __post_init__(self) -> None:
        self.check_numbers()

    def check_numbers(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if f.name in self.MAXIMUM:
                hi = self.MAXIMUM[f.name]
                if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= hi:
                    raise OptionsError(f"invalid {self.GAME} option {f.name}={v!r:.40}: expected 1..{hi}")
            elif not isinstance(v, bool):
                raise OptionsError(f"invalid {self.GAME} option {f.name}={v!r:.40}: expected true or false")

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    @classmethod
    def flags(cls) -> list[str]:
        """The on/off options."""
        return [n for n in cls.names() if n not in cls.MAXIMUM]

    @classmethod
    def help(cls, name: str) -> str:
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name == name:
                return str(f.metadata["help"])
        raise OptionsError(f"unknown {cls.GAME} option {name!r} (known: {', '.join(cls.names())})")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    @classmethod
    def from_dict(cls: type[Opt], data: Mapping[str, Any]) -> Opt:
        if not isinstance(data, Mapping):
            raise OptionsError(f"invalid options {data!r}: expected an object")
        for k in data:
            if k not in cls.names():
                raise OptionsError(f"unknown {cls.GAME} option {k!r} (known: {', '.join(cls.names())})")
        return cls(**dict(data))

    def replace(self: Opt, **changes: Any) -> Opt:
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]

    def to_text(self) -> str:
        """The options that differ from the defaults as words: a flag alone, a number ``name=value``."""
        return " ".join(k if v is True else f"{k}={v}" for k, v in self.changed().items())

    @classmethod
    def from_text(cls: type[Opt], text: str) -> Opt:
        return cls.from_dict(dict(cls.read_word(w) for w in text.split()))

    @classmethod
    def read_word(cls, word: str) -> tuple[str, Any]:
        key, eq, val = word.partition("=")
        if key not in cls.names():
            raise OptionsError(f"unknown {cls.GAME} option {key!r} (known: {', '.join(cls.names())})")
        if key in cls.MAXIMUM:
            if not val.isdigit():
                raise OptionsError(f"invalid option {word!r}: expected {key}=N, a positive integer")
            return key, int(val)
        if not eq or val.lower() in _TRUE:
            return key, True
        if val.lower() in _FALSE:
            return key, False
        raise OptionsError(f"invalid option {word!r}: expected {key}, {key}=true or {key}=false")


__all__ = ["MAX_TARGET", "RuleOptions", "option"]
