"""What a table allows, computed once per table shape and cached.

Move generation depends on the table only through its *shape*: the values of
the loose numerals (kept sorted by the state) and the value, kind and soy-ness
of each pile. For one shape this module works out, in terms of item bits
(bit ``i`` for the i-th loose numeral, bit ``n + j`` for the j-th pile), every
capture, plain declaration, raise and group that any played value could make.
The state then maps item bits to cards and applies what depends on who moves
(who owns what, what the mover still holds).

Per shape, a :class:`ShapeCache` keeps, under the standard rules, the shape's
analysis (the sets of loose numerals by sum and the captures of each value):
the generator reads a mover's moves straight from it when the mover owns no
declaration, one dictionary look-up per position. It also keeps the finished
uses of each played value, filled on demand (a declarer's moves, and every
move under the other option mixes, which keep :class:`TableInfo` objects for a
few recent shapes to work them out). In play and in the computer players' searches
shapes repeat a great deal, so nearly every position is a hit; random playouts
lay many cards and meet new shapes more often.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from diloti.core.moves import CAPTURE, GROUP, LAY, PLAIN
from diloti.games.diloti.options import Options

# A use of a numeral: (kind, value, item mask, need, req) as plain ints (see TableInfo.raw).
Use = tuple[int, int, int, int, int]
# What the move generator keeps per shape: slot v holds raw(v), slot 11 + v the uses of v open to a
# mover who owns nothing and can raise nothing (the same tuples), None until first needed; slot 22
# the shape's Analysis under the standard rules. Only tuples of ints and None: the garbage collector
# stops tracking them after a pass or two, so a large cache costs the collector little (a cache of
# objects and lists made its full collections take a second and halved the engine's speed).
Entry = tuple[Any, ...]
_NO_ENTRY: Entry = (None,) * 23

# The cache has two generations: when the young one is full it becomes the old one, and a shape
# found in the old one moves back to the young one. Shapes still in use survive a turnover, where
# clearing the whole cache made a long search pay again for every shape it had just seen.
# With tuples shared (see _SHARED), a minute of random playouts, which turns the cache over, leaves
# the process at about 0.2 GB.
_CACHE_LIMIT = 50_000
# The intermediate results of recently analysed shapes under other options than the standard ones,
# to fill their other slots cheaply. TableInfo holds lists, which the garbage collector must keep
# walking, so only a few are kept.
_WORK: dict[tuple[bool, ...], dict[tuple[object, ...], TableInfo]] = {}
_WORK_LIMIT = 64

# Every cached tuple of ints, once: the cache holds a million uses after a few thousand random
# rounds but only about ten thousand different ones (and the analyses repeat their (mask, sum) pairs
# and lists of masks likewise). Sharing them saves most of the cache's memory and the garbage
# collector's time (new tuples stay tracked for a collection or two, and a full collection has to
# walk them all). Equal tuples of ints are interchangeable, so one dictionary serves every kind.
_SHARED: dict[Any, Any] = {}  # each tuple maps to itself (typed Any so it keeps its own type)
_SHARED_LIMIT = 1_000_000


class ShapeCache:
    """What the move generator knows per table shape, for one set of rule options.

    ``young.get(sig)`` is the state's look-up; :meth:`fill` works out what it lacks.
    """

    __slots__ = ("old", "options", "standard", "young")

    def __init__(self, options: Options) -> None:
        # Keyed by the shape (sig) or, for a table without declarations, by the move generator's int for it.
        self.young: dict[object, Entry] = {}
        self.old: dict[object, Entry] = {}
        self.options = options
        # The standard rules (no liberal option, no forced capture, no soy) have a direct path.
        self.standard = not (options.liberal_groups or options.liberal_capture or options.liberal_raise
                             or options.forced_capture or options.soy)

    def analysis(self, sig: tuple[object, ...], key: object = None) -> Entry:
        """The entry of a shape missing from ``young``, with its standard analysis in slot 22 (the
        standard rules' generator reads nothing else when the mover owns no declaration); kept under
        ``key`` (default: ``sig``)."""
        if key is None:
            key = sig
        entry = self.old.pop(key, None)
        if entry is None or entry[22] is None:
            entry = (*(entry or _NO_ENTRY)[:22], analyse_standard(sig))
        young = self.young
        if len(young) >= _CACHE_LIMIT:
            self.old = young
            young = self.young = {}
        young[key] = entry
        return entry

    def fill(self, sig: tuple[object, ...], values: int, entry: Entry | None, key: object = None) -> Entry:
        """Work out the slots (raw and basic) of every numeral in ``values`` (a set of bits: bit v for
        value v) that a shape's entry lacks; the new entry.

        ``entry`` is what ``young.get(key)`` gave the caller (passed on to save hashing the shape again);
        ``key`` is where the shape is kept (default: ``sig``).
        """
        if key is None:
            key = sig
        young = self.young
        if entry is None:
            entry = self.old.pop(key, None)
            if len(young) >= _CACHE_LIMIT:
                self.old = young
                young = self.young = {}
            if entry is None:
                entry = _NO_ENTRY
        if len(_SHARED) > _SHARED_LIMIT:
            _SHARED.clear()
        share = _SHARED.setdefault
        e = list(entry)
        ana: Any = entry[22]
        if self.standard and ana is None:
            ana = e[22] = analyse_standard(sig)
        # Only a raise has a requirement (req > 0), and under the standard rules only a plain pile
        # can be raised: without one, the basic uses are all the uses.
        all_basic = self.standard and not ana[2]
        for v in range(1, 11):
            if not values >> v & 1 or e[v] is not None:
                continue
            uses = raw_standard(v, ana) if self.standard else table_info(sig, self.options).raw(v)
            e[v] = raw = tuple([share(u, u) for u in uses])
            e[11 + v] = raw if all_basic else tuple([u for u in raw if u[4] <= 0])
        entry = young[key] = tuple(e)
        return entry


_CACHES: dict[tuple[bool, ...], ShapeCache] = {}


def _shared(ms: list[int]) -> tuple[int, ...]:
    t = tuple(ms)
    shared: tuple[int, ...] = _SHARED.setdefault(t, t)
    return shared


def cache_for(options: Options) -> ShapeCache:
    """The per-shape cache of one set of rule options (shared by equal options)."""
    key = options.key
    cache = _CACHES.get(key)
    if cache is None:
        cache = _CACHES[key] = ShapeCache(options)
    return cache


# id(options) -> (options, cache): the move generator's look-up from a state's options object to its
# cache, without hashing the options (a frozen dataclass hashes all its fields each time). The options
# object is kept in the value, so its id cannot be reused while the entry stands.
_BY_ID: dict[int, tuple[Options, ShapeCache]] = {}
_BY_ID_LIMIT = 4096


def shapes_of(options: Options) -> ShapeCache:
    """The shared shape cache for ``options`` (by identity first, then by the options' key)."""
    hit = _BY_ID.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    if len(_BY_ID) >= _BY_ID_LIMIT:
        _BY_ID.clear()
    cache = cache_for(options)
    _BY_ID[id(options)] = (options, cache)
    return cache


def table_info(sig: tuple[object, ...], options: Options) -> TableInfo:
    """The analysis of a table shape under some options (recent ones are kept)."""
    work = _WORK.get(options.key)
    if work is None:
        work = _WORK[options.key] = {}
    info = work.get(sig)
    if info is None:
        if len(work) >= _WORK_LIMIT:
            work.clear()
        info = work[sig] = TableInfo(sig, options)
    return info


_LAY, _CAPTURE, _PLAIN, _GROUP = int(LAY), int(CAPTURE), int(PLAIN), int(GROUP)


def _subsets(pool: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    """Every non-empty subset of ``pool`` (bit, value) with sum <= limit, as (mask, sum)."""
    # Grown an item at a time with list comprehensions: several times faster than a search,
    # and no recursive closure (a reference cycle per shape kept the garbage collector busy).
    out: list[tuple[int, int]] = []
    for bit, v in pool:
        if v <= limit:
            room = limit - v
            out += [(m | bit, t + v) for m, t in out if t <= room]
            out.append((bit, v))
    return out


def _closure(parts: Sequence[int]) -> tuple[int, ...]:
    """Every non-empty union of pairwise disjoint parts."""
    if len(parts) == 1:  # most often
        return (parts[0],)
    if len(parts) == 2:  # next most often
        a, b = parts
        if a & b:
            return (a,) if a == b else (a, b)  # the general options may list a pile twice
        return (a, b, a | b)
    reach = {0}
    for p in parts:
        reach.update([m | p for m in reach if not m & p])
    reach.discard(0)
    return tuple(reach)


# The standard rules' analysis of a shape: (by_sum, closures, raisable, sums), tuples of ints only, so it
# can live in the cache entry without costing the garbage collector anything. by_sum[t]: the masks of
# the sets of loose numerals summing to t (1..10); closures[t]: every capture a card of value t can make
# (unions of disjoint parts: those masks and the piles of value t), which are also the other components
# of a group of t; raisable: (bit, value) of each plain pile; sums: bit t set when by_sum[t] is not empty.
Analysis = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...], int]


def analyse_standard(sig: tuple[object, ...]) -> Analysis:
    """The standard rules' :data:`Analysis` of a table shape."""
    values, declarations = sig
    assert isinstance(values, tuple) and isinstance(declarations, tuple)
    # Every set of loose numerals summing to at most 10, as (mask, sum), grown an item at a time (as
    # _subsets does, inline: this runs once per new shape).
    # Two lists of ints rather than one of (mask, sum) pairs: compiled, their items stay C integers.
    vals: tuple[int, ...] = values
    masks: list[int] = []
    totals: list[int] = []
    bit = 1
    for v in vals:
        room = 10 - v
        for i in range(len(masks)):  # the sets so far (the range is fixed before the loop appends)
            t = totals[i]
            if t <= room:
                masks.append(masks[i] | bit)
                totals.append(t + v)
        masks.append(bit)
        totals.append(v)
        bit <<= 1
    bysum: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], []]
    for i in range(len(masks)):
        bysum[totals[i]].append(masks[i])
    share = _SHARED.setdefault
    sums = 0
    for t, ms in enumerate(bysum):
        if ms:
            sums |= 1 << t
    table = tuple([share(p, p) if (p := tuple(ms)) else () for ms in bysum])
    parts = table
    raisable = []
    if declarations:
        for pv, kind, _ in declarations:
            bysum[pv].append(bit)
            if kind == 2:
                raisable.append((bit, pv))
            bit <<= 1
        parts = tuple([share(p, p) if (p := tuple(ms)) else () for ms in bysum])
    # A single part is its own closure (the usual case): no call for it.
    clos = tuple([ms if len(ms) < 2 else _closure(ms) for ms in parts])
    return table, clos, tuple(raisable), sums


def raw_standard(v: int, ana: Analysis) -> list[Use]:
    """:meth:`TableInfo.raw` for the standard rules, in one pass (the same uses in the same order)."""
    # Loops rather than comprehensions: the lists are short, and a comprehension is a call.
    bysum, clos, raisable, _ = ana
    caps = clos[v]
    out: list[Use] = []
    add = out.append
    for im in caps:
        add((_CAPTURE, v, im, 11, 0))
    room = 10 - v
    for s in range(1, room + 1):
        for m in bysum[s]:
            add((_PLAIN, v + s, m, v + s, -1))
    for bit, pv in raisable:
        if pv <= room:
            add((_PLAIN, pv + v, bit, pv + v, bit))
    for u in caps:  # a group of v's: the card and what it could capture
        add((_GROUP, v, u, v, 0))
    g = v
    for others in clos[v + 1:]:  # groups of g > v: the card with loose cards summing to g - v
        g += 1
        if not others:
            continue
        need = g - v
        pcs = bysum[need]
        if not raisable:
            if not pcs:
                continue
            if len(pcs) == 1 and len(others) == 1:  # the usual case: nothing to deduplicate
                if not others[0] & pcs[0]:
                    add((_GROUP, g, others[0] | pcs[0], g, 0))
                continue
        found = {u | pc: 0 for pc in pcs for u in others if not u & pc}
        for bit, pv in raisable:  # the card raises a plain pile to g
            if pv == need:
                for u in others:
                    if not u & bit:
                        m = u | bit
                        old = found.get(m)
                        found[m] = bit if old is None else (0 if old == 0 else old | bit)
        for m, req in found.items():
            add((_GROUP, g, m, g, req))
    add((_LAY, v, 0, 11, -1))
    return out


class TableInfo:
    """Moves of one table shape, by played value, in item bits."""

    __slots__ = (
        "_ana",
        "_caps",
        "_fast",
        "_forced",
        "_groups",
        "_lib_sub",
        "_others",
        "_plains",
        "_raises",
        "_raw",
        "_sub",
        "_sums",
        "_sums_lib",
        "declarations",
        "n",
        "opts",
        "part_values",
        "plain_bits",
        "played_values",
        "values",
    )

    def __init__(self, sig: tuple[object, ...], opts: Options) -> None:
        values, declarations = sig
        assert isinstance(values, tuple) and isinstance(declarations, tuple)
        self.values: tuple[int, ...] = values
        self.declarations: tuple[tuple[int, int, bool], ...] = declarations
        self.n = len(values)
        self.opts = opts
        self._raw: list[tuple[Use, ...] | None] = [None] * 11
        # The standard rules (no liberal option, no forced capture, no soy) have a direct path.
        self._fast = not (opts.liberal_groups or opts.liberal_capture or opts.liberal_raise
                          or opts.forced_capture or opts.soy)
        if self._fast:
            self._ana = analyse_standard(sig)
            return
        n = self.n
        self.plain_bits = 0
        for j, (_, kind, _) in enumerate(declarations):
            if kind == 2:
                self.plain_bits |= 1 << (n + j)
        numerals = [(1 << i, v) for i, v in enumerate(values)]
        self._sub = _subsets(numerals, 10)
        plains = [(1 << (n + j), v) for j, (v, k, _) in enumerate(declarations) if k == 2]
        self._lib_sub = _subsets(numerals + plains, 10) if plains else self._sub
        self._caps: dict[int, tuple[int, ...]] = {}
        self._forced: dict[int, list[int]] = {}
        self._plains: dict[int, list[tuple[int, int]]] = {}
        self._raises: dict[int, list[tuple[int, int, int]]] = {}
        self._groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self._others: dict[int, tuple[int, ...]] = {}
        self._sums: dict[int, list[int]] | None = None
        self._sums_lib: dict[int, list[int]] | None = None
        # Bit s of part_values: something on the table could be a component of a
        # group of s; bit d of played_values: a played card could be raised by d.
        gsub = self._lib_sub if opts.liberal_groups else self._sub
        pv = pl = 0
        for _, t in gsub:
            pv |= 1 << t
        pl = pv
        for v, kind, soy in declarations:
            if not (soy and opts.soy):
                pv |= 1 << v
            if kind == 2:
                pl |= 1 << v
                if opts.liberal_raise:
                    pl |= (1 << 11) - 1 << v
        self.part_values = pv
        self.played_values = pl

    # -- everything a numeral may do ----------------------------------------
    def raw(self, v: int) -> tuple[Use, ...]:
        """(kind, value, item mask, need, req) of every use of a numeral ``v``.

        A use is legal when the mover still holds a card of value ``need``
        after playing this one (11: no such condition) and ``req`` allows it:
        -1 only for a mover who owns no declaration (a new plain declaration,
        a lay), 0 always, otherwise at least one pile among the bits of
        ``req`` must be raisable by the mover (a raise).
        """
        res = self._raw[v]
        if res is None:
            res = self._raw[v] = tuple(raw_standard(v, self._ana) if self._fast else self._make_raw(v))
        return res

    def _make_raw(self, v: int) -> list[Use]:
        forced = self.opts.forced_capture
        caps = self.forced_captures(v) if forced else self.captures(v)
        out: list[Use] = [(_CAPTURE, v, im, 11, 0) for im in caps]
        if forced and caps:
            return out
        add = out.append
        for im, s in self.plains(v):
            add((_PLAIN, s, im, s, -1))
        for im, s, req in self.raises(v):
            add((_PLAIN, s, im, s, req))
        pv, pl = self.part_values, self.played_values
        for g in range(v, 11):
            if pv >> g & 1 and (g == v or pl >> (g - v) & 1):
                for im, req in self.groups(v, g):
                    add((_GROUP, g, im, g, req))
        add((_LAY, v, 0, 11, -1))
        return out

    # -- captures ---------------------------------------------------------
    def _by_sum(self, total: int, liberal: bool = False) -> list[int]:
        """Masks of the loose numerals (and, if ``liberal``, plain piles) summing to ``total``."""
        index = self._sums_lib if liberal else self._sums
        if index is None:
            index = {}
            for m, t in (self._lib_sub if liberal else self._sub):
                index.setdefault(t, []).append(m)
            if liberal:
                self._sums_lib = index
            else:
                self._sums = index
        return index.get(total, [])

    def _plain_parts(self, g: int) -> list[int]:
        n = self.n
        return self._by_sum(g) + [1 << (n + j) for j, (pv, _, _) in enumerate(self.declarations) if pv == g]

    def _capture_parts(self, v: int) -> list[int]:
        parts = self._by_sum(v, self.opts.liberal_capture)
        if self.declarations:
            n = self.n
            parts = parts + [1 << (n + j) for j, (pv, _, _) in enumerate(self.declarations) if pv == v]
        return parts

    def captures(self, v: int) -> tuple[int, ...]:
        """Item masks a numeral of value ``v`` may capture."""
        caps = self._caps.get(v)
        if caps is None:
            caps = self._caps[v] = _closure(self._capture_parts(v))
        return caps

    def forced_captures(self, v: int) -> list[int]:
        """The captures that leave nothing the card could also have taken."""
        forced = self._forced.get(v)
        if forced is None:
            parts = self._capture_parts(v)
            forced = self._forced[v] = [m for m in self.captures(v) if all(m & p for p in parts)]
        return forced

    # -- plain declarations and raises --------------------------------------
    def plains(self, c: int) -> list[tuple[int, int]]:
        """(item mask, value) of each new plain declaration made with value ``c``."""
        res = self._plains.get(c)
        if res is None:
            res = self._plains[c] = [(m, c + s) for s in range(1, 11 - c) for m in self._by_sum(s)]
        return res

    def raises(self, c: int) -> list[tuple[int, int, int]]:
        """(item mask, new value, piles any one of which must be raisable)."""
        res = self._raises.get(c)
        if res is None:
            res = []
            n = self.n
            if self.opts.liberal_raise:
                found: dict[int, int] = {}
                for j, (pv, kind, _) in enumerate(self.declarations):
                    if kind != 2 or pv + c > 10:
                        continue
                    bit = 1 << (n + j)
                    found[bit] = pv + c
                    for m, s in self._lib_sub:
                        if not m & bit and pv + c + s <= 10:
                            found[m | bit] = pv + c + s
                res = [(m, s, m & self.plain_bits) for m, s in found.items()]
            else:
                for j, (pv, kind, _) in enumerate(self.declarations):
                    if kind == 2 and pv + c <= 10:
                        bit = 1 << (n + j)
                        res.append((bit, pv + c, bit))
            self._raises[c] = res
        return res

    # -- groups -----------------------------------------------------------
    def groups(self, c: int, g: int) -> list[tuple[int, int]]:
        """(item mask, requirement) of each group of ``g`` made with value ``c``.

        A requirement of 0 means none; otherwise at least one pile among its
        bits must be raisable by the mover (the played card raises it).
        """
        key = (c, g)
        res = self._groups.get(key)
        if res is not None:
            return res
        res = []
        opts = self.opts
        others = self._others.get(g)
        if others is None:
            if opts.liberal_groups or (opts.soy and any(soy for _, _, soy in self.declarations)):
                parts = set(self._by_sum(g, opts.liberal_groups))
                n = self.n
                for j, (pv, _, soy) in enumerate(self.declarations):
                    if pv == g and not (soy and opts.soy):
                        parts.add(1 << (n + j))
                others = _closure(list(parts))
            else:
                others = self.captures(g) if not opts.liberal_capture else _closure(self._plain_parts(g))
            self._others[g] = others
        if c == g:
            res = [(u, 0) for u in others]
        elif c < g and others:
            need = g - c
            found: dict[int, int] = {}
            # The played card with loose numerals (or, liberally, plain piles) summing to g.
            for pc in self._by_sum(need, opts.liberal_groups):
                for u in others:
                    if not u & pc:
                        found[u | pc] = 0
            # The played card raising a plain pile to g: the pile must be raisable.
            n = self.n
            for j, (pv, kind, _) in enumerate(self.declarations):
                if kind != 2:
                    continue
                bit = 1 << (n + j)
                pcs = []
                if pv == need:
                    pcs.append((bit, bit))
                if opts.liberal_raise and pv < need:
                    pcs += [(m | bit, (m | bit) & self.plain_bits) for m, t in self._lib_sub
                            if not m & bit and pv + t == need]
                for pc, req in pcs:
                    for u in others:
                        if not u & pc:
                            m = u | pc
                            old = found.get(m)
                            found[m] = req if old is None else (0 if old == 0 else old | req)
            res = list(found.items())
        self._groups[key] = res
        return res
