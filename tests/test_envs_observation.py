"""Observations come from the seat's view alone: hidden cards never change them."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from diloti.core.cards import CARDS, mask_of
from diloti.core.moves import GROUP
from diloti.core.phase import Phase
from diloti.games.diloti.envs.actions import Decision
from diloti.games.diloti.envs.observation import LAYOUT, PARTS, SIZE, describe_view, observe
from diloti.games.diloti.options import Options
from diloti.games.diloti.players.sampler import Worlds
from diloti.games.diloti.state import State

MIXES = [
    Options(),
    Options(liberal_groups=True, liberal_raise=True, self_raise=True),
    Options(dealer_sees_bottom=True, face_card_redeal="any_deal", liberal_capture=True, soy=True),
]


def positions(count: int, seed: int = 0) -> list[State]:
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        players = rng.choice([2, 4])
        s = State.new(players, rng.choice(MIXES), dealer=rng.randrange(players), seed=rng.randrange(10**9))
        while not s.is_over:
            if rng.random() < 0.3:
                out.append(s.copy())
            s.push(rng.choice(s.legal_moves()))
        out.append(s)
    return out


def test_layout_is_contiguous_and_documented() -> None:
    pos = 0
    for name, size, text in PARTS:
        assert LAYOUT[name] == slice(pos, pos + size) and text
        pos += size
    assert pos == SIZE == 744


def test_docs_table_is_the_layout() -> None:
    """docs/RESEARCH.md's table lists every part with its entries, size and description."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "RESEARCH.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([0-9–]+) \| `(\w+)` \| (\d+) \| (.+) \|$", doc, flags=re.M)
    expected = []
    for name, size, text in PARTS:
        s = LAYOUT[name]
        entries = str(s.start) if size == 1 else f"{s.start}–{s.stop - 1}"
        expected.append((entries, name, str(size), text))
    assert rows == expected


def test_hidden_cards_do_not_change_the_observation() -> None:
    """Other hands and the stock dealt again at random (consistently with the view): same observation."""
    rng = random.Random(5)
    differed = 0
    for s in positions(400):
        for seat in range(s.players):
            view = s.view(seat)
            world = Worlds(view).sample(rng)
            other = world.view(seat)
            hidden = [h for i, h in enumerate(world.hands) if i != seat] + [world.remaining_stock]
            if hidden != [h for i, h in enumerate(s.hands) if i != seat] + [s.remaining_stock]:
                differed += 1
            head, chosen = -1, 0
            if seat == s.turn and not s.is_over and rng.random() < 0.5:
                d = Decision.of(s)
                if d.apply(rng.choice(d.actions)) is None:
                    head, chosen = d.head, d.chosen
            a, b = observe(view, head, chosen), observe(other, head, chosen)
            assert np.array_equal(a, b), f"seat {seat}: {s.describe()} vs {world.describe()}"
            assert describe_view(view, head, chosen) == describe_view(other, head, chosen)
    assert differed > 300


def test_what_the_seat_sees_is_there() -> None:
    for s in positions(200, seed=1):
        for seat in range(s.players):
            v = s.view(seat)
            o = observe(v)
            assert o.dtype == np.float32 and o.shape == (SIZE,)
            assert float(o.min()) >= 0.0 and float(o.max()) <= 1.0
            assert mask_of(c for c in CARDS if o[LAYOUT["hand"]][c]) == mask_of(s.hands[seat])
            assert mask_of(c for c in CARDS if o[LAYOUT["table"]][c]) == mask_of(s.table)
            planes = o[LAYOUT["declaration_cards"]].reshape(4, 52)
            slots = o[LAYOUT["declarations"]].reshape(4, 12)
            for d in s.declarations:
                r = (d.owner - seat) % s.players
                assert mask_of(c for c in CARDS if planes[r][c]) == d.mask
                assert slots[r][0] == 1 and slots[r][1] == (d.kind == GROUP) and slots[r][1 + d.value] == 1
            assert o[LAYOUT["phase"]][int(s.phase)] == 1
            if s.phase == Phase.PLAY:
                assert o[LAYOUT["turn"]][(s.turn - seat) % s.players] == 1
            own = o[LAYOUT["captured"]][:52]
            assert mask_of(c for c in CARDS if own[c]) == s.captured[seat & 1]


def test_own_hand_changes_the_observation() -> None:
    s = State.new(seed=4)
    t = s.copy()
    t.hands = [list(t.hands[1]), list(t.hands[0])]
    assert not np.array_equal(observe(s.view(0)), observe(t.view(0)))


def test_out_is_overwritten() -> None:
    s = State.new(seed=4)
    buf = np.full(SIZE, 0.5, dtype=np.float32)
    assert observe(s.view(0), out=buf) is buf
    assert np.array_equal(buf, observe(s.view(0)))


@pytest.mark.parametrize("players", [2, 4])
def test_describe_view_names_the_seat(players: int) -> None:
    text = describe_view(State.new(players, seed=2).view(1))
    assert text.startswith(f"seat 1/{players}; phase play")
