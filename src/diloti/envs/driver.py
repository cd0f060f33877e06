"""What every environment checks of its arguments, and the errors it raises: the same for every game.

The errors name the argument and the reason; each game's own checks (its player
counts, its options) come from its envs part (:mod:`diloti.envs.games`).

>>> check_seat("dealer", 3, 4), check_seat("seat", None, 2)
(3, None)
>>> check_seat("dealer", 4, 4)
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid dealer=4: expected None (drawn each round) or 0..3
"""

from __future__ import annotations

import random

from diloti.core.errors import DilotiError


class EnvArgumentError(DilotiError, ValueError):
    """An environment was given a bad argument (the message names it)."""


class RenderModeError(EnvArgumentError, TypeError):
    """A render mode the environment does not offer.

    Also a ``TypeError``: tools that try a render mode and fall back without it when it is not taken
    (Stable-Baselines3's ``make_vec_env`` asks for ``"rgb_array"``) catch that, as for any environment
    whose constructor has no such argument.
    """


def check_seat(name: str, seat: object, players: int) -> int | None:
    """A seat argument (``dealer``, ``seat``): None (drawn each round) or 0..players-1."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise EnvArgumentError(f"invalid {name}={seat!r}: expected None (drawn each round) or 0..{players - 1}")
    return seat


def check_render_mode(render_mode: object, modes: list[str]) -> str | None:
    if render_mode is not None and render_mode not in modes:
        raise RenderModeError(f"invalid render_mode={render_mode!r}: expected None or one of {', '.join(modes)}")
    return render_mode


#: The episodes an environment can play: one round (or hand), or a whole game (rounds to the target).
EPISODES = ("round", "game")


def round_seed(rng: random.Random) -> int:
    """The seed of the next round drawn from an environment's generator."""
    return rng.getrandbits(62)


__all__ = ["EPISODES", "EnvArgumentError", "RenderModeError", "check_render_mode", "check_seat", "round_seed"]
