"""Random playouts of any game's round, compiled with the core: ``diloti bench``'s loop and a baseline rollout.

A random playout is the cheapest rollout there is and the figure every engine is compared by (``diloti
bench`` prints its actions per second). Here it is a loop over :class:`~diloti.core.round_state.RoundState`'s
own methods, so the compiled core runs it without Python's per-call cost, and its draws are
``rng.choice``'s (:func:`diloti.core.shuffling.choice`): a seed plays the same moves in either core.

>>> import random
>>> from diloti.games.diloti.state import State
>>> s, t = State.new(seed=4), State.new(seed=4)
>>> n = random_playout(s, random.Random(1))
>>> rng = random.Random(1)
>>> while not t.is_over:
...     t.push(rng.choice(t.legal_moves()))
>>> s.history == t.history, n == len(s.history), s.is_over
(True, True, True)
"""

from __future__ import annotations

import random

from diloti.core.round_state import RoundState
from diloti.core.shuffling import choice


def random_playout(state: RoundState, rng: random.Random) -> int:
    """Play uniformly random legal moves (``rng.choice`` of the legal moves) until the round is over; the
    number of moves played. The moves stay on the state (``pop`` takes them back)."""
    n = 0
    while not state.is_over:
        state.push(choice(rng, state.legal_moves()))
        n += 1
    return n


__all__ = ["random_playout"]
