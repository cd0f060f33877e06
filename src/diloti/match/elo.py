"""Elo ratings with intervals, fitted by maximum likelihood from every recorded match (as Ordo and BayesElo do).

The model is Bradley-Terry on the Elo scale: A scores ``1 / (1 + 10^((R_B - R_A)/400))``
in a game against B, a draw counting half a win and half a loss. :func:`fit_elo`
finds the ratings that make the recorded games likeliest (Newton's method on
the log-likelihood, which is concave) and their covariance:

* the ratings are relative to the average of the players fitted (BayesElo's and
  Ordo's default), or to an ``anchor`` player;
* every pair of players that met gets ``prior`` virtual drawn games (BayesElo's
  "prior"), so a player that won, or lost, every game still gets a finite rating;
  the prior pulls the ratings together a little, less the more games there are;
* the interval of each rating is ±1.96 standard errors, the larger of the
  model's (the inverse of the Fisher information) and the one the games
  themselves show (the "sandwich" estimate with each duplicate pair as one unit:
  the two games of a pair share their deals, so they are not independent).

Pure Python, standard library only.

>>> fit = fit_elo({("a", "b"): [(1.0, 1.0)] * 40 + [(1.0, 0.0)] * 30 + [(0.0, 0.0)] * 20}, prior=0)
>>> r = fit.ratings
>>> round(r["a"].elo - r["b"].elo, 1), round(r["a"].elo + r["b"].elo, 9)
(78.5, 0.0)
>>> d = fit.difference("a", "b"); round(d.elo, 1), round(d.low), round(d.high)
(78.5, 19, 138)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from diloti.core.errors import DilotiError

T = TypeVar("T")
ELO_PER_NAT = 400 / math.log(10)  # Elo per unit of the logistic's argument: 173.72...
Z95 = 1.959963984540054


class RatingError(DilotiError, ValueError):
    """Matches that cannot be rated together (players that never meet, directly or through others)."""


@dataclass(frozen=True)
class Rating:
    """A player's Elo (relative to the average, or to the anchor) with its 95% interval."""

    name: str
    elo: float
    stderr: float
    games: int

    @property
    def low(self) -> float:
        return self.elo - Z95 * self.stderr

    @property
    def high(self) -> float:
        return self.elo + Z95 * self.stderr


@dataclass(frozen=True)
class EloFit:
    """The fitted ratings, and the covariances (the model's, the pairs' own) that give any difference's interval."""

    ratings: dict[str, Rating]
    covariances: tuple[dict[tuple[str, str], float], ...]  # in Elo²

    def difference(self, a: str, b: str) -> Rating:
        """A's Elo minus B's with its standard error (the larger of the covariances'); 95%: ``low``, ``high``."""
        for x in (a, b):
            if x not in self.ratings:
                raise RatingError(f"unknown player {x!r}")
        var = max(c[a, a] + c[b, b] - 2 * c[a, b] for c in self.covariances)
        return Rating(f"{a} - {b}", self.ratings[a].elo - self.ratings[b].elo, math.sqrt(max(0.0, var)), 0)


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """``m x = v`` by Gaussian elimination with partial pivoting (m is small, symmetric positive definite here)."""
    n = len(v)
    a = [[*row, v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            if f:
                for k in range(c, n + 1):
                    a[r][k] -= f * a[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][k] * x[k] for k in range(r + 1, n))) / a[r][r]
    return x


def _inverse(m: list[list[float]]) -> list[list[float]]:
    n = len(m)
    cols = [_solve(m, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def _connected(names: Sequence[T], edges: Sequence[tuple[T, T]], directed: bool = False) -> bool:
    """Whether every name is reached from the first along the edges (either way unless ``directed``)."""
    seen = {names[0]}
    todo = [names[0]]
    while todo:
        x = todo.pop()
        for a, b in edges:
            for u, w in ((a, b),) if directed else ((a, b), (b, a)):
                if u == x and w not in seen:
                    seen.add(w)
                    todo.append(w)
    return len(seen) == len(names)


Data = list[tuple[int, int, float, float]]  # per pair of players (by index): i, j, i's score, games (with the prior)
Clusters = list[tuple[str, str, list[float]]]  # per duplicate pair: the players and the first one's game scores


def _tally(matches: Mapping[tuple[str, str], Sequence[Sequence[float]]],
           ) -> tuple[dict[tuple[str, str], list[float]], Clusters]:
    """Each pair of players (in name order) with the first one's score and the games, and each duplicate pair."""
    edges: dict[tuple[str, str], list[float]] = {}  # (a, b) with a < b: [a's score, games]
    clusters: Clusters = []
    for (a, b), pairs in matches.items():
        if a == b:
            raise RatingError(f"a match of {a!r} against itself cannot be rated")
        key, flip = ((a, b), False) if a < b else ((b, a), True)
        e = edges.setdefault(key, [0.0, 0.0])
        for pair in pairs:
            scores = [1.0 - s if flip else float(s) for s in pair]
            e[0] += sum(scores)
            e[1] += len(scores)
            clusters.append((key[0], key[1], scores))
    return edges, clusters


def _check_finite(n: int, data: Data) -> None:
    # The likeliest ratings are finite when every player has scored, directly or through others, against
    # every other (Zermelo's condition: the graph of "scored against" is strongly connected).
    scored = [(i, j) for i, j, s, g in data if s > 0] + [(j, i) for i, j, s, g in data if s < g]
    if not (_connected(list(range(n)), scored, directed=True)
            and _connected(list(range(n)), [(j, i) for i, j in scored], directed=True)):
        raise RatingError("some players won (or lost) every game against the rest, with no prior: their ratings "
                          "are infinite (use a prior of virtual draws)")


def _p(t: list[float], i: int, j: int) -> float:
    """The chance that player i scores against player j at ratings ``t`` (in nats)."""
    return 1.0 / (1.0 + math.exp(t[j] - t[i]))


def _loglik(t: list[float], data: Data) -> float:
    total = 0.0
    for i, j, s, g in data:
        d = t[i] - t[j]
        # log p = -log(1 + e^-d), log(1-p) = -log(1 + e^d), written to stay finite for large |d|
        total -= s * (max(0.0, -d) + math.log1p(math.exp(-abs(d)))) + (g - s) * (
            max(0.0, d) + math.log1p(math.exp(-abs(d))))
    return total


def _information(t: list[float], data: Data) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient at ``t`` and its Fisher information."""
    n = len(t)
    grad = [0.0] * n
    info = [[0.0] * n for _ in range(n)]
    for i, j, s, g in data:
        p = _p(t, i, j)
        grad[i] += s - g * p
        grad[j] -= s - g * p
        w = g * p * (1 - p)
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    return grad, info


def _centred_inverse(info: list[list[float]]) -> list[list[float]]:
    # The information has the constant vector as its null space (only differences are measured):
    # its pseudo-inverse, the covariance of ratings that sum to zero, is (I + 11'/n)^-1 - 11'/n.
    n = len(info)
    inv = _inverse([[info[i][j] + 1.0 / n for j in range(n)] for i in range(n)])
    return [[inv[i][j] - 1.0 / n for j in range(n)] for i in range(n)]


def _likeliest(n: int, data: Data) -> list[float]:
    """The ratings (in nats, summing to zero) that make the games likeliest."""
    t = [0.0] * n
    ll = _loglik(t, data)
    for _ in range(200):
        grad, info = _information(t, data)
        step = _solve([[info[i][j] + 1.0 / n for j in range(n)] for i in range(n)], grad)
        scale = 1.0
        while True:  # Newton's step, halved until the likelihood does not fall (it is concave: soon)
            new = [x + scale * d for x, d in zip(t, step, strict=True)]
            new_ll = _loglik(new, data)
            if new_ll >= ll - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        t, ll = new, new_ll
        if max(abs(d) for d in step) * scale < 1e-12:
            break
    return t


def _sandwich(cov: list[list[float]], t: list[float], clusters: Clusters, idx: dict[str, int]) -> list[list[float]]:
    """The covariance the games' own spread shows, a duplicate pair at a time (cov · M · cov)."""
    n = len(t)
    meat = [[0.0] * n for _ in range(n)]
    for a, b, scores in clusters:
        i, j = idx[a], idx[b]
        p = _p(t, i, j)
        u = sum(s - p for s in scores)
        meat[i][i] += u * u
        meat[j][j] += u * u
        meat[i][j] -= u * u
        meat[j][i] -= u * u
    return [[sum(cov[i][k] * meat[k][m] * cov[m][j] for k in range(n) for m in range(n)) for j in range(n)]
            for i in range(n)]


def fit_elo(matches: Mapping[tuple[str, str], Sequence[Sequence[float]]], prior: float = 1.0,
            anchor: str | None = None) -> EloFit:
    """Ratings from ``matches``: (A, B) -> A's game scores (1, ½, 0) grouped by duplicate pair.

    A match may appear as (A, B) and (B, A); a "pair" may hold one game (a match not
    played in duplicate pairs). ``prior`` virtual draws are added once per pair of
    players that met.

    >>> r = fit_elo({("x", "y"): [(1.0,)] * 3}, prior=1).ratings   # 3 wins and one virtual draw: 3.5 of 4
    >>> round(r["x"].elo - r["y"].elo, 1)
    338.0
    """
    edges, clusters = _tally(matches)
    names = sorted({x for ab in edges for x in ab})
    if len(names) < 2:
        raise RatingError("rating needs games between at least two players")
    if not _connected(names, list(edges)):
        raise RatingError("the players are not all connected by games (directly or through others): "
                          "they cannot be put on one scale")
    if anchor is not None and anchor not in names:
        raise RatingError(f"unknown anchor {anchor!r} (players: {', '.join(names)})")
    idx = {x: i for i, x in enumerate(names)}
    n = len(names)
    data = [(idx[a], idx[b], s + prior / 2, g + prior) for (a, b), (s, g) in edges.items()]
    _check_finite(n, data)
    t = _likeliest(n, data)
    cov = _centred_inverse(_information(t, data)[1])
    robust = _sandwich(cov, t, clusters, idx)
    base = idx[anchor] if anchor is not None else None

    def var(c: list[list[float]], i: int) -> float:
        if base is None:
            return c[i][i]
        return c[i][i] + c[base][base] - 2 * c[i][base]

    shift = t[base] if base is not None else sum(t) / n
    games = {x: 0 for x in names}
    for a, b, scores in clusters:
        games[a] += len(scores)
        games[b] += len(scores)
    ratings = {x: Rating(x, (t[i] - shift) * ELO_PER_NAT,
                         math.sqrt(max(0.0, var(cov, i), var(robust, i))) * ELO_PER_NAT, games[x])
               for x, i in idx.items()}
    covariances = tuple({(x, y): c[i][j] * ELO_PER_NAT ** 2 for x, i in idx.items() for y, j in idx.items()}
                        for c in (cov, robust))
    return EloFit(ratings, covariances)
