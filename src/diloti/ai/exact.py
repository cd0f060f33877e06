"""The exact solver of a round's perfect-information end (double dummy): every legal move's value, exactly.

In a 2-player round of Diloti, Xeri or Kontsina, once the stock is empty nothing is hidden: the table, the
declarations and the captured piles are public, so the cards one player has not seen are exactly the other's
hand, and no card is dealt again before the round ends (the stock is empty: the end of this deal is the end
of the round). The rest of the round is a game of perfect information, which :func:`solve` searches to its
end: alpha-beta (fail-soft negamax) with a transposition table and captures tried first.

**The value** of a position, and of a move, is the **round's** points of the side to move (the mover, for a
move) less the other side's, at the end of the **round** (not the game), with both sides playing their best:
the points already made this round count (the cards captured, the xeris), and so do the round's end rules
(the last capturer's sweep, the xeris, the card majority and in Kontsina the clubs majority). It is what a
search's rollout scores at the round's end (the master's, the expert's, the review's estimates), exactly.

**Bounded.** A search stops after ``node_limit`` positions (:data:`DEFAULT_NODE_LIMIT`: about 2 s of an idle
core at most, far less in most positions) or ``seconds``, and :func:`solve` then answers None: the caller
falls back to its own search. docs/STRENGTH.md (*The exact end of a round*) has its cost by the cards left in
a hand. :func:`solve` gives every legal move's value; :func:`solve_best` (for the players) a best move, which
costs a third of that or less.

**Exact** means (:func:`is_exact`): 2 players, the stock empty, a card to play (not a face-card redeal
question, which reshuffles the hands), every legal move listed (not a large table's sample), and a game
whose players part declares its scoring (:func:`scoring_of`: the three built-in games, any options).

>>> from diloti.core.cards import parse_cards
>>> from diloti.games.diloti.state import State
>>> hands, table = [parse_cards("7H 3S"), parse_cards("4D 10C")], parse_cards("3C")
>>> rest = [c for c in range(52) if c not in hands[0] + hands[1] + table]
>>> s = State.from_parts(dealer=1, hands=hands, table=table, captured=[rest[:24], rest[24:]], last_capturer=0,
...                      plays=44)
>>> is_exact(s)
True
>>> {str(m): v for m, v in solve(s).items()}  # seat 0's moves: 3S takes the 3C, a xeri
{'3S x 3C': 17, '3S': -1, '7H': -11}
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from diloti.ai.games import game_players, players_part
from diloti.ai.round_points import Scoring
from diloti.core.moves import CAPTURE, Move
from diloti.core.phase import Phase

# Positions one solve may visit: about 2 s of an idle core's CPU with the compiled core at most (some 90,000
# positions a second), what a hint's search takes, and some 25 MB of table. Every move's value of the slowest of
# bench/exact.py's 6-card Diloti positions took 92,214 (docs/STRENGTH.md, *The exact end of a round*). A limit of
# positions, not of time, so hints and reviews are the same on every machine; the players add their own time.
DEFAULT_NODE_LIMIT: Final = 200_000
_INF: Final = 1 << 20
_OVER: Final = Phase.OVER
_PLAY: Final = Phase.PLAY
_CHECK_CLOCK: Final = 255  # positions between looks at the clock (a mask: every 256th)

def scoring_of(position: Any) -> Scoring | None:
    """The scoring model of ``position``'s game under its options (its players part's ``exact_scoring``), or
    None for a game whose part declares none (then no position of it is exact here).

    >>> from diloti.games.xeri.rules import XeriOptions, XeriState
    >>> scoring_of(XeriState.new(2, XeriOptions(xeri_jack_double=True), seed=1)).tallies
    (('jack_xeri', 10),)
    """
    # A game registered elsewhere (a test's, a plug-in's) may have no options: its part says what it knows.
    return game_players(position.game).exact_scoring(getattr(position, "options", None))


def is_exact(position: Any) -> bool:
    """Whether ``position`` (a state, or a seat's view of one) is a perfect-information end of a round that
    :func:`solve` can search: 2 players, the stock empty, a card to play, every legal move listed (a view's;
    a state lists them all unless its table is large) and a game with a known scoring (:func:`scoring_of`).

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=1)
    >>> is_exact(s), is_exact(s.view(s.turn))
    (False, False)
    """
    if position.players != 2 or position.stock_size != 0 or position.phase != _PLAY:
        return False
    if scoring_of(position) is None:
        return False
    lists_all = getattr(position, "lists_all", None)  # a view's: its legal moves may be a large table's sample
    return lists_all is None or bool(lists_all())


class OverLimit(Exception):
    """A search went past its node or time limit (caught by :func:`solve`, which then answers None)."""


class Solver:
    """One position's exact search (see the module's text): a copy of the state played on with ``push`` and
    ``pop``, the transposition table, the count of positions visited.

    The table's key holds everything the rest of the round depends on, with interchangeable cards by class
    (:attr:`Scoring.classes`): the seat to move, both hands, the table (in Xeri the pile's top card too; in
    Diloti the declarations, with their owners), the last capturer (the sweep is theirs), whether no card has
    been played yet (Diloti's xeri on the first card) and, of the captured cards, only each majority's
    difference. A position's entry holds its value *less* the points the mover's side has already made card
    by card (:meth:`Scoring.additive`): those add to whatever comes, so positions that differ only in them
    share an entry. Entries are bounds (lower, upper) from the fail-soft search, and the best move found.
    Positions with two cards or fewer left are searched without the table (cheaper than its key).
    """

    def __init__(self, state: Any, scoring: Scoring, node_limit: int, seconds: float | None,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.st: Any = state.copy()
        self.scoring = scoring
        self.node_limit = node_limit
        self.clock = clock
        self.deadline = -1.0 if seconds is None else clock() + seconds
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[int, int, Move | None]] = {}
        self.weights = [1 << (3 * k) for k in scoring.classes]  # a class's count in 3 bits of a multiset
        self.classes = list(scoring.classes)
        self.point_masks = [m for m, _ in scoring.card_points]
        self.point_values = [v for _, v in scoring.card_points]
        self.majority_masks = [m for m, _ in scoring.majorities]
        self.sweep_points = scoring.sweep
        self.tallies = scoring.tallies
        self.declarations = hasattr(state, "declarations")  # Diloti's piles
        self.pile = bool(getattr(state, "PILE", False))  # Xeri: the top card of the pile decides the captures

    # ------------------------------------------------------------------ values
    def final(self, side: int) -> int:
        """The round's points difference for ``side`` of the finished round."""
        st = self.st
        a, b = self.scoring.points(st.captured, st.sweeps, [getattr(st, name) for name, _ in self.tallies])
        return a - b if side == 0 else b - a

    def additive(self) -> int:
        """The points side 0 has made card by card less side 1's (the entries are kept net of them)."""
        st = self.st
        c0: int = st.captured[0]
        c1: int = st.captured[1]
        sweeps: list[int] = st.sweeps
        total = self.sweep_points * (sweeps[0] - sweeps[1])
        for name, points in self.tallies:
            counts: list[int] = getattr(st, name)
            total += points * (counts[0] - counts[1])
        values = self.point_values
        for i, m in enumerate(self.point_masks):
            total += values[i] * ((c0 & m).bit_count() - (c1 & m).bit_count())
        return total

    def multiset(self, cards: list[int]) -> int:
        """The cards as a multiset of classes (3 bits a class: at most four cards of one)."""
        w = self.weights
        total = 0
        for c in cards:
            total += w[c]
        return total

    def mask_multiset(self, mask: int) -> int:
        """:meth:`multiset` of a mask's cards."""
        w = self.weights
        total = 0
        while mask:
            low = mask & -mask
            total += w[low.bit_length() - 1]
            mask ^= low
        return total

    def key(self) -> tuple[Any, ...]:
        """The transposition table's key of the position (see the class's text)."""
        st = self.st
        c0: int = st.captured[0]
        c1: int = st.captured[1]
        diffs = tuple([(c0 & m).bit_count() - (c1 & m).bit_count() for m in self.majority_masks])
        loose: list[int] = st.table
        table: Any = self.multiset(loose)
        if self.pile and loose:
            table = (table, self.classes[loose[-1]])
        if self.declarations and st.declarations:
            piles = sorted([(self.mask_multiset(p.mask), p.value, int(p.kind), p.owner) for p in st.declarations])
            table = (table, tuple(piles))
        hands = st.hands
        return (st.turn, self.multiset(hands[0]), self.multiset(hands[1]), table, st.last_capturer, diffs,
                st.plays == 0)

    # ------------------------------------------------------------------ search
    def moves(self) -> list[Move]:
        """The position's legal moves, captures first (the larger first), then the rest."""
        moves: list[Move]
        complete: bool
        moves, complete = self.st.candidate_moves()
        if not complete:
            raise OverLimit("a large table's moves are a sample")
        moves.sort(key=_order)
        return moves

    def child(self, move: Move, side: int, alpha: int, beta: int) -> int:
        """The value of ``move`` for ``side`` (who plays it), searched in the window (``alpha``, ``beta``)."""
        st = self.st
        st.push(move)
        # Past a limit the search unwinds without popping: its state is a copy, dropped with it.
        v: int
        if st.phase is _OVER:
            v = self.final(side)
        elif st.turn & 1 == side:  # 2 players: a seat is its side (never the case: the turn alternates)
            v = self.search(alpha, beta)
        else:
            v = -self.search(-beta, -alpha)
        st.pop()
        return v

    def search(self, alpha: int, beta: int) -> int:
        """The position's value for the side to move (fail-soft: outside the window, a bound beyond it)."""
        self.nodes += 1
        nodes = self.nodes
        if nodes > self.node_limit:
            raise OverLimit(f"more than {self.node_limit} positions")
        if self.deadline >= 0.0 and not nodes & _CHECK_CLOCK and self.clock() > self.deadline:
            raise OverLimit("out of time")
        st = self.st
        side: int = st.turn & 1
        hands = st.hands
        if len(hands[0]) + len(hands[1]) <= 2:
            return self.plain(side, alpha, beta)
        key = self.key()
        base = self.additive()
        if side:
            base = -base
        entry = self.table.get(key)
        lower, upper, hint = -_INF, _INF, None
        if entry is not None:
            lower, upper, hint = entry[0] + base, entry[1] + base, entry[2]
            if lower == upper or lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        moves = self.moves()
        if hint is not None and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        best, best_move, a = -_INF, None, alpha
        first = True
        for m in moves:
            if first:
                v = self.child(m, side, a, beta)
                first = False
            else:
                # Principal variation search: a null window proves the move no better, else it is searched again.
                v = self.child(m, side, a, a + 1)
                if a < v < beta:
                    v = self.child(m, side, v, beta)
            if v > best:
                best, best_move = v, m
                if v > a:
                    a = v
                    if a >= beta:
                        break
        if best <= alpha:
            upper = best
        elif best >= beta:
            lower = best
        else:
            lower = upper = best
        self.table[key] = (lower - base, upper - base, best_move)
        return best

    def plain(self, side: int, alpha: int, beta: int) -> int:
        """Alpha-beta without the table (a position near the round's end)."""
        best = -_INF
        for m in self.moves():
            v = self.child(m, side, alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def values(self) -> dict[Move, int]:
        """Every legal move's exact value for the mover, each searched with the whole window."""
        side = self.st.turn & 1
        return {m: self.child(m, side, -_INF, _INF) for m in self.moves()}

    def best(self) -> tuple[Move, int]:
        """A best move and its exact value; the other moves are only shown no better (cheaper than
        :meth:`values`: a third of its positions or fewer, docs/STRENGTH.md)."""
        side = self.st.turn & 1
        moves = self.moves()
        best_move, best = moves[0], self.child(moves[0], side, -_INF, _INF)
        for m in moves[1:]:
            v = self.child(m, side, best, best + 1)  # a null window: is it better?
            if v > best:
                best_move, best = m, self.child(m, side, v, _INF)
        return best_move, best


def _order(move: Move) -> int:
    # Captures first, the most cards first (they most often decide); then declarations and lays in the game's
    # order. Tried and not better: lays before declarations, by rank, a history of cut-offs (docs/STRENGTH.md).
    return -(move[3].bit_count() + 1) if move[1] == CAPTURE else 0


@dataclass
class Solution:
    """What :func:`solve_counted` found: each legal move's value (None past the limits), a best move and its
    value (None past the limits), the positions visited and the seconds it took."""

    values: dict[Move, int] | None
    best: tuple[Move, int] | None
    nodes: int
    seconds: float


def solve_counted(state: Any, node_limit: int = DEFAULT_NODE_LIMIT, seconds: float | None = None,
                  every: bool = True, clock: Callable[[], float] = time.perf_counter) -> Solution:
    """:func:`solve` (``every``) or :func:`solve_best`, with the positions visited and the time taken (its
    ``seconds`` on ``clock``)."""
    start = clock()
    scoring = scoring_of(state) if is_exact(state) else None
    if scoring is None:
        return Solution(None, None, 0, 0.0)
    solver = Solver(state, scoring, node_limit, seconds, clock)
    values: dict[Move, int] | None = None
    best: tuple[Move, int] | None = None
    try:
        if every:
            values = solver.values()
            top = max(values.values())
            best = next((m, v) for m, v in values.items() if v == top)
        else:
            best = solver.best()
    except OverLimit:
        pass
    return Solution(values, best, solver.nodes, clock() - start)


def solve(state: Any, node_limit: int = DEFAULT_NODE_LIMIT, seconds: float | None = None,
          clock: Callable[[], float] = time.perf_counter) -> dict[Move, int] | None:
    """Every legal move of ``state`` (a full state: both hands) with its exact value for the mover: the round's
    points of the mover's side less the other side's at the end of the round, both sides playing their best.
    None if the position is not exact (:func:`is_exact`) or the search goes past ``node_limit`` positions or
    ``seconds`` (on ``clock``): the caller then uses its own search. ``state`` is not changed (the search plays
    on a copy).
    """
    return solve_counted(state, node_limit, seconds, True, clock).values


def solve_best(state: Any, node_limit: int = DEFAULT_NODE_LIMIT, seconds: float | None = None,
               clock: Callable[[], float] = time.perf_counter) -> tuple[Move, int] | None:
    """A best move of ``state`` and its exact value (as :func:`solve`'s), or None as :func:`solve`; for a player,
    who needs no other move's value (it searches far fewer positions)."""
    return solve_counted(state, node_limit, seconds, False, clock).best


def exact_state(view: Any) -> Any | None:
    """The full state a seat's exact view (:func:`is_exact`) stands for: the unseen cards are the other hand,
    and no other state agrees with the view, so any world the game's sampler draws is it. None if the view is
    not exact.

    >>> from diloti.games.kontsina.rules import KontsinaState
    >>> s = KontsinaState.new(seed=4)
    >>> while s.stock_size:
    ...     s.push(s.legal_moves()[0])
    >>> w = exact_state(s.view(s.turn))
    >>> w.hands == s.hands, w.table == s.table, w.captured == s.captured
    (True, True, True)
    """
    if not is_exact(view):
        return None
    import random

    from diloti.ai.part import SearchSettings

    world, _ = players_part(view).worlds(view, SearchSettings()).sample(random.Random(0))
    return world


def solve_view(view: Any, node_limit: int = DEFAULT_NODE_LIMIT, seconds: float | None = None,
               clock: Callable[[], float] = time.perf_counter) -> dict[Move, int] | None:
    """:func:`solve` of the position a seat's view stands for, when it is exact; else None.

    >>> from diloti.games.diloti.state import State
    >>> solve_view(State.new(seed=1).view(0)) is None  # the stock is not empty: hidden cards
    True
    """
    state = exact_state(view)
    return None if state is None else solve(state, node_limit, seconds, clock)


def exact_ranking(view: Any, node_limit: int = DEFAULT_NODE_LIMIT) -> list[tuple[Move, float]] | None:
    """Every legal move of an exact view with its exact value, best first (as the searches rank moves: hints,
    analysis, the review), or None when the view is not exact or the solver goes past ``node_limit`` positions
    (a limit of positions, not of time: the same answer on every machine)."""
    values = solve_view(view, node_limit)
    if values is None:
        return None
    return sorted(((m, float(v)) for m, v in values.items()), key=lambda mv: -mv[1])


def exact_choice(view: Any, node_limit: int = DEFAULT_NODE_LIMIT, seconds: float | None = None,
                 clock: Callable[[], float] = time.perf_counter) -> Move | None:
    """A best move of an exact view by the solver (:func:`solve_best`), or None when the view is not exact or the
    solver goes past its limits (the player then searches)."""
    state = exact_state(view)
    if state is None:
        return None
    found = solve_best(state, node_limit, seconds, clock)
    return None if found is None else found[0]


def best_moves(values: dict[Move, int]) -> list[Move]:
    """The moves of the best value (ties all), in the order given.

    >>> best_moves({Move.parse("7H"): 3, Move.parse("8D"): 5, Move.parse("9S"): 5})
    [Move.parse('8D'), Move.parse('9S')]
    """
    top = max(values.values())
    return [m for m, v in values.items() if v == top]


__all__ = ["DEFAULT_NODE_LIMIT", "OverLimit", "Solution", "Solver", "best_moves", "exact_choice", "exact_ranking",
           "exact_state", "is_exact", "scoring_of", "solve", "solve_best", "solve_counted", "solve_view"]
