"""Many games stepped by one call, for self-play: every seat is the learner's, each game's seat to act acts.

:class:`SelfPlayBatch` plays ``num_envs`` games of any registered game with an envs part (any player count,
rounds or whole games) side by side. :meth:`~SelfPlayBatch.step` takes one action for each game, the action of
its seat to act, and writes the next position of every game into arrays of shape ``(num_envs, ...)`` allocated
once: the observation and action mask of the seat now to act, that seat, each seat's rewards, and whether the
episode ended (terminated) or was cut at ``max_steps`` (truncated)::

    import numpy as np
    from diloti.envs.batch import SelfPlayBatch

    batch = SelfPlayBatch(1024, game="diloti", players=2)
    out = batch.reset(seed=0)                      # game i is seeded with 0 + i
    rng = np.random.default_rng(0)
    for _ in range(100):
        actions = batch.sample_actions(rng)        # a random legal action of each game's seat to act
        out = batch.step(actions)                  # out.observations.shape == (1024, 744)

Each game is the PettingZoo environment's (:mod:`diloti.envs.pettingzoo_env`, ``env()``) from the same seed:
the same deals, observations, masks and rewards (tests/test_envs_batch.py steps both side by side).

**Automatic reset.** A game whose episode ends in a step starts its next episode in the same step (its
generator goes on, as a PettingZoo environment's ``reset()`` without a seed): its row then holds the new
episode's first position, ``rewards`` the ended episode's rewards (each seat's; an illegal action gives the
acting seat ``illegal_reward`` and the others 0, as PettingZoo's illegal-action wrapper), ``terminated`` or
``truncated`` is True, and ``final_observations[i, seat]`` holds each seat's last observation of the ended
episode (read it in that step: the next step writes the arrays again). This is Gymnasium's "same step"
autoreset (``AutoresetMode.SAME_STEP``), as Stable-Baselines3's vectorised environments do it.

**Buffers.** The arrays of :class:`BatchStep` are the batch's own and are written again by the next ``step``
or ``reset``: copy what you keep. Observations are ``float32``, masks ``int8``, rewards ``float64`` (a
one-card game's can be thirds).

Bounded work holds as in the single environments: the games are played by the same drivers, whose step
decisions are asked step by step on a large table (:mod:`diloti.games.diloti.envs.large`).

**Backends.** A game whose envs part offers a batched kernel for the arguments (a capability: ``batch_kernel``)
is stepped by it, every game in one call: Diloti's is in C (:mod:`diloti.games.diloti.envs.cbatch`: the
standard rules, 2 or 4 players, one-round episodes, where its extension is built), and so are Xeri's and
Kontsina's hands (:mod:`diloti.games.onecard.envs.cbatch`). Everything else is played by
the Python drivers, one game at a time. :attr:`SelfPlayBatch.backend` says which runs (``"c"`` or
``"python"``); ``backend="python"`` asks for the drivers whatever is built. Both give the same arrays
(tests/test_envs_batch_c.py steps them side by side).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from diloti.core.registry import default_game
from diloti.envs.actions import InvalidActionError
from diloti.envs.driver import EnvArgumentError, check_seat, round_seed
from diloti.envs.driver_base import DriverBase, check_max_steps
from diloti.envs.games import BatchKernel, EnvGame, find_env_game

#: The most games one batch plays: a bad argument, not a request for gigabytes, past this.
MAX_ENVS = 1 << 20
#: What ``backend`` may ask for: a game's batched kernel where it has one for the arguments, else the drivers.
BACKENDS = ("auto", "python", "kernel")


def check_num_envs(num_envs: object) -> int:
    """``num_envs``: an int from 1 to :data:`MAX_ENVS`.

    >>> check_num_envs(64)
    64
    >>> check_num_envs(0)
    Traceback (most recent call last):
    ...
    diloti.envs.driver.EnvArgumentError: invalid num_envs=0: expected an int from 1 to 1048576
    """
    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_ENVS:
        raise EnvArgumentError(f"invalid num_envs={num_envs!r:.40}: expected an int from 1 to {MAX_ENVS}")
    return num_envs


def check_seeds(seed: object, num_envs: int) -> list[int | None]:
    """Each game's seed: None (fresh entropy for each), an int (game i gets ``seed + i``, as Gymnasium's vector
    environments do) or a sequence of ``num_envs`` ints or Nones.

    >>> check_seeds(7, 3), check_seeds([5, None], 2)
    ([7, 8, 9], [5, None])
    >>> check_seeds([1], 2)
    Traceback (most recent call last):
    ...
    diloti.envs.driver.EnvArgumentError: invalid seed=[1]: expected None, an int or 2 seeds (one a game)
    """
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(num_envs)]
    if isinstance(seed, Sequence | np.ndarray) and not isinstance(seed, str) and len(seed) == num_envs and all(
            s is None or (isinstance(s, (int, np.integer)) and not isinstance(s, bool)) for s in seed):
        return [None if s is None else int(s) for s in seed]
    raise EnvArgumentError(f"invalid seed={seed!r:.60}: expected None, an int or {num_envs} seeds (one a game)")


def check_action_array(actions: object, num_envs: int, num_actions: int) -> npt.NDArray[np.int64]:
    """:func:`check_actions`' checks and errors, the actions as a new contiguous ``int64`` array (a kernel's input).

    >>> check_action_array([3, 1], 2, 5).tolist()
    [3, 1]
    """
    try:
        arr = np.asarray(actions)
    except (TypeError, ValueError):
        arr = np.asarray([])
    if arr.shape != (num_envs,) or arr.dtype.kind not in "iu" or int(arr.min()) < 0 or int(arr.max()) >= num_actions:
        check_actions(actions, num_envs, num_actions)  # raises, naming the input
    return np.array(arr, dtype=np.int64)


def check_actions(actions: object, num_envs: int, num_actions: int) -> list[int]:
    """One action id a game, as a list of ints (from a sequence or an array of ``num_envs`` integers)."""
    try:
        arr = np.asarray(actions)
    except (TypeError, ValueError):
        arr = np.asarray([])
    if arr.shape != (num_envs,) or arr.dtype.kind not in "iu":
        raise EnvArgumentError(f"invalid actions={actions!r:.60}: expected {num_envs} integer action ids "
                               f"(shape ({num_envs},)), one a game")
    out: list[int] = arr.tolist()
    if num_envs and (min(out) < 0 or max(out) >= num_actions):
        bad = next(i for i, a in enumerate(out) if not 0 <= a < num_actions)
        raise EnvArgumentError(f"invalid actions[{bad}]={out[bad]}: expected an action id 0..{num_actions - 1}")
    return out


@dataclass(frozen=True)
class BatchStep:
    """What :meth:`SelfPlayBatch.step` and ``reset`` write, the batch's own arrays (copy what you keep).

    ``observations`` (N, size) and ``action_masks`` (N, num_actions): the seat to act's, in each game's episode
    now (a new one's after an automatic reset); ``to_act`` (N,): that seat; ``rewards`` (N, players): each seat's
    reward in this step (at an episode's end); ``terminated`` and ``truncated`` (N,): the episode ended in this
    step (then reset); ``illegal`` (N,): it ended by an illegal action; ``final_observations`` (N, players, size):
    each seat's last observation of an episode that ended in this step (other rows: as an earlier step left them).
    """

    observations: npt.NDArray[np.float32]
    action_masks: npt.NDArray[np.int8]
    to_act: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float64]
    terminated: npt.NDArray[np.bool_]
    truncated: npt.NDArray[np.bool_]
    illegal: npt.NDArray[np.bool_]
    final_observations: npt.NDArray[np.float32]

    @property
    def dones(self) -> npt.NDArray[np.bool_]:
        """terminated or truncated, a new array."""
        return self.terminated | self.truncated


class SelfPlayBatch:
    """``num_envs`` games played by action ids, every seat by the caller (see the module's description).

    Arguments as PettingZoo's ``raw_env``: ``game``, ``players``, ``options``, ``dealer`` (None: drawn each
    episode), ``episode`` (``"round"`` or ``"game"``) and ``max_steps`` (None or the decision steps after which an
    episode is truncated); ``illegal_reward`` as ``env()``'s (default: minus the game's ``max_points``);
    ``backend``: ``"auto"`` (the game's batched kernel where it has one for these arguments), ``"python"`` (the
    drivers) or ``"kernel"`` (the kernel, an error where there is none).
    """

    def __init__(self, num_envs: int, game: str | None = None, players: int = 2,
                 options: Mapping[str, Any] | str | Any | None = None, dealer: int | None = None,
                 episode: str = "round", max_steps: int | None = None, illegal_reward: float | None = None,
                 backend: str = "auto") -> None:
        self.num_envs = n = check_num_envs(num_envs)
        self.game: EnvGame = find_env_game(default_game().name if game is None else game)
        self.players = self.game.check_players(players)
        self.options = self.game.check_options(options, self.players)
        self.dealer = check_seat("dealer", dealer, self.players)
        self.episode = self.game.check_episode(episode)
        self.max_steps = check_max_steps(max_steps)
        if illegal_reward is None:
            illegal_reward = -float(self.game.max_points)
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise EnvArgumentError(f"invalid illegal_reward={illegal_reward!r}: expected a number")
        self.illegal_reward = float(illegal_reward)
        self.num_actions = a = self.game.num_actions
        self.size = size = self.game.size
        p = self.players
        # The observations and masks over bytearrays: each game's row is written by one slice assignment of its
        # driver's bytes (no numpy call a game); the arrays see them at once.
        self._obs_raw = bytearray(4 * n * size)
        self._mask_raw = bytearray(n * a)
        self.buffers = BatchStep(
            observations=np.frombuffer(self._obs_raw, np.float32).reshape(n, size),
            action_masks=np.frombuffer(self._mask_raw, np.int8).reshape(n, a),
            to_act=np.zeros(n, np.int64), rewards=np.zeros((n, p), np.float64), terminated=np.zeros(n, np.bool_),
            truncated=np.zeros(n, np.bool_), illegal=np.zeros(n, np.bool_),
            final_observations=np.zeros((n, p, size), np.float32))
        self.drivers: list[DriverBase[Any, Any, Any]] = []
        self.rngs: list[random.Random] = []
        if backend not in BACKENDS:
            raise EnvArgumentError(f"invalid backend={backend!r:.40}: expected one of {', '.join(BACKENDS)}")
        self.kernel: BatchKernel | None = None
        if backend != "python":
            self.kernel = self.game.batch_kernel(n, self.players, self.options, self.episode, self.buffers,
                                                 self.illegal_reward, self.max_steps)
            if self.kernel is None and backend == "kernel":
                raise EnvArgumentError(f"invalid backend='kernel': {self.game.name} has no batched kernel for "
                                       f"players={self.players}, these options and episode={self.episode!r} "
                                       "(or its extension is not built)")
        #: Which backend steps the games: the kernel's name (Diloti's: ``"c"``) or ``"python"``.
        self.backend = "python" if self.kernel is None else self.kernel.name
        # With a kernel: the games it handed to Python (a large table) until their episode ends, by index.
        self._py: dict[int, DriverBase[Any, Any, Any]] = {}

    def _new(self, i: int) -> None:
        """Game ``i``'s next episode, from its generator (PettingZoo's ``reset``), its first position written."""
        rng = self.rngs[i]
        dealer = self.dealer if self.dealer is not None else rng.randrange(self.players)
        k = self.kernel
        if k is not None:
            kd = k.start(i, dealer, round_seed(rng))  # the kernel writes the row of a game it plays
            if kd is None:
                self._py.pop(i, None)
            else:
                self._py[i] = kd
                self._write(i, kd)
            return
        d = self.drivers[i] = self.game.driver(self.players, self.options, dealer, round_seed(rng), self.episode)
        self._write(i, d)

    def _write(self, i: int, d: DriverBase[Any, Any, Any]) -> None:
        seat = d.to_act
        self.buffers.to_act[i] = seat
        row = 4 * self.size
        self._obs_raw[i * row:(i + 1) * row] = d.observation_data(seat)
        a = self.num_actions
        self._mask_raw[i * a:(i + 1) * a] = d.decision.mask_bytes()

    def reset(self, seed: int | Sequence[int | None] | None = None) -> BatchStep:
        """Every game's first episode: game i's generator started from its seed (:func:`check_seeds`)."""
        seeds = check_seeds(seed, self.num_envs)
        self.rngs = [random.Random(s) for s in seeds]
        self.drivers = [None] * self.num_envs  # type: ignore[list-item]  # each made at once below (or the kernel's)
        self._py = {}
        b = self.buffers
        b.rewards[:] = 0.0
        b.terminated[:] = False
        b.truncated[:] = False
        b.illegal[:] = False
        for i in range(self.num_envs):
            self._new(i)
        return b

    def step(self, actions: npt.ArrayLike) -> BatchStep:
        """Each game's seat to act takes its action (see the module's description); the arrays written."""
        if not self.drivers:
            raise EnvArgumentError("step() before reset(): call reset() first")
        b = self.buffers
        rewards, terminated, truncated, illegal = b.rewards, b.terminated, b.truncated, b.illegal
        k = self.kernel
        if k is not None:
            arr = check_action_array(actions, self.num_envs, self.num_actions)
            rewards[:] = 0.0
            terminated[:] = False
            truncated[:] = False
            illegal[:] = False
            py = list(self._py.items())  # the games Python plays in this step (before the kernel's step)
            ended, handed = k.step(arr)
            for i in ended:
                self._new(i)
            for i in handed:
                d = self._py[i] = k.export(i)
                self._write(i, d)
            for i, d in py:
                self._step_one(i, d, int(arr[i]))
            return b
        acts = check_actions(actions, self.num_envs, self.num_actions)
        # Rows of the games whose episodes end are set below; the others' last step is cleared at once.
        rewards[:] = 0.0
        terminated[:] = False
        truncated[:] = False
        illegal[:] = False
        for i, action in enumerate(acts):
            self._step_one(i, self.drivers[i], action)
        return b

    def _step_one(self, i: int, d: DriverBase[Any, Any, Any], action: int) -> None:
        """Game ``i``'s step through its driver ``d``: its row (and, if its episode ends, its final observations,
        rewards and dones) written."""
        b = self.buffers
        rewards, terminated, truncated = b.rewards, b.terminated, b.truncated
        limit = self.max_steps
        try:
            d.apply(action)
        except InvalidActionError:
            rewards[i, d.to_act] = self.illegal_reward
            terminated[i] = b.illegal[i] = True
            self._final(i, d)
            return
        if d.over:
            rewards[i] = d.returns()
            terminated[i] = True
            self._final(i, d)
        elif limit is not None and d.applied >= limit:
            rewards[i] = d.returns()
            truncated[i] = True
            self._final(i, d)
        else:
            self._write(i, d)

    def _final(self, i: int, d: DriverBase[Any, Any, Any]) -> None:
        final = self.buffers.final_observations[i]
        for seat in range(self.players):
            final[seat] = d.observation(seat)
        self._new(i)

    def python_games(self) -> list[int]:
        """The games the Python drivers play now: every game without a kernel; with one, those it handed over (a
        large table) until their episode ends."""
        if self.kernel is None:
            return list(range(self.num_envs)) if self.drivers else []
        return sorted(self._py)

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A random legal action for each game's seat to act (uniform over its mask), drawn from ``rng``: the same
        actions from the same generator with a kernel (its own pass over the masks) as without."""
        if self.kernel is not None:
            return self.kernel.sample(rng.random(self.num_envs))  # sample_masks' one draw
        return sample_masks(self.buffers.action_masks, rng)


def sample_masks(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """For each row of ``masks`` (N, A), a column where it is nonzero, uniformly, drawn from ``rng``; a row without
    one gets 0. A mask holds a few legal actions among hundreds: the nonzero places are found once (one pass
    over the bytes) and each row's k-th taken, k uniform below its count.

    >>> sample_masks(np.array([[0, 1, 0, 1], [1, 0, 0, 0]], np.int8), np.random.default_rng(0)).tolist()
    [3, 0]
    """
    n, a = masks.shape
    flat = np.flatnonzero(masks)
    counts = np.bincount(flat // a, minlength=n)
    starts = np.cumsum(counts) - counts
    k = (rng.random(n) * counts).astype(np.int64)
    out = np.zeros(n, np.int64)
    has = counts > 0
    out[has] = flat[(starts + k)[has]] % a
    return out


__all__ = ["BACKENDS", "MAX_ENVS", "BatchStep", "SelfPlayBatch", "check_action_array", "check_actions",
           "check_num_envs", "check_seeds", "sample_masks"]
