"""All levels on one scale: a Bradley-Terry (Elo) fit over every pair in bench/results, with intervals.

Usage: .venv/bin/python bench/ratings.py [--players 2] [--boot 200] [--seed 1] [FILES...]

Reads the ladder's per-game files (``A_vs_B_Pp_seedS.jsonl``, as bench/ladder.py
writes them), counts each game as a win, a loss or half of each (a draw), and
fits one strength per player by maximum likelihood: P(A beats B) =
1 / (1 + 10 ** ((R_B - R_A) / 400)), the Elo scale, with ``heuristic`` at 0 (``random``
never wins a game, so its own rating rests on the prior and would be a poor anchor). Every
pair that was played gets one virtual drawn game, so a player that won or lost
every game still gets a finite rating (a weak prior: it alone places ``random``).
The 95% intervals come from a bootstrap over duplicate pairs within each match
(``--boot`` resamples). A player spec with settings (``expert:iterations=300,seconds=none``)
is its own player, except that ``expert:iterations=300,seconds=none`` is ``expert``
(the default expert never reaches its time cap; docs/STRENGTH.md).
"""

from __future__ import annotations

import argparse
import glob
import json
import random
import re
from math import log10

NAME = re.compile(r"(?P<a>[^/]+)_vs_(?P<b>.+)_(?P<p>[24])p_seed(?P<seed>\d+)\.jsonl$")
GAMES = ("xeri_", "kontsina_")
ALIASES = {"expert-iterations=300,seconds=none": "expert"}

Pairs = list[tuple[float, float]]  # per duplicate pair: A's score in each of its two games


def load(paths: list[str], players: int) -> dict[tuple[str, str], Pairs]:
    """(A, B) -> A's scores per duplicate pair, over every matching file."""
    out: dict[tuple[str, str], Pairs] = {}
    for path in paths:
        m = NAME.search(path)
        if not m or int(m["p"]) != players or m["a"].startswith(GAMES):
            continue  # another table size, or Xeri's and Kontsina's ladders (their own games, not this scale)
        a, b = (ALIASES.get(x, x) for x in (m["a"], m["b"]))
        games: dict[int, list[float]] = {}
        with open(path) as f:
            for line in f:
                if line.strip():
                    g = json.loads(line)
                    games.setdefault(g["index"] // 2, []).append(
                        {"a": 1.0, "b": 0.0}.get(g["winner"], 0.5))
        pairs = [(p[0], p[1]) for p in games.values() if len(p) == 2]
        out.setdefault((a, b), []).extend(pairs)
    return out


def fit(data: dict[tuple[str, str], Pairs], iterations: int = 2000) -> dict[str, float]:
    """Elo ratings (``heuristic`` at 0 when present) by minorisation-maximisation of the Bradley-Terry likelihood.

    >>> r = fit({("a", "heuristic"): [(1.0, 1.0), (1.0, 0.0)]})
    >>> r["heuristic"], round(r["a"])
    (0.0, 147)
    """
    names = sorted({x for ab in data for x in ab})
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for (a, b), pairs in data.items():
        sa = sum(x + y for x, y in pairs) + 0.5  # one virtual draw a pair of players
        count = 2.0 * len(pairs) + 1.0
        wins[a] += sa
        wins[b] += count - sa
        games[(a, b)] = games.get((a, b), 0.0) + count
    gamma = {n: 1.0 for n in names}
    for _ in range(iterations):
        new = {}
        for i in names:
            denom = 0.0
            for (a, b), played in games.items():
                if i in (a, b):
                    j = b if i == a else a
                    denom += played / (gamma[i] + gamma[j])
            new[i] = wins[i] / denom if denom else gamma[i]
        gamma = new
    base = gamma.get("heuristic", gamma[names[0]])
    return {n: 400.0 * log10(g / base) for n, g in gamma.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    ap.add_argument("--boot", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    data = load(args.files or sorted(glob.glob("bench/results/*.jsonl")), args.players)
    point = fit(data)
    rng = random.Random(args.seed)
    boots: dict[str, list[float]] = {n: [] for n in point}
    for _ in range(args.boot):
        sample = {ab: [rng.choice(p) for _ in p] for ab, p in data.items()}
        for n, r in fit(sample, 300).items():
            boots[n].append(r)
    print(f"{args.players} players; {sum(len(p) for p in data.values()) * 2} games over {len(data)} pairs\n")
    print("| player | Elo (heuristic = 0) | 95% interval | games |")
    print("|---|---|---|---|")
    for n in sorted(point, key=lambda n: -point[n]):
        b = sorted(boots[n])
        lo, hi = b[int(0.025 * len(b))], b[min(len(b) - 1, int(0.975 * len(b)))]
        g = sum(2 * len(p) for ab, p in data.items() if n in ab)
        print(f"| {n} | {point[n]:.0f} | {lo:.0f} .. {hi:.0f} | {g} |")


if __name__ == "__main__":
    main()
