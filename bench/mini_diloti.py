"""Mini Diloti solved: its size, CFR's exploitability over iterations, and each level's exploitability.

    .venv/bin/python bench/mini_diloti.py --size                       # histories, states, information states
    .venv/bin/python bench/mini_diloti.py --cfr 1000                   # CFR and CFR+: exploitability curve
    .venv/bin/python bench/mini_diloti.py --levels random greedy heuristic expert:iterations=100,seconds=none

The game is ``python_mini_diloti`` (:mod:`diloti.games.diloti.envs.mini`), the default deal unless
``--deck``, ``--hand``, ``--table`` say otherwise, with the dealer ``--dealer`` (0) and ``--options``. The
algorithms are OpenSpiel's C++ ``CFRSolver``, ``CFRPlusSolver`` and ``exploitability`` on the game as a
cached tree (:func:`diloti.envs.exact.cached`); the levels are tabular policies asked of the players
(:func:`diloti.envs.exact.level_policy`, seed ``--seed``). Every figure is printed with the CPU seconds it
took (``time.process_time``: the same on a busy machine). ``--plot FILE`` draws the curve (the ``plot``
extra, matplotlib).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pyspiel

import diloti.games.diloti.envs.mini  # noqa: F401  # registers python_mini_diloti
from diloti.envs.exact import cached, information_states, level_policy

#: The iterations at which the curve is read (those up to --cfr).
CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)


def load(args: argparse.Namespace) -> Any:
    params: dict[str, Any] = {"dealer": args.dealer, "options": args.options}
    for name in ("deck", "hand", "table"):
        if getattr(args, name) is not None:
            params[name] = getattr(args, name)
    return pyspiel.load_game("python_mini_diloti", params)


def size(game: Any) -> None:
    from open_spiel.python.algorithms import get_all_states

    t = time.process_time()
    histories = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                              include_chance_states=True, to_string=lambda s: s.history_str())
    chance = sum(1 for s in histories.values() if s.is_chance_node())
    terminal = sum(1 for s in histories.values() if s.is_terminal())
    decision = len(histories) - chance - terminal
    infos = [set(), set()]  # type: list[set[str]]
    for s in histories.values():
        if not s.is_chance_node() and not s.is_terminal():
            infos[s.current_player()].add(s.information_state_string())
    spent = time.process_time() - t
    print(f"game: {game}")
    print("| histories | chance | decision | terminal | information states (player 0 / player 1 / both) |")
    print("|---|---|---|---|---|")
    print(f"| {len(histories):,} | {chance:,} | {decision:,} | {terminal:,} | "
          f"{len(infos[0]):,} / {len(infos[1]):,} / {len(infos[0]) + len(infos[1]):,} |")
    print(f"({spent:.1f} CPU s: every history walked, python open_spiel.python.algorithms.get_all_states)")


def curve(game: Any, iterations: int, plot: str | None) -> None:
    t = time.process_time()
    tree = cached(game)
    print(f"game: {game}; cached tree built in {time.process_time() - t:.1f} CPU s")
    marks = [i for i in CHECKPOINTS if i <= iterations]
    if iterations not in marks:
        marks.append(iterations)
    rows: dict[str, list[tuple[int, float, float]]] = {}
    for name, make in (("CFR", pyspiel.CFRSolver), ("CFR+", pyspiel.CFRPlusSolver)):
        solver = make(tree)
        t = time.process_time()
        done = 0
        rows[name] = []
        for mark in marks:
            for _ in range(mark - done):
                solver.evaluate_and_update_policy()
            done = mark
            spent = time.process_time() - t
            rows[name].append((mark, pyspiel.exploitability(tree, solver.average_policy()), spent))
    print("| iterations | CFR exploitability | CFR+ exploitability | CPU s (CFR / CFR+) |")
    print("|---|---|---|---|")
    for (mark, a, ta), (_, b, tb) in zip(rows["CFR"], rows["CFR+"], strict=True):
        print(f"| {mark:,} | {a:.4g} | {b:.4g} | {ta:.1f} / {tb:.1f} |")
    print("(exploitability: a best response's gain against the average policy, averaged over the two seats, "
          "in points a round)")
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4))
        for name, points in rows.items():
            ax.loglog([m for m, _, _ in points], [max(e, 1e-6) for _, e, _ in points], marker="o", label=name)
        ax.set_xlabel("iterations")
        ax.set_ylabel("exploitability (points a round)")
        ax.set_title("Mini Diloti: CFR and CFR+ (OpenSpiel, cached tree)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(plot)
        print(f"plot: {plot}")


def levels(game: Any, specs: list[str], seed: int, equilibrium: int) -> None:
    t = time.process_time()
    infos = information_states(game)
    tree = cached(game)
    solver = pyspiel.CFRPlusSolver(tree)
    for _ in range(equilibrium):
        solver.evaluate_and_update_policy()
    eq = solver.average_policy()
    root = tree.new_initial_state()
    value = pyspiel.expected_returns(root, [eq, eq], -1, True)[0]
    print(f"game: {game}; {len(infos):,} information states; CFR+ {equilibrium} iterations: exploitability "
          f"{pyspiel.exploitability(tree, eq):.3g}, player 0's value {value:+.3f}; "
          f"{time.process_time() - t:.1f} CPU s")
    print(f"| level | exploitability (points a round) | points a round against CFR+ ({equilibrium} iterations), "
          "the mean of its two seats | CPU s |")
    print("|---|---|---|---|")
    for spec in specs:
        t = time.process_time()
        policy = level_policy(game, spec, infos, seed=seed)
        gap = pyspiel.exploitability(tree, policy)
        as0 = pyspiel.expected_returns(root, [policy, eq], -1, True)[0]
        as1 = pyspiel.expected_returns(root, [eq, policy], -1, True)[1]
        print(f"| `{spec}` | {gap:.3f} | {(as0 + as1) / 2:+.3f} | {time.process_time() - t:.1f} |", flush=True)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", action="store_true", help="count histories, states and information states")
    p.add_argument("--cfr", type=int, metavar="N", help="run CFR and CFR+ for N iterations: the curve")
    p.add_argument("--levels", nargs="+", metavar="SPEC", help="each level's exploitability (player specs)")
    p.add_argument("--deck", help="the deal's deck, card names (default: AC AD 2C 2D 3C 3D)")
    p.add_argument("--hand", type=int, help="cards a hand (default 2)")
    p.add_argument("--table", type=int, help="cards on the first table (default 1)")
    p.add_argument("--dealer", type=int, default=0, help="the dealer (0 or 1; the other seat leads)")
    p.add_argument("--options", default="", help="options text, ':' for '=' (the dealing options are refused)")
    p.add_argument("--seed", type=int, default=1, help="the levels' seed")
    p.add_argument("--equilibrium", type=int, default=1000, metavar="N",
                   help="with --levels: CFR+ iterations of the near-equilibrium the levels meet (default 1000)")
    p.add_argument("--plot", metavar="FILE", help="with --cfr: draw the curve (matplotlib)")
    args = p.parse_args(argv)
    if not (args.size or args.cfr or args.levels):
        p.error("nothing to do: give --size, --cfr N or --levels SPEC ...")
    if args.equilibrium < 1:
        p.error(f"invalid --equilibrium {args.equilibrium}: expected a positive number of iterations")
    if args.cfr is not None and args.cfr < 1:
        p.error(f"invalid --cfr {args.cfr}: expected a positive number of iterations")
    game = load(args)
    if args.size:
        size(game)
    if args.cfr:
        curve(game, args.cfr, args.plot)
    if args.levels:
        levels(game, args.levels, args.seed, args.equilibrium)


if __name__ == "__main__":
    main()
