"""OpenSpiel games ``python_xeri`` and ``python_kontsina``: one hand of a parent game, every card dealt a chance node.

Importing this module (or :mod:`diloti.envs.openspiel_game`, which imports it)
registers both with ``pyspiel.register_game``::

    import pyspiel
    import diloti.envs.openspiel_game  # registers python_diloti, python_xeri and python_kontsina
    game = pyspiel.load_game("python_kontsina", {"players": 3, "options": "forced_capture target:31"})

Each is its own game, as OpenSpiel's games are, with its parameters in its
``GameType``: ``players`` (Xeri 2 or 4, in partnerships with 4; Kontsina 2, 3
or 4), ``options`` (the game's options text, ``:`` for ``=``) and ``dealer``.

- **Chance**: each card dealt is a chance outcome (the card's index 0..51, all
  undealt cards equally likely): the hands, the first table (Xeri's pile,
  bottom card first, dealt again while its rule says so) and each later deal,
  from the engine's explicit-chance hand (``HandState.new(..., explicit_chance=True)``).
- **Players** act with the game's fixed action ids (:mod:`diloti.envs.variant_actions`):
  52 in Xeri (the card played), 156 in Kontsina (card and kind, then table cards).
- **Returns**: each player's side's points for the hand minus the mean of the other
  sides' (zero sum; partners share).
- **Observations**: the observation tensor is the game's layout
  (:mod:`diloti.envs.variant_observation`); the information-state tensor adds the
  cards each seat has played (by relative seat) and the first table. The
  information-state string is the view with the whole public history. All of it
  comes from ``HandState.view(player)``.
- **Serialisation** and ``pickle`` round-trip a state; :meth:`VariantSpielState.resample_from_infostate`
  deals the cards the player cannot see again (for ISMCTS).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
import pyspiel

from diloti.core.hand_state import HandState, HandView
from diloti.core.phase import Phase
from diloti.envs.driver import EnvArgumentError
from diloti.envs.games import EnvGame, find_env_game
from diloti.envs.openspiel_base import HISTORY_PLIES, PLY_SIZE, SpielObserver, SpielState, game_type
from diloti.envs.variant_actions import VariantDecision, describe
from diloti.envs.variant_driver import side_returns
from diloti.envs.variant_observation import describe_variant_view, observe_variant
from diloti.games import find_game

#: The most decision steps in a hand: Xeri, one a card played; Kontsina, a head a card played and at most one
#: item step for each table card (a card named is taken).
MAX_GAME_LENGTH = {"xeri": 48, "kontsina": 48 + 52}


def _game_type(env: EnvGame) -> Any:
    return game_type(f"python_{env.name}", f"Python {env.title}", min(env.players), max(env.players))


class VariantSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a parent game for OpenSpiel; :class:`XeriSpielGame` and :class:`KontsinaSpielGame` name it."""

    GAME: ClassVar[str] = ""
    TYPE: ClassVar[Any] = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        env = find_env_game(self.GAME)
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
            max_game_length=MAX_GAME_LENGTH[self.GAME],
        )
        # OpenSpiel's game strings cannot hold "=" in a value: "target:31" stands for it.
        params = {"players": players, "options": options.to_text().replace("=", ":"), "dealer": dealer}
        super().__init__(self.TYPE, info, params)
        self.env = env
        self.options = options
        self.dealer = dealer
        self.players = players
        self.info_size = env.size + 5 * 52 + HISTORY_PLIES * PLY_SIZE

    def new_initial_state(self) -> VariantSpielState:
        return VariantSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> VariantObserver:
        return VariantObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class XeriSpielGame(VariantSpielGame):
    GAME: ClassVar[str] = "xeri"
    TYPE: ClassVar[Any] = _game_type(find_env_game("xeri"))


class KontsinaSpielGame(VariantSpielGame):
    GAME: ClassVar[str] = "kontsina"
    TYPE: ClassVar[Any] = _game_type(find_env_game("kontsina"))


class VariantSpielState(SpielState):
    """A hand in play: the engine's explicit-chance hand and the move being chosen."""

    def __init__(self, game: VariantSpielGame) -> None:
        super().__init__(game)
        self.game_name = game.GAME
        self.round: HandState = find_game(game.GAME).state.new(game.players, game.options, game.dealer,
                                                            explicit_chance=True)
        self.decision: VariantDecision | None = None

    def _new_decision(self) -> VariantDecision:
        return VariantDecision(self.game_name, self.round.legal_moves())

    def _describe(self, action: int) -> str:
        return describe(self.game_name, action)

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


class VariantObserver(SpielObserver[VariantSpielState, HandView]):
    """Tensors and strings for one player, from its view (OpenSpiel's PyObserver interface).

    ``perfect_recall`` chooses the information state over the observation; with ``private_info``
    NONE the seat's own hand is left out (public observation).
    """

    def __init__(self, game: VariantSpielGame, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        super().__init__(iig_obs_type, params, game.env.size)

    def _view(self, state: VariantSpielState, player: int) -> HandView:
        view = state.round.view(player)
        return view if self.private else replace(view, hand=(), legal=())

    def _observe(self, view: HandView, head: int, chosen: int, out: npt.NDArray[np.float32]) -> None:
        observe_variant(view, head, chosen, out=out)

    def _describe_view(self, view: HandView, head: int, chosen: int) -> str:
        return describe_variant_view(view, head, chosen)


SHORT_NAMES = {"xeri": "python_xeri", "kontsina": "python_kontsina"}
pyspiel.register_game(XeriSpielGame.TYPE, XeriSpielGame)
pyspiel.register_game(KontsinaSpielGame.TYPE, KontsinaSpielGame)

__all__ = ["MAX_GAME_LENGTH", "SHORT_NAMES", "KontsinaSpielGame", "VariantObserver", "VariantSpielGame",
           "VariantSpielState", "XeriSpielGame"]
