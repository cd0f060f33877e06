"""The ``learned`` level: a small neural network's policy, no search at move time (issue 53).

The network (:mod:`diloti.ai.learned.network`) scores each legal move from the seat's view
(:mod:`diloti.ai.learned.features`); the player plays the best-scored move (``temperature=0``, the default; with
a ``margin``, the heuristic's best move unless another scores that much above it) or
draws one from the softmax of the scores at ``temperature`` with a generator drawn from its seed and the public
position. Either way its move follows from its seed and its view alone. It was trained by expert iteration
(:mod:`diloti.ai.learned.train`): positions from self-play, labelled with the master's search, learned by
imitation; docs/RESEARCH.md, *The learned player*, gives the recipe, its cost and its strength.

It needs numpy (the ``learned`` extra), never torch: without numpy the level is not offered
(:func:`available`). It claims the games and player counts its weights were trained for (Diloti, 2 players)
and refuses a view of any other with :class:`UnclaimedGameError`; :func:`claims` asks ahead.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> player = LearnedPlayer(seed=1)
>>> player.choose(s.view(s.turn)) in s.legal_moves()
True
"""

from __future__ import annotations

import importlib.util
import math
from typing import TYPE_CHECKING, Any

from diloti.ai.errors import InvalidSettingError, NoMoveError, PlayerError
from diloti.ai.games import players_part
from diloti.core.moves import Move

if TYPE_CHECKING:
    from diloti.ai.learned.network import Network


class UnclaimedGameError(PlayerError):
    """A view of a game or player count the learned player's weights were not trained for."""


def available() -> bool:
    """Whether the level can run here: numpy importable (the ``learned`` extra)."""
    return importlib.util.find_spec("numpy") is not None


def claims(game: str, players: int, weights: str | None = None) -> bool:
    """Whether the learned player (with ``weights``, default the shipped ones) plays ``game`` with ``players``.

    >>> claims("diloti", 2), claims("diloti", 4), claims("xeri", 2)
    (True, False, False)
    """
    from diloti.ai.learned.network import load_weights

    return load_weights(weights).claims(game, players)


def _nonnegative(name: str, value: Any) -> float:
    """The setting ``name`` as a finite number, 0 or more, else InvalidSettingError naming it.

    >>> _nonnegative("margin", "1.5")
    1.5
    """
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InvalidSettingError(name, value, "a number, 0 or more") from None
    if not number >= 0 or math.isinf(number):
        raise InvalidSettingError(name, value, "a number, 0 or more")
    return number


class LearnedPlayer:
    """The learned policy from the seat's view: ``temperature`` 0 (default) plays its best move, above 0 draws
    from the softmax of its scores divided by ``temperature`` (seeded); ``weights`` a weights file (default:
    the shipped one); ``margin`` (at temperature 0; default the weights' own, ``meta["margin"]``, else 0) how far
    above the heuristic's best move the network must score another move to play it instead."""

    name = "learned"

    def __init__(self, seed: int | None = None, temperature: float = 0.0, weights: str | None = None,
                 margin: float | None = None) -> None:
        from diloti.ai.learned.network import load_weights

        self.seed = seed
        self.temperature = _nonnegative("temperature", temperature)
        self.network: Network = load_weights(weights)
        self.margin = _nonnegative("margin", self.network.meta.get("margin", 0.0) if margin is None else margin)

    @staticmethod
    def plays(game: str, players: int) -> bool:
        """Whether the shipped weights claim ``game`` with ``players`` (what a table asks before seating the level)."""
        return claims(game, players)

    def choose(self, view: Any) -> Move:
        legal: tuple[Move, ...] = view.legal
        if not legal:
            raise NoMoveError(view)
        net = self.network
        if not net.claims(view.game, view.players):
            raise UnclaimedGameError(f"the learned level plays {net.meta['game']} with "
                                     f"{' or '.join(map(str, net.meta['players']))} players (what its network was "
                                     f"trained for), not {view.game} with {view.players}", view)
        part = players_part(view)
        ruled = part.ruled_move(view)
        if ruled is not None:
            return ruled
        if len(legal) == 1:
            return legal[0]
        return legal[self.pick(view, part)]

    def pick(self, view: Any, part: Any = None) -> int:
        """The index in ``view.legal`` of the move the policy plays."""
        from diloti.ai.learned.features import MOVE, move_features, position_features

        moves = move_features(view)
        scores = self.network.scores(position_features(view), moves)
        if self.temperature == 0:
            best = int(scores.argmax())  # ties: the first in the legal list, which is the game's fixed order
            if self.margin > 0:
                # Leave the heuristic's best move only for a move the network scores ``margin`` above it: where
                # the two nearly agree, the network's preference is mostly its noise.
                usual = int(moves[:, MOVE["heuristic"].start].argmax())
                if scores[best] - scores[usual] < self.margin:
                    return usual
            return best
        z = scores.astype(float) / self.temperature
        z -= z.max()
        weights = [math.exp(x) for x in z]
        rng = (part or players_part(view)).move_rng(self.seed, view, self.name)
        return rng.choices(range(len(weights)), weights=weights)[0]


__all__ = ["LearnedPlayer", "UnclaimedGameError", "available", "claims"]
