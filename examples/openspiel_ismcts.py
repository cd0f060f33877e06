"""OpenSpiel's ISMCTS bot against a built-in computer level, on python_diloti (or python_xeri, python_kontsina).

    .venv/bin/python examples/openspiel_ismcts.py --level heuristic --games 4 --simulations 100
    .venv/bin/python examples/openspiel_ismcts.py --game xeri --level greedy --games 4
    .venv/bin/python examples/openspiel_ismcts.py --level master:seconds=0.5 --games 20 --simulations 400

Each game is one round; the bots swap seats every game. ISMCTS searches over
worlds dealt again with ``resample_from_infostate`` and evaluates leaves with
random rollouts; the built-in level sees only its own view, as ever.
``--level`` is a player spec: any level with settings, ``master`` included.
Both sides' thinking time per move (median and mean, wall clock) is printed, so
that a match at equal time can be set up: a Diloti move is several OpenSpiel
actions (the card, then each part it takes or declares), and ISMCTS searches
before each of them.
Needs the research extra: ``pip install 'diloti[research]'``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from statistics import fmean, median, stdev

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from diloti.ai import MEASUREMENT_LEVELS, UnknownLevelError, make_player
from diloti.envs.openspiel_base import SpielState
from diloti.envs.openspiel_game import SHORT_NAMES


def play_game(game: pyspiel.Game, bot: ismcts.ISMCTSBot, level: str, ismcts_seat: int, seed: int,
              times: dict[str, list[float]]) -> list[float]:
    """One round: ISMCTS at ``ismcts_seat``, the level at the other seat; the returns.

    Appends each side's thinking time per move (a move with more than one legal choice) to ``times``.
    """
    rng = random.Random(seed)
    opponent = make_player(level, seed=seed, measurement=True)
    state: SpielState = game.new_initial_state()
    thinking = 0.0  # ISMCTS's time on the move it is making (summed over the move's actions)
    choices = 0
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(cards, probs)[0])
        elif state.current_player() == ismcts_seat:
            if state.decision is None:  # a move begins
                choices = len(state.round.view(ismcts_seat).legal)
            start = time.perf_counter()
            action = bot.step(state)
            thinking += time.perf_counter() - start
            state.apply_action(action)
            if state.decision is None:  # the move is made
                if choices > 1:
                    times["ISMCTS"].append(thinking)
                thinking = 0.0
        else:
            # The built-in level chooses a whole move from its view; its action ids come from the encoding.
            seat = state.current_player()
            view = state.round.view(seat)
            start = time.perf_counter()
            move = opponent.choose(view)
            if len(view.legal) > 1:
                times[level].append(time.perf_counter() - start)
            for action in state.encode(move):
                state.apply_action(action)
    returns: list[float] = state.returns()
    return returns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="diloti", choices=["diloti", "xeri", "kontsina"])
    parser.add_argument("--level", default="heuristic",
                        help="the built-in player to face: a level with settings, e.g. heuristic, expert, "
                             "master:seconds=0.5 (not oracle)")
    parser.add_argument("--games", type=int, default=2, help="rounds to play (seats swap each round)")
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations per decision")
    parser.add_argument("--options", default="", help="options text, ':' for '=' (e.g. 'liberal_groups soy')")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1 or args.simulations < 1:
        parser.error("--games and --simulations must be at least 1")
    if args.level.partition(":")[0].strip() not in set(MEASUREMENT_LEVELS) - {"oracle"}:
        parser.error(f"invalid --level {args.level!r}: expected one of "
                     f"{', '.join(k for k in MEASUREMENT_LEVELS if k != 'oracle')}, with settings after ':'")
    try:
        make_player(args.level, seed=0, measurement=True)
    except UnknownLevelError as exc:
        parser.error(f"invalid --level: {exc}")
    name = SHORT_NAMES[args.game]
    game = pyspiel.load_game(name, {"players": 2, "options": args.options})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed))
    bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=args.simulations,
                           random_state=np.random.RandomState(args.seed))
    total = 0.0
    times: dict[str, list[float]] = {"ISMCTS": [], args.level: []}
    pairs: list[float] = []
    for g in range(args.games):
        seat = g % 2
        # Duplicate deals: games 2k and 2k+1 deal the same cards, the seats swapped.
        returns = play_game(game, bot, args.level, seat, args.seed * 1000 + g // 2, times)
        total += returns[seat]
        if seat == 0:
            pairs.append(returns[seat])
        else:
            pairs[-1] = (pairs[-1] + returns[seat]) / 2
        print(f"round {g + 1}: ISMCTS (seat {seat}) {returns[seat]:+g} against {args.level}")
    episode = "round" if args.game == "diloti" else "hand"
    print(f"ISMCTS against {args.level}: {total:+g} points over {args.games} {episode}s "
          f"({total / args.games:+.2f} a {episode}, {args.simulations} simulations a decision)")
    if len(pairs) > 1 and args.games % 2 == 0:
        half = 1.96 * stdev(pairs) / len(pairs) ** 0.5
        print(f"  95% interval over the {len(pairs)} duplicate pairs: {fmean(pairs) - half:+.2f} .. "
              f"{fmean(pairs) + half:+.2f} a {episode}")
    for who, spent in times.items():
        if spent:
            print(f"  {who} thinking time a move: median {median(spent):.3f} s, mean {fmean(spent):.3f} s "
                  f"({len(spent)} moves with a choice)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
