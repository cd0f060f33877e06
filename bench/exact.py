"""Benchmark: the exact solver of a round's end (issue 54): its cost by the cards left, how often its positions
come, and what today's search loses there.

Usage: .venv/bin/python bench/exact.py [--positions 30] [--rounds 100] [--master 0] [--games diloti xeri kontsina]

Three tables, each game in turn (2 players):

1. **Cost.** ``--positions`` last-deal positions for each hand size (2 to 6 cards, Kontsina's 2 to 4), reached
   by heuristic self-play (the seat to move and the other holding that many cards: the non-dealer to lead), each
   solved to every move's value (:func:`~diloti.ai.exact.solve`: hints, analysis, the review) and to a best move
   (:func:`~diloti.ai.exact.solve_best`: the players): positions visited and seconds of this thread's CPU,
   median and worst, with no limit below ``--cap`` positions (a solve past it counts as its cap).
2. **How often.** Over ``--rounds`` rounds of heuristic self-play, each seat's decisions (more than one legal
   move) by the cards in the mover's hand: the share of the round's decisions that are exact positions, and of
   those the share the solver settles within :data:`~diloti.ai.exact.DEFAULT_NODE_LIMIT` (every move's value)
   and within the master's share of its default budget on this machine's CPU clock (a best move).
3. **What the search loses** (``--master N``, N positions a hand size, Diloti only): today's master at its
   default budget on the CPU clock with the solver off (``master:cpu=1,exact=0``) on last-deal positions of
   heuristic self-play: how often its move is worse than the best, and by how many round points (the solver's
   values); the master with the solver (``master:cpu=1``) for comparison.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from diloti.ai import make_player
from diloti.ai.exact import DEFAULT_NODE_LIMIT, exact_choice, is_exact, solve, solve_counted
from diloti.ai.master import DEFAULT_SECONDS
from diloti.ai.search import EXACT_SHARE
from diloti.core.phase import Phase
from diloti.games import find_game

SIZES = {"diloti": (2, 3, 4, 5, 6), "xeri": (2, 3, 4, 5, 6), "kontsina": (2, 3, 4)}


def last_deal_positions(game: str, cards: int, count: int, seed: int) -> list[Any]:
    """``count`` positions of heuristic self-play in the last deal, both hands holding ``cards`` cards."""
    info = find_game(game)
    rng = random.Random(f"{game}/{cards}/{seed}")
    out: list[Any] = []
    while len(out) < count:
        s = info.state.new(2, info.options(), dealer=rng.randrange(2), seed=rng.randrange(1 << 40))
        bots = [make_player("heuristic", rng.randrange(1 << 30)) for _ in range(2)]
        while not s.is_over:
            if s.stock_size == 0 and s.phase == Phase.PLAY and len(s.hands[0]) == len(s.hands[1]) == cards:
                out.append(s.copy())
                break
            s.push(bots[s.turn].choose(s.view(s.turn)))
    return out


def median_worst(xs: Sequence[float]) -> tuple[float, float]:
    """The median and the largest of ``xs``.

    >>> median_worst([3, 1, 2, 10])
    (2.5, 10)
    """
    return statistics.median(xs), max(xs)


def cost(games: Sequence[str], count: int, cap: int, seed: int) -> None:
    print(f"Cost: {count} positions a row, heuristic self-play; CPU seconds of this thread; cap {cap:,} positions")
    print(f"{'game':<9} {'cards':>5} | {'every move: positions':>22} {'seconds':>16} {'over':>4} | "
          f"{'best move: positions':>21} {'seconds':>16}")
    for game in games:
        for cards in SIZES[game]:
            every: list[tuple[int, float]] = []
            best: list[tuple[int, float]] = []
            over = 0
            for s in last_deal_positions(game, cards, count, seed):
                t = time.thread_time()
                found = solve_counted(s, cap)
                every.append((found.nodes, time.thread_time() - t))
                over += found.values is None
                t = time.thread_time()
                found = solve_counted(s, cap, every=False)
                best.append((found.nodes, time.thread_time() - t))
            en, es = median_worst([n for n, _ in every]), median_worst([x for _, x in every])
            bn, bs = median_worst([n for n, _ in best]), median_worst([x for _, x in best])
            print(f"{game:<9} {cards:>5} | {en[0]:>10,.0f} {en[1]:>11,} {es[0]:>7.3f} {es[1]:>8.3f} {over:>4} | "
                  f"{bn[0]:>9,.0f} {bn[1]:>11,} {bs[0]:>7.3f} {bs[1]:>8.3f}", flush=True)


def frequency(games: Sequence[str], rounds: int, seed: int) -> None:
    share = DEFAULT_SECONDS * EXACT_SHARE
    print(f"\nHow often: {rounds} rounds of heuristic self-play a game; decisions = moves with a choice, both seats; "
          f"'limit' = every move's value within {DEFAULT_NODE_LIMIT:,} positions, 'master' = a best move within "
          f"{share:.3f} s of CPU")
    print(f"{'game':<9} {'cards':>5} {'decisions':>9} {'of all':>7} {'limit':>7} {'master':>7}")
    for game in games:
        info = find_game(game)
        rng = random.Random(f"{game}/rounds/{seed}")
        total = 0
        by_cards: dict[int, list[tuple[bool, bool]]] = {}
        for _ in range(rounds):
            s = info.state.new(2, info.options(), dealer=rng.randrange(2), seed=rng.randrange(1 << 40))
            bots = [make_player("heuristic", rng.randrange(1 << 30)) for _ in range(2)]
            while not s.is_over:
                view = s.view(s.turn)
                if len(view.legal) > 1 and s.phase == Phase.PLAY:
                    total += 1
                    if is_exact(view):
                        limit = solve(s) is not None
                        master = exact_choice(view, DEFAULT_NODE_LIMIT, share, time.thread_time) is not None
                        by_cards.setdefault(len(view.hand), []).append((limit, master))
                s.push(bots[s.turn].choose(view))
        for cards in sorted(by_cards, reverse=True):
            rows = by_cards[cards]
            n = len(rows)
            print(f"{game:<9} {cards:>5} {n:>9} {100 * n / total:>6.1f}% {100 * sum(a for a, _ in rows) / n:>6.1f}% "
                  f"{100 * sum(b for _, b in rows) / n:>6.1f}%")
        exact = sum(len(r) for r in by_cards.values())
        print(f"{game:<9} {'all':>5} {exact:>9} {100 * exact / total:>6.1f}%   of {total:,} decisions", flush=True)


def search_losses(count: int, seed: int) -> None:
    print(f"\nWhat the search loses: the master at {DEFAULT_SECONDS} s a move (CPU clock), {count} Diloti positions a "
          "row; 'wrong' = a move worse than the best, 'lost' = round points, mean over the wrong ones and worst")
    print(f"{'cards':>5} {'player':<22} {'wrong':>9} {'lost':>6} {'worst':>6} {'seconds':>8}")
    for cards in SIZES["diloti"]:
        positions = last_deal_positions("diloti", cards, count, seed + 1)
        for spec in ("master:cpu=1,exact=0", "master:cpu=1"):
            lost: list[int] = []
            spent = 0.0
            for i, s in enumerate(positions):
                values = solve(s, 10**7)
                assert values is not None
                t = time.thread_time()
                move = make_player(spec, seed + i).choose(s.view(s.turn))
                spent += time.thread_time() - t
                lost.append(max(values.values()) - values[move])
            wrong = [x for x in lost if x > 0]
            mean = statistics.mean(wrong) if wrong else 0.0
            print(f"{cards:>5} {spec:<22} {len(wrong):>3} of {len(lost):<3} {mean:>6.2f} {max(lost):>6} "
                  f"{spent / len(positions):>8.3f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", nargs="+", default=list(SIZES), choices=list(SIZES))
    ap.add_argument("--positions", type=int, default=30, help="positions a game and hand size (cost)")
    ap.add_argument("--cap", type=int, default=2_000_000, help="the most positions a solve of the cost table visits")
    ap.add_argument("--rounds", type=int, default=100, help="rounds of self-play a game (how often); 0: none")
    ap.add_argument("--master", type=int, default=0, help="Diloti positions a hand size for the master's losses")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.positions:
        cost(args.games, args.positions, args.cap, args.seed)
    if args.rounds:
        frequency(args.games, args.rounds, args.seed)
    if args.master:
        search_losses(args.master, args.seed)


if __name__ == "__main__":
    main()
