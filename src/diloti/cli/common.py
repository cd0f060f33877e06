"""Flags shared by every subcommand: rule options, players, seed, level.

One flag per option of RULES.md, so ``play``, ``simulate``, ``bench``,
``tournament`` and ``serve`` all read options the same way.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_option_flags(p)
>>> opts = options_from_args(p.parse_args(["--target", "121", "--forced-capture",
...                                         "--face-card-redeal", "any_deal"]))
>>> opts.changed()
{'target': 121, 'face_card_redeal': 'any_deal', 'forced_capture': True}
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, NoReturn, TypeVar

from diloti.cli import CliError
from diloti.core.errors import InvalidPositionError
from diloti.games import DEFAULT_GAME, GAME_NAMES, GAMES, find_game
from diloti.games.diloti.options import FACE_REDEAL_CHOICES, Options
from diloti.games.diloti.state import State
from diloti.games.kontsina.rules import KontsinaOptions
from diloti.games.xeri.rules import XeriOptions
from diloti.match.workers import WorkerPoolError, check_pool_spec

N = TypeVar("N", int, float)

def _number_type(convert: Callable[[str], N], ok: Callable[[N], bool], what: str) -> Callable[[str], N]:
    """An argparse type that reads ``convert(text)`` and accepts it when ``ok``; else says ``what`` it wants."""

    def parse(text: str) -> N:
        try:
            v = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not ok(v):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return v

    parse.__name__ = what  # argparse names the type by it in a few messages
    return parse


_INF = float("inf")
positive_int = _number_type(int, lambda v: v >= 1, "a positive integer")
non_negative_int = _number_type(int, lambda v: v >= 0, "a non-negative integer")
positive_float = _number_type(float, lambda v: 0 < v < _INF, "a positive number")  # nan fails both
non_negative_float = _number_type(float, lambda v: 0 <= v < _INF, "a number of 0 or more")


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """Add one flag per rule option of the three games (RULES.md, RULES-XERI.md, RULES-KONTSINA.md).

    A game takes only its own options: :func:`options_from_args` refuses another game's flag.
    """
    group = parser.add_argument_group("rule options (RULES.md; all off by default)")
    default = Options()
    group.add_argument("--target", type=positive_int, default=None, metavar="N",
                       help=f"{Options.help('target')} (default {default.target}; xeri 101 with --game-by-points, "
                            f"kontsina {KontsinaOptions().target})")
    group.add_argument("--face-card-redeal", choices=FACE_REDEAL_CHOICES, default=default.face_card_redeal,
                       help=f"{Options.help('face_card_redeal')} (default {default.face_card_redeal})")
    for name in Options.flags():
        group.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true", help=Options.help(name))
    other = parser.add_argument_group("Xeri and Kontsina options (RULES-XERI.md, RULES-KONTSINA.md; with --game)")
    for cls in (XeriOptions, KontsinaOptions):
        for name in cls.names():
            if any(a.dest == name for a in parser._actions):
                continue
            if name in cls.MAXIMUM:
                other.add_argument("--" + name.replace("_", "-"), dest=name, type=positive_int, default=None,
                                   metavar="N", help=f"{cls.help(name)} (default {getattr(cls(), name)})")
            else:
                other.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true", help=cls.help(name))
    parser.set_defaults(check_args=options_from_args)  # a game refuses another game's flags as an argument error


def add_game_flag(parser: argparse.ArgumentParser) -> None:
    """``--game``: which of the three games (default diloti)."""
    parser.add_argument("--game", choices=GAME_NAMES, default="diloti",
                        help="the game: diloti, or its parent games xeri and kontsina (default diloti)")


def _option_names() -> set[str]:
    return {name for info in GAMES.values() for name in info.options.names()}


def options_from_args(args: argparse.Namespace) -> Any:
    """The options the flags chose, of the game ``--game`` names (Diloti's :class:`Options` without it).

    A flag of another game's option is refused in one line; so is a number of players the game
    does not seat.
    """
    game = getattr(args, "game", DEFAULT_GAME)
    cls: Any = find_game(game).options
    own = set(cls.names())
    data: dict[str, Any] = {}
    for name in sorted(_option_names()):
        if not hasattr(args, name):
            continue
        value = getattr(args, name)
        unset = value is None or value is False or (name == "face_card_redeal" and value == "off")
        if name in own:
            if value is not None:
                data[name] = value
        elif not unset:
            raise CliError(f"--{name.replace('_', '-')} is not a {game} option "
                           f"(its options: {', '.join(cls.names())})")
    options = cls.from_dict(data)
    players = getattr(args, "players", None)
    if players is not None:
        seats = find_game(game).players
        if players not in seats:
            raise CliError(f"argument --players: invalid choice: {players} ({game} is played by "
                           f"{', '.join(map(str, seats[:-1]))} or {seats[-1]} players)")
        find_game(game).state.check_players(players, options)
    return options


def add_players_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="2 or 4 players (default 2); Kontsina also 3, and 4 each alone unless --partnerships")
    parser.set_defaults(check_args=options_from_args)  # the game's seats and options, checked as arguments


def add_seed_flag(parser: argparse.ArgumentParser, what: str = "the deal") -> None:
    parser.add_argument("--seed", type=non_negative_int, default=None,
                        help=f"seed for {what} (default: random); the same seed gives the same games")


def add_game_flags(parser: argparse.ArgumentParser, seed_for: str | None = None) -> None:
    """``--game``, ``--players``, with ``seed_for`` ``--seed`` (seed for ``seed_for``), then the rule options:
    what a subcommand that deals its own games takes (and :func:`options_from_args` checks together)."""
    add_game_flag(parser)
    add_players_flag(parser)
    if seed_for is not None:
        add_seed_flag(parser, seed_for)
    add_option_flags(parser)


def add_level_flag(parser: argparse.ArgumentParser, default: str = "random") -> None:
    from diloti.ai import LEVELS

    parser.add_argument("--level", default=default, metavar="LEVEL",
                        help=f"computer player level: {', '.join(LEVELS)} (default {default}); "
                             "settings as LEVEL:KEY=VALUE,... where the level takes them; or an outside player "
                             "by its import path, package.module:Name[:KEY=VALUE,...] (see the README)")


def make_computer(spec: str, seed: int | None) -> Any:
    """A computer player from ``--level`` (a name, a name with settings, or an outside player's import path:
    the terminal's user names their own code, so it may be imported here, never at a browser table)."""
    from diloti.ai import make_player

    return make_player(spec, seed, outside=True)


def read_text_file(path: str, what: str = "file") -> str:
    """The text of ``path``, or a :class:`CliError` naming the file and what is wrong with it.

    >>> read_text_file("/no/such/game.json", "position file")
    Traceback (most recent call last):
    ...
    diloti.cli.CliError: position file '/no/such/game.json': no such file
    """
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise CliError(f"{what} {path!r}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{what} {path!r}: is a folder, not a file") from None
    except UnicodeDecodeError:
        raise CliError(f"{what} {path!r}: not a text file") from None
    except OSError as exc:
        raise CliError(f"{what} {path!r}: cannot read it ({exc.strerror or exc})") from None


def load_any_position_arg(arg: str) -> Any:
    """A position of any game (JSON that names its game, or Diloti's compact line): as :func:`load_position_arg`."""
    from diloti.formats.games import load_any_position

    return _load_arg(arg, load_any_position)


def load_position_arg(arg: str) -> State:
    """A position from the command line: ``-`` (standard input), JSON text, a compact line, or a file.

    Text with a space in it or starting with ``{`` is read as the position
    itself; anything else names a file holding one (JSON or compact).

    >>> load_position_arg("missing.json")
    Traceback (most recent call last):
    ...
    diloti.cli.CliError: position file 'missing.json': no such file
    """
    from diloti.games.diloti.formats.position import load_position

    return _load_arg(arg, load_position)


P = TypeVar("P")


def _load_arg(arg: str, load_position: Callable[[str], P]) -> P:
    if arg == "-":
        return load_position(sys.stdin.read())
    text = arg.strip()
    if text.startswith("{") or any(c.isspace() for c in text):
        try:
            return load_position(text)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"{exc} (POSITION is a file, '-', JSON or a compact position)") from None
    content = read_text_file(arg, "position file")
    try:
        return load_position(content)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"position file {arg!r}: {exc}") from None


class _FinalLine:
    """Without tqdm: no bar, one line at the end (when a bar would have been shown)."""

    def __init__(self, total: int, label: str, show: bool) -> None:
        self.total, self.label, self.show = total, label, show
        self.n = 0
        self.start = time.monotonic()

    def update(self, n: int = 1) -> None:
        self.n += n

    def __enter__(self) -> _FinalLine:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.show:
            print(f"{self.label}: {self.n}/{self.total} in {time.monotonic() - self.start:.1f}s", file=sys.stderr)


def progress_bar(total: int, label: str, show: bool | None = None) -> Any:
    """A progress bar on stderr: tqdm's (the ``cli`` extra); without tqdm, one line at the end.

    ``show``: True always, False never, None only when stderr is a terminal.
    The bar counts with ``update(n)``; ``n`` is the count so far.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err, progress_bar(3, "games", show=True) as bar:
    ...     bar.update(3)
    >>> "3/3" in err.getvalue()
    True
    """
    if show is None:
        show = sys.stderr.isatty()
    try:
        from tqdm import tqdm
    except ImportError:
        return _FinalLine(total, label, show)
    return tqdm(total=total, desc=label, disable=not show, file=sys.stderr, dynamic_ncols=True)


def one_line_errors(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make argument errors one line (``diloti perft: error: ... (see ...)``), exit status 2.

    >>> p = one_line_errors(argparse.ArgumentParser(prog="diloti x"))
    >>> _ = p.add_argument("n", type=int)
    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     try:
    ...         p.parse_args(["z"])
    ...     except SystemExit as exc:
    ...         print(exc.code)
    2
    >>> err.getvalue()
    "diloti x: error: argument n: invalid int value: 'z' (see 'diloti x --help')\\n"
    """
    def error(message: str) -> NoReturn:
        parser.exit(2, f"{parser.prog}: error: {message} (see '{parser.prog} --help')\n")

    parser.error = error  # type: ignore[method-assign]
    # No abbreviations: ``--game`` on a command without it was read as ``--game-by-points``.
    parser.allow_abbrev = False
    return parser


def pool_spec(text: str) -> int | str:
    """``--workers``: a number of processes (as an int) or a Ray spec, checked before any game."""
    try:
        kind = check_pool_spec(text)
    except WorkerPoolError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return kind if isinstance(kind, int) else text.strip()


def save_record(rec: Any, path: str, say: Callable[[str], None]) -> bool:
    """Save a game record (any game's: it has ``save`` and ``dumps``) to ``path``; if it cannot be written, say
    why on stderr and print the record there instead, so the game is not lost (False)."""
    try:
        rec.save(path)
    except OSError as exc:
        print(f"diloti play: error: could not save the record to {path!r} "
              f"({exc.strerror or exc}); here it is:", file=sys.stderr)
        sys.stderr.write(rec.dumps())
        return False
    say(f"record saved to {path}")
    return True
