"""Why a move was worse than the best: reasons in words, read from the search's own evidence (docs/REVIEW.md).

The review (:mod:`diloti.ai.review`) says *how much* a move lost; this module says *why*. It plays the move made
and the best move again in the worlds the search plays them in (the game's sampled deals consistent with the
mover's view, :meth:`~diloti.ai.part.PlayersPart.worlds`, each move followed by the game's rollouts with the
master's settings, to the end of the deal: the search's own playouts, common random numbers for both moves) and
counts what happened in them:

- ``sweep_left``: how often another side swept the table (the ``sweeps`` counter: a xeri) before the mover's
  side moved again, after each move (games whose rules count sweeps);
- ``sweep_missed``: the best move sweeps the table now and the move made does not;
- ``xeris``: later in the deal, the mover's side's sweeps less the other sides' are clearly more after the best
  move (when neither of the two above says it);
- ``card_given``: a card worth points (the hand's cards and the table's) that the mover's side ends up with far
  more often after the best move than after the move made;
- ``declaration_lost``: a declaration of the mover's side (games with declarations) that the other side takes
  (captures or raises) far more often after the move made;
- ``cards``: the mover's side ends the deal with more cards after the best move (and, in a game that scores a
  majority of cards, how many points of it that is);
- ``margin``: when none of these stands out, the plain evidence: how much more the best move is worth over the
  worlds searched;
- ``exact``: the verdict is the exact solver's (set by the review, not found here). Its other reasons are read
  along the solver's own line of best play after each move (the one true world, ``params["line"]``) instead of
  the rollouts, since that line is what the verdict weighed.

Each reason is a code, its figures (``params``: shares of the worlds, cards, points) and an English sentence;
the page words it in the reader's language from the code and the figures. Everything depends only on the view,
the two moves and the seed: the hidden cards of the real deal are never read.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> v = s.view(s.turn)
>>> reasons = explain(v, v.legal[-1], v.legal[0], worlds=4, seed=1)
>>> len(reasons) >= 1 and all(r.code in CODES for r in reasons)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from diloti.ai.exact import DEFAULT_NODE_LIMIT, exact_state, solve_best
from diloti.ai.games import players_part
from diloti.ai.master import DEFAULT_COUNTED
from diloti.ai.part import Rollouts, SearchSettings
from diloti.core.cards import NAMES, Card
from diloti.core.moves import Move
from diloti.core.seeds import derive_seed

SHARE_GAP = 0.15  # a share of the worlds (sweeps, declarations) must differ this much between the moves to be a reason
SWEEP_SHARE = 0.2  # ... and be at least this large after the move made
CARD_GAP = 0.3  # a card's share of the worlds in the mover's side's hands must drop this much
CARDS_MORE = 1.0  # cards more on average after the best move, to be a reason on their own
XERIS_MORE = 0.5  # xeris more after the best move (the mover's less the other sides'), on average, to be a reason
MAJORITY_MORE = 1.0  # points of the majority of cards more on average, to be named with the cards
EXACT_NODES = DEFAULT_NODE_LIMIT  # the solver's positions for each move of its line (past it: the rollouts' policy)
CODES = ("exact", "sweep_missed", "sweep_left", "xeris", "declaration_lost", "card_given", "cards", "margin")


@dataclass(frozen=True)
class Reason:
    """One reason: its ``code`` (one of :data:`CODES`), its figures, and an English sentence."""

    code: str
    text: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "text": self.text, "params": dict(self.params)}


@dataclass
class Outcome:
    """What one move led to over the worlds (weighted sums; ``weight`` is their total)."""

    weight: float = 0.0
    swept: float = 0.0  # worlds in which another side swept before the mover's side moved again
    mine: dict[int, float] = field(default_factory=dict)  # card -> worlds in which the mover's side took it
    theirs: dict[int, float] = field(default_factory=dict)  # card -> worlds in which another side took it
    cards: float = 0.0  # the cards the mover's side holds at the deal's end (weighted sum)
    majority: float = 0.0  # the mover's side's points for the majority of cards there, less the best other side's
    xeris: float = 0.0  # the sweeps after the move to the deal's end: the mover's side's less the other sides'
    lost_piles: dict[int, float] = field(default_factory=dict)  # declared value -> worlds the other side took it
    left: int = 0  # the table's items after the move
    sweeps: bool = False  # the move itself swept the table

    def share(self, value: float) -> float:
        return value / self.weight if self.weight > 0 else 0.0


def _rollouts(view: Any) -> tuple[Rollouts, Any]:
    """The game's rollouts and worlds as the master's analysis plays them (card counting where the game has it)."""
    part = players_part(view)
    settings = SearchSettings(counted=DEFAULT_COUNTED)
    return part.rollouts(settings), part.worlds(view, settings)


def _taken(state: Any) -> list[int] | None:
    """Each side's captured cards as a mask, where the game keeps them (None: it does not)."""
    captured = getattr(state, "captured", None)
    return list(captured) if captured is not None else None


def _items(state: Any) -> int:
    return len(state.table) + len(getattr(state, "declarations", ()))


def _rollout_chooser(rollouts: Rollouts) -> Callable[[Any, random.Random, int], Move]:
    """The search's rollouts as a chooser of the ``n``-th move after the one probed (card counting first)."""
    counted, n_counted = rollouts.counted, rollouts.counted_moves if rollouts.counted is not None else 0

    def choose(world: Any, rng: random.Random, n: int) -> Move:
        return counted(world, rng) if counted is not None and n < n_counted else rollouts.policy(world, rng)

    return choose


def _solver_chooser(rollouts: Rollouts) -> Callable[[Any, random.Random, int], Move]:
    """The exact solver's best move at every turn (the line of best play by both sides it judged by); the rollouts'
    policy should a position pass its limit."""
    fallback = _rollout_chooser(rollouts)

    def choose(world: Any, rng: random.Random, n: int) -> Move:
        found = solve_best(world, EXACT_NODES)
        return found[0] if found is not None else fallback(world, rng, n)

    return choose


def _follow(world: Any, move: Move, side: int, seed: int, rollouts: Rollouts, tracked: Sequence[int],
            out: Outcome, weight: float, choose: Callable[[Any, random.Random, int], Move]) -> None:
    """Play ``move`` in ``world``, then ``choose``'s moves (the rollouts, or the solver's line) to the deal's end,
    and add what happened to ``out``."""
    sides = len(world.sweeps)
    rng = random.Random(seed)
    stop = world.deal_no + 1 if rollouts.root_horizon else None
    before = list(world.sweeps)
    world.push(move)
    depth = 1
    out.sweeps = world.sweeps[side] > before[side]
    out.left = _items(world)
    piles = [p for p in getattr(world, "declarations", ()) if p.owner % sides == side]
    after = list(world.sweeps)
    stop = world.deal_no + 1 if stop is None else stop
    ours_again = False
    swept = False
    while not world.is_over and world.deal_no < stop:
        mover = world.turn
        world.push(choose(world, rng, depth - 1))
        depth += 1
        if not ours_again:
            if mover % sides == side:
                ours_again = True
            elif any(world.sweeps[s] > after[s] for s in range(sides) if s != side):
                swept = True
    taken = _taken(world)
    out.xeris += weight * sum((world.sweeps[s] - after[s]) * (1 if s == side else -1) for s in range(sides))
    scores = world.score()
    if hasattr(scores[side], "cards_points"):  # the game scores a majority of cards
        others = max(sc.cards_points for s, sc in enumerate(scores) if s != side)
        out.majority += weight * (scores[side].cards_points - others)
    out.weight += weight
    out.swept += weight if swept else 0.0
    if taken is not None:
        out.cards += weight * taken[side].bit_count()
        for c in tracked:
            bit = 1 << c
            if taken[side] & bit:
                out.mine[c] = out.mine.get(c, 0.0) + weight
            elif any(m & bit for s, m in enumerate(taken) if s != side):
                out.theirs[c] = out.theirs.get(c, 0.0) + weight
        for p in piles:
            still = [q for q in getattr(world, "declarations", ()) if q.mask & p.mask]
            lost = any(m & p.mask for s, m in enumerate(taken) if s != side) or any(
                q.owner % sides != side for q in still)
            if lost:
                out.lost_piles[p.value] = out.lost_piles.get(p.value, 0.0) + weight
    for _ in range(depth):
        world.pop()


_VALUES: dict[tuple[str, int], dict[int, int]] = {}


def card_points(state: Any) -> dict[int, int]:
    """Each card's own points in the game of ``state``: what the game's scoring gives a side that captured that
    card alone, over a card that scores nothing (the majorities of a lone card cancel out). Read from the game's
    own ``score``, so it knows no game.

    >>> from diloti.games.diloti.state import State
    >>> from diloti.core.cards import parse_card as c
    >>> v = card_points(State.new(seed=1))
    >>> v[c("AS")], v[c("10D")], v[c("2C")], v[c("KH")]
    (1, 2, 1, 0)
    """
    key = (state.game, len(state.sweeps))
    found = _VALUES.get(key)
    if found is None:
        st = state.copy()
        sides = len(st.sweeps)
        st.sweeps = [0] * sides
        totals = {}
        for c in range(52):
            st.captured = [1 << c] + [0] * (sides - 1)
            totals[c] = int(st.score()[0].total)
        low = min(totals.values())
        found = _VALUES[key] = {c: v - low for c, v in totals.items()}
    return found


def probe(view: Any, moves: Sequence[Move], worlds: int, seed: int, exact: bool = False) -> list[Outcome]:
    """What each of ``moves`` leads to in ``worlds`` sampled worlds of ``view`` (the same worlds and rollout
    streams for every move). With ``exact`` (a verdict of the exact solver: the view is the one true world) the
    moves are followed along the solver's line of best play instead, once."""
    rollouts, sampler = _rollouts(view)
    rng = random.Random(seed)
    hand: tuple[Card, ...] = view.hand
    tracked = sorted({int(c) for c in (*hand, *view.table)})
    out = [Outcome() for _ in moves]
    truth = exact_state(view) if exact else None
    choose = _rollout_chooser(rollouts) if truth is None else _solver_chooser(rollouts)
    for _ in range(1 if truth is not None else worlds):
        world, weight = (truth, 1.0) if truth is not None else sampler.sample(rng)
        stream = rng.getrandbits(64)
        if weight <= 0.0:
            continue
        for m, o in zip(moves, out, strict=True):
            _follow(world, m, view.side, stream, rollouts, tracked, o, weight, choose)
    return out


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def _where(line: bool, p: float, q: float) -> str:
    """Where a share was counted: over the worlds searched, or along the exact solver's line."""
    if line:
        return "with best play by both sides (the exact solver's line; not after the best move)"
    return f"in {_pct(p)} of the worlds searched ({_pct(q)} after the best move)"


def explain(view: Any, played: Move, best: Move, worlds: int, seed: int, lost: float | None = None,
            exact: bool = False) -> list[Reason]:
    """The reasons ``played`` was worse than ``best`` in ``view``, strongest first (at least one: ``margin`` when
    no other stands out); ``lost`` is the review's points lost, quoted by ``margin``. With ``exact`` (the verdict
    is the exact solver's) the evidence is the solver's line of best play after each move (``params["line"]``)."""
    line = exact and exact_state(view) is not None
    mine, top = probe(view, [played, best], worlds, derive_seed("diloti-reasons", seed), exact=line)
    reasons: list[Reason] = []
    base: dict[str, Any] = {"line": True} if line else {}
    sweeps_count = bool(getattr(type(_sample_state(view)), "SWEEPS", True))
    if sweeps_count and top.sweeps and not mine.sweeps:
        reasons.append(Reason("sweep_missed", "the best move sweeps the table (a xeri) and yours does not",
                              {**base, "best": str(best)}))
    p, q = mine.share(mine.swept), top.share(top.swept)
    if sweeps_count and p >= SWEEP_SHARE and p - q >= SHARE_GAP:
        n = mine.left
        reasons.append(Reason(
            "sweep_left", f"leaves {n} {'card' if n == 1 else 'cards'} on the table: the other side sweeps "
            f"{'it' if n == 1 else 'them'} (a xeri) before your side plays again {_where(line, p, q)}",
            {**base, "left": n, "share": round(p, 3), "best_share": round(q, 3)}))
    gap = top.share(top.xeris) - mine.share(mine.xeris)
    if sweeps_count and gap >= XERIS_MORE and not reasons:
        text = (f"with best play by both sides, the rest of the round brings your side {gap:.0f} more "
                f"xeri{'s' if round(gap) != 1 else ''} (less the other side's) after the best move than after yours"
                if line else f"the rest of the deal brings your side {gap:.1f} more xeris on average (less the other "
                f"side's) after the best move than after yours")
        reasons.append(Reason("xeris", text, {**base, "more": round(gap, 2)}))
    lost_piles = sorted(((v, mine.share(w), top.share(top.lost_piles.get(v, 0.0)))
                         for v, w in mine.lost_piles.items()), key=lambda x: x[2] - x[1])
    for value, a, b in lost_piles[:1]:
        if a - b >= SHARE_GAP:
            reasons.append(Reason(
                "declaration_lost", f"the other side takes your declaration of {value} {_where(line, a, b)}",
                {**base, "value": value, "share": round(a, 3), "best_share": round(b, 3)}))
    points = card_points(_sample_state(view))
    given = []
    for c in set(top.mine) | set(mine.mine):
        a, b = top.share(top.mine.get(c, 0.0)), mine.share(mine.mine.get(c, 0.0))
        if points.get(c, 0) > 0 and a - b >= CARD_GAP:
            given.append((points[c] * (a - b), c, a, b, mine.share(mine.theirs.get(c, 0.0))))
    for _, c, a, b, theirs in sorted(given, reverse=True)[:2]:
        worth = f"{NAMES[c]} ({points[c]} point{'s' if points[c] != 1 else ''})"
        text = (f"gives up {worth}: with best play by both sides (the exact solver's line) your side ends with it "
                f"after the best move, {'the other side' if theirs else 'nobody'} after yours" if line else
                f"gives up {worth}: your side ends the deal with it in {_pct(a)} of the worlds searched after the "
                f"best move, {_pct(b)} after yours (the other side in {_pct(theirs)})")
        reasons.append(Reason("card_given", text, {**base, "card": NAMES[c], "points": points[c],
                                                   "best_share": round(a, 3), "share": round(b, 3),
                                                   "theirs": round(theirs, 3)}))
    more = top.share(top.cards) - mine.share(mine.cards)
    majority = top.share(top.majority) - mine.share(mine.majority)
    if more >= CARDS_MORE:
        said = (f"{majority:.1f} points more from the majority of cards" if majority >= MAJORITY_MORE else
                "toward the majority of cards")
        reasons.append(Reason("cards", f"the best move ends the deal with {more:.1f} more cards "
                                       f"{'with best play' if line else 'on average'} ({said})",
                              {**base, "more": round(more, 1),
                               **({"majority": round(majority, 1)} if majority >= MAJORITY_MORE else {})}))
    if not reasons:
        worth = f"{lost:.2f} points" if lost is not None else "more"
        reasons.append(Reason("margin", f"no single cause stands out: the best move is worth {worth} more "
                                        + ("with best play by both sides" if line else
                                           f"over the {worlds} worlds searched"),
                              {**base, "lost": lost, "worlds": worlds}))
    return reasons


def _sample_state(view: Any) -> Any:
    """A state of the view's game (a world of it), for what the game's class says."""
    return players_part(view).worlds(view, SearchSettings()).sample(random.Random(0))[0]


__all__ = ["CODES", "Outcome", "Reason", "card_points", "explain", "probe"]
