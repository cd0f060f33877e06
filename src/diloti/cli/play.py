"""``diloti play``: a game in the terminal against the computer.

Reads moves from standard input line by line, so it works the same with a
terminal or with input piped in (tests drive it that way). The human seat
only ever sees ``game.view(seat)``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from diloti.cli import CliError
from diloti.cli.common import (
    add_game_flag,
    add_level_flag,
    add_option_flags,
    add_players_flag,
    add_seed_flag,
    join_words,
    one_line_errors,
    options_from_args,
    other_games,
)
from diloti.cli.session import TerminalSession, run_session, seats_for
from diloti.core.registry import GameInfo, default_game, find_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "play", help="play a game in the terminal against the computer",
        description="Play Diloti against computer players: 2 players, or 4 (the other three seats are computer "
                    "players; seats 0+2 play against 1+3). Moves are typed in notation or chosen by number. "
                    f"Works with input piped in.{kin_sentence()}",
    ))
    add_game_flag(p)
    add_players_flag(p)
    add_seed_flag(p, "the game (the same seed deals the same cards)")
    add_level_flag(p, default="heuristic")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0; seat 1 leads the first deal)")
    p.add_argument("--name", default="you", help="your name in the record (default 'you')")
    p.add_argument("--record", metavar="FILE|DIR",
                   help="save the game record to FILE, or into the folder DIR as diloti-DATE-TIME-seedN.txt, at the "
                        "end, on quit and on Ctrl-C; a folder that does not exist is refused before the game starts")
    p.add_argument("--quiet", action="store_true", help="do not list the legal moves every turn")
    add_option_flags(p)
    p.set_defaults(func=run)


def kin_sentence() -> str:
    """What ``--game`` plays beside the default game, by what the registry says the games are to it.

    >>> kin_sentence().startswith(f" --game {other_games()[0].name} or ")
    True
    """
    kin: dict[str, list[GameInfo]] = {}
    for info in other_games():
        if info.relation:
            kin.setdefault(info.relation, []).append(info)
    return "".join(f" {join_words([f'--game {g.name}' for g in games], 'or')} plays {default_game().title}'s "
                   f"{rel}{'s' if len(games) > 1 else ''} ({', '.join(g.rules for g in games)})."
                   for rel, games in kin.items())


def record_path(arg: str, seed: int) -> str:
    """Where ``--record`` saves: the file named, or a new file in the folder named; refused at once if the
    folder does not exist or cannot be written, so a game is never played into a record that is lost.

    >>> record_path("/no/such/folder/game.txt", 1)
    Traceback (most recent call last):
    ...
    diloti.cli.CliError: --record '/no/such/folder/game.txt': no such folder '/no/such/folder' (create it first)
    """
    path = arg
    if os.path.isdir(arg):
        path = os.path.join(arg, f"diloti-{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}.txt")
    elif arg.endswith(("/", os.sep)):
        raise CliError(f"--record {arg!r}: no such folder (create it first)")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise CliError(f"--record {arg!r}: no such folder {folder!r} (create it first)")
    if not os.access(folder, os.W_OK | os.X_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CliError(f"--record {arg!r}: cannot write there (no permission)")
    return path


def run(args: argparse.Namespace) -> int:
    options = options_from_args(args)
    game = find_game(args.game).new_game(args.players, options, seed=args.seed)
    bots, names = seats_for(args, game.seed)
    record = None if args.record is None else record_path(args.record, game.seed)
    session = TerminalSession(game, args.seat, bots, names, sys.stdout, sys.stdin, record, args.quiet)
    return run_session(session, f"{args.game}: {args.players} players, you are seat {args.seat} "
                                f"({session.side_name(args.seat % game.sides)}), seed {game.seed}; "
                                "type 'help' for help", options)
