"""Summarise the ladder results in bench/results/*.jsonl: a Markdown table and the ladder picture.

Usage: .venv/bin/python bench/report.py [--plot docs/ladder.png] [FILES...]

Each .jsonl file holds one pair's games (written by bench/ladder.py), each .json
file the output of ``diloti tournament --json``; the table gives
games, A's game win rate (Wilson 95% interval) and A's points-per-round
advantage (normal 95% interval over duplicate pairs); see diloti.match.tournament.
"""

from __future__ import annotations

import argparse
import glob
import json
import re

from diloti.games import find_game
from diloti.games.diloti.options import Options
from diloti.match.tournament import GameResult, Interval, MatchResult, pairs_of, plot_ladder, summarise

NAME = re.compile(r"(?:^|/)(?:(?P<game>xeri|kontsina)_)?(?P<a>[^/]+)_vs_(?P<b>.+)_(?P<p>[234])p_seed(?P<seed>\d+)"
                  r"\.jsonl$")


def load(path: str) -> MatchResult | None:
    m = NAME.search(path)
    if not m:
        return None
    with open(path) as f:
        games = [GameResult(**json.loads(line)) for line in f if line.strip()]
    # only whole duplicate pairs count
    games = [g for p in pairs_of(games, whole=True).values() for g in p]
    if not games:
        return None
    game = m["game"] or "diloti"
    # The file name writes a spec's ':' as '-' (expert-iterations=60 is expert:iterations=60).
    a, b = (re.sub(r"^(\w+)-", r"\1:", x) if "=" in x else x for x in (m["a"], m["b"]))
    options = Options() if game == "diloti" else find_game(game).options()
    return summarise(a, b, games, int(m["p"]), options, int(m["seed"]), None, sum(g.seconds for g in games), game)


def load_json(path: str) -> list[MatchResult]:
    """Matches written by ``diloti tournament --json``."""
    with open(path) as f:
        data = json.load(f)
    out = []
    for d in data if isinstance(data, list) else [data]:
        d = {k: v for k, v in d.items() if k != "moves_per_second"}
        # No per-game results: the Wilson interval with the games taken as independent.
        d["win_rate"] = Interval.wilson([[1.0]] * d["a_wins"] + [[0.0]] * d["b_wins"] + [[0.5]] * d["draws"])
        d["points_per_round"] = Interval(**d["points_per_round"])
        d["results"] = []
        out.append(MatchResult(**d))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--plot", default=None, help="write the 2-player ladder picture here")
    args = ap.parse_args()
    files = sorted(args.files or glob.glob("bench/results/*.jsonl") + glob.glob("bench/results/*.json"))
    results: list[MatchResult] = []
    for f in files:
        if f.endswith(".json"):
            results += load_json(f)
        elif r := load(f):
            results.append(r)
    print("| game | A vs B | players | seed | games | rounds | A game win rate (95% CI) | A points/round − B (95% CI) "
          "| s/game |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        w, p = r.win_rate, r.points_per_round
        rate = f"{w.mean:.1%} ({w.low:.1%} .. {w.high:.1%})"
        print(f"| {r.game} | {r.a} vs {r.b} | {r.players} | {r.seed} | {r.games} | {r.rounds} "
              f"| {rate} | {p.mean:+.2f} ({p.low:+.2f} .. {p.high:+.2f}) | {r.seconds / max(1, r.games):.1f} |")
    if args.plot:
        # One result a pair in the picture: the one with the most games.
        best: dict[tuple[str, str], MatchResult] = {}
        for r in results:
            if r.game == "diloti" and r.players == 2 and ((r.a, r.b) not in best or r.games > best[r.a, r.b].games):
                best[r.a, r.b] = r
        plot_ladder(list(best.values()), args.plot)
        print(f"\nladder picture: {args.plot}")


if __name__ == "__main__":
    main()
