"""The batched environment for Stable-Baselines3: :class:`SB3VecEnv`, an SB3 ``VecEnv`` over a
:class:`~diloti.envs.vector.CardGameVectorEnv`.

Stable-Baselines3 (and sb3-contrib's ``MaskablePPO``) take their own ``VecEnv``, not Gymnasium's vector
environments; this one steps the whole batch in one call, the games the single environment's
(``CardGameEnv``'s spaces: a dict of ``"observation"`` and ``"action_mask"``, so ``MultiInputPolicy``
reads both). It answers ``env_method("action_masks")`` with each game's mask, as ``MaskablePPO`` asks::

    from sb3_contrib import MaskablePPO
    from diloti.envs.sb3 import SB3VecEnv
    from diloti.envs.vector import CardGameVectorEnv

    venv = SB3VecEnv(CardGameVectorEnv(64, opponent="random"))
    venv.seed(0)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, device="cpu").learn(20_000)

An episode's end: SB3's ``infos[i]["terminal_observation"]`` is its last observation and
``infos[i]["TimeLimit.truncated"]`` says it was cut at ``max_steps``; the observation returned is the next
episode's first (SB3's own automatic reset). Needs the ``baselines`` extra.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from stable_baselines3.common.vec_env import VecEnv

from diloti.envs.vector import CardGameVectorEnv


class SB3VecEnv(VecEnv):
    """Stable-Baselines3's ``VecEnv`` over ``venv`` (see the module's description)."""

    def __init__(self, venv: CardGameVectorEnv) -> None:
        self.venv = venv
        self.render_mode = None
        self._actions: npt.NDArray[np.int64] | None = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    def reset(self) -> dict[str, npt.NDArray[Any]]:
        seeds = self._seeds if any(s is not None for s in self._seeds) else None
        obs, _ = self.venv.reset(seed=seeds)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: npt.NDArray[np.int64]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[dict[str, npt.NDArray[Any]], npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                 list[dict[str, Any]]]:
        assert self._actions is not None, "step_wait() before step_async()"
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        self._actions = None
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            out[i]["terminal_observation"] = infos["final_obs"][i]
            out[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, out

    def close(self) -> None:
        """Nothing to free: the games live in this process."""

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every game's mask as booleans (N, num_actions)."""
        return self.venv.action_masks()

    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        """The batched environment's attribute, once for each game asked for (every game has the same)."""
        value = getattr(self, attr_name) if attr_name in ("render_mode", "action_masks") else getattr(
            self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: int | Iterable[int] | None = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: int | Iterable[int] | None = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks``: each game's mask; another method: the batched environment's, once for each game."""
        idx = self._indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in idx]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: int | Iterable[int] | None = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[npt.NDArray[Any] | None]:
        return [None for _ in range(self.num_envs)]


__all__ = ["SB3VecEnv"]
