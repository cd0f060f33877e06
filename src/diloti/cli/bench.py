"""``diloti bench``: random playouts with full move generation; actions per second.

Each step is ``moves = state.legal_moves(); state.push(rng.choice(moves))``
(:func:`diloti.core.playouts.random_playout`, compiled with the core),
over fresh seeded deals, so the figure covers move generation and play.

Move generation caches what each table shape allows, so a fresh process is
slower than one that has played a while; ``--warmup`` plays (other) random
rounds first, to measure the sustained speed of a long search.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from diloti._core import CORE
from diloti.cli.common import (
    add_game_flags,
    non_negative_float,
    one_line_errors,
    options_from_args,
    positive_float,
    positive_int,
)
from diloti.core.playouts import random_playout
from diloti.core.registry import default_game, find_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "bench", help="measure random-playout speed (actions per second)",
        description="Play random rounds from fresh seeded deals, generating every legal move at every step, "
                    "and print the actions (moves played) per second; with --repeat, the median of the runs.",
    ))
    p.add_argument("--seconds", type=positive_float, default=2.0, help="length of each run (default 2)")
    p.add_argument("--repeat", type=positive_int, default=3, help="runs; the median is printed (default 3)")
    p.add_argument("--warmup", type=non_negative_float, default=0.0, metavar="SECONDS",
                   help="play other random rounds this long first, unmeasured (default 0: a cold start)")
    p.add_argument("--json", action="store_true", help='print {"actions_per_second": ...} as JSON')
    add_game_flags(p, "the deals and the random moves")
    p.set_defaults(func=run)


def playout_rate(players: int, options: Any, seconds: float, seed: int,
                 clock: Callable[[], float] = time.perf_counter,
                 game: str | None = None) -> tuple[float, int, int]:
    """(actions per second, actions, rounds) of random playouts of ``game`` (None: the default game) for about
    ``seconds`` of ``clock``."""
    rng = random.Random(seed)
    actions = rounds = 0
    new = (default_game() if game is None else find_game(game)).state.new
    start = clock()
    end = start + seconds
    while True:
        state = new(players, options, rng.randrange(players), seed=rng.randrange(2**63))
        actions += random_playout(state, rng)
        rounds += 1
        now = clock()
        if now >= end:
            return actions / (now - start), actions, rounds


def run(args: argparse.Namespace) -> int:
    options = options_from_args(args)
    named = find_game(args.game).named  # the default game's line reads as it always has
    seed = random.SystemRandom().randrange(2**32) if args.seed is None else args.seed
    if args.warmup:
        playout_rate(args.players, options, args.warmup, seed + 1_000_003, game=args.game)  # other deals than the runs
    rates = []
    total_actions = total_rounds = 0
    for i in range(args.repeat):
        rate, actions, rounds = playout_rate(args.players, options, args.seconds, seed + i, game=args.game)
        rates.append(rate)
        total_actions += actions
        total_rounds += rounds
    median = statistics.median(rates)
    if args.json:
        print(json.dumps({"actions_per_second": round(median, 1), "runs": [round(r, 1) for r in rates],
                          "players": args.players, "seconds": args.seconds, "warmup": args.warmup, "seed": seed,
                          "options": options.changed(), "core": CORE,
                          **({"game": args.game} if named else {})}))
    else:
        runs = ", ".join(f"{r:,.0f}" for r in rates)
        print(f"{median:,.0f} actions per second (median of {args.repeat} runs of {args.seconds:g}s: {runs}; "
              f"{args.game + ', ' if named else ''}{args.players} players, {total_rounds} rounds, "
              f"{total_actions} actions, seed {seed}, {CORE} core"
              f"{f', after {args.warmup:g}s of warm-up' if args.warmup else ''})")
    return 0
