"""The rating rules: OpenSkill's Plackett-Luce model, computer levels as fixed anchors, and how a rating is
shown.

Each player has a rating per mode: ``2p`` (two-player games), ``4p`` (partnership games, rated as
teams of two: each partner's rating moves by their share of the team's surprise) and ``overall``
(updated by every rated game of either kind). A rating is OpenSkill's ``(mu, sigma)``: a newcomer
starts at (25, 25/3).

Computer seats are **anchors**: fixed ratings that never change, so that a game against the
computer moves the human's rating by what the result says about them. Their values come from the
measured ladder (docs/STRENGTH.md, 2,000 games a pair): under the model, side A beats side B with
probability ``1 / (1 + exp(-(mu_A - mu_B) / c))``, ``c = sqrt(sigma_A^2 + sigma_B^2 + 2 beta^2)``; the gap
between two levels is ``c * logit(win rate)``. ``heuristic`` is put at the newcomer's 25; ``expert`` is
84.7% against it, ``greedy`` loses 91.2% to it, and ``random`` lost every game to ``greedy``, so its gap
uses the interval's lower end, 99.7%; ``master`` is :data:`MASTER_OVER_EXPERT` Elo over ``expert`` (the ladder's
maximum-likelihood fit). The 2-player figures serve the 4-player games too.

>>> {level: round(mu, 1) for level, (mu, sigma) in ANCHORS.items()}
{'random': -24.4, 'greedy': 10.8, 'heuristic': 25.0, 'expert': 35.4, 'master': 42.2}
>>> new = rate_seats([(0, None, None), (1, None, "greedy")], 0)
>>> round(new[0][0], 2), new[1]  # a newcomer beat greedy: up; the computer's seat is not rated
(26.36, None)
>>> shown(25.0, 25 / 3)
{'rating': 1500, 'deviation': 333, 'conservative': 500, 'provisional': True}
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from diloti.match.sprt import score_of
from diloti.store.players import GameResult, SeatResult

if TYPE_CHECKING:
    from diloti.server.live import LiveTable

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (the library's defaults)
ANCHOR_SIGMA = 1.0  # how sure the ladder makes us of a level's strength


def _gap(win_rate: float) -> float:
    """The difference of two anchors' mu that gives ``win_rate`` to the stronger one."""
    c = math.sqrt(2 * ANCHOR_SIGMA**2 + 2 * MODEL.beta**2)
    return c * math.log(win_rate / (1 - win_rate))


# The master at 1 s a move over the expert in docs/STRENGTH.md's fitted table (`bench/ratings.py --anchor expert`:
# +196, +99 .. +293): a 75.5% win rate. The default 0.25 s on the compiled core was shown as strong (SPRT, H1).
MASTER_OVER_EXPERT = 196


def _anchors() -> dict[str, tuple[float, float]]:
    heuristic = MODEL.mu
    greedy = heuristic - _gap(0.912)  # heuristic vs greedy, 2,000 games
    return {"random": (greedy - _gap(0.997), ANCHOR_SIGMA),  # greedy vs random: 2,000 of 2,000; the lower end
            "greedy": (greedy, ANCHOR_SIGMA), "heuristic": (heuristic, ANCHOR_SIGMA),
            "expert": (heuristic + _gap(0.847), ANCHOR_SIGMA),  # expert vs heuristic, 2,000 games
            "master": (heuristic + _gap(0.847) + _gap(score_of(MASTER_OVER_EXPERT)), ANCHOR_SIGMA)}


ANCHORS = _anchors()

# The shown scale: 1500 for a newcomer's mu, 40 points a unit of mu (a newcomer is 1500 ± 333, as chess
# servers' newcomers are about 1500 ± 350). ``conservative`` (mu - 3 sigma, shown on that scale) is what the
# leaderboard orders by. A rating is provisional while its deviation is over 200: about the first 10 games
# (chess servers mark a rating so for its first games; this model's deviation falls more slowly than
# Glicko's, so their 110 would keep a player provisional for some 45 games).
BASE, SCALE, PROVISIONAL = 1500, 40.0, 200


def shown(mu: float, sigma: float) -> dict[str, Any]:
    """A rating as players see it: the estimate, its deviation, the conservative figure, and whether it is
    still provisional (few games yet)."""
    rating = BASE + SCALE * (mu - MODEL.mu)
    deviation = SCALE * sigma
    return {"rating": round(rating), "deviation": round(deviation), "conservative": round(rating - 3 * deviation),
            "provisional": deviation > PROVISIONAL}


def rate_seats(seats: list[tuple[int, tuple[float, float] | None, str | None]],
               winner: int | None) -> list[tuple[float, float] | None]:
    """New ratings after a game: ``seats`` are ``(side, rating or None: a newcomer, level or None)``; a seat
    with a level is a computer (its anchor, unchanged: ``None`` is returned for it).

    >>> a, b = rate_seats([(0, (25.0, 3.0), None), (1, (25.0, 3.0), None)], 1)
    >>> a[0] < 25 < b[0], round(a[1], 3) == round(b[1], 3) < 3
    (True, True)
    """
    teams: list[list[Any]] = [[], []]
    for side, rating, level in seats:
        if level is not None:
            # A level with its own time a move (master:seconds=2) is rated as the level.
            mu, sigma = ANCHORS.get(level.partition(":")[0], ANCHORS["heuristic"])
        else:
            mu, sigma = rating if rating is not None else (MODEL.mu, MODEL.sigma)
        teams[side].append(MODEL.rating(mu=mu, sigma=sigma))
    ranks = [0.0, 0.0] if winner is None else [0.0 if side == winner else 1.0 for side in (0, 1)]
    new = MODEL.rate(teams, ranks=ranks)
    out: list[tuple[float, float] | None] = []
    at = [0, 0]
    for side, _rating, level in seats:
        r = new[side][at[side]]
        at[side] += 1
        out.append(None if level is not None else (float(r.mu), float(r.sigma)))
    return out


def game_result(table: LiveTable, winner: int | None, end_reason: str | None) -> GameResult:
    """What a finished table stores for its players' profiles and ratings.

    The game is rated when the table is (the default) and every human seat is held by a player who comes
    back, each in one seat only: a game with a guest, or a player in two seats, is a casual game. A game in
    which the computer played for an absent player is casual too (that player did not play it), unless the
    others claimed it (``abandoned:SEAT``: the absent player lost by leaving, as on lichess). An aborted game
    (``aborted:SEAT``: abandoned before every player had played) leaves no result at all.
    """
    game = table.game
    rounds = sum(1 for r in game.rounds if r.score is not None)
    mode = table.info.rating_mode(table.players)  # 2p, 4p in Diloti; x2p, k3p ... in the others
    if end_reason is not None and end_reason.startswith("aborted:"):
        return GameResult(table.id, mode, None, end_reason, False, [])
    seats = []
    for s in table.seats:
        side = table.side_of(s.seat)
        against = max(p for i, p in enumerate(game.scores) if i != side)  # the best other side's points
        seats.append(SeatResult(s.seat, s.kind, s.level if s.kind == "bot" else None,
                                s.player if s.kind == "human" else None, side, game.scores[side], against, rounds,
                                table.xeris[s.seat]))
    claimed = end_reason is not None and end_reason.startswith("abandoned:")
    # Only a rated game (Diloti) is rated; another's result goes to its players' histories under its own mode.
    rated = table.counts and (claimed or not table.by)
    return GameResult(table.id, mode, winner, end_reason, rated, seats)
