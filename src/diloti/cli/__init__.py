"""The ``diloti`` command line.

Each subcommand lives in its own module of this package with a
``register(subparsers)`` function that adds its parser and sets ``func``.
Errors that come from bad input are printed as one line, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from diloti import __version__
from diloti._core import CORE
from diloti.core.errors import DilotiError

# Subcommand modules, in the order --help lists them.
COMMANDS = [
    "play",
    "moves",
    "perft",
    "replay",
    "simulate",
    "bench",
    "tournament",
    "analyse",
    "review",
    "serve",
    "bot",
]


class CliError(DilotiError):
    """A bad command-line argument or file."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="diloti",
        description="Diloti (Δηλωτή), the Greek fishing card game: play, analyse, benchmark, serve.",
    )
    parser.add_argument("--version", action="version", version=f"diloti {__version__} ({CORE} core)")

    def error(message: str) -> NoReturn:
        parser.exit(2, f"diloti: error: {message} (see 'diloti --help')\n")

    parser.error = error  # type: ignore[method-assign]
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"diloti.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"diloti.cli.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is returned (2 for bad input, also for a bad argument)."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # named by the command they were given to
            prog = f"diloti {args.command}" if getattr(args, "command", None) else "diloti"
            parser.exit(2, f"{prog}: error: unrecognized arguments: {' '.join(extra)} (see '{prog} --help')\n")
    except SystemExit as exc:  # --help, --version, or a bad argument (already printed on one line)
        return exc.code if isinstance(exc.code, int) else 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    check = getattr(args, "check_args", None)
    if check is not None:  # flags that only make sense together (a game and its options): an argument error
        try:
            check(args)
        except DilotiError as exc:
            print(f"diloti {args.command}: error: {exc} (see 'diloti {args.command} --help')", file=sys.stderr)
            return 2
    try:
        result = args.func(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except DilotiError as exc:
        print(f"diloti {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"{exc.filename!r}: " if exc.filename else ""
        print(f"diloti {args.command}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
