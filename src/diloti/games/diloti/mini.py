"""Mini Diloti: Diloti's rules on a deal small enough to solve exactly (docs/RESEARCH.md, "Mini Diloti").

A round of mini Diloti deals, from a reduced deck, one hand to each of two players and a first table; the
cards left over are set aside face down, seen by nobody, and there is no later deal. By default
(:data:`MINI`) the deck is the aces, twos and threes of clubs and diamonds, a hand is 2 cards and the table
1, so one card is set aside. Play follows Diloti's rules exactly: Diloti's own :class:`State` plays the round
from the deal on (captures, declarations and the declarer's obligation, the xeri, the last capturer's
sweep, the score: 4 for more cards, 1 an ace, 1 for the 2 of clubs, 10 a xeri), and the rules' options
that act on play (``forced_capture``, ``soy``, the liberal options, ``self_raise``, the xeri options,
``target``) apply as in Diloti. The options about dealing (``dealer_sees_bottom``, ``face_card_redeal``)
are refused: this deal has no stock and, by default, no face card.

Chance is finite and small: each hand, then the table, is dealt one card at a time in increasing card
order, each card with probability in proportion to the hands it can still be the lowest card of, so that
every hand is equally likely and each is reached by one chance path (not one per order of its cards).

>>> r = MiniRound.new(explicit_chance=True)
>>> r.chance.kind, r.chance.to, [str(c) for c in r.chance.outcomes], r.chance_outcome_ids()[0]
('hands', 1, ['AC', 'AD', '2C', '2D', '3C'], (0, 0.3333333333333333))
>>> for card in ("AC", "3D", "AD", "2C", "3C"):
...     r.deal(card)
>>> r.hands, r.table, r.phase.label, r.turn
([[Card('AD'), Card('2C')], [Card('AC'), Card('3D')]], [Card('3C')], 'play', 1)
>>> r.view(1).unseen  # the other hand and the card set aside
(Card('AD'), Card('2C'), Card('2D'))
>>> while not r.is_over:
...     r.push(r.legal_moves()[0])
>>> sum(r.points()) >= 4
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from math import comb
from typing import Any

from diloti.core.cards import ALL_MASK, NAMES, Card, mask_of, parse_cards
from diloti.core.chance import HANDS, TABLE, TableChance
from diloti.core.errors import InvalidPositionError, NoSuchOutcomeError, OptionsError
from diloti.core.phase import Phase
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View


@dataclass(frozen=True)
class Deal:
    """What a mini round deals: its deck (card order), a hand's size and the first table's.

    >>> Deal.parse("AC AD 2C 2D 3C 3D 4C 4D", 2, 2).set_aside
    2
    >>> Deal.parse("AC AD", 2, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    diloti.core.errors.InvalidPositionError: invalid mini deal: 2 hands of 2 and a table of 1 need 5 cards, ...
    """

    cards: tuple[Card, ...]
    hand: int = 2
    table: int = 1
    players: int = 2

    @classmethod
    def parse(cls, cards: str, hand: int = 2, table: int = 1) -> Deal:
        """A deal from its deck as card names (``"AC AD 2C"``), a hand's size and the table's."""
        deck = tuple(sorted(set(parse_cards(cards))))
        if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
            raise InvalidPositionError(f"invalid mini deal hand={hand!r}: expected a positive number of cards")
        if isinstance(table, bool) or not isinstance(table, int) or table < 0:
            raise InvalidPositionError(f"invalid mini deal table={table!r}: expected 0 or more cards")
        need = 2 * hand + table
        if need > len(deck):
            raise InvalidPositionError(f"invalid mini deal: 2 hands of {hand} and a table of {table} need {need} "
                                       f"cards, the deck has {len(deck)}")
        return cls(deck, hand, table)

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    @property
    def set_aside(self) -> int:
        """The cards nobody sees all round."""
        return len(self.cards) - self.players * self.hand - self.table

    def describe(self) -> str:
        return f"{' '.join(NAMES[c] for c in self.cards)}, hands of {self.hand}, a table of {self.table}"


#: The default mini deal: AC AD 2C 2D 3C 3D, hands of 2, a table of 1 (one card set aside).
MINI = Deal.parse("AC AD 2C 2D 3C 3D", 2, 1)


@dataclass(frozen=True)
class MiniView(View):
    """A seat's view of a mini round: Diloti's, with the deal's deck, so that the unseen cards are those of the
    other hands and the cards set aside (never the cards outside the deck)."""

    deck: int = ALL_MASK

    @property
    def unseen_mask(self) -> int:
        return self.deck & ~self.seen_mask


_VIEW_FIELDS = tuple(f.name for f in fields(View))


def check_mini_options(options: Options) -> Options:
    """``options`` if mini Diloti can play them; an :class:`OptionsError` naming a dealing option it cannot."""
    for name in ("dealer_sees_bottom", "face_card_redeal"):
        if getattr(options, name) != getattr(Options(), name):
            raise OptionsError(f"invalid option {name} for mini Diloti: its deal has no stock and no redeal")
    return options


class MiniRound:
    """One round of mini Diloti: its deal (seeded, or explicit chance), then Diloti's :class:`State` playing it.

    Once dealt, everything but :meth:`view` and :meth:`copy` is the state's (read through it).
    """

    SWEEPS = True
    GAME = "diloti"  # the rules are Diloti's: its players and action encoding play a mini round

    def __init__(self, players: int = 2, options: Options | None = None, dealer: int = 0, deal: Deal = MINI) -> None:
        if players != 2:
            raise InvalidPositionError(f"invalid number of players {players!r} for mini Diloti: expected 2")
        self.players = players
        self.options = check_mini_options(options or Options())
        self.dealer = dealer % players
        self.deal_cards = deal
        self.seed = 0
        self.dealt: list[Card] = []  # the cards dealt so far, in dealing order (each batch in card order)
        self.round: State | None = None

    @classmethod
    def new(cls, players: int = 2, options: Options | None = None, dealer: int = 0, seed: int | None = None,
            deal: Deal = MINI, explicit_chance: bool = False) -> MiniRound:
        """A mini round dealt from ``seed`` (a random one if None), or, with ``explicit_chance``, one whose
        cards the caller deals (:attr:`chance`, :meth:`deal`)."""
        r = cls(players, options, dealer, deal)
        r.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        if not explicit_chance:
            rng = random.Random(f"mini/{r.seed}")  # a str seed: the same deal in every process
            while r.round is None:
                r.deal_random(rng)
        return r

    # ------------------------------------------------------------ the deal
    def _batch(self) -> tuple[int | str, int, int]:
        """The batch being dealt: who it is for, its first place in :attr:`dealt`, its size."""
        d, n = self.deal_cards, len(self.dealt)
        if n < self.players * d.hand:
            i = n // d.hand
            return (self.dealer + 1 + i) % self.players, i * d.hand, d.hand
        return "table", self.players * d.hand, d.table

    def _weighted(self) -> list[tuple[Card, int]]:
        # Each undealt card above the batch's last, weighed by the ways to finish the batch with it as its next.
        _, start, size = self._batch()
        left = size - (len(self.dealt) - start)
        low = self.dealt[-1] if len(self.dealt) > start else -1
        undealt = [c for c in self.deal_cards.cards if c > low and c not in self.dealt]
        out = [(c, comb(len(undealt) - i - 1, left - 1)) for i, c in enumerate(undealt)]
        return [(c, w) for c, w in out if w]

    @property
    def chance(self) -> TableChance | None:
        """The next card to deal (its outcomes weighed: a :class:`TableChance`), or None once dealt."""
        if self.round is not None:
            return None
        to, start, size = self._batch()
        weighted = self._weighted()
        return TableChance(TABLE if to == "table" else HANDS, to, tuple(c for c, _ in weighted),
                           size - (len(self.dealt) - start), tuple(w for _, w in weighted))

    def chance_outcomes(self) -> list[tuple[Card, float]]:
        event = self.chance
        return [] if event is None else list(zip(event.outcomes, event.probabilities, strict=True))

    def chance_outcome_ids(self) -> list[tuple[int, float]]:
        return [(int(c), p) for c, p in self.chance_outcomes()]

    def deal(self, card: Card | int | str) -> None:
        """Deal ``card`` as the next chance outcome; a card that is not one is refused, naming the outcomes."""
        c = Card(card)
        weighted = self._weighted() if self.round is None else []
        if not any(c == o for o, _ in weighted):
            raise NoSuchOutcomeError(f"cannot deal {NAMES[c]}: the outcomes are "
                                     f"{' '.join(NAMES[o] for o, _ in weighted) or 'none (the round is dealt)'}")
        self.dealt = [*self.dealt, c]
        d = self.deal_cards
        if len(self.dealt) == self.players * d.hand + d.table:
            hands: list[list[Card]] = [[] for _ in range(self.players)]
            for i in range(self.players):
                hands[(self.dealer + 1 + i) % self.players] = self.dealt[i * d.hand:(i + 1) * d.hand]
            self.round = State.from_parts(players=self.players, options=self.options, dealer=self.dealer,
                                          hands=hands, table=self.dealt[self.players * d.hand:], stock=(),
                                          seed=self.seed, check=False)

    def deal_random(self, rng: random.Random) -> Card:
        """Deal the next card at random with its probability; return it."""
        weighted = self._weighted()
        x = rng.random() * sum(w for _, w in weighted)
        card = weighted[-1][0]
        for c, w in weighted:
            if x < w:
                card = c
                break
            x -= w
        self.deal(card)
        return card

    # ------------------------------------------------------ the round in play
    @property
    def phase(self) -> Phase:
        return Phase.CHANCE if self.round is None else self.round.phase

    @property
    def turn(self) -> int:
        return (self.dealer + 1) % self.players if self.round is None else self.round.turn

    @property
    def first_table(self) -> tuple[Card, ...]:
        return () if self.round is None else self.round.first_table

    @property
    def history(self) -> list[Any]:
        # No move is played while the cards are dealt (the research tensors' recall part reads it at every step).
        return [] if self.round is None else self.round.history

    @property
    def game(self) -> str:
        return self.GAME

    def _dealt_round(self) -> State:
        if self.round is None:
            raise InvalidPositionError(f"the mini round is being dealt: {self.describe()}")
        return self.round

    def __getattr__(self, name: str) -> Any:
        # The dealt round's own (hands, table, push, legal_moves, points ...): called only for names not found here.
        if name.startswith("__") or name == "round":
            raise AttributeError(name)
        return getattr(self._dealt_round(), name)

    def _partial(self) -> State:
        # While the cards are dealt: the hands and table dealt so far, at a chance point (for views).
        d, n = self.deal_cards, self.players * self.deal_cards.hand
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        for i in range(self.players):
            hands[(self.dealer + 1 + i) % self.players] = self.dealt[i * d.hand:min((i + 1) * d.hand, n)]
        s = State.from_parts(players=self.players, options=self.options, dealer=self.dealer, hands=hands,
                             table=self.dealt[n:], stock=(), seed=self.seed, check=False)
        s.phase = Phase.CHANCE
        return s

    def view(self, seat: int, scores: tuple[int, int] = (0, 0)) -> MiniView:
        """What ``seat`` may know: Diloti's view of the round, with the deal's deck (:class:`MiniView`)."""
        v = (self._partial() if self.round is None else self.round).view(seat, scores)
        return MiniView(**{name: getattr(v, name) for name in _VIEW_FIELDS}, deck=self.deal_cards.mask)

    def copy(self, stack: bool = False) -> MiniRound:
        r = MiniRound.__new__(MiniRound)
        r.__dict__.update(self.__dict__)
        r.round = None if self.round is None else self.round.copy(stack)
        return r

    def __deepcopy__(self, memo: dict[int, Any]) -> MiniRound:
        return self.copy(stack=True)

    def key(self) -> tuple[Any, ...]:
        return (self.deal_cards, self.dealer, tuple(self.dealt), None if self.round is None else self.round.key())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MiniRound) and self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable, as the state

    def describe(self) -> str:
        if self.round is not None:
            return self.round.describe()
        return f"[mini deal of {self.deal_cards.describe()}; dealt {' '.join(NAMES[c] for c in self.dealt) or '-'}]"


__all__ = ["MINI", "Deal", "MiniRound", "MiniView", "check_mini_options"]
