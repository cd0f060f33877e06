"""OpenSpiel game ``python_mini_diloti``: mini Diloti (:mod:`diloti.games.diloti.mini`), small enough for
OpenSpiel's exact algorithms. Importing this module registers it::

    import pyspiel
    import diloti.games.diloti.envs.mini  # registers python_mini_diloti
    game = pyspiel.load_game("python_mini_diloti")                      # AC AD 2C 2D 3C 3D, hands of 2, table 1
    game = pyspiel.load_game("python_mini_diloti", {"deck": "AC AD 2C 2D 3C 3D 4C 4D", "table": 2})

Parameters: ``players`` (2, the only count), ``options`` (as ``python_diloti``'s: options text, ``:`` for
``=``; the dealing options are refused), ``dealer``, and the deal: ``deck`` (its cards, by name), ``hand``
(cards a hand) and ``table`` (cards on the first table). Everything else is ``python_diloti``'s: the 559
action ids, the 744-float observation (its ``unseen`` plane holds only the deck's cards) and the
information state built on it, returns the point difference. Chance deals each hand and then the table
in increasing card order (one chance path a hand: :mod:`diloti.games.diloti.mini`), so the tree is
small: with the default deal, 180 deals.

>>> game = pyspiel.load_game(SHORT_NAME)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), game.max_game_length()
(True, 5, 18)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from diloti.core.errors import DilotiError
from diloti.envs.driver import EnvArgumentError
from diloti.envs.openspiel_base import game_type
from diloti.games.diloti.envs.actions import NUM_ACTIONS, Decision
from diloti.games.diloti.envs.large import decision_of
from diloti.games.diloti.envs.observation import LAYOUT, observe
from diloti.games.diloti.envs.openspiel import DilotiObserver, DilotiState
from diloti.games.diloti.mini import MINI, Deal, MiniRound, MiniView, check_mini_options
from diloti.games.diloti.options import Options
from diloti.games.diloti.players.sampler import Worlds
from diloti.games.diloti.scoring import score_sides

SHORT_NAME = "python_mini_diloti"
_DEFAULTS = {"deck": " ".join(str(c) for c in MINI.cards), "hand": MINI.hand, "table": MINI.table}
_GAME_TYPE = game_type(SHORT_NAME, "Python Mini Diloti", 2, 2, extra=_DEFAULTS)
_UNSEEN = LAYOUT["unseen"]


def _max_points(deal: Deal) -> int:
    """The most a side can score in a round of ``deal``: its cards' points and a xeri on each of its plays."""
    return score_sides([deal.mask, 0], [deal.hand, 0])[0].total


class MiniDilotiGame(pyspiel.Game):  # type: ignore[misc]
    """One round of mini Diloti for OpenSpiel (see the module's description)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        players = params.get("players", 2)
        if players != 2:
            raise EnvArgumentError(f"invalid players={players!r}: expected 2 (mini Diloti is for two)")
        text = params.get("options", "")
        try:
            options = check_mini_options(Options.from_text(str(text).replace(":", "=")))
        except DilotiError as exc:
            raise EnvArgumentError(f"invalid options={text!r}: {exc}") from None
        dealer = params.get("dealer", 0)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise EnvArgumentError(f"invalid dealer={dealer!r}: expected 0..{players - 1}")
        try:
            deal = Deal.parse(str(params["deck"]), params["hand"], params["table"])
        except DilotiError as exc:
            raise EnvArgumentError(f"invalid deal deck={params['deck']!r} hand={params['hand']!r} "
                                   f"table={params['table']!r}: {exc}") from None
        points = float(_max_points(deal))
        n = len(deal.cards)
        plays = players * deal.hand
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=-points,
            max_utility=points,
            utility_sum=0.0,
            # A head a play; an item step names a card once (a loose card, or a declaration by its lowest card,
            # at most once a move), hence at most the deck's cards plus a declaration a play; a stop a play.
            max_game_length=plays + (n + plays) + plays,
        )
        params = {"players": players, "options": options.to_text().replace("=", ":"), "dealer": dealer,
                  "deck": " ".join(str(c) for c in deal.cards), "hand": deal.hand, "table": deal.table}
        super().__init__(_GAME_TYPE, info, params)
        self.options = options
        self.dealer = dealer
        self.players = players
        self.episode = "round"
        self.deal = deal

    def new_initial_state(self) -> MiniDilotiState:
        return MiniDilotiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> MiniObserver:
        return MiniObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class MiniDilotiState(DilotiState):
    """A mini round in play: the deal as chance nodes, then Diloti's round and the move being chosen."""

    def __init__(self, game: MiniDilotiGame) -> None:
        pyspiel.State.__init__(self, game)
        # A MiniRound, which reads as Diloti's State once dealt (and deals its cards before).
        self.round: MiniRound = MiniRound.new(  # type: ignore[assignment]
            game.players, game.options, game.dealer, seed=0, deal=game.deal, explicit_chance=True)
        self.decision: Decision | None = None

    def _new_decision(self) -> Decision:
        return decision_of(self.round._dealt_round())

    def _draw(self, player_id: int, rng: random.Random) -> MiniRound:  # type: ignore[override]  # as round
        """The round with the cards ``player_id`` cannot see (the other hand, the cards set aside) dealt again,
        the other's declaration backed by a card of its value (:class:`~diloti.games.diloti.players.sampler.Worlds`)."""
        hands, _ = Worlds(self.round.view(player_id)).deal(rng)
        t = self.round.copy(stack=True)
        inner = t._dealt_round()
        inner.hands = [list(h) if seat == player_id else sorted(hands[seat]) for seat, h in enumerate(inner.hands)]
        return t


class MiniObserver(DilotiObserver):
    """``python_diloti``'s observer on a mini round: its ``unseen`` plane keeps to the deck's cards."""

    def _view(self, state: DilotiState, player: int) -> MiniView:
        view = super()._view(state, player)
        assert isinstance(view, MiniView)
        return view

    def _observe(self, view: Any, head: int, chosen: int, out: npt.NDArray[np.float32]) -> None:
        observe(view, head, chosen, out=out)
        deck = view.deck
        plane = out[_UNSEEN]
        plane *= np.array([deck >> c & 1 for c in range(52)], dtype=np.float32)


def openspiel() -> tuple[Any, type[MiniDilotiGame]]:
    """The game type and class of ``python_mini_diloti``."""
    return _GAME_TYPE, MiniDilotiGame


def register() -> str:
    """Register ``python_mini_diloti`` with OpenSpiel (once); its short name."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, MiniDilotiGame)
    return SHORT_NAME


register()

__all__ = ["SHORT_NAME", "MiniDilotiGame", "MiniDilotiState", "MiniObserver", "openspiel", "register"]
