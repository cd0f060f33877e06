"""perft: the fixture counts, perft through a deal and at the end of a round."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from diloti.core.perft import divide, perft
from diloti.games.diloti.formats.position import position_from_dict
from diloti.games.diloti.state import State

FIXTURE = Path(__file__).parent / "fixtures" / "perft.jsonl"


def cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("case", cases(), ids=lambda c: c["name"])
def test_fixture_counts(case: dict[str, Any]) -> None:
    s = position_from_dict(case["position"])
    before = s.key()
    assert [perft(s, d) for d in range(1, len(case["perft"]) + 1)] == case["perft"]
    assert s.key() == before  # push/pop left it as it was
    assert perft(s, 0) == 1


def test_fixture_covers_what_it_should() -> None:
    names = [c["name"] for c in cases()]
    for part in ("start 2p", "start 4p", "two declarations", "through a deal", "round over", "redeal"):
        assert any(part in n for n in names), part
    opts = {k for c in cases() for k, v in c["position"]["options"].items() if v not in (False, 61, "off")}
    assert {"forced_capture", "liberal_groups", "soy", "self_raise", "three_faces_stay"} <= opts


def test_through_a_deal() -> None:
    case = next(c for c in cases() if c["name"] == "through a deal 2p")
    s = position_from_dict(case["position"])
    assert all(len(h) == 1 for h in s.hands) and s.stock_size > 0
    stock = s.stock_size
    # Two moves empty both hands; the deal happens inside the second one.
    s.push(s.legal_moves()[0])
    s.push(s.legal_moves()[0])
    assert s.stock_size == stock - 12 and all(len(h) == 6 for h in s.hands)
    assert perft(s, 1) == len(s.legal_moves()) > 0


def test_end_of_round_has_no_moves() -> None:
    s = position_from_dict(next(c for c in cases() if c["name"] == "round over 2p")["position"])
    assert s.is_over
    assert [perft(s, d) for d in range(4)] == [1, 0, 0, 0]
    assert divide(s, 2) == []


def test_divide_sums_to_perft() -> None:
    s = State.new(4, seed=17)
    rows = divide(s, 3)
    assert [m for m, _ in rows] == s.legal_moves()
    assert sum(n for _, n in rows) == perft(s, 3)


def test_perft_matches_a_walk_by_copies() -> None:
    # An independent count that never pops: copy the state for every child.
    def by_copy(s: State, d: int) -> int:
        if d == 0:
            return 1
        total = 0
        for m in s.legal_moves():
            c = s.copy()
            c.push(m)
            total += by_copy(c, d - 1)
        return total

    rng = random.Random(3)
    s = State.new(2, seed=99)
    for _ in range(10):
        s.push(rng.choice(s.legal_moves()))
    assert perft(s, 3) == by_copy(s, 3)


def _reference() -> Any:
    path = Path(__file__).parent / "reference.py"
    if not path.exists():
        pytest.skip("the brute-force reference generator is not there")
    spec = importlib.util.spec_from_file_location("diloti_reference", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["start 2p seed 1", "start 4p seed 4", "two declarations 2p liberal all seed 101",
                                  "two declarations 2p forced_capture seed 1100", "through a deal 2p"])
def test_fixture_agrees_with_the_brute_force_reference(name: str) -> None:
    ref = _reference()
    case = next(c for c in cases() if c["name"] == name)
    s = position_from_dict(case["position"])

    def rperft(d: int) -> int:
        moves = ref.reference_moves(s)
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            s.push(m)
            total += rperft(d - 1)
            s.pop()
        return total

    assert rperft(2) == case["perft"][1]
