"""The research reference table: every pair of seven players in duplicate-deal matches, resumable.

    .venv/bin/python bench/reference_table.py --run            # play (resumes from the files)
    .venv/bin/python bench/reference_table.py --table          # the cross table, from the files

The players (:data:`PLAYERS`) at load-independent budgets, so that the numbers reproduce on any machine:
``random``, ``greedy``, ``heuristic``, ``expert`` and ``master`` at the playout budgets docs/STRENGTH.md
measures with, OpenSpiel's Python ISMCTS (:func:`diloti.envs.policies.ISMCTSPlayer`, random-rollout
evaluator) at a number of simulations a decision step, and the MaskablePPO baseline of
``bench/baselines.py`` at a stated number of training steps (its model file beside the results).

Each pair plays a match of 2 players, games to 61, on duplicate deals (games 2k and 2k+1 deal the same
cards, seats swapped) with seed :data:`SEED`, one results file a pair under ``--dir``
(``A_vs_B.jsonl``, one game a line, as ``diloti tournament --results`` writes them). ``--run`` plays
the pairs of quick players whole first, then a duplicate pair at a time for the pair furthest from its
games (:func:`games_for`, ``--games`` for all), so that a run stopped early leaves every pair with about
the same share of its games; run again, it goes on where the files end (runs at once must play
different pairs: ``--only``, ``--involving``). The games of pair (A, B) are exactly those of::

    .venv/bin/diloti tournament A B --games N --seed 1 --workers 1 --results DIR/A_vs_B.jsonl

``--table`` prints the cross table in Markdown: each cell the row player's win rate against the column
player (Wilson 95% interval over the duplicate pairs) and its points a round (normal 95% interval).

An outside player, by import path as ``diloti tournament`` takes it (``module:Name[:key=value,...]``), gets
its row against the reference players: the same matches (seed :data:`SEED`, duplicate deals), its results
files under ``--dir`` (``NAME_vs_B.jsonl``, resumable), the row printed with the table's header::

    PYTHONPATH=. .venv/bin/python bench/reference_table.py --outside mybots:Lowest --name lowest --games 40 \
        --against random greedy heuristic expert
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from diloti.core.errors import DilotiError
from diloti.games.diloti.options import Options
from diloti.match.sequential import append_result, check_results, read_results
from diloti.match.tournament import MatchResult, check_match, play_match, summarise

SEED = 1
HERE = Path(__file__).resolve().parent
MODEL = "bench/results/reference/ppo_10k.zip"

#: Short name -> player spec. Budgets in playouts or simulations, never seconds.
PLAYERS: dict[str, str] = {
    "random": "random",
    "greedy": "greedy",
    "heuristic": "heuristic",
    "expert": "expert:iterations=300,seconds=none",
    "master": "master:iterations=300,seconds=none,width=5,infer=0,counted=99",
    "ismcts": "diloti.envs.policies:ISMCTSPlayer:simulations=50",
    "ppo": f"baselines:PPOPlayer:model={MODEL}",
}

#: What a game costs, roughly (CPU seconds, this machine), to order the pairs and size their matches.
COST = {"random": 0.02, "greedy": 0.03, "heuristic": 0.05, "ppo": 0.3, "expert": 3.0, "ismcts": 30.0,
        "master": 40.0}


def pairs() -> list[tuple[str, str]]:
    """Every pair once, the row player the stronger-budgeted one by :data:`PLAYERS` order reversed."""
    names = list(PLAYERS)
    return [(names[j], names[i]) for i in range(len(names)) for j in range(i + 1, len(names))]


def games_for(a: str, b: str) -> int:
    """Games for a pair: many where games are cheap, fewer where a search plays (an even number)."""
    cost = COST[a] + COST[b]
    if cost < 1:
        return 200
    if cost < 10:
        return 40
    if cost < 50:
        return 8
    return 4


def path_of(folder: Path, a: str, b: str) -> Path:
    return folder / f"{a}_vs_{b}.jsonl"


def run(folder: Path, games: int | None, only: set[str] | None, involving: str | None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    want = {(a, b): games if games is not None else games_for(a, b) for a, b in pairs()
            if (only is None or {a, b} <= only) and (involving is None or involving in (a, b))}
    while True:
        done = {p: len(read_results(str(path_of(folder, *p)))) for p in want}
        # The pairs of quick players first, whole (they take a minute together); then the pair furthest from
        # its games (the cheaper first on a tie): a run stopped at any time leaves every pair with about the
        # same share of its games.
        left = [p for p in want if done[p] < want[p]]
        if not left:
            return
        a, b = min(left, key=lambda p: (COST[p[0]] + COST[p[1]] >= 1, done[p] / want[p], COST[p[0]] + COST[p[1]]))
        start = time.perf_counter()
        first = done[a, b] - done[a, b] % 2
        r = play_match(PLAYERS[a], PLAYERS[b], games=2, seed=SEED, first=first)
        for g in r.results:
            if g.index >= done[a, b]:  # a pair cut in half by a stopped run: its second game only
                append_result(str(path_of(folder, a, b)), g)
        print(f"{a} vs {b}: games {first + 1}-{first + 2} of {want[a, b]} "
              f"[{time.perf_counter() - start:.0f} s]", flush=True)


def result(folder: Path, a: str, b: str, specs: dict[str, str] | None = None) -> MatchResult | None:
    # check_results refuses a game recorded twice or of other deals (a file from another seed).
    specs = PLAYERS if specs is None else specs
    res = list(check_results(read_results(str(path_of(folder, a, b))), SEED).values())
    res = [r for r in res if r.index < len(res) - len(res) % 2]  # whole duplicate pairs only
    if not res:
        return None
    return summarise(specs[a], specs[b], res, 2, Options(), SEED, None, sum(r.seconds for r in res))


def outside_row(folder: Path, name: str, spec: str, against: list[str], games: int) -> str:
    """Play an outside player ``spec`` (import path) against each reference player of ``against`` to ``games``
    games (resuming from ``folder``'s files), then its row of the cross table, with the header."""
    folder.mkdir(parents=True, exist_ok=True)
    specs = {**PLAYERS, name: spec}
    for b in against:
        done = len(read_results(str(path_of(folder, name, b))))
        if done >= games:
            continue
        start = time.process_time()
        first = done - done % 2
        r = play_match(spec, PLAYERS[b], games=games - first, seed=SEED, first=first)
        for g in r.results:
            if g.index >= done:
                append_result(str(path_of(folder, name, b)), g)
        print(f"{name} vs {b}: games {first + 1}-{games} [{time.process_time() - start:.0f} CPU s here]", flush=True)
    cells = [cell(result(folder, name, b, specs), False) for b in against]
    return "\n".join([f"| row against column | {' | '.join(against)} |", "|---|" + "---|" * len(against),
                      f"| **{name}** (`{spec}`) | " + " | ".join(cells) + " |"])


def cell(r: MatchResult | None, flip: bool) -> str:
    """The row player's win rate (interval); points a round (interval) [games]; ``flip``: ``r`` is the column's."""
    if r is None:
        return "—"
    w, p = r.win_rate, r.points_per_round
    mean, low, high = (1 - w.mean, 1 - w.high, 1 - w.low) if flip else (w.mean, w.low, w.high)
    ppr, plow, phigh = (-p.mean, -p.high, -p.low) if flip else (p.mean, p.low, p.high)
    # One duplicate pair shows no spread: its points a round have no interval.
    spread = f" ({plow:+.2f}..{phigh:+.2f})" if r.games >= 4 else " (one pair)"
    return f"{mean:.0%} ({low:.0%}–{high:.0%}); {ppr:+.2f}{spread} [{r.games}]"


def table(folder: Path) -> str:
    names = list(PLAYERS)
    found = {(a, b): result(folder, a, b) for a, b in pairs()}
    lines = ["| row against column | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for a in names:
        row = []
        for b in names:
            if a == b:
                row.append("")
            elif (a, b) in found:
                row.append(cell(found[(a, b)], False))
            else:
                row.append(cell(found[(b, a)], True))
        lines.append(f"| **{a}** | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="store_true", help="play the pairs' missing games (resumes)")
    ap.add_argument("--table", action="store_true", help="print the cross table from the results files")
    ap.add_argument("--dir", type=Path, default=Path("bench/results/reference"), help="the results files' folder")
    ap.add_argument("--games", type=int, default=None, help="games for every pair (default: by cost, GAMES)")
    ap.add_argument("--only", nargs="*", choices=list(PLAYERS), help="play only the pairs among these players")
    ap.add_argument("--involving", choices=list(PLAYERS), help="play only the pairs with this player")
    ap.add_argument("--outside", metavar="SPEC", help="an outside player by import path (module:Name[:k=v,...]): "
                    "play it against the reference players and print its row")
    ap.add_argument("--name", default="outside", help="the outside player's name in its row and files")
    ap.add_argument("--against", nargs="+", choices=list(PLAYERS), default=["random", "greedy", "heuristic", "expert"],
                    help="the reference players the outside player meets (default: the four cheapest to meet)")
    args = ap.parse_args(argv)
    if not (args.run or args.table or args.outside):
        ap.error("say --run, --table, --outside SPEC or a mix")
    if args.games is not None and args.games < 2:
        ap.error("--games must be at least 2 (one duplicate pair)")
    if args.outside is not None and (args.name in PLAYERS or not args.name.isidentifier()):
        ap.error(f"invalid --name {args.name!r}: expected a word that names no reference player")
    sys.path.insert(0, str(HERE))  # baselines:PPOPlayer
    if args.outside is not None:
        try:
            check_match(args.outside, "random", 2, 2, Options(), None, None, "diloti")
        except DilotiError as exc:
            ap.error(f"invalid --outside {args.outside!r}: {exc}")
        print(outside_row(args.dir, args.name, args.outside, args.against, args.games or 40))
    if args.run:
        run(args.dir, args.games, set(args.only) if args.only else None, args.involving)
    if args.table:
        print(table(args.dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
