"""The step decision of a large table: the same action ids and masks, asked step by step, never listed.

:class:`~diloti.games.diloti.envs.actions.Decision` groups the legal moves by
head; on a table that grows by lays they can number in the millions. Here each
step's mask is asked of :class:`~diloti.games.diloti.choices.Query` instead:
the heads are the (card, kind, value) that have a legal move, and the next
item ``x`` after the items chosen so far is allowed when a legal move of the
head takes the chosen items and ``x`` and none of the items skipped between
(items are named in increasing order); ``STOP`` when the items chosen are a
legal move. So a step costs at most one question per table item, whatever the
number of legal moves, and the masks are exactly those of ``Decision``
(tests/test_envs_large.py compares them on every step of random positions).

>>> from diloti.core.cards import parse_cards
>>> from diloti.games.diloti.state import State
>>> s = State.from_parts(hands=[parse_cards("9D KC"), parse_cards("2H")], table=parse_cards("4H 5C 9S"), turn=0,
...                      stock=[], check=False)
>>> d = LargeDecision.of_position(s.turn, s.hands[0], s.table, s.declarations, s.options)
>>> [describe(a) for a in d.legal_actions()]
['9D lay', '9D capture', 'KC lay']
>>> d.apply(head_of(Move.parse("9D x 9S"))); [describe(a) for a in d.legal_actions()]
['item 4H', 'item 9S']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, SupportsIndex

from diloti.core.cards import BIT, Card
from diloti.core.moves import KEEP, LAY, REDEAL, Declaration, Move
from diloti.core.phase import Phase
from diloti.games.diloti.choices import Query
from diloti.games.diloti.envs.actions import (
    HEADS,
    ITEM,
    STOP,
    Decision,
    describe,
    head_of,
    item_mask,
    sequence,
)
from diloti.games.diloti.movegen import is_large
from diloti.games.diloti.options import Options

if TYPE_CHECKING:
    from diloti.games.diloti.state import State

__all__ = ["LargeDecision", "decision_of", "describe", "head_of"]


def decision_of(state: State) -> Decision:
    """The decision of the seat to move in ``state``, bounded on any table: a :class:`LargeDecision` on a large
    table (more than a dozen items, where the legal moves may be too many to list), else :meth:`Decision.of`
    (the same actions and masks either way: tests/test_envs_large.py)."""
    if state.phase == Phase.PLAY and is_large(state.table, state.declarations):
        return LargeDecision.of_state(state)
    return Decision.of(state)


class LargeDecision(Decision):
    """A :class:`~diloti.games.diloti.envs.actions.Decision` whose masks are asked, not listed (see the module)."""

    FIELDS: ClassVar[tuple[str, ...]] = ("_query", "_piles")

    _query: Query
    _piles: list[tuple[int, int]]  # each declaration: (the bit of its lowest card, which names it; all its cards)

    @classmethod
    def of_position(cls, turn: int, hand: list[Card] | tuple[Card, ...], table: list[Card] | tuple[Card, ...],
                    declarations: list[Declaration] | tuple[Declaration, ...], options: Options) -> LargeDecision:
        """The decision of the seat ``turn`` holding ``hand`` (the play phase)."""
        d = cls.__new__(cls)
        q = Query(turn, hand, table, declarations, options)
        d._query = q
        d._piles = [(p.mask & -p.mask, p.mask) for p in q.declarations]
        d._low = item_mask(q.table, q.declarations)
        groups: dict[int, list[tuple[int, Move]]] = {}
        for card in sorted(set(q.hand)):
            for kind, value in q.heads(card):
                groups[head_of(Move(card, kind, value, 0))] = []  # the moves are never listed
        d._begin(groups)
        return d

    @classmethod
    def of_state(cls, state: State) -> LargeDecision:
        """The decision of the seat to move in ``state``."""
        return cls.of_position(state.turn, state.hands[state.turn], state.table, state.declarations, state.options)

    def _cards(self, items: int) -> int:
        """The table cards that the item cards ``items`` stand for."""
        out = items  # a loose card stands for itself
        for low, pile in self._piles:
            if items & low:
                out |= pile
        return out

    def _skipped(self, upto: int) -> int:
        """The table cards of the items below the item bit ``upto`` that are not chosen."""
        below = self._low & (upto - 1) & ~self.chosen
        return self._cards(below)

    @property
    def actions(self) -> list[int]:
        acts = self._actions
        if acts is None:
            card, kind, value = HEADS[self.head]
            assert card is not None
            q = self._query
            inc = self._cards(self.chosen)
            above = self._low & ~((1 << self.chosen.bit_length()) - 1)
            acts = []
            if q.is_legal(Move(card, kind, value, inc)):
                acts.append(STOP)
            rest = above
            while rest:
                bit = rest & -rest
                rest ^= bit
                if q.exists(card, kind, value, include=inc | self._cards(bit), exclude=self._skipped(bit)):
                    acts.append(ITEM + bit.bit_length() - 1)
            acts.sort()
            self._actions = acts
        return acts

    def apply(self, action: SupportsIndex) -> Move | None:
        a = int(action)
        if a not in self.actions:
            raise self._illegal(a)
        self.steps += 1
        if self.head < 0:
            self.head = a
            card, kind, value = HEADS[a]
            if kind in (LAY, KEEP, REDEAL):
                return Move(card, kind, value, 0)
        elif a == STOP:
            card, kind, value = HEADS[self.head]
            return Move(card, kind, value, self._cards(self.chosen))
        else:
            bit = BIT[a - ITEM]
            self.chosen |= bit
            if not self._low & ~((bit << 1) - 1):  # no item above it: the move is complete
                card, kind, value = HEADS[self.head]
                return Move(card, kind, value, self._cards(self.chosen))
        self._actions = None
        return None

    def encode(self, move: Move) -> list[int]:
        h = head_of(move)
        if h not in self._groups or not self._query.is_legal(move):
            from diloti.envs.actions import InvalidActionError

            raise InvalidActionError(f"move {move} is not among the legal moves")
        return sequence(h, move[3] & self._low, self._low)

