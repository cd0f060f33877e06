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

>>> from diloti.games.diloti.game import Game
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

from diloti.core.cards import NAMES, Card
from diloti.core.errors import OptionsError
from diloti.core.moves import Move
from diloti.formats.reader import RecordReader, _quote, load_record_file
from diloti.games.diloti.formats.notation import parse_move
from diloti.games.diloti.game import Game, RoundRecord
from diloti.games.diloti.options import Options
from diloti.games.diloti.scoring import Side
from diloti.games.diloti.state import State

_ROUND_RE = re.compile(r"^round\s+(\d+)\s+dealer\s+(\d+)\s+seed\s+(\d+)$", re.IGNORECASE)


def format_score(score: tuple[Side, Side]) -> str:
    """The score line of a round.

    >>> from diloti.games.diloti.scoring import Side
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
    def game(self) -> str:
        """The record's game (a record of Diloti names none: its format came before the others)."""
        return "diloti"

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


class _Reader(RecordReader):
    """Reads a Diloti record (:class:`RecordReader` with Diloti's headers, rounds and notation)."""

    def __init__(self, text: str) -> None:
        super().__init__(text.splitlines(), GameRecord(), "round", _ROUND_RE)

    def header_value(self, i: int, key: str, val: str) -> None:
        rec = self.rec
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
            self.seat_name(key, val)

    def result_header(self, val: str) -> None:
        # A game that ended early: its Result is the given one, not what the scores say.
        self.rec.winner = {"1-0": 0, "0-1": 1}.get(val)

    def start_round(self, i: int, number: int, dealer: int, seed: int) -> RoundRecord | None:
        rec = self.rec
        if dealer >= rec.players:
            self.err(i, f"round {number}: dealer {dealer} is not a seat 0..{rec.players - 1}")
            return None
        expected = len(rec.rounds) + 1
        if number != expected:
            self.err(i, f"round {number}: expected round {expected}")
        if rec.rounds and dealer != (rec.rounds[-1].dealer + 1) % rec.players:
            self.err(i, f"round {number}: dealer {dealer} does not follow dealer {rec.rounds[-1].dealer}")
        return RoundRecord(number, dealer, seed, ())

    def new_state(self, cur: RoundRecord, deck: list[Card]) -> State:
        return State.new(self.rec.players, self.rec.options, cur.dealer, seed=cur.seed, deck=deck)

    def read_move(self, state: State, text: str) -> Move:
        return parse_move(state, text)

    def score_text(self, score: tuple[Side, Side]) -> str:
        return format_score(score)


def read_record(text: str) -> GameRecord:
    """Read a record, replaying it; problems go to ``errors``, never raised."""
    rec: GameRecord = _Reader(text).run()
    return rec


def load_record(path: str | Path, strict: bool = False) -> GameRecord:
    """Read a record file. With ``strict`` the first problem raises
    :class:`RecordError` naming the file and line."""
    return load_record_file(path, strict, read_record)


def deck_text(deck: tuple[Card, ...]) -> str:
    """The deck as written in a record."""
    return " ".join(NAMES[c] for c in deck)


__all__ = ["GameRecord", "deck_text", "format_score", "load_record", "read_record"]
