"""House-rule options: one frozen object, passed in, never global.

Each option's meaning is written once, in its field's ``help`` (read with
:meth:`Options.help`): the command-line flags and this class's docstring
are made from it. Options as text, in game records and compact positions,
have one writer (:meth:`Options.to_text`) and one reader
(:meth:`Options.from_text`).

>>> Options().target
61
>>> opts = Options(forced_capture=True, target=121)
>>> opts.to_dict()["forced_capture"], Options.from_dict({"soy": True}).soy
(True, True)
>>> Options.from_dict({"sooy": True})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
diloti.core.errors.OptionsError: unknown option 'sooy' (known: target, dealer_sees_bottom, ...)
>>> opts.to_text()
'target=121 forced_capture'
>>> Options.from_text("target=121 forced_capture=true soy=false") == opts
True
>>> Options.help("soy")
'a group of exactly two equal numerals cannot be added to'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from diloti.core.errors import OptionsError
from diloti.core.rule_options import MAX_TARGET

FACE_REDEAL_CHOICES = ("off", "first_deal", "any_deal")

# Words that write a flag's value in options text (``soy=true``); a flag alone means on.
_TRUE = ("true", "on", "yes")
_FALSE = ("false", "off", "no")

# A game to more points than this would not end in an evening (the browser form has the same bound).


def _option(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True, slots=True)
class Options:
    """Every named option of RULES.md ("Named options"); all off by default."""

    HELP_NOTE: ClassVar[str] = "all off by default"  # the command line's options group says so
    # The ranges and choices of the options that are not flags, as every game's options say them (the command
    # line's flags and the server's request models are made from them).
    MAXIMUM: ClassVar[dict[str, int]] = {"target": MAX_TARGET}
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"face_card_redeal": FACE_REDEAL_CHOICES}  # options of a word

    target: int = _option(61, "points that win the game")
    dealer_sees_bottom: bool = _option(False, "the dealer sees the last stock card before dealing")
    face_card_redeal: str = _option(
        "off", "a player dealt 5 or 6 face cards may demand a redeal: off, in the first deal (first_deal), "
               "or in any deal (any_deal)")
    three_faces_stay: bool = _option(
        False, "three equal face cards on the first table stay; the fourth captures all three")
    any_rank_redeal: bool = _option(False, "three or more cards of any rank on the first table force a redeal")
    forced_capture: bool = _option(False, "a card that can capture must, leaving nothing it could have taken")
    liberal_groups: bool = _option(False, "plain declarations count as single cards inside group components")
    liberal_raise: bool = _option(False, "a raise may also take loose cards and plain declarations")
    liberal_capture: bool = _option(False, "plain declarations count as single cards in capture sums")
    soy: bool = _option(False, "a group of exactly two equal numerals cannot be added to")
    self_raise: bool = _option(False, "a player may raise their own plain declaration")
    no_xeri_last_card: bool = _option(False, "the last card of the round scores no xeri")
    xeri_first_card: bool = _option(False, "the first card of the round can score a xeri")

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or not 1 <= self.target <= MAX_TARGET:
            raise OptionsError(f"invalid option target={self.target!r:.40}: expected 1..{MAX_TARGET}")
        if self.face_card_redeal not in FACE_REDEAL_CHOICES:
            raise OptionsError(
                f"invalid option face_card_redeal={self.face_card_redeal!r}: "
                f"expected one of {', '.join(FACE_REDEAL_CHOICES)}"
            )
        for f in dataclasses.fields(self):
            if f.name not in ("target", "face_card_redeal"):
                v = getattr(self, f.name)
                if not isinstance(v, bool):
                    raise OptionsError(f"invalid option {f.name}={v!r}: expected true or false")

    @property
    def key(self) -> tuple[bool, ...]:
        """The options that change which moves exist (used to key caches)."""
        return (
            self.three_faces_stay, self.forced_capture, self.liberal_groups,
            self.liberal_raise, self.liberal_capture, self.soy, self.self_raise,
        )

    def to_dict(self) -> dict[str, Any]:
        """All options as a JSON-ready dict (the interchange keys)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults."""
        default = Options()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Options:
        """Build from a mapping; a missing key takes its default."""
        if not isinstance(data, Mapping):
            raise OptionsError(f"invalid options {data!r}: expected an object")
        names = [f.name for f in dataclasses.fields(cls)]
        for k in data:
            if k not in names:
                raise OptionsError(f"unknown option {k!r} (known: {', '.join(names)})")
        try:
            return cls(**dict(data))
        except TypeError as exc:  # pragma: no cover - guarded above
            raise OptionsError(str(exc)) from None

    def replace(self, **changes: Any) -> Options:
        return dataclasses.replace(self, **changes)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def flags(cls) -> list[str]:
        """The on/off options (every option but ``target`` and ``face_card_redeal``).

        >>> Options.flags()[:2]
        ['dealer_sees_bottom', 'three_faces_stay']
        """
        return [n for n in cls.names() if n not in ("target", "face_card_redeal")]

    @classmethod
    def help(cls, name: str) -> str:
        """What option ``name`` does, in a few words (the one place it is written).

        >>> Options.help("target")
        'points that win the game'
        """
        for f in dataclasses.fields(cls):
            if f.name == name:
                return str(f.metadata["help"])
        raise OptionsError(f"unknown option {name!r} (known: {', '.join(cls.names())})")

    def to_text(self) -> str:
        """The options that differ from the defaults as words: a flag alone, others ``name=value``.

        This is the ``[Options "..."]`` header of a game record and the options
        words of a compact position.

        >>> Options(soy=True, face_card_redeal="any_deal").to_text()
        'face_card_redeal=any_deal soy'
        >>> Options().to_text()
        ''
        """
        return " ".join(k if v is True else f"{k}={v}" for k, v in self.changed().items())

    @classmethod
    def from_text(cls, text: str) -> Options:
        """Read :meth:`to_text` back; a flag may also be written ``name=true`` or ``name=false``.

        >>> Options.from_text("target=121 soy face_card_redeal=any_deal").changed()
        {'target': 121, 'face_card_redeal': 'any_deal', 'soy': True}
        >>> Options.from_text("soy=maybe")
        Traceback (most recent call last):
        ...
        diloti.core.errors.OptionsError: invalid option 'soy=maybe': expected soy, soy=true or soy=false
        """
        return cls.from_dict(dict(cls.read_word(word) for word in text.split()))

    @classmethod
    def read_word(cls, word: str) -> tuple[str, Any]:
        """One word of options text as ``(name, value)`` (for readers that mix in words of their own).

        >>> Options.read_word("target=121"), Options.read_word("soy"), Options.read_word("soy=false")
        (('target', 121), ('soy', True), ('soy', False))
        """
        key, eq, val = word.partition("=")
        if key not in cls.names():
            raise OptionsError(f"unknown option {key!r} (known: {', '.join(cls.names())})")
        if key == "target":
            if not val.isdigit():
                raise OptionsError(f"invalid option {word!r}: expected target=N, a positive integer")
            return key, int(val)
        if key == "face_card_redeal":
            if val not in FACE_REDEAL_CHOICES:
                raise OptionsError(f"invalid option {word!r}: expected {key}= one of {', '.join(FACE_REDEAL_CHOICES)}")
            return key, val
        if not eq or val.lower() in _TRUE:
            return key, True
        if val.lower() in _FALSE:
            return key, False
        raise OptionsError(f"invalid option {word!r}: expected {key}, {key}=true or {key}=false")


# The class's docstring lists every option from the one place each is described.
Options.__doc__ = (Options.__doc__ or "") + "\n\n    Attributes:\n" + "".join(
    f"        {f.name}: {f.metadata['help']} (default {f.default!r}).\n" for f in dataclasses.fields(Options))
