"""Benchmark: the strength ladder, in resumable chunks.

Usage: .venv/bin/python bench/ladder.py A B [--games N] [--chunk C] [--seed S] [--workers SPEC]
                              [--players 2|4] [--game G] [--out FILE.jsonl] [--first K]

Plays A against B on duplicate deals (games to 61), ``--chunk`` games at a
time, appending every game's result to a JSON-lines file, and prints the
running summary after each chunk. Rerunning continues where the file ends, so
a long ladder survives interruptions; the games are exactly those of one
``diloti tournament A B --games N --seed S`` run (whose ``--results FILE`` reads and writes the same
files, and whose ``--sprt`` stops at a verdict). ``--first K`` with its own
``--out`` plays only games K .. N-1, so a long pair can be split across cores
and the files concatenated in order afterwards.

``--workers`` (or ``--jobs``) says where the games run, as for ``diloti
tournament``: N local worker processes (default 2), ``ray``, ``ray://HOST:PORT``
or ``ray:HOST:PORT`` for a Ray cluster (the ``cluster`` extra; docs/WORKERS.md).
One pool serves every chunk; the games are the same wherever they run.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import asdict

from diloti.cli.common import pool_spec
from diloti.games import find_game
from diloti.games.diloti.options import Options
from diloti.match.tournament import GameResult, play_match, summarise
from diloti.match.workers import worker_pool


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--chunk", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", "--jobs", dest="workers", type=pool_spec, default=2, metavar="SPEC",
                    help="N local worker processes (default 2), ray, ray://HOST:PORT or ray:HOST:PORT")
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    ap.add_argument("--game", default="diloti", choices=("diloti", "xeri", "kontsina"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--first", type=int, default=0, help="index of the first game this file holds")
    args = ap.parse_args()
    if not 0 <= args.first < args.games:
        ap.error(f"--first {args.first}: expected 0 <= K < --games ({args.games})")
    prefix = "" if args.game == "diloti" else f"{args.game}_"
    out = args.out or f"bench/results/{prefix}{args.a}_vs_{args.b}_{args.players}p_seed{args.seed}.jsonl".replace(
        ":", "-")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    results: list[GameResult] = []
    if os.path.exists(out):
        with open(out) as f:
            results = [GameResult(**json.loads(line)) for line in f if line.strip()]
    opts = Options() if args.game == "diloti" else find_game(args.game).options()
    with worker_pool(args.workers) as pool:
        while args.first + len(results) < args.games:
            first = args.first + len(results)
            n = min(args.chunk, args.games - first)
            r = play_match(args.a, args.b, n, seed=args.seed, players=args.players, pool=pool, first=first,
                           game=args.game)
            with open(out, "a") as f:
                for g in r.results:
                    f.write(json.dumps(asdict(g)) + "\n")
            results += r.results
            total = summarise(args.a, args.b, results, args.players, opts, args.seed, None,
                              sum(g.seconds for g in results), args.game)
            print(total.summary(), flush=True)


if __name__ == "__main__":
    main()
