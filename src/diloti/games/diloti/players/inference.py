"""Inference from play: how likely the other seats' moves of this deal were, in a sampled world.

A world (:mod:`diloti.games.diloti.players.sampler`) deals the unseen cards uniformly, apart from
what is certain. But play tells more: a player who laid a card while holding a
capture, or who left a xeri on the table, probably had nothing better. This
module scores a world by the **likelihood of the other seats' moves of the
current deal** under a simple model of play, given the hands they would have
held in that world (a seat's hand before one of its moves is its hand in the
world now plus the cards it has played since, in this deal; earlier deals'
hands were all played, in the open, so they say nothing about the hidden cards).

The model of play is a softmax over a cheap score of each legal move (what it
takes now, a xeri first; a lay's cost, more when it leaves a table a single
card sweeps; a declaration's promise), mixed with a little of the uniform
choice so that no observed move is ever impossible:

    P(move | hand) = (1 - mix) * softmax(score / temperature) + mix / (number of legal moves)

:class:`Evidence` does the work shared by every world of one view once (the
public position before each observed move, the scores of the moves); its
:meth:`Evidence.log_weight` is then cheap per world. The search weights each
world by ``exp(log_weight)`` (importance sampling: the worlds are still drawn
uniformly). Nothing here reads a hidden card: only the view, and the sampled
world handed in.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=4)
>>> for _ in range(3):
...     s.push(s.legal_moves()[0])
>>> ev = Evidence(s.view(s.turn))
>>> len(ev.observed) > 0
True
>>> from diloti.games.diloti.players.sampler import Worlds
>>> import random
>>> ev.log_weight(Worlds(s.view(s.turn)).sample(random.Random(1))) < 0
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import exp, isfinite, log

from diloti.core.cards import BIT, Card
from diloti.core.chance import HAND_SIZE
from diloti.core.moves import CAPTURE, KEEP, LAY, Declaration, Move
from diloti.core.phase import Phase
from diloti.games.diloti.players.knowledge import POINTS, XERI, mask_points, rank_key, sweep_values, table_after
from diloti.games.diloti.players.sampler import Worlds
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View

DEFAULT_TEMPERATURE = 1.0
DEFAULT_MIX = 0.1
DANGER = 4.0  # what the model thinks a lay that leaves a sweepable table costs
DECLARE = 0.5  # a declaration's promise, on top of the points it gathers


def move_score(move: Move, table: Sequence[int], declarations: Sequence[Declaration], xeri_ok: bool) -> float:
    """The model of play's score of a move in a public position (higher: more likely played).

    >>> from diloti.core.cards import Card
    >>> table = [Card("5H")]
    >>> move_score(Move.parse("5C x 5H"), table, [], True) > move_score(Move.parse("7C"), table, [], True)
    True
    """
    card, kind, _value, mask = move
    assert card is not None
    if kind == CAPTURE:
        s = mask_points(mask | BIT[card]) + 0.3 * (mask.bit_count() + 1)
        whole = 0
        for c in table:
            whole |= BIT[c]
        for p in declarations:
            whole |= p.mask
        if mask == whole and xeri_ok:
            s += XERI
        return s
    loose, piles = table_after(table, declarations, move, -1)
    if kind == LAY:
        s = -POINTS[card] - 0.05 * rank_key(card)
    else:
        s = DECLARE + 0.3 * mask_points(mask | BIT[card]) + 0.1 * mask.bit_count()
    if _sweepable(loose, piles):
        s -= DANGER
    return s


def _sweepable(loose: Sequence[int], piles: Sequence[Declaration]) -> bool:
    """Whether one card could take the whole table (any value or face rank)."""
    return bool(sweep_values(loose, piles))


@dataclass
class Observed:
    """One observed move of another seat in this deal, with the public position before it."""

    seat: int
    move: Move
    position: State  # the public position before the move; its hands are filled in per world
    later: tuple[Card, ...]  # the cards this seat played in this deal from this move on
    scores: dict[Move, float]
    xeri_ok: bool
    table: list[int]
    declarations: list[Declaration]


class Evidence:
    """The other seats' moves of the current deal, ready to be weighed in many worlds.

    ``temperature`` and ``mix`` set the model of play (see the module's text).
    ``observed`` is empty when there is nothing to learn (a new deal, or a
    history this module cannot replay, such as one with a face-card redeal).
    """

    def __init__(self, view: View, temperature: float = DEFAULT_TEMPERATURE, mix: float = DEFAULT_MIX) -> None:
        self.view = view
        self.temperature = float(temperature)
        self.mix = float(mix)
        if self.temperature <= 0:
            raise ValueError(f"temperature must be positive, got {temperature!r}")
        if not 0.0 <= self.mix <= 1.0:
            raise ValueError(f"mix must be in 0..1, got {mix!r}")
        self.observed: list[Observed] = _replay(view)

    def probability(self, obs: Observed, hand: list[Card]) -> float:
        """P(the observed move | the seat held ``hand`` then) under the model of play."""
        st = obs.position
        st.hands[obs.seat] = sorted(hand)
        st._legal = None
        # On a large table the candidates are a bounded sample (State.candidate_moves): the move seen is
        # checked on its own and weighed against them.
        legal = st.candidate_moves()[0]
        if obs.move not in legal:
            if not st.is_legal(obs.move):
                return 0.0
            legal = [*legal, obs.move]
        inv = 1.0 / self.temperature
        scores = obs.scores
        total = 0.0
        played = self._score(obs, obs.move)
        for m in legal:
            s = scores.get(m)
            if s is None:
                s = self._score(obs, m)
            total += exp((s - played) * inv)
        return (1.0 - self.mix) / total + self.mix / len(legal)

    @staticmethod
    def _score(obs: Observed, move: Move) -> float:
        s = obs.scores.get(move)
        if s is None:
            s = obs.scores[move] = move_score(move, obs.table, obs.declarations, obs.xeri_ok)
        return s

    def log_weight(self, world: State) -> float:
        """log P(every observed move | the hands ``world`` gives their seats)."""
        total = 0.0
        for obs in self.observed:
            p = self.probability(obs, [*world.hands[obs.seat], *obs.later])
            if p <= 0.0:
                return float("-inf")
            total += log(p)
        return total


def deal_start(view: View) -> int:
    """How many card moves of this round came before the current deal (-1: unknown).

    >>> from diloti.games.diloti.state import State
    >>> deal_start(State.new(seed=1).view(0))
    0
    """
    plays = view.plays
    per_deal = HAND_SIZE * view.players
    if any(h > HAND_SIZE for h in view.hand_sizes):
        return -1
    return plays - (plays % per_deal) if plays % per_deal or not plays else plays


def replay_start(view: View) -> int:
    """Where the current deal's replay starts (:func:`deal_start`), or -1 when there is nothing to replay: nothing
    seen, or a face-card redeal reshuffled what was dealt.

    >>> from diloti.games.diloti.state import State
    >>> replay_start(State.new(seed=1).view(0))
    -1
    """
    history = view.history
    if not history or any(m[1] > KEEP for _, m in history):
        return -1
    return deal_start(view)


def _replay(view: View) -> list[Observed]:
    """The public position before each other seat's move of the current deal."""
    history = view.history
    start = replay_start(view)
    if start < 0:
        return []
    table: list[int] = sorted(view.first_table)
    piles: list[Declaration] = []
    plays = 0
    out: list[Observed] = []
    for seat, move in history:
        card, kind = move[0], move[1]
        if kind == KEEP:
            continue
        if card is None:
            return []
        if plays >= start and seat != view.seat:
            xeri_ok = plays > 0 or view.options.xeri_first_card
            pos = State.from_parts(players=view.players, options=view.options, dealer=view.dealer, turn=seat,
                                   hands=[[] for _ in range(view.players)], table=table, declarations=piles,
                                   plays=plays, check=False)
            pos.turn = seat
            pos.phase = Phase.PLAY  # hands are filled in per world; never over
            out.append(Observed(seat, move, pos, (), {}, xeri_ok, list(table), list(piles)))
        table, piles = table_after(table, piles, move, seat)
        plays += 1
    if plays != view.plays or sorted(table) != sorted(view.table):
        return []  # not the position the view shows: learn nothing rather than something wrong
    # Each observation's later cards: what its seat played after it in this deal.
    for i, obs in enumerate(out):
        obs.later = tuple(o.move.card for o in out[i:] if o.seat == obs.seat and o.move.card is not None)
    return out


class WeightedWorlds:
    """Worlds of one view, each with its weight from the evidence of play (1.0 without inference).

    ``infer`` (0..1) tempers the weights: each world weighs ``exp(infer * log_weight)``.
    """

    def __init__(self, view: View, infer: float = 0.0, temperature: float = DEFAULT_TEMPERATURE,
                 mix: float = DEFAULT_MIX) -> None:
        self.worlds = Worlds(view)
        self.infer = float(infer)
        self.evidence = Evidence(view, temperature, mix) if self.infer > 0 else None
        if self.evidence is not None and not self.evidence.observed:
            self.evidence = None

    def sample(self, rng: random.Random) -> tuple[State, float]:
        world = self.worlds.sample(rng)
        if self.evidence is None:
            return world, 1.0
        lw = self.evidence.log_weight(world)
        return world, exp(self.infer * lw) if isfinite(lw) else 0.0
