"""The sequential probability ratio test (SPRT) over duplicate pairs, as engine projects run it.

A match of duplicate pairs (the same deals twice, seats swapped) scores each
pair 0, ½, 1, 1½ or 2 for A: the *pentanomial* counts of the five outcomes are
the whole data. The test decides between H0 "A is ``elo0`` stronger than B"
and H1 "A is ``elo1`` stronger" with error rates ``alpha`` (accepting H1 when
H0 holds) and ``beta`` (the reverse), playing pairs only until the
log-likelihood ratio (LLR) leaves Wald's bounds ``log(beta/(1-alpha))`` and
``log((1-beta)/alpha)`` (±2.94 for 0.05 each).

The LLR is the *generalized* one of Stockfish's fishtest and fastchess (M. Van den
Bergh, "A note on the generalized SPRT for multinomial distributions",
support_MLE_multinomial.pdf): nothing is assumed about the shape of the
pentanomial distribution (draw rates, how alike the two games of a pair are);
under each hypothesis the likeliest distribution with that hypothesis's
expected score is found, and the LLR is the log of the ratio of their
likelihoods of the counts seen. That distribution is ``p̂ᵢ / (1 + x (aᵢ - s))``
with ``x`` the root of the secular equation ``Σ p̂ᵢ (aᵢ - s) / (1 + x (aᵢ - s)) = 0``
(Proposition 1.1 there). Two Elo models name the hypotheses:

* ``logistic`` (the default, the Elo of docs/STRENGTH.md): an expected game
  score ``1 / (1 + 10^(-elo/400))``;
* ``normalized`` (fastchess's default): Elo scaled
  by the spread of the results, ``t = (score - ½) / σ`` with ``elo = t · 800 / ln 10``
  (``normalized_elo_practical.pdf``, §4.1), so that a bound means the same
  number of games whatever the draw rate.

A count of zero is replaced by 0.001 (as fishtest and fastchess do), so the
distribution never puts all its weight on one outcome.

Standard library only (pure Python, no numpy or scipy).

>>> s = Sprt(0, 50)
>>> round(s.lower, 3), round(s.upper, 3)
(-2.944, 2.944)
>>> st = s.status([0, 0, 1, 8, 1])   # ten pairs: one split, eight 1½, one won twice
>>> round(st.llr, 2), st.verdict
(1.34, None)
>>> print(st.elo)
+190.8 [+131.5, +262.6]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from diloti.core.errors import DilotiError

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's score for A, per game: 0, ½, 1, 1½ or 2 points over 2
REGULARIZE = 1e-3  # what a count of zero becomes (fishtest's and fastchess's value)
NELO_PER_T = 800 / math.log(10)  # normalized Elo per unit of t = (score - ½) / σ: 347.43...
MODELS = ("logistic", "normalized")


class SprtError(DilotiError, ValueError):
    """A bad SPRT setting (bounds, error rates, model)."""


def score_of(elo: float) -> float:
    """The expected score of a player ``elo`` (logistic) stronger.

    >>> score_of(0.0), round(score_of(400.0), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def pentanomial(pairs: Iterable[Sequence[float]]) -> list[int]:
    """The counts of pairs scoring 0, ½, 1, 1½ and 2 for A, from each pair's two game scores (1, ½ or 0).

    >>> pentanomial([(1.0, 1.0), (1.0, 0.0), (0.5, 1.0), (0.0, 0.5)])
    [0, 1, 1, 1, 1]
    """
    counts = [0] * 5
    for pair in pairs:
        a, b = pair
        total = round(2 * (a + b))  # in half points: 0..4
        if not 0 <= total <= 4 or abs(2 * (a + b) - total) > 1e-9:
            raise SprtError(f"invalid pair of game scores {tuple(pair)!r}: expected each 0, 0.5 or 1")
        counts[total] += 1
    return counts


def _pdf(counts: Sequence[float]) -> tuple[float, list[float]]:
    """The number of pairs (zeros regularized) and the empirical probabilities of the five outcomes."""
    reg = [float(c) if c > 0 else REGULARIZE for c in counts]
    total = sum(reg)
    return total, [c / total for c in reg]


def _mean_var(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mean = sum(p * a for a, p in zip(values, probs, strict=True))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(values, probs, strict=True))


def secular(values: Sequence[float], probs: Sequence[float]) -> float:
    """The root ``x`` of ``Σ pᵢ aᵢ / (1 + x aᵢ) = 0`` with every ``1 + x aᵢ > 0``.

    The left side falls strictly from +∞ to -∞ between its poles ``-1/max(a)``
    and ``-1/min(a)`` (``min(a) < 0 < max(a)``, every ``pᵢ > 0``): bisection finds
    the one root to the last bit.

    >>> abs(secular([-1.0, 1.0], [0.5, 0.5])) < 1e-15
    True
    >>> x = secular([-0.5, 0.5], [0.25, 0.75]); round(x, 6)
    1.0
    """
    lo_v, hi_v = min(values), max(values)
    if not lo_v < 0 < hi_v:
        raise SprtError("the secular equation needs values on both sides of zero")
    lo, hi = -1.0 / hi_v, -1.0 / lo_v

    def f(x: float) -> float:
        return sum(p * a / (1.0 + x * a) for a, p in zip(values, probs, strict=True))

    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mle_expected(probs: Sequence[float], s: float, values: Sequence[float] = PAIR_SCORES) -> list[float]:
    """The likeliest distribution over ``values`` with expected value ``s``, given the empirical ``probs``.

    >>> [round(q, 4) for q in mle_expected([0.2, 0.2, 0.2, 0.2, 0.2], 0.5)]
    [0.2, 0.2, 0.2, 0.2, 0.2]
    """
    shifted = [a - s for a in values]
    x = secular(shifted, probs)
    return [p / (1.0 + x * d) for p, d in zip(probs, shifted, strict=True)]


def mle_t_value(probs: Sequence[float], ref: float, t: float,
                values: Sequence[float] = PAIR_SCORES) -> list[float]:
    """The likeliest distribution over ``values`` with ``(mean - ref) / σ = t``, given the empirical ``probs``.

    The fixed point of Van den Bergh's iteration (normalized_elo_practical.pdf, §4.1),
    from the uniform distribution.
    """
    q = [1.0 / len(values)] * len(values)
    for _ in range(50):
        mean, var = _mean_var(values, q)
        sigma = math.sqrt(var)
        phi = [a - ref - t * sigma * (1 + ((mean - a) / sigma) ** 2) / 2 for a in values]
        x = secular(phi, probs)
        new = [p / (1.0 + x * f) for p, f in zip(probs, phi, strict=True)]
        done = max(abs(u - v) for u, v in zip(new, q, strict=True)) < 1e-12
        q = new
        if done:
            break
    return q


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """The generalized LLR of H1 (``elo1``) against H0 (``elo0``) for pentanomial ``counts``, logistic Elo."""
    n, probs = _pdf(counts)
    q0, q1 = (mle_expected(probs, score_of(e)) for e in (elo0, elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, q0, q1, strict=True))


def llr_normalized(nelo0: float, nelo1: float, counts: Sequence[float]) -> float:
    """The generalized LLR of H1 against H0 for pentanomial ``counts``, the bounds in normalized Elo.

    Normalized Elo is per game; a pair's score (the mean of two games) has half a game's
    variance when the games are independent, hence the √2 (as fishtest and fastchess).
    """
    n, probs = _pdf(counts)
    t0, t1 = (e / NELO_PER_T * math.sqrt(2) for e in (nelo0, nelo1))
    q0, q1 = (mle_t_value(probs, 0.5, t) for t in (t0, t1))
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, q0, q1, strict=True))


def _elo(score: float) -> float:
    """The Elo of a score, infinite at 0 and 1 (a side that won, or lost, everything)."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return 400.0 * math.log10(score / (1.0 - score))


@dataclass(frozen=True)
class EloInterval:
    """A logistic Elo difference with its 95% interval (None: too few pairs for one; ±inf: all won or lost)."""

    elo: float
    low: float | None
    high: float | None
    pairs: int

    def __str__(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.elo:+.1f} (too few games for an interval)"
        return f"{self.elo:+.1f} [{self.low:+.1f}, {self.high:+.1f}]"


def elo_interval(counts: Sequence[float], confidence: float = 0.95) -> EloInterval:
    """A's Elo over B from pentanomial ``counts``: the mean score's normal interval over the pairs, as Elo.

    The pairs are the independent units (the spread of the pair scores, not of the
    games, sets the width), as fishtest and fastchess compute it. Fewer than two
    pairs give no interval. When every pair scored the same (no spread to measure:
    the normal interval would have no width), the Wilson score interval over the
    pairs takes its place: it has width, and it is finite on the side away from a clean sweep.

    >>> print(elo_interval([0, 0, 1, 8, 1]))
    +190.8 [+131.5, +262.6]
    >>> print(elo_interval([0, 0, 0, 1, 0]))
    +190.8 (too few games for an interval)
    >>> print(elo_interval([0, 0, 0, 0, 8]))   # eight pairs, all won twice
    +inf [+127.4, +inf]
    """
    pairs = round(sum(counts))
    if pairs == 0:
        return EloInterval(0.0, None, None, 0)
    n = float(sum(counts))
    mean, var = _mean_var(PAIR_SCORES, [c / n for c in counts])  # the counts as they are (no zero regularized)
    if pairs < 2:
        return EloInterval(_elo(mean), None, None, pairs)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    if var > 0:
        half = z * math.sqrt(var / n)
        low, high = mean - half, mean + half
    else:
        centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        low = 0.0 if mean == 0.0 else centre - half  # exact ends, not rounding's: a clean sweep is unbounded
        high = 1.0 if mean == 1.0 else centre + half
    return EloInterval(_elo(mean), _elo(low), _elo(high), pairs)


@dataclass(frozen=True)
class SprtStatus:
    """Where a test stands after some pairs."""

    llr: float
    lower: float
    upper: float
    counts: tuple[int, ...]
    elo: EloInterval
    verdict: str | None  # "H1" (A at least elo1 stronger), "H0" (at most elo0), None: play on

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def line(self) -> str:
        """One line for people: the pairs, the LLR against its bounds, the Elo with its interval."""
        return (f"{self.pairs} pairs ({2 * self.pairs} games): LLR {self.llr:+.2f} ({self.lower:.2f}, "
                f"{self.upper:.2f}); Elo {self.elo}; pentanomial {', '.join(map(str, self.counts))}")


@dataclass(frozen=True)
class Sprt:
    """A test of H0 ``elo = elo0`` against H1 ``elo = elo1`` (A's Elo over B), with error rates alpha and beta.

    >>> Sprt(0, 50).status([0, 1, 3, 10, 12]).verdict   # 26 pairs, 22 of them won 1½ or 2 to ½ or 0
    'H1'
    >>> Sprt(0, 50).status([10, 6, 4, 0, 0]).verdict
    'H0'
    >>> Sprt(0, 50).status([0, 0, 0, 0, 6]).verdict is None   # six pairs are too few, even all won
    True
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < v < 0.5:
                raise SprtError(f"invalid {name} {v!r}: expected an error rate between 0 and 0.5")
        if not all(math.isfinite(e) and abs(e) < 1200 for e in (self.elo0, self.elo1)):
            raise SprtError(f"invalid SPRT bounds {self.elo0!r},{self.elo1!r}: expected Elo within ±1200")
        if not self.elo0 < self.elo1:
            raise SprtError(f"invalid SPRT bounds {self.elo0!r},{self.elo1!r}: expected ELO0 < ELO1")
        if self.model not in MODELS:
            raise SprtError(f"invalid Elo model {self.model!r}: expected {' or '.join(MODELS)}")

    @property
    def lower(self) -> float:
        """Wald's lower bound: at or below it, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Wald's upper bound: at or above it, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        if sum(counts) == 0:
            return 0.0
        f = llr_logistic if self.model == "logistic" else llr_normalized
        return f(self.elo0, self.elo1, counts)

    def status(self, counts: Sequence[int]) -> SprtStatus:
        llr = self.llr(counts)
        verdict = "H1" if llr >= self.upper else "H0" if llr <= self.lower else None
        return SprtStatus(llr, self.lower, self.upper, tuple(counts), elo_interval(counts), verdict)

    def describe(self) -> str:
        return (f"SPRT H0 elo={self.elo0:g} against H1 elo={self.elo1:g} ({self.model} Elo, pentanomial over "
                f"duplicate pairs), alpha={self.alpha:g}, beta={self.beta:g}")

    def run(self, pair_scores: Iterable[Sequence[float]]) -> tuple[SprtStatus, int]:
        """The status where the test stops over these pairs, in order, and how many pairs it used."""
        counts = [0] * 5
        used = 0
        st = self.status(counts)
        for pair in pair_scores:
            for i, c in enumerate(pentanomial([pair])):
                counts[i] += c
            used += 1
            st = self.status(counts)
            if st.verdict:
                break
        return st, used


def parse_bounds(text: str) -> tuple[float, float]:
    """``"0,50"`` -> ``(0.0, 50.0)``.

    >>> parse_bounds(" -5, 5 ")
    (-5.0, 5.0)
    """
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        lo, hi = (float(p) for p in parts)
    except ValueError:
        raise SprtError(f"invalid SPRT bounds {text!r}: expected ELO0,ELO1 (two numbers, e.g. 0,50)") from None
    Sprt(lo, hi)  # the range checks
    return lo, hi
