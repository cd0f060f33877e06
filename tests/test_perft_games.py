"""perft of Xeri and Kontsina: the fixture counts, checked against a brute-force generator written from
docs/RULES-XERI.md and docs/RULES-KONTSINA.md (plain lists, copies, itertools; nothing shared with the engine)."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from diloti.core.cards import parse_card
from diloti.core.perft import divide, perft
from diloti.formats.games import position_from_dict

FIXTURES = Path(__file__).parent / "fixtures"


def cases(game: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FIXTURES / f"perft-{game}.jsonl").read_text().splitlines() if line.strip()]


ALL = [(g, c) for g in ("xeri", "kontsina") for c in cases(g)]


@pytest.mark.parametrize(("game", "case"), ALL, ids=[f"{g}: {c['name']}" for g, c in ALL])
def test_fixture_counts(game: str, case: dict[str, Any]) -> None:
    s = position_from_dict(case["position"])
    assert s.game == game
    assert [perft(s, d) for d in range(1, len(case["perft"]) + 1)] == case["perft"]


def test_fixtures_cover_deals_ends_and_options() -> None:
    names = " / ".join(c["name"] for _, c in ALL)
    for part in ("through a deal", "last cards", "hand over", "partnerships", "forced_capture", "3 players"):
        assert part in names
    assert any(max(c["perft"]) > 1000 for _, c in ALL)


def test_divide_sums_to_perft() -> None:
    s = position_from_dict(cases("kontsina")[1]["position"])
    assert sum(n for _, n in divide(s, 3)) == perft(s, 3)


# ------------------------------------------------------------------ the reference
RANK = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank(card: str) -> int:
    return RANK.get(card[:-1]) or int(card[:-1])


def value(card: str) -> int:
    return rank(card) if rank(card) <= 10 else 0


def ref_moves(game: str, p: dict[str, Any]) -> list[tuple[str, frozenset[str]]]:
    """(card, table cards taken) for each legal move."""
    hand, table = p["hands"][p["turn"]], p["table"]
    out = []
    for c in hand:
        if game == "xeri":
            takes = bool(table) and (rank(c) == rank(table[-1]) or rank(c) == 11)
            out.append((c, frozenset(table) if takes else frozenset()))
            continue
        caps = [frozenset([t]) for t in table if rank(t) == rank(c)]
        if value(c):
            nums = [t for t in table if value(t)]
            caps += [frozenset(s) for k in range(2, len(nums) + 1) for s in combinations(nums, k)
                     if sum(map(value, s)) == value(c)]
        if not (p["options"].get("forced_capture") and caps):
            out.append((c, frozenset()))
        out += [(c, s) for s in caps]
    return out


def ref_play(game: str, p: dict[str, Any], move: tuple[str, frozenset[str]]) -> dict[str, Any]:
    q: dict[str, Any] = json.loads(json.dumps(p))
    card, taken = move
    n, size = q["players"], 6 if game == "xeri" else 4
    turn = q["turn"]
    q["hands"][turn].remove(card)
    if taken:
        q["table"] = [t for t in q["table"] if t not in taken]
    else:
        q["table"].append(card)
    if q["hands"][turn] or turn != q["dealer"]:
        q["turn"] = (turn + 1) % n
        return q
    q["turn"] = (q["dealer"] + 1) % n
    if q["stock"]:
        for i in range(n):
            seat = (q["dealer"] + 1 + i) % n
            q["hands"][seat], q["stock"] = q["stock"][:size], q["stock"][size:]
    else:
        q["over"] = True
    return q


def ref_perft(game: str, p: dict[str, Any], depth: int) -> int:
    if depth == 0:
        return 1
    if p.get("over") or all(not h for h in p["hands"]):
        return 0
    return sum(ref_perft(game, ref_play(game, p, m), depth - 1) for m in ref_moves(game, p))


@pytest.mark.parametrize(("game", "case"), ALL, ids=[f"{g}: {c['name']}" for g, c in ALL])
def test_fixture_agrees_with_the_brute_force_reference(game: str, case: dict[str, Any]) -> None:
    p = case["position"]
    depth = min(len(case["perft"]), 4)
    assert ref_perft(game, p, depth) == case["perft"][depth - 1]


def test_reference_sees_the_same_moves_as_the_engine() -> None:
    for game, case in ALL:
        s = position_from_dict(case["position"])
        mine = [(str(m.card), frozenset(map(str, m.cards))) for m in s.legal_moves()]
        ref = [(str(parse_card(c)), t) for c, t in ref_moves(game, case["position"])]
        if not s.is_over:
            assert len(set(mine)) == len(mine) == len(ref) and set(mine) == set(ref), case["name"]
