"""The one-card games' observations (Xeri's, Kontsina's layouts on the generic HandLayout): a fixed layout in
[0, 1], built only from the seat's view."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numpy", reason="the research extra (pip install 'diloti[research]') is not installed")

from diloti.games.kontsina.envs import ENV as KONTSINA
from diloti.games.kontsina.rules import KontsinaOptions, KontsinaState
from diloti.games.onecard.envs import HandEnv
from diloti.games.onecard.envs.actions import HandDecision
from diloti.games.onecard.state import HandState
from diloti.games.xeri.envs import ENV as XERI
from diloti.games.xeri.rules import XeriOptions, XeriState

ENVS: dict[str, HandEnv] = {"xeri": XERI, "kontsina": KONTSINA}
VARIANT_PARTS = {game: env.layout.parts for game, env in ENVS.items()}
VARIANT_LAYOUT = {game: env.layout.layout for game, env in ENVS.items()}
VARIANT_SIZE = {game: env.size for game, env in ENVS.items()}

SEATINGS: list[tuple[type[HandState], int, Any]] = [
    (XeriState, 2, XeriOptions()),
    (XeriState, 4, XeriOptions(partnerships=True)),
    (KontsinaState, 2, KontsinaOptions()),
    (KontsinaState, 3, KontsinaOptions()),
    (KontsinaState, 4, KontsinaOptions()),
    (KontsinaState, 4, KontsinaOptions(partnerships=True)),
]


def test_the_layouts_are_contiguous_and_named_once() -> None:
    for game, parts in VARIANT_PARTS.items():
        pos = 0
        for name, size, what in parts:
            assert VARIANT_LAYOUT[game][name] == slice(pos, pos + size) and what
            pos += size
        assert pos == VARIANT_SIZE[game] and len({p[0] for p in parts}) == len(parts)
    assert VARIANT_SIZE == {"xeri": 404, "kontsina": 517}


def others_swapped(s: HandState, seat: int, rng: random.Random) -> HandState:
    """The same position with the cards ``seat`` cannot see (other hands, the stock) dealt again."""
    pool = [c for p in range(s.players) if p != seat for c in s.hands[p]] + s.remaining_stock
    rng.shuffle(pool)
    t = s.copy(stack=True)
    pos = 0
    for p in range(s.players):
        if p != seat:
            t.hands[p] = sorted(pool[pos:pos + len(s.hands[p])])
            pos += len(s.hands[p])
    t.stock = t.stock[:t.stock_pos] + pool[pos:]
    return t


@pytest.mark.parametrize(("cls", "players", "options"), SEATINGS)
def test_no_hidden_card_in_an_observation(cls: type[HandState], players: int, options: Any) -> None:
    game = cls.GAME
    changed = 0
    for seed in range(12):
        rng = random.Random(seed)
        s = cls.new(players, options, dealer=seed % players, seed=seed)
        while not s.is_over:
            env = ENVS[game]
            d = HandDecision(env.encoding, s.legal_moves())
            d.apply(rng.choice(d.legal_actions()))  # observe in the middle of a choice too
            for seat in range(players):
                t = others_swapped(s, seat, rng)
                changed += t.hands != s.hands
                head, chosen = (d.head, d.chosen) if seat == s.turn else (-1, 0)
                a = env.observe(s.view(seat), head, chosen)
                b = env.observe(t.view(seat), head, chosen)
                assert np.array_equal(a, b)
                assert env.describe_view(s.view(seat)) == env.describe_view(t.view(seat))
                assert a.dtype == np.float32 and a.shape == (VARIANT_SIZE[game],)
                assert a.min() >= 0.0 and a.max() <= 1.0
                L = VARIANT_LAYOUT[game]
                assert int(a[L["hand"]].sum()) == len(s.hands[seat])
                assert int(a[L["unseen"]].sum()) == sum(len(h) for p, h in enumerate(s.hands) if p != seat) \
                    + s.stock_size
            s.push(rng.choice(s.legal_moves()))
    assert changed > 100


def test_the_xeri_top_card_and_relative_sides() -> None:
    s = XeriState.new(seed=4)
    L = VARIANT_LAYOUT["xeri"]
    for seat in (0, 1):
        o = XERI.observe(s.view(seat))
        assert np.flatnonzero(o[L["top"]]).tolist() == [s.table[-1]]
        assert o[L["turn"]].tolist() == ([0, 1, 0, 0] if seat == 0 else [1, 0, 0, 0])  # seat 1 leads
    s.push(s.legal_moves()[0])
    if s.captured[1]:
        o0, o1 = XERI.observe(s.view(0)), XERI.observe(s.view(1))
        assert np.array_equal(o0[L["captured"]][52:], o1[L["captured"]][:52])


def test_kontsina_three_players_see_three_sides_in_their_own_order() -> None:
    rng = random.Random(1)
    s = KontsinaState.new(3, seed=1)
    while not any(s.captured):
        s.push(rng.choice(s.legal_moves()))
    L = VARIANT_LAYOUT["kontsina"]
    side = next(i for i, m in enumerate(s.captured) if m)
    for seat in range(3):
        o = KONTSINA.observe(s.view(seat))
        planes = o[L["captured"]].reshape(4, 52)
        rel = (side - seat) % 3
        assert planes[rel].sum() == s.captured[side].bit_count() and planes[3].sum() == 0
