"""An outside player, as someone else's package would write one (used by tests/test_ai.py)."""

from __future__ import annotations

from typing import Any


class LastMove:
    """Plays the last legal move; ``bias`` is a setting it accepts, to show settings reach it."""

    def __init__(self, seed: int | None = None, bias: int = 0) -> None:
        self.seed = seed
        self.bias = bias

    def choose(self, view: Any) -> Any:
        return view.legal[-1 - self.bias % len(view.legal)]
