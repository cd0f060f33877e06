"""``diloti simulate``: random self-play games and a summary of what happened."""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from diloti.cli.common import (
    add_game_flags,
    one_line_errors,
    options_from_args,
    positive_int,
    progress_bar,
)
from diloti.core.registry import default_game, find_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "simulate", help="play N random self-play games and summarise them",
        description="Play N whole games with uniformly random moves for every seat and print a summary: "
                    "wins and points per side, rounds, xeri per round, legal moves per turn.",
    ))
    p.add_argument("games", type=positive_int, metavar="N", help="number of games")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--progress", action="store_true", help="show a progress bar even when stderr is not a terminal")
    add_game_flags(p, "the games")
    p.set_defaults(func=run)


@dataclass
class Summary:
    """Totals over simulated games."""

    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    rounds: int = 0
    sweeps: list[int] = field(default_factory=lambda: [0, 0])  # per side (a "xeri" in the output, Diloti's word)
    turns: int = 0
    legal: int = 0
    counts_sweeps: bool = False  # the game's rules count sweeps (its round state's SWEEPS)

    def to_dict(self) -> dict[str, object]:
        g, r, t = max(self.games, 1), max(self.rounds, 1), max(self.turns, 1)
        return {
            "games": self.games, "wins": self.wins, "points": self.points,
            "points_per_game": [round(p / g, 2) for p in self.points],
            "rounds": self.rounds, "rounds_per_game": round(self.rounds / g, 2),
            "xeri": self.sweeps, "xeri_per_round": [round(x / r, 3) for x in self.sweeps],
            "turns": self.turns, "legal_moves_per_turn": round(self.legal / t, 2),
        }


def simulate(games: int, players: int, options: Any, seed: int,
             advance: Callable[[int], object] | None = None, game_name: str | None = None) -> Summary:
    """Play ``games`` random games of ``game_name`` (None: the default game; its options, or None for its
    defaults); deterministic for a seed. ``advance(1)`` is called after each game.

    >>> s = simulate(2, 2, default_game().options.from_dict({"target": 20}), seed=1)
    >>> s.games, sum(s.wins), s.rounds >= 2
    (2, 2, True)
    """
    info = default_game() if game_name is None else find_game(game_name)
    rng = random.Random(seed)
    out = Summary(counts_sweeps=info.state.SWEEPS)
    for _ in range(games):
        game = info.new_game(players, options, seed=rng.randrange(2**63), first_dealer=rng.randrange(players))
        if len(out.wins) < game.sides:
            out.wins, out.points, out.sweeps = [0] * game.sides, [0] * game.sides, [0] * game.sides
        while not game.is_over:
            st = game.state
            moves = st.legal_moves()
            out.turns += 1
            out.legal += len(moves)
            game.push(rng.choice(moves))
            if st.is_over:  # a round ended (the game deals the next in a new state): its sweeps
                for side, n in enumerate(st.sweeps):
                    out.sweeps[side] += n
        out.games += 1
        out.wins[game.winner or 0] += 1
        for side in range(game.sides):
            out.points[side] += game.scores[side]
        out.rounds += len(game.rounds)
        if advance is not None:
            advance(1)
    return out


def run(args: argparse.Namespace) -> int:
    options = options_from_args(args)
    info = find_game(args.game)
    seed = random.SystemRandom().randrange(2**32) if args.seed is None else args.seed
    with progress_bar(args.games, "games", show=True if args.progress else None) as bar:
        summary = simulate(args.games, args.players, options, seed, bar.update, args.game)
    d = summary.to_dict()
    if args.json:
        extra = {"game": args.game} if info.named else {}  # the default game's summary reads as it always has
        print(json.dumps({**d, "players": args.players, "seed": seed, "options": options.changed(), **extra}))
        return 0
    sides = ", ".join(f"side {i} {w}" for i, w in enumerate(summary.wins))
    points = ", ".join(f"side {i} {p} ({d['points_per_game'][i]}/game)"  # type: ignore[index]
                       for i, p in enumerate(summary.points))
    print(f"{summary.games} {args.game + ' ' if info.named else ''}games, {args.players} players, seed {seed}"
          + (f", options: {options.changed()}" if options.changed() else ""))
    print(f"wins:            {sides}")
    print(f"points:          {points}")
    print(f"{info.round_word + 's:':<17}{summary.rounds} ({d['rounds_per_game']}/game)")
    if summary.counts_sweeps:
        per_round: list[float] = d["xeri_per_round"]  # type: ignore[assignment]
        xeri = ", ".join(f"side {i} {x}" for i, x in enumerate(per_round))
        print(f"{'xeri per ' + info.round_word + ':':<17}{xeri}")
    print(f"legal moves:     {d['legal_moves_per_turn']} per turn over {summary.turns} turns")
    return 0
