"""Positions and records of the one-card games (Xeri, Kontsina, any game on :class:`~diloti.core.hand_state.HandState`).

A position or record of such a game says its game: ``"game": "xeri"`` in JSON, a
``[Game "xeri"]`` header in a record. What differs between the games comes from the game's
own classes: the counts a position carries (``POSITION_COUNTS``: Xeri's ``xeri`` and
``jack_xeri``), whether a record writes a move as its card alone (``RECORD_CARD_ONLY``: Xeri's
outcome follows from the pile), and the hands-won header (``HandsGame.hands_header``).
:mod:`diloti.formats.games` reads and writes every game through the registry.

The JSON position of a parent game::

    {"game": "xeri", "players": 2, "options": {...}, "dealer": 1, "turn": 0,
     "hands": [["AS", "10D"], [...]], "table": ["4C", "9H", "KD", "7S"],
     "stock": [...], "captured": [[...], [...]], "xeri": [0, 0], "jack_xeri": [0, 0],
     "last_capturer": null}

Xeri's ``table`` is the pile, bottom first (its last card is the top); ``captured``
has one list per side; ``xeri`` and ``jack_xeri`` are Xeri's only; ``seed`` and
``shuffles`` are written when they differ from 0 and 1.

A record is Diloti's layout with ``hand`` for ``round`` and the game's own score
line (``[Hands "6-3"]`` adds Xeri's hands won)::

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
>>> st = back.start(0)
>>> st.push(st.legal_moves()[0])
>>> position_from_dict(position_to_dict(st), "xeri") == st
True
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diloti.core.cards import NAMES, Card, cards_of, parse_cards
from diloti.core.errors import DilotiError, InvalidCardError, InvalidPositionError, RecordError
from diloti.core.hand_state import HandState
from diloti.core.hands_game import HandRecord, HandsGame
from diloti.core.moves import CAPTURE, Move
from diloti.core.phase import Phase
from diloti.formats.reader import RecordReader, _quote
from diloti.formats.terminal import HandsTerminal
from diloti.formats.wire import TableFacts, frame_dict, history, move_dict
from diloti.games import find_game

HAND_FIELDS = ("game", "players", "options", "dealer", "turn", "hands", "table", "stock", "captured", "xeri",
                  "jack_xeri", "last_capturer", "plays", "seed", "shuffles")
_HAND_RE = re.compile(r"^(?:hand|round)\s+(\d+)\s+dealer\s+(\d+)\s+seed\s+(\d+)$", re.IGNORECASE)


# ---------------------------------------------------------------- positions
def position_to_dict(state: HandState) -> dict[str, Any]:
    """The JSON-ready dict of a position of a one-card game.

    >>> from diloti.games import find_game
    >>> d = position_to_dict(find_game("kontsina").state.new(seed=1))
    >>> d["game"], len(d["hands"][0]), len(d["table"]), len(d["stock"])
    ('kontsina', 4, 4, 40)
    """
    d: dict[str, Any] = {
        "game": state.GAME, "players": state.players, "options": state.options.to_dict(), "dealer": state.dealer,
        "turn": state.turn, "hands": [[NAMES[c] for c in h] for h in state.hands],
        "table": [NAMES[c] for c in state.table], "stock": [NAMES[c] for c in state.remaining_stock],
        "captured": [[NAMES[c] for c in cards_of(m)] for m in state.captured],
    }
    for key in state.POSITION_COUNTS:
        d[key] = list(getattr(state, key))
    d["last_capturer"] = state.last_capturer
    if state.seed:
        d["seed"] = state.seed
    if state.shuffles != 1:
        d["shuffles"] = state.shuffles
    return d


def _field(name: str, reason: str) -> InvalidPositionError:
    return InvalidPositionError(f"invalid position: field {name!r}: {reason}")


def _cards(name: str, v: Any) -> list[int]:
    if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
        raise _field(name, f"expected a list of cards like \"10D\", got {v!r}")
    try:
        return list(parse_cards(v))
    except InvalidCardError as exc:
        raise _field(name, str(exc)) from None


def _seat(data: Mapping[str, Any], key: str, players: int, default: int | None = None) -> int | None:
    v = data.get(key, default)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < players:
        raise _field(key, f"expected a seat 0..{players - 1}, got {v!r}")
    return v


def _side_counts(data: Mapping[str, Any], key: str, sides: int, known: bool) -> list[int]:
    """A count a side (its xeris), 0 each when absent; ``known``: the game keeps this count at all."""
    v = data.get(key, [0] * sides)
    if (not known and key in data) or not isinstance(v, list) or len(v) != sides or any(
            isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 26 for x in v):
        raise _field(key, f"expected {sides} counts 0..26 (xeri only), got {v!r}")
    return v


def position_from_dict(data: Mapping[str, Any], game: str) -> HandState:
    """A position of the one-card game ``game`` from its dict, validated (every card once, whole deals in the stock).

    >>> s = position_from_dict({"game": "xeri", "players": 3}, "xeri")
    Traceback (most recent call last):
    ...
    diloti.core.errors.InvalidPositionError: invalid number of players 3 for xeri: expected 2 or 4
    """
    for k in data:
        if k not in HAND_FIELDS:
            raise _field(k, f"unknown field (known: {', '.join(HAND_FIELDS)})")
    info = find_game(game)
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise _field("players", f"expected a number of players, got {players!r}")
    try:
        options = info.options.from_dict(data.get("options", {}))
    except DilotiError as exc:
        raise _field("options", str(exc)) from None
    sides = info.state.check_players(players, options)
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != players:
        raise _field("hands", f"expected a list of {players} lists, got {hands!r}")
    captured = data.get("captured", [[]] * sides)
    if not isinstance(captured, list) or len(captured) != sides:
        raise _field("captured", f"expected a list of {sides} lists (one per side), got {captured!r}")
    counts = {key: _side_counts(data, key, sides, key in info.state.POSITION_COUNTS) for key in ("xeri", "jack_xeri")}
    for key in ("seed", "shuffles"):
        v = data.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise _field(key, f"expected a number 0 or more, got {v!r}")
    dealer = _seat(data, "dealer", players)
    if dealer is None:  # absent or null: every position has a dealer
        raise _field("dealer", "missing" if "dealer" not in data else f"expected a seat 0..{players - 1}, got None")
    state: HandState = info.state.from_parts(
        players=players, options=options, dealer=dealer, turn=_seat(data, "turn", players, (dealer + 1) % players),
        hands=[_cards(f"hands[{i}]", h) for i, h in enumerate(hands)], table=_cards("table", data.get("table", [])),
        stock=_cards("stock", data.get("stock", [])),
        captured=[_cards(f"captured[{i}]", c) for i, c in enumerate(captured)],
        xeri=counts["xeri"], jack_xeri=counts["jack_xeri"], last_capturer=_seat(data, "last_capturer", players),
        seed=data.get("seed", 0), shuffles=data.get("shuffles", 1),
    )
    if "plays" in data and data["plays"] != state.plays:
        raise _field("plays", f"the hands and stock say {state.plays} cards were played, not {data['plays']!r}")
    return state


# ------------------------------------------------------------------ records
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

    game: str = "xeri"
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


def move_text(move: Move, card_only: bool = False) -> str:
    """A move as a record writes it: the notation, or with ``card_only`` (Xeri: its outcome follows) the card alone."""
    if card_only and move[0] is not None:
        return NAMES[move[0]]
    return str(move)


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


def describe_move(state: HandState, move: Move) -> str:
    """A short readable form of ``move`` in ``state`` (before it is played).

    >>> from diloti.games import find_game
    >>> s = find_game("kontsina").state.new(seed=2)
    >>> [describe_move(s, m) for m in s.legal_moves()[1:3]]
    ['8H laid', '8H takes 3C+5D']
    """
    card = move.card
    assert card is not None
    if move.kind != CAPTURE:
        return f"{NAMES[card]} laid"
    taken = move.cards or tuple(state.table)  # a capture that names no cards takes the whole pile (Xeri)
    return f"{NAMES[card]} takes {'+'.join(NAMES[c] for c in taken)}"


TERMINAL = HandsTerminal()  # how these games look in the terminal (``diloti play``)


def read_record(text: str, game: str) -> HandsRecord:
    """Read a record of the one-card game ``game``, replaying it; problems go to ``errors``."""
    read: HandsRecord = _HandsReader(text.splitlines(), game).run()
    return read


def record_from_game(game: HandsGame, names: list[str] | None = None, event: str | None = None,
                     date: str | None = None, site: str | None = None,
                     notes: dict[int, str] | None = None) -> HandsRecord:
    """The record of a game (finished or not). These records carry no comments: ``notes`` are not written."""
    return HandsRecord.from_game(game, names, event, date, site)


# ------------------------------------------------------------------ the server's messages
def state_message(game: HandsGame, seat: int | None, facts: TableFacts) -> dict[str, Any]:
    """The ``state`` message of a table of a one-card game: the shape of Diloti's, with ``game`` and ``sides``.

    ``table`` is Xeri's pile (bottom first, the top card last) or the loose cards. A spectator's message
    (``seat`` None) is built from the view of the seat after the one to move, with its hand and moves left out
    (``seat`` null).
    """
    public = seat is None
    view = game.view(seat if seat is not None else (game.state.turn + 1) % game.players)
    return {
        "type": "state",
        "game": view.game,
        "ply": facts.ply,
        "round": facts.round_no,
        "seat": None if public else view.seat,
        "players": view.players,
        "sides": view.sides,
        "dealer": view.dealer,
        "turn": view.turn,
        "phase": Phase(view.phase).label,
        "your_turn": not public and view.to_move,
        "hand": [] if public else [NAMES[c] for c in view.hand],
        "table": [NAMES[c] for c in view.table],
        "declarations": [],
        "hand_sizes": list(view.hand_sizes),
        "stock": view.stock_size,
        "deal": view.deal_no,
        "xeri": list(view.xeri),
        "jack_xeri": list(view.jack_xeri),
        "captured": [[NAMES[c] for c in side] for side in view.captured],
        "captured_counts": [len(side) for side in view.captured],
        "last_capturer": view.last_capturer,
        "pending": [],
        "bottom": None,
        "scores": list(view.scores),
        "target": facts.target,
        "hands": facts.hands,
        "hands_won": facts.hands_won,
        "history": history(view),
        "first_table": [],
        "legal": [move_dict(m) for m in view.legal] if view.to_move and not public else [],
        "legal_complete": True,  # a one-card game's moves are always few
        "last": facts.last,
        "rounds": facts.rounds,
    }


def replay_frame(state: HandState, ply: int, seat: int | None, played: dict[str, Any] | None) -> dict[str, Any]:
    """A replay frame: every hand shown (no declarations in these games)."""
    return frame_dict(state, ply, seat, played, [])


def read_played(state: HandState, text: str) -> Move:
    """A move a player sent or the store holds: its notation, or (as in the records) a card alone naming its
    one legal move."""
    move = Move.parse(text)
    return move if state.is_over or state.is_legal(move) else state.read_move(text)


__all__ = ["HAND_FIELDS", "TERMINAL", "HandsRecord", "describe_move", "format_hand_score", "move_text",
           "position_from_dict", "position_to_dict", "read_played", "read_record", "record_from_game", "replay_frame",
           "result_text", "state_message"]
