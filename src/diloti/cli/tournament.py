"""``diloti tournament``: computer players against each other on duplicate deals."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from concurrent.futures import Executor
from typing import Any, TextIO

from diloti.ai import LEVELS, MEASUREMENT_LEVELS, make_player
from diloti.cli.common import (
    add_game_flags,
    one_line_errors,
    options_from_args,
    pool_spec,
    positive_int,
    progress_bar,
)
from diloti.match.sequential import append_result, play_sequential, read_results, sprt_dict, verdict_text
from diloti.match.sprt import MODELS, Sprt, SprtError, SprtStatus, parse_bounds
from diloti.match.tournament import (
    GameResult,
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
                    "settings as LEVEL:KEY=VALUE,... e.g. expert:iterations=100,seconds=none; an outside player by "
                    "its import path, package.module:Name[:KEY=VALUE,...] (README). With --sprt, two players are "
                    "tested sequentially until a verdict.",
    ))
    p.add_argument("levels", nargs="+", metavar="LEVEL", help="two or more players, or 'all'")
    p.add_argument("--games", type=positive_int, default=None, metavar="N",
                   help="games per pair (rounded up to even: duplicate pairs; default 100); with --sprt the most "
                        f"games to play before stopping with no verdict (default {SPRT_GAMES})")
    p.add_argument("--rounds", type=positive_int, default=None, metavar="N",
                   help="play N rounds per game instead of games to the target")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and the players (default 0)")
    p.add_argument("--workers", "--jobs", dest="workers", type=pool_spec, default=None, metavar="SPEC",
                   help="where the games run: N local worker processes (default: all cores; 1 plays in this "
                        "process), 'ray' (the Ray cluster ray.init() finds: $RAY_ADDRESS, else one started with "
                        "'ray start' here, else a new one on this machine), 'ray://HOST:PORT' (a Ray cluster's "
                        "client port) or 'ray:HOST:PORT' (its head, from one of its nodes); Ray needs "
                        "pip install 'diloti[cluster]' (docs/WORKERS.md). The results are the same wherever games run")
    p.add_argument("--sprt", metavar="ELO0,ELO1", type=_bounds, default=None,
                   help="a sequential probability ratio test of two players: H0 'A is ELO0 Elo stronger than B' "
                        "against H1 'ELO1 stronger' (ELO0 < ELO1, e.g. 0,50): plays duplicate pairs, printing the "
                        "log-likelihood ratio (LLR) against its bounds and A's Elo with its 95%% interval after each, "
                        "until a verdict (H1 accepted, H0 accepted) or --games (no verdict). The generalized LLR over "
                        "the pairs' pentanomial counts, as Stockfish's fishtest and fastchess (docs/STRENGTH.md). A "
                        "negative ELO0 is written --sprt=-10,0")
    p.add_argument("--alpha", type=_rate, default=0.05, help="with --sprt: the chance of accepting H1 when H0 "
                   "holds (default 0.05)")
    p.add_argument("--beta", type=_rate, default=0.05, help="with --sprt: the chance of accepting H0 when H1 "
                   "holds (default 0.05)")
    p.add_argument("--elo-model", choices=MODELS, default="logistic",
                   help="with --sprt: the Elo of the bounds: logistic (default; the Elo of docs/STRENGTH.md) or "
                        "normalized (scaled by the results' spread, fastchess's default)")
    p.add_argument("--results", metavar="FILE.jsonl", default=None,
                   help="two players: append every game's result to this file as it ends (one JSON line a game, "
                        "as bench/ladder.py writes) and resume from it: the games it holds are not played again, "
                        "so an interrupted match (or test) goes on where it stopped with the same command")
    p.add_argument("--json", metavar="FILE", default=None,
                   help="write the results as JSON ('-': standard output holds the JSON alone, the text goes to "
                        "standard error)")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="draw the points-per-round matrix of the players as a picture (needs matplotlib)")
    p.add_argument("--per-game", action="store_true", help="include every game's result in --json")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bar (shown on a terminal when tqdm, the 'cli' extra, is installed)")
    add_game_flags(p)
    p.set_defaults(func=run)


SPRT_GAMES = 2000  # the default cap of a sequential test (1000 pairs)


def _bounds(text: str) -> tuple[float, float]:
    try:
        return parse_bounds(text)
    except SprtError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("invalid SPRT bounds ")) from None


def _rate(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = -1.0
    if not 0 < v < 0.5:
        raise argparse.ArgumentTypeError(f"{text!r}: expected an error rate between 0 and 0.5, e.g. 0.05")
    return v


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
    sequential = _check_run(args, levels)
    # With --json -, standard output is the JSON alone: everything for people goes to standard error.
    out = sys.stderr if args.json == "-" else sys.stdout
    spec = args.workers or default_jobs()
    extra: dict[str, Any] = {}
    # One pool for the whole run (one Ray connection), given to every match; 1 plays in this process.
    with contextlib.ExitStack() as stack:
        pool = None if spec == 1 else stack.enter_context(worker_pool(spec))
        if sequential:
            r, extra = _sequential(args, levels[0], levels[1], options, pool, out)
            results = [r]
        else:
            results = _round_robin(args, levels, options, pool, out)
    if args.json:
        _write_json(args, results, extra)
    if args.plot:
        plot_ladder(results, args.plot)
        print(f"ladder picture written to {args.plot}", file=out)
    return 0


def _check_run(args: argparse.Namespace, levels: list[str]) -> bool:
    """Refuse what would fail only after the games (an output path, plotting); True for a pair-by-pair match."""
    _check_writable(args.json, "--json")
    _check_writable(args.plot, "--plot")
    _check_writable(args.results, "--results")
    sequential = args.sprt is not None or args.results is not None
    if sequential and len(levels) != 2:
        flag = "--sprt" if args.sprt is not None else "--results"
        raise TournamentError(f"{flag} is for a match of two players, not {len(levels)} ({', '.join(levels)})")
    if args.plot:
        try:
            check_plotting()
        except TournamentError as exc:
            raise TournamentError(f"--plot {args.plot!r}: {exc}") from None
    return sequential


def _round_robin(args: argparse.Namespace, levels: list[str], options: Any, pool: Executor | None,
                 out: TextIO) -> list[MatchResult]:
    """Every pair of the players, a fixed-length match each, its summary printed as it ends."""
    games = args.games or 100
    results: list[MatchResult] = []
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            with progress_bar(games + games % 2, f"{a} vs {b}", show=False if args.quiet else None) as bar:
                r = play_match(a, b, games, seed=args.seed, players=args.players, options=options,
                               rounds=args.rounds, pool=pool, game=args.game,
                               progress=lambda done, _total: bar.update(done - bar.n))
            results.append(r)
            print(r.summary(), file=out, flush=True)
    return results


def _write_json(args: argparse.Namespace, results: list[MatchResult], extra: dict[str, Any]) -> None:
    """--json: one match's object (with the test's figures in ``extra``), or a list of them; ``-`` for stdout."""
    data = [r.to_dict(per_game=args.per_game) for r in results]
    if extra:
        data[0].update(extra)
    text = json.dumps(data[0] if len(data) == 1 else data, indent=2, default=str)
    if args.json == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")


def _sequential(args: argparse.Namespace, a: str, b: str, options: Any, pool: Executor | None,
                out: TextIO) -> tuple[MatchResult, dict[str, Any]]:
    """A match of two players pair by pair: an SPRT (--sprt) and/or one that resumes from --results."""
    test = Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta, args.elo_model) if args.sprt else None
    games = args.games or (SPRT_GAMES if test else 100)
    done = read_results(args.results) if args.results else []
    if done:
        print(f"{args.results}: {len(done)} games already played (read first; only the others are played)",
              file=out, flush=True)
    if test:
        print(test.describe(), file=out, flush=True)

    def on_game(r: GameResult) -> None:
        if args.results:
            append_result(args.results, r)

    def on_pair(status: SprtStatus | None, pairs: int) -> None:
        if status is not None and not args.quiet:
            print("  " + status.line(), file=out, flush=True)

    res = play_sequential(a, b, games, test=test, seed=args.seed, players=args.players, options=options,
                          rounds=args.rounds, pool=pool, done=done, on_game=on_game, on_pair=on_pair, game=args.game)
    print(res.match.summary(), file=out)
    print(f"  {res.played} games played now in {res.seconds:.1f} s"
          + (f"; results in {args.results}" if args.results else ""), file=out)
    if test is None:
        return res.match, {}
    print(verdict_text(test, res, a, b), file=out, flush=True)
    return res.match, {"sprt": sprt_dict(test, res)}
