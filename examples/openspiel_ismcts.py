"""OpenSpiel's ISMCTS bot against a built-in computer level, on python_diloti (or python_xeri, python_kontsina).

    python examples/openspiel_ismcts.py --level heuristic --games 4 --simulations 100
    python examples/openspiel_ismcts.py --game xeri --level greedy --games 4

Each game is one round; the bots swap seats every game. ISMCTS searches over
worlds dealt again with ``resample_from_infostate`` and evaluates leaves with
random rollouts; the built-in level sees only its own view, as ever.
Needs the research extra: ``pip install 'diloti[research]'``.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from diloti.ai import LEVELS, make_player
from diloti.envs.openspiel_game import SHORT_NAME, DilotiState
from diloti.envs.openspiel_variants import VariantSpielState


def play_game(game: pyspiel.Game, bot: ismcts.ISMCTSBot, level: str, ismcts_seat: int, seed: int) -> list[float]:
    """One round: ISMCTS at ``ismcts_seat``, the level at the other seat; the returns."""
    rng = random.Random(seed)
    opponent = make_player(level, seed=seed)
    state: DilotiState | VariantSpielState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(cards, probs)[0])
        elif state.current_player() == ismcts_seat:
            state.apply_action(bot.step(state))
        else:
            # The built-in level chooses a whole move from its view; its action ids come from the encoding.
            seat = state.current_player()
            move = opponent.choose(state.round.view(seat))
            for action in state.encode(move):
                state.apply_action(action)
    returns: list[float] = state.returns()
    return returns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--game", default="diloti", choices=["diloti", "xeri", "kontsina"])
    parser.add_argument("--level", default="heuristic", choices=list(LEVELS), help="the built-in level to face")
    parser.add_argument("--games", type=int, default=2, help="rounds to play (seats swap each round)")
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations per decision")
    parser.add_argument("--options", default="", help="options text, ':' for '=' (e.g. 'liberal_groups soy')")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1 or args.simulations < 1:
        parser.error("--games and --simulations must be at least 1")
    name = SHORT_NAME if args.game == "diloti" else f"python_{args.game}"
    game = pyspiel.load_game(name, {"players": 2, "options": args.options})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed))
    bot = ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=args.simulations,
                           random_state=np.random.RandomState(args.seed))
    total = 0.0
    for g in range(args.games):
        seat = g % 2
        returns = play_game(game, bot, args.level, seat, args.seed * 1000 + g)
        total += returns[seat]
        print(f"round {g + 1}: ISMCTS (seat {seat}) {returns[seat]:+g} against {args.level}")
    episode = "round" if args.game == "diloti" else "hand"
    print(f"ISMCTS against {args.level}: {total:+g} points over {args.games} {episode}s "
          f"({total / args.games:+.2f} a {episode}, {args.simulations} simulations a decision)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
