"""The fast move generator (table.py + State) against the brute-force reference.

Random games under random option mixes, 2 and 4 players: at every position
small enough for brute force, the two generators must list the same moves,
each exactly once.
"""

from __future__ import annotations

import random

import pytest

from diloti.core.options import Options
from diloti.core.state import State
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
    from diloti.core.table import TableInfo

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
    import diloti.core.table as table

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
