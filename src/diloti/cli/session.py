"""A game in the terminal, whichever the game: the loop every ``diloti play`` shares.

:class:`TerminalSession` reads the human's moves line by line (a number from the list, notation,
or a command: ``moves``, ``table``, ``history``, ``score``, ``hint``, ``help``, ``quit``), lets the
computer players move, shows each move and each round's end, and saves the record. Each game's
formats part says how its table, moves, score and rounds look and how a typed move is read
(:mod:`diloti.formats.terminal`), so every registered game plays here. The human seat only ever
sees ``game.view(seat)``.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from diloti.cli import CliError
from diloti.cli.common import make_computer, save_record
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.formats.games import formats_of
from diloti.formats.terminal import Terminal


def short_error(exc: Exception) -> str:
    """An engine error without the whole position it ends with (the player sees the table already).

    >>> short_error(ValueError("illegal move '7H' in [pairs play, seat 0 to play; ...]"))
    "illegal move '7H'"
    """
    msg = str(exc)
    cut = msg.rfind(" in [")
    return msg[:cut] if cut > 0 else msg


class TerminalSession:
    """One terminal game of any registered game: the game, the computer players, input and output.

    What the game looks like (its table, moves, score sheet, round ends, help and hint) is the game's
    own: its formats part's ``TERMINAL`` (:class:`~diloti.formats.terminal.Terminal`).
    """

    def __init__(self, game: Any, seat: int, bots: dict[int, Any], names: list[str], out: TextIO,
                 inp: TextIO, record: str | None, quiet: bool = False) -> None:
        self.game = game
        self.seat = seat
        self.bots = bots
        self.names = names
        self.out = out
        self.inp = inp
        self.record = record
        self.quiet = quiet
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())
        self.formats = formats_of(game.state.game)
        self.look: Terminal = self.formats.TERMINAL

    # ------------------------------------------------------------------ what the game says
    def show_table(self, view: Any) -> None:
        self.look.show_table(self, view)

    def show_moves(self, view: Any) -> None:
        self.look.show_moves(self, view)

    def show_history(self) -> None:
        self.look.show_history(self)

    def show_scores(self) -> None:
        self.look.show_scores(self)

    def help_text(self, view: Any) -> str:
        return self.look.help_text(self, view)

    def read_move(self, view: Any, text: str) -> Move:
        """The legal move ``text`` names (raises :class:`DilotiError` if none)."""
        return self.look.read_move(self, view, text)

    def describe(self, view: Any, move: Move) -> str:
        return self.look.describe(view, move)

    def round_summary(self, rec: Any) -> None:
        self.look.round_summary(self, rec)

    def game_over_line(self) -> str:
        return self.look.game_over_line(self)

    def make_record(self) -> Any:
        """The game's record (something with ``save`` and ``dumps``)."""
        return self.formats.record_from_game(self.game, names=self.names, site="diloti play")

    def hint(self, view: Any, arg: str) -> str:
        """The computer's advice for ``view``: its best few moves (``arg``: how many, default 3)."""
        if not view.legal:
            return "hint: you have no move to make now"
        count = int(arg) if arg.isdigit() and int(arg) > 0 else 3
        try:
            from diloti.ai.analysis import rank_moves, win_chances
        except ImportError:
            return "hint: not available (the computer analysis module is not installed)"
        master = any(getattr(b, "name", "") == "master" for b in self.bots.values())
        search = self.look.hint_search(master)
        try:
            ranked = rank_moves(view, seed=view.plays, **search)
        except DilotiError as exc:
            return f"hint: {exc}"
        shown = ranked[:count]
        return self.look.hint_text(view, shown, win_chances(view, shown), search)

    # ------------------------------------------------------------------ shared
    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.names[seat]})"

    def side_name(self, side: int) -> str:
        seats = [s for s in range(self.game.players) if s % self.game.sides == side]
        return f"side {side} (" + " + ".join(self.names[s] for s in seats) + ")"

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
        """The human's move, or None to stop (quit or end of input)."""
        view = self.game.view(self.seat)
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
                self.say(self.help_text(view))
            elif cmd in ("moves", "m", "list"):
                self.show_moves(view)
            elif cmd in ("table", "t"):
                self.show_table(view)
            elif cmd == "history":
                self.show_history()
            elif cmd == "score":
                self.show_scores()
            elif cmd == "hint" or cmd.startswith("hint "):
                self.say(self.hint(view, cmd[4:].strip()))
            elif cmd.isdigit():
                k = int(cmd)
                if 1 <= k <= len(view.legal):
                    chosen: Move = view.legal[k - 1]
                    return chosen
                self.say(f"error: no move number {k}: choose 1..{len(view.legal)} (type 'moves' to list them)")
            else:
                try:
                    return self.read_move(view, text)
                except DilotiError as exc:
                    self.say(f"error: {short_error(exc)}")
                    self.say("type a number from the list, 'moves' to list them, or 'help'")

    def play(self) -> bool:
        """Play until the game ends (True) or the human stops (False)."""
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
                who = self.who(seat)
            desc = self.describe(g.view(self.seat), move)
            g.play(move)
            self.say(f"{who}: {desc}")
            if rec.score is not None:
                self.round_summary(rec)
        self.say(self.game_over_line())
        return True

    def save(self) -> bool:
        """Save the record if one was asked for; False if it could not be (it is then written to stderr)."""
        if not self.record:
            return True
        return save_record(self.make_record(), self.record, self.say)


def seats_for(args: argparse.Namespace, seed: int) -> tuple[dict[int, Any], list[str]]:
    """The computer players of every seat but the human's, and every seat's name (``--level``, ``--name``)."""
    if not 0 <= args.seat < args.players:
        raise CliError(f"invalid --seat {args.seat}: expected 0..{args.players - 1}")
    if not args.name.strip():
        raise CliError(f"invalid --name {args.name!r}: expected a name")
    bots = {s: make_computer(args.level, seed + 1000 * (s + 1)) for s in range(args.players) if s != args.seat}
    names = [args.name if s == args.seat else f"{args.level.split(':')[0]}{s}" for s in range(args.players)]
    return bots, names


def run_session(session: TerminalSession, intro: str, options: Any) -> int:
    """Play a session to its end and save its record, also on Ctrl-C or an engine error: the exit status."""
    session.say(intro)
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


__all__ = ["TerminalSession", "run_session", "seats_for", "short_error"]
