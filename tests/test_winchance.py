"""The chance to win the game after a move (hints, diloti analyse): the dynamic programme against a simulation of
the same model, its symmetry and order, and the move's chance against its expected points."""

from __future__ import annotations

import random

import pytest

from diloti.ai.analysis import rank_moves, view_chances
from diloti.ai.winchance import _splits, game_chance, move_chance
from diloti.games.diloti.state import State

SOURCE = "diloti.games.diloti.players"  # Diloti's measured round splits


def simulate(a: int, b: int, target: int, players: int, games: int, rng: random.Random) -> float:
    """The same model played out: rounds drawn from the measured splits until a side is alone over the target."""
    splits = _splits(SOURCE, players)
    population = [(x, y) for x, y, _ in splits]
    weights = [p for _, _, p in splits]
    won = 0.0
    for _ in range(games):
        x, y = a, b
        while not ((x >= target or y >= target) and x != y):
            dx, dy = rng.choices(population, weights)[0]
            x, y = x + dx, y + dy
        won += x > y
    return won / games


@pytest.mark.parametrize(("a", "b", "target", "players"), [(0, 0, 61, 2), (30, 45, 61, 2), (50, 20, 61, 4),
                                                          (10, 0, 31, 2)])
def test_the_table_agrees_with_playing_the_model_out(a: int, b: int, target: int, players: int) -> None:
    games = 3000
    got = simulate(a, b, target, players, games, random.Random(a * 100 + b))
    want = game_chance(SOURCE, a, b, target, players)
    assert abs(got - want) < 4 * (want * (1 - want) / games) ** 0.5 + 0.005, (got, want)


def test_chances_are_symmetric_and_ordered() -> None:
    for a, b in ((0, 0), (12, 40), (59, 58), (3, 33)):
        assert game_chance(SOURCE, a, b, 61) + game_chance(SOURCE, b, a, 61) == pytest.approx(1.0, abs=1e-9)
    assert [game_chance(SOURCE, a, 30, 61) for a in (10, 20, 30, 40, 50)] == sorted(game_chance(SOURCE, a, 30, 61)
                                                                             for a in (10, 20, 30, 40, 50))
    assert game_chance(SOURCE, 61, 60, 61) == 1.0 and game_chance(SOURCE, 61, 61, 61) == 0.5
    # the normal approximation, above the exact table's targets
    assert game_chance(SOURCE, 0, 0, 5000) == pytest.approx(0.5) and game_chance(SOURCE, 900, 100, 5000) > 0.9
    moves = [move_chance(SOURCE, 30, 30, 61, d, 0.6) for d in (-10, -3, 0, 3, 10)]
    assert moves == sorted(moves) and moves[2] == pytest.approx(0.5, abs=0.03)
    # Late in a round the same expected points are surer: nearer the end, a lead counts for more.
    assert move_chance(SOURCE, 55, 50, 61, 4.0, 0.05) > move_chance(SOURCE, 55, 50, 61, 4.0, 1.0)


def test_a_view_gets_one_chance_per_ranked_move() -> None:
    s = State.new(seed=4)
    view = s.view(s.turn, (40, 52))
    ranked = rank_moves(view, seed=1, iterations=60, seconds=None)
    wins = view_chances(view, ranked)
    assert len(wins) == len(ranked) and all(0.0 <= w <= 1.0 for w in wins)
    estimates = [v for _, v in ranked]
    assert estimates == sorted(estimates, reverse=True)
    assert wins == sorted(wins, reverse=True)  # a better expected round is never a smaller chance
