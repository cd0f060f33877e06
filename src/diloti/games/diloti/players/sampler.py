"""Deal the hidden cards of a view at random, consistently with what it shows.

A *determinization* is a full :class:`~diloti.games.diloti.state.State` that agrees with a
view: the seat's own hand, the table, the captures and the history are as
shown; the unseen cards (``view.unseen``: other hands and stock) are dealt at
random in the right numbers, with

- every declaration owned by another seat backed by a card of its value in
  that seat's hand (the declarer's obligation);
- with the dealer-peek option, the bottom card the dealer saw kept last in
  the stock;
- a seat still to decide on a face-card redeal holding 5 or more face cards.

Deals are drawn uniformly, rejecting the ones that break a condition; after
many rejections the conditions are met by construction instead, so sampling
always ends.

>>> import random
>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=11)
>>> v = s.view(0)
>>> d = sample_state(v, random.Random(1))
>>> d.hands[0] == s.hands[0], len(d.hands[1]), d.stock_size, d.table == s.table
(True, 6, 36, True)
"""

from __future__ import annotations

import random

from diloti.core.cards import VALUE, Card, mask_of
from diloti.core.shuffling import shuffle
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View

_TRIES = 50


def _constraints(view: View) -> list[tuple[int, int]]:
    """(seat, value) pairs: ``seat`` must hold a card of ``value``."""
    return [(p.owner, p.value) for p in view.declarations if p.owner != view.seat]


def _ok(hands: list[list[Card]], need: list[tuple[int, int]], faces: tuple[int, ...]) -> bool:
    for seat, value in need:
        if not any(VALUE[c] == value for c in hands[seat]):
            return False
    return all(sum(1 for c in hands[seat] if c >= 40) >= 5 for seat in faces)


class Worlds:
    """Samples worlds for one view: what every world shares is worked out once.

    ``Worlds(view).sample(rng)`` draws the same world as ``sample_state(view, rng)``
    (the same random numbers in the same order), several times faster.
    """

    __slots__ = ("bottom", "faces", "hand", "need", "others", "sizes", "stock_cards", "template", "unseen", "view")

    def __init__(self, view: View) -> None:
        self.view = view
        unseen = list(view.unseen)
        bottom = view.bottom if view.bottom is not None and view.bottom in unseen else None
        if bottom is not None and view.stock_size:
            unseen.remove(bottom)
        else:
            bottom = None
        self.unseen = unseen
        self.bottom = bottom
        self.stock_cards = view.stock_size - (1 if bottom is not None else 0)  # the bottom card is added last
        self.sizes = list(view.hand_sizes)
        self.need = _constraints(view)
        self.faces = tuple(s for s in view.pending if s != view.seat)
        self.others = [s for s in range(view.players) if s != view.seat]
        self.hand = list(view.hand)
        t = State.from_parts(
            players=view.players, options=view.options, dealer=view.dealer, turn=view.turn,
            hands=[[] for _ in range(view.players)], table=view.table, declarations=view.declarations,
            captured=view.captured, sweeps=view.sweeps, last_capturer=view.last_capturer,
            plays=view.plays, bottom=view.bottom, check=False,
        )
        # What from_parts would infer from the dealt cards, the view knows.
        t.phase = view.phase
        t.pending = tuple(view.pending)
        t.deal_no = view.deal_no
        t.history = list(view.history)
        t.first_table = view.first_table
        self.template = t

    def deal(self, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """The hands (own hand as seen) and the stock (top first) of one random deal."""
        need, faces, sizes, others = self.need, self.faces, self.sizes, self.others
        hands: list[list[Card]] = [[] for _ in range(self.view.players)]
        hands[self.view.seat] = self.hand.copy()
        for attempt in range(_TRIES + 1):
            pool = self.unseen.copy()
            for s in others:
                hands[s] = []
            if attempt == _TRIES:
                pool = _force(pool, need, faces, hands, rng)
            shuffle(rng, pool)  # rng.shuffle(pool), compiled
            pos = 0
            for s in others:
                k = sizes[s] - len(hands[s])
                hands[s] = hands[s] + pool[pos:pos + k]
                pos += k
            # The stock's own cards: unseen cards beyond the hands and the stock (a smaller deal's cards set
            # aside, diloti.games.diloti.mini) stay out of the world, as they stay out of the round.
            stock = pool[pos:pos + self.stock_cards]
            if attempt == _TRIES or not (need or faces) or _ok(hands, need, faces):
                break
        if self.bottom is not None:
            stock.append(self.bottom)
        return hands, stock

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with the view, its hidden cards dealt at random."""
        hands, stock = self.deal(rng)
        return self.template.with_hidden(hands, stock, rng.getrandbits(62))


def _force(pool: list[Card], need: list[tuple[int, int]], faces: tuple[int, ...],
           hands: list[list[Card]], rng: random.Random) -> list[Card]:
    """Give each constrained seat the cards it must hold; the rest of the pool is returned."""
    for s, value in need:
        if any(VALUE[c] == value for c in hands[s]):
            continue
        choices = [c for c in pool if VALUE[c] == value]
        if choices:
            c = rng.choice(choices)
            pool.remove(c)
            hands[s].append(c)
    for s in faces:
        while sum(1 for c in hands[s] if c >= 40) < 5:
            choices = [c for c in pool if c >= 40]
            if not choices:
                break
            c = rng.choice(choices)
            pool.remove(c)
            hands[s].append(c)
    return pool


def sample_state(view: View, rng: random.Random, check: bool = False) -> State:
    """A full state consistent with ``view``, its hidden cards dealt at random.

    To draw many worlds from one view, :class:`Worlds` does the shared work once.
    """
    world = Worlds(view).sample(rng)
    if check:
        world.validate()
    return world


def consistent(view: View, state: State) -> list[str]:
    """Every way ``state`` contradicts ``view`` (empty if it is a possible truth)."""
    errors = []
    seat = view.seat
    if tuple(state.hands[seat]) != tuple(view.hand):
        errors.append("own hand differs")
    if tuple(state.table) != tuple(view.table) or tuple(state.declarations) != tuple(view.declarations):
        errors.append("table differs")
    if tuple(len(h) for h in state.hands) != view.hand_sizes:
        errors.append("hand sizes differ")
    if state.stock_size != view.stock_size:
        errors.append("stock size differs")
    hidden = mask_of(c for s, h in enumerate(state.hands) if s != seat for c in h) | mask_of(state.remaining_stock)
    if hidden != view.unseen_mask:
        errors.append("hidden cards are not the unseen cards")
    for s, value in _constraints(view):
        if not any(VALUE[c] == value for c in state.hands[s]):
            errors.append(f"seat {s} owns a declaration of {value} without a card of {value}")
    if view.bottom is not None and view.bottom in view.unseen and state.remaining_stock[-1:] != [view.bottom]:
        errors.append("the bottom card is not last in the stock")
    for s in view.pending:
        if s != seat and sum(1 for c in state.hands[s] if c >= 40) < 5:
            errors.append(f"seat {s} may demand a redeal without 5 face cards")
    return errors
