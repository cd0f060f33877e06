"""The game: rounds to the target, dealer rotation, the tie playoff."""

from __future__ import annotations

import random

import pytest

from diloti.core.errors import DilotiError
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options


def finish_round(g: Game, rng: random.Random) -> None:
    n = g.round_no
    while g.round_no == n and not g.is_over:
        g.push(rng.choice(g.state.legal_moves()))


@pytest.mark.parametrize(("players", "dealers"), [(2, [0, 1, 0, 1]), (4, [0, 1, 2, 3])])
def test_dealer_rotation(players: int, dealers: list[int]) -> None:
    g = Game(players, Options(target=1000), seed=3)
    rng = random.Random(3)
    seen = []
    for _ in range(4):
        seen.append(g.state.dealer)
        assert g.state.turn == (g.state.dealer + 1) % players
        finish_round(g, rng)
    assert seen == dealers


def test_equal_totals_over_the_target_play_another_round() -> None:
    g = Game(2, Options(target=61), seed=8)
    rng = random.Random(8)
    probe = g.state.copy()
    moves = []
    while not probe.is_over:
        m = rng.choice(probe.legal_moves())
        moves.append(m)
        probe.push(m)
    pa, pb = probe.points()
    g.scores = [100 - pa, 100 - pb]
    for m in moves:
        g.push(m)
    assert g.scores == [100, 100] and not g.is_over and g.round_no == 2
    finish_round(g, rng)
    assert g.is_over or g.scores[0] == g.scores[1]


def test_higher_total_wins_when_both_reach_the_target() -> None:
    g = Game(2, Options(target=61), seed=9)
    rng = random.Random(9)
    g.scores = [60, 60]
    finish_round(g, rng)
    if g.scores[0] != g.scores[1]:
        assert g.is_over and g.winner == (0 if g.scores[0] > g.scores[1] else 1)


def test_no_move_after_the_end() -> None:
    g = Game(2, Options(target=1), seed=1)
    rng = random.Random(1)
    while not g.is_over:
        g.push(rng.choice(g.state.legal_moves()))
    with pytest.raises(DilotiError, match="over"):
        g.push(g.state.legal_moves()[0] if g.state.legal_moves() else None)  # type: ignore[arg-type]
