"""Which moves exist, asked without listing them: bounded work on any table.

A table that grows by lays has more legal moves than any caller can list (a
28-card table has millions: every way to split it into captures and
declarations). Every question a player, a page or an environment asks on the
way to one move is smaller than that list: *can this card make this kind of
move at all* (a **head**: card, kind, value), and *is there such a move that
takes all of these table items and none of those*. :func:`exists` answers the
second (and so the first) exactly, by reasoning on how many numerals of each
value are required, allowed or barred, never by enumerating moves:

- loose numerals of equal value are interchangeable in every rule, so a move's
  legality depends on its count vector and its piles (as in
  :mod:`diloti.games.diloti.bigtable`);
- a capture or a group is a set of parts that each sum to one value. Whether
  the required numerals can be covered by such parts, with any of the allowed
  ones added, is a small search (:func:`covers`): the part holding the largest
  required numeral is completed by each way of writing the rest of its sum
  (at most 42), from the required numerals first (swapping a required and an
  optional numeral of one value between two parts changes no sum), memoized;
- under ``forced_capture`` a capture must leave nothing it could also take: the
  numerals left behind are walked instead, pruned as soon as they hold a subset
  summing to the card's value (so only the few "sum-free" leftovers are seen).

The piles (at most one per player) are enumerated as sets. Everything else is
a count vector of at most 11 entries, so the cost of one question is bounded
by the card values, not by the number of moves.

A :class:`~diloti.core.choice.Choices` puts the questions together for one hand card and a set of
chosen table items, as a page or a client asks them: the moves that take
exactly those items, and the items that can still be added.

>>> from diloti.core.cards import parse_cards, mask_of
>>> from diloti.games.diloti.options import Options
>>> q = Query(0, parse_cards("9D KC"), parse_cards("4H 5C 9S"), [], Options())
>>> q.exists(Card("9D"), CAPTURE, 9, include=mask_of(parse_cards("4H")))
True
>>> q.exists(Card("9D"), CAPTURE, 9, include=mask_of(parse_cards("4H 9S")), exclude=mask_of(parse_cards("5C")))
False
>>> [str(m) for m in q.choices(Card("9D"), mask_of(parse_cards("4H 5C"))).moves]
['9D x 4H 5C']
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from diloti.core.cards import BIT, VALUE, Card, mask_of
from diloti.core.choice import Choices, order, whole_items
from diloti.core.errors import DilotiError
from diloti.core.moves import CAPTURE, GROUP, LAY, PLAIN, Declaration, Move, MoveKind
from diloti.games.diloti.bigtable import can_raise, generate_lazy, has_sum, is_legal_lazy, splits
from diloti.games.diloti.options import Options

Counts = tuple[int, ...]  # numerals per value, index 0..10 (index 0 unused)
ZERO: Counts = (0,) * 11

_MEMO_LIMIT = 200_000
_COVERS: dict[tuple[Counts, Counts, int], bool] = {}


def _partitions(m: int) -> list[Counts]:
    """Every multiset of values 1..10 summing to ``m``, as count vectors."""
    out: list[Counts] = []
    k = [0] * 11

    def walk(rest: int, top: int) -> None:
        if rest == 0:
            out.append(tuple(k))
            return
        for a in range(min(top, rest), 0, -1):
            k[a] += 1
            walk(rest - a, a)
            k[a] -= 1

    walk(m, 10)
    return out


#: PARTS[m]: the ways of writing m (0..10) as a sum of card values (PARTS[0] is the empty way).
PARTS: tuple[tuple[Counts, ...], ...] = tuple(tuple(_partitions(m)) for m in range(11))


def _take(forced: Counts, free: Counts, part: Counts) -> tuple[Counts, Counts] | None:
    """``forced`` and ``free`` less the numerals of ``part``, taken from the forced ones first (None: too few)."""
    f = list(forced)
    r = list(free)
    for b in range(1, 11):
        need = part[b]
        if need:
            x = f[b] if f[b] < need else need
            f[b] -= x
            need -= x
            if need > r[b]:
                return None
            r[b] -= need
    return tuple(f), tuple(r)


def covers(forced: Counts, free: Counts, t: int) -> bool:
    """Whether the numerals ``forced``, with any of ``free`` added, split into parts that each sum to ``t``.

    >>> v = lambda *xs: tuple(sum(1 for x in xs if x == i) for i in range(11))
    >>> covers(v(9), v(1), 10), covers(v(9, 9), v(1), 10), covers(v(), v(3), 10)
    (True, False, True)
    """
    if not any(forced):
        return True
    key = (forced, free, t)
    hit = _COVERS.get(key)
    if hit is not None:
        return hit
    a = 10
    while not forced[a]:
        a -= 1
    res = False
    if a <= t:
        f = list(forced)
        f[a] -= 1
        rest = tuple(f)
        for part in PARTS[t - a]:
            left = _take(rest, free, part)
            if left is not None and covers(left[0], left[1], t):
                res = True
                break
    if len(_COVERS) >= _MEMO_LIMIT:
        _COVERS.clear()
    _COVERS[key] = res
    return res


def _sum_or_none(free: Counts, t: int) -> bool:
    """Whether some of ``free`` (possibly none) sum to ``t``."""
    return t == 0 or (t > 0 and has_sum(free, t))


def _plus(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _minus(a: Counts, b: Counts) -> Counts:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _add(c: Counts, value: int) -> Counts:
    k = list(c)
    k[value] += 1
    return tuple(k)


def _sum_free_leftovers(free: Counts, base: int, t: int) -> Iterator[Counts]:
    """Each count vector L <= ``free`` such that ``base`` (a bitset of the sums below t that the barred numerals
    already make, bit 0 set) with L added makes no subset summing to ``t``: the numerals a capture can leave."""
    full = (1 << (t + 1)) - 1
    k = [0] * 11
    for b in range(t + 1, 11):
        k[b] = free[b]  # a numeral worth more than t is never part of a sum of t: it always stays

    def walk(b: int, sums: int) -> Iterator[Counts]:
        if b > t:
            yield tuple(k)
            return
        s = sums
        for n in range(free[b] + 1):
            if n:
                s = (s | s << b) & full
                if s >> t & 1:
                    break
            k[b] = n
            yield from walk(b + 1, s)
        k[b] = 0

    return walk(1, base)


def _sums_of(counts: Counts, t: int) -> int:
    """The bitset of the subset sums (up to t) of the numerals ``counts`` (bit 0: the empty subset)."""
    full = (1 << (t + 1)) - 1
    s = 1
    for b in range(1, t + 1):
        for _ in range(counts[b]):
            s = (s | s << b) & full
    return s


class Query:
    """The questions about one position in the play phase: ``Query(turn, hand, table, declarations, options)``
    (``hand``: the mover's cards; ``table``: the loose cards)."""

    def __init__(self, turn: int, hand: list[Card] | tuple[Card, ...], table: list[Card] | tuple[Card, ...],
                 declarations: list[Declaration] | tuple[Declaration, ...], options: Options) -> None:
        self.turn = turn
        self.hand = list(hand)
        self.table = sorted(table)
        self.declarations = list(declarations)
        self.options = options
        self.numerals = mask_of([c for c in self.table if c < 40])
        self.faces = [c for c in self.table if c >= 40]
        self.own = next((j for j, d in enumerate(self.declarations) if d.owner == turn), -1)
        self.raisable = [can_raise(d, turn, options) for d in self.declarations]
        self._can_capture: dict[int, bool] = {}
        self._helds: dict[int, set[int]] = {}

    # ------------------------------------------------------------------ heads and items
    def items(self) -> list[int]:
        """The table's items as card masks: each loose card, then each declaration (all its cards)."""
        return [BIT[c] for c in self.table] + [d.mask for d in self.declarations]

    def heads(self, card: Card) -> list[tuple[MoveKind, int]]:
        """The (kind, value) of the moves ``card`` can make: each has at least one legal move."""
        if card not in self.hand:
            return []
        if card >= 40:
            return sorted({(m[1], m[2]) for m in self._face_moves(card)})
        v = VALUE[card]
        held = self._held(card)  # a declaration's value must still be held: most are ruled out at once
        cands: list[tuple[MoveKind, int]] = [(CAPTURE, v)]
        cands += [(PLAIN, s) for s in range(v + 1, 11) if s in held]
        cands += [(GROUP, g) for g in range(v, 11) if g in held]
        cands.append((LAY, v))
        return [(k, s) for k, s in cands if self.exists(card, k, s)]

    def _face_moves(self, card: Card) -> list[Move]:
        return list(generate_lazy(self.turn, [card], self.table, self.declarations, self.options))

    def exists(self, card: Card, kind: MoveKind, value: int, include: int = 0, exclude: int = 0) -> bool:
        """Whether ``card`` has a legal move of ``kind`` and ``value`` that takes every table item touching
        ``include`` and no item touching ``exclude`` (card masks; a declaration is one item)."""
        if card not in self.hand or include & exclude:
            return False
        if card >= 40:
            return any(m[1] == kind and m[2] == value and m[3] & include == include and not m[3] & exclude
                       for m in self._face_moves(card))
        v = VALUE[card]
        if kind == LAY:
            return not include and value == v and self.own < 0 and not self._must_capture(card)
        inc_piles: list[int] = []
        free_piles: list[int] = []
        for j, d in enumerate(self.declarations):
            if d.mask & include:
                if d.mask & exclude:
                    return False
                inc_piles.append(j)
                include &= ~d.mask
            elif not d.mask & exclude:
                free_piles.append(j)
        if include & ~self.numerals:
            return False  # a face card, or a card that is not on the table
        forced = _counts(include)
        free = _counts(self.numerals & ~include & ~exclude)
        held = self._held(card)
        if kind == CAPTURE:
            if value != v:
                return False
            if self.options.forced_capture:
                return self._forced_capture(v, held, forced, free, inc_piles, free_piles, exclude)
            return self._capture(v, held, forced, free, inc_piles, free_piles)
        if self._must_capture(card) or value not in held:
            return False
        if kind == PLAIN:
            return self._plain(v, value, forced, free, inc_piles, free_piles)
        if kind == GROUP:
            return self._group(v, value, forced, free, inc_piles, free_piles)
        return False

    def _held(self, card: Card) -> set[int]:
        """The values the mover still holds after playing ``card``."""
        held = self._helds.get(card)
        if held is None:
            i = self.hand.index(card)
            held = self._helds[card] = {VALUE[c] for j, c in enumerate(self.hand) if j != i}
        return held

    def _must_capture(self, card: Card) -> bool:
        """Under forced_capture: whether ``card`` can capture (and so may do nothing else)."""
        if not self.options.forced_capture:
            return False
        hit = self._can_capture.get(card)
        if hit is None:
            every = list(range(len(self.declarations)))
            hit = self._capture(VALUE[card], self._held(card), ZERO, _counts(self.numerals), [], every)
            self._can_capture[card] = hit
        return hit

    # ------------------------------------------------------------------ captures
    def _capture(self, v: int, held: set[int], forced: Counts, free: Counts, inc: list[int],
                 avail: list[int]) -> bool:
        decl = self.declarations
        liberal = self.options.liberal_capture
        own = self.own
        if own >= 0 and decl[own].value not in held and own not in inc:
            if own not in avail:
                return False  # the declarer keeps a card for the declaration, or takes it
            inc = [*inc, own]
            avail = [j for j in avail if j != own]
        pile_part = False
        for j in inc:
            d = decl[j]
            if liberal and d.kind == PLAIN:
                forced = _add(forced, d.value)  # counted as a card in the sums
            elif d.value != v:
                return False
        for j in avail:
            d = decl[j]
            if liberal and d.kind == PLAIN:
                free = _add(free, d.value)
            elif d.value == v:
                pile_part = True
        if not covers(forced, free, v):
            return False
        return bool(inc) or any(forced) or pile_part or has_sum(free, v)

    def _forced_capture(self, v: int, held: set[int], forced: Counts, free: Counts, inc: list[int],
                        avail: list[int], exclude: int) -> bool:
        decl = self.declarations
        liberal = self.options.liberal_capture
        own = self.own
        if not self._capture(v, held, ZERO, _counts(self.numerals), [], list(range(len(decl)))):
            return False  # no capture at all
        barred = _counts(self.numerals & exclude)
        if own >= 0 and decl[own].value not in held and own not in inc:
            if own not in avail:
                return False
            inc = [*inc, own]
        for j, d in enumerate(decl):
            chosen = j in inc
            if liberal and d.kind == PLAIN:
                # A pile that counts as a card: as a numeral of its value, chosen, barred or free.
                if chosen:
                    forced = _add(forced, d.value)
                elif j in avail:
                    free = _add(free, d.value)
                else:
                    barred = _add(barred, d.value)
            elif d.value == v:
                if not chosen and j not in avail:
                    return False  # a pile of the card's value would be left
                if not chosen:
                    inc = [*inc, j]  # it must be taken
            elif chosen:
                return False
        if any(forced[v + 1:]):
            return False
        base = _sums_of(barred, v)
        if base >> v & 1:
            return False  # what must stay makes the card's value: it could have been taken
        for left in _sum_free_leftovers(free, base, v):
            taken = _plus(forced, _minus(free, left))
            if (inc or any(taken)) and splits(taken, v):
                return True
        return False

    # ------------------------------------------------------------------ declarations
    def _pile_sets(self, inc: list[int], avail: list[int]) -> Iterator[list[int]]:
        for bits in range(1 << len(avail)):
            yield sorted(inc + [avail[i] for i in range(len(avail)) if bits >> i & 1])

    def _plain(self, v: int, s: int, forced: Counts, free: Counts, inc: list[int], avail: list[int]) -> bool:
        decl = self.declarations
        opts = self.options
        own = self.own
        fsum = sum(i * forced[i] for i in range(11))
        if own < 0 and not inc and s > v:
            rest = s - v - fsum
            if rest >= 0 and (any(forced) or rest > 0) and _sum_or_none(free, rest):
                return True  # a new plain declaration
        if own >= 0 and not (decl[own].kind == PLAIN and opts.self_raise):
            return False
        for piles in self._pile_sets(inc, avail):
            if not piles or (own >= 0 and own not in piles):
                continue
            if any(decl[j].kind == GROUP for j in piles) or not any(self.raisable[j] for j in piles):
                continue
            base = v + sum(decl[j].value for j in piles)
            if base > 10:
                continue
            if opts.liberal_raise:
                if _sum_or_none(free, s - base - fsum):
                    return True
            elif len(piles) == 1 and not any(forced) and base == s:
                return True
        return False

    def _group(self, v: int, g: int, forced: Counts, free: Counts, inc: list[int], avail: list[int]) -> bool:
        decl = self.declarations
        opts = self.options
        own = self.own
        if g < v or (own >= 0 and g != decl[own].value):
            return False
        for piles in self._pile_sets(inc, avail):
            if own >= 0 and own not in piles:
                continue
            for pc in self._pile_sets([], piles):  # the piles in the played card's component
                if any(decl[j].kind != PLAIN for j in pc):
                    continue
                need = g - v - sum(decl[j].value for j in pc)
                if need < 0:
                    continue
                rest_piles = [j for j in piles if j not in pc]
                extra = ZERO
                ok = True
                for j in rest_piles:
                    d = decl[j]
                    if opts.liberal_groups and d.kind == PLAIN:
                        extra = _add(extra, d.value)  # counted as a card
                    elif d.value != g or (opts.soy and d.is_soy):
                        ok = False
                        break
                if not ok:
                    continue
                raises = any(self.raisable[j] for j in pc)
                for part in PARTS[need]:
                    if not _played(opts, bool(pc), len(pc), bool(need), raises, v, g):
                        continue
                    left = _take(forced, free, part)
                    if left is None:
                        continue
                    f2 = _plus(left[0], extra)
                    if not covers(f2, left[1], g):
                        continue
                    if rest_piles or any(f2) or has_sum(left[1], g):
                        return True
        return False

    # ------------------------------------------------------------------ one card's choices
    def choices(self, card: Card, chosen: int = 0) -> Choices:
        """The legal moves of ``card`` taking exactly the items touching ``chosen`` (a card mask), and the table
        cards that can still be added (see :class:`~diloti.core.choice.Choices`)."""
        items = self.items()
        picked = whole_items(chosen, items)
        if chosen & ~picked:
            return Choices(card, picked, (), 0)  # a card that is not on the table
        heads = self.heads(card)
        moves = [m for m in (Move(card, kind, value, 0 if kind == LAY else picked) for kind, value in heads)
                 if (m[1] == LAY) == (not picked) and self.is_legal(m)]
        open_mask = 0
        for it in items:
            if not it & picked and any(k != LAY and self.exists(card, k, s, include=picked | it) for k, s in heads):
                open_mask |= it
        return Choices(card, picked, tuple(sorted(moves, key=order)), open_mask)

    def read(self, text: str) -> Move | None:
        """The legal move that ``text`` writes in full notation (a declaration named by any of its cards), or
        None: how a move is read where the legal moves are too many to list (shortened forms, such as a card
        alone for its one move, are read against a list, :func:`~diloti.games.diloti.reading.read_move`)."""
        try:
            move = Move.parse(text)
        except DilotiError:
            return None
        card, kind, value, mask = move
        if card is None:
            return None
        move = Move(card, kind, value, whole_items(mask, self.items()))
        return move if self.is_legal(move) else None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here (checked on what it takes, no list)."""
        return is_legal_lazy(self.turn, self.hand, self.table, self.declarations, self.options, move)

    def witness(self, card: Card, kind: MoveKind, value: int, *, most: bool = True, descending: bool = False,
                include: int = 0, exclude: int = 0) -> Move | None:
        """One legal move of the head (``card``, ``kind``, ``value``) within ``include``/``exclude``, or None.

        Each table item in turn (ascending, or ``descending``) is taken if a legal move still takes it
        (``most``) or left if one still leaves it: so ``most`` gives a move taking as much as it can. At most
        two questions an item.
        """
        if not self.exists(card, kind, value, include, exclude):
            return None
        if kind == LAY:
            return Move(card, LAY, value, 0)
        items = self.items()
        if descending:
            items.reverse()
        for it in items:
            if it & (include | exclude):
                continue
            first, second = (include | it, exclude), (include, exclude | it)
            if not most:
                first, second = second, first
            if self.exists(card, kind, value, *first):
                include, exclude = first
            else:
                include, exclude = second
        move = Move(card, kind, value, include)
        return move if self.is_legal(move) else None


def _played(opts: Options, has_pc: bool, npc: int, has_numerals: bool, raises: bool, v: int, g: int) -> bool:
    """Whether the card with some numerals and plain piles (summing to g) is its component (as bigtable's)."""
    if not has_pc and not has_numerals:
        return v == g
    if not has_pc or opts.liberal_groups:
        return True
    if npc == 1 and not has_numerals and raises:
        return True
    return opts.liberal_raise and raises


def _counts(mask: int) -> Counts:
    """The numerals of ``mask`` per value: the four cards of value v are the bits 4(v-1)..4v-1."""
    return (0, *((mask >> 4 * v & 15).bit_count() for v in range(10)))




#: A large table's moves are listed whole up to this many (:func:`candidate_moves`); past it, sampled.
LIST_LIMIT = 300


def sample_moves(turn: int, hand: list[Card], table: list[Card], declarations: list[Declaration],
                 options: Options) -> list[Move]:
    """A bounded sample of the legal moves of a position in the play phase, at least one move of every head.

    For each card and each kind and value it can make (:meth:`Query.heads`): a lay; the captures taking as much
    as they can, low cards first and high cards first; a declaration taking as little as it can. At most about
    a hundred moves (six cards, each with at most 22 heads), each found with at most two questions a table
    item, whatever the number of legal moves.
    """
    q = Query(turn, hand, table, declarations, options)
    out: list[Move] = []
    seen: set[Move] = set()
    for card in sorted(set(hand)):
        for kind, value in q.heads(card):
            if kind == CAPTURE:
                found = [q.witness(card, kind, value), q.witness(card, kind, value, descending=True)]
            else:
                found = [q.witness(card, kind, value, most=False)]
            for m in found:
                if m is not None and m not in seen:
                    seen.add(m)
                    out.append(m)
    return out


def _one_part_captures(hand: list[Card], table: list[Card]) -> int:
    """How many captures of one part the hand's numerals have: for each value held, the sets of loose numerals
    summing to it. Each is a legal move where no declaration binds the mover and capturing is not forced, so
    this is a lower bound of their number, counted in a few hundred steps."""
    ways = [1] + [0] * 10  # ways[t]: the sets of the loose numerals seen so far that sum to t
    for c in table:
        v = VALUE[c]
        if v > 0:
            for t in range(10, v - 1, -1):
                ways[t] += ways[t - v]
    return sum(ways[v] for v in {VALUE[c] for c in hand if c < 40})


def candidate_moves(turn: int, hand: list[Card], table: list[Card], declarations: list[Declaration],
                    options: Options) -> tuple[list[Move], bool]:
    """The moves a player chooses from on a large table, and whether they are all the legal moves: every legal
    move (in the engine's order) while there are at most :data:`LIST_LIMIT`, else :func:`sample_moves`."""
    if (not options.forced_capture and all(d.owner != turn for d in declarations)
            and _one_part_captures(hand, table) > LIST_LIMIT):
        # Known to be too many without walking them (listing 300 of a 30-card table's moves costs ~9 ms).
        return sample_moves(turn, hand, table, declarations, options), False
    listed = list(islice(generate_lazy(turn, hand, table, declarations, options), LIST_LIMIT + 1))
    if len(listed) <= LIST_LIMIT:
        return listed, True
    return sample_moves(turn, hand, table, declarations, options), False


__all__ = ["LIST_LIMIT", "PARTS", "Query", "candidate_moves", "covers", "sample_moves"]
