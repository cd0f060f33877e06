"""A learned baseline: MaskablePPO trained on the CPU, then evaluated with the harness against the built-in levels.

    .venv/bin/python bench/baselines.py --steps 20000 --opponent random --out bench/results/ppo_20k.zip
    .venv/bin/python bench/baselines.py --evaluate bench/results/ppo_20k.zip --games 200

Trains Stable-Baselines3-contrib's ``MaskablePPO`` (``MultiInputPolicy``, default hyperparameters but
``n_steps``) on the Gymnasium environment ``diloti/Diloti-v0`` (one round an episode, 2 players, the
learner against ``--opponent``) for ``--steps`` environment steps, saves the model, and plays it through
:class:`diloti.envs.policies.PolicyPlayer` in duplicate-deal matches (``play_match``, games to 61)
against random, greedy, heuristic and expert, printing each result with its 95% intervals.

The learned player is also an outside player for ``diloti tournament``, by import path, with the
``bench`` folder on ``PYTHONPATH``::

    PYTHONPATH=bench .venv/bin/diloti tournament baselines:PPOPlayer:model=bench/results/ppo_20k.zip expert

Needs the ``baselines`` extra (``pip install -e '.[baselines]'``; torch's CPU build: docs/RESEARCH.md).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from diloti.envs.policies import PolicyPlayer

OPPONENTS = ["random", "greedy", "heuristic", "expert:iterations=300,seconds=none"]
_MODELS: dict[str, Any] = {}


def _load(path: str) -> Any:
    from sb3_contrib import MaskablePPO

    if path not in _MODELS:
        _MODELS[path] = MaskablePPO.load(path, device="cpu")
    return _MODELS[path]


def PPOPlayer(seed: int | None = None, model: str = "", greedy: bool = True) -> PolicyPlayer:
    """A trained MaskablePPO model (``model=PATH``) as a computer player; ``greedy=false`` samples its policy."""
    if not model or not Path(model).exists():
        raise ValueError(f"invalid model={model!r}: expected the path of a saved MaskablePPO model")
    ppo = _load(model)

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        obs = {"observation": observation[None, :], "action_mask": mask[None, :]}
        action, _ = ppo.predict(obs, action_masks=mask.astype(bool)[None, :], deterministic=greedy)
        return int(action[0])

    return PolicyPlayer(policy)


def train(steps: int, opponent: str, seed: int, out: Path, envs: int) -> float:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.logger import Logger

    import diloti.envs  # noqa: F401 - registers diloti/Diloti-v0

    venv = make_vec_env("diloti/Diloti-v0", n_envs=envs, seed=seed, env_kwargs={"opponent": opponent})
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=256, seed=seed, device="cpu", verbose=0)
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's own makes a folder in /tmp even when silent
    start = time.perf_counter()
    model.learn(steps)
    seconds = time.perf_counter() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return seconds


def slim(path: Path) -> int:
    """Rewrite a saved model without its optimizer's running averages (Adam keeps two per weight, twice the
    weights' size): it plays exactly as before, but further training starts Adam afresh. Its new size."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")
    policy = model.policy
    optimizer: Any = policy.optimizer_class  # Adam by default, which takes lr (torch's base Optimizer does not)
    policy.optimizer = optimizer(policy.parameters(), lr=policy.optimizer.param_groups[0]["lr"],
                                 **policy.optimizer_kwargs)
    model.save(path)
    return path.stat().st_size


def evaluate(model: Path, games: int, seed: int, opponents: list[str]) -> None:
    from diloti.match.tournament import play_match

    sys.path.insert(0, str(Path(__file__).resolve().parent))  # so that "baselines:PPOPlayer" imports this file
    spec = f"baselines:PPOPlayer:model={model}"
    for opponent in opponents:
        start = time.perf_counter()
        r = play_match(spec, opponent, games=games, seed=seed)
        print(f"PPO ({model.name}) vs {opponent}: {r.games} games, win rate {r.win_rate.mean:.1%} "
              f"({r.win_rate.low:.1%} .. {r.win_rate.high:.1%}), points a round {r.points_per_round} "
              f"[{time.perf_counter() - start:.0f} s]", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=20000, help="environment steps of training (default 20000)")
    ap.add_argument("--opponent", default="random", help="the level the learner trains against (default random)")
    ap.add_argument("--envs", type=int, default=4, help="environments stepped together (default 4)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("bench/results/ppo.zip"), help="where the model is saved")
    ap.add_argument("--evaluate", type=Path, metavar="MODEL", help="evaluate a saved model instead of training")
    ap.add_argument("--games", type=int, default=100, help="games against each level (default 100)")
    ap.add_argument("--against", nargs="*", default=OPPONENTS, help="the levels to evaluate against")
    ap.add_argument("--slim", action="store_true",
                    help="save the model without the optimizer's state (it plays the same; a third of the file)")
    args = ap.parse_args(argv)
    if args.steps < 1 or args.games < 1 or args.envs < 1:
        ap.error("--steps, --games and --envs must be at least 1")
    try:
        import sb3_contrib  # noqa: F401
    except ImportError:
        print("bench/baselines.py: needs the baselines extra: pip install -e '.[baselines]'", file=sys.stderr)
        return 2
    model = args.evaluate
    if model is None:
        seconds = train(args.steps, args.opponent, args.seed, args.out, args.envs)
        model = args.out
        print(f"trained MaskablePPO for {args.steps} steps against {args.opponent} in {seconds:.0f} s "
              f"({args.steps / seconds:.0f} steps/s); saved {model}", flush=True)
    if args.slim and model.exists():
        print(f"slimmed {model}: {slim(model):,} bytes", flush=True)
    if not model.exists():
        print(f"bench/baselines.py: invalid --evaluate {model}: no such file", file=sys.stderr)
        return 2
    evaluate(model, args.games, args.seed, args.against)
    return 0


if __name__ == "__main__":
    sys.exit(main())
