"""The SPRT's statistics: checked against a brute-force maximum likelihood, published figures and simulation."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from diloti.match.sprt import (
    PAIR_SCORES,
    Sprt,
    SprtError,
    elo_interval,
    llr_logistic,
    llr_normalized,
    parse_bounds,
    pentanomial,
    score_of,
)

GOLD = (math.sqrt(5) - 1) / 2


def _golden_max(f: Callable[[float], float], lo: float, hi: float, steps: int = 40) -> float:
    """The maximum of a concave function on [lo, hi] by golden-section search."""
    a, b = lo, hi
    c, d = b - GOLD * (b - a), a + GOLD * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            a, c, fc = c, d, fd
            d = a + GOLD * (b - a)
            fd = f(d)
        else:
            b, d, fd = d, c, fc
            c = b - GOLD * (b - a)
            fc = f(c)
    return max(fc, fd, f(lo), f(hi))


def _brute_loglik(counts: list[float], s: float) -> float:
    """max Σ nᵢ log qᵢ over distributions q of the five pair scores with mean s, searched directly.

    q1, q2, q3 are free; q4 and q0 follow from the two constraints (Σq = 1, Σ q a = s), and each
    variable's feasible range is found from the others, so nested golden sections over a concave
    function find the maximum without the secular equation.
    """
    def ll(q: list[float]) -> float:
        if min(q) <= 0:
            return -1e300
        return sum(n * math.log(x) for n, x in zip(counts, q, strict=True))

    def q_of(q1: float, q2: float, q3: float) -> list[float]:
        q4 = s - (0.25 * q1 + 0.5 * q2 + 0.75 * q3)
        return [1 - q1 - q2 - q3 - q4, q1, q2, q3, q4]

    def over_q3(q1: float, q2: float) -> float:
        hi = min((s - 0.25 * q1 - 0.5 * q2) / 0.75, (1 - s - 0.75 * q1 - 0.5 * q2) / 0.25)
        return _golden_max(lambda q3: ll(q_of(q1, q2, q3)), 0.0, max(0.0, hi))

    def over_q2(q1: float) -> float:
        hi = min((s - 0.25 * q1) / 0.5, (1 - s - 0.75 * q1) / 0.5)
        return _golden_max(lambda q2: over_q3(q1, q2), 0.0, max(0.0, hi))

    return _golden_max(over_q2, 0.0, min(4 * s, (1 - s) / 0.75))


@pytest.mark.parametrize(("counts", "elo0", "elo1"), [
    ([0, 0, 1, 8, 1], 0.0, 50.0),
    ([3, 1, 2, 0, 0], -20.0, 30.0),
    ([40, 90, 170, 95, 45], -5.0, 5.0),
])
def test_llr_is_the_ratio_of_the_constrained_maximum_likelihoods(counts: list[int], elo0: float,
                                                                 elo1: float) -> None:
    """The secular-equation LLR equals the log-likelihood ratio maximised by brute force."""
    reg = [float(c) if c else 1e-3 for c in counts]  # the same regularization
    brute = _brute_loglik(reg, score_of(elo1)) - _brute_loglik(reg, score_of(elo0))
    assert llr_logistic(elo0, elo1, counts) == pytest.approx(brute, abs=1e-6)


def test_published_figures() -> None:
    """Figures printed by fastchess (normalized Elo, its default) and fishtest's own example (logistic)."""
    # fastchess, 20 games, "Ptnml(0-2): [0, 0, 1, 8, 1] ... LLR: 1.24 (-2.94, 2.94) [0.00, 50.00]",
    # "Elo: 190.85 +/- 65.54"
    assert round(llr_normalized(0, 50, [0, 0, 1, 8, 1]), 2) == 1.24
    e = elo_interval([0, 0, 1, 8, 1])
    assert e.low is not None and e.high is not None
    assert round(e.elo, 2) == 190.85 and round((e.high - e.low) / 2, 2) == 65.54
    # fastchess, 6804 games, "Ptnml(0-2): [352, 579, 1264, 743, 464] ... LLR: 4.60 (-4.60, 4.60) [9.00, 16.00]",
    # "Elo: 19.83 +/- 6.77": alpha = beta = 0.01
    counts = [352, 579, 1264, 743, 464]
    test = Sprt(9, 16, 0.01, 0.01, "normalized")
    assert round(test.upper, 2) == 4.60 and round(test.lower, 2) == -4.60
    st = test.status(counts)
    assert round(st.llr, 2) == 4.60 and st.verdict == "H1"
    assert st.elo.low is not None and st.elo.high is not None
    assert round(st.elo.elo, 2) == 19.83 and round((st.elo.high - st.elo.low) / 2, 2) == 6.77
    # fishtest's stat_util example (logistic, [-3, 1]): 2.1310678 by its LLRcalc (scipy's brentq)
    assert llr_logistic(-3, 1, [10789, 19328, 33806, 19402, 10543]) == pytest.approx(2.1310678118, abs=1e-8)


def test_wald_bounds_and_settings() -> None:
    s = Sprt(0, 50)
    assert s.lower == pytest.approx(math.log(0.05 / 0.95)) and s.upper == pytest.approx(math.log(0.95 / 0.05))
    assert round(Sprt(0, 5, alpha=0.1, beta=0.2).upper, 4) == round(math.log(0.8 / 0.1), 4)
    assert parse_bounds("0,50") == (0.0, 50.0)
    for bad, why in [("50,0", "ELO0 < ELO1"), ("5", "two numbers"), ("a,b", "two numbers"), ("0,5000", "1200"),
                     ("nan,5", "1200")]:
        with pytest.raises(SprtError, match=why):
            parse_bounds(bad)
    with pytest.raises(SprtError, match="alpha"):
        Sprt(0, 5, alpha=0.0)
    with pytest.raises(SprtError, match="model"):
        Sprt(0, 5, model="bayes")


def test_pentanomial_counts_and_the_elo_interval() -> None:
    assert pentanomial([(1, 1), (0.5, 0.5), (1, 0), (0, 0.5), (0, 0)]) == [1, 1, 2, 0, 1]
    with pytest.raises(SprtError, match="pair of game scores"):
        pentanomial([(0.3, 1)])
    assert str(elo_interval([0, 0, 1, 0, 0])) == "+0.0 (too few games for an interval)"
    assert elo_interval([0, 0, 0, 0, 0]).low is None
    # no spread (every pair alike): a Wilson interval of real width, not a point
    e = elo_interval([0, 0, 5, 0, 0])
    assert e.elo == 0 and e.low is not None and e.high is not None and e.low < -100 and e.high > 100
    assert elo_interval([6, 0, 0, 0, 0]).low == -math.inf  # all lost: unbounded below, not a rounding error's
    sweep = elo_interval([0, 0, 0, 0, 8])
    assert sweep.elo == math.inf and sweep.high == math.inf and sweep.low is not None and 100 < sweep.low < 200


def _simulate(true_elo: float, test: Sprt, rng: random.Random, cap: int = 400) -> str | None:
    """One test on pairs drawn from a pentanomial distribution whose expected score is true_elo's."""
    # A fixed shape (many split pairs, as duplicate deals give) tilted to the expected score.
    base = [0.1, 0.2, 0.4, 0.2, 0.1]
    s = score_of(true_elo)
    lam = 0.0
    for _ in range(100):  # exponential tilt with mean s, by bisection on lam
        w = [p * math.exp(lam * a) for p, a in zip(base, PAIR_SCORES, strict=True)]
        mean = sum(x * a for x, a in zip(w, PAIR_SCORES, strict=True)) / sum(w)
        lam += (s - mean) * 8
    probs = [x / sum(w) for x in w]
    counts = [0] * 5
    for _ in range(cap):
        counts[rng.choices(range(5), probs)[0]] += 1
        verdict = test.status(counts).verdict
        if verdict:
            return verdict
    return None


def test_error_rates_by_simulation() -> None:
    """Under H0 the test accepts H1 about alpha of the time at most, and the reverse under H1."""
    rng = random.Random(29)
    test = Sprt(0, 150)
    runs = 100
    under_h0 = [_simulate(0, test, rng) for _ in range(runs)]
    under_h1 = [_simulate(150, test, rng) for _ in range(runs)]
    assert under_h0.count("H1") / runs <= 0.10 and under_h0.count("H0") / runs >= 0.85
    assert under_h1.count("H0") / runs <= 0.10 and under_h1.count("H1") / runs >= 0.85
