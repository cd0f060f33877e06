"""Inference from play under a model handed in: the other seats' moves of this deal weighed by a policy's softmax.

:mod:`~diloti.games.diloti.players.inference` weighs each sampled world by the other seats' moves of
this deal under a cheap score of each move, read from the public table. This module does the same
under any *model of play* handed down by the search (:class:`diloti.ai.part.MoveModel`, the master's
``model=learned``: the learned policy): a function of a seat's :class:`~diloti.games.diloti.view.View`
returning one score a legal move, whose softmax is the policy. A model of a seat's view needs that
whole view as the seat had it then, not only the table: its captures, xeris, last capturer, the
hand sizes and history of the moment. So the round is replayed (its public moves, with hands that
hold the cards each seat has played) and the position before each observed move kept; in each world
the observed seat's hand is filled in (its hand in the world plus what it has played since) and its
view asked of the model:

    P(move | hand) = (1 - mix) * softmax(scores / temperature)[move] + mix / (number of legal moves)

A model pass costs some 0.1 ms (the learned network, with the heuristic's scores it reads), about as
much as a rollout move, and a world needs one per observed move: a seat's likelihood is therefore kept
per hand it holds in the world (:meth:`ModelEvidence.log_weight` asks the model once per distinct hand;
late in a deal, when the worlds are many, the hands are few), and :class:`PooledWorlds` caps the
distinct worlds weighed per decision (``pool``): past it the search draws again among those weighed.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=4)
>>> for _ in range(3):
...     s.push(s.legal_moves()[0])
>>> flat = lambda view: [0.0] * len(view.legal)  # every legal move as likely
>>> ev = ModelEvidence(s.view(s.turn), flat, mix=0.0)
>>> [o.move for o in ev.observed] == [m for seat, m in s.history if seat != s.turn]
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from diloti.core.cards import BIT, Card
from diloti.core.moves import KEEP, Move
from diloti.core.phase import Phase
from diloti.core.view import cards_of_set
from diloti.games.diloti.players.inference import replay_start
from diloti.games.diloti.players.sampler import Worlds
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View

#: A model of play: a seat's view to one score a move of ``view.legal`` (log-probabilities up to a constant).
Model = Callable[[Any], Sequence[float]]

DEFAULT_POOL = 0  # 0: no cap on the worlds weighed


@dataclass
class Seen:
    """One observed move of another seat in this deal and the position before it (its hand filled in per world)."""

    seat: int
    move: Move
    position: State
    later: tuple[Card, ...]  # the cards this seat played in this deal from this move on


class ModelEvidence:
    """The other seats' moves of the current deal, weighed by ``model`` (see the module's text).

    ``observed`` is empty when there is nothing to learn (a new deal, a face-card redeal in the round, a
    history whose replay does not reach the view's position).
    """

    def __init__(self, view: View, model: Model, temperature: float = 1.0, mix: float = 0.1) -> None:
        if not temperature > 0:
            raise ValueError(f"temperature must be positive, got {temperature!r}")
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix must be in 0..1, got {mix!r}")
        self.view = view
        self.model = model
        self.temperature = float(temperature)
        self.mix = float(mix)
        self.observed: list[Seen] = replay(view)
        self.seats = sorted({o.seat for o in self.observed})
        self._cache: dict[tuple[int, int], float] = {}
        self.passes = 0  # the model's passes so far (a measure of the cost)

    def probability(self, obs: Seen, hand: Sequence[Card]) -> float:
        """P(the observed move | the seat held ``hand`` then) under the model."""
        st = obs.position
        st.hands[obs.seat] = sorted(hand)
        st._legal = None
        v = st.view(obs.seat, self.view.scores)
        legal = v.legal
        if obs.move not in legal:
            if not st.is_legal(obs.move):
                return 0.0
            legal = (*legal, obs.move)  # on a large table the legal list is a sample: the move seen joins it
            v = replace(v, legal=legal)
        if len(legal) == 1:
            return 1.0
        self.passes += 1
        scores = self.model(v)
        inv = 1.0 / self.temperature
        top = max(scores)
        total = sum(math.exp((s - top) * inv) for s in scores)
        p = math.exp((scores[legal.index(obs.move)] - top) * inv) / total
        return (1.0 - self.mix) * p + self.mix / len(legal)

    def seat_log_weight(self, seat: int, hand: Sequence[Card]) -> float:
        """log P(``seat``'s observed moves | it holds ``hand`` now), kept per hand."""
        key = 0
        for c in hand:
            key |= BIT[c]
        found = self._cache.get((seat, key))
        if found is not None:
            return found
        total = 0.0
        for obs in self.observed:
            if obs.seat != seat:
                continue
            p = self.probability(obs, [*hand, *obs.later])
            if p <= 0.0:
                total = -math.inf
                break
            total += math.log(p)
        self._cache[(seat, key)] = total
        return total

    def log_weight(self, world: State) -> float:
        """log P(every observed move | the hands ``world`` gives their seats)."""
        return sum(self.seat_log_weight(seat, world.hands[seat]) for seat in self.seats)


def replay(view: View) -> list[Seen]:
    """The position before each other seat's move of the current deal, replayed from the round's start.

    >>> from diloti.games.diloti.state import State
    >>> replay(State.new(seed=1).view(0))
    []
    """
    history = view.history
    start = replay_start(view)
    if start < 0:
        return []
    n = view.players
    played: list[list[Card]] = [[] for _ in range(n)]
    for seat, move in history:
        if move[1] != KEEP:
            if move.card is None:
                return []
            played[seat].append(move.card)
    # Each seat holds the cards it plays in the round: the replay's pushes find them (push checks nothing else).
    st = State.from_parts(players=n, options=view.options, dealer=view.dealer, hands=played,
                          table=view.first_table, plays=0, check=False)
    st.phase = Phase.PLAY
    st.dealer = -1  # no seat's hand ends a deal here: the hands run out only when their cards do
    out: list[Seen] = []
    moves = [(seat, move) for seat, move in history if move[1] != KEEP]
    at = 0  # the card moves pushed so far
    for seat, move in history:
        if move[1] == KEEP:
            st.history.append((seat, move))  # a kept deal changes nothing public but the history
            continue
        if st.plays >= start and seat != view.seat:
            later = tuple(m.card for s, m in moves[at:] if s == seat and m.card is not None)
            sizes = [view.hand_sizes[s] + sum(1 for t, _ in moves[at:] if t == s) for s in range(n)]
            out.append(Seen(seat, move, _position(view, st, seat, sizes), later))
        st.turn = seat
        st.push(move)
        at += 1
    if (st.plays != view.plays or sorted(st.table) != sorted(view.table)
            or (cards_of_set(st.captured[0]), cards_of_set(st.captured[1])) != tuple(view.captured)
            or tuple(st.sweeps) != tuple(view.sweeps)):
        return []  # not the position the view shows: learn nothing rather than something wrong
    return out


def _position(view: View, st: State, seat: int, sizes: list[int]) -> State:
    """The public position ``st`` reached, as ``seat`` saw it before its move: the others' hands are only sizes."""
    pos = State.from_parts(players=view.players, options=view.options, dealer=view.dealer, turn=seat,
                           hands=[[] for _ in range(view.players)], table=st.table, declarations=st.declarations,
                           captured=(cards_of_set(st.captured[0]), cards_of_set(st.captured[1])),
                           sweeps=st.sweeps, last_capturer=st.last_capturer, plays=st.plays, check=False)
    # What the seat's view reads of the hidden parts is their sizes: stand-in cards, never read as cards.
    pos.hands = [[Card(0)] * k if s != seat else [] for s, k in enumerate(sizes)]
    pos.stock = [Card(0)] * view.stock_size
    pos.deal_no = view.deal_no
    pos.first_table = view.first_table
    pos.history = list(st.history)
    pos.turn = seat
    pos.phase = Phase.PLAY
    return pos


class PooledWorlds:
    """Worlds of one view weighted by ``evidence`` (``infer`` tempers the weights, as in
    :class:`~diloti.games.diloti.players.inference.WeightedWorlds`); with ``pool`` > 0, at most ``pool``
    distinct worlds are weighed per decision, and past them the search draws among those again."""

    def __init__(self, view: View, evidence: ModelEvidence, infer: float, pool: int = DEFAULT_POOL) -> None:
        self.worlds = Worlds(view)
        self.evidence = evidence if evidence.observed and infer > 0 else None
        self.infer = float(infer)
        self.pool = int(pool)
        self.kept: list[tuple[State, float]] = []

    def sample(self, rng: random.Random) -> tuple[State, float]:
        if self.evidence is None:
            return self.worlds.sample(rng), 1.0
        if self.pool and len(self.kept) >= self.pool:
            return self.kept[rng.randrange(self.pool)]  # the search undoes its moves: a world is as it was drawn
        world = self.worlds.sample(rng)
        lw = self.evidence.log_weight(world)
        out = (world, math.exp(self.infer * lw) if math.isfinite(lw) else 0.0)
        if self.pool:
            self.kept.append(out)
        return out


__all__ = ["DEFAULT_POOL", "Model", "ModelEvidence", "PooledWorlds", "Seen", "replay"]
