"""The batched environments play the single environments' games (issue 52 items 1 and 2).

Side by side from the same seeds, for every game with an envs part and every player count, rounds and whole
games: :class:`CardGameVectorEnv` against one :class:`CardGameEnv` a game, and :class:`SelfPlayBatch` against one
PettingZoo ``env()`` a game, every observation, mask, reward and end compared at every step, across automatic
resets (the final observations too), step limits and illegal actions.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is not installed")

from gymnasium.vector import AutoresetMode, VectorEnv

from batch_compare import pick, same, step_beside_pettingzoo
from diloti.envs import pettingzoo_env
from diloti.envs.batch import SelfPlayBatch
from diloti.envs.driver import EnvArgumentError
from diloti.envs.games import env_games
from diloti.envs.gym_env import CardGameEnv
from diloti.envs.vector import CardGameVectorEnv

CASES = [(name, players, "round") for name, g in env_games().items() for players in g.players]
CASES += [(name, 2, "game") for name, g in env_games().items() if "game" in g.part.episodes]


def options_of(episode: str) -> Any:
    return {"target": 21} if episode == "game" else None  # short whole games


@pytest.mark.parametrize(("name", "players", "episode"), CASES)
def test_vector_env_steps_as_the_single_envs(name: str, players: int, episode: str) -> None:
    n, seed = 3, 40
    kwargs: dict[str, Any] = {"game": name, "players": players, "episode": episode, "options": options_of(episode)}
    vec = CardGameVectorEnv(n, **kwargs)
    singles = [CardGameEnv(**kwargs) for _ in range(n)]
    obs, infos = vec.reset(seed=seed)
    one = [env.reset(seed=seed + i) for i, env in enumerate(singles)]
    rng = random.Random(1)
    episodes = [0] * n
    for _ in range(400 if episode == "round" else 800):
        for i, (o, info) in enumerate(one):
            assert same(obs["observation"][i], o["observation"]) and same(obs["action_mask"][i], o["action_mask"])
            assert infos["seat"][i] == info["seat"]
        actions = [pick(o["action_mask"], rng) for o, _ in one]
        obs, rewards, terminated, truncated, infos = vec.step(np.array(actions))
        for i, env in enumerate(singles):
            o, r, te, tr, info = env.step(actions[i])
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr)
            if te or tr:
                assert infos["_final_obs"][i]
                final = infos["final_obs"][i]
                assert same(final["observation"], o["observation"]) and same(final["action_mask"], o["action_mask"])
                episodes[i] += 1
                o, info = env.reset()  # the generator goes on, as the batch's
            else:
                assert "_final_obs" not in infos or not infos["_final_obs"][i]
            one[i] = (o, info)
    assert min(episodes) >= 2


@pytest.mark.parametrize(("name", "players", "episode"), CASES)
def test_self_play_batch_steps_as_pettingzoo(name: str, players: int, episode: str) -> None:
    n, seed = 3, 70
    kwargs: dict[str, Any] = {"game": name, "players": players, "episode": episode, "options": options_of(episode)}
    batch = SelfPlayBatch(n, **kwargs)
    envs = [pettingzoo_env.env(**kwargs) for _ in range(n)]
    episodes = step_beside_pettingzoo(batch, envs, seed, 400 if episode == "round" else 800, rng_seed=2)
    assert min(episodes) >= 2


@pytest.mark.parametrize("max_steps", [5, 17])
def test_step_limits_and_illegal_actions_as_the_single_envs(max_steps: int) -> None:
    n, seed = 4, 5
    vec = CardGameVectorEnv(n, max_steps=max_steps, illegal_reward=-7.0)
    singles = [CardGameEnv(max_steps=max_steps, illegal_reward=-7.0) for _ in range(n)]
    obs, _ = vec.reset(seed=seed)
    one = [env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]
    rng = random.Random(3)
    truncations = illegal = 0
    for _ in range(60):
        actions = []
        for o in one:
            bad = np.flatnonzero(o["action_mask"] == 0)
            actions.append(int(bad[0]) if rng.random() < 0.05 else pick(o["action_mask"], rng))
        obs, rewards, terminated, truncated, infos = vec.step(np.array(actions))
        for i, env in enumerate(singles):
            o, r, te, tr, info = env.step(actions[i])
            assert (rewards[i], terminated[i], truncated[i]) == (r, te, tr)
            assert bool(infos["illegal_action"][i]) == bool(info.get("illegal_action", False))
            if te or tr:
                truncations += tr
                illegal += bool(info.get("illegal_action"))
                final = infos["final_obs"][i]
                assert same(final["observation"], o["observation"]) and same(final["action_mask"], o["action_mask"])
                o, _ = env.reset()
            assert same(obs["observation"][i], o["observation"]) and same(obs["action_mask"][i], o["action_mask"])
            one[i] = o
    assert truncations and illegal


def test_self_play_illegal_action_and_truncation() -> None:
    batch = SelfPlayBatch(2, max_steps=3, illegal_reward=-9.0)
    out = batch.reset(seed=1)
    bad = int(np.flatnonzero(out.action_masks[0] == 0)[0])
    seat = int(out.to_act[0])
    good = int(np.flatnonzero(out.action_masks[1])[0])
    out = batch.step([bad, good])
    assert out.terminated[0] and out.illegal[0] and not out.truncated[0]
    assert out.rewards[0, seat] == -9.0 and out.rewards[0].sum() == -9.0
    rng = np.random.default_rng(0)
    for _ in range(2):
        out = batch.step(batch.sample_actions(rng))
    assert out.truncated[1] and not out.terminated[1]


def test_the_vector_env_is_a_gymnasium_vector_env() -> None:
    vec = CardGameVectorEnv(5, game="xeri", copy=False)
    assert isinstance(vec, VectorEnv)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, _ = vec.reset(seed=0)
    assert obs in vec.observation_space
    assert obs["observation"].shape == (5, vec.game.size) and obs["observation"].dtype == np.float32
    assert vec.action_masks().dtype == np.bool_ and vec.action_masks().shape == (5, vec.game.num_actions)
    again, *_ = vec.step(vec.sample_actions(np.random.default_rng(1)))
    assert again["observation"] is obs["observation"]  # copy=False: the buffers themselves
    assert vec.action_space.shape == (5,)


def test_sampled_actions_are_legal_and_cover_the_mask() -> None:
    batch = SelfPlayBatch(64)
    out = batch.reset(seed=3)
    rng = np.random.default_rng(0)
    seen: set[int] = set()
    for _ in range(50):
        acts = batch.sample_actions(rng)
        assert out.action_masks[np.arange(64), acts].all()
        seen.update(acts[out.action_masks.sum(axis=1) > 1].tolist())
        out = batch.step(acts)
    assert len(seen) > 20


@pytest.mark.parametrize(("args", "message"), [
    ({"num_envs": 0}, "invalid num_envs=0"),
    ({"num_envs": 2, "players": 3}, "invalid players=3"),
    ({"num_envs": 2, "game": "pishti"}, "invalid game='pishti'"),
    ({"num_envs": 2, "max_steps": 0}, "invalid max_steps=0"),
])
def test_bad_arguments_name_the_input(args: dict[str, Any], message: str) -> None:
    for cls in (SelfPlayBatch, CardGameVectorEnv):
        with pytest.raises(EnvArgumentError, match=message):
            cls(**args)


def test_bad_steps_name_the_input() -> None:
    batch = SelfPlayBatch(3)
    with pytest.raises(EnvArgumentError, match="step\\(\\) before reset"):
        batch.step([0, 0, 0])
    batch.reset(seed=0)
    with pytest.raises(EnvArgumentError, match="expected 3 integer action ids"):
        batch.step([0, 0])
    with pytest.raises(EnvArgumentError, match="invalid actions\\[1\\]=9999"):
        batch.step([0, 9999, 0])
    with pytest.raises(EnvArgumentError, match="invalid seed"):
        batch.reset(seed=[1, 2])


def test_always_lay_stays_bounded_in_the_batch() -> None:
    """A policy that lays whenever it can grows large tables; the batch's steps stay bounded as the single
    environments' (tests/test_envs_large.py)."""
    from test_envs_large import lay_first

    batch = SelfPlayBatch(8, backend="python")  # the drivers' tables read below (the C batch's: test_envs_batch_c)
    out = batch.reset(seed=0)
    worst = 0.0
    ended = biggest = 0
    for _ in range(500):
        actions = [lay_first(out.action_masks[i]) for i in range(8)]
        start = time.process_time()
        out = batch.step(actions)
        worst = max(worst, time.process_time() - start)
        ended += int(out.terminated.sum())
        biggest = max(biggest, *(len(d.state.table) for d in batch.drivers))
    assert ended >= 8
    # As tests/test_envs_large.py: no step unbounded (the listed decision took over 80 s at a 32-card table).
    assert worst < 5.0, worst
    assert biggest >= 20  # laying every turn grew tables far past the listed decision's reach


def test_maskable_ppo_takes_the_batch_as_it_is() -> None:
    """sb3-contrib's MaskablePPO trains on the batched environment through SB3's VecEnv, each game's mask asked."""
    sb3_contrib = pytest.importorskip("sb3_contrib", reason="the baselines extra is not installed")
    from diloti.envs.sb3 import SB3VecEnv

    venv = SB3VecEnv(CardGameVectorEnv(8, game="xeri"))
    venv.seed(0)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                                    device="cpu")
    model.learn(256)
    assert model.num_timesteps >= 256
    obs = venv.reset()
    masks = venv.action_masks()
    actions, _ = model.predict(obs, action_masks=masks)
    assert masks[np.arange(8), actions].all()


def test_without_the_c_extension_the_batch_plays_its_drivers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where Diloti's C batch is not built, the batch runs the Python drivers and says so (the same games)."""
    from diloti.games.diloti.envs import cbatch

    monkeypatch.setattr(cbatch, "_cbatch", None)
    assert not cbatch.available()
    batch = SelfPlayBatch(3)
    assert batch.backend == "python" and batch.kernel is None
    out = batch.reset(seed=2)
    assert out.action_masks.sum(axis=1).min() >= 1 and batch.python_games() == [0, 1, 2]
    with pytest.raises(EnvArgumentError, match="invalid backend='kernel': diloti has no batched kernel"):
        SelfPlayBatch(3, backend="kernel")
