"""Fit the search's leaf evaluation on self-play: a deal's start against the round's final points difference.

Usage: .venv/bin/python bench/fit_evaluation.py [--rounds N] [--level LEVEL] [--seed S] [--out FILE]

For 2 and for 4 players, plays N rounds of Diloti (standard rules), every seat the same level (default
heuristic), and at the start of every deal after the first (hands dealt, before the first move: where the
expert's rollouts stop and are evaluated) records
:func:`diloti.games.diloti.players.evaluation.features`, signed for side 0,
with the round's final points difference for side 0. The linear model is fitted by least squares (no
intercept: the sides are symmetric once the features are signed) on the first 80% of the rounds and scored on
the other 20% against the hand-written evaluation (``base`` alone, weight 1): mean squared error and R².
Writes the weights fitted on all the rounds to
``src/diloti/games/diloti/players/data/evaluation.json``, one set per number of players.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from diloti.ai import make_player
from diloti.core.phase import Phase
from diloti.games.diloti.players.evaluation import NAMES, features
from diloti.games.diloti.state import State

OUT = Path(__file__).resolve().parent.parent / "src/diloti/games/diloti/players/data/evaluation.json"
Row = tuple[tuple[float, ...], float]


def rounds_data(rounds: int, players: int, level: str, seed: int) -> list[list[Row]]:
    """For each round, its deal starts' features and the round's final difference for side 0."""
    bots = [make_player(level, seed=seed + s, measurement=True) for s in range(players)]
    out: list[list[Row]] = []
    for r in range(rounds):
        s = State.new(players, None, r % players, seed=seed * 1_000_003 + r)
        seen: list[tuple[float, ...]] = []
        deal = s.deal_no
        while not s.is_over:
            if s.deal_no != deal and s.phase == Phase.PLAY:
                deal = s.deal_no
                seen.append(features(s))
            s.push(bots[s.turn].choose(s.view(s.turn)))
        a, b = s.points()
        out.append([(f, float(a - b)) for f in seen])
    return out


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(rows: list[Row], ridge: float = 1e-6) -> list[float]:
    """Least-squares weights (a tiny ridge keeps a feature that never varies at 0)."""
    k = len(NAMES)
    xtx = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
    xty = [0.0] * k
    for f, y in rows:
        for i in range(k):
            xty[i] += f[i] * y
            for j in range(k):
                xtx[i][j] += f[i] * f[j]
    return solve(xtx, xty)


def score(rows: list[Row], w: list[float]) -> tuple[float, float]:
    """Mean squared error and R² of the weights on the rows."""
    ys = [y for _, y in rows]
    mean = sum(ys) / len(ys)
    sse = sum((y - sum(a * b for a, b in zip(w, f, strict=True))) ** 2 for f, y in rows)
    sst = sum((y - mean) ** 2 for y in ys)
    return sse / len(rows), 1.0 - sse / sst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=8000)
    ap.add_argument("--level", default="heuristic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args()
    out: dict[str, object] = {"level": args.level, "rounds": args.rounds, "seed": args.seed}
    for players in (2, 4):
        out[f"{players}p"] = {n: round(x, 4) for n, x in zip(NAMES, one(args, players), strict=True)}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"written: {args.out}")


def one(args: argparse.Namespace, players: int) -> list[float]:
    """Fit, score and print one number of players; the weights fitted on all its rounds."""
    t = time.perf_counter()
    data = rounds_data(args.rounds, players, args.level, args.seed)
    cut = len(data) * 4 // 5
    train = [row for rnd in data[:cut] for row in rnd]
    test = [row for rnd in data[cut:] for row in rnd]
    everything = train + test
    print(f"{args.rounds} rounds of {args.level} ({players} players) in {time.perf_counter() - t:.0f} s: "
          f"{len(everything)} deal starts ({len(train)} to fit, {len(test)} to test)")
    base = [1.0] + [0.0] * (len(NAMES) - 1)
    w = fit(train)
    for label, weights in (("hand-written (base only)", base), ("fitted", w)):
        mse, r2 = score(test, weights)
        print(f"  {label:26} held-out MSE {mse:7.2f}  R² {r2:.4f}")
    final = fit(everything)
    print("  weights (all rounds): " + ", ".join(f"{n} {x:+.3f}" for n, x in zip(NAMES, final, strict=True)))
    return final


if __name__ == "__main__":
    main()
