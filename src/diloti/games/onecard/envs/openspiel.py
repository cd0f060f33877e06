"""OpenSpiel games of the one-card games (``python_xeri``, ``python_kontsina``, any HandState game): one hand,
every card dealt a chance node.

:func:`hand_openspiel` makes a game's type and creator from its
:class:`~diloti.games.onecard.envs.HandEnv`; :mod:`diloti.envs.openspiel_game`
registers them with ``pyspiel.register_game``::

    import pyspiel
    import diloti.envs.openspiel_game  # registers python_diloti, python_xeri and python_kontsina
    game = pyspiel.load_game("python_kontsina", {"players": 3, "options": "forced_capture target:31"})

Each is its own game, as OpenSpiel's games are, with its parameters in its
``GameType``: ``players`` (the counts the game seats), ``options`` (the game's
options text, ``:`` for ``=``) and ``dealer``.

- **Chance**: each card dealt is a chance outcome (the card's index 0..51, all
  undealt cards equally likely): the hands, the first table and each later
  deal, from the engine's explicit-chance hand (``HandState.new(...,
  explicit_chance=True)``). A table the rules deal again until it stands
  (Xeri's pile) is dealt once, as one that stands, each card with its
  probability (:mod:`diloti.games.onecard.chance`): the chance tree is finite, every
  hand is 52 chance outcomes, and the piles are drawn as the redeals draw them.
- **Players** act with the game's fixed action ids (:mod:`diloti.games.onecard.envs.actions`):
  52 in Xeri (the card played), 156 in Kontsina (card and kind, then table cards).
- **Returns**: each player's side's points for the hand minus the mean of the other
  sides' (zero sum; partners share).
- **Observations**: the observation tensor is the game's layout
  (:mod:`diloti.games.onecard.envs.observation`) and the observation string the same
  information as text; the information-state tensor adds the cards each seat has
  played (by relative seat), the first table and every move, and the
  information-state string the first table and every move. For each player,
  equal strings go with equal tensors and the other way round. All of it comes
  from ``HandState.view(player)``.
- **Serialisation** and ``pickle`` round-trip a state; :meth:`HandSpielState.resample_from_infostate`
  deals the cards the player cannot see again (for ISMCTS).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar, Protocol

import numpy as np
import numpy.typing as npt
import pyspiel

from diloti.core.phase import Phase
from diloti.core.registry import find_game
from diloti.envs.driver import EnvArgumentError
from diloti.envs.openspiel_base import HISTORY_PLIES, PLY_SIZE, SpielObserver, SpielState, game_type
from diloti.envs.part import EnvPart
from diloti.games.onecard.envs.actions import HandDecision, HandEncoding
from diloti.games.onecard.envs.driver import side_returns
from diloti.games.onecard.envs.observation import HandLayout
from diloti.games.onecard.envs.planes import state_parts
from diloti.games.onecard.state import HandState
from diloti.games.onecard.view import HandView


class HandSpielPart(EnvPart, Protocol):
    """What the OpenSpiel game reads of a one-card game's envs part (:class:`~diloti.games.onecard.envs.HandEnv`)."""

    @property
    def game(self) -> str: ...
    @property
    def encoding(self) -> HandEncoding: ...
    @property
    def layout(self) -> HandLayout: ...
    @property
    def max_steps(self) -> int: ...
    def observe(self, view: Any, head: int = -1, chosen: int = 0,
                out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]: ...
    def describe_view(self, view: Any, head: int = -1, chosen: int = 0) -> str: ...


#: The game class made for each game: pyspiel keeps its creator for the life of the process (a class, not a
#: function: a function pyspiel dropped at exit would be freed without the interpreter, and crash it).
_CLASSES: dict[str, type[HandSpielGame]] = {}


def hand_openspiel(env: HandSpielPart) -> tuple[Any, type[HandSpielGame]]:
    """The ``pyspiel.GameType`` of ``env``'s game (``python_<game>``) and the class of its games (the creator)."""
    cls = _CLASSES.get(env.game)
    if cls is None or cls.ENV is not env:
        players = find_game(env.game).players
        kind = game_type(f"python_{env.game}", f"Python {env.game.capitalize()}", min(players), max(players))
        cls = type(f"{env.game.capitalize()}SpielGame", (HandSpielGame,), {"ENV": env, "TYPE": kind})
        _CLASSES[env.game] = cls
    return cls.TYPE, cls


class HandSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a one-card game for OpenSpiel (see the module's description); :func:`hand_openspiel` makes
    each game's subclass, which names its game (``ENV``) and type."""

    ENV: ClassVar[HandSpielPart]
    TYPE: ClassVar[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        env = self.ENV
        params = dict(params or {})
        players = env.check_players(params.get("players", 2))
        text = str(params.get("options", ""))
        options = env.check_options(text.replace(":", "=") if text else None, players)
        dealer = params.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise EnvArgumentError(f"invalid dealer={dealer!r}: expected 0..{players - 1}")
        info = pyspiel.GameInfo(
            num_distinct_actions=env.num_actions,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=-float(env.max_points),
            max_utility=float(env.max_points),
            utility_sum=0.0,
            max_game_length=env.max_steps,
        )
        # OpenSpiel's game strings cannot hold "=" in a value: "target:31" stands for it.
        params = {"players": players, "options": options.to_text().replace("=", ":"), "dealer": dealer}
        super().__init__(self.TYPE, info, params)
        self.env = env
        self.game = env.game
        self.options = options
        self.dealer = dealer
        self.players = players
        self.info_size = env.size + 5 * 52 + HISTORY_PLIES * PLY_SIZE

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Made again from its string by the registered class: each game's class is made at run time.
        return pyspiel.load_game, (str(self),)

    def new_initial_state(self) -> HandSpielState:
        return HandSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> HandObserver:
        return HandObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class HandSpielState(SpielState):
    """A hand in play: the engine's explicit-chance hand and the move being chosen."""

    def __init__(self, game: HandSpielGame) -> None:
        super().__init__(game)
        self.game_name = game.game
        self.round: HandState = find_game(game.game).state.new(game.players, game.options, game.dealer,
                                                             explicit_chance=True)
        self.decision: HandDecision | None = None

    def _new_decision(self) -> HandDecision:
        return HandDecision(self._env().encoding, self.round.legal_moves())

    def _describe(self, action: int) -> str:
        return self._env().describe(action)

    def _env(self) -> HandSpielPart:
        # Found by name, not kept: the state's attributes are pickled with it, the game's functions are not
        # (its game's class, made when the game was registered with pyspiel, holds its part).
        return _CLASSES[self.game_name].ENV

    def returns(self) -> list[float]:
        s = self.round
        if s.phase != Phase.OVER:
            return [0.0] * s.players
        return side_returns(s.points(), s.players, s.sides)

    def _draw(self, player_id: int, rng: random.Random) -> HandState:
        """The hand with the cards ``player_id`` cannot see dealt again (for :meth:`resample_from_infostate`).

        Nothing the player has seen constrains them (the parent games have no declarations), so every
        deal of the unseen cards into hands of the same sizes is equally likely.
        """
        s = self.round
        pool = [c for seat in range(s.players) if seat != player_id for c in s.hands[seat]] + s.remaining_stock
        rng.shuffle(pool)
        t = s.copy(stack=True)  # the history too: views show it
        hands, pos = [], 0
        for seat, h in enumerate(s.hands):
            if seat == player_id:
                hands.append(list(h))
            else:
                hands.append(sorted(pool[pos:pos + len(h)]))
                pos += len(h)
        t.hands = hands
        t.stock = t.stock[:t.stock_pos] + sorted(pool[pos:])  # undealt cards are kept in card order
        return t


class HandObserver(SpielObserver[HandSpielState, HandView]):
    """Tensors and strings for one player, from its view (OpenSpiel's PyObserver interface).

    ``perfect_recall`` chooses the information state over the observation; with ``private_info``
    NONE the seat's own hand is left out (public observation).
    """

    def __init__(self, game: HandSpielGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        super().__init__(iig_obs_type, params, game.env.size, game.env.layout.planes)
        self.env: HandSpielPart = game.env
        self.layout: HandLayout = game.env.layout

    def _view(self, state: HandSpielState, player: int) -> HandView:
        # Without the legal moves: neither the tensors nor the strings read them.
        view = state.round.view(player, legal=False)
        return view if self.private else replace(view, hand=())

    def _parts(self, state: HandSpielState, player: int) -> tuple[list[int], list[float]]:
        # From the hand itself, without its view's tuples (only the seat's own hand of what it cannot see).
        d = state.decision
        if d is None:
            return state_parts(self.layout, state.round, player, -1, 0, self.private)
        return state_parts(self.layout, state.round, player, d.head, d.chosen, self.private)

    def _observe(self, view: HandView, head: int, chosen: int, out: npt.NDArray[np.float32]) -> None:
        self.env.observe(view, head, chosen, out)

    def _describe_view(self, view: HandView, head: int, chosen: int) -> str:
        return self.env.describe_view(view, head, chosen)


__all__ = ["HandObserver", "HandSpielGame", "HandSpielPart", "HandSpielState", "hand_openspiel"]
