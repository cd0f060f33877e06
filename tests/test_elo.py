"""The maximum-likelihood Elo fit: exact small cases, and synthetic matches between players of known ratings."""

from __future__ import annotations

import math
import random

import pytest

from diloti.match.elo import RatingError, fit_elo

TRUE = {"a": -400.0, "b": -150.0, "c": 0.0, "d": 120.0, "e": 430.0}  # their average is 0


def _p(ra: float, rb: float) -> float:
    return 1.0 / (1.0 + 10 ** ((rb - ra) / 400.0))


def _synthetic(rng: random.Random, pairs: int, draw: float = 0.1) -> dict[tuple[str, str], list[tuple[float, ...]]]:
    """Every pair of players meets (a chain of neighbours meets more), games drawn from the model."""
    names = sorted(TRUE)
    out: dict[tuple[str, str], list[tuple[float, ...]]] = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = _p(TRUE[a], TRUE[b])
            n = pairs if names.index(b) == i + 1 else pairs // 4
            games = []
            for _ in range(n):
                pair = []
                for _ in range(2):
                    u = rng.random()
                    # a draw takes the same share from a win and a loss, so the expected score stays p
                    d = draw * 2 * min(p, 1 - p)
                    pair.append(0.5 if u < d else 1.0 if u < d + p - d / 2 else 0.0)
                games.append(tuple(pair))
            out[a, b] = games
    return out


def test_the_fit_finds_known_ratings_within_its_intervals() -> None:
    rng = random.Random(7)
    misses = gap_misses = 0
    for _ in range(20):
        fit = fit_elo(_synthetic(rng, 400), prior=0)
        assert abs(sum(r.elo for r in fit.ratings.values())) < 1e-6  # the average is the zero
        for name, r in fit.ratings.items():
            assert r.stderr > 0 and abs(r.elo - TRUE[name]) < 5 * r.stderr
            misses += not r.low <= TRUE[name] <= r.high
        d = fit.difference("e", "a")
        gap_misses += not d.low < TRUE["e"] - TRUE["a"] < d.high
    # 95% intervals: about 5 of the 100 miss (more would mean intervals too narrow), 1 of the 20 gaps
    assert misses <= 12 and gap_misses <= 3


def test_more_games_narrow_the_intervals_and_an_anchor_shifts_the_scale() -> None:
    rng = random.Random(3)
    small = fit_elo(_synthetic(rng, 100)).ratings
    large = fit_elo(_synthetic(rng, 1600)).ratings
    for name in TRUE:
        assert large[name].stderr < small[name].stderr / 2.5  # 16 times the games: about a quarter the width
        assert abs(large[name].elo - TRUE[name]) < 40
    anchored = fit_elo(_synthetic(random.Random(3), 100), anchor="c")
    assert anchored.ratings["c"].elo == 0 and anchored.ratings["c"].stderr == 0
    assert anchored.ratings["e"].elo - anchored.ratings["a"].elo == pytest.approx(small["e"].elo - small["a"].elo)


def test_exact_cases_and_the_prior() -> None:
    # two players: the fit is the score's Elo, 400 log10(s / (1 - s)), with the prior's draw in the score
    r = fit_elo({("x", "y"): [(1.0, 0.5)] * 10 + [(0.0, 0.0)] * 5}, prior=0).ratings
    assert r["x"].elo - r["y"].elo == pytest.approx(400 * math.log10(15 / 15))
    r = fit_elo({("x", "y"): [(1.0, 1.0)] * 10}, prior=2).ratings  # 20 wins and 2 virtual draws: 21 of 22
    assert r["x"].elo - r["y"].elo == pytest.approx(400 * math.log10(21 / 1))
    # a match given both ways counts once for each way
    both = fit_elo({("x", "y"): [(1.0, 0.0)], ("y", "x"): [(1.0, 1.0)]}, prior=0).ratings
    assert both["y"].elo - both["x"].elo == pytest.approx(400 * math.log10(3 / 1))
    with pytest.raises(RatingError, match="infinite"):
        fit_elo({("x", "y"): [(1.0, 1.0)]}, prior=0)


def test_players_that_cannot_be_put_on_one_scale() -> None:
    with pytest.raises(RatingError, match="not all connected"):
        fit_elo({("a", "b"): [(1.0, 0.0)], ("c", "d"): [(1.0, 0.0)]})
    with pytest.raises(RatingError, match="unknown anchor"):
        fit_elo({("a", "b"): [(1.0, 0.0)]}, anchor="z")
    with pytest.raises(RatingError, match="against itself"):
        fit_elo({("a", "a"): [(1.0, 0.0)]})
