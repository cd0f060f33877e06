"""The computer players' levels for Xeri and Kontsina: the same levels, each game's own card sense.

:func:`diloti.ai.make_player` builds the same players for every game; given a
:class:`~diloti.core.hand_state.HandView` (a hand of Xeri or Kontsina) they
choose here:

- ``random``: uniform over the legal moves (no change);
- ``greedy``: the most valuable capture now (a xeri first); a lay that leaves a
  table an unseen card could take costs what could be taken;
- ``heuristic``: the greedy gain, less the next player's expected best reply,
  with card counting (the chance they hold each rank, from the unseen cards
  and their hand size); in Xeri a jack is kept for a pile worth it;
- ``expert``: determinized Monte Carlo, as Diloti's: worlds sampled from the
  view (:func:`sample_world`), each candidate move played in each world and a
  rollout with the greedy policy to the end of the deal (``deals=1``, the
  default; ``deals=0``: to the end of the hand), scored by :func:`evaluate`
  (the points taken, the majorities as the chance of ending ahead);
  candidates cut by sequential halving.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=2, game="xeri")
>>> scores = greedy_scores(s.view(s.turn))
>>> len(scores) == len(s.legal_moves())
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from math import comb, erf, sqrt

from diloti.core.cards import BIT, Card, mask_of
from diloti.core.hand_state import HandState, HandView
from diloti.core.moves import CAPTURE, Move
from diloti.games import find_game
from diloti.games.kontsina.rules import summing_sets

XERI_POINTS = 10
JACK = 10  # card >> 2 of the jacks
HONOURS = 0xF | 0xFFFF << 36
CLUBS = sum(1 << (4 * r) for r in range(13))
SQRT2 = sqrt(2.0)


def card_value(game: str, mask: int) -> float:
    """What a set of cards is worth to the side that takes it (points, and a share of the majorities).

    >>> card_value("xeri", BIT[37]), card_value("kontsina", BIT[4])
    (2.12, 1.28)
    """
    n = mask.bit_count()
    if game == "xeri":
        return (mask & HONOURS).bit_count() + (1 if mask & BIT[37] else 0) + (1 if mask & BIT[4] else 0) + 0.12 * n
    clubs = (mask & CLUBS).bit_count()
    return (1 if mask & BIT[4] else 0) + (1 if mask & BIT[37] else 0) + 0.18 * n + 0.1 * clubs


def p_holds(k: int, unseen: int, hand: int) -> float:
    """P(a hand of ``hand`` cards drawn from ``unseen`` cards holds one of ``k`` given cards).

    >>> round(p_holds(3, 30, 6), 3)
    0.501
    """
    if k <= 0 or hand <= 0 or unseen <= 0:
        return 0.0
    if unseen - k < hand:
        return 1.0
    return 1.0 - comb(unseen - k, hand) / comb(unseen, hand)


def rank_probabilities(view: HandView, seat: int) -> list[float]:
    """For each rank index (0 ace .. 12 king), the chance ``seat`` holds a card of it."""
    unseen = view.unseen
    counts = [0] * 13
    for c in unseen:
        counts[c >> 2] += 1
    return [p_holds(k, len(unseen), view.hand_sizes[seat]) for k in counts]


def is_last_card(view: HandView) -> bool:
    return not view.stock_size and sum(view.hand_sizes) == 1


def gain(view: HandView, move: Move) -> float:
    """What ``move`` takes now, a xeri included."""
    card, kind, _, mask = move
    assert card is not None
    if kind != CAPTURE:
        return 0.0
    value = card_value(view.game, mask | BIT[card])
    table = view.table
    lone = view.game == "xeri" and len(table) == 1 and table[0] >> 2 == card >> 2
    if lone and not (is_last_card(view) and view.options.no_xeri_last_card):
        value += XERI_POINTS * (2 if card >> 2 == JACK and view.options.xeri_jack_double else 1)
    return value


def table_after(view: HandView, move: Move) -> tuple[Card, ...]:
    card, kind, _, mask = move
    assert card is not None
    if kind == CAPTURE:
        return tuple(c for c in view.table if not BIT[c] & mask) if view.game == "kontsina" else ()
    return (*view.table, card)


def best_take(game: str, table: Sequence[Card], rank: int) -> float:
    """The most a card of rank index ``rank`` can take from ``table`` (Xeri: a xeri included)."""
    if not table:
        return 0.0
    if game == "xeri":
        if rank == table[-1] >> 2:
            return card_value(game, mask_of(table)) + (XERI_POINTS if len(table) == 1 else 0)
        return card_value(game, mask_of(table)) if rank == JACK else 0.0
    best = max((card_value(game, BIT[t]) for t in table if t >> 2 == rank), default=0.0)
    if rank < 10:
        numerals = tuple(c for c in table if c < 40)
        for m in summing_sets(numerals, rank + 1):
            best = max(best, card_value(game, m))
    return best


def reply_loss(view: HandView, table: Sequence[Card], probs: Sequence[float]) -> float:
    """The next player's expected best take from ``table`` (the best rank they hold, by probability)."""
    takes = sorted(((best_take(view.game, table, r), probs[r]) for r in range(13)), reverse=True)
    total, none_better = 0.0, 1.0
    for value, p in takes:
        if value <= 0:
            break
        total += value * p * none_better
        none_better *= 1.0 - p
    return total


def greedy_scores(view: HandView) -> list[tuple[Move, float]]:
    """Each legal move with the greedy score: the take now, less what a lay offers any unseen card."""
    unseen_ranks = {c >> 2 for c in view.unseen}
    out = []
    for m in view.legal:
        card = m[0]
        assert card is not None
        score = gain(view, m) - 0.01 * (card >> 2)
        if m[1] != CAPTURE:
            after = table_after(view, m)
            score -= max((best_take(view.game, after, r) for r in unseen_ranks), default=0.0)
            score -= 0.2 * card_value(view.game, BIT[card])
        out.append((m, score))
    return out


def heuristic_scores(view: HandView) -> list[tuple[Move, float]]:
    """Each legal move with the heuristic score: the take now less the next player's expected reply."""
    nxt = (view.seat + 1) % view.players
    probs = rank_probabilities(view, nxt)
    last = is_last_card(view) or sum(view.hand_sizes) <= 1
    out = []
    for m in view.legal:
        card, kind = m[0], m[1]
        assert card is not None
        score = gain(view, m)
        if kind != CAPTURE:
            score -= 0.3 * card_value(view.game, BIT[card])
        elif view.game == "xeri" and card >> 2 == JACK and len(view.table) > 1:
            score -= 1.2  # a jack kept takes a later pile whatever its top card
        if not last:
            score -= reply_loss(view, table_after(view, m), probs)
        out.append((m, score - 0.001 * (card >> 2)))
    return out


# ------------------------------------------------------------------ search
def sample_world(view: HandView, rng: random.Random) -> HandState:
    """A full hand consistent with ``view``: the unseen cards dealt at random to the other hands and the stock."""
    pool = list(view.unseen)
    rng.shuffle(pool)
    hands: list[list[Card]] = []
    pos = 0
    for seat in range(view.players):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(pool[pos:pos + view.hand_sizes[seat]])
            pos += view.hand_sizes[seat]
    cls: type[HandState] = find_game(view.game).state
    s = cls.from_parts(players=view.players, options=view.options, dealer=view.dealer, turn=view.turn,
                       hands=hands, table=view.table, stock=pool[pos:], captured=view.captured,
                       xeri=view.xeri, jack_xeri=view.jack_xeri or None, last_capturer=view.last_capturer,
                       check=False)
    s.deal_no, s.plays = view.deal_no, view.plays
    return s


def rollout_move(st: HandState, rng: random.Random, eps: float = 0.1) -> Move:
    """The rollout policy: the most valuable take now; a lay that the next player's actual hand (this is a
    sampled world) could take from costs that take; a share of random moves."""
    moves = st.legal_moves()
    if len(moves) == 1 or rng.random() < eps:
        return moves[int(rng.random() * len(moves))]
    game, table = st.GAME, st.table
    danger = {c >> 2 for c in st.hands[(st.turn + 1) % st.players]}
    best, top = moves[0], -1e9
    for m in moves:
        card, kind, _, mask = m
        assert card is not None
        if kind == CAPTURE:
            score = card_value(game, mask | BIT[card])
            if game == "xeri" and len(table) == 1 and table[0] >> 2 == card >> 2:
                score += XERI_POINTS
        else:
            after = (*table, card)
            score = -0.2 * card_value(game, BIT[card]) - max((best_take(game, after, r) for r in danger), default=0.0)
        score += 0.05 * rng.random()
        if score > top:
            best, top = m, score
    return best


def evaluate(st: HandState, side: int) -> float:
    """The hand's points of ``side`` less the best other side's: exact at the hand's end, else expected.

    Mid-hand it counts the points captured so far (honours, the 10♦ and 2♣, xeris) and each majority
    (cards; Kontsina's clubs) as the chance the side ends ahead, a normal approximation from the cards
    captured and the cards still to come shared evenly (as Diloti's search does).

    >>> from diloti.games.xeri.rules import XeriState
    >>> s = XeriState.new(seed=3)
    >>> evaluate(s, 0) == -evaluate(s, 1) == 0.0
    True
    """
    if st.is_over:
        pts = st.points()
        return float(pts[side] - max(p for i, p in enumerate(pts) if i != side))
    values = [_expected_points(st, i) for i in range(st.sides)]
    return values[side] - max(v for i, v in enumerate(values) if i != side)


def _lead_chance(counts: Sequence[int], total: int, i: int) -> float:
    """The chance side ``i`` ends with strictly the most of ``total`` cards, ``counts`` taken so far."""
    k = len(counts)
    rest = total - sum(counts)
    sd = 0.65 * sqrt(max(rest, 0)) + 1e-9
    share = rest / k
    mine = counts[i] + share
    p = 1.0
    for j, c in enumerate(counts):
        if j != i:
            p *= 0.5 * (1.0 + erf((mine - (c + share) - 0.5) / (sd * SQRT2)))
    return p


def _expected_points(st: HandState, i: int) -> float:
    m = st.captured[i]
    counts = [c.bit_count() for c in st.captured]
    fixed = (1 if m & BIT[37] else 0) + (1 if m & BIT[4] else 0)
    if st.GAME == "xeri":
        jack = st.jack_xeri[i] if st.options.xeri_jack_double else 0
        fixed += (m & HONOURS).bit_count() + XERI_POINTS * (st.xeri[i] + jack)
        return fixed + 3.0 * _lead_chance(counts, 52, i)
    clubs = [(c & CLUBS).bit_count() for c in st.captured]
    return fixed + 2.0 * _lead_chance(counts, 52, i) + _lead_chance(clubs, 13, i)


def search_variant(world: Callable[[random.Random], HandState], moves: Sequence[Move], side: int,
                   rng: random.Random, iterations: int, seconds: float | None, eps: float,
                   halving: bool = True, deals: int = 0) -> list[tuple[Move, float]]:
    """Mean rollout value of each of ``moves`` over sampled worlds, best first (sequential halving; without it
    every move gets the same worlds and playouts, so the estimates compare: the analysis). Rollouts stop after
    ``deals`` deal ends (0: at the hand's end) and are scored by :func:`evaluate`."""
    totals = {m: 0.0 for m in moves}
    visits = {m: 0 for m in moves}
    if len(moves) <= 1:
        return [(m, 0.0) for m in moves]
    deadline = None if seconds is None else time.perf_counter() + seconds
    alive = list(moves)
    stages = max(1, (len(alive) - 1).bit_length()) if halving else 1
    spent = 0
    for stage in range(stages):
        per_move = max(1, (iterations - spent) // (len(alive) * (stages - stage)))
        for _ in range(per_move):
            w = world(rng)
            seed = rng.getrandbits(64)
            stop = w.deal_no + deals if deals > 0 else 1 << 30
            for m in alive:
                w.push(m)
                r = random.Random(seed)
                depth = 1
                while not w.is_over and w.deal_no < stop:
                    w.push(rollout_move(w, r, eps))
                    depth += 1
                totals[m] += evaluate(w, side)
                visits[m] += 1
                for _ in range(depth):
                    w.pop()
            spent += len(alive)
            if deadline is not None and time.perf_counter() > deadline:
                break
        if deadline is not None and time.perf_counter() > deadline:
            break
        if stage < stages - 1:
            alive = sorted(alive, key=lambda m: -totals[m] / max(1, visits[m]))[: (len(alive) + 1) // 2]
    rank = {m: i for i, m in enumerate(alive)}
    return sorted(((m, totals[m] / max(1, visits[m])) for m in moves),
                  key=lambda mv: (mv[0] not in rank, -mv[1]))


def move_rng(seed: int | None, view: HandView, salt: str = "") -> random.Random:
    """A generator for one decision, from the player's seed and the public position only."""
    key = (seed, salt, view.game, view.seat, view.plays, view.deal_no, view.hand, view.table, view.hand_sizes,
           view.stock_size, view.captured)
    return random.Random(repr(key))


def choose_scored(scored: list[tuple[Move, float]], rng: random.Random) -> Move:
    top = max(s for _, s in scored)
    best = [m for m, s in scored if s >= top - 1e-9]
    return best[0] if len(best) == 1 else rng.choice(best)


def expert_choose(view: HandView, seed: int | None, iterations: int, seconds: float | None, width: int,
                  eps: float, name: str = "expert", world: Callable[[random.Random], HandState] | None = None,
                  deals: int = 0) -> Move:
    """The expert's (or, given the true ``world``, the oracle's) move in a hand of Xeri or Kontsina."""
    if len(view.legal) == 1:
        return view.legal[0]
    moves = list(view.legal)
    if 0 < width < len(moves):
        moves = [m for m, _ in sorted(heuristic_scores(view), key=lambda ms: -ms[1])[:width]]
    rng = move_rng(seed, view, name)
    sampler = world or (lambda r: sample_world(view, r))
    return search_variant(sampler, moves, view.side, rng, iterations, seconds, eps, deals=deals)[0][0]


def rank_variant_moves(view: HandView, seed: int | None = None, iterations: int = 800,
                       seconds: float | None = 2.0, eps: float = 0.1, deals: int = 1) -> list[tuple[Move, float]]:
    """Every legal move of a hand of Xeri or Kontsina ranked by the expert's search, best first, each with its
    estimated points difference at the hand's end (hints and analysis).

    >>> from diloti.games.xeri.rules import XeriGame
    >>> g = XeriGame(seed=1)
    >>> ranked = rank_variant_moves(g.view(g.state.turn), seed=2, iterations=60, seconds=None)
    >>> sorted(m for m, _ in ranked) == sorted(g.state.legal_moves())
    True
    """
    rng = move_rng(seed, view, "rank")
    ranked = search_variant(lambda r: sample_world(view, r), list(view.legal), view.side, rng, iterations, seconds,
                            eps, halving=False, deals=deals)
    return sorted(ranked, key=lambda mv: -mv[1])


__all__ = ["card_value", "expert_choose", "gain", "greedy_scores", "heuristic_scores", "rank_variant_moves",
           "sample_world",
           "search_variant"]
