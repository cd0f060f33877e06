"""The card sense shared by the one-card games: the frame of their parts for the players' floor.

A game whose round is a :class:`~diloti.games.onecard.state.HandState` (one card a move:
lay it or take with it; captures, sweeps and majorities per side) builds its players
part on :class:`HandPlayers`, giving only what its rules make different: what a set of
cards is worth (:meth:`HandPlayers.card_value`), the most a card of a rank can take
from a table (:meth:`HandPlayers.best_take`), what a capture leaves, a capture's bonus
(Xeri's xeri), and its points expected mid-hand. The rest is here, once:

- ``greedy``: the most valuable capture now (a sweep first); a lay that leaves a
  table an unseen card could take costs what could be taken;
- ``heuristic``: the greedy gain, less the next player's expected best reply,
  with card counting (the chance they hold each rank, from the unseen cards
  and their hand size);
- the searches: worlds sampled from the view (:meth:`HandPlayers.sample_world`),
  a rollout with the greedy policy to the end of the deal, scored by
  :meth:`HandPlayers.evaluate` (the points taken, the majorities as the chance of
  ending ahead); the rollouts' horizon counts from the position searched.

>>> from diloti.games.xeri.players import PART
>>> from diloti.games.xeri.rules import XeriState
>>> s = XeriState.new(seed=2)
>>> scores = PART.greedy_scores(s.view(s.turn))
>>> len(scores) == len(s.legal_moves())
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import partial
from math import comb, erf, sqrt
from typing import Any

from diloti.ai.part import Rollouts, SearchSettings
from diloti.ai.round_points import Scoring
from diloti.ai.search import search_ranking
from diloti.core.cards import BIT, Card
from diloti.core.moves import CAPTURE, Move
from diloti.core.registry import find_game
from diloti.core.rule_options import MAX_TARGET
from diloti.games.onecard.state import HandState
from diloti.games.onecard.view import HandView

SQRT2 = sqrt(2.0)
TIMED_ITERATIONS = 3000  # the master's playouts a move when only time is given (capped by it)


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
    """Whether the move to make is the hand's last card."""
    return not view.stock_size and sum(view.hand_sizes) == 1


def lead_chance(counts: Sequence[int], total: int, i: int) -> float:
    """The chance side ``i`` ends with strictly the most of ``total`` cards, ``counts`` taken so far: a normal
    approximation, the cards still to come shared evenly."""
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


class HandPlayers(ABC):
    """A one-card game's players part: the contract of :mod:`diloti.ai.part`, from the game's hooks.

    A game subclasses it, writing the abstract hooks (and overriding the others where its rules differ),
    and its players module names an instance ``PART``: the registry's part for the players' floor.
    """

    # ----------------------------------------------------------- the game's hooks
    @abstractmethod
    def card_value(self, mask: int) -> float:
        """What a set of cards is worth to the side that takes it (points, and a share of the majorities)."""

    @abstractmethod
    def best_take(self, table: Sequence[Card], rank: int) -> float:
        """The most a card of rank index ``rank`` can take from ``table`` (a sweep's bonus included)."""

    def after_capture(self, table: Sequence[Card], mask: int) -> tuple[Card, ...]:
        """The table left by a capture of the cards of ``mask``."""
        return tuple(c for c in table if not BIT[c] & mask)

    def capture_bonus(self, view: HandView, card: Card) -> float:
        """What a capture with ``card`` adds to the cards it takes (Xeri's xeri), as the players see it."""
        return 0.0

    def rollout_bonus(self, table: Sequence[Card], card: Card) -> float:
        """The same for the rollout policy (cheaper: no options asked)."""
        return 0.0

    def keep_penalty(self, view: HandView, card: Card) -> float:
        """What the heuristic holds against a capture with ``card`` (a card worth keeping for later)."""
        return 0.0

    @abstractmethod
    def expected_points(self, st: HandState, i: int) -> float:
        """Side ``i``'s points of the hand, expected mid-hand (the majorities as the chance of ending ahead)."""

    # ----------------------------------------------------------- the scores
    def gain(self, view: HandView, move: Move) -> float:
        """What ``move`` takes now, a capture's bonus included."""
        card, kind, _, mask = move
        assert card is not None
        if kind != CAPTURE:
            return 0.0
        value = self.card_value(mask | BIT[card])
        bonus = self.capture_bonus(view, card)
        if bonus:
            value += bonus
        return value

    def table_after(self, view: HandView, move: Move) -> tuple[Card, ...]:
        """The table ``move`` leaves."""
        card, kind, _, mask = move
        assert card is not None
        if kind == CAPTURE:
            return self.after_capture(view.table, mask)
        return (*view.table, card)

    def reply_loss(self, view: HandView, table: Sequence[Card], probs: Sequence[float]) -> float:
        """The next player's expected best take from ``table`` (the best rank they hold, by probability)."""
        takes = sorted(((self.best_take(table, r), probs[r]) for r in range(13)), reverse=True)
        total, none_better = 0.0, 1.0
        for value, p in takes:
            if value <= 0:
                break
            total += value * p * none_better
            none_better *= 1.0 - p
        return total

    def greedy_scores(self, view: HandView) -> list[tuple[Move, float]]:
        """Each legal move with the greedy score: the take now, less what a lay offers any unseen card."""
        unseen_ranks = {c >> 2 for c in view.unseen}
        out = []
        for m in view.legal:
            card = m[0]
            assert card is not None
            score = self.gain(view, m) - 0.01 * (card >> 2)
            if m[1] != CAPTURE:
                after = self.table_after(view, m)
                score -= max((self.best_take(after, r) for r in unseen_ranks), default=0.0)
                score -= 0.2 * self.card_value(BIT[card])
            out.append((m, score))
        return out

    def heuristic_scores(self, view: HandView) -> list[tuple[Move, float]]:
        """Each legal move with the heuristic score: the take now less the next player's expected reply."""
        nxt = (view.seat + 1) % view.players
        probs = rank_probabilities(view, nxt)
        last = is_last_card(view) or sum(view.hand_sizes) <= 1
        out = []
        for m in view.legal:
            card, kind = m[0], m[1]
            assert card is not None
            score = self.gain(view, m)
            if kind != CAPTURE:
                score -= 0.3 * self.card_value(BIT[card])
            else:
                penalty = self.keep_penalty(view, card)
                if penalty:
                    score -= penalty
            if not last:
                score -= self.reply_loss(view, self.table_after(view, m), probs)
            out.append((m, score - 0.001 * (card >> 2)))
        return out

    def ruled_move(self, view: HandView) -> Move | None:
        """No decision of these games is taken by rule."""
        return None

    def move_rng(self, seed: int | None, view: HandView, salt: str = "") -> random.Random:
        """A generator for one decision, from the player's seed and the public position only."""
        key = (seed, salt, view.game, view.seat, view.plays, view.deal_no, view.hand, view.table, view.hand_sizes,
               view.stock_size, view.captured)
        return random.Random(repr(key))

    # ----------------------------------------------------------- the searches
    def sample_world(self, view: HandView, rng: random.Random) -> HandState:
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
                           sweeps=view.sweeps, tallies={name: view.tally(name) for name in cls.TALLIES},
                           last_capturer=view.last_capturer, check=False)
        s.deal_no, s.plays = view.deal_no, view.plays
        return s

    def worlds(self, view: HandView, settings: SearchSettings) -> _UniformWorlds:
        """Worlds consistent with ``view``, each of weight 1 (these games have no inference from play)."""
        return _UniformWorlds(self, view)

    def rollout_move(self, st: HandState, rng: random.Random, eps: float = 0.1) -> Move:
        """The rollout policy: the most valuable take now; a lay that the next player's actual hand (this is a
        sampled world) could take from costs that take; a share of random moves."""
        return self._policy(eps, st, rng)

    def _policy(self, eps: float, st: HandState, rng: random.Random) -> Move:
        moves = st.legal_moves()
        if len(moves) == 1 or rng.random() < eps:
            return moves[int(rng.random() * len(moves))]
        table = st.table
        card_value, best_take = self.card_value, self.best_take
        danger = {c >> 2 for c in st.hands[(st.turn + 1) % st.players]}
        best, top = moves[0], -1e9
        for m in moves:
            card, kind, _, mask = m
            assert card is not None
            if kind == CAPTURE:
                score = card_value(mask | BIT[card])
                bonus = self.rollout_bonus(table, card)
                if bonus:
                    score += bonus
            else:
                after = (*table, card)
                score = -0.2 * card_value(BIT[card]) - max((best_take(after, r) for r in danger), default=0.0)
            score += 0.05 * rng.random()
            if score > top:
                best, top = m, score
        return best

    def evaluate(self, st: HandState, side: int) -> float:
        """The hand's points of ``side`` less the best other side's: exact at the hand's end, else expected
        (:meth:`expected_points`)."""
        if st.is_over:
            pts = st.points()
            return float(pts[side] - max(p for i, p in enumerate(pts) if i != side))
        values = [self.expected_points(st, i) for i in range(st.sides)]
        return values[side] - max(v for i, v in enumerate(values) if i != side)

    def rollouts(self, settings: SearchSettings) -> Rollouts:
        """The fast policy and :meth:`evaluate`; the horizon from the position searched; no tree search.
        The master's refinements (card-counting rollouts, ``ahead``, the fitted evaluation) are Diloti's."""
        return Rollouts(policy=partial(self._policy, settings.eps), value=self.evaluate, root_horizon=True,
                        timed_iterations=TIMED_ITERATIONS)

    def rank_moves(self, view: HandView, seed: int | None, iterations: int, seconds: float | None,
                   level: str) -> list[tuple[Move, float]]:
        """Every legal move ranked by the expert's search, each with its estimated points difference at the
        hand's end (unrounded); the master's ranking is the same search here."""
        settings = SearchSettings()
        return search_ranking(view, self.move_rng(seed, view, "rank"), self.worlds(view, settings),
                              self.rollouts(settings), iterations, seconds, digits=None)

    def win_chances(self, view: HandView, ranked: Sequence[tuple[Move, float]]) -> list[float] | None:
        """No model of the chance to win a game of these (None)."""
        return None

    def endless(self, options: Any) -> Any:
        """Options under which a game never ends by itself: the largest target."""
        return options.replace(target=MAX_TARGET)

    def exact_scoring(self, options: Any) -> Scoring | None:
        """The game's round points for the exact solver (:mod:`diloti.ai.exact`); None (the default): the
        solver does not know the game, none of its positions is exact."""
        return None


class _UniformWorlds:
    """A view's worlds, each of weight 1."""

    __slots__ = ("part", "view")

    def __init__(self, part: HandPlayers, view: HandView) -> None:
        self.part = part
        self.view = view

    def sample(self, rng: random.Random) -> tuple[HandState, float]:
        return self.part.sample_world(self.view, rng), 1.0


__all__ = ["HandPlayers", "is_last_card", "lead_chance", "p_holds", "rank_probabilities"]
