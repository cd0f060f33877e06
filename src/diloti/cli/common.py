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
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, NoReturn, TypeVar

from diloti.cli import CliError
from diloti.core.errors import InvalidPositionError
from diloti.core.registry import GAMES, GameInfo, default_game, find_game
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


def join_words(words: Sequence[str], last: str = "and") -> str:
    """``a, b and c`` (or with ``last`` "or").

    >>> join_words(["Ann", "Bob"]), join_words(["2", "3", "4"], "or")
    ('Ann and Bob', '2, 3 or 4')
    """
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


def other_games() -> list[GameInfo]:
    """Every registered game but the default one, in the registry's order."""
    return [info for info in GAMES.values() if info.named]


def _page(info: GameInfo) -> str:
    return info.rules.rsplit("/", 1)[-1]


def _choices(cls: Any) -> dict[str, tuple[str, ...]]:
    """The options of ``cls`` that take one of a few words (Diloti's ``face_card_redeal``), with the words."""
    choices: dict[str, tuple[str, ...]] = getattr(cls, "CHOICES", {})
    return choices


def _add_option(group: Any, info: GameInfo, name: str) -> None:
    """The flag of option ``name`` of ``info``'s options, in ``group``, built from the options class: a switch
    for a flag, a word from its choices, or a positive number (ranged by the class); a number's help gives its
    default, and the defaults of the games after ``info`` that share the flag."""
    cls: Any = info.options
    flag, default, text = "--" + name.replace("_", "-"), getattr(cls(), name), cls.help(name)
    if isinstance(default, bool):
        group.add_argument(flag, dest=name, action="store_true", help=text)
    elif name in _choices(cls):
        group.add_argument(flag, dest=name, choices=_choices(cls)[name], default=default,
                           help=f"{text} (default {default})")
    else:
        games = list(GAMES.values())
        later = [g for g in games[games.index(info) + 1:] if name in g.options.names()]
        notes = [f"{g.name} {getattr(g.options, 'DEFAULT_NOTES', {}).get(name) or getattr(g.options(), name)}"
                 for g in later]
        group.add_argument(flag, dest=name, type=positive_int, default=None, metavar="N",
                           help=f"{text} (default {default}" + (f"; {', '.join(notes)}" if notes else "") + ")")


def add_option_flags(parser: argparse.ArgumentParser) -> None:
    """Add one flag per rule option of every registered game, from its options class (names, help, ranges,
    defaults): the default game's in one group (its valued options first, then its switches), every other
    game's that are not there yet in a second group.

    A game takes only its own options: :func:`options_from_args` refuses another game's flag.
    """
    main = default_game()
    cls: Any = main.options
    note = getattr(cls, "HELP_NOTE", "")
    group = parser.add_argument_group(f"rule options ({_page(main)}" + (f"; {note}" if note else "") + ")")
    flags = cls.flags()
    for name in [n for n in cls.names() if n not in flags] + flags:
        _add_option(group, main, name)
    others = other_games()
    if others:
        other = parser.add_argument_group(f"{join_words([g.title for g in others])} options "
                                          f"({', '.join(_page(g) for g in others)}; with --game)")
        for info in others:
            for name in info.options.names():
                if not any(a.dest == name for a in parser._actions):
                    _add_option(other, info, name)
    parser.set_defaults(check_args=options_from_args)  # a game refuses another game's flags as an argument error


def games_phrase() -> str:
    """The other games as ``--game``'s help names them: by what they are to the default game, if the registry says.

    >>> games_phrase() == "its parent games " + join_words([g.name for g in other_games()])
    True
    """
    kin: dict[str, list[str]] = {}
    for info in other_games():
        kin.setdefault(info.relation, []).append(info.name)
    parts = [(f"its {rel}{'s' if len(names) > 1 else ''} " if rel else "") + join_words(names)
             for rel, names in kin.items()]
    return ", or ".join(parts)


def add_game_flag(parser: argparse.ArgumentParser) -> None:
    """``--game``: which of the registered games (default the default game)."""
    main = default_game().name
    others = games_phrase()
    parser.add_argument("--game", choices=tuple(GAMES), default=main,
                        help=f"the game: {main}" + (f", or {others}" if others else "") + f" (default {main})")


def _option_names() -> set[str]:
    return {name for info in GAMES.values() for name in info.options.names()}


def options_from_args(args: argparse.Namespace) -> Any:
    """The options the flags chose, of the game ``--game`` names (the default game's without it).

    A flag of another game's option is refused in one line; so is a number of players the game
    does not seat.
    """
    game = getattr(args, "game", default_game().name)
    cls: Any = find_game(game).options
    own = set(cls.names())
    unset_words = {name: getattr(info.options(), name) for info in GAMES.values() for name in _choices(info.options)}
    data: dict[str, Any] = {}
    for name in sorted(_option_names()):
        if not hasattr(args, name):
            continue
        value = getattr(args, name)
        unset = value is None or value is False or (name in unset_words and value == unset_words[name])
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
                           f"{join_words([str(n) for n in seats], 'or')} players)")
        find_game(game).state.check_players(players, options)
    return options


def add_players_flag(parser: argparse.ArgumentParser) -> None:
    """``--players``: any number of seats a registered game takes; the help says the default game's, and the
    others' where they differ (in the game's own words, its registry entry's ``players_note``)."""
    main = default_game()
    seats = sorted({n for info in GAMES.values() for n in info.players})
    notes = [f"; {g.title} {g.players_note}" if g.players_note else
             f"; {g.title} {join_words([str(n) for n in g.players], 'or')} players"
             for g in other_games() if g.players_note or not set(g.players) <= set(main.players)]
    parser.add_argument("--players", type=int, choices=tuple(seats), default=main.players[0],
                        help=f"{join_words([str(n) for n in main.players], 'or')} players "
                             f"(default {main.players[0]}){''.join(notes)}")
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
    """A position of any game from the command line: ``-`` (standard input), JSON text (which names its game),
    Diloti's compact line, or a file holding one.

    Text with a space in it or starting with ``{`` is read as the position
    itself; anything else names a file holding one (JSON or compact).

    >>> load_any_position_arg("missing.json")
    Traceback (most recent call last):
    ...
    diloti.cli.CliError: position file 'missing.json': no such file
    """
    from diloti.formats.games import load_any_position

    return _load_arg(arg, load_any_position)


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
