"""What researchers' tools do with the environments: copy them mid-round, keep their arrays, vectorise them."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is missing")

from diloti.envs import pettingzoo_env
from diloti.envs.driver import EnvArgumentError


def run(env: Any, rng: random.Random, steps: int | None = None) -> list[tuple[str, int | None, float, bytes]]:
    out = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        action = None if termination or truncation else rng.choice(obs["action_mask"].nonzero()[0].tolist())
        out.append((agent, action, reward, obs["observation"].tobytes()))
        env.step(action)
        if steps is not None and len(out) >= steps:
            break
    return out


@pytest.mark.parametrize(("game", "players"), [("diloti", 2), ("diloti", 4), ("xeri", 2), ("kontsina", 3)])
def test_a_copied_env_goes_on_exactly_like_its_original(game: str, players: int) -> None:
    env = pettingzoo_env.env(game=game, players=players)
    env.reset(seed=3)
    run(env, random.Random(0), steps=9)
    deep, pickled = copy.deepcopy(env), pickle.loads(pickle.dumps(env))
    original = run(env, random.Random(5))
    assert len(original) > 20
    assert run(deep, random.Random(5)) == original
    assert run(pickled, random.Random(5)) == original


def test_observations_are_read_only() -> None:
    env = pettingzoo_env.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    for array in (obs["observation"], obs["action_mask"], env.observe("player_0")["action_mask"]):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1


def test_a_render_mode_not_offered_is_a_type_error_too() -> None:
    with pytest.raises(TypeError, match="render_mode='rgb_array'"):
        pettingzoo_env.env(render_mode="rgb_array")
    with pytest.raises(EnvArgumentError):
        pettingzoo_env.env(render_mode="rgb_array")


@pytest.mark.filterwarnings("ignore:.*render_mode=.rgb_array.")  # SB3 asks for it first, then does without
def test_stable_baselines3_make_vec_env_and_maskable_ppo() -> None:
    pytest.importorskip("sb3_contrib", reason="the baselines extra (pip install 'diloti[baselines]') is missing")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger

    import diloti.envs  # noqa: F401 - registers the ids

    venv = make_vec_env("diloti/Diloti-v0", n_envs=2, seed=0, env_kwargs={"opponent": "random"})
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu")
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's own makes a folder in /tmp even when silent
    model.learn(256)
    obs = venv.reset()
    assert isinstance(obs, dict)  # the environment's observations are Dict spaces
    actions, _ = model.predict(obs, action_masks=np.stack(venv.env_method("action_masks")))
    assert all(mask[a] for a, mask in zip(actions, venv.env_method("action_masks"), strict=True))
