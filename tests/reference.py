"""A slow, obviously-correct move generator written straight from RULES.md.

It shares nothing with the engine's generator but the data types: for every
card in hand it tries every subset of table items and asks, by brute force,
whether that subset can be captured, declared, raised or grouped. The tests
compare it with :meth:`State.legal_moves` over many random positions.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Literal, TypeGuard

from diloti.core.cards import BIT, VALUE, Card
from diloti.core.moves import CAPTURE, GROUP, KEEP, LAY, PLAIN, REDEAL, Declaration, Move
from diloti.games.diloti.state import DECIDE, OVER, State

# An item is ("card", card) for a loose card or ("pile", pile).
Loose = tuple[Literal["card"], Card]
Pile = tuple[Literal["pile"], Declaration]
Item = Loose | Pile


def _value(item: Item) -> int:
    return VALUE[item[1]] if item[0] == "card" else item[1].value


def _is_numeral(item: Item) -> bool:
    return item[0] == "card" and VALUE[item[1]] > 0


def _is_plain(item: Item) -> TypeGuard[Pile]:
    return item[0] == "pile" and item[1].kind == PLAIN


def _is_group(item: Item) -> bool:
    return item[0] == "pile" and item[1].kind == GROUP


def _mask(items: tuple[Item, ...]) -> int:
    m = 0
    for item in items:
        m |= BIT[item[1]] if item[0] == "card" else item[1].mask
    return m


def _subsets(items: tuple[Item, ...]) -> Iterator[tuple[Item, ...]]:
    for k in range(len(items) + 1):
        yield from combinations(items, k)


def _partitions(items: tuple[Item, ...]) -> Iterator[list[tuple[Item, ...]]]:
    """Every way of splitting ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k in range(len(rest) + 1):
        for others in combinations(rest, k):
            block = (first, *others)
            remaining = tuple(x for x in rest if x not in others)
            for tail in _partitions(remaining):
                yield [block, *tail]


def _sum_part(block: tuple[Item, ...], target: int, plains_as_cards: bool) -> bool:
    """A set of loose numerals (and, if allowed, plain piles) summing to ``target``."""
    ok = all(_is_numeral(x) or (plains_as_cards and _is_plain(x)) for x in block)
    return ok and sum(_value(x) for x in block) == target


def _capture_part(block: tuple[Item, ...], v: int, state: State) -> bool:
    if len(block) == 1 and block[0][0] == "pile":
        return _value(block[0]) == v
    return _sum_part(block, v, state.options.liberal_capture)


def _group_component(block: tuple[Item, ...], g: int, state: State) -> bool:
    if len(block) == 1 and block[0][0] == "pile":
        pile = block[0][1]
        if pile.value != g:
            return False
        return not (state.options.soy and pile.is_soy)
    return _sum_part(block, g, state.options.liberal_groups)


def _can_raise(state: State, pile: Declaration) -> bool:
    turn = state.turn
    owner = pile.owner
    if owner == turn:
        return state.options.self_raise
    return (owner - turn) % 2 == 1


def _played_component(block: tuple[Item, ...], v: int, g: int, state: State) -> bool:
    """Whether the played card of value v plus ``block`` is a component of value g."""
    if not block:
        return v == g
    total = v + sum(_value(x) for x in block)
    if total != g:
        return False
    opts = state.options
    if all(_is_numeral(x) or (opts.liberal_groups and _is_plain(x)) for x in block):
        return True
    if len(block) == 1 and _is_plain(block[0]):
        return _can_raise(state, block[0][1])
    if opts.liberal_raise and all(_is_numeral(x) or _is_plain(x) for x in block):
        return any(_is_plain(x) and _can_raise(state, x[1]) for x in block)
    return False


def _is_capture(s: tuple[Item, ...], card: int, state: State) -> bool:
    if not s:
        return False
    v = VALUE[card]
    if v == 0:
        if any(x[0] != "card" or x[1] >> 2 != card >> 2 for x in s):
            return False
        same = [c for c in state.table if c >> 2 == card >> 2]
        if state.options.three_faces_stay and len(same) == 3:
            return len(s) == 3
        return len(s) == 1
    return any(all(_capture_part(b, v, state) for b in p) for p in _partitions(s))


def _group_values(s: tuple[Item, ...], card: int, state: State) -> set[int]:
    v = VALUE[card]
    out: set[int] = set()
    if v == 0 or not s:
        return out
    for g in range(v, 11):
        for k in range(len(s) + 1):
            for pc in combinations(s, k):
                if not _played_component(pc, v, g, state):
                    continue
                rest = tuple(x for x in s if x not in pc)
                if not rest:
                    continue
                if any(all(_group_component(b, g, state) for b in p) for p in _partitions(rest)):
                    out.add(g)
    return out


def _raise_value(s: tuple[Item, ...], card: int, state: State) -> int | None:
    v = VALUE[card]
    if v == 0 or not s or any(_is_group(x) for x in s):
        return None
    plains = [x for x in s if _is_plain(x)]
    if not plains:
        return None
    total = v + sum(_value(x) for x in s)
    if total > 10:
        return None
    if state.options.liberal_raise:
        if all(_is_numeral(x) or _is_plain(x) for x in s) and any(_can_raise(state, x[1]) for x in plains):
            return total
        return None
    if len(s) == 1 and _can_raise(state, plains[0][1]):  # s's one item, a plain pile
        return total
    return None


def reference_moves(state: State) -> set[Move]:
    """Every legal move, by brute force over subsets of the table."""
    if state.phase == OVER:
        return set()
    if state.phase == DECIDE:
        return {Move(None, KEEP, 0, 0), Move(None, REDEAL, 0, 0)}
    opts = state.options
    turn = state.turn
    hand = state.hands[turn]
    items: tuple[Item, ...] = tuple([("card", c) for c in state.table] + [("pile", p) for p in state.declarations])
    own = state.declaration_of(turn)
    moves: set[Move] = set()
    for card in hand:
        v = VALUE[card]
        rest_values = [VALUE[c] for c in hand if c != card]

        def holds(x: int) -> bool:
            return x in rest_values  # noqa: B023 - used within this iteration only

        caps = []
        decl = []
        for s in _subsets(items):
            m = _mask(s)
            own_in = own is not None and ("pile", own) in s
            if not s:
                continue
            if _is_capture(s, card, state) and (own is None or own_in or holds(own.value)):
                caps.append((s, Move(card, CAPTURE, v, m)))
            if v == 0:
                continue
            numerals = all(_is_numeral(x) for x in s)
            if numerals and v + sum(_value(x) for x in s) <= 10 and own is None:
                total = v + sum(_value(x) for x in s)
                if holds(total):
                    decl.append(Move(card, PLAIN, total, m))
            r = _raise_value(s, card, state)
            if r is not None and holds(r) and (own is None or (own_in and own.kind == PLAIN and opts.self_raise)):
                decl.append(Move(card, PLAIN, r, m))
            for g in _group_values(s, card, state):
                # The declarer's obligation: a group move of the owned value that includes the pile.
                if holds(g) and (own is None or (own_in and g == own.value)):
                    decl.append(Move(card, GROUP, g, m))
        if opts.forced_capture and caps and v:  # a face card takes exactly one card anyway
            parts_left: list[Move] = []
            for s, mv in caps:
                remaining = tuple(x for x in items if x not in s)
                # Nothing left that this card could also have taken.
                if not any(_is_capture(t, card, state) for t in _subsets(remaining) if t):
                    parts_left.append(mv)
            moves.update(parts_left)
            continue
        if opts.forced_capture and caps:
            moves.update(mv for _, mv in caps)
            continue
        moves.update(mv for _, mv in caps)
        moves.update(decl)
        if own is None:
            if v == 0 and any(c >> 2 == card >> 2 for c in state.table):
                continue
            moves.add(Move(card, LAY, v, 0))
    return moves
