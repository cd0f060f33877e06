"""A game in the terminal, whichever the game: the loop every ``diloti play`` shares.

:class:`TerminalSession` reads the human's moves line by line (a number from the list, notation,
or a command: ``moves``, ``table``, ``history``, ``score``, ``hint``, ``help``, ``quit``), lets the
computer players move, shows each move and each round's end, and saves the record. Each game's
session (:mod:`diloti.cli.play`, :mod:`diloti.cli.variant_play`) says how its table, moves, score
and rounds look and how a typed move is read. The human seat only ever sees ``game.view(seat)``.
"""

from __future__ import annotations

import argparse
from abc import ABC, abstractmethod
from typing import Any, TextIO

from diloti.cli import CliError
from diloti.cli.common import make_computer, save_record
from diloti.core.errors import DilotiError
from diloti.core.moves import Move


def short_error(exc: Exception) -> str:
    """An engine error without the whole position it ends with (the player sees the table already).

    >>> short_error(ValueError("illegal move '7H' in [xeri play, seat 0 to play; ...]"))
    "illegal move '7H'"
    """
    msg = str(exc)
    cut = msg.rfind(" in [")
    return msg[:cut] if cut > 0 else msg


class TerminalSession(ABC):
    """One terminal game: the game, the computer players, input and output."""

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

    # ------------------------------------------------------------------ what each game says
    @abstractmethod
    def show_table(self, view: Any) -> None:
        """The position as the human's seat sees it."""

    @abstractmethod
    def show_moves(self, view: Any) -> None:
        """The legal moves, numbered from 1."""

    @abstractmethod
    def show_history(self) -> None:
        """This round's moves."""

    @abstractmethod
    def show_scores(self) -> None:
        """The score sheet."""

    @abstractmethod
    def help_text(self, view: Any) -> str:
        """How to enter a move, and the commands."""

    @abstractmethod
    def hint(self, view: Any, arg: str) -> str:
        """The computer's advice for ``view`` (``arg``: how many moves to show)."""

    @abstractmethod
    def read_move(self, view: Any, text: str) -> Move:
        """The legal move ``text`` names (raises :class:`DilotiError` if none)."""

    @abstractmethod
    def describe(self, view: Any, move: Move) -> str:
        """A move in words, for the table as ``view`` shows it."""

    @abstractmethod
    def round_summary(self, rec: Any) -> None:
        """A round's (a hand's) end: its score and the sheet."""

    @abstractmethod
    def game_over_line(self) -> str:
        """The last line of a finished game."""

    @abstractmethod
    def make_record(self) -> Any:
        """The game's record (something with ``save`` and ``dumps``)."""

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
