"""OpenSpiel game ``python_diloti``: one round, imperfect information, every deal a chance node.

Diloti's envs part gives it to :mod:`diloti.envs.openspiel_game`, which registers it with
``pyspiel.register_game`` (with every other registered game's)::

    import pyspiel
    import diloti.envs.openspiel_game  # registers python_diloti, python_xeri, python_kontsina
    game = pyspiel.load_game("python_diloti", {"players": 2, "options": "liberal_groups soy"})
    state = game.new_initial_state()

Parameters: ``players`` (2 or 4), ``options`` (options text as in records, with
``:`` for ``=`` since OpenSpiel's game strings cannot hold it, e.g.
``"target:121 soy"``; empty for the standard rules), ``dealer`` (0..players-1) and
``episode``: ``"round"`` (the default) or ``"game"``, rounds to the target with the
dealer passing on, the scores in the observation and strings, returns +1 and -1.

- **Chance**: the round starts at a chance node; each card dealt is one chance
  outcome (action = the card's index 0..51, all undealt cards equally likely
  except on the first table): the bottom card the dealer sees (with
  ``dealer_sees_bottom``), the hands, the first table (each card weighted by the
  standing tables it can end in, so that only a table that stands is dealt:
  the distribution of "redeal until it stands", with a finite chance tree), each
  later deal and every face-card redeal. The engine's explicit-chance states
  (``State.new(..., explicit_chance=True)``) supply the events.
- **Players** act with the fixed action ids of :mod:`diloti.games.diloti.envs.actions`
  (559 distinct actions); a player choosing table items acts several times in a row.
- **Returns**, at the end: each player's side's points minus the other side's (zero sum;
  partners share), between -251 and 251.
- **Observations** (:func:`make_py_observer`): the observation tensor is the
  744-float layout of :mod:`diloti.games.diloti.envs.observation`; the information-state
  tensor adds the cards each seat has played this round (by relative seat),
  the first table and every move of the round in order (9,004 floats). The information-state string is the seat's
  view with the whole public history of moves, which with the current hand fixes
  every hand the seat was dealt (perfect recall, except the hand given back in
  a face-card redeal); the observation string is the view alone. All of it is
  built from ``State.view(player)``.
- **Serialisation**: ``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state``
  and ``pickle`` round-trip a state; :meth:`DilotiState.resample_from_infostate`
  deals the cards the player cannot see again (for ISMCTS).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from diloti.core.errors import DilotiError
from diloti.core.phase import Phase
from diloti.envs.driver import EPISODES, EnvArgumentError
from diloti.envs.openspiel_base import HISTORY_PLIES, PLY_SIZE, SpielObserver, SpielState, game_type
from diloti.games.diloti.envs.actions import NUM_ACTIONS, Decision, describe
from diloti.games.diloti.envs.large import decision_of
from diloti.games.diloti.envs.observation import MAX_ROUND_POINTS, SIZE, describe_view, observe
from diloti.games.diloti.envs.planes import PLANES, state_parts
from diloti.games.diloti.options import Options
from diloti.games.diloti.players.sampler import Worlds
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View

SHORT_NAME = "python_diloti"
#: The most decision steps in a round (chance nodes not counted): a head for each of the 48 cards played;
#: an item step names a loose card at most once in a round (once named, it is taken or inside a
#: declaration) and a declaration at most once (named, it is taken or built into the move's own
#: declaration, and a move makes at most one), so at most 52 + 48 item steps; a stop at most once a move
#: (48); and the face-card redeal decisions of four deals (16; only a chain of redeals under
#: ``face_card_redeal=any_deal`` could go beyond). Random play uses far fewer: docs/RESEARCH.md.
MAX_GAME_LENGTH = 48 + (52 + 48) + 48 + 4 * 4
#: The information-state tensor: the observation, then cards played by each relative seat, the first table,
#: and every move of the round in order (:data:`~diloti.envs.openspiel_base.PLY_SIZE` floats a move).
INFO_SIZE = SIZE + 4 * 52 + 52 + HISTORY_PLIES * PLY_SIZE

_GAME_TYPE = game_type(SHORT_NAME, "Python Diloti", 2, 4, episodes=True)


class DilotiGame(pyspiel.Game):  # type: ignore[misc]
    """One round of Diloti for OpenSpiel (see the module's description)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.get("players", 2)
        if players not in (2, 4):
            raise EnvArgumentError(f"invalid players={players!r}: expected 2 or 4")
        text = params.get("options", "")
        try:
            options = Options.from_text(str(text).replace(":", "="))
        except DilotiError as exc:
            raise EnvArgumentError(f"invalid options={text!r}: {exc}") from None
        dealer = params.get("dealer", 0)
        if not isinstance(dealer, int) or not 0 <= dealer < players:
            raise EnvArgumentError(f"invalid dealer={dealer!r}: expected 0..{players - 1}")
        episode = params.get("episode", "round")
        if episode not in EPISODES:
            raise EnvArgumentError(f"invalid episode={episode!r}: expected 'round' or 'game'")
        # A whole game: rounds to the target. A round gives out at least 7 points, so the leader reaches the
        # target within 2 * target / 7 rounds but for ties at the top; 4 more rounds cover any likely tie.
        rounds = 1 if episode == "round" else -(-2 * options.target // 7) + 4
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=-float(MAX_ROUND_POINTS) if episode == "round" else -1.0,
            max_utility=float(MAX_ROUND_POINTS) if episode == "round" else 1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH * rounds,
        )
        # OpenSpiel's game strings cannot hold "=" in a value: "face_card_redeal:any_deal" stands for it.
        params = {"players": players, "options": options.to_text().replace("=", ":"), "dealer": dealer,
                  "episode": episode}
        super().__init__(_GAME_TYPE, info, params)
        self.options = options
        self.dealer = dealer
        self.players = players
        self.episode = episode

    def new_initial_state(self) -> DilotiState:
        return DilotiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> DilotiObserver:
        return DilotiObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class DilotiState(SpielState):
    """A round in play: the engine's explicit-chance state and the move being chosen."""

    # OpenSpiel's clone() makes a new state and deep-copies each attribute of the old one (a tuple's deep copy
    # alone takes microseconds): these are class defaults, written on a state only once they differ.
    whole_game: bool = False
    #: The game's scores before the round in play (side 0, side 1), and the winning side once it is over.
    scores: tuple[int, int] = (0, 0)
    winner: int | None = None

    def __init__(self, game: DilotiGame) -> None:
        super().__init__(game)
        self.round: State = State.new(game.players, game.options, game.dealer, seed=0, explicit_chance=True)
        self.decision: Decision | None = None
        if game.episode == "game":
            self.whole_game = True

    def _round_over(self) -> None:
        s = self.round
        if self.whole_game:
            a, b = s.points()
            self.scores = (self.scores[0] + a, self.scores[1] + b)
            if max(self.scores) >= s.options.target and self.scores[0] != self.scores[1]:
                self.winner = 0 if self.scores[0] > self.scores[1] else 1
            else:  # the next round, dealt by the next seat (its deal starts at a chance node)
                self.round = State.new(s.players, s.options, (s.dealer + 1) % s.players, seed=0,
                                       explicit_chance=True)

    def _new_decision(self) -> Decision:
        return decision_of(self.round)  # bounded on any table

    def _describe(self, action: int) -> str:
        return describe(action)

    def returns(self) -> list[float]:
        n = self.round.players
        if self.round.phase != Phase.OVER:
            return [0.0] * n
        if self.whole_game:
            return [1.0 if s % 2 == self.winner else -1.0 for s in range(n)]
        a, b = self.round.points()
        return [float(a - b) if s % 2 == 0 else float(b - a) for s in range(n)]

    def _draw(self, player_id: int, rng: random.Random) -> State:
        """The round with the cards ``player_id`` cannot see dealt again (for :meth:`resample_from_infostate`).

        Other hands and the undealt cards are drawn by :class:`diloti.games.diloti.players.sampler.Worlds` (declarers
        keep a card of their value, a player deciding on a redeal keeps 5 face cards, the dealer's
        bottom card stays known to the dealer).
        """
        s = self.round
        others = [seat for seat in range(s.players) if seat != player_id]
        hands, stock = Worlds(s.view(player_id)).deal(rng)
        old = [c for seat in others for c in s.hands[seat]] + s.stock[s.stock_pos:]
        new = [c for seat in others for c in hands[seat]] + stock
        swap = dict(zip(old, new, strict=True))
        t = s.copy(stack=True)  # the history too: views show it
        t.hands = [list(h) if seat == player_id else sorted(swap.get(c, c) for c in h)
                   for seat, h in enumerate(s.hands)]
        t.stock = [swap.get(c, c) for c in s.stock]
        if t.bottom is not None:
            t.bottom = t.stock[-1]
        hi = len(t.stock) - 1 if t.bottom is not None else len(t.stock)
        t.stock[t.stock_pos:hi] = sorted(t.stock[t.stock_pos:hi])  # undealt cards are kept in card order
        return t


class DilotiObserver(SpielObserver[DilotiState, View]):
    """Tensors and strings for one player, from its view (OpenSpiel's PyObserver interface).

    ``perfect_recall`` chooses the information state over the observation; with
    ``private_info`` NONE the seat's own hand and bottom card are left out (public observation).
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        super().__init__(iig_obs_type, params, SIZE, PLANES)

    def _view(self, state: DilotiState, player: int) -> View:
        view = state.round.view(player, state.scores)
        if not self.private:
            view = _public(view)
        return view

    def _observe(self, view: View, head: int, chosen: int, out: npt.NDArray[np.float32]) -> None:
        observe(view, head, chosen, out=out)

    def _parts(self, state: DilotiState, player: int) -> tuple[list[int], list[float]] | None:
        r = state.round
        if type(r) is not State:
            return None  # a round that is not Diloti's own state (mini Diloti's deal): from its view
        # The compiled kernel reads the state as the view shows it (only the seat's own hand and bottom card of
        # what it cannot see), without the view's dozen tuples and legal moves. The prefix read here, not by
        # state.prefix(): a method call less at every step.
        d = state.decision
        if d is None:
            return state_parts(r, player, state.scores, -1, 0, self.private)
        return state_parts(r, player, state.scores, d.head, d.chosen, self.private)

    def _describe_view(self, view: View, head: int, chosen: int) -> str:
        text = describe_view(view, head, chosen)
        if view.scores != (0, 0):  # a whole game after its first round (a round gives out 7 points or more)
            own, target = view.seat % 2, view.options.target
            # As the observation holds them: a score at the target or past it is "61+" (equal totals past the
            # target play another round, which alone decides; unequal ones end the game).
            mine, theirs = (str(s) if s < target else f"{target}+" for s in (view.scores[own], view.scores[1 - own]))
            text = f"scores {mine}-{theirs}; {text}"
        return text


def _public(view: View) -> View:
    """The view without what only its seat knows (its hand, the bottom card, its legal moves)."""
    return replace(view, hand=(), bottom=None, legal=())


def openspiel() -> tuple[Any, type[DilotiGame]]:
    """The game type and class that :mod:`diloti.envs.openspiel_game` registers."""
    return _GAME_TYPE, DilotiGame


__all__ = ["INFO_SIZE", "MAX_GAME_LENGTH", "SHORT_NAME", "DilotiGame", "DilotiObserver", "DilotiState", "openspiel"]
