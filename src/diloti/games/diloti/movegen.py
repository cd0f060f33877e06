"""Move generation: the legal moves of a position, each exactly once.

The table's shape (the values of its loose numerals and of its declarations)
decides which combinations a played value can make; :mod:`diloti.games.diloti.table`
works those out once per shape and options and caches them, so generating
moves here is mostly looking up and filtering by the hand and by who owns
which declaration. Under the standard rules a mover who owns no declaration
gets its moves straight from the shape's analysis (the sets of loose numerals
by sum, the captures of each value), looking only at the values its hand holds.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, Final

from diloti.core.cards import BIT, CARDS, VALUE, Card, mask_of
from diloti.core.moves import CAPTURE, GROUP, KEEP, LAY, PLAIN, REDEAL, Declaration, Move, MoveKind
from diloti.core.phase import Phase
from diloti.games.diloti.bigtable import LAZY_ITEMS, generate_lazy
from diloti.games.diloti.options import Options
from diloti.games.diloti.table import Analysis, ShapeCache, Use, shapes_of

PLAY, DECIDE = Phase.PLAY, Phase.DECIDE
KINDS = tuple(MoveKind)
_VALUE_OF = VALUE.__getitem__

# Compiled, a Final module constant is a C variable: the loops below read these instead of the imported
# names (each a dictionary lookup by name).
_VALUES: Final[tuple[int, ...]] = VALUE
_CARDS: Final[tuple[Card, ...]] = CARDS
# Typed as objects: a compiled read of an int table unboxes it, and appending it to a list then boxes a new int
# (most card bits are above CPython's cached small ints); read as objects, the list shares the table's.
_BITS: Final[tuple[Any, ...]] = BIT
_COUNT_UNIT: Final[tuple[int, ...]] = tuple(1 << 3 * (VALUE[i] - 1) if VALUE[i] else 0 for i in range(52))
_MOVE: Final = Move
_NEW_MOVE: Final = tuple.__new__
_PLAY_PHASE: Final = Phase.PLAY
_DECIDE_PHASE: Final = Phase.DECIDE
_LAY: Final = LAY
_CAPTURE: Final = CAPTURE
_KINDS: Final[tuple[MoveKind, ...]] = KINDS

# Moves are immutable values, so the most frequent ones are made once and shared: a card laid (four moves
# in ten, which the card alone decides) and a move that takes or builds on one table card (three in ten),
# by (kind, card, table card), checked against the value on reading. Fixed size: no growth with play.
_LAYS: Final[tuple[Move, ...]] = tuple(tuple.__new__(Move, (CARDS[i], LAY, VALUE[i], 0)) for i in range(52))
_ONE: Final[list[Move | None]] = [None] * (4 * 52 * 52)


def _move(c: int, k: int, value: int, r: int) -> Move:
    """The move ``(CARDS[c], KINDS[k], value, r)`` for k in CAPTURE, PLAIN, GROUP; a shared one when ``r`` is
    one card."""
    if r & (r - 1) or not r:
        return _NEW_MOVE(_MOVE, (_CARDS[c], _KINDS[k], value, r))
    i = (k * 52 + c) * 52 + r.bit_length() - 1
    m = _ONE[i]
    if m is None or m[2] != value:
        m = _NEW_MOVE(_MOVE, (_CARDS[c], _KINDS[k], value, r))
        _ONE[i] = m
    return m


def _filter_uses(raw: tuple[Use, ...], own_bit: int, raisable: int, w: int) -> list[Use]:
    """The uses of a numeral open to a mover who owns a pile or may raise one."""
    out = []
    for kind, val, im, need, req in raw:
        if own_bit:
            if kind == CAPTURE:
                if not im & own_bit:
                    need = w  # the declarer keeps a card for the declaration
            elif req < 0 or not im & own_bit or (req and not req & raisable):
                continue
            elif kind == GROUP and val != w:
                continue  # the owned pile can never end up inside a group of another value
            elif kind == PLAIN and not raisable & own_bit:
                # A declarer may not raise (a liberal raise could take its own pile in) unless
                # self-raise lets it raise its own plain pile.
                continue
        elif req > 0 and not req & raisable:
            continue
        out.append((kind, val, im, need, req))
    return out


def is_large(table: list[Card], declarations: list[Declaration]) -> bool:
    """Whether a table is left to :func:`diloti.games.diloti.bigtable.generate_lazy` (it has more than
    :data:`~diloti.games.diloti.bigtable.LAZY_ITEMS` loose cards and piles): its moves may be too many to list
    at once, so :meth:`State.generate_legal_moves` hands them out one at a time."""
    return len(table) + len(declarations) > LAZY_ITEMS


def generate(phase: Phase, turn: int, hand: list[Card], table: list[Card], declarations: list[Declaration],
             options: Options) -> list[Move]:
    """Every legal move exactly once, in a fixed order: the engine's move generator.

    ``hand`` is the hand of the seat to move (``turn``); ``table`` the loose
    cards in card order. :meth:`diloti.games.diloti.state.State.legal_moves` calls it.
    A large table (:func:`is_large`) is listed from the lazy generator.

    >>> from diloti.core.cards import parse_cards
    >>> from diloti.games.diloti.options import Options
    >>> [str(m) for m in generate(Phase.PLAY, 0, parse_cards("8H KC"), parse_cards("3D 5S KD"), [], Options())]
    ['8H x 3D 5S', '8H', 'KC x KD']
    """
    if phase is not _PLAY_PHASE:  # enum members: identity is equality
        if phase is _DECIDE_PHASE:
            return [Move(None, KEEP, 0, 0), Move(None, REDEAL, 0, 0)]
        return []
    if len(table) + len(declarations) > LAZY_ITEMS:  # see is_large
        n = bisect_left(table, 40)
        if _few_subsets(table, n):
            # The shape cache's way (a cache of its own: such shapes seldom come again) is many times
            # faster here; sorted into the lazy generator's order, it gives the same list.
            moves = _generate(turn, hand, table, declarations, options, ShapeCache(options))
            return in_lazy_order(moves, hand, mask_of(table[:n]), declarations)
        return list(generate_lazy(turn, hand, table, declarations, options))
    return _generate(turn, hand, table, declarations, options, shapes_of(options))


def _generate(turn: int, hand: list[Card], table: list[Card], declarations: list[Declaration], options: Options,
              shapes: ShapeCache) -> list[Move]:
    """:func:`generate` in the play phase through the shape cache ``shapes``."""
    n = bisect_left(table, 40)
    numerals = table[:n]
    items: list[Any] = []  # ints, appended as the objects read (see _BITS)
    counts = 0  # the numerals' values as counts, 3 bits a value: the loose table's shape as one int
    for i in range(n):
        c: int = table[i]
        items.append(_BITS[c])
        counts += _COUNT_UNIT[c]
    own_bit = 0
    raisable = 0
    key: object = counts
    if declarations:
        psig = []
        soy_opt = options.soy
        for j, (pmask, pvalue, kind, owner) in enumerate(declarations):
            items.append(pmask)
            psig.append((pvalue, int(kind), soy_opt and kind == GROUP and pmask.bit_count() == 2))
            if owner == turn:
                own_bit = 1 << (n + j)
                if kind == PLAIN and options.self_raise:
                    raisable |= own_bit
            elif kind == PLAIN and (owner - turn) & 1:
                raisable |= 1 << (n + j)
        sig: tuple[object, ...] | None = (tuple(map(_VALUE_OF, numerals)), tuple(psig))
        key = sig
    else:
        sig = None  # built only when the shape is not in the cache (the numerals are sorted, so their
        # values are the counts in order: the int stands for the tuple)
    entry = shapes.young.get(key)
    held = 1 << 11  # "need 11": no condition
    twice = 0  # values the hand holds twice or more
    for c in hand:
        b = 1 << _VALUES[c]
        if held & b:
            twice |= b
        held |= b
    faces = table[n:]
    if shapes.standard:
        if entry is None:
            entry = shapes.analysis(sig or (tuple(map(_VALUE_OF, numerals)), ()), key)
        if own_bit:
            w = declarations[own_bit.bit_length() - 1 - n].value
            return _standard_declarer(hand, faces, items, entry[22], held, twice, own_bit, w, raisable,
                                      options.three_faces_stay)
        return _standard(hand, faces, items, entry[22], held, twice, raisable, options.three_faces_stay)
    memo: dict[int, int] = {0: 0}
    out: list[Move] = []
    done: dict[int, list[Move]] = {}  # a value's moves, when the hand holds it twice or more
    w = declarations[own_bit.bit_length() - 1 - n].value if own_bit else 0
    for card in hand:
        ci: int = card  # unboxed once: Card is an int subclass, a Python class to mypyc
        v = _VALUES[ci]
        if not v:
            _face_moves(card, faces, not own_bit, options.three_faces_stay, out)
            continue
        dup = twice >> v & 1
        if dup:
            twin = done.get(v)
            if twin is not None:
                out += [_again(card, m) for m in twin]
                continue
            h = held
        else:
            h = held ^ 1 << v
        slot = v if own_bit or raisable else 11 + v
        uses: Any = entry[slot] if entry is not None else None
        if uses is None:
            if sig is None:
                sig = (tuple(map(_VALUE_OF, numerals)), ())
            entry = shapes.fill(sig, held, entry, key)  # every value of the hand at once
            uses = entry[slot]
        if slot == v:
            uses = _filter_uses(uses, own_bit, raisable, w)
        start = len(out)
        for k, val, im, need, _ in uses:
            if h >> need & 1:
                r = memo.get(im)
                if r is None:
                    r = 0
                    x = im
                    while x:
                        low = x & -x
                        r |= items[low.bit_length() - 1]
                        x ^= low
                    memo[im] = r
                out.append(_move(ci, k, val, r) if k else _LAYS[ci])
        if dup:
            done[v] = out[start:]
    return out


def _again(card: Card, m: Move) -> Move:
    """The move ``m`` made with ``card`` instead (a card of the same value)."""
    kind = m[1]
    return _LAYS[card] if kind == _LAY else _move(card, int(kind), m[2], m[3])


def _face_moves(card: Card, faces: list[Card], may_lay: bool, three_stay: bool, out: list[Move]) -> None:
    """The moves of a face card: it takes one of its rank (all three, if three stay), else it is laid."""
    # The table's face cards are sorted: a slice holds those of the card's rank.
    first = last = 0
    if faces:
        first = bisect_left(faces, card & ~3)
        last = bisect_left(faces, (card | 3) + 1, first)
    if first == last:
        if may_lay:
            out.append(_LAYS[card])
    elif last - first == 3 and three_stay:
        out.append(_NEW_MOVE(_MOVE, (card, _CAPTURE, 0, mask_of(faces[first:last]))))
    else:
        for c in faces[first:last]:
            out.append(_move(card, 1, 0, BIT[c]))


def _standard(hand: list[Card], faces: list[Card], items: list[int], ana: Analysis, held: int, twice: int,
              raisable: int, three_stay: bool) -> list[Move]:
    """The moves under the standard rules of a mover who owns no declaration, read straight from the
    shape's analysis (the same moves as raw_standard's uses filtered for such a mover).

    Per numeral v: its captures, then by each value g the rest of the hand still holds, in ascending
    order, what needs a card of g (the groups of v when g == v; plain declarations of g, raises to g
    and groups of g otherwise), then its lay.
    """
    bysum, clos, rais, sums = ana
    memo: dict[int, int] = {0: 0}
    out: list[Move] = []
    done: dict[int, list[Move]] = {}
    if rais and raisable:
        rais = tuple([(bit, pv) for bit, pv in rais if bit & raisable])
        for _, pv in rais:
            sums |= 1 << pv
    else:
        rais = ()
    held &= 0x7FE  # the values 1..10 held
    for card in hand:
        ci: int = card  # unboxed once: Card is an int subclass, a Python class to mypyc
        v = _VALUES[ci]
        if not v:
            if faces:
                rank = ci >> 2
                for c in faces:
                    if c >> 2 == rank:
                        _face_moves(card, faces, True, three_stay, out)
                        break
                else:  # no face card of its rank on the table (the usual case)
                    out.append(_LAYS[ci])
            else:
                out.append(_LAYS[ci])
            continue
        if twice >> v & 1:
            twin = done.get(v)
            if twin is not None:
                out += [_again(card, m) for m in twin]
                continue
            needs = held
            start = len(out)
        else:
            needs = held & ~(1 << v)
            start = -1
        caps = clos[v]
        if caps:
            for im in caps:
                r = _taken(im, items, memo)
                out.append(_move(ci, 1, v, r))
            needs &= sums << v | 1 << v  # a card of g > v is needed only if something sums to g - v
        else:
            needs &= sums << v
        while needs:
            low = needs & -needs
            needs ^= low
            g = low.bit_length() - 1
            if g == v:
                for im in caps:  # a group of v's: the card and what it could capture
                    out.append(_move(ci, 3, v, _taken(im, items, memo)))
                continue
            need = g - v
            pcs = bysum[need]
            for im in pcs:  # a plain declaration of g
                r = _taken(im, items, memo)
                out.append(_move(ci, 2, g, r))
            for bit, pv in rais:  # a raise to g
                if pv == need:
                    r = items[bit.bit_length() - 1]  # one item
                    out.append(_move(ci, 2, g, r))
            others = clos[g]  # a group of g: the card with cards summing to g - v, or raising a pile to g
            if not others:
                continue
            if len(others) == 1 and len(pcs) == 1 and not rais:  # the usual case: nothing to deduplicate
                u = others[0]
                pc = pcs[0]
                if not u & pc:
                    im = u | pc
                    r = _taken(im, items, memo)
                    out.append(_move(ci, 3, g, r))
                continue
            found = {u | pc: 0 for pc in pcs for u in others if not u & pc}
            for bit, pv in rais:
                if pv == need:
                    for u in others:
                        if not u & bit:
                            found[u | bit] = 0
            for im in found:
                r = _taken(im, items, memo)
                out.append(_move(ci, 3, g, r))
        out.append(_LAYS[ci])
        if start >= 0:
            done[v] = out[start:]
    return out

def _standard_declarer(hand: list[Card], faces: list[Card], items: list[int], ana: Analysis, held: int,
                       twice: int, own_bit: int, w: int, raisable: int, three_stay: bool) -> list[Move]:
    """The moves under the standard rules of a mover who owns the declaration ``own_bit`` of value ``w``
    (the same moves as raw_standard's uses filtered by _filter_uses).

    Such a mover captures (keeping a card of ``w`` unless the capture takes its own pile), raises its own
    plain pile if self-raise allows, or makes a group of ``w`` that takes its pile in; it neither lays nor
    starts a new plain declaration.
    """
    bysum, clos, rais, _ = ana
    rais = tuple([(bit, pv) for bit, pv in rais if bit & raisable]) if raisable else ()
    memo: dict[int, int] = {0: 0}
    out: list[Move] = []
    own_raisable = own_bit & raisable
    for card in hand:
        ci: int = card  # unboxed once: Card is an int subclass, a Python class to mypyc
        v = _VALUES[ci]
        if not v:
            if faces:
                _face_moves(card, faces, False, three_stay, out)
            continue
        # The values still held once this card is played.
        h = held if twice >> v & 1 else held ^ 1 << v
        keeps = h >> w & 1
        for im in clos[v]:
            if keeps or im & own_bit:
                r = _taken(im, items, memo)
                out.append(_move(ci, 1, v, r))
        if own_raisable and v + w <= 10 and h >> (v + w) & 1:
            r = items[own_bit.bit_length() - 1]
            out.append(_move(ci, 2, v + w, r))
        if not keeps or v > w:
            continue
        # A group of w that takes the own pile in.
        if v == w:
            found = [u for u in clos[w] if u & own_bit]
        else:
            need = w - v
            others = clos[w]
            found = list({u | pc: 0 for pc in bysum[need] for u in others if not u & pc})
            for bit, pv in rais:
                if pv == need:
                    for u in others:
                        if not u & bit:
                            m = u | bit
                            if m not in found:
                                found.append(m)
            found = [m for m in found if m & own_bit]
        for im in found:
            r = _taken(im, items, memo)
            out.append(_move(ci, 3, w, r))
    return out


def _taken(im: int, items: list[int], memo: dict[int, int]) -> int:
    """The table cards of the item mask ``im``: one item's read from ``items``, several worked out once a
    call (``memo``, which holds 0 for no item)."""
    if im and not im & (im - 1):
        return items[im.bit_length() - 1]
    r = memo.get(im)
    if r is None:
        r = memo[im] = _cards(im, items)
    return r


def _cards(im: int, items: list[int]) -> int:
    """The table cards of an item mask."""
    r = 0
    while im:
        low = im & -im
        r |= items[low.bit_length() - 1]
        im ^= low
    return r


# A large table goes the shape cache's way when its loose numerals have at most this many subsets summing
# to 10 or less (a cheap count): past it, the work of analysing the shape (every capture of every value)
# outgrows the lazy generator's walk.
SORTED_SUBSETS = 200


def _few_subsets(table: list[Card], n: int) -> bool:
    """Whether the ``n`` loose numerals of ``table`` have at most :data:`SORTED_SUBSETS` subsets summing to
    10 or less (counted by sum, without listing them)."""
    ways = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    for i in range(n):
        v = VALUE[table[i]]
        for t in range(10, v - 1, -1):
            ways[t] += ways[t - v]
    return sum(ways) <= SORTED_SUBSETS + 1


def in_lazy_order(moves: list[Move], hand: list[Card], numerals: int, declarations: list[Declaration]) -> list[Move]:
    """``moves`` (the shape cache's list of a position) in :func:`~diloti.games.diloti.bigtable.generate_lazy`'s
    order; ``numerals`` is the set of the table's loose numerals.

    The lazy generator lists the moves card by card in hand order (as the shape cache does), a face card's
    in the same order; a numeral's captures by (piles, count vector, cards), then its new plain
    declarations by (count vector, cards), its raises by (piles, count vector, cards), its groups by
    (value, piles, count vector, cards), and its lay: piles as a set of declaration indexes (bit j for
    the j-th), the count vector (numerals taken per value 1..10) and the cards compared as sequences.
    """
    by_card: dict[Card, list[Move]] = {}
    for m in moves:
        ms = by_card.get(m[0])  # type: ignore[arg-type]
        if ms is None:
            by_card[m[0]] = [m]  # type: ignore[index]
        else:
            ms.append(m)
    piles = [d.mask for d in declarations]
    out: list[Move] = []
    for card in hand:
        ms = by_card.get(card)
        if not ms:
            continue
        if _VALUES[card]:
            ms.sort(key=lambda m: _lazy_key(m, numerals, piles))
        out += ms
    return out


def _lazy_key(move: Move, numerals: int, piles: list[int]) -> tuple[Any, ...]:
    _, kind, value, mask = move
    if kind == LAY:
        return (4,)
    ps = 0
    for j, pm in enumerate(piles):
        if mask & pm:
            ps |= 1 << j
    k = [0] * 11
    cards = []
    m = mask & numerals
    while m:
        low = m & -m
        c = low.bit_length() - 1
        cards.append(c)
        k[VALUE[c]] += 1
        m ^= low
    if kind == CAPTURE:
        return (0, ps, k, cards)
    if kind == PLAIN:
        return (2, ps, k, cards) if ps else (1, 0, k, cards)
    return (3, value, ps, k, cards)
