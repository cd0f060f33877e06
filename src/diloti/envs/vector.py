"""Gymnasium vector environment: ``num_envs`` games against the computer levels, stepped by one call.

:class:`CardGameVectorEnv` is a ``gymnasium.vector.VectorEnv``: each of its games is a
:class:`~diloti.envs.gym_env.CardGameEnv` of the same arguments (one seat learning, the others computer
players), and from the same seed the same episodes, observations, masks and rewards
(tests/test_envs_batch.py steps both side by side). Observations are a dict of arrays of shape
``(num_envs, ...)``, as Gymnasium batches ``CardGameEnv``'s space: ``"observation"`` (float32) and
``"action_mask"`` (int8); :meth:`~CardGameVectorEnv.action_masks` gives the masks as booleans (what maskable
learners ask for)::

    import numpy as np
    from diloti.envs.vector import CardGameVectorEnv

    envs = CardGameVectorEnv(256, game="diloti", opponent="random")
    obs, infos = envs.reset(seed=0)                 # game i seeded with 0 + i
    rng = np.random.default_rng(0)
    for _ in range(100):
        obs, rewards, terminated, truncated, infos = envs.step(envs.sample_actions(rng))

**Automatic reset** is Gymnasium's ``AutoresetMode.SAME_STEP`` (``metadata["autoreset_mode"]``): a game whose
episode ends in a step starts its next one in the same step (its generator goes on, as ``reset()`` without
a seed); its row of ``obs`` is the new episode's first, ``rewards``, ``terminated`` and ``truncated`` are the
ended episode's, and ``infos["final_obs"]`` (with the mask ``infos["_final_obs"]``) holds its last
observation, ``infos["final_info"]`` its last info. Every step's ``infos`` also has ``"seat"`` (each game's
learning seat) and ``"illegal_action"`` (the episode ended by an illegal action, with ``illegal_reward``).

**Buffers.** The arrays are written into buffers allocated once; with ``copy=True`` (the default, as
Gymnasium's ``SyncVectorEnv``) each step returns copies, with ``copy=False`` the buffers themselves, written
again by the next step. The loop over games is :class:`~diloti.envs.batch.SelfPlayBatch`'s kind: one Python
call a step for the whole batch, each game's driver the single environment's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from diloti.ai.base import Player
from diloti.core.registry import default_game
from diloti.envs.actions import InvalidActionError
from diloti.envs.batch import check_actions, check_num_envs, check_seeds, sample_masks
from diloti.envs.driver import EnvArgumentError, check_seat
from diloti.envs.driver_base import DriverBase, check_max_steps
from diloti.envs.games import EnvGame, find_env_game
from diloti.envs.gym_env import _check_level, deal_episode, play_bots

ObsDict = dict[str, Any]


class _Game:
    """One game of the batch: what a ``CardGameEnv`` keeps between steps."""

    __slots__ = ("bots", "driver", "me", "rng")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.me = 0
        self.driver: DriverBase[Any, Any, Any] | None = None
        self.bots: dict[int, Player] = {}


class CardGameVectorEnv(gymnasium.vector.VectorEnv[ObsDict, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` games of :class:`~diloti.envs.gym_env.CardGameEnv` (see the module's description).

    Arguments: ``num_envs``, then ``CardGameEnv``'s (``opponent``, ``players``, ``options``, ``seat``, ``dealer``,
    ``partner``, ``illegal_reward``, ``game``, ``episode``, ``max_steps``), and ``copy``.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - as VectorEnv declares it

    def __init__(self, num_envs: int, opponent: str = "random", players: int = 2,
                 options: Mapping[str, Any] | str | Any | None = None, seat: int | None = None,
                 dealer: int | None = None, partner: str | None = None, illegal_reward: float | None = None,
                 game: str | None = None, episode: str = "round", max_steps: int | None = None,
                 copy: bool = True) -> None:
        self.num_envs = n = check_num_envs(num_envs)
        self.game: EnvGame = find_env_game(default_game().name if game is None else game)
        self.episode = self.game.check_episode(episode)
        self.players = self.game.check_players(players)
        self.options = self.game.check_options(options, self.players)
        self.seat = check_seat("seat", seat, self.players)
        self.dealer = check_seat("dealer", dealer, self.players)
        self.opponent = _check_level("opponent", opponent)
        self.partner = self.opponent if partner is None else _check_level("partner", partner)
        if illegal_reward is None:
            illegal_reward = -float(self.game.max_points)
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise EnvArgumentError(f"invalid illegal_reward={illegal_reward!r}: expected a number")
        self.illegal_reward = float(illegal_reward)
        self.max_steps = check_max_steps(max_steps)
        if not isinstance(copy, bool):
            raise EnvArgumentError(f"invalid copy={copy!r}: expected True or False")
        self.copy = copy
        self.num_actions = a = self.game.num_actions
        size = self.game.size
        self.single_action_space = spaces.Discrete(a)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(a,), dtype=np.int8),
        })
        self.action_space = batch_space(self.single_action_space, n)
        self.observation_space = batch_space(self.single_observation_space, n)
        # Over bytearrays, each game's row written by one slice assignment of its driver's bytes (as SelfPlayBatch).
        self._obs_raw = bytearray(4 * n * size)
        self._mask_raw = bytearray(n * a)
        self._obs = np.frombuffer(self._obs_raw, np.float32).reshape(n, size)
        self._masks = np.frombuffer(self._mask_raw, np.int8).reshape(n, a)
        self._rewards = np.zeros(n, np.float64)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._illegal = np.zeros(n, np.bool_)
        self._seats = np.zeros(n, np.int64)
        self._games: list[_Game] = []

    # ------------------------------------------------------------------ the API
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Every game's next episode; a seed (an int: game i gets ``seed + i``; or one a game) starts each game's
        generator again, as ``CardGameEnv.reset(seed=...)``."""
        seeds = check_seeds(seed, self.num_envs)
        if not self._games:
            self._games = [_Game(seeding.np_random(s)[0]) for s in seeds]
        else:
            for g, s in zip(self._games, seeds, strict=True):
                if s is not None:
                    g.rng = seeding.np_random(s)[0]
        for i, g in enumerate(self._games):
            self._deal(i, g)
        self._rewards[:] = 0.0
        self._terminated[:] = False
        self._truncated[:] = False
        self._illegal[:] = False
        return self._out(), self._infos()

    def step(self, actions: npt.ArrayLike) -> tuple[ObsDict, npt.NDArray[np.float64], npt.NDArray[np.bool_],
                                                    npt.NDArray[np.bool_], dict[str, Any]]:
        """Each game's learning seat takes its action (see the module's description)."""
        if not self._games:
            raise EnvArgumentError("step() before reset(): call reset() first")
        acts = check_actions(actions, self.num_envs, self.num_actions)
        rewards, terminated, truncated, illegal = self._rewards, self._terminated, self._truncated, self._illegal
        rewards[:] = 0.0
        terminated[:] = False
        truncated[:] = False
        illegal[:] = False
        ended: list[int] = []
        limit = self.max_steps
        for i, action in enumerate(acts):
            g = self._games[i]
            d = g.driver
            assert d is not None
            try:
                move = d.apply(action)
            except InvalidActionError:
                rewards[i] = self.illegal_reward
                terminated[i] = illegal[i] = True
                ended.append(i)
                continue
            if move is not None:
                play_bots(d, g.bots, g.me)
                if d.over:
                    rewards[i] = d.returns()[g.me]
                    terminated[i] = True
                    ended.append(i)
                    continue
            if limit is not None and d.applied >= limit:
                truncated[i] = True
                ended.append(i)
                continue
            self._write(i, g, d)
        infos: dict[str, Any] = {}
        if ended:
            infos = self._final(ended)
        infos.update(self._infos())
        return self._out(), rewards.copy(), terminated.copy(), truncated.copy(), infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of each game's learning seat now, as booleans (N, num_actions)."""
        return self._masks.astype(bool)

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A random legal action for each game (uniform over its mask), drawn from ``rng``."""
        return sample_masks(self._masks, rng)

    # ------------------------------------------------------------------ inside
    def _deal(self, i: int, g: _Game) -> None:
        """Game ``i``'s next episode (``CardGameEnv.reset``'s draws from its generator), its first row written."""
        g.me, d, g.bots = deal_episode(self, g.rng)
        g.driver = d
        self._seats[i] = g.me
        play_bots(d, g.bots, g.me)
        self._write(i, g, d)

    def _write(self, i: int, g: _Game, d: DriverBase[Any, Any, Any]) -> None:
        row = 4 * self.game.size
        self._obs_raw[i * row:(i + 1) * row] = d.observation_data(g.me)
        a = self.num_actions
        # All zeros over (an episode the computer ended before the agent's first turn), as CardGameEnv's mask.
        self._mask_raw[i * a:(i + 1) * a] = bytes(a) if d.over else d.decision.mask_bytes()

    def _final(self, ended: list[int]) -> dict[str, Any]:
        """The last observations and infos of the games in ``ended`` (in ``infos``, as Gymnasium's SAME_STEP), then
        their next episodes."""
        n = self.num_envs
        final_obs = np.full(n, None, dtype=object)
        final_info = np.full(n, None, dtype=object)
        has = np.zeros(n, np.bool_)
        for i in ended:
            g = self._games[i]
            d = g.driver
            assert d is not None
            # CardGameEnv's last result: the mask all zeros once the game is over or an illegal action ended it; a
            # truncated episode keeps the position's.
            mask = d.mask_copy() if self._truncated[i] and not d.over else np.zeros(self.num_actions, np.int8)
            final_obs[i] = {"observation": d.observation_copy(g.me), "action_mask": mask}
            info: dict[str, Any] = {"seat": g.me, "action_mask": mask.copy()}
            if self._illegal[i]:
                info["illegal_action"] = True
            final_info[i] = info
            has[i] = True
            self._deal(i, g)
        return {"final_obs": final_obs, "_final_obs": has, "final_info": final_info, "_final_info": has.copy()}

    def _out(self) -> ObsDict:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}
        return {"observation": self._obs, "action_mask": self._masks}

    def _infos(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, np.bool_)
        return {"seat": self._seats.copy(), "_seat": every, "action_mask": self._masks.copy(),
                "_action_mask": every.copy(), "illegal_action": self._illegal.copy(), "_illegal_action": every.copy()}


__all__ = ["CardGameVectorEnv"]
