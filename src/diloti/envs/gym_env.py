"""Gymnasium single-agent environment: one seat against the built-in computer levels, in any registered game.

Registered as ``diloti/<Game>-v0`` for every registered game with an envs part (``diloti/Diloti-v0`` for
the default game) when :mod:`diloti.envs` is imported::

    import gymnasium
    import diloti.envs  # registers the id
    env = gymnasium.make("diloti/Diloti-v0", opponent="heuristic", players=2)
    obs, info = env.reset(seed=0)
    while True:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

The agent plays one seat (``seat``; by default drawn each round); every other
seat, the partner's too with 4 players, is a computer player made by
:func:`diloti.ai.make_player` from ``opponent`` (``partner`` for the partner):
a level name or a spec such as ``"expert:iterations=100,seconds=none"`` (with
``seconds=none`` an expert plays the same moves for the same seed). Spaces,
action meaning and observation are those of the PettingZoo environment
(:mod:`diloti.envs.pettingzoo_env`). The episode is one round; the reward, at
its end, is the agent's side's points minus the other side's. With
``episode="game"`` (Diloti) it is a whole game to the target, the scores in the
observation, and the reward at its end 1 for a win and -1 for a loss. An illegal
action ends the episode with ``illegal_reward`` (default ``-251``, the worst a
round can give) and ``info["illegal_action"]``; ``info["action_mask"]`` and
:meth:`CardGameEnv.action_masks` give the mask too (for maskable learners).
``max_steps`` (default None, no limit) truncates an episode that has not ended
after that many of the agent's steps: ``truncated=True``, the reward the game's
so far (none before its end), the observation the position's own.

Another game's id (or ``game=`` its name: any registered game with an envs part) plays a round of that
game: its options, players, spaces and rewards are those of the PettingZoo environment with the same
``game``, and its episodes those it offers (whole games where its envs part says so); the computer players
are the same levels playing that game (its players part, :mod:`diloti.ai.part`). Every seat not on the
agent's side is an ``opponent``; only a partner (4 players in partnerships) is a ``partner``.

:class:`CardGameEnv` is the environment of every game (``DilotiEnv``, its name before there were other
games, is kept as a deprecated alias).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from diloti.ai import make_player
from diloti.ai.base import FullStatePlayer, Player, RandomPlayer
from diloti.core.errors import DilotiError
from diloti.core.registry import default_game
from diloti.core.shuffling import choice
from diloti.envs.actions import InvalidActionError
from diloti.envs.driver import EnvArgumentError, check_render_mode, check_seat
from diloti.envs.driver_base import DriverBase, check_max_steps
from diloti.envs.games import EnvGame, find_env_game

ObsDict = dict[str, Any]  # "observation" and "action_mask", both arrays


class CardGameEnv(gymnasium.Env[ObsDict, np.int64]):
    """One round (or hand, or with ``episode="game"`` one whole game) of a registered game for one learning seat
    (see the module's description).

    Arguments: ``opponent`` and ``partner`` (computer levels or specs), ``players``, ``options``, ``seat`` and
    ``dealer`` (None: drawn each episode), ``illegal_reward``, ``render_mode``, ``game`` and ``episode``, as the
    module says; and ``max_steps``, None (the default: no limit) or a positive int: the agent's decision steps
    (``step`` calls; the computer players' moves inside them do not count) after which an episode that has not
    ended stops with ``truncated=True`` and ``terminated=False``. That step's reward is the game's so far
    (nothing before its end); the observation is the position's where it stopped, the action mask included (it
    is not an end of the game: a learner may bootstrap from it); ``step`` then refuses until ``reset``. An episode
    that ends at that very step ends by termination, not truncation. Gymnasium's own ``TimeLimit`` wrapper
    (``gymnasium.make(..., max_episode_steps=N)``) counts the same steps. A bad value raises
    ``EnvArgumentError`` naming ``max_steps``.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 - as Env declares it
    action_space: spaces.Discrete  # the spaces' own types, so that users read ``.n`` and ``["action_mask"]``
    observation_space: spaces.Dict

    def __init__(self, opponent: str = "random", players: int = 2,
                 options: Mapping[str, Any] | str | Any | None = None, seat: int | None = None,
                 dealer: int | None = None, partner: str | None = None, illegal_reward: float | None = None,
                 render_mode: str | None = None, game: str | None = None, episode: str = "round",
                 max_steps: int | None = None) -> None:
        self.game = find_env_game(default_game().name if game is None else game)
        self.episode = self.game.check_episode(episode)
        self.players = self.game.check_players(players)
        self.options = self.game.check_options(options, self.players)
        self.seat = check_seat("seat", seat, self.players)
        self.dealer = check_seat("dealer", dealer, self.players)
        self.opponent = _check_level("opponent", opponent)
        self.partner = self.opponent if partner is None else _check_level("partner", partner)
        if illegal_reward is None:
            illegal_reward = -float(self.game.max_points)  # the worst a round or hand can give
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise EnvArgumentError(f"invalid illegal_reward={illegal_reward!r}: expected a number")
        self.illegal_reward = float(illegal_reward)
        self.max_steps = check_max_steps(max_steps)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        n = self.game.num_actions
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=1.0, shape=(self.game.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
        })
        self.driver: DriverBase[Any, Any, Any] | None = None
        self.bots: dict[int, Player] = {}
        self.me = 0
        self._done = False  # the episode ended (terminated or truncated): step() needs reset() first
        self._truncated = False

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        self.me, self.driver, self.bots = deal_episode(self, self.np_random)
        self._done = self._truncated = False
        play_bots(self.driver, self.bots, self.me)
        if self.render_mode == "human":
            self.render()
        return self._result()

    def step(self, action: np.int64 | int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        d = self.driver
        if d is None:
            raise EnvArgumentError("step() before reset(): call reset() first")
        if self._done:
            raise EnvArgumentError("step() after the episode ended: call reset() first")
        try:
            move = d.apply(int(action))
        except InvalidActionError:
            self._done = True
            obs, info = self._result()
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        reward = 0.0
        if move is not None:
            self._play_bots()
            if d.over:
                self._done = True
                reward = d.returns()[self.me]
        terminated = self._done
        if not terminated and self.max_steps is not None and d.at_limit(self.max_steps):  # stops where it is
            self._done = self._truncated = True
        if self.render_mode == "human":
            self.render()
        obs, info = self._result()
        return obs, reward, terminated, self._truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions as booleans (the method maskable learners call)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.driver.render() if self.driver is not None else self.game.not_dealt
        text += f"\n  (the agent plays player_{self.me})"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ------------------------------------------------------------------ inside
    def _play_bots(self) -> None:
        assert self.driver is not None
        play_bots(self.driver, self.bots, self.me)

    def _mask(self) -> npt.NDArray[np.int8]:
        """The agent's action mask now, an array of the caller's own (all zeros once the episode is over; a
        truncated one keeps the position's)."""
        d = self.driver
        if d is None or (self._done and not self._truncated) or d.over:
            return np.zeros(self.game.num_actions, dtype=np.int8)
        return d.mask_copy()

    def _result(self) -> tuple[ObsDict, dict[str, Any]]:
        """The observation and the info of this step, each array a new one of the caller's own (the driver keeps
        its own for the step), the mask made once."""
        d = self.driver
        assert d is not None
        mask = self._mask()
        return ({"observation": d.observation_copy(self.me), "action_mask": mask},
                {"seat": self.me, "action_mask": mask.copy()})


class Seating(Protocol):
    """What an episode against the computer is dealt from: a :class:`CardGameEnv`'s settings (the batched
    environment's too, :mod:`diloti.envs.vector`)."""

    game: EnvGame
    players: int
    options: Any
    episode: str
    seat: int | None
    dealer: int | None
    opponent: str
    partner: str


def deal_episode(env: Seating, rng: np.random.Generator) -> tuple[int, DriverBase[Any, Any, Any], dict[int, Player]]:
    """A new episode of ``env``'s settings from its generator ``rng``: the agent's seat, the driver and the computer
    players, drawn in this order (what ``reset`` draws: the same seed gives the same episode in the single and
    the batched environments)."""
    me = env.seat if env.seat is not None else int(rng.integers(env.players))
    dealer = env.dealer if env.dealer is not None else int(rng.integers(env.players))
    d = env.game.driver(env.players, env.options, dealer, int(rng.integers(2**62)), env.episode)
    bots: dict[int, Player] = {}
    for s in range(env.players):
        if s != me:
            spec = env.partner if d.same_side(s, me) else env.opponent
            bots[s] = make_player(spec, seed=int(rng.integers(2**62)), measurement=True)
    return me, d, bots


def play_bots(d: DriverBase[Any, Any, Any], bots: dict[int, Player], me: int) -> None:
    """The computer players' moves until it is seat ``me``'s turn or the episode is over."""
    state = d.state
    while not d.over and state.turn != me:
        bot = bots[state.turn]
        if type(bot) is RandomPlayer:
            # Its choice without its view: the view's legal moves are the state's, in the same order, so
            # the same draw of its generator picks the same move (and it is legal: no check needed).
            legal = state.candidate_moves()[0]  # bounded on a large table, as the view's
            if legal:
                d.play_legal(choice(bot.rng, legal))  # rng.choice's draw, compiled
                state = d.state
                continue
        move = bot.choose(d.view(state.turn))  # the game's scores too, in a whole-game episode
        d.play(move)  # its actions, at once
        state = d.state  # a whole game deals the next round in a new state


def _check_level(name: str, spec: object) -> str:
    if not isinstance(spec, str):
        raise EnvArgumentError(f"invalid {name}={spec!r}: expected a level name such as 'expert'")
    try:
        # Outside players by import path too, as in matches.
        player = make_player(spec, seed=0, measurement=True)
    except DilotiError as exc:
        raise EnvArgumentError(f"invalid {name}={spec!r}: {exc}") from None
    if isinstance(player, FullStatePlayer):  # it sees every hand: not an opponent for a seat's view
        raise EnvArgumentError(f"invalid {name}={spec!r}: the {player.name} sees every hand; choose a level that "
                               "plays from its own view")
    return spec


#: Deprecated: the environment's name from before there were other games (it plays every game).
DilotiEnv = CardGameEnv

__all__ = ["CardGameEnv", "DilotiEnv", "Seating", "deal_episode", "play_bots"]
