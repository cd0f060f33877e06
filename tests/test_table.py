"""The fast move generator (table.py + State) against the brute-force reference.

Random games under random option mixes, 2 and 4 players: at every position
small enough for brute force, the two generators must list the same moves,
each exactly once.
"""

from __future__ import annotations

import random

import pytest

from diloti.core.cards import mask_of
from diloti.core.moves import CAPTURE, Move
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State
from reference import reference_moves

FLAGS = ["three_faces_stay", "any_rank_redeal", "forced_capture", "liberal_groups", "liberal_raise",
         "liberal_capture", "soy", "self_raise", "no_xeri_last_card", "xeri_first_card", "dealer_sees_bottom"]


def random_options(rng: random.Random, p: float = 0.4) -> Options:
    """Each flag on with probability ``p``, and a random face-card redeal rule."""
    kw: dict[str, object] = {f: rng.random() < p for f in FLAGS}
    kw["face_card_redeal"] = rng.choice(["off", "first_deal", "any_deal"])
    return Options(**kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("block", range(6))
def test_generator_matches_reference(block: int) -> None:
    checked = 0
    for seed in range(block * 8, block * 8 + 8):
        rng = random.Random(seed)
        opts = random_options(rng)
        players = rng.choice([2, 4])
        s = State.new(players, opts, dealer=rng.randrange(players), seed=seed)
        while not s.is_over:
            fast = s.legal_moves()
            assert fast, s.describe()
            if len(s.table) + len(s.declarations) <= 6:
                ref = reference_moves(s)
                assert len(fast) == len(set(fast)), f"duplicate moves in {s.describe()}"
                assert set(fast) == ref, (
                    f"{opts.changed()} {s.describe()}: only fast {[str(m) for m in set(fast) - ref]}, "
                    f"only reference {[str(m) for m in ref - set(fast)]}")
                checked += 1
            s.push(rng.choice(fast))
    assert checked > 100


def test_generator_matches_reference_on_declaration_heavy_games() -> None:
    # A policy that prefers declarations builds tables with several piles.
    checked = 0
    for seed in range(100, 112):
        rng = random.Random(seed)
        opts = random_options(rng)
        s = State.new(rng.choice([2, 4]), opts, seed=seed)
        while not s.is_over:
            fast = s.legal_moves()
            if len(s.table) + len(s.declarations) <= 6 and s.declarations:
                assert set(fast) == reference_moves(s), s.describe()
                assert len(fast) == len(set(fast))
                checked += 1
            decl = [m for m in fast if m.is_declaration]
            s.push(rng.choice(decl if decl and rng.random() < 0.7 else fast))
    assert checked > 30


def test_standard_path_matches_the_general_one() -> None:
    """The direct path for the standard rules lists the same uses, in the same order."""
    from diloti.games.diloti.table import TableInfo

    rng = random.Random(5)
    standard, general = Options(), Options(soy=True)  # soy changes nothing without a soy pile
    for _ in range(3000):
        values = tuple(sorted(rng.randint(1, 10) for _ in range(rng.randint(0, 9))))
        declarations = tuple((rng.randint(1, 10), rng.choice((2, 3)), False) for _ in range(rng.randint(0, 3)))
        fast, slow = TableInfo((values, declarations), standard), TableInfo((values, declarations), general)
        for v in range(1, 11):
            assert fast.raw(v) == slow.raw(v), (values, declarations, v)


@pytest.mark.parametrize("options", [Options(), Options(liberal_raise=True, soy=True, self_raise=True)],
                         ids=["standard", "liberal"])
def test_cache_turnover_keeps_every_move(options: Options, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tiny cache turns over every few positions (young to old, old shapes promoted back, shared
    uses cleared): the moves, and their order, are those of a cache that never turns over."""
    import diloti.games.diloti.table as table

    def every_list() -> list[list[object]]:
        rng = random.Random(3)
        out: list[list[object]] = []
        for k in range(12):
            s = State.new(2 + 2 * (k % 3 == 0), options, k % 2, seed=k)
            while not s.is_over:
                moves = s.legal_moves()
                out.append(list(moves))
                s.push(rng.choice(moves))
        return out

    monkeypatch.setattr(table, "_CACHES", {})
    monkeypatch.setattr(table, "_BY_ID", {})
    expected = every_list()
    monkeypatch.setattr(table, "_CACHES", {})
    monkeypatch.setattr(table, "_BY_ID", {})
    monkeypatch.setattr(table, "_CACHE_LIMIT", 3)
    monkeypatch.setattr(table, "_SHARED_LIMIT", 50)
    assert every_list() == expected
    cache = table.cache_for(options)
    assert len(cache.young) <= 3 and cache.old  # it did turn over


@pytest.mark.parametrize("block", range(3))
def test_lazy_generator_matches_the_shape_cache(block: int) -> None:
    """The large-table generator lists the same moves, each once, as the shape cache's, on every table
    the shape cache serves (up to LAZY_ITEMS items), under random option mixes; and its check of one
    move agrees with the lists."""
    import diloti.games.diloti.movegen as movegen
    from diloti.core.cards import BIT, cards_of
    from diloti.core.moves import LAY, MoveKind
    from diloti.games.diloti.bigtable import generate_lazy, is_legal_lazy

    checked = 0
    for seed in range(200 + block * 6, 206 + block * 6):
        rng = random.Random(seed)
        opts = random_options(rng, 0.5)
        s = State.new(rng.choice([2, 4]), opts, dealer=rng.randrange(2), seed=seed)
        lays = seed % 2 == 0  # lay whenever possible (the table grows), or prefer declarations
        while not s.is_over:
            fast = movegen.generate(s.phase, s.turn, s.hands[s.turn], s.table, s.declarations, s.options)
            if s.phase == movegen.PLAY and not movegen.is_large(s.table, s.declarations):
                lazy = list(generate_lazy(s.turn, s.hands[s.turn], s.table, s.declarations, s.options))
                assert len(lazy) == len(set(lazy)), s.describe()
                assert set(lazy) == set(fast), (opts.changed(), s.describe())
                # The check of one move without a list: every legal move, and near misses.
                args = (s.turn, s.hands[s.turn], s.table, s.declarations, s.options)
                assert all(is_legal_lazy(*args, m) for m in rng.sample(fast, min(len(fast), 8)))
                whole = s.table_mask()
                for m in rng.sample(fast, min(len(fast), 8)):
                    for other in (Move(m[0], MoveKind(rng.randrange(4)), rng.randrange(11), m[3]),
                                  Move(m[0], m[1], m[2], m[3] ^ BIT[rng.choice(cards_of(whole))] if whole else 0)):
                        assert is_legal_lazy(*args, other) == (other in fast), (other, s.describe())
                checked += 1
            pick = [m for m in fast if (m.kind == LAY if lays else m.is_declaration)]
            s.push(rng.choice(pick if pick and rng.random() < 0.85 else fast))
    assert checked > 100


def test_lazy_generator_counts_plain_piles_in_liberal_captures() -> None:
    from diloti.core.cards import parse_cards
    from diloti.core.moves import PLAIN, Declaration
    from diloti.games.diloti.bigtable import generate_lazy, is_legal_lazy

    opts = Options(forced_capture=True, liberal_capture=True)
    pile = Declaration(mask_of(parse_cards("AC 2H")), 3, PLAIN, 1)
    s = State.from_parts(players=4, options=opts, turn=2, hands=[[], [], parse_cards("6C 10S JC"), []],
                         table=parse_cards("7D JS"), declarations=[pile], stock=[], check=False)
    args = (s.turn, s.hands[2], s.table, s.declarations, opts)
    assert set(generate_lazy(*args)) == set(s.legal_moves())
    assert Move.parse("10S x AC 2H 7D") in s.legal_moves() and is_legal_lazy(*args, Move.parse("10S x AC 2H 7D"))
    assert not is_legal_lazy(*args, Move.parse("10S"))  # the capture is forced


def test_a_huge_table_is_generated_lazily_in_bounded_memory() -> None:
    """Every numeral on the table (a round where nobody captured): the moves are more than could ever be
    listed, yet the first thousand come at once and the generator holds no list of them."""
    import tracemalloc

    from diloti.core.cards import CARDS
    from diloti.games.diloti.movegen import is_large

    table = list(CARDS[:36])  # aces to nines
    hand = list(CARDS[36:40]) + list(CARDS[40:42])  # the four tens and two jacks
    s = State.from_parts(hands=[hand, []], table=table, stock=[], turn=0, check=False)
    assert is_large(s.table, s.declarations)
    tracemalloc.start()
    try:
        moves = s.generate_legal_moves()
        first = [next(moves) for _ in range(1000)]
        for _ in range(20_000):
            next(moves)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000, peak
    assert len(set(first)) == 1000
    assert all(m.card == CARDS[36] and m.kind == CAPTURE for m in first)
    assert all(sum(c.value for c in m.cards) % 10 == 0 for m in first)  # unions of parts summing to 10
    assert s.is_legal(first[-1]) and s.is_legal(Move.lay(CARDS[40]))


def test_large_table_counts() -> None:
    """A count past the shape cache's reach, checked by brute force: a ten on 14 numerals (the aces to
    threes and two fours) takes any union of disjoint sets summing to 10."""
    from diloti.core.cards import CARDS

    s = State.from_parts(hands=[[CARDS[36]], []], table=list(CARDS[:14]), stock=[], turn=0, check=False)
    moves = list(s.generate_legal_moves())
    assert moves == s.legal_moves() and len(moves) == len(set(moves))
    assert moves[-1] == Move.lay(CARDS[36])
    caps = [m for m in moves if m.kind == CAPTURE]
    assert len(caps) == len(moves) - 1  # one card in hand: no declaration can be made
    assert len(caps) == _captures_by_brute_force([c.value for c in CARDS[:14]], 10)


def _captures_by_brute_force(values: list[int], v: int) -> int:
    """Subsets of ``values`` (by index) that split into parts each summing to ``v``, by dynamic programming."""
    n = len(values)
    sums = [sum(values[i] for i in range(n) if m >> i & 1) for m in range(1 << n)]
    ok = [False] * (1 << n)
    ok[0] = True
    for m in range(1, 1 << n):
        if sums[m] % v:
            continue
        low = m & -m  # the part holding the lowest item: every sub-mask of m with it summing to v
        rest = m ^ low
        sub = rest
        while True:
            part = sub | low
            if sums[part] == v and ok[m ^ part]:
                ok[m] = True
                break
            if not sub:
                break
            sub = (sub - 1) & rest
    return sum(ok) - 1
