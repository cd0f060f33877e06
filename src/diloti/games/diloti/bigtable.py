"""Move generation for large tables: lazy, and in memory bounded whatever the table holds.

The shape cache (:mod:`diloti.games.diloti.table`) lists every capture, declaration and
group of a shape at once, as item masks. A table that grows large (a round
where nobody captures can lay 40 numerals) has more of those than memory can
hold: a 22-card table has hundreds of thousands of legal moves, and every card
more multiplies them. This module generates the same moves one at a time.

Loose numerals of equal value are interchangeable in every rule, so a set of
table items is judged by its *count vector* (how many numerals of each value,
and which piles) and only then spelled out as cards: each legal count vector
gives its moves by choosing which cards of each value, a product of
combinations, so every move comes once without a set to deduplicate. The count
vectors are walked depth first, one value at a time; the only memory is the
walk's stack and a bounded memo of which count vectors split into parts of a
given sum. The rules are read as :mod:`tests.reference` reads RULES.md, on
count vectors instead of card sets.

>>> from diloti.core.cards import parse_cards
>>> from diloti.games.diloti.options import Options
>>> [str(m) for m in generate_lazy(0, parse_cards("8H KC"), parse_cards("3D 5S KD"), [], Options())]
['8H x 3D 5S', '8H', 'KC x KD']
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from diloti.core.cards import BIT, VALUE, Card, mask_of
from diloti.core.moves import CAPTURE, GROUP, LAY, PLAIN, Declaration, Move
from diloti.games.diloti.options import Options

# Tables with more items (loose numerals and piles) than this go through this module; up to it the
# shape cache's lists stay small (a few thousand moves at the very most).
LAZY_ITEMS = 12

Counts = tuple[int, ...]  # numerals per value, index 0..10 (index 0 unused)

_MEMO_LIMIT = 200_000
_SPLITS: dict[tuple[int, Counts], bool] = {}
_SUMS: dict[tuple[int, Counts], bool] = {}


def splits(counts: Counts, t: int) -> bool:
    """Whether the numerals ``counts`` split into parts that each sum to ``t`` (none: True)."""
    key = (t, counts)
    hit = _SPLITS.get(key)
    if hit is not None:
        return hit
    a = 10
    while a and not counts[a]:
        a -= 1
    if not a:
        res = True
    elif a > t:
        res = False
    else:
        # The part holding one numeral of the largest value a: a with others of value <= a.
        rest = list(counts)
        rest[a] -= 1
        res = any(splits(tuple(left), t) for left in _takes(rest, a, t - a))
    if len(_SPLITS) >= _MEMO_LIMIT:
        _SPLITS.clear()
    _SPLITS[key] = res
    return res


def has_sum(counts: Counts, t: int) -> bool:
    """Whether some of the numerals ``counts`` (at least one) sum to exactly ``t``."""
    key = (t, counts)
    hit = _SUMS.get(key)
    if hit is None:
        hit = any(True for _ in _takes(list(counts), 10, t)) if t > 0 else False
        if len(_SUMS) >= _MEMO_LIMIT:
            _SUMS.clear()
        _SUMS[key] = hit
    return hit


def _takes(counts: list[int], top: int, t: int) -> Iterator[Counts]:
    """What is left of ``counts`` after each way of taking numerals of value <= ``top`` summing to ``t``."""
    if t == 0:
        yield tuple(counts)
        return
    for a in range(min(top, t), 0, -1):
        if counts[a]:
            counts[a] -= 1
            yield from _takes(counts, a, t - a)  # values taken in descending order: each way once
            counts[a] += 1


def _vectors(counts: Counts, top: int, limit: int) -> Iterator[Counts]:
    """Every count vector at most ``counts`` using values up to ``top`` with sum <= ``limit``, depth first."""
    k = [0] * 11

    def walk(v: int, room: int) -> Iterator[Counts]:
        if v > top:
            yield tuple(k)
            return
        for n in range(min(counts[v], room // v) + 1):
            k[v] = n
            yield from walk(v + 1, room - n * v)
        k[v] = 0

    return walk(1, limit)


def can_raise(d: Declaration, turn: int, options: Options) -> bool:
    """Whether the seat ``turn`` may raise the declaration ``d``: a plain one of an opponent, or its own with
    ``self_raise``."""
    if d.kind != PLAIN:
        return False
    if d.owner == turn:
        return options.self_raise
    return (d.owner - turn) % 2 == 1


class _Position:
    """What the lazy generator needs of a position, worked out once."""

    __slots__ = ("combos", "counts", "declarations", "only", "only_mask", "options", "own", "raisable", "turn")

    def __init__(self, turn: int, numerals: list[Card], declarations: list[Declaration], options: Options) -> None:
        by_value: list[list[int]] = [[] for _ in range(11)]
        for c in numerals:
            by_value[VALUE[c]].append(BIT[c])
        self.counts: Counts = tuple(len(b) for b in by_value)
        # combos[v][k]: the card masks of each choice of k numerals of value v.
        self.combos = [[[sum(ch) for ch in combinations(b, k)] for k in range(len(b) + 1)] for b in by_value]
        self.declarations = declarations
        self.options = options
        self.turn = turn
        self.own = next((j for j, d in enumerate(declarations) if d.owner == turn), -1)
        self.raisable = [can_raise(d, turn, options) for d in declarations]
        # Set by is_legal_lazy: the one (count vector, piles) to look at, and its mask.
        self.only: tuple[Counts, int] | None = None
        self.only_mask = 0

    def vectors(self, top: int, limit: int) -> Iterator[Counts]:
        """The count vectors to look at: see :func:`_vectors`."""
        if self.only is None:
            return _vectors(self.counts, top, limit)
        k = self.only[0]
        fits = not any(k[top + 1:]) and sum(i * k[i] for i in range(11)) <= limit
        return iter([k] if fits else [])

    def pile_sets(self, first: int) -> Iterator[int]:
        """The sets of piles to look at (bit j: declaration j), from ``first`` on."""
        if self.only is None:
            return iter(range(first, 1 << len(self.declarations)))
        return iter([self.only[1]] if self.only[1] >= first else [])

    def masks(self, k: Counts, piles: int) -> Iterator[int]:
        """The table masks of count vector ``k`` with the piles ``piles`` (bit j: declaration j)."""
        if self.only is not None:
            yield self.only_mask
            return
        base = 0
        for j, d in enumerate(self.declarations):
            if piles >> j & 1:
                base |= d.mask
        lists = [self.combos[v][k[v]] for v in range(1, 11) if k[v]]
        for parts in product(*lists):
            yield base + sum(parts)


def _with(counts: Counts, extra: list[int]) -> Counts:
    if not extra:
        return counts
    c = list(counts)
    for v in extra:
        c[v] += 1
    return tuple(c)


def _minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def generate_lazy(turn: int, hand: list[Card], table: list[Card], declarations: list[Declaration],
                  options: Options) -> Iterator[Move]:
    """The legal moves of a position in the play phase, one at a time (the same moves as the shape
    cache's generator, in an order of their own)."""
    numerals = [c for c in table if c < 40]
    faces = [c for c in table if c >= 40]
    pos = _Position(turn, numerals, declarations, options)
    own = pos.own
    for i, card in enumerate(hand):
        v = VALUE[card]
        if not v:
            same = [c for c in faces if c >> 2 == card >> 2]
            if not same:
                if own < 0:
                    yield Move(card, LAY, 0, 0)
            elif len(same) == 3 and options.three_faces_stay:
                yield Move(card, CAPTURE, 0, mask_of(same))
            else:
                for c in same:
                    yield Move(card, CAPTURE, 0, BIT[c])
            continue
        # A second card of the same value has the same moves: they are worked out again rather than
        # kept (they may be millions).
        held = {VALUE[c] for j, c in enumerate(hand) if j != i}
        for kind, value, mask in _numeral_moves(pos, v, held):
            yield Move(card, _KINDS[kind], value, mask)


_KINDS = {int(k): k for k in (LAY, CAPTURE, PLAIN, GROUP)}


def is_legal_lazy(turn: int, hand: list[Card], table: list[Card], declarations: list[Declaration],
                  options: Options, move: Move) -> bool:
    """Whether ``move`` is legal in a position in the play phase, looking only at what it takes (no
    list of moves: on a large table that could be endless)."""
    card, kind, value, mask = move
    if card is None or card not in hand or kind not in _KINDS.values():
        return False
    v = VALUE[card]
    if not v:
        # A face card: a few moves. Listed, not searched in the generator: compiled, a generator has no `in`.
        return move in list(generate_lazy(turn, [card], table, declarations, options))
    numerals = [c for c in table if c < 40]
    pos = _Position(turn, numerals, declarations, options)
    piles = 0
    for j, d in enumerate(declarations):
        if mask & d.mask:
            if mask & d.mask != d.mask:
                return False  # a pile is taken or built on whole
            piles |= 1 << j
            mask &= ~d.mask
    if mask & ~mask_of(numerals):
        return False
    k = [0] * 11
    for c in numerals:
        if mask >> c & 1:
            k[VALUE[c]] += 1
    pos.only = (tuple(k), piles)
    pos.only_mask = move[3]
    held = list(hand)
    held.remove(card)
    return any(kd == kind and val == value and m == move[3]
               for kd, val, m in _numeral_moves(pos, v, {VALUE[c] for c in held}))


def _numeral_moves(pos: _Position, v: int, held: set[int]) -> Iterator[tuple[int, int, int]]:
    """(kind, value, mask) of every legal move of a numeral of value ``v``; ``held``: the values the
    mover still holds after playing it."""
    opts = pos.options
    decl = pos.declarations
    own = pos.own
    npiles = len(decl)
    captures = _captures(pos, v, held)
    if opts.forced_capture:
        only, pos.only = pos.only, None
        can = next(_captures(pos, v, held), None) is not None
        pos.only = only
        if can:
            # A card that can capture must, leaving nothing it could also have taken.
            for k, piles in captures:
                if _nothing_left(pos, v, k, piles):
                    for m in pos.masks(k, piles):
                        yield int(CAPTURE), v, m
            return
    else:
        for k, piles in captures:
            for m in pos.masks(k, piles):
                yield int(CAPTURE), v, m
    # Declarations: a new plain declaration, a raise, a group.
    if own < 0:
        for k in pos.vectors(10 - v, 10 - v):
            if pos.only is not None and pos.only[1]:
                break
            total = v + sum(i * k[i] for i in range(11))
            if total > v and total in held:
                for m in pos.masks(k, 0):
                    yield int(PLAIN), total, m
    for piles in pos.pile_sets(1):
        if own >= 0 and not piles >> own & 1:
            continue
        chosen = [decl[j] for j in range(npiles) if piles >> j & 1]
        if any(d.kind == GROUP for d in chosen):
            continue
        if own >= 0 and not (decl[own].kind == PLAIN and opts.self_raise):
            continue
        base = v + sum(d.value for d in chosen)
        if base > 10:
            continue
        raisable = any(pos.raisable[j] for j in range(npiles) if piles >> j & 1)
        if not raisable:
            continue
        if opts.liberal_raise:
            for k in pos.vectors(10 - base, 10 - base):
                total = base + sum(i * k[i] for i in range(11))
                if total in held:
                    for m in pos.masks(k, piles):
                        yield int(PLAIN), total, m
        elif len(chosen) == 1 and base in held and (pos.only is None or not any(pos.only[0])):
            yield int(PLAIN), base, chosen[0].mask
    for g in range(v, 11):
        if g not in held or (own >= 0 and g != decl[own].value):
            continue
        for piles in pos.pile_sets(0):
            if own >= 0 and not piles >> own & 1:
                continue
            pile_sum = sum(decl[j].value for j in range(npiles) if piles >> j & 1)
            for k in pos.vectors(g, 10 * 52):
                total = v + pile_sum + sum(i * k[i] for i in range(11))
                if total % g or total == g:
                    continue  # every component is worth g, and there are two at least
                if _is_group(pos, v, g, k, piles):
                    for m in pos.masks(k, piles):
                        yield int(GROUP), g, m
    if own < 0:
        yield int(LAY), v, 0


def _captures(pos: _Position, v: int, held: set[int]) -> Iterator[tuple[Counts, int]]:
    """(count vector, piles) of every capture by a numeral of value ``v`` open to the mover."""
    decl = pos.declarations
    npiles = len(decl)
    liberal = pos.options.liberal_capture
    own = pos.own
    keeps = own < 0 or decl[own].value in held
    for piles in pos.pile_sets(0):
        if not keeps and not piles >> own & 1:
            continue  # the declarer keeps a card for its declaration, or takes it
        extra = []
        ok = True
        for j in range(npiles):
            if piles >> j & 1:
                d = decl[j]
                if liberal and d.kind == PLAIN:
                    extra.append(d.value)  # counted as a card in the sums
                elif d.value != v:
                    ok = False
                    break
        if not ok:
            continue
        extra_sum = sum(extra)
        for k in pos.vectors(v, 10 * 52):
            if ((piles or any(k)) and (extra_sum + sum(i * k[i] for i in range(11))) % v == 0
                    and splits(_with(k, extra), v)):
                yield k, piles


def _nothing_left(pos: _Position, v: int, k: Counts, piles: int) -> bool:
    """Whether a capture leaves nothing that the card could also have taken."""
    decl = pos.declarations
    extra = []
    for j, d in enumerate(decl):
        if not piles >> j & 1:
            if d.value == v:
                return False  # a pile of the card's value is left
            if pos.options.liberal_capture and d.kind == PLAIN:
                extra.append(d.value)
    return not has_sum(_with(_minus(pos.counts, k), extra), v)


def _is_group(pos: _Position, v: int, g: int, k: Counts, piles: int) -> bool:
    """Whether the card of value ``v`` with the items ``k`` and ``piles`` is a group of ``g``."""
    decl = pos.declarations
    opts = pos.options
    npiles = len(decl)
    # The played card's component: the card alone (g == v), or with some of the items summing to g.
    sub = piles
    while True:
        pc_piles = sub
        sub = (sub - 1) & piles
        pc = [decl[j] for j in range(npiles) if pc_piles >> j & 1]
        kinds_ok = all(d.kind == PLAIN for d in pc)
        if kinds_ok:
            need = g - v - sum(d.value for d in pc)
            if need >= 0:
                raises = any(pos.raisable[j] for j in range(npiles) if pc_piles >> j & 1)
                for k1 in _parts_of(k, need):
                    if _played(opts, pc, k1, raises, v, g) and _rest_ok(pos, g, _minus(k, k1), piles & ~pc_piles):
                        return True
        if pc_piles == 0:
            return False


def _parts_of(k: Counts, t: int) -> Iterator[Counts]:
    """Every count vector at most ``k`` summing to exactly ``t``."""
    for k1 in _vectors(k, 10, t):
        if sum(i * k1[i] for i in range(11)) == t:
            yield k1


def _played(opts: Options, pc: list[Declaration], k1: Counts, raises: bool, v: int, g: int) -> bool:
    """Whether the card with numerals ``k1`` and plain piles ``pc`` (summing to g) is its component."""
    if not pc and not any(k1):
        return v == g
    if not pc or opts.liberal_groups:
        return True  # numerals (and, liberally, plain piles) summing to g
    if len(pc) == 1 and not any(k1) and raises:
        return True  # the card raises a plain pile to g
    return opts.liberal_raise and raises


def _rest_ok(pos: _Position, g: int, k2: Counts, piles: int) -> bool:
    """Whether the other items (at least one) split into components of g."""
    if not piles and not any(k2):
        return False
    opts = pos.options
    extra = []
    for j, d in enumerate(pos.declarations):
        if piles >> j & 1:
            if opts.liberal_groups and d.kind == PLAIN:
                extra.append(d.value)  # counted as a card (and alone it is a component of its value)
            elif d.value != g or (opts.soy and d.is_soy):
                return False
    return splits(_with(k2, extra), g)


__all__ = ["LAZY_ITEMS", "can_raise", "generate_lazy", "has_sum", "is_legal_lazy", "splits"]
