"""A random (masked) agent against a built-in level on the Gymnasium environment diloti/Diloti-v0 (or Xeri, Kontsina).

    .venv/bin/python examples/gym_random.py --opponent greedy --episodes 20
    .venv/bin/python examples/gym_random.py --game xeri --opponent heuristic --players 4

Needs the research extra: ``pip install 'diloti[research]'``.
"""

from __future__ import annotations

import argparse
import sys

import gymnasium
import numpy as np

import diloti.envs  # registers diloti/Diloti-v0, diloti/Xeri-v0 and diloti/Kontsina-v0
from diloti.ai import LEVELS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--opponent", default="greedy", help=f"a level ({', '.join(LEVELS)}) or a level spec")
    parser.add_argument("--game", default="diloti", choices=list(diloti.envs.GYM_IDS))
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4], help="3: Kontsina only")
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    env = gymnasium.make(diloti.envs.GYM_IDS[args.game], opponent=args.opponent, players=args.players)
    rng = np.random.default_rng(args.seed)
    total = 0.0
    for e in range(args.episodes):
        obs, info = env.reset(seed=args.seed + e)
        steps = 0
        while True:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        total += float(reward)
        print(f"episode {e + 1}: seat {info['seat']}, {steps} steps, reward {reward:+g}")
    episode = "round" if args.game == "diloti" else "hand"
    print(f"random agent against {args.opponent}: {total / args.episodes:+.2f} points a {episode}")
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
