"""House-rule options: one frozen object, passed in, never global.

>>> Options().target
61
>>> opts = Options(forced_capture=True, target=121)
>>> opts.to_dict()["forced_capture"], Options.from_dict({"soy": True}).soy
(True, True)
>>> Options.from_dict({"sooy": True})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
diloti.core.errors.OptionsError: unknown option 'sooy' (known: target, dealer_sees_bottom, ...)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from diloti.core.errors import OptionsError

FACE_REDEAL_CHOICES = ("off", "first_deal", "any_deal")


@dataclass(frozen=True, slots=True)
class Options:
    """Every named option of RULES.md; all off by default.

    Attributes:
        target: points that win the game (61).
        dealer_sees_bottom: the dealer sees the last stock card before dealing.
        face_card_redeal: ``"off"``, ``"first_deal"`` or ``"any_deal"``: a player
            dealt 5 or 6 face cards may demand a redeal.
        three_faces_stay: three equal face cards on the first table stay; the
            fourth of that rank captures all three.
        any_rank_redeal: three or more cards of any rank on the first table
            force the redeal.
        forced_capture: a card that can capture must, leaving nothing it could
            have taken.
        liberal_groups: plain declarations count as single cards inside group
            components.
        liberal_raise: a raise may also take loose cards and plain declarations.
        liberal_capture: plain declarations count as single cards in capture sums.
        soy: a group of exactly two equal numerals cannot be added to.
        self_raise: a player may raise their own plain declaration.
        no_xeri_last_card: the last card of the round scores no xeri.
        xeri_first_card: the first card of the round can score a xeri.
    """

    target: int = 61
    dealer_sees_bottom: bool = False
    face_card_redeal: str = "off"
    three_faces_stay: bool = False
    any_rank_redeal: bool = False
    forced_capture: bool = False
    liberal_groups: bool = False
    liberal_raise: bool = False
    liberal_capture: bool = False
    soy: bool = False
    self_raise: bool = False
    no_xeri_last_card: bool = False
    xeri_first_card: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise OptionsError(f"invalid option target={self.target!r}: expected a positive integer")
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
