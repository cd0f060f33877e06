"""``diloti play --game xeri|kontsina``: a game of Diloti's parent games in the terminal.

The same loop as Diloti's (:mod:`diloti.cli.play`): moves by number or in notation
(``7H``; in Kontsina ``9D x 4H 5C``), the commands ``moves``, ``table``, ``history``,
``score``, ``help`` and ``quit``; the human seat sees only its view.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TextIO

from diloti.cli import CliError
from diloti.cli.common import make_computer, save_record
from diloti.core.cards import NAMES, cards_of
from diloti.core.errors import DilotiError
from diloti.core.games import find_game
from diloti.core.moves import CAPTURE, Move
from diloti.core.variant import VariantView
from diloti.core.variant_game import HandRecord, HandsGame
from diloti.formats.games import VariantRecord

HELP = {
    "xeri": "Play a card by its number in the list or by name (7H, jd, T♦). A card of the top card's rank, or a jack, "
            "takes the whole pile; taking a lone card of its rank is a xeri (10 points).",
    "kontsina": "Play by number, or in notation: 7S (lay), 7S x 7D (match), 9D x 4H 5C (a sum of two or more "
                "numerals). One capture takes one thing; capturing is optional unless --forced-capture.",
}
COMMANDS = "Commands: moves, table, history, score, help, quit (saves the record if --record was given)."


def describe(view: VariantView, move: Move) -> str:
    """A move in words for the table as ``view`` shows it.

    >>> from diloti.core.state import State
    >>> s = State.new(seed=1, game="xeri")
    >>> describe(s.view(s.turn), s.legal_moves()[0])
    'lays 2H on the pile'
    """
    card, kind, _, mask = move
    assert card is not None
    if kind != CAPTURE:
        return f"lays {NAMES[card]}" + (" on the pile" if view.game == "xeri" else "")
    taken = " ".join(NAMES[c] for c in cards_of(mask))
    lone = view.game == "xeri" and len(view.table) == 1 and view.table[0] >> 2 == card >> 2
    return f"takes {taken} with {NAMES[card]}" + (" (xeri!)" if lone else "")


class VariantSession:
    """One terminal game of Xeri or Kontsina."""

    def __init__(self, game: HandsGame, seat: int, bots: dict[int, Any], names: list[str], out: TextIO,
                 inp: TextIO, record: str | None, quiet: bool = False) -> None:
        self.game, self.seat, self.bots, self.names = game, seat, bots, names
        self.out, self.inp, self.record, self.quiet = out, inp, record, quiet
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def side_name(self, side: int) -> str:
        seats = [s for s in range(self.game.players) if s % self.game.sides == side]
        return f"side {side} (" + " + ".join(self.names[s] for s in seats) + ")"

    def sheet(self) -> str:
        g = self.game
        hands = [r.points for r in g.rounds if r.score is not None]
        text = "score " + "-".join(map(str, g.scores))
        if g.game == "xeri" and not g.options.game_by_points:
            text += f", hands won {type(g).summary(g.options, hands) or '0-0'} (of {g.options.hands})"
        elif g.game != "xeri" or g.options.game_by_points:
            text += f" (target {g.options.target})"
        return text

    def show_table(self, view: VariantView) -> None:
        g = self.game
        self.say(f"--- hand {g.round_no}, deal {view.deal_no}; dealer: seat {view.dealer} "
                 f"({self.names[view.dealer]}); {self.sheet()}")
        label = "pile (top last):" if view.game == "xeri" else "table:"
        self.say(f"{label:<17}" + (" ".join(NAMES[c] for c in view.table) or "(empty)"))
        sizes = ", ".join(f"{self.names[s]} {n}" for s, n in enumerate(view.hand_sizes))
        self.say(f"{'hand sizes:':<17}{sizes}; stock {view.stock_size}")
        caps = "; ".join(f"{self.side_name(i)} {len(view.captured[i])} cards"
                         + (f", {view.xeri[i]} xeri" if view.game == "xeri" else "") for i in range(view.sides))
        self.say(f"{'captured:':<17}{caps}")
        self.say(f"{'your hand:':<17}" + " ".join(NAMES[c] for c in view.hand))

    def show_moves(self, view: VariantView) -> None:
        for i, m in enumerate(view.legal, 1):
            self.say(f"  {i:2}. {m!s:<22} {describe(view, m)}")

    def hand_summary(self, rec: HandRecord) -> None:
        assert rec.score is not None
        self.say(f"=== hand {rec.number} over ===")
        if rec.swept:
            self.say(f"the last capturer took the rest: {' '.join(NAMES[c] for c in cards_of(rec.swept))}")
        for i, s in enumerate(rec.score):
            self.say(f"  {self.side_name(i)}: {s.line()}")
        self.say("  " + self.sheet())

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        line = line.strip()
        if self.echo:
            self.say(line)
        return line

    def human_move(self) -> Move | None:
        view = self.game.view(self.seat)
        state = self.game.state
        self.show_table(view)
        if not self.quiet:
            self.show_moves(view)
        while True:
            text = self.ask("your move> ")
            if text is None:
                return None
            cmd = text.lower()
            if not cmd:
                continue
            if cmd in ("quit", "exit", "q"):
                return None
            if cmd in ("help", "?", "h"):
                self.say(HELP[view.game] + "\n" + COMMANDS)
            elif cmd in ("moves", "m", "list"):
                self.show_moves(view)
            elif cmd in ("table", "t"):
                self.show_table(view)
            elif cmd == "history":
                for i, (seat, move) in enumerate(self.game.current.moves, 1):
                    self.say(f"  {i:2}. seat {seat}: {move}")
            elif cmd == "score":
                self.say(self.sheet())
            elif cmd.isdigit():
                k = int(cmd)
                if 1 <= k <= len(view.legal):
                    return view.legal[k - 1]
                self.say(f"error: no move number {k}: choose 1..{len(view.legal)} (type 'moves' to list them)")
            else:
                try:
                    return state.read_move(text)
                except DilotiError as exc:
                    msg = str(exc)
                    self.say(f"error: {msg[:msg.rfind(' in [')] if ' in [' in msg else msg}")
                    self.say("type a number from the list, 'moves' to list them, or 'help'")

    def play(self) -> bool:
        g = self.game
        while not g.is_over:
            seat = g.state.turn
            rec = g.current
            if seat == self.seat:
                move = self.human_move()
                if move is None:
                    return False
                who = "you"
            else:
                move = self.bots[seat].choose(g.view(seat))
                who = f"seat {seat} ({self.names[seat]})"
            desc = describe(g.view(self.seat), move)
            g.play(move)
            self.say(f"{who}: {desc}")
            if rec.score is not None:
                self.hand_summary(rec)
        winner = g.winner if g.winner is not None else 0
        self.say(f"=== game over: {self.side_name(winner)} wins; {self.sheet()} ===")
        return True

    def save(self) -> bool:
        if not self.record:
            return True
        rec = VariantRecord.from_game(self.game, names=self.names, site="diloti play")
        return save_record(rec, self.record, self.say)


def run(args: argparse.Namespace, options: Any, record_path: Callable[[str, int], str]) -> int:
    """``diloti play`` for Xeri or Kontsina (:func:`diloti.cli.play.run` passes its ``record_path``)."""
    if not 0 <= args.seat < args.players:
        raise CliError(f"invalid --seat {args.seat}: expected 0..{args.players - 1}")
    if not args.name.strip():
        raise CliError(f"invalid --name {args.name!r}: expected a name")
    game: HandsGame = find_game(args.game).game(args.players, options, seed=args.seed)
    record = None if args.record is None else record_path(args.record, game.seed)
    bots = {s: make_computer(args.level, game.seed + 1000 * (s + 1)) for s in range(args.players) if s != args.seat}
    names = [args.name if s == args.seat else f"{args.level.split(':')[0]}{s}" for s in range(args.players)]
    session = VariantSession(game, args.seat, bots, names, sys.stdout, sys.stdin, record, args.quiet)
    session.say(f"{args.game}: {args.players} players, you are seat {args.seat} "
                f"({session.side_name(args.seat % game.sides)}), seed {game.seed}; type 'help' for help")
    if options.changed():
        session.say(f"options: {options.changed()}")
    try:
        session.play()
    except KeyboardInterrupt:
        session.say("\ninterrupted")
        session.save()
        return 130
    except DilotiError:
        session.save()
        raise
    return 0 if session.save() else 1
