"""Game records: a PGN-like text format, written and read back with replay.

A record is headers, then rounds. Each round names its dealer, its seed and
the shuffled deck (top card first), so it replays exactly with
``State.new(players, options, dealer, seed=seed, deck=deck)``; then one line
per move with the seat that made it; then the round's score breakdown::

    [Event "diloti"]
    [Date "2026.11.22"]
    [Players "2"]
    [Seat0 "you"]
    [Seat1 "random"]
    [Options "target=121 forced_capture"]
    [Seed "42"]
    [Result "1-0"]
    [Score "125-87"]

    round 1 dealer 0 seed 123456789
    deck 4C 5D ... (52 cards)
    s1 9D x 4H 5C
    s0 7H
    ...
    score 0: cards 27 +4 aces 2 10D 2 2C 0 xeri 1 = 18 | 1: cards 25 +0 aces 2 10D 0 2C 1 xeri 0 = 3

The ``Options`` header is :meth:`Options.to_text` and is read by
:meth:`Options.from_text` (a flag may also be ``forced_capture=true``).
``;`` or ``#`` starts a comment. ``Result`` is ``1-0`` (side 0 won),
``0-1`` or ``*`` (unfinished). A game that ended early has a
``Termination`` header (``[Termination "seat 1 resigned"]``): its ``Result``
is then the one given (the rounds replay, but the scores did not decide it).
The reader replays every move, checking that it is legal and made by the seat to move, and that each score line matches
the replay. It never raises on a bad line: it collects ``(line number,
message)`` in :attr:`GameRecord.errors` and keeps everything it could read.

>>> from diloti.core.game import Game
>>> g = Game(seed=3)
>>> while not g.is_over:
...     g.push(g.state.legal_moves()[0])
>>> rec = GameRecord.from_game(g, names=["ann", "bob"], date="2026.11.22")
>>> back = read_record(rec.dumps())
>>> back.errors, back.scores == tuple(g.scores), back.names
([], True, ['ann', 'bob'])
>>> bad = read_record(rec.dumps().replace("\\ns1 ", "\\ns1 zz ", 1))
>>> bad.errors[0][0], "cannot read 'zz'" in bad.errors[0][1], len(bad.rounds[0].moves) < len(rec.rounds[0].moves)
(13, True, True)
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from diloti.core.cards import NAMES, Card, parse_cards
from diloti.core.errors import DilotiError, OptionsError, RecordError
from diloti.core.game import Game, RoundRecord
from diloti.core.moves import Move
from diloti.core.options import Options
from diloti.core.scoring import Side
from diloti.core.state import State
from diloti.formats.notation import parse_move

_HEADER_RE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_ROUND_RE = re.compile(r"^round\s+(\d+)\s+dealer\s+(\d+)\s+seed\s+(\d+)$", re.IGNORECASE)
_MOVE_RE = re.compile(r"^s(\d)\s+(.+)$", re.IGNORECASE)


def format_score(score: tuple[Side, Side]) -> str:
    """The score line of a round.

    >>> from diloti.core.scoring import Side
    >>> format_score((Side(27, 4, 2, 2, 0, 1), Side(25, 0, 2, 0, 1, 0)))
    'score 0: cards 27 +4 aces 2 10D 2 2C 0 xeri 1 = 18 | 1: cards 25 +0 aces 2 10D 0 2C 1 xeri 0 = 3'
    """
    parts = [f"{i}: cards {s.cards} +{s.cards_points} aces {s.aces} 10D {s.ten_of_diamonds} "
             f"2C {s.two_of_clubs} xeri {s.xeri} = {s.total}" for i, s in enumerate(score)]
    return "score " + " | ".join(parts)


@dataclass
class GameRecord:
    """A game as recorded: headers, rounds, and what went wrong reading it."""

    players: int = 2
    options: Options = field(default_factory=Options)
    seed: int | None = None
    names: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    rounds: list[RoundRecord] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    termination: str | None = None  # why the game ended early ("seat 1 resigned"); None: played out
    winner: int | None = None  # the winning side of a game that ended early (its Result)
    notes: dict[int, str] = field(default_factory=dict)  # ply (over the game) -> a comment written after the move

    @property
    def scores(self) -> tuple[int, int]:
        """Points per side over the scored rounds."""
        a = sum(r.points[0] for r in self.rounds)
        b = sum(r.points[1] for r in self.rounds)
        return a, b

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``*`` from the scores and the target (or from ``winner``, if it ended early)."""
        if self.termination is not None and self.winner is not None:
            return "1-0" if self.winner == 0 else "0-1"
        a, b = self.scores
        if self.rounds and self.rounds[-1].score is not None and max(a, b) >= self.options.target and a != b:
            return "1-0" if a > b else "0-1"
        return "*"

    @classmethod
    def from_game(cls, game: Game, names: list[str] | None = None, event: str = "diloti",
                  date: str | None = None, site: str | None = None,
                  notes: dict[int, str] | None = None) -> GameRecord:
        """A record of a game (finished or not); ``notes`` are comments on moves, by ply over the game."""
        headers = {"Event": event, "Date": date or _dt.date.today().strftime("%Y.%m.%d")}
        if site:
            headers["Site"] = site
        rounds = [RoundRecord(r.number, r.dealer, r.seed, r.deck, list(r.moves), r.score, r.swept)
                  for r in game.rounds]
        return cls(game.players, game.options, game.seed, list(names or []), headers, rounds,
                   notes=dict(notes or {}))

    def dumps(self) -> str:
        """The record as text."""
        lines = [f'[{k} "{_quote(v)}"]' for k, v in self.headers.items()
                 if k not in ("Players", "Options", "Seed", "Result", "Score", "Termination")
                 and not k.startswith("Seat")]
        lines.append(f'[Players "{self.players}"]')
        for i, name in enumerate(self.names):
            lines.append(f'[Seat{i} "{_quote(name)}"]')
        lines.append(f'[Options "{self.options.to_text()}"]')
        if self.seed is not None:
            lines.append(f'[Seed "{self.seed}"]')
        a, b = self.scores
        lines.append(f'[Result "{self.result}"]')
        lines.append(f'[Score "{a}-{b}"]')
        if self.termination is not None:
            lines.append(f'[Termination "{_quote(self.termination)}"]')
        ply = 0
        for r in self.rounds:
            lines.append("")
            lines.append(f"round {r.number} dealer {r.dealer} seed {r.seed}")
            lines.append("deck " + " ".join(NAMES[c] for c in r.deck))
            for seat, move in r.moves:
                note = self.notes.get(ply)
                lines.append(f"s{seat} {move}" + (f" ; {_quote(note)}" if note else ""))
                ply += 1
            if r.score is not None:
                lines.append(format_score(r.score))
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record to a file."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    def start(self, index: int) -> State:
        """The dealt state of round ``index`` (0-based) before any move."""
        r = self.rounds[index]
        return State.new(self.players, self.options, r.dealer, seed=r.seed, deck=r.deck)

    def replay(self, index: int) -> Iterator[tuple[State, int, Move]]:
        """Step through round ``index``: yields (state before the move, seat, move).

        The state is the live one, so read it before asking for the next step.
        """
        state = self.start(index)
        for seat, move in self.rounds[index].moves:
            yield state, seat, move
            state.push(move)

    def final_state(self, index: int) -> State:
        """The state after the recorded moves of round ``index``."""
        state = self.start(index)
        for _, move in self.rounds[index].moves:
            state.push(move)
        return state


def _quote(v: str) -> str:
    # One header per line: control characters (a newline in a name) become spaces.
    v = "".join(" " if ord(ch) < 32 else ch for ch in v)
    return v.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(v: str) -> str:
    return re.sub(r"\\(.)", r"\1", v)


def _strip_comment(line: str) -> str:
    if line.lstrip().startswith("["):  # a header value may hold ';' or '#'
        return line.strip()
    for mark in (";", "#"):
        i = line.find(mark)
        if i >= 0:
            line = line[:i]
    return line.strip()


class _Reader:
    def __init__(self, text: str) -> None:
        self.rec = GameRecord()
        self.errors = self.rec.errors
        self.lines = text.splitlines()
        self.state: State | None = None
        self.cur: RoundRecord | None = None
        self.skip = False  # the rest of the current round cannot be read
        self.header_done = False
        self.fatal = False
        self.scored = False
        self.cur_line = 0

    def err(self, lineno: int, msg: str) -> None:
        self.errors.append((lineno, msg))

    def run(self) -> GameRecord:
        for i, raw in enumerate(self.lines, 1):
            line = _strip_comment(raw)
            if not line or self.fatal:
                continue
            if line.startswith("["):
                self.header(i, line)
            elif _ROUND_RE.match(line):
                self.round_line(i, line)
            elif self.cur is None:
                self.err(i, f"unexpected line {line!r}: expected a header [Name \"value\"] "
                            "or 'round N dealer D seed S'")
            elif self.skip:
                continue
            elif line.lower().startswith("deck"):
                self.deck_line(i, line)
            elif line.lower().startswith("score"):
                self.score_line(i, line)
            else:
                self.move_line(i, line)
        self.finish_round(len(self.lines))
        self.check_result()
        return self.rec

    # -- headers
    def header(self, i: int, line: str) -> None:
        m = _HEADER_RE.match(line)
        if not m:
            self.err(i, f"bad header {line!r}: expected [Name \"value\"]")
            return
        if self.header_done:
            self.err(i, f"header {line!r} after the first round")
            return
        key, val = m.group(1), _unquote(m.group(2))
        rec = self.rec
        rec.headers[key] = val
        if key == "Game" and val != "diloti":
            self.err(i, f"a {val} record: diloti.formats.games.read_any_record reads every game's records")
            self.fatal = True
        elif key == "Players":
            if val not in ("2", "4"):
                self.err(i, f"bad header Players {val!r}: expected 2 or 4; cannot replay the rounds")
                self.fatal = True
            else:
                rec.players = int(val)
        elif key == "Options":
            try:
                rec.options = Options.from_text(val)
            except OptionsError as exc:
                self.err(i, f"bad header Options: {exc}; cannot replay the rounds")
                self.fatal = True
        elif key == "Termination":
            rec.termination = val
            if "Result" in rec.headers:
                self.result_header(rec.headers["Result"])
        elif key == "Result" and rec.termination is not None:
            self.result_header(val)
        elif key == "Seed":
            if not val.isdigit():
                self.err(i, f"bad header Seed {val!r}: expected a number")
            else:
                rec.seed = int(val)
        elif re.fullmatch(r"Seat\d", key):
            seat = int(key[4:])
            while len(rec.names) <= seat:
                rec.names.append("")
            rec.names[seat] = val

    def result_header(self, val: str) -> None:
        # A game that ended early: its Result is the given one, not what the scores say.
        self.rec.winner = {"1-0": 0, "0-1": 1}.get(val)

    # -- rounds
    def round_line(self, i: int, line: str) -> None:
        self.finish_round(i)
        self.header_done = True
        m = _ROUND_RE.match(line)
        assert m
        number, dealer, seed = int(m.group(1)), int(m.group(2)), int(m.group(3))
        rec = self.rec
        self.skip = False
        self.state = None
        if dealer >= rec.players:
            self.err(i, f"round {number}: dealer {dealer} is not a seat 0..{rec.players - 1}")
            self.cur = None
            self.skip = True
            return
        expected = len(rec.rounds) + 1
        if number != expected:
            self.err(i, f"round {number}: expected round {expected}")
        if rec.rounds and dealer != (rec.rounds[-1].dealer + 1) % rec.players:
            self.err(i, f"round {number}: dealer {dealer} does not follow dealer {rec.rounds[-1].dealer}")
        self.scored = False
        self.cur = RoundRecord(number, dealer, seed, ())
        self.cur_line = i

    def deck_line(self, i: int, line: str) -> None:
        cur = self.cur
        assert cur is not None
        if self.state is not None:
            self.err(i, f"round {cur.number}: a second deck line")
            return
        try:
            deck = parse_cards(line[4:])
            state = State.new(self.rec.players, self.rec.options, cur.dealer, seed=cur.seed, deck=deck)
        except DilotiError as exc:
            self.err(i, f"round {cur.number}: bad deck: {exc}")
            self.skip = True
            self.cur = None
            return
        cur.deck = state.deck
        self.state = state
        self.rec.rounds.append(cur)

    def need_state(self, i: int, what: str) -> State | None:
        if self.state is None:
            assert self.cur is not None
            self.err(i, f"round {self.cur.number}: {what} before the deck line")
            self.skip = True
            return None
        return self.state

    def move_line(self, i: int, line: str) -> None:
        state = self.need_state(i, "a move")
        cur = self.cur
        if state is None or cur is None:
            return
        m = _MOVE_RE.match(line)
        if not m:
            self.err(i, f"round {cur.number}: cannot read {line!r}: expected 's<seat> <move>'")
            self.skip = True
            return
        seat = int(m.group(1))
        if state.is_over:
            self.err(i, f"round {cur.number}: move {line!r} after the end of the round")
            self.skip = True
            return
        if seat != state.turn:
            self.err(i, f"round {cur.number}: {line!r}: seat {state.turn} is to move, not seat {seat}")
            self.skip = True
            return
        try:
            move = parse_move(state, m.group(2))
        except DilotiError as exc:
            self.err(i, f"round {cur.number}: {exc}")
            self.skip = True
            return
        state.push(move)
        cur.moves.append((seat, move))
        if state.is_over:
            cur.score = state.score()
            cur.swept = state.swept

    def score_line(self, i: int, line: str) -> None:
        state = self.need_state(i, "the score")
        cur = self.cur
        if state is None or cur is None:
            return
        if not state.is_over:
            self.err(i, f"round {cur.number}: a score line before the round is over")
            self.skip = True
            return
        expected = format_score(state.score())
        if " ".join(line.split()) != expected:
            self.err(i, f"round {cur.number}: the score line says {line!r} but the replay gives {expected!r}")
        self.scored = True

    def finish_round(self, i: int) -> None:
        cur, state = self.cur, self.state
        if cur is not None and state is None and not self.skip:
            self.err(i, f"round {cur.number}: no deck line")
        if cur is not None and state is not None and state.is_over and not self.scored and not self.skip:
            self.err(i, f"round {cur.number}: the round is over but its score line is missing")
        self.cur = None
        self.state = None

    def check_result(self) -> None:
        rec = self.rec
        if self.errors:
            return
        for r in rec.rounds[:-1]:
            if r.score is None:
                self.err(len(self.lines), f"round {r.number} is unfinished but later rounds follow")
        given = rec.headers.get("Result")
        if given is not None and given != rec.result:
            self.err(len(self.lines), f"the Result header says {given!r} but the replay gives {rec.result!r}")
        score = rec.headers.get("Score")
        a, b = rec.scores
        if score is not None and score != f"{a}-{b}":
            self.err(len(self.lines), f"the Score header says {score!r} but the replay gives '{a}-{b}'")


def read_record(text: str) -> GameRecord:
    """Read a record, replaying it; problems go to ``errors``, never raised."""
    return _Reader(text).run()


def load_record(path: str | Path, strict: bool = False) -> GameRecord:
    """Read a record file. With ``strict`` the first problem raises
    :class:`RecordError` naming the file and line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{p}: not a text record ({exc.reason})") from None
    rec = read_record(text)
    if strict and rec.errors:
        line, msg = rec.errors[0]
        raise RecordError(f"{p}:{line}: {msg}")
    return rec


def deck_text(deck: tuple[Card, ...]) -> str:
    """The deck as written in a record."""
    return " ".join(NAMES[c] for c in deck)


__all__ = ["GameRecord", "deck_text", "format_score", "load_record", "read_record"]
