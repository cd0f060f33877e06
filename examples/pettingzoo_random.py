"""Random agents on the PettingZoo environment diloti_v0 (or xeri_v0, kontsina_v0), printed with render_mode="ansi".

    .venv/bin/python examples/pettingzoo_random.py --players 4 --rounds 3 --options "liberal_groups soy"
    .venv/bin/python examples/pettingzoo_random.py --game kontsina --players 3 --options forced_capture

Needs the research extra: ``pip install 'diloti[research]'``.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from diloti.envs import pettingzoo_env


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="diloti", choices=["diloti", "xeri", "kontsina"])
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4], help="3: Kontsina only")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--options", default="", help="options text, e.g. 'liberal_groups soy'")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only each round's rewards")
    args = parser.parse_args(argv)
    env = pettingzoo_env.env(game=args.game, players=args.players, options=args.options, render_mode="ansi")
    rng = np.random.default_rng(args.seed)
    for r in range(args.rounds):
        env.reset(seed=args.seed + r)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            if termination or truncation:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            if not args.quiet:
                print(env.render(), end="\n\n")
        print(f"round {r + 1}: " + ", ".join(f"{a} {v:+g}" for a, v in totals.items()))
    env.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
