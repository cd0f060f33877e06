"""``diloti tournament``: computer players against each other on duplicate deals."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys

from diloti.ai import LEVELS, MEASUREMENT_LEVELS, make_player
from diloti.cli.common import (
    add_game_flags,
    one_line_errors,
    options_from_args,
    pool_spec,
    positive_int,
    progress_bar,
)
from diloti.match.tournament import (
    MatchResult,
    TournamentError,
    check_plotting,
    default_jobs,
    play_match,
    plot_ladder,
)
from diloti.match.workers import worker_pool


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "tournament", help="computer players against each other (duplicate deals, confidence intervals)",
        description="Play computer players against each other on duplicate deals: every deal is played twice "
                    "with the seats swapped (with 4 players, A partners A). Two players give one match; more "
                    "give every pair (a ladder); 'all' means every level. Prints each match's game win rate "
                    "and points-per-round difference with 95% confidence intervals (Wilson for the win rate). Levels: "
                    f"{', '.join(MEASUREMENT_LEVELS)} (oracle sees every hand: for measurement only); "
                    "settings as LEVEL:KEY=VALUE,... e.g. expert:iterations=100,seconds=none.",
    ))
    p.add_argument("levels", nargs="+", metavar="LEVEL", help="two or more players, or 'all'")
    p.add_argument("--games", type=positive_int, default=100, metavar="N",
                   help="games per pair (rounded up to even: duplicate pairs; default 100)")
    p.add_argument("--rounds", type=positive_int, default=None, metavar="N",
                   help="play N rounds per game instead of games to the target")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the players (default 0)")
    p.add_argument("--workers", "--jobs", dest="workers", type=pool_spec, default=None, metavar="SPEC",
                   help="where the games run: N local worker processes (default: all cores; 1 plays in this "
                        "process), 'ray' (the Ray cluster ray.init() finds: $RAY_ADDRESS, else one started with "
                        "'ray start' here, else a new one on this machine), 'ray://HOST:PORT' (a Ray cluster's "
                        "client port) or 'ray:HOST:PORT' (its head, from one of its nodes); Ray needs "
                        "pip install 'diloti[cluster]' (docs/WORKERS.md). The results are the same wherever games run")
    p.add_argument("--json", metavar="FILE", default=None, help="write the results as JSON ('-' for stdout)")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="draw the points-per-round matrix of the players as a picture (needs matplotlib)")
    p.add_argument("--per-game", action="store_true", help="include every game's result in --json")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (shown on a terminal when tqdm, the 'cli' extra, is installed)")
    add_game_flags(p)
    p.set_defaults(func=run)


def expand(levels: list[str]) -> list[str]:
    """Replace ``all`` by every level offered to people, in ladder order; check each spec."""
    out: list[str] = []
    for spec in levels:
        for name in (list(LEVELS) if spec == "all" else [spec]):
            if name not in out:
                make_player(name, 0, measurement=True)  # a bad name or setting fails here, before any game
                out.append(name)
    if len(out) < 2:
        raise TournamentError("name at least two different players (see 'diloti tournament --help')")
    return out


def _check_writable(path: str | None, flag: str) -> None:
    """Refuse an output path that cannot be written before hours of games, not after them."""
    if not path or path == "-":
        return
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise TournamentError(f"{flag} {path!r}: cannot write there (no such folder, a folder, or no permission)")


def run(args: argparse.Namespace) -> int:
    levels = expand(args.levels)
    options = options_from_args(args)
    _check_writable(args.json, "--json")
    _check_writable(args.plot, "--plot")
    if args.plot:
        try:
            check_plotting()
        except TournamentError as exc:
            raise TournamentError(f"--plot {args.plot!r}: {exc}") from None
    spec = args.workers or default_jobs()
    results: list[MatchResult] = []
    # One pool for the whole run (one Ray connection), given to every match; 1 plays in this process.
    with contextlib.ExitStack() as stack:
        pool = None if spec == 1 else stack.enter_context(worker_pool(spec))
        for i, a in enumerate(levels):
            for b in levels[i + 1:]:
                with progress_bar(args.games + args.games % 2, f"{a} vs {b}",
                                  show=False if args.quiet else None) as bar:
                    r = play_match(a, b, args.games, seed=args.seed, players=args.players, options=options,
                                   rounds=args.rounds, pool=pool, game=args.game,
                                   progress=lambda done, _total: bar.update(done - bar.n))
                results.append(r)
                print(r.summary(), flush=True)
    if args.json:
        data = [r.to_dict(per_game=args.per_game) for r in results]
        text = json.dumps(data[0] if len(data) == 1 else data, indent=2, default=str)
        if args.json == "-":
            sys.stdout.write(text + "\n")
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text + "\n")
    if args.plot:
        plot_ladder(results, args.plot)
        print(f"ladder picture written to {args.plot}")
    return 0
