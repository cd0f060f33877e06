"""The phase of a round: who or what acts next.

>>> Phase.DECIDE, Phase.DECIDE.label, Phase.from_label("over")
(<Phase.DECIDE: 1>, 'decide', <Phase.OVER: 2>)
"""

from __future__ import annotations

from enum import IntEnum

from diloti.core.errors import InvalidPositionError


class Phase(IntEnum):
    """``PLAY``: the player to move plays a card. ``DECIDE``: a player dealt 5 or 6 face cards
    decides on a redeal. ``OVER``: the round is over. ``CHANCE``: cards are to be dealt (only in a
    state made with explicit chance; see :attr:`diloti.games.diloti.state.State.chance`)."""

    PLAY = 0
    DECIDE = 1
    OVER = 2
    CHANCE = 3

    @property
    def label(self) -> str:
        """The phase's name in JSON, records and messages: ``play``, ``decide``, ``over``, ``chance``."""
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> Phase:
        try:
            return cls[label.upper()]
        except KeyError:
            names = ", ".join(p.label for p in cls)
            raise InvalidPositionError(f"invalid phase {label!r}: expected one of {names}") from None
