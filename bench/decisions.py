"""Benchmark: two players' decisions on the same positions, scored in the true deal (duplicate positions).

Usage: .venv/bin/python bench/decisions.py A B [--positions 300] [--rollouts 64] [--players 2] [--deals 9] [--same-seed]
                                 [--judge fast|counted|both] [--source SPEC] [--seed 1]

Whole rounds are played by ``--source`` players (default ``expert:iterations=100,seconds=none``);
at each decision both A and B choose from the mover's view (only the view). Where
they choose the same move the difference is 0; where they differ, both moves are
played in the **true** state (every hand and the stock as they really are) and
continued by the search's rollout policy to the end of the round (``--deals``:
how many deal ends; 9 = the round's end), ``--rollouts`` times with common random
numbers, and A's move is scored minus B's in round points for the mover's side.

Since the true deal is a draw from what the view allows, the mean difference
over positions estimates how much better A's decisions are than B's under that
continuation, with far less noise than whole games (most decisions agree, and
those cost nothing to score). It is a screen, not the ladder: the continuation
is the rollout policy, not the players themselves. ``--judge counted`` continues with
the ``heuristic``'s card counting instead (each mover from its own view: no player reads another's hand,
as the fast policy does), about 40 times as costly; ``both`` prints a line for each judge. With ``--same-seed`` A and B
get the same seed at each decision: two specs that differ in one setting then
draw the same worlds, so they differ only where that setting changes the
choice (a paired screen of one change, free of the search's own noise). Prints the number of
positions, how many decisions differed, and the mean difference per decision
with its 95% normal interval.
"""

from __future__ import annotations

import argparse
import random
from statistics import NormalDist, fmean, stdev

from diloti.ai import make_player
from diloti.ai.part import SearchSettings
from diloti.ai.search import playout
from diloti.core.phase import Phase
from diloti.games.diloti.players import rollouts
from diloti.games.diloti.players.knowledge import decide_redeal
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View


def positions(n: int, players: int, spec: str, seed: int) -> list[tuple[View, State]]:
    """The mover's view and the true state at ``n`` decisions with a choice, from whole rounds."""
    out: list[tuple[View, State]] = []
    r = 0
    while len(out) < n:
        s = State.new(players, seed=seed * 100_019 + r)
        bots = [make_player(spec, seed * 1000 + r * 10 + i, measurement=True) for i in range(players)]
        while not s.is_over and len(out) < n:
            v = s.view(s.turn)
            if v.phase == Phase.DECIDE:
                s.push(decide_redeal(v))
                continue
            if len(v.legal) > 1:
                out.append((v, s.copy()))
            s.push(bots[s.turn].choose(v))
        r += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--rollouts", type=int, default=64)
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    ap.add_argument("--deals", type=int, default=9)
    ap.add_argument("--source", default="expert:iterations=100,seconds=none")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--judge", choices=("fast", "counted", "both"), default="fast",
                    help="the continuation that scores a move: the search's fast rollout policy, or card counting")
    ap.add_argument("--same-seed", action="store_true",
                    help="A and B share each decision's seed: with one setting changed, they differ only by it")
    args = ap.parse_args()
    judges = ["fast", "counted"] if args.judge == "both" else [args.judge]
    diffs: dict[str, list[float]] = {j: [] for j in judges}
    differ = 0
    for i, (view, truth) in enumerate(positions(args.positions, args.players, args.source, args.seed)):
        ma = make_player(args.a, 7919 * i + 1, measurement=True).choose(view)
        mb = make_player(args.b, 7919 * i + (1 if args.same_seed else 2), measurement=True).choose(view)
        if ma == mb:
            for j in judges:
                diffs[j].append(0.0)
            continue
        differ += 1
        for j in judges:
            rng = random.Random(f"{args.seed}/{i}")
            total = 0.0
            for _ in range(args.rollouts):
                seed = rng.getrandbits(64)
                values = []
                for m in (ma, mb):
                    truth.push(m)
                    policy = rollouts(SearchSettings(counted=1 << 30 if j == "counted" else 0))
                    values.append(playout(truth, view.side, random.Random(seed), policy, deals=args.deals))
                    truth.pop()
                total += values[0] - values[1]
            diffs[j].append(total / args.rollouts)
    for j in judges:
        mean = fmean(diffs[j])
        half = NormalDist().inv_cdf(0.975) * stdev(diffs[j]) / len(diffs[j]) ** 0.5
        print(f"{args.a} vs {args.b}: {len(diffs[j])} positions ({args.players} players, from {args.source}), "
              f"{differ} decisions differ; A's move minus B's, round points for the mover's side, per decision "
              f"({j} judge): {mean:+.4f} ({mean - half:+.4f} .. {mean + half:+.4f})")


if __name__ == "__main__":
    main()
