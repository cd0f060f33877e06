"""Records of the one-card games: Diloti's layout (docs/NOTATION.md) with ``hand`` for ``round`` and the game's
own score line.

What differs between the games comes from the game's own classes: whether a record writes a move as its card
alone (its state's ``RECORD_CARD_ONLY``: Xeri's outcome follows from the pile) and the hands-won header (its
whole game's ``hands_header``: ``[Hands "6-3"]``, Xeri's hands won)::

    [Event "xeri"]
    [Game "xeri"]
    [Players "2"]
    [Options ""]
    [Seed "42"]
    [Result "1-0"]
    [Score "230-178"]
    [Hands "6-2"]

    hand 1 dealer 0 seed 123456789
    deck 4C 5D ... (52 cards)
    s1 7H
    ...
    score 0: cards 28 +3 honours 12 10D 1 2C 1 xeri 2 jacks 1 = 37 | 1: ...

>>> from diloti.games.xeri.rules import XeriGame
>>> g = XeriGame(seed=3)
>>> while not g.is_over:
...     g.push(g.state.legal_moves()[0])
>>> rec = HandsRecord.from_game(g, names=["ann", "bob"], date="2026.11.23")
>>> back = read_record(rec.dumps(), "xeri")
>>> back.errors, back.scores == tuple(g.scores), back.result == rec.result != "*"
([], True, True)
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diloti.core.cards import NAMES, Card
from diloti.core.errors import DilotiError, RecordError
from diloti.core.moves import Move
from diloti.core.registry import find_game
from diloti.formats.reader import RecordReader, _quote
from diloti.games.onecard.formats.notation import move_text
from diloti.games.onecard.game import HandRecord, HandsGame
from diloti.games.onecard.state import HandState

_HAND_RE = re.compile(r"^(?:hand|round)\s+(\d+)\s+dealer\s+(\d+)\s+seed\s+(\d+)$", re.IGNORECASE)


def result_text(winner: int | None, sides: int) -> str:
    """``1-0``, ``0-1`` (``0-1-0`` with three sides), or ``*`` for no winner yet.

    >>> result_text(1, 3), result_text(None, 2)
    ('0-1-0', '*')
    """
    if winner is None:
        return "*"
    return "-".join("1" if i == winner else "0" for i in range(sides))


def format_hand_score(score: tuple[Any, ...]) -> str:
    """The score line of a hand: each side's :meth:`line`."""
    return "score " + " | ".join(f"{i}: {s.line()}" for i, s in enumerate(score))


@dataclass
class HandsRecord:
    """A game of a one-card game as recorded (the shape of Diloti's records)."""

    game: str
    players: int = 2
    options: Any = None
    seed: int | None = None
    names: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    rounds: list[HandRecord] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    termination: str | None = None
    winner: int | None = None  # the winning side of a game that ended early (its Result)

    def __post_init__(self) -> None:
        if self.options is None:
            self.options = find_game(self.game).options()

    @property
    def sides(self) -> int:
        return int(find_game(self.game).state.check_players(self.players, self.options))

    @property
    def hand_points(self) -> list[tuple[int, ...]]:
        return [r.points for r in self.rounds if r.score is not None]

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per side over the scored hands."""
        return tuple(sum(p[i] for p in self.hand_points) for i in range(self.sides))

    @property
    def result(self) -> str:
        if self.termination is not None and self.winner is not None:
            return result_text(self.winner, self.sides)
        hands = self.hand_points
        return result_text(find_game(self.game).game.decide(self.options, hands) if hands else None, self.sides)

    @classmethod
    def from_game(cls, game: HandsGame, names: list[str] | None = None, event: str | None = None,
                  date: str | None = None, site: str | None = None) -> HandsRecord:
        headers = {"Event": event or game.game, "Date": date or _dt.date.today().strftime("%Y.%m.%d")}
        if site:
            headers["Site"] = site
        rounds = [HandRecord(r.number, r.dealer, r.seed, r.deck, list(r.moves), r.score, r.swept)
                  for r in game.rounds]
        return cls(game.game, game.players, game.options, game.seed, list(names or []), headers, rounds)

    def dumps(self) -> str:
        lines = [f'[{k} "{_quote(v)}"]' for k, v in self.headers.items()
                 if k not in ("Game", "Players", "Options", "Seed", "Result", "Score", "Hands", "Termination")
                 and not k.startswith("Seat")]
        lines.append(f'[Game "{self.game}"]')
        lines.append(f'[Players "{self.players}"]')
        lines.extend(f'[Seat{i} "{_quote(name)}"]' for i, name in enumerate(self.names))
        lines.append(f'[Options "{self.options.to_text()}"]')
        if self.seed is not None:
            lines.append(f'[Seed "{self.seed}"]')
        lines.append(f'[Result "{self.result}"]')
        lines.append(f'[Score "{"-".join(map(str, self.scores))}"]')
        info = find_game(self.game)
        if info.game.hands_header(self.options):
            lines.append(f'[Hands "{info.game.summary(self.options, self.hand_points) or "0-0"}"]')
        if self.termination is not None:
            lines.append(f'[Termination "{_quote(self.termination)}"]')
        for r in self.rounds:
            lines += ["", f"hand {r.number} dealer {r.dealer} seed {r.seed}",
                      "deck " + " ".join(NAMES[c] for c in r.deck)]
            card_only = info.state.RECORD_CARD_ONLY
            lines.extend(f"s{seat} {move_text(move, card_only)}" for seat, move in r.moves)
            if r.score is not None:
                lines.append(format_hand_score(r.score))
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    def start(self, index: int) -> HandState:
        """The dealt state of hand ``index`` (0-based) before any move."""
        r = self.rounds[index]
        state: HandState = find_game(self.game).state.new(self.players, self.options, r.dealer, seed=r.seed,
                                                            deck=r.deck)
        return state

    def replay(self, index: int) -> Iterator[tuple[HandState, int, Move]]:
        """Step through hand ``index``: yields (the live state before the move, seat, move)."""
        state = self.start(index)
        for seat, move in self.rounds[index].moves:
            yield state, seat, move
            state.push(move)

    def final_state(self, index: int) -> HandState:
        state = self.start(index)
        for _, move in self.rounds[index].moves:
            state.push(move)
        return state


class _HandsReader(RecordReader):
    """Reads a record of a one-card game (:class:`RecordReader` with its headers, hands and moves)."""

    def __init__(self, lines: list[str], game: str) -> None:
        super().__init__(lines, HandsRecord(game), "hand", _HAND_RE)

    def header_value(self, i: int, key: str, val: str) -> None:
        rec = self.rec
        try:
            if key == "Players":
                if not val.isdigit():
                    raise RecordError(f"expected a number of players, got {val!r}")
                rec.players = int(val)
            elif key == "Options":
                rec.options = find_game(rec.game).read_options(val)
        except DilotiError as exc:
            self.err(i, f"bad header {key}: {exc}; cannot replay the hands")
            self.fatal = True
        if key == "Seed" and val.isdigit():
            rec.seed = int(val)
        elif key == "Termination":
            rec.termination = val
        elif re.fullmatch(r"Seat\d", key):
            self.seat_name(key, val)
        if key in ("Termination", "Result") and rec.termination is not None:
            given = rec.headers.get("Result", "*").split("-")
            rec.winner = given.index("1") if "1" in given else None

    def start_round(self, i: int, number: int, dealer: int, seed: int) -> HandRecord | None:
        rec = self.rec
        if not rec.rounds:
            try:  # the seats and options are known once the headers are read
                find_game(rec.game).state.check_players(rec.players, rec.options)
            except DilotiError as exc:
                self.err(i, f"bad header Players: {exc}; cannot replay the hands")
                self.fatal = True
                return None
        if dealer >= rec.players:
            self.err(i, f"hand {number}: dealer {dealer} is not a seat 0..{rec.players - 1}")
            return None
        if number != len(rec.rounds) + 1:
            self.err(i, f"hand {number}: expected hand {len(rec.rounds) + 1}")
        return HandRecord(number, dealer, seed, ())

    def new_state(self, cur: HandRecord, deck: list[Card]) -> HandState:
        state: HandState = find_game(self.rec.game).state.new(self.rec.players, self.rec.options, cur.dealer,
                                                               seed=cur.seed, deck=deck)
        return state

    def read_move(self, state: HandState, text: str) -> Move:
        return state.read_move(text)

    def score_text(self, score: tuple[Any, ...]) -> str:
        return format_hand_score(score)


def read_record(text: str, game: str) -> HandsRecord:
    """Read a record of the one-card game ``game``, replaying it; problems go to ``errors``."""
    read: HandsRecord = _HandsReader(text.splitlines(), game).run()
    return read


def record_from_game(game: HandsGame, names: list[str] | None = None, event: str | None = None,
                     date: str | None = None, site: str | None = None,
                     notes: dict[int, str] | None = None) -> HandsRecord:
    """The record of a game (finished or not). These records carry no comments: ``notes`` are not written."""
    return HandsRecord.from_game(game, names, event, date, site)


__all__ = ["HandsRecord", "format_hand_score", "read_record", "record_from_game", "result_text"]
