"""Game review: every decision of a seat judged by the master, from that seat's own view.

For each move a seat made in a record, :func:`review_decision` ranks every legal
move of the position as that seat saw it (its :class:`~diloti.core.view.View`:
its own hand, the table, what was played; never the other hands or the stock)
with the master's search (:func:`diloti.ai.analysis.rank_moves`, card-counting
rollouts, every move in the same sampled worlds), and reports the move played,
the best move, the **expected points lost** (the best move's expected round
points difference less the played move's, never below 0) and a mark:

===============  =====================  ==========================================
mark             points lost            meaning
===============  =====================  ==========================================
(none)           below 1.0              as good as the best move, within the search's noise
``inaccuracy``   1.0 to 2.5             a better move was there
``mistake``      2.5 to 5.0             gives away about a card-majority's worth (4 points)
``blunder``      5.0 or more            gives away half a xeri's worth (10 points) or more
===============  =====================  ==========================================

The thresholds were calibrated on self-play records (docs/REVIEW.md: the
distribution of points lost, and the same position searched twice with
different seeds to measure the search's own noise at the default budget).

A decision's **accuracy** is ``100 * exp(-lost / 2.5)`` (100 for the best
move, 67 for an inaccuracy's 1 point, 37 at the mistake line, 14 at the
blunder line); a player's accuracy (and a round's) is the mean over the
decisions that were choices (a single legal move, or the face-card redeal
question, is not judged). In Diloti each judged decision also carries the chance
to win the game before the move (with the best move) and after it
(:mod:`diloti.ai.winchance`, from the game's score and the target).

In an exact position (2 players, the stock empty: the unseen cards are the
other hand) the verdict is exact (issue 54): every legal move is valued by the
exact solver (:mod:`diloti.ai.exact`) instead of the search, so a move marked
there loses that many points against best play, and a best move is never marked;
the decision says so (``exact``, and its ``reason``). Past the solver's node
limit the search judges it, as any other.

Everything is a function of the seat's view and the review's seed: the same
review whatever the hidden cards were. The budget is ``worlds``: sampled
worlds per decision, every legal move played in each (so it is bounded and,
with no time cap, reproducible).

>>> from diloti.games.diloti.game import Game
>>> from diloti.games.diloti.options import Options
>>> from diloti.games.diloti.formats.record import GameRecord
>>> g = Game(seed=4, options=Options(target=11))
>>> while not g.is_over:
...     g.push(g.state.legal_moves()[0])
>>> rev = review_record(GameRecord.from_game(g), seats=[0], worlds=2, seed=1)
>>> rev.seats, all(d.seat == 0 for d in rev.decisions), 0 <= rev.accuracy[0] <= 100
([0], True, True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from math import exp
from typing import Any, Protocol, cast

from diloti.ai.analysis import rank_moves, win_chances
from diloti.ai.errors import PlayerError
from diloti.ai.exact import exact_ranking
from diloti.core.interface import SeatViewLike
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.core.seeds import derive_seed

DEFAULT_WORLDS = 24  # sampled worlds a decision (each plays every legal move): about 0.2 s of CPU a decision
MAX_WORLDS = 1000
INACCURACY = 1.0  # expected points lost from which a move is marked (docs/REVIEW.md: how they were chosen)
MISTAKE = 2.5
BLUNDER = 5.0
ACCURACY_SCALE = 2.5  # a decision's accuracy is 100 * exp(-lost / ACCURACY_SCALE)
MARKS = ("inaccuracy", "mistake", "blunder")
# Of the review's method: a stored review of another version is made again (2: forced moves have no chance; 3: exact
# positions judged by the exact solver).
VERSION = 3
EXACT_REASON = "exact: both hands are known (2 players, the stock empty), every move solved to the round's end"
AWAY_NOTE = "for the absent player"  # the record's comment on a move the computer made for an away player
_MOVE_LINE = re.compile(r"^s\d+\s+\S")


class ReviewError(PlayerError):
    """A review that cannot be made (a bad seat, a record with nothing to review); ``input`` is what was given."""


def mark_of(lost: float) -> str | None:
    """The mark of a move that lost ``lost`` expected points.

    >>> [mark_of(x) for x in (0.0, 0.99, 1.0, 2.5, 4.9, 5.0)]
    [None, None, 'inaccuracy', 'mistake', 'mistake', 'blunder']
    """
    if lost >= BLUNDER:
        return "blunder"
    if lost >= MISTAKE:
        return "mistake"
    if lost >= INACCURACY:
        return "inaccuracy"
    return None


def accuracy_of(lost: float) -> float:
    """A decision's accuracy (0..100) from the points it lost.

    >>> accuracy_of(0.0), round(accuracy_of(1.0), 1), round(accuracy_of(5.0), 1)
    (100.0, 67.0, 13.5)
    """
    return 100.0 * exp(-max(0.0, lost) / ACCURACY_SCALE)


@dataclass
class Decision:
    """One reviewed move. ``ply`` counts the game's moves from 0; ``number`` is the move's place in its round
    (from 1); estimates are expected round points differences for the mover's side; ``judged`` is False for
    a forced move (one legal move) or the face-card redeal question, which are not marked nor counted."""

    round: int
    ply: int
    number: int
    seat: int
    played: str
    best: str
    played_points: float
    best_points: float
    lost: float
    mark: str | None
    judged: bool
    moves: int
    win_before: float | None = None
    win_after: float | None = None
    top: list[tuple[str, float]] = field(default_factory=list)  # the best three moves with their estimates
    exact: bool = False  # the estimates are the exact solver's values (issue 54), not a search's
    reason: str | None = None  # why the verdict is what it is (an exact one says so: EXACT_REASON)

    @property
    def accuracy(self) -> float:
        return accuracy_of(self.lost)


class _Rec(Protocol):
    """What the review reads of a record (Diloti's :class:`~diloti.games.diloti.formats.record.GameRecord` and
    the one-card games' :class:`~diloti.games.onecard.formats.record.HandsRecord` both are)."""

    players: int
    rounds: Any

    def replay(self, index: int) -> Iterator[tuple[Any, int, Move]]: ...


@dataclass
class Point:
    """A decision to review: the seat's view before its move, and the move it made."""

    round: int
    ply: int
    number: int
    view: SeatViewLike
    move: Move


def decision_points(rec: _Rec, seats: Sequence[int] | None = None, skip: Collection[int] = ()) -> list[Point]:
    """Every decision of ``seats`` (default: all) in ``rec``, each with the mover's own view (the game's score
    before the round included, for the chance to win). The plies in ``skip`` (moves the computer made for an
    absent player: :func:`away_plies`) are not the player's decisions: they are left out.

    >>> from diloti.games.diloti.game import Game
    >>> from diloti.games.diloti.formats.record import GameRecord
    >>> g = Game(seed=2)
    >>> for _ in range(6):
    ...     g.push(g.state.legal_moves()[0])
    >>> [p.view.seat for p in decision_points(GameRecord.from_game(g), [1])]
    [1, 1, 1]
    """
    wanted = check_seats(rec, seats)
    points: list[Point] = []
    totals: list[int] | None = None
    ply = 0
    for index, r in enumerate(rec.rounds):
        scores = tuple(totals) if totals else None
        for number, (state, seat, move) in enumerate(rec.replay(index), 1):
            if seat in wanted and ply not in skip:
                view = state.view(seat) if scores is None else state.view(seat, scores)
                points.append(Point(r.number, ply, number, view, move))
            ply += 1
        if r.score is not None:
            pts = list(r.points)
            totals = pts if totals is None else [a + b for a, b in zip(totals, pts, strict=True)]
    return points


def away_plies(text: str) -> set[int]:
    """The plies of a record's moves whose comment says the computer made them for an absent player (the
    record's reader keeps no comments: they are read from the text here).

    >>> away_plies("round 1 dealer 0 seed 1\\ndeck 4C\\ns1 7H\\ns0 8D ; computer (expert) for the absent player\\n")
    {1}
    """
    plies: set[int] = set()
    ply = 0
    for line in text.splitlines():
        body, _, comment = line.partition(";")
        if _MOVE_LINE.match(body.strip()):
            if AWAY_NOTE in comment:
                plies.add(ply)
            ply += 1
    return plies


def check_seats(rec: _Rec, seats: Sequence[int] | None) -> list[int]:
    """The seats to review (all when None), each checked against the record's players."""
    if seats is None:
        return list(range(rec.players))
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < rec.players:
            raise ReviewError(f"invalid seat {s!r}: expected a seat 0..{rec.players - 1} of this "
                              f"{rec.players}-player game", s)
    return sorted(set(seats))


def decision_seed(seed: int, ply: int) -> int:
    """The search seed of the decision at ``ply`` (public: the ply, never a card)."""
    return derive_seed("diloti-review", seed, ply)


def review_decision(point: Point, worlds: int = DEFAULT_WORLDS, seed: int = 0) -> Decision:
    """The master's judgement of one decision, from the mover's view only.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=3)
    >>> v = s.view(s.turn)
    >>> d = review_decision(Point(1, 0, 1, v, v.legal[-1]), worlds=3, seed=1)
    >>> d.lost >= 0.0, d.best in [str(m) for m in v.legal]
    (True, True)
    """
    view = point.view
    if not 1 <= worlds <= MAX_WORLDS:
        raise ReviewError(f"invalid budget {worlds!r}: expected 1..{MAX_WORLDS} worlds a decision", worlds)
    if point.move not in view.legal:
        card = point.move[0]
        if card is None or point.move not in view.choices(card, point.move[3]).moves:
            raise ReviewError(f"move {point.move} is not legal for seat {view.seat} at ply {point.ply}", point.move)
        # A large table's legal moves are a bounded sample (View.complete): the move played is judged among them.
        view = replace(cast(Any, view), legal=(*view.legal, point.move))
    seat = view.seat
    if seat is None:
        raise ReviewError(f"the view at ply {point.ply} is a spectator's: a review judges a seat's moves", point.ply)
    judged = len(view.legal) > 1 and view.phase != Phase.DECIDE
    solved = exact_ranking(view) if judged else None  # issue 54: an exact position's verdict is exact
    ranked = solved if solved is not None else rank_view(view, decision_seed(seed, point.ply), worlds)
    # None: the game has no model of the chance to win, or the move was forced (a lone move, the redeal question:
    # not searched, its 0.0 is no estimate, and a chance read from it jumped about on the game's graph).
    chances = win_chances(view, ranked) if judged else None
    values = dict(ranked)
    best, best_points = ranked[0]
    played_points = values[point.move]
    lost = round(max(0.0, best_points - played_points), 3) if judged else 0.0
    at = next(i for i, (m, _) in enumerate(ranked) if m == point.move)
    return Decision(point.round, point.ply, point.number, seat, str(point.move), str(best), played_points,
                    best_points, lost, mark_of(lost) if judged else None, judged, len(view.legal),
                    None if chances is None else round(chances[0], 4),
                    None if chances is None else round(chances[at], 4),
                    [(str(m), v) for m, v in ranked[:3]], solved is not None,
                    EXACT_REASON if solved is not None else None)


def rank_view(view: SeatViewLike, seed: int, worlds: int) -> list[tuple[Move, float]]:
    """Every legal move with the master's estimate, best first (the parent games: their expert's search, which
    is what the master plays there), ``worlds`` sampled worlds for each move."""
    iterations = worlds * len(view.legal)
    # The exact solver has had its say (review_decision): only the search here.
    return rank_moves(view, seed=seed, iterations=iterations, seconds=None, level="master", exact=False)


@dataclass
class Review:
    """A game's review: its decisions (of ``seats``), the accuracy of each seat, and of each seat in each
    round (``rounds[n][seat]``, rounds numbered from 1); ``counts[seat][mark]`` counts the marks."""

    seats: list[int]
    worlds: int
    seed: int
    decisions: list[Decision]
    accuracy: dict[int, float | None] = field(default_factory=dict)
    rounds: dict[int, dict[int, float | None]] = field(default_factory=dict)
    counts: dict[int, dict[str, int]] = field(default_factory=dict)
    version: int = VERSION

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (seat and round keys as text, as JSON has them)."""
        return {"version": self.version, "seats": self.seats, "worlds": self.worlds, "seed": self.seed,
                "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
                "accuracy": {str(s): a for s, a in self.accuracy.items()},
                "rounds": {str(n): {str(s): a for s, a in by.items()} for n, by in self.rounds.items()},
                "counts": {str(s): c for s, c in self.counts.items()},
                "decisions": [{**asdict(d), "accuracy": round(d.accuracy, 1) if d.judged else None}
                              for d in self.decisions]}


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def summarise(decisions: list[Decision], seats: list[int], worlds: int, seed: int) -> Review:
    """The review of ``decisions``: the accuracy of each seat over the game and in each round, its marks."""
    review = Review(seats, worlds, seed, sorted(decisions, key=lambda d: d.ply))
    for s in seats:
        mine = [d for d in review.decisions if d.seat == s and d.judged]
        review.accuracy[s] = _mean([d.accuracy for d in mine])
        review.counts[s] = {m: sum(d.mark == m for d in mine) for m in MARKS}
        for n in sorted({d.round for d in review.decisions}):
            review.rounds.setdefault(n, {})[s] = _mean([d.accuracy for d in mine if d.round == n])
    return review


def review_record(rec: _Rec, seats: Sequence[int] | None = None, worlds: int = DEFAULT_WORLDS, seed: int = 0,
                  progress: Callable[[int, int], None] | None = None) -> Review:
    """Review the decisions of ``seats`` (default: every seat) of a record, one after another in this process
    (the server spreads them over its worker pool instead); ``progress(done, total)`` after each."""
    points = decision_points(rec, seats)
    if not points:
        raise ReviewError("the record has no moves to review", rec)
    done: list[Decision] = []
    for p in points:
        done.append(review_decision(p, worlds, seed))
        if progress is not None:
            progress(len(done), len(points))
    return summarise(done, check_seats(rec, seats), worlds, seed)


def format_decision(d: Decision, names: Sequence[str] = (), width: int = 12) -> str:
    """One line of the terminal review (``width``: the played move's column, at least the longest move's so the
    marks line up).

    >>> format_decision(Decision(1, 4, 5, 0, "7H", "9D x 4H 5C", -1.0, 2.2, 3.2, "mistake", True, 6, 0.52, 0.44))
    '  5. s0 7H           mistake      -3.20  best 9D x 4H 5C (+2.20)  win 52% -> 44%'
    >>> format_decision(Decision(1, 6, 7, 0, "KH", "KH", 0.0, 0.0, 0.0, None, False, 1), width=14)
    '  7. s0 KH             (forced)'
    >>> format_decision(Decision(4, 40, 41, 1, "3S", "3S x 3C", -1.0, 17.0, 18.0, "blunder", True, 3, exact=True))
    ' 41. s1 3S           blunder     -18.00  best 3S x 3C (+17.00)  (exact)'
    """
    who = f"s{d.seat}"
    if not d.judged:
        return f"{d.number:3}. {who} {d.played:<{width}} (forced)"
    lost = f"{-d.lost:+7.2f}" if d.lost else "   0.00"
    line = f"{d.number:3}. {who} {d.played:<{width}} {d.mark or 'ok':<11}{lost}"
    if d.best != d.played and d.lost > 0:
        line += f"  best {d.best} ({d.best_points:+.2f})"
    if d.win_before is not None and d.win_after is not None and abs(d.win_before - d.win_after) >= 0.005:
        line += f"  win {100 * d.win_before:.0f}% -> {100 * d.win_after:.0f}%"
    if d.exact:
        line += "  (exact)"
    return line


__all__ = ["ACCURACY_SCALE", "BLUNDER", "DEFAULT_WORLDS", "EXACT_REASON", "INACCURACY", "MARKS", "MISTAKE", "Decision",
           "Point", "Review", "ReviewError", "accuracy_of", "check_seats", "decision_points", "format_decision",
           "mark_of", "review_decision", "review_record", "summarise"]
