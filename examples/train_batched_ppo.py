"""Masked PPO trained on the batched environment on the CPU, then played against the built-in levels.

    .venv/bin/python examples/train_batched_ppo.py --steps 50000 --envs 64 --games 40
    .venv/bin/python examples/train_batched_ppo.py --evaluate /tmp/ppo_batched.zip --against random greedy

Trains sb3-contrib's ``MaskablePPO`` (``MultiInputPolicy``: the observation and the action mask) on
:class:`diloti.envs.vector.CardGameVectorEnv` (``--envs`` Diloti rounds stepped by one call, 2 players,
the learner against ``--opponent``) through :class:`diloti.envs.sb3.SB3VecEnv`, for ``--steps`` environment
steps, and prints the training's environment steps per second (the batch's own and the whole loop's, with
PPO's updates). It then plays the model, its most likely legal action at each step, in duplicate-deal
matches against each ``--against`` level with the reference table's harness (``play_match``: games to 61,
seed 1, as docs/RESEARCH.md's table), printing win rates and points a round with 95% intervals.

Needs the ``baselines`` extra (``pip install -e '.[baselines]'``; torch's CPU build: docs/RESEARCH.md).
The figures of one run are in examples/README.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from diloti.envs.policies import PolicyPlayer

_MODELS: dict[str, Any] = {}


def PPOPlayer(seed: int | None = None, model: str = "") -> PolicyPlayer:
    """A saved MaskablePPO model (``model=PATH``) as a computer player: its most likely legal action."""
    from sb3_contrib import MaskablePPO

    if not model or not Path(model).exists():
        raise ValueError(f"invalid model={model!r}: expected the path of a saved MaskablePPO model")
    if model not in _MODELS:
        _MODELS[model] = MaskablePPO.load(model, device="cpu")
    ppo = _MODELS[model]

    def policy(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        obs = {"observation": observation[None, :], "action_mask": mask[None, :]}
        action, _ = ppo.predict(obs, action_masks=mask.astype(bool)[None, :], deterministic=True)
        return int(action[0])

    return PolicyPlayer(policy)


def train(steps: int, envs: int, opponent: str, seed: int, out: Path) -> tuple[float, float]:
    """Train and save; (the whole loop's environment steps a second, the batch's alone), both on the CPU clock."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    from diloti.envs.sb3 import SB3VecEnv
    from diloti.envs.vector import CardGameVectorEnv

    torch.set_num_threads(1)  # one core: the figures are per core, and the machine is shared
    batch = CardGameVectorEnv(envs, opponent=opponent, copy=False)
    venv = SB3VecEnv(batch)
    venv.seed(seed)
    # PPO's updates, not the games, bound the loop: 4 epochs of batches of 512 (SB3's defaults: 10 of 64).
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=max(8, min(2048, steps) // envs), batch_size=512, n_epochs=4,
                        seed=seed, device="cpu", verbose=0)
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's own makes a folder in /tmp even when silent
    spent = [0.0]
    step_wait = venv.step_wait

    def timed() -> Any:  # the batch's own share of the loop
        t = time.process_time()
        result = step_wait()
        spent[0] += time.process_time() - t
        return result

    venv.step_wait = timed  # type: ignore[method-assign]
    model.learn(1)  # torch's first calls (one rollout), not counted
    spent[0] = 0.0
    first = model.num_timesteps
    start = time.process_time()
    model.learn(steps, reset_num_timesteps=False)
    seconds = time.process_time() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    done = model.num_timesteps - first
    return done / seconds, done / max(spent[0], 1e-9)


def evaluate(model: Path, games: int, levels: list[str]) -> None:
    from diloti.match.tournament import play_match

    sys.path.insert(0, str(Path(__file__).resolve().parent))  # "train_batched_ppo:PPOPlayer" imports this file
    spec = f"train_batched_ppo:PPOPlayer:model={model}"
    for level in levels:
        start = time.perf_counter()
        r = play_match(spec, level, games=games, seed=1)
        print(f"PPO vs {level}: {r.games} games, win rate {r.win_rate.mean:.1%} ({r.win_rate.low:.1%} .. "
              f"{r.win_rate.high:.1%}), points a round {r.points_per_round} [{time.perf_counter() - start:.0f} s]",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=50_000, help="environment steps of training (default 50000)")
    ap.add_argument("--envs", type=int, default=64, help="games in the batch (default 64)")
    ap.add_argument("--opponent", default="random", help="the level the learner trains against (default random)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("/tmp/ppo_batched.zip"), help="where the model is saved")
    ap.add_argument("--evaluate", type=Path, metavar="MODEL", help="evaluate a saved model instead of training")
    ap.add_argument("--games", type=int, default=40, help="games against each level (default 40)")
    ap.add_argument("--against", nargs="*", default=["random", "greedy", "heuristic"],
                    help="the levels to play (default random greedy heuristic)")
    args = ap.parse_args(argv)
    if args.steps < 1 or args.envs < 1 or args.games < 0:
        ap.error("--steps and --envs must be at least 1, --games at least 0")
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        print("examples/train_batched_ppo.py: needs the baselines extra: pip install -e '.[baselines]'",
              file=sys.stderr)
        return 2
    model = args.evaluate
    if model is None:
        loop, batch = train(args.steps, args.envs, args.opponent, args.seed, args.out)
        model = args.out
        print(f"trained MaskablePPO for {args.steps} steps on {args.envs} games against {args.opponent}: "
              f"{loop:,.0f} steps/s with PPO's updates, the batch alone {batch:,.0f} steps/s (CPU clock); "
              f"saved {model}", flush=True)
    if not model.exists():
        print(f"examples/train_batched_ppo.py: invalid --evaluate {model}: no such file", file=sys.stderr)
        return 2
    if args.games:
        evaluate(model, args.games, args.against)
    return 0


if __name__ == "__main__":
    sys.exit(main())
