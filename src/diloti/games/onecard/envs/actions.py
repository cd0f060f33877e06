"""Fixed action encodings of the one-card games (any HandState game): a card and a kind, then table cards.

Each game has its own flat ``Discrete`` space whose ids mean the same thing in
every position, given by its :class:`HandEncoding` (in the game's envs part):

- a **head** action names the card played and, where the game has several,
  the kind of move (its ``head`` and ``describe_head``): Xeri's 52 heads are
  the cards (what a card does follows from the rules), Kontsina's 104 are
  ``2 * card`` (lay) and ``2 * card + 1`` (capture);
- while several legal moves share the head, **item** actions ``heads + t``
  name the table cards taken, in increasing card order, until one move is
  left (only for a game whose encoding has ``items``). An item that every
  move still open takes next is taken without a step, so a step always offers
  two actions or more. No stop action is needed in the one-card games: no
  capture's cards are a part of another's with the same card.

Every legal move has exactly one action sequence and every action the mask
allows leads to a legal move (tests/test_envs_hand_actions.py shows both on
random positions of every game, player count and option).

>>> from diloti.core.cards import Card, parse_cards
>>> from diloti.games.kontsina.envs import ENCODING, ITEM
>>> from diloti.games.kontsina.rules import KontsinaState
>>> hands = [parse_cards("7S KH 10C 2D"), parse_cards("4D KC AH 9S")]
>>> used = set(hands[0] + hands[1] + parse_cards("3C 4H 4S 7D"))
>>> s = KontsinaState.from_parts(dealer=1, hands=hands, table=parse_cards("3C 4H 4S 7D"),
...                              stock=[c for c in range(52) if c not in used])
>>> d = HandDecision(ENCODING, s.legal_moves())
>>> [ENCODING.describe(a) for a in d.legal_actions()]
['2D lay', '7S lay', '7S capture', '10C lay', '10C capture', 'KH lay']
>>> d.apply(2 * Card("7S") + 1)
>>> [ENCODING.describe(a) for a in d.legal_actions()]
['item 3C', 'item 7D']
>>> d.apply(ITEM + Card("3C"))
>>> [ENCODING.describe(a) for a in d.legal_actions()]
['item 4H', 'item 4S']
>>> d.apply(ITEM + Card("4S"))
Move.parse('7S x 3C 4S')
>>> d.encode(Move.parse("10C x 3C 7D"))
[73]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, SupportsIndex, cast

from diloti.core._mypyc import mypyc_attr
from diloti.core.cards import BIT, NAMES
from diloti.core.moves import Move
from diloti.envs.actions import InvalidActionError, StepDecision


@mypyc_attr(native_class=False)  # compiled too, a plain dataclass (its fields are the games' functions)
@dataclass(frozen=True)
class HandEncoding:
    """One game's action ids: ``heads`` head ids (``head(move)`` gives a move's, ``describe_head`` says one in
    words), then, with ``items``, 52 item ids ``heads + card`` naming table cards."""

    game: str
    heads: int
    head: Callable[[Move], int]
    describe_head: Callable[[int], str]
    items: bool = False

    @property
    def num_actions(self) -> int:
        """The number of action ids."""
        return self.heads + (52 if self.items else 0)

    def describe(self, action: int) -> str:
        """What an action id means, in words (the same in every position)."""
        n = self.num_actions
        if isinstance(action, bool) or not 0 <= action < n:
            raise InvalidActionError(f"invalid action {action!r} for {self.game}: expected 0..{n - 1}")
        if action >= self.heads:
            return f"item {NAMES[action - self.heads]}"
        return self.describe_head(action)


def _next_item(items: int, chosen: int) -> int:
    """The lowest item card after the last one chosen (0: none left)."""
    rest = items & ~((1 << chosen.bit_length()) - 1)
    return rest & -rest


@mypyc_attr(allow_interpreted_subclasses=True)  # as StepDecision's (copy and pickle)
class HandDecision(StepDecision):
    """One move of a one-card game being chosen in steps (see the module's description).

    :attr:`head` is -1 before the head is chosen; :attr:`chosen` the 52-bit set of item cards chosen since.
    """

    FIELDS: ClassVar[tuple[str, ...]] = ("encoding", "item")
    __slots__ = FIELDS
    encoding: HandEncoding
    item: int

    def __init__(self, encoding: HandEncoding, legal: Sequence[Move]) -> None:
        groups: dict[int, list[tuple[int, Move]]] = {}
        head = encoding.head
        for m in legal:
            groups.setdefault(head(m), []).append((m[3], m))
        self.encoding = encoding
        self.item = encoding.heads  # the first item id
        self._begin(groups)

    @property
    def num_actions(self) -> int:
        """The number of action ids of the decision's game."""
        return self.encoding.num_actions

    def describe(self, action: SupportsIndex) -> str:
        """What ``action`` means in the decision's game, in words."""
        return self.encoding.describe(cast(Any, action))  # as given: the encoding refuses a bool

    @property
    def actions(self) -> list[int]:
        """The actions allowed at this step, ascending (the decision's own list: do not change it)."""
        acts = self._actions
        if acts is None:
            nxt: set[int] = set()
            item = self.item
            for items, m in self.candidates:
                bit = _next_item(items, self.chosen)
                if not bit:  # never: no capture's cards are the start of another's (see the module)
                    raise InvalidActionError(f"move {m} cannot be told apart from the other moves with its head")
                nxt.add(item + bit.bit_length() - 1)
            acts = sorted(nxt)
            self._actions = acts
        return acts

    def _take(self, bit: int) -> None:
        self.candidates = [c for c in self.candidates if _next_item(c[0], self.chosen) == bit]
        self.chosen |= bit
        self._actions = None

    def apply(self, action: SupportsIndex) -> Move | None:
        """Take ``action``; the move once it is the only one left, else None."""
        a = int(action)  # any integer (numpy's too): compiled, an int parameter would refuse numpy's
        if a not in self.actions:
            raise self._illegal(a)
        self.steps += 1
        if self.head < 0:
            self.head = a
            self.candidates = self._groups[a]
            self._actions = None
        else:
            self._take(BIT[a - self.item])
        while len(self.candidates) > 1 and len(self.actions) == 1:
            self._take(BIT[self.actions[0] - self.item])  # the same next item in every move: no step
        return self.candidates[0][1] if len(self.candidates) == 1 else None

    def encode(self, move: Move) -> list[int]:
        """The action sequence that chooses ``move`` from the start (this decision is not changed)."""
        h = self.encoding.head(move)
        self._group(move, h)
        d = self.restart()
        out = [h]
        got = d.apply(h)
        while got is None:
            bit = _next_item(move[3], d.chosen)
            out.append(self.item + bit.bit_length() - 1)
            got = d.apply(out[-1])
        return out


__all__ = ["HandDecision", "HandEncoding"]
