"""Fixed action encodings for Diloti's parent games: Xeri's card, Kontsina's card, kind and capture.

Each game has its own flat ``Discrete`` space whose ids mean the same thing in
every position:

- **Xeri** (:data:`XERI_ACTIONS` = 52): action ``c`` plays card ``c`` (card
  index 0..51, as :mod:`diloti.core.cards` numbers them: ``AC AD AH AS 2C ...``).
  What it does follows from the rules: it takes the pile when it matches the
  top card or is a jack, else it goes on top. Every legal move is one action.
- **Kontsina** (:data:`KONTSINA_ACTIONS` = 156): a **head** ``2 * c`` lays
  card ``c``, ``2 * c + 1`` captures with it; while several captures share the
  head, **item** actions ``KONTSINA_ITEM + t`` name the table cards taken, in
  increasing card order, until one capture is left. An item that every
  capture still open takes next is taken without a step, so a step always
  offers two actions or more. No stop action is needed: no capture's cards
  are a part of another's with the same card (the numerals of a sum add up to
  the card's value, a match is one card of its rank). A lay, a capture with
  one way and most others take one step; the longest is a head and a few items.

Every legal move has exactly one action sequence and every action the mask
allows leads to a legal move (tests/test_envs_variant_actions.py shows both on
random positions of every player count and option).

>>> from diloti.core.cards import Card, parse_cards
>>> from diloti.games.kontsina.rules import KontsinaState
>>> hands = [parse_cards("7S KH 10C 2D"), parse_cards("4D KC AH 9S")]
>>> used = set(hands[0] + hands[1] + parse_cards("3C 4H 4S 7D"))
>>> s = KontsinaState.from_parts(dealer=1, hands=hands, table=parse_cards("3C 4H 4S 7D"),
...                              stock=[c for c in range(52) if c not in used])
>>> d = VariantDecision("kontsina", s.legal_moves())
>>> [describe("kontsina", a) for a in d.legal_actions()]
['2D lay', '7S lay', '7S capture', '10C lay', '10C capture', 'KH lay']
>>> d.apply(2 * Card("7S") + 1)
>>> [describe("kontsina", a) for a in d.legal_actions()]
['item 3C', 'item 7D']
>>> d.apply(KONTSINA_ITEM + Card("3C"))
>>> [describe("kontsina", a) for a in d.legal_actions()]
['item 4H', 'item 4S']
>>> d.apply(KONTSINA_ITEM + Card("4S"))
Move.parse('7S x 3C 4S')
>>> d.encode(Move.parse("10C x 3C 7D")), describe("xeri", 51)
([73], 'play KS')
"""

from __future__ import annotations

from collections.abc import Sequence

from diloti.core.cards import BIT, NAMES
from diloti.core.moves import CAPTURE, Move
from diloti.envs.actions import InvalidActionError, StepDecision

#: Xeri: the card played, by card index.
XERI_ACTIONS = 52
#: Kontsina: heads ``2 * card`` (lay) and ``2 * card + 1`` (capture), then ``KONTSINA_ITEM + card`` (a table card).
KONTSINA_HEADS = 104
KONTSINA_ITEM = KONTSINA_HEADS
KONTSINA_ACTIONS = KONTSINA_ITEM + 52
#: The number of action ids of each parent game.
NUM_VARIANT_ACTIONS = {"xeri": XERI_ACTIONS, "kontsina": KONTSINA_ACTIONS}


def variant_head(game: str, move: Move) -> int:
    """The head action of ``move`` in ``game`` (Xeri: its card; Kontsina: its card and kind).

    >>> variant_head("xeri", Move.parse("7S x 7D")), variant_head("kontsina", Move.parse("7S x 7D"))
    (27, 55)
    """
    card = move[0]
    assert card is not None
    if game == "xeri":
        return int(card)
    return 2 * card + (1 if move[1] == CAPTURE else 0)


def describe(game: str, action: int) -> str:
    """What an action id of ``game`` means, in words (the same in every position).

    >>> describe("xeri", 0), describe("kontsina", 1), describe("kontsina", KONTSINA_ITEM + 37)
    ('play AC', 'AC capture', 'item 10D')
    """
    n = NUM_VARIANT_ACTIONS[game]
    if isinstance(action, bool) or not 0 <= action < n:
        raise InvalidActionError(f"invalid action {action!r} for {game}: expected 0..{n - 1}")
    if game == "xeri":
        return f"play {NAMES[action]}"
    if action >= KONTSINA_ITEM:
        return f"item {NAMES[action - KONTSINA_ITEM]}"
    return f"{NAMES[action >> 1]} {'capture' if action & 1 else 'lay'}"


def _next_item(items: int, chosen: int) -> int:
    """The lowest item card after the last one chosen (0: none left)."""
    rest = items & ~((1 << chosen.bit_length()) - 1)
    return rest & -rest


class VariantDecision(StepDecision):
    """One move of Xeri or Kontsina being chosen in steps (see the module's description).

    :attr:`head` is -1 before the head is chosen; :attr:`chosen` the 52-bit set of item cards chosen since.
    """

    __slots__ = ("game",)

    def __init__(self, game: str, legal: Sequence[Move]) -> None:
        if game not in NUM_VARIANT_ACTIONS:
            raise InvalidActionError(f"invalid game {game!r}: expected one of {', '.join(NUM_VARIANT_ACTIONS)}")
        groups: dict[int, list[tuple[int, Move]]] = {}
        for m in legal:
            groups.setdefault(variant_head(game, m), []).append((m[3], m))
        self.game = game
        self._begin(groups)

    @property
    def num_actions(self) -> int:
        """The number of action ids of the decision's game (:data:`NUM_VARIANT_ACTIONS`)."""
        return NUM_VARIANT_ACTIONS[self.game]

    def describe(self, action: int) -> str:
        """What ``action`` means in the decision's game, in words (:func:`describe`)."""
        return describe(self.game, action)

    @property
    def actions(self) -> list[int]:
        """The actions allowed at this step, ascending (the decision's own list: do not change it)."""
        acts = self._actions
        if acts is None:
            nxt = set()
            for items, m in self.candidates:
                bit = _next_item(items, self.chosen)
                if not bit:  # never: no capture's cards are the start of another's (see the module)
                    raise InvalidActionError(f"move {m} cannot be told apart from the other moves with its head")
                nxt.add(KONTSINA_ITEM + bit.bit_length() - 1)
            acts = self._actions = sorted(nxt)
        return acts

    def _take(self, bit: int) -> None:
        self.candidates = [c for c in self.candidates if _next_item(c[0], self.chosen) == bit]
        self.chosen |= bit
        self._actions = None

    def apply(self, action: int) -> Move | None:
        """Take ``action``; the move once it is the only one left, else None."""
        action = int(action)
        if action not in self.actions:
            raise self._illegal(action)
        self.steps += 1
        if self.head < 0:
            self.head = action
            self.candidates = self._groups[action]
            self._actions = None
        else:
            self._take(BIT[action - KONTSINA_ITEM])
        while len(self.candidates) > 1 and len(self.actions) == 1:
            self._take(BIT[self.actions[0] - KONTSINA_ITEM])  # the same next item in every move: no step
        return self.candidates[0][1] if len(self.candidates) == 1 else None

    def encode(self, move: Move) -> list[int]:
        """The action sequence that chooses ``move`` from the start (this decision is not changed)."""
        h = variant_head(self.game, move)
        self._group(move, h)
        d = self.restart()
        out = [h]
        got = d.apply(h)
        while got is None:
            bit = _next_item(move[3], d.chosen)
            out.append(KONTSINA_ITEM + bit.bit_length() - 1)
            got = d.apply(out[-1])
        return out


__all__ = ["KONTSINA_ACTIONS", "KONTSINA_HEADS", "KONTSINA_ITEM", "NUM_VARIANT_ACTIONS", "XERI_ACTIONS",
           "VariantDecision", "describe", "variant_head"]
