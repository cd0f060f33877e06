"""The evaluation harness: a learned policy as a player, and the built-in levels as policies and bots.

A *policy* is a function of an observation and its action mask that returns an
action id, as the environments give them (the observation of
each game's layout (its envs part, :mod:`diloti.envs.games`), the mask as
``int8``). Three adapters join policies, the built-in levels and the three
research libraries:

- :class:`PolicyPlayer` plays a policy wherever a computer player plays: in
  ``diloti tournament`` (fixed matches and the sequential test) through an
  outside player given by import path, in the Gymnasium environment as an
  opponent, against people. It sees only its seat's view (the one door to
  hidden information) and takes a move's steps as the environments do.
- :class:`LevelPolicy` makes a built-in level a PettingZoo policy: the next
  action of an agent in a running ``pettingzoo_env.env(...)``.
- :class:`LevelBot` makes a built-in level (or any player) an OpenSpiel bot for
  ``evaluate_bots`` and friends; :class:`RestartableISMCTSBot` is OpenSpiel's
  Python ISMCTS bot with the ``restart_at`` that ``evaluate_bots`` calls and the
  bot lacks.

>>> import random
>>> from diloti.games.diloti.state import State
>>> def lowest(observation, mask):  # a policy: the lowest action the mask allows
...     return int(mask.nonzero()[0][0])
>>> s = State.new(seed=7)
>>> move = PolicyPlayer(lowest).choose(s.view(s.turn))
>>> move in s.legal_moves()
True

A module that names a policy for matches (``diloti tournament mybots:Lowest expert``)::

    from diloti.envs.policies import PolicyPlayer

    def Lowest(seed=None, **settings):
        return PolicyPlayer(lambda obs, mask: int(mask.nonzero()[0][0]))
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from diloti.ai import make_player
from diloti.ai.base import Player
from diloti.ai.games import players_part
from diloti.ai.part import SearchSettings
from diloti.core.moves import Move
from diloti.envs.actions import InvalidActionError
from diloti.envs.driver import EnvArgumentError
from diloti.envs.games import EnvGame, find_env_game

#: A policy: (observation, action mask) -> action id.
Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


def _game_of(view: Any) -> EnvGame:
    """The research game a view belongs to: the game it names (every game's view does)."""
    return find_env_game(view.game)


class PolicyPlayer:
    """A computer player that asks ``policy`` for each step of its move, from its own view.

    An action the mask does not allow is refused with :class:`InvalidActionError` naming it (a policy that
    ignores the mask is a bug worth seeing, not a move to replace silently).
    """

    name = "policy"

    def __init__(self, policy: Policy) -> None:
        if not callable(policy):
            raise EnvArgumentError(f"invalid policy={policy!r}: expected a function of (observation, mask)")
        self.policy = policy

    def choose(self, view: Any) -> Move:
        game = _game_of(view)
        decision = game.decision(view)
        if decision.done:
            raise InvalidActionError(f"no legal move for seat {view.seat}: it is not to move")
        while True:
            mask = np.zeros(game.num_actions, dtype=np.int8)
            mask[decision.actions] = 1
            mask.flags.writeable = False
            observation = game.observe(view, decision.head, decision.chosen)
            observation.flags.writeable = False
            move = decision.apply(int(self.policy(observation, mask)))
            if move is not None:
                return move


class _Steps:
    """A player's chosen move handed out one action at a time (the move is chosen at its first step)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.sequence: list[int] = []

    def next(self, view: Any, decision: Any) -> int:
        if decision.steps == 0 or not self.sequence:
            move = self.player.choose(view)
            self.sequence = decision.encode(move)
        return self.sequence[int(decision.steps)]


class LevelPolicy:
    """A built-in level (or any player spec) as a policy for a PettingZoo environment made by this package.

    ``LevelPolicy(env, "expert")(agent)`` is the action the level takes for ``agent`` now; it reads the agent's
    own view from the environment (never another hand).

    >>> from diloti.envs import pettingzoo_env
    >>> env = pettingzoo_env.env()
    >>> env.reset(seed=1)
    >>> policy = LevelPolicy(env, "greedy", seed=1)
    >>> for agent in env.agent_iter():
    ...     _, _, termination, truncation, _ = env.last()
    ...     env.step(None if termination or truncation else policy(agent))
    >>> sum(env.unwrapped.rewards.values()) == 0
    True
    """

    def __init__(self, env: Any, level: str, seed: int | None = None) -> None:
        self.env = env.unwrapped
        self.steps = _Steps(make_player(level, seed=seed, measurement=True))

    def __call__(self, agent: str) -> int:
        driver = self.env.driver
        if driver is None:
            raise EnvArgumentError("the environment has not been reset: call reset() first")
        seat = self.env.possible_agents.index(agent)
        if seat != driver.to_act:
            raise EnvArgumentError(f"invalid agent={agent!r}: {self.env.agent_selection} is to act")
        return self.steps.next(driver.view(seat), driver.decision)


try:
    import pyspiel
except ImportError:  # pragma: no cover - the research extra is missing; the policies above still work
    pyspiel = None


if pyspiel is not None:

    class LevelBot(pyspiel.Bot):  # type: ignore[misc]
        """A built-in level (or any player spec) as an OpenSpiel bot on any game of the package
        (``python_<game>``): it chooses its move from its seat's view and plays it step
        by step."""

        def __init__(self, player_id: int, level: str, seed: int | None = None) -> None:
            pyspiel.Bot.__init__(self)
            self.player_id = player_id
            self.level = level
            self.steps = _Steps(make_player(level, seed=seed, measurement=True))

        def step(self, state: Any) -> int:
            taken = len(state.taken)  # the actions of this move already taken
            if taken == 0 or not self.steps.sequence:
                self.steps.sequence = state.encode(self.steps.player.choose(state.round.view(self.player_id)))
            return self.steps.sequence[taken]

        def restart_at(self, state: Any) -> None:
            self.steps.sequence = []

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            pass

        def provides_policy(self) -> bool:
            return False

    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    from diloti.envs.openspiel_game import register_openspiel

    class RestartableISMCTSBot(ISMCTSBot):  # type: ignore[misc]
        """OpenSpiel's Python ``ISMCTSBot`` with ``restart_at``, which ``pyspiel.evaluate_bots`` calls at
        every game's start and the bot does not implement (``RestartAt(state) not implemented``)."""

        def restart_at(self, state: Any) -> None:
            self.restart()

    class SpielBotPlayer:
        """An OpenSpiel bot as a computer player of any registered game: it plays from its seat's view alone.

        ``make_bot(game, seat)`` builds the bot for a one-round OpenSpiel game (``python_<game>``) of the view's
        players, options and dealer. At each move the player deals the cards its seat cannot see at random,
        consistently with the view (the game's players part's ``worlds``, as the built-in searches do), makes
        that world an OpenSpiel state and asks the bot for each step of the move. The dealt world is only a
        starting point: a bot that searches over information sets (ISMCTS) deals its worlds again itself
        with ``resample_from_infostate``; a bot that read the starting world's hidden cards would be cheating
        on a random guess, not on the truth.

        >>> from diloti.games.diloti.state import State
        >>> s = State.new(seed=3)
        >>> player = ISMCTSPlayer(seed=1, simulations=10)
        >>> player.choose(s.view(s.turn)) in s.legal_moves()
        True
        """

        name = "openspiel-bot"

        def __init__(self, make_bot: Callable[[Any, int], Any], seed: int | None = None) -> None:
            self.make_bot = make_bot
            self.rng = random.Random(seed)
            self.bots: dict[tuple[Any, ...], Any] = {}

        def _bot(self, view: Any) -> tuple[Any, Any]:
            # One game and bot for each table the player sits at (a match keeps its seat, dealers rotate).
            key = (view.game, view.players, view.options.to_text(), view.dealer, view.seat)
            if key not in self.bots:
                params = {"players": view.players, "options": view.options.to_text().replace("=", ":"),
                          "dealer": view.dealer}
                game = pyspiel.load_game(register_openspiel(view.game), params)
                self.bots[key] = (game, self.make_bot(game, view.seat))
            game, bot = self.bots[key]
            return game, bot

        def choose(self, view: Any) -> Move:
            decision = find_env_game(view.game).decision(view)
            if decision.done:
                raise InvalidActionError(f"no legal move for seat {view.seat}: it is not to move")
            game, bot = self._bot(view)
            state = game.new_initial_state()
            # A uniform world (no inference): deals to come follow from its stock, unseen as ever.
            state.round = players_part(view).worlds(view, SearchSettings()).sample(self.rng)[0]
            state.decision = None
            state.taken = ()
            while True:
                action = int(bot.step(state))
                state.apply_action(action)
                move = decision.apply(action)
                if move is not None:
                    return move

    def ISMCTSPlayer(seed: int | None = None, simulations: int = 100, uct_c: float = 2.0,
                     rollouts: int = 1) -> SpielBotPlayer:
        """OpenSpiel's Python ``ISMCTSBot`` (random-rollout evaluator) as a player for ``diloti tournament``:
        ``diloti.envs.policies:ISMCTSPlayer:simulations=100``. ``simulations`` a decision step (a move is
        several steps: its card, then each item it takes), ``uct_c`` its exploration constant, ``rollouts``
        random rollouts a leaf; seeded, so a match is reproducible."""
        from open_spiel.python.algorithms import mcts

        if simulations < 1 or rollouts < 1:
            raise ValueError(f"invalid simulations={simulations!r}, rollouts={rollouts!r}: expected at least 1")
        state = np.random.RandomState((seed or 0) % 2**32)

        def make_bot(game: Any, seat: int) -> Any:
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=int(rollouts), random_state=state)
            bot = ISMCTSBot(game=game, evaluator=evaluator, uct_c=float(uct_c),
                            max_simulations=int(simulations), random_state=state)
            # The bot deals its worlds with a pyspiel.UniformProbabilitySampler of its own, seeded from the
            # clock: searches would differ run to run. Its hook makes them draw from the seeded generator.
            bot.set_resampler(lambda s, player: s.resample_from_infostate(player, state.uniform))
            return bot

        return SpielBotPlayer(make_bot, seed)


__all__ = ["ISMCTSPlayer", "LevelBot", "LevelPolicy", "Policy", "PolicyPlayer", "RestartableISMCTSBot",
           "SpielBotPlayer"]
