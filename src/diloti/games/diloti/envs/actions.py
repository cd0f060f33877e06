"""A fixed action encoding: one flat ``Discrete(NUM_ACTIONS)`` space, a move chosen in steps.

A legal-move list can hold hundreds of moves, and its order says nothing a
learner can use, so a move is chosen in steps whose ids mean the same thing in
every position:

1. A **head** action names the card played, the kind of move and its value
   (:data:`HEADS`): ``5C lay``, ``5C capture``, ``5C plain 8``, ``5C group 5``
   ... and ``keep`` / ``redeal`` for a face-card redeal decision.
2. A move that takes or builds on table items (a capture, a declaration) then names
   them, one **item** action each, in increasing order: a loose card by itself, a
   declaration by its lowest card (``ITEM + card``); ``STOP`` ends the list while the
   table holds items above the last one named. A lay, ``keep`` and ``redeal`` are
   their head alone.

The sequence of a move depends on the move and the table alone, never on the
mover's other cards: what the others see of a move being chosen (the head, the
items named so far) is part of the finished move, and an action id means the
same in every state of an information set. Only the mask, which the mover alone
sees, depends on the hand. Every legal move has exactly one action sequence and
every action the mask allows leads to at least one legal move
(tests/test_envs_actions.py shows both on random positions of every option mix).

>>> from diloti.core.cards import cards_of, parse_cards
>>> from diloti.games.diloti.state import State
>>> s = State.from_parts(hands=[parse_cards("9D KC"), parse_cards("2H")], table=parse_cards("4H 5C 9S"), turn=0,
...                      stock=[], check=False)
>>> d = Decision.of(s)
>>> [describe(a) for a in d.legal_actions()]
['9D lay', '9D capture', 'KC lay']
>>> d.apply(head_of(Move.parse("9D x 9S")))
>>> [describe(a) for a in d.legal_actions()]
['item 4H', 'item 9S']
>>> d.apply(ITEM + Card("4H"))
>>> [describe(a) for a in d.legal_actions()], cards_of(d.chosen)
(['item 5C'], (Card('4H'),))
>>> d.apply(ITEM + Card("5C"))  # 9S is still on the table above 5C: the list goes on or stops
>>> [describe(a) for a in d.legal_actions()]
['item 9S', 'stop']
>>> d.apply(STOP)
Move.parse('9D x 4H 5C')
>>> [describe(a) for a in d.encode(Move.parse("9D x 4H 5C 9S"))]  # 9S is the highest item: no stop
['9D capture', 'item 4H', 'item 5C', 'item 9S']
>>> NUM_HEADS, NUM_ACTIONS
(506, 559)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import index
from typing import TYPE_CHECKING, Any, ClassVar, Final, SupportsIndex

from diloti.core._mypyc import mypyc_attr
from diloti.core.cards import BIT, NAMES, VALUE, Card
from diloti.core.moves import CAPTURE, GROUP, KEEP, LAY, PLAIN, REDEAL, Declaration, Move, MoveKind
from diloti.envs.actions import InvalidActionError, StepDecision

if TYPE_CHECKING:
    from diloti.games.diloti.state import State


def _build_heads() -> tuple[tuple[Card | None, MoveKind, int], ...]:
    heads: list[tuple[Card | None, MoveKind, int]] = []
    for c in range(52):
        card = Card(c)
        v = VALUE[c]
        heads.append((card, LAY, v))
        heads.append((card, CAPTURE, v))
        if v:
            heads.extend((card, PLAIN, s) for s in range(v + 1, 11))  # a plain pile is worth more than its card
            heads.extend((card, GROUP, s) for s in range(v, 11))  # the played card is a component of value s
    heads.append((None, KEEP, 0))
    heads.append((None, REDEAL, 0))
    return tuple(heads)


#: Every head: ``(card, kind, value)`` by id. For each card in card order: lay, capture, then for a
#: numeral of value v, plain v+1..10 and group v..10; then keep and redeal.
HEADS: Final[tuple[tuple[Card | None, MoveKind, int], ...]] = _build_heads()
NUM_HEADS: Final = 506
assert len(HEADS) == NUM_HEADS
#: ``ITEM + card``: the table item (a loose card, or the declaration whose lowest card it is).
ITEM: Final = NUM_HEADS
#: Ends the list of items.
STOP: Final = ITEM + 52
NUM_ACTIONS: Final = STOP + 1
KEEP_ACTION: Final = NUM_HEADS - 2
REDEAL_ACTION: Final = NUM_HEADS - 1


#: The heads whose move takes no table item: the head alone is the whole sequence.
_NO_ITEMS: Final = frozenset((LAY, KEEP, REDEAL))


def _build_head_of() -> list[int]:
    """(card * 4 + kind) * 11 + value -> head id (-1: no such head)."""
    head_of = [-1] * (52 * 4 * 11)
    for i, (card, kind, value) in enumerate(HEADS[:KEEP_ACTION]):
        assert card is not None
        head_of[(card * 4 + kind) * 11 + value] = i
    return head_of


_HEAD_OF: Final = _build_head_of()
# The action ids as shared int objects: most are above CPython's cached small ints, and a compiled int key
# is boxed anew for every dict operation.
_IDS: Final[tuple[Any, ...]] = tuple(range(NUM_ACTIONS))


def head_of(move: Move) -> int:
    """The head action of ``move``.

    >>> describe(head_of(Move.parse("9D x 4H 5C"))), describe(head_of(Move.parse("4C + 4D = 4G")))
    ('9D capture', '4C group 4')
    """
    card, kind, value, _ = move
    if card is None:
        return KEEP_ACTION if kind == KEEP else REDEAL_ACTION
    h = _HEAD_OF[(card * 4 + kind) * 11 + value] if 0 <= value <= 10 else -1
    if h < 0:
        raise InvalidActionError(f"move {move} has no head action: {NAMES[card]} cannot make {kind.name} {value}")
    return h


def describe(action: SupportsIndex) -> str:
    """What an action id means, in words (the same in every position).

    >>> describe(0), describe(ITEM + 37), describe(STOP), describe(KEEP_ACTION)
    ('AC lay', 'item 10D', 'stop', 'keep')
    """
    a = index(action)  # any integer (numpy's too), as before compiling
    if not 0 <= a < NUM_ACTIONS:
        raise InvalidActionError(f"invalid action {action!r}: expected 0..{NUM_ACTIONS - 1}")
    if a == STOP:
        return "stop"
    if a >= ITEM:
        return f"item {NAMES[a - ITEM]}"
    card, kind, value = HEADS[a]
    if card is None:
        return kind.name.lower()
    if kind in (LAY, CAPTURE):
        return f"{NAMES[card]} {kind.name.lower()}"
    return f"{NAMES[card]} {kind.name.lower()} {value}"


def item_mask(table: Iterable[int], declarations: Iterable[Declaration]) -> int:
    """The cards that name the table's items: each loose card and the lowest card of each declaration."""
    m = 0
    for c in table:
        m |= BIT[c]
    for d in declarations:
        m |= d.mask & -d.mask
    return m


@mypyc_attr(allow_interpreted_subclasses=True)  # as StepDecision's (copy and pickle)
class Decision(StepDecision):
    """One move being chosen in steps (see the module's description).

    ``Decision(legal, table, declarations)`` or :meth:`of` a state. Call
    :meth:`legal_actions` (or :attr:`actions`) for the actions allowed now and
    :meth:`apply` to take one; ``apply`` returns the move once it is unique.
    :attr:`head` (-1 before the head) and :attr:`chosen` (a 52-bit set of item
    cards) describe the prefix chosen so far.
    """

    FIELDS: ClassVar[tuple[str, ...]] = ("_low",)
    __slots__ = FIELDS
    _low: int

    def __init__(self, legal: Sequence[Move], table: Iterable[int], declarations: Iterable[Declaration]) -> None:
        low = item_mask(table, declarations)
        groups: dict[Any, list[tuple[int, Move]]] = {}
        heads = _HEAD_OF
        ids = _IDS
        for m in legal:
            card, kind, value, mask = m
            # head_of(m), inline; head_of itself for a decision's move (no card) and to raise on a bad one
            h = -1
            if card is not None and 0 <= value <= 10:
                ci: int = card  # unboxed once: the index below is a C index when compiled
                k: int = kind
                h = heads[(ci * 4 + k) * 11 + value]
            if h < 0:
                h = head_of(m)
            hid = ids[h]
            g = groups.get(hid)
            if g is None:
                groups[hid] = [(mask & low, m)]
            else:
                g.append((mask & low, m))
        self._low = low
        self._begin(groups)

    @classmethod
    def of(cls, state: State) -> Decision:
        """The decision of the seat to move in ``state``."""
        if cls is Decision:  # compiled, the native constructor: no call through the type and its argument parsing
            return Decision(state.legal_moves(), state.table, state.declarations)
        return cls(state.legal_moves(), state.table, state.declarations)

    @property
    def num_actions(self) -> int:
        """The number of action ids: :data:`NUM_ACTIONS`."""
        return NUM_ACTIONS

    def describe(self, action: SupportsIndex) -> str:
        """What ``action`` means, in words (:func:`describe`)."""
        return describe(action)

    @property
    def actions(self) -> list[int]:
        """The actions allowed at this step, ascending (the decision's own list: do not change it)."""
        acts = self._actions
        if acts is None:
            # Each candidate names the item after the last one chosen, or STOP if it has no more.
            above = ~((1 << self.chosen.bit_length()) - 1)  # the items after the last one chosen
            ids = _IDS  # shared int objects (see _IDS)
            cands = self.candidates
            if len(cands) == 1:  # the usual case: one move left, one action
                rest = cands[0][0] & above
                acts = [ids[ITEM + (rest & -rest).bit_length() - 1 if rest else STOP]]
            else:
                nxt: set[Any] = set()
                for items, _ in cands:
                    rest = items & above
                    nxt.add(ids[ITEM + (rest & -rest).bit_length() - 1 if rest else STOP])
                acts = sorted(nxt)
            self._actions = acts
        return acts

    def apply(self, action: SupportsIndex) -> Move | None:
        """Take ``action``; the move once the sequence is complete, else None."""
        a = int(action)  # any integer (numpy's too): compiled, an int parameter would refuse numpy's
        if a not in self.actions:
            raise self._illegal(a)
        self.steps += 1
        if self.head < 0:
            self.head = a
            cands = self._groups[_IDS[a]]
            if HEADS[a][1] in _NO_ITEMS:  # a lay, keep or redeal: one move, no items
                return cands[0][1]
        else:
            chosen = self.chosen
            above = ~((1 << chosen.bit_length()) - 1)
            if a == STOP:
                return next(m for items, m in self.candidates if not items & above)
            bit = BIT[a - ITEM]
            cands = []
            pairs: list[Any] = self.candidates  # as objects: a typed pair would be unboxed and boxed anew
            for c in pairs:
                items: int = c[0]
                rest = items & above
                if rest & -rest == bit:
                    cands.append(c)
            chosen |= bit
            self.chosen = chosen
            if not self._low & ~((bit << 1) - 1):  # no item on the table above it: the list is complete
                return next(m for items, m in cands if items == chosen)
        self.candidates = cands
        self._actions = None
        return None

    def encode(self, move: Move) -> list[int]:
        """The action sequence that chooses ``move`` from the start (this decision is not changed)."""
        h = head_of(move)
        self._group(move, h)
        return sequence(h, move[3] & self._low, self._low)


def steps_of(move: Move, table: Iterable[int], declarations: Iterable[Declaration]) -> int:
    """The number of actions that choose ``move`` on this table: ``len(sequence(...))`` without the list.

    >>> from diloti.core.cards import parse_cards
    >>> steps_of(Move.parse("9D x 4H 5C"), parse_cards("4H 5C 9S"), []), steps_of(Move.parse("9D"), [], [])
    (4, 1)
    """
    head = head_of(move)
    if HEADS[head][1] in _NO_ITEMS:
        return 1
    low = item_mask(table, declarations)
    items: int = move[3] & low
    n = 1 + items.bit_count()
    top = 1 << (items.bit_length() - 1)
    if low & ~((top << 1) - 1):  # the STOP that says where the list ends
        n += 1
    return n


def sequence(head: int, items: int, low: int) -> list[int]:
    """The action sequence of a move from its head, its item cards and the table's item cards (``low``).

    It depends on nothing else: not on the mover's hand, nor on which other moves are legal.

    >>> from diloti.core.cards import mask_of, parse_cards
    >>> low = mask_of(parse_cards("4H 5C 9S"))
    >>> [describe(a) for a in sequence(head_of(Move.parse("9D x 4H 5C")), mask_of(parse_cards("4H 5C")), low)]
    ['9D capture', 'item 4H', 'item 5C', 'stop']
    """
    out = [head]
    if HEADS[head][1] in _NO_ITEMS:
        return out
    rest = items
    while rest:
        bit = rest & -rest
        out.append(ITEM + bit.bit_length() - 1)
        rest ^= bit
    top = 1 << (items.bit_length() - 1)
    if low & ~((top << 1) - 1):  # the table holds an item above the last one: the list says where it ends
        out.append(STOP)
    return out


__all__ = [
    "HEADS", "ITEM", "KEEP_ACTION", "NUM_ACTIONS", "NUM_HEADS", "REDEAL_ACTION", "STOP", "Decision",
    "describe", "head_of", "item_mask", "sequence", "steps_of",
]
