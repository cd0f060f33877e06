"""``diloti review``: every decision of a game record judged by the master, from the mover's own view."""

from __future__ import annotations

import argparse
import json
from typing import Any

from diloti.ai.review import (
    BLUNDER,
    DEFAULT_WORLDS,
    INACCURACY,
    MARKS,
    MAX_WORLDS,
    MISTAKE,
    Review,
    away_plies,
    decision_points,
    format_decision,
    review_decision,
    summarise,
)
from diloti.cli import CliError
from diloti.cli.common import join_words, non_negative_int, one_line_errors, progress_bar, read_text_file
from diloti.core.registry import GAMES
from diloti.formats.games import read_any_record

PLURAL = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}

PLAYED_MAX = 24  # the played-move column's widest


def budget_arg(text: str) -> int:
    """``--budget W``: sampled worlds a decision, 1..MAX_WORLDS.

    >>> budget_arg("12")
    12
    """
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected worlds a decision (1..{MAX_WORLDS}), got {text!r}") from None
    if not 1 <= n <= MAX_WORLDS:
        raise argparse.ArgumentTypeError(f"expected worlds a decision (1..{MAX_WORLDS}), got {text!r}")
    return n


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "review", help="the master's review of a game record: points lost, marks, accuracy",
        description=f"Review every decision of a game record (of {join_words([g.title for g in GAMES.values()], 'or')})"
                    " with the master's "
                    "search, each from the mover's own view (never the hidden cards): the move played, the best "
                    "move, the expected points lost, a mark (inaccuracy from "
                    f"{INACCURACY:g} points lost, mistake from {MISTAKE:g}, blunder from {BLUNDER:g}; "
                    "docs/REVIEW.md), an accuracy per player and per round and, in Diloti, the chance to win the "
                    "game before and after the move. Moves the computer made for an absent player (the record's "
                    "comment says so) are left out. Reproducible: the same record, budget and seed give the "
                    "same review.",
    ))
    p.add_argument("record", metavar="RECORD", help="the game record file (diloti replay's format)")
    p.add_argument("--seat", type=non_negative_int, action="append", metavar="N",
                   help="review this seat's decisions (repeat for several; default: every seat)")
    p.add_argument("--budget", type=budget_arg, default=DEFAULT_WORLDS, metavar="W",
                   help=f"sampled worlds a decision, every legal move played in each (default {DEFAULT_WORLDS}: "
                        "about 0.2 s of CPU a decision; more is slower and steadier)")
    p.add_argument("--seed", type=int, default=0, help="seed of the search (default 0)")
    p.add_argument("--json", action="store_true", help="print the review as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    text = read_text_file(args.record, "record")
    rec = read_any_record(text)
    if rec.errors:
        line, msg = rec.errors[0]
        raise CliError(f"record {args.record!r}, line {line}: {msg}")
    if not rec.rounds or not any(r.moves for r in rec.rounds):
        raise CliError(f"record {args.record!r}: no moves to review (is it a game record?)")
    if args.seat:
        bad = [s for s in args.seat if s >= rec.players]
        if bad:
            raise CliError(f"invalid --seat {bad[0]}: expected a seat 0..{rec.players - 1} "
                           f"of this {rec.players}-player game")
    points = decision_points(rec, args.seat, away_plies(text))  # not the computer's moves for an absent player
    seats = sorted(set(args.seat)) if args.seat else list(range(rec.players))
    done = []
    with progress_bar(len(points), "decisions") as bar:
        for point in points:
            done.append(review_decision(point, args.budget, args.seed))
            bar.update(1)
    review = summarise(done, seats, args.budget, args.seed)
    if args.json:
        print(json.dumps(review.to_dict(), indent=2))
        return 0
    names = rec.names or []
    _print(review, rec, names)
    return 0


def _print(review: Review, rec: Any, names: list[str]) -> None:
    def who(s: int) -> str:
        return f"seat {s}" + (f" ({names[s]})" if s < len(names) and names[s] else "")

    print(f"review of {', '.join(who(s) for s in review.seats)}: expected round points lost against the "
          f"master's best move ({review.worlds} worlds a decision, seed {review.seed})")
    current = None
    # As wide as the longest move up to PLAYED_MAX: a sweep of a whole table (a jack on a pile, 75 characters)
    # pushes out its own line's marks, not every line's.
    width = min(PLAYED_MAX, max([12, *(len(d.played) for d in review.decisions)]))
    for d in review.decisions:
        if d.round != current:
            current = d.round
            print(f"=== round {d.round} ===")
        print(format_decision(d, width=width))
        for r in d.reasons:  # why a marked move lost (and that an exact verdict is exact)
            print(f"       why: {r['text']}")
    print("accuracy (100: always the best move):")
    for s in review.seats:
        acc = review.accuracy.get(s)
        counts = review.counts.get(s, {})
        rounds = "  ".join(f"r{n} {'-' if by.get(s) is None else f'{by[s]:.0f}'}"
                           for n, by in review.rounds.items())
        print(f"  {who(s)}: {'-' if acc is None else f'{acc:.1f}'}; "
              + ", ".join(f"{counts.get(m, 0)} {m if counts.get(m, 0) == 1 else PLURAL[m]}" for m in MARKS)
              + f"; by round: {rounds}")
