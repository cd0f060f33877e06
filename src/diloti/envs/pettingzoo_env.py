"""PettingZoo AEC environments ``<game>_v0`` of any registered game with an envs part: one round (or hand).

Made like PettingZoo's classic card environments::

    from diloti.envs import pettingzoo_env
    env = pettingzoo_env.env(players=2, options={"liberal_groups": True}, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Without ``game``, the default game (``diloti_v0``). Agents ``player_0`` .. ``player_3`` are the seats
(partners 0+2 and 1+3). The
action space is ``Discrete(559)`` with the fixed meaning of
:mod:`diloti.games.diloti.envs.actions`: a move takes one step or a few (the same agent acts
again while it chooses table items). The observation is a dict:
``"observation"`` (``Box(0, 1, (744,), float32)``, :mod:`diloti.games.diloti.envs.observation`,
from the agent's own view) and ``"action_mask"`` (``int8``, all zeros for an
agent not to act). The episode is one round; at its end each agent's reward
is its side's points minus the other side's (partners get the same). With
``episode="game"`` (Diloti) it is a whole game: rounds to the target with the
dealer passing on, the game's scores in the observation (``scores``), and a
reward at the end of 1 for the winning side and -1 for the other. An illegal
action ends the round with ``illegal_reward`` (by default the worst a round can
give, ``-251``) for the agent that took it, as in the classic environments.
``max_steps`` (default None, no limit) truncates an episode that has not ended
after that many decision steps (every agent's ``step`` with an action counts):
every agent's ``truncations`` turns True, the rewards stay the game's so far
(none before its end), and the observations stay the position's own.

``game=`` another registered game with an envs part (:mod:`diloti.envs.games`) plays a round of that game
with its own players, options, action space and observation (its envs part's: a one-card game's on
:mod:`diloti.games.onecard.envs`); the environment's ``metadata["name"]`` is ``<game>_v0``. Each agent's
reward is its side's points for the round minus the mean of the other sides' (the difference with two
sides); the default ``illegal_reward`` is the game's worst (its part's ``max_points``), and whole-game
episodes are offered where its part says so::

    env = pettingzoo_env.env(game="kontsina", players=3, options={"forced_capture": True})
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from diloti.core.registry import default_game
from diloti.envs.driver import EnvArgumentError, check_render_mode, check_seat, round_seed
from diloti.envs.driver_base import DriverBase, check_max_steps
from diloti.envs.games import find_env_game
from diloti.envs.ids import with_id

ObsDict = dict[str, npt.NDArray[Any]]


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment with PettingZoo's standard wrappers (illegal action ends the round, bounds, order).

    Keyword arguments go to :class:`raw_env` (``max_steps`` among them); ``illegal_reward`` is the reward of an
    illegal action (by default the worst a round or hand of the game can give); ``env_id``, a versioned id
    (:mod:`diloti.envs.ids`: ``"Diloti-2p-round-v0"``), sets the game, the players and the episode kind.
    """
    if "env_id" in kwargs:
        kwargs = with_id(kwargs.pop("env_id"), kwargs, "pettingzoo")
    illegal = kwargs.pop("illegal_reward", None)
    if illegal is None:
        game = kwargs.get("game")
        illegal = -float(find_env_game(default_game().name if game is None else game).max_points)
    if isinstance(illegal, bool) or not isinstance(illegal, (int, float)):
        raise EnvArgumentError(f"invalid illegal_reward={illegal!r}: expected a number")
    e: AECEnv[str, ObsDict, int] = raw_env(**kwargs)
    e = _TerminateIllegal(e, illegal_reward=float(illegal))
    e = _AssertOutOfBounds(e)
    e = _OrderEnforcing(e)
    return e


class _Direct:
    """What PettingZoo's loop reads of a wrapper at every step (``agent_selection``, ``terminations`` ...),
    read from the bare environment at once.

    A PettingZoo wrapper has none of these attributes: each read fails over to ``BaseWrapper.__getattr__``,
    which asks the wrapper inside, down the chain of three (a few microseconds, some twenty times a step).
    These properties give the same values in one step. An ``AttributeError`` (the order-enforcing wrapper's
    before ``reset``) still goes through the wrapper's own ``__getattr__``, with its message.
    """

    _raw: raw_env

    def _bare(self, env: AECEnv[str, ObsDict, int]) -> None:
        self._raw = env.unwrapped

    @property
    def agent_selection(self) -> str:
        return self._raw.agent_selection

    @property
    def agents(self) -> list[str]:
        return self._raw.agents

    @property
    def terminations(self) -> dict[str, bool]:
        return self._raw.terminations

    @property
    def truncations(self) -> dict[str, bool]:
        return self._raw.truncations

    @property
    def rewards(self) -> dict[str, float]:
        return self._raw.rewards

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._raw.infos

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._raw._cumulative_rewards


class _TerminateIllegal(_Direct, wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's illegal-action wrapper; a legal action of a live agent, the common case, takes a short path
    (the same checks, read from the bare environment at once); every other case is PettingZoo's own code."""

    _prev_obs: ObsDict | None
    _prev_info: dict[str, Any] | None

    def __init__(self, env: AECEnv[str, ObsDict, int], illegal_reward: float) -> None:
        super().__init__(env, illegal_reward=illegal_reward)
        self._bare(env)

    def observe(self, agent: str) -> ObsDict | None:
        obs: ObsDict | None = self.env.observe(agent)
        raw = self._raw
        if agent == raw.agent_selection:  # what PettingZoo's observe keeps for step
            self._prev_obs = obs
            self._prev_info = raw.infos.get(agent, {})
        return obs

    def step(self, action: int | None) -> None:
        raw = self._raw
        agent = raw.agent_selection
        prev = self._prev_obs
        if (type(action) is int and type(prev) is dict and not self._terminated and not raw.terminations[agent]
                and not raw.truncations[agent] and prev["action_mask"][action]):
            self._prev_obs = None
            self._prev_info = None
            self.env.step(action)
        else:
            super().step(action)


class _AssertOutOfBounds(_Direct, wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    def __init__(self, env: AECEnv[str, ObsDict, int]) -> None:
        super().__init__(env)
        self._bare(env)
        self._n = self._raw.num_actions

    def step(self, action: int | None) -> None:
        if type(action) is int and 0 <= action < self._n:
            # A plain int that Discrete(num_actions), every agent's space, contains: the check passes.
            self.env.step(action)
        else:
            super().step(action)


class _OrderEnforcing(_Direct, wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper; before ``reset`` its checks and messages are PettingZoo's own."""

    def __init__(self, env: AECEnv[str, ObsDict, int]) -> None:
        super().__init__(env)
        self._bare(env)
        # env() puts the bounds wrapper inside this one and the illegal-action wrapper inside that: a plain int
        # in range passes the bounds check, so step and last go to the illegal-action wrapper at once (two
        # Python frames fewer each, as PettingZoo's base wrapper only passes them on).
        inner = env.env if isinstance(env, _AssertOutOfBounds) else None
        self._illegal: _TerminateIllegal | None = inner if isinstance(inner, _TerminateIllegal) else None
        self._n = self._raw.num_actions

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's prints itself

    def step(self, action: int | None) -> None:
        illegal = self._illegal
        if (illegal is not None and self._has_reset and self._raw.agents and type(action) is int
                and 0 <= action < self._n):
            self._has_updated = True  # OrderEnforcingWrapper.step, then _AssertOutOfBounds.step's check passed
            illegal.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable[str, ObsDict, int]:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # PettingZoo's error
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]  # PettingZoo's error
        raw = self._raw  # AECEnv.last, reading the bare environment's dicts at once
        agent = raw.agent_selection
        assert agent is not None
        illegal = self._illegal
        if not observe:
            observation = None
        elif illegal is not None:
            observation = illegal.observe(agent)  # what the two wrappers between only pass on
        else:
            observation = self.observe(agent)
        return (observation, raw._cumulative_rewards[agent], raw.terminations[agent], raw.truncations[agent],
                raw.infos[agent])

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection")  # __getattr__ raises PettingZoo's error
        return self._raw.agent_selection

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents")
        return self._raw.agents

    @property
    def terminations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise AttributeError("terminations")
        return self._raw.terminations

    @property
    def truncations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise AttributeError("truncations")
        return self._raw.truncations

    @property
    def rewards(self) -> dict[str, float]:
        if not self._has_reset:
            raise AttributeError("rewards")
        return self._raw.rewards

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("infos")
        return self._raw.infos


class _AgentIterable(AECOrderEnforcingIterable[str, ObsDict, int]):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator[str, ObsDict, int]):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the bare environment's agents at once (its checks, in its
    order)."""

    def __next__(self) -> str:
        env = self.env
        raw = env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        agent: str = raw.agent_selection
        return agent


class raw_env(AECEnv[str, ObsDict, int], EzPickle):  # type: ignore[misc]
    """The bare AEC environment (see the module's description); :func:`env` wraps it.

    Arguments: ``players``, ``options`` (an ``Options``, a dict or options text), ``dealer`` (None: drawn each
    round), ``render_mode`` (None, ``"ansi"``, ``"human"``), ``game`` and ``episode`` (``"round"`` or
    ``"game"``), as the module says; and ``max_steps``, None (the default: no limit) or a positive int: the
    decision steps (``step`` calls with an action, every agent's) after which an episode that has not ended
    stops by truncation. That step's rewards are the game's so far (nothing before its end), ``truncations``
    turns True for every agent (``terminations`` stays False), and each agent then steps ``None`` to leave, as
    at any end. The observations stay those of the position where it stopped, the action mask of the seat to
    act included: it is not an end of the game, and a learner may bootstrap from it. An episode that ends at
    that very step ends by termination, not truncation. A bad value raises ``EnvArgumentError`` naming
    ``max_steps``.
    """

    # Not a ClassVar: each environment names its game in its own copy (<game>_v0).
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["ansi", "human"],
        "name": "diloti_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, players: int = 2, options: Mapping[str, Any] | str | Any | None = None,
                 dealer: int | None = None, render_mode: str | None = None, game: str | None = None,
                 episode: str = "round", max_steps: int | None = None) -> None:
        EzPickle.__init__(self, players, options, dealer, render_mode, game, episode, max_steps)
        super().__init__()
        self.game = find_env_game(default_game().name if game is None else game)
        self.players = self.game.check_players(players)
        self.options = self.game.check_options(options, self.players)
        self.dealer = check_seat("dealer", dealer, self.players)
        self.episode = self.game.check_episode(episode)
        self.max_steps = check_max_steps(max_steps)
        self.render_mode = check_render_mode(render_mode, list(self.metadata["render_modes"]))
        self.metadata = {**type(self).metadata, "name": self.game.env_name}
        self.num_actions = n = self.game.num_actions
        size = self.game.size
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self.agents = self.possible_agents[:]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._rng: random.Random | None = None
        self._zeros = np.zeros(n, dtype=np.int8)
        self._zeros.flags.writeable = False  # every agent not to act gets this one: nobody may change it
        self.driver: DriverBase[Any, Any, Any] | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # EzPickle pickles the constructor's arguments and builds a fresh environment from them: a copy
    # taken mid-round would lose the round. A search or a replay buffer copies environments to go on
    # from where they are, so the whole state is pickled (EzPickle stays a base: PettingZoo tools test for it).
    def __getstate__(self) -> dict[str, Any]:
        return self.__dict__.copy()

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new round. A ``seed`` starts the environment's generator again (rounds and dealers come from it)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        rng = self._rng
        dealer = self.dealer if self.dealer is not None else rng.randrange(self.players)
        self.driver = self.game.driver(self.players, self.options, dealer, round_seed(rng), self.episode)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.driver.to_act]

    def observe(self, agent: str) -> ObsDict:
        d = self.driver
        if d is None:
            raise EnvArgumentError("observe() before reset(): call reset() first")
        seat = self._seats[agent]
        acting = agent == self.agent_selection and not self.terminations.get(agent, True)
        if acting and self.truncations[agent]:  # each agent steps None now: the mask stays the seat to act's
            acting = seat == d.to_act
        return {"observation": d.observation(seat), "action_mask": d.mask() if acting else self._zeros}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.driver
        assert d is not None and action is not None
        d.apply(int(action))
        self._cumulative_rewards[agent] = 0.0
        if d.over or (self.max_steps is not None and d.at_limit(self.max_steps)):  # no call without a limit
            for agent_name, r in zip(self.possible_agents, d.returns(), strict=True):
                self.rewards[agent_name] = r  # the game's so far: none before its end
            if d.over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:  # max_steps taken: the episode stops where it is
                self.truncations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        self.agent_selection = self.possible_agents[d.to_act]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.driver.render() if self.driver is not None else self.game.not_dealt
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.driver = None


__all__ = ["env", "raw_env"]
