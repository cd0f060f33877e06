"""Reading a game record line by line, replaying it: what the records of every game share.

A record is headers (``[Name "value"]``), then for each round (a one-card game's: hand) a line
``round N dealer D seed S``, a ``deck`` line, one line per move (``s<seat> <move>``) and, once the
round is over, its ``score`` line. :class:`RecordReader` reads that shape and replays the moves;
each game's reader (:mod:`diloti.games.diloti.formats.record`, :mod:`diloti.games.onecard.formats.record`)
says what its headers mean, how a round starts, deals, reads a move and writes a score. Problems go to the record's
``errors`` as ``(line number, message)``; nothing is raised.

>>> _quote('say "hi"\\n'), _unquote('say \\\\"hi\\\\" ')
('say \\\\"hi\\\\" ', 'say "hi" ')
>>> _strip_comment("s0 7H ; a good move"), _strip_comment('[Event "a; b"]')
('s0 7H', '[Event "a; b"]')
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from diloti.core.cards import Card, parse_cards
from diloti.core.errors import DilotiError, RecordError
from diloti.core.moves import Move

_HEADER_RE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE_RE = re.compile(r"^s(\d)\s+(.+)$", re.IGNORECASE)


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


class RecordReader(ABC):
    """Reads the lines of one record into ``rec``, replaying every round; ``word`` names a round in messages
    (``round``, or ``hand`` in the one-card games) and ``round_re`` matches a round's first line."""

    def __init__(self, lines: list[str], rec: Any, word: str, round_re: re.Pattern[str]) -> None:
        self.rec = rec
        self.lines = lines
        self.word = word
        self.round_re = round_re
        self.state: Any = None  # the round being replayed, once its deck is read
        self.cur: Any = None  # its record
        self.skip = False  # the rest of the current round cannot be read
        self.fatal = False  # nothing more can be replayed (bad players or options)
        self.scored = False
        self.header_done = False

    def err(self, i: int, msg: str) -> None:
        self.rec.errors.append((i, msg))

    def run(self) -> Any:
        """Read every line; the record, with its ``errors``."""
        for i, raw in enumerate(self.lines, 1):
            line = _strip_comment(raw)
            if not line or self.fatal:
                continue
            if line.startswith("["):
                self.header(i, line)
            elif m := self.round_re.match(line):
                self.finish(i)
                self.header_done = True
                self.skip, self.scored = False, False
                self.cur = self.start_round(i, int(m.group(1)), int(m.group(2)), int(m.group(3)))
                self.skip = self.cur is None and not self.fatal
            elif self.cur is None:
                if not self.skip:
                    self.err(i, f"unexpected line {line!r}: expected a header [Name \"value\"] or "
                                f"'{self.word} N dealer D seed S'")
            elif self.skip:
                continue
            elif line.lower().startswith("deck"):
                self.deck_line(i, line)
            elif self.state is None:
                what = "the score" if line.lower().startswith("score") else "a move"
                self.err(i, f"{self.word} {self.cur.number}: {what} before the deck line")
                self.skip = True
            elif line.lower().startswith("score"):
                self.score_line(i, line)
            else:
                self.move_line(i, line)
        self.finish(len(self.lines))
        self.check_result()
        return self.rec

    # ------------------------------------------------------------------ what each game says
    @abstractmethod
    def header_value(self, i: int, key: str, val: str) -> None:
        """Take one header (stored in ``rec.headers`` already); set ``fatal`` if nothing can be replayed."""

    @abstractmethod
    def start_round(self, i: int, number: int, dealer: int, seed: int) -> Any:
        """The record of a round starting at line ``i`` (checked against the ones before); None to skip it."""

    @abstractmethod
    def new_state(self, cur: Any, deck: list[Card]) -> Any:
        """The round's state dealt from ``deck`` (raises :class:`DilotiError` for a bad one)."""

    @abstractmethod
    def read_move(self, state: Any, text: str) -> Move:
        """The legal move ``text`` names in ``state`` (raises :class:`DilotiError` if none)."""

    @abstractmethod
    def score_text(self, score: Any) -> str:
        """A round's score line as the record writes it."""

    # ------------------------------------------------------------------ the shape every record shares
    def header(self, i: int, line: str) -> None:
        m = _HEADER_RE.match(line)
        if not m:
            self.err(i, f"bad header {line!r}: expected [Name \"value\"]")
            return
        if self.header_done:
            self.err(i, f"header {line!r} after the first {self.word}")
            return
        key, val = m.group(1), _unquote(m.group(2))
        self.rec.headers[key] = val
        self.header_value(i, key, val)

    def seat_name(self, key: str, val: str) -> None:
        """A ``SeatN`` header: that seat's name."""
        seat = int(key[4:])
        names = self.rec.names
        names += [""] * (seat + 1 - len(names))
        names[seat] = val

    def deck_line(self, i: int, line: str) -> None:
        cur = self.cur
        if self.state is not None:
            self.err(i, f"{self.word} {cur.number}: a second deck line")
            return
        try:
            state = self.new_state(cur, parse_cards(line[4:]))
        except DilotiError as exc:
            self.err(i, f"{self.word} {cur.number}: bad deck: {exc}")
            self.skip = True
            return
        cur.deck = state.deck
        self.state = state
        self.rec.rounds.append(cur)

    def move_line(self, i: int, line: str) -> None:
        state, cur = self.state, self.cur
        m = _MOVE_RE.match(line)
        problem = None
        if not m:
            problem = f"cannot read {line!r}: expected 's<seat> <move>'"
        elif state.is_over:
            problem = f"move {line!r} after the end of the {self.word}"
        elif int(m.group(1)) != state.turn:
            problem = f"{line!r}: seat {state.turn} is to move, not seat {m.group(1)}"
        else:
            try:
                move = self.read_move(state, m.group(2))
            except DilotiError as exc:
                problem = str(exc)
        if problem is not None:
            self.err(i, f"{self.word} {cur.number}: {problem}")
            self.skip = True
            return
        cur.moves.append((state.turn, move))
        state.push(move)
        if state.is_over:
            cur.score = state.score()
            cur.swept = state.swept

    def score_line(self, i: int, line: str) -> None:
        state, cur = self.state, self.cur
        if not state.is_over:
            self.err(i, f"{self.word} {cur.number}: a score line before the {self.word} is over")
            self.skip = True
            return
        expected = self.score_text(state.score())
        if " ".join(line.split()) != expected:
            self.err(i, f"{self.word} {cur.number}: the score line says {line!r} but the replay gives {expected!r}")
        self.scored = True

    def finish(self, i: int) -> None:
        """The end of a round's lines: its deck and, once it is over, its score line must have been there."""
        cur, state = self.cur, self.state
        if cur is not None and not self.skip:
            if state is None:
                self.err(i, f"{self.word} {cur.number}: no deck line")
            elif state.is_over and not self.scored:
                self.err(i, f"{self.word} {cur.number}: the {self.word} is over but its score line is missing")
        self.cur, self.state = None, None

    def check_result(self) -> None:
        """The whole record, once replayed: no unfinished round before the last, headers that agree."""
        rec = self.rec
        if rec.errors:
            return
        for r in rec.rounds[:-1]:
            if r.score is None:
                self.err(len(self.lines), f"{self.word} {r.number} is unfinished but later {self.word}s follow")
        for key, value in (("Result", rec.result), ("Score", "-".join(map(str, rec.scores)))):
            given = rec.headers.get(key)
            if given is not None and given != value:
                self.err(len(self.lines), f"the {key} header says {given!r} but the replay gives {value!r}")


Rec = TypeVar("Rec", bound=Any)


def load_record_file(path: str | Path, strict: bool, read: Callable[[str], Rec]) -> Rec:
    """``read`` (a reader of record text) applied to the file at ``path``; with ``strict`` the first problem
    raises :class:`RecordError` naming the file and line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{p}: not a text record ({exc.reason})") from None
    rec = read(text)
    if strict and rec.errors:
        line, msg = rec.errors[0]
        raise RecordError(f"{p}:{line}: {msg}")
    return rec


__all__ = ["RecordReader", "load_record_file"]
