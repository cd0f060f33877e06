"""Information-set Monte Carlo tree search (single observer), an alternative search for the master.

The master's default search is flat: every candidate is played in each world
and a rollout policy plays on. Here one tree is grown over the observer's
information set instead (Cowling, Powley and Whitehouse's SO-ISMCTS, as used
for Scopone): each iteration draws a new world (a *determinization*, weighted
by the evidence of play as the master's), walks the tree with
the moves legal in that world (UCB1 where every legal child has been tried,
counting a child's *availability* rather than its parent's visits, since
another seat's moves exist only in the worlds that deal it the card),
adds one node, and finishes with the same rollout and evaluation as the flat
search. A node's statistics are the round points difference for the side
that made its move, weighted means. The tree stops where the rollouts stop (the
end of the deal), and the root's moves are the master's candidates.

The answer is the most visited root move. Exactly reproducible from the
seed when only ``iterations`` bounds it.

Any game whose rollouts offer an ``expand`` policy (:class:`~diloti.ai.part.Rollouts`:
Diloti's) and whose two sides score opposite values (a side's value is the other's
negated), the sides alternating seats.

>>> from diloti.games.diloti.state import State
>>> from diloti.ai.games import players_part
>>> from diloti.ai.part import SearchSettings
>>> import random
>>> s = State.new(seed=2)
>>> v = s.view(s.turn)
>>> part = players_part(v)
>>> est = tree_search(part.worlds(v, SearchSettings()), v.legal, v.side, random.Random(1), 60, None,
...                   part.rollouts(SearchSettings()))
>>> est[0].move in s.legal_moves(), sum(e.visits for e in est)
(True, 60)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from math import log, sqrt

from diloti.ai.errors import InvalidSettingError
from diloti.ai.part import Rollouts, Sampler
from diloti.ai.search import MAX_ITERATIONS, Estimate, playout
from diloti.core.moves import Move

DEFAULT_EXPLORE = 4.0  # UCB1's constant, in round points (a deal's values spread over several points)
CHECK_EVERY = 8  # iterations between looks at the clock


TreeEstimate = Estimate  # a root move's statistics: the search's one estimate class

class Node:
    """One move's node: visits, availability, and the weighted total for the side that made the move."""

    __slots__ = ("avail", "children", "total", "visits", "weight")

    def __init__(self) -> None:
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.weight = 0.0

    def ucb(self, explore: float) -> float:
        mean = self.total / self.weight if self.weight > 0 else 0.0
        return mean + explore * sqrt(log(max(self.avail, 1)) / self.visits)


def tree_search(worlds: Sampler, moves: Sequence[Move], side: int, rng: random.Random,
                iterations: int | None, seconds: float | None, rollouts: Rollouts, deals: int = 1,
                explore: float = DEFAULT_EXPLORE,
                clock: Callable[[], float] = time.perf_counter) -> list[TreeEstimate]:
    """Grow one tree over the information set; the root's moves with their statistics, most visited first.

    ``iterations`` caps the iterations (one world, one walk, one rollout each),
    ``seconds`` the time; at least one must be given. ``rollouts`` are the game's
    (its ``expand`` policy is needed), ``deals`` their horizon; ``clock`` counts the seconds.
    """
    if iterations is None and seconds is None:
        raise InvalidSettingError("seconds", None, "a number when iterations is none")
    expand = rollouts.expand
    if expand is None:
        raise InvalidSettingError("tree", 1, "a game whose players part offers the tree search")
    root = Node()
    roots = list(moves)
    if len(roots) <= 1:
        return [TreeEstimate(m) for m in roots]
    deadline = None if seconds is None else clock() + seconds
    cap = MAX_ITERATIONS if iterations is None else iterations
    n = 0
    while n < cap:
        n += 1
        if deadline is not None and n % CHECK_EVERY == 0 and clock() > deadline:
            break
        w, weight = worlds.sample(rng)
        seed = rng.getrandbits(64)
        if weight <= 0.0:
            continue
        node = root
        legal: Sequence[Move] = roots
        path: list[tuple[Node, int]] = []
        stop = 0
        while True:
            untried = [m for m in legal if m not in node.children]
            if untried:
                # Expand the rollout policy's own choice first: a node's first visits then follow the
                # flat search's line of play instead of a random reply (which the tree overrates early).
                move = expand(w, rng) if node is not root else untried[0]
                if move not in untried:
                    move = untried[int(rng.random() * len(untried))]
                child = node.children[move] = Node()
            else:
                best = -1e18
                move = legal[0]
                for m in legal:
                    c = node.children[m]
                    c.avail += 1
                    u = c.ucb(explore)
                    if u > best:
                        best, move = u, m
                child = node.children[move]
            mover = w.turn & 1
            w.push(move)
            path.append((child, mover))
            if len(path) == 1:
                stop = w.deal_no + deals if deals > 0 else 1 << 30  # the flat search's horizon, after the root
            if untried or w.is_over or w.deal_no >= stop:
                break
            legal = w.candidate_moves()[0]  # bounded on a large table (a sample)
            if legal[0][0] is None:
                break  # a face-card redeal decision: the rollout keeps
            node = child
        value = playout(w, 0, random.Random(seed), rollouts, deals, until=stop)
        for _ in path:
            w.pop()
        for child, mover in path:
            child.visits += 1
            child.total += weight * (value if mover == 0 else -value)
            child.weight += weight
    out = []
    for m in roots:
        est = TreeEstimate(m)
        found = root.children.get(m)
        if found is not None:
            est.total, est.weight, est.visits = found.total, found.weight, found.visits
        out.append(est)
    out.sort(key=lambda e: (-e.visits, -e.mean))
    return out
