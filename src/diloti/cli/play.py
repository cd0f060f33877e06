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
    one_line_errors,
    options_from_args,
)
from diloti.cli.session import TerminalSession, run_session, seats_for
from diloti.core.cards import NAMES, cards_of
from diloti.core.errors import DilotiError
from diloti.core.moves import GROUP, Move
from diloti.games.diloti.formats.notation import describe_move, parse_move
from diloti.games.diloti.formats.record import GameRecord
from diloti.games.diloti.game import Game, RoundRecord
from diloti.games.diloti.view import View

HELP = """\
Enter a move by its number in the list, or in notation (any order, any case, T or 10, suits C D H S or symbols):
  9D            lay the 9D (or its only legal move)      9D x 4H 5C    capture (one card of a declaration takes it all)
  9D x          the capture with 9D, if there is one      5S + 3C = 8   plain declaration (or raise) of 8
  4D + 4C = 4G  group of 4s                                keep / redeal face-card redeal decision
Commands: moves (list legal moves), table (show the table), history (this round's moves), score (score sheet),
          hint (the computer's advice, when available), help, quit (saves the record if --record was given)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = one_line_errors(sub.add_parser(
        "play", help="play a game in the terminal against the computer",
        description="Play Diloti against computer players: 2 players, or 4 (the other three seats are computer "
                    "players; seats 0+2 play against 1+3). Moves are typed in notation or chosen by number. "
                    "Works with input piped in. --game xeri or --game kontsina plays Diloti's parent games "
                    "(docs/RULES-XERI.md, docs/RULES-KONTSINA.md).",
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


class Session(TerminalSession):
    """One terminal game of Diloti (:class:`~diloti.cli.session.TerminalSession` with Diloti's table, moves,
    score sheet and hints)."""

    # -- display
    def show_table(self, view: View) -> None:
        g = self.game
        self.say(f"--- round {g.round_no}, deal {view.deal_no}; dealer: {self.who(view.dealer)}; "
                 f"score {g.scores[0]}-{g.scores[1]} (target {g.options.target})")
        self.say("table:        " + (" ".join(NAMES[c] for c in view.table) or "(no loose cards)"))
        for p in view.declarations:
            kind = f"group of {p.value}s" if p.kind == GROUP else f"plain {p.value}"
            rel = "yours" if p.owner == self.seat else (
                "partner's" if (p.owner - self.seat) % 2 == 0 else "opponent's")
            self.say(f"declaration:  [{' '.join(NAMES[c] for c in p.cards)}] {kind}, owner {self.who(p.owner)}, {rel}")
        sizes = ", ".join(f"{self.names[s]} {n}" for s, n in enumerate(view.hand_sizes))
        self.say(f"hand sizes:   {sizes}; stock {view.stock_size}")
        caps = "; ".join(f"{self.side_name(i)} {len(view.captured[i])} cards, {view.xeri[i]} xeri" for i in (0, 1))
        self.say(f"captured:     {caps}")
        if view.bottom is not None:
            self.say(f"bottom card:  {NAMES[view.bottom]} (you dealt and saw it)")
        self.say("your hand:    " + " ".join(NAMES[c] for c in view.hand))

    def show_moves(self, view: View) -> None:
        for i, m in enumerate(view.legal, 1):
            self.say(f"  {i:2}. {m!s:<26} {describe_move(view, m)}")

    def show_history(self) -> None:
        rec = self.game.current
        if not rec.moves:
            self.say("no moves yet this round")
        for i, (seat, move) in enumerate(rec.moves, 1):
            self.say(f"  {i:2}. {self.who(seat)}: {move}")

    def show_scores(self) -> None:
        self.say(f"score sheet ({self.side_name(0)} - {self.side_name(1)}):")
        total = [0, 0]
        for r in self.game.rounds:
            if r.score is None:
                continue
            a, b = r.points
            total[0] += a
            total[1] += b
            self.say(f"  round {r.number}: {a:3} - {b:3}   total {total[0]:3} - {total[1]:3}")
        self.say(f"  target {self.game.options.target}")

    def round_summary(self, rec: RoundRecord) -> None:
        assert rec.score is not None
        self.say(f"=== round {rec.number} over ===")
        if rec.swept:
            self.say(f"the last capturer's side took the rest: {' '.join(NAMES[c] for c in cards_of(rec.swept))}")
        self.say(f"{'':28} cards  most  aces  10D  2C  xeri  total")
        for i, s in enumerate(rec.score):
            self.say(f"{self.side_name(i):28} {s.cards:5} {s.cards_points:5} {s.aces:5} {s.ten_of_diamonds:4} "
                     f"{s.two_of_clubs:3} {s.xeri:5} {s.total:6}")
        self.show_scores()

    def help_text(self, view: View) -> str:
        return HELP

    def hint(self, view: View, arg: str) -> str:
        # Against a master, the master's search advises (as at the browser's tables); else the expert's.
        master = any(getattr(b, "name", "") == "master" for b in self.bots.values())
        return hint(view, arg, "master" if master else "expert")

    def read_move(self, view: View, text: str) -> Move:
        return parse_move(view, text)

    def describe(self, view: View, move: Move) -> str:
        return describe_move(view, move)

    def game_over_line(self) -> str:
        a, b = self.game.scores
        winner = self.game.winner if self.game.winner is not None else 0
        return f"=== game over: {self.side_name(winner)} wins {max(a, b)}-{min(a, b)} ==="

    def make_record(self) -> GameRecord:
        return GameRecord.from_game(self.game, names=self.names, site="diloti play")


# ----------------------------------------------------------------- hint
# Advice comes from the AI's analysis: diloti.ai.analysis.rank_moves(view, ...).
def hint(view: View, arg: str = "", level: str = "expert") -> str:
    """The best few moves for the seat of ``view`` by the computer analysis (``level``: whose search).

    ``arg`` is how many to show (default 3).
    """
    if not view.legal:
        return "hint: you have no move to make now"
    count = int(arg) if arg.isdigit() and int(arg) > 0 else 3
    try:
        from diloti.ai.analysis import rank_moves
    except ImportError:
        return "hint: not available (the computer analysis module is not installed)"
    try:
        ranked = rank_moves(view, seed=view.plays, level=level)
    except DilotiError as exc:
        return f"hint: {exc}"
    from diloti.ai.winchance import view_chances

    shown = ranked[:count]
    wins = view_chances(view, shown)
    lines = [f"hint ({'the master' if level == 'master' else 'the expert'}; best first; the estimate is the expected "
             "round points difference, then the chance to win the game after the move):"]
    for i, ((move, estimate), win) in enumerate(zip(shown, wins, strict=True), 1):
        number = view.legal.index(move) + 1
        lines.append(f"  {i}. move {number:2}: {move!s:<24} {describe_move(view, move):<36} {estimate:+.2f}  "
                     f"{100 * win:.0f}% to win")
    return "\n".join(lines)


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
    if args.game != "diloti":
        from diloti.cli.variant_play import run as run_variant

        return run_variant(args, options, record_path)
    game = Game(args.players, options, seed=args.seed)
    bots, names = seats_for(args, game.seed)
    record = None if args.record is None else record_path(args.record, game.seed)
    session = Session(game, args.seat, bots, names, sys.stdout, sys.stdin, record, args.quiet)
    return run_session(session, f"diloti: {args.players} players, you are seat {args.seat} "
                                f"({session.side_name(args.seat % 2)}), seed {game.seed}; type 'help' for help",
                       options)
