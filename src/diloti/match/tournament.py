"""Fair, reproducible matches between computer players.

A match between players A and B plays *duplicate deals*: each game seed is
played twice, with A on side 0 and then on side 1, so both players meet the
same cards from the same seats (with 4 players, A partners A). The unit of a
game is a whole game to the target (or a fixed number of rounds). Results give
A's game win rate and A's mean points-per-round advantage, each with a 95%
confidence interval. The two games of a duplicate pair share their deals, so
the pairs are the independent units:

- the win rate's interval is the Wilson score interval (:meth:`Interval.wilson`)
  over the games, with the number of games replaced by the effective number the
  spread of the pairs shows, between the number of pairs (the two games of a
  pair always alike) and the number of games (independent); it never has zero
  width, even when one side wins every game;
- the points-per-round interval is the normal interval of the mean over the pairs.

The normal quantile comes from :class:`statistics.NormalDist`.

Players are named by a *spec*: a level (``expert``) with optional settings
(``expert:iterations=200,seconds=0.5``); see :func:`diloti.ai.make_player`.

>>> r = play_match("random", "greedy", games=2, seed=1, target=11)
>>> r.games, r.a_wins + r.b_wins + r.draws
(2, 2)
>>> -30 < r.points_per_round.mean < 30
True
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import asdict, dataclass, field
from math import sqrt
from statistics import NormalDist, fmean, stdev
from typing import Any

from diloti.ai import FullStatePlayer, game_players, make_player
from diloti.core.errors import DilotiError
from diloti.core.registry import default_game, find_game, is_named
from diloti.core.seeds import derive_seed
from diloti.match.workers import worker_pool


class TournamentError(DilotiError):
    """A bad tournament setting, or a bot that broke the rules."""


Z95 = NormalDist().inv_cdf(0.975)  # 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float], lo: float = float("-inf"), hi: float = float("inf")) -> Interval:
        """Normal interval of the mean of ``values`` (mean ± z·s/√n), clipped to ``[lo, hi]``.

        With fewer than two values there is no spread to measure: the interval is the mean alone.

        >>> Interval.of([1.0, 2.0, 3.0]).mean
        2.0
        >>> Interval.of([1.0, 1.0, 0.5], 0.0, 1.0).high
        1.0
        """
        n = len(values)
        if n == 0:
            return cls(0.0, 0.0, 0.0)
        mean = fmean(values)
        if n == 1:
            return cls(mean, mean, mean)
        half = Z95 * stdev(values, mean) / sqrt(n)
        return cls(mean, max(lo, mean - half), min(hi, mean + half))

    @classmethod
    def wilson(cls, pairs: Sequence[Sequence[float]]) -> Interval:
        """Wilson score interval of a rate from the scores (1 win, 0.5 draw, 0 loss) of duplicate pairs.

        The number of trials is the effective number of games: ``p(1-p)`` over the
        variance of the mean that the pairs' spread shows, kept between the number
        of pairs and the number of games; the number of games when the spread
        cannot tell (one pair, or every pair alike).

        >>> i = Interval.wilson([[1.0, 1.0]] * 1000)  # 2,000 games, all won
        >>> i.mean, round(i.low, 4), i.high
        (1.0, 0.9981, 1.0)
        >>> i = Interval.wilson([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.5]])
        >>> round(i.low, 3), i.mean, round(i.high, 3)
        (0.356, 0.6875, 0.898)
        """
        means = [fmean(p) for p in pairs if p]
        games = sum(len(p) for p in pairs)
        if not means:
            return cls(0.0, 0.0, 1.0)
        mean = fmean(means)
        n = float(games)
        if len(means) >= 2 and 0.0 < mean < 1.0:
            var_of_mean = stdev(means, mean) ** 2 / len(means)
            if var_of_mean > 0:
                n = min(float(games), max(float(len(means)), mean * (1 - mean) / var_of_mean))
        z2 = Z95 * Z95
        centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        low = 0.0 if mean == 0.0 else max(0.0, centre - half)
        high = 1.0 if mean == 1.0 else min(1.0, centre + half)
        return cls(mean, low, high)

    def __str__(self) -> str:
        """``mean [low, high]``; an interval of no width (one duplicate pair: no spread to measure) says so.

        >>> print(Interval.of([2.0]))
        2.000 (too few games for an interval)
        >>> print(Interval.of([1.0, 3.0]))
        2.000 [0.040, 3.960]
        """
        if self.low == self.high:
            return f"{self.mean:.3f} (too few games for an interval)"
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


@dataclass(frozen=True)
class GameResult:
    """One game, from A's point of view."""

    index: int
    a_side: int
    a_points: int
    b_points: int
    rounds: int
    winner: str  # "a", "b" or "draw"
    seconds: float
    moves: int
    game_seed: int = 0  # both games of a duplicate pair share it: Game(players, options, seed=game_seed)

    @property
    def ppr(self) -> float:
        """A's points minus B's, per round."""
        return (self.a_points - self.b_points) / max(1, self.rounds)

    @property
    def score(self) -> float:
        return 1.0 if self.winner == "a" else 0.5 if self.winner == "draw" else 0.0


@dataclass
class MatchResult:
    """A's results against B over duplicate games."""

    a: str
    b: str
    players: int
    options: dict[str, Any]
    seed: int
    rounds_per_game: int | None
    games: int
    a_wins: int
    b_wins: int
    draws: int
    win_rate: Interval
    points_per_round: Interval
    rounds: int
    seconds: float
    results: list[GameResult] = field(default_factory=list, repr=False)
    game: str = field(default_factory=lambda: default_game().name)

    def to_dict(self, per_game: bool = False) -> dict[str, Any]:
        d = asdict(self)
        if not per_game:
            del d["results"]
        if not is_named(self.game):
            del d["game"]  # the default game's results read as they always have
        d["moves_per_second"] = sum(r.moves for r in self.results) / max(1e-9, sum(r.seconds for r in self.results))
        return d

    def summary(self) -> str:
        """A few lines for people."""
        named = self.game + " " if is_named(self.game) else ""
        return (
            f"{self.a} vs {self.b}: {self.games} {named}games "
            f"({self.players} players, {self.rounds} {find_game(self.game).round_word}s)\n"
            f"  {self.a} wins {self.a_wins}, {self.b} wins {self.b_wins}, draws {self.draws}\n"
            f"  {self.a} game win rate {self.win_rate.mean:.1%} "
            f"(95% CI {self.win_rate.low:.1%} .. {self.win_rate.high:.1%})\n"
            f"  {self.a} points per round minus {self.b}'s: {self.points_per_round}\n"
            f"  {self.seconds:.1f} s"
        )


def _side_points(game: Any, side: int) -> int:
    return sum(r.points[side] for r in game.rounds if r.score is not None)


def _endless(game: str, options: Any) -> Any:
    """The options of a game that does not end by itself (a fixed number of rounds stops it): the game's own
    (its players part's ``endless``)."""
    return game_players(game).endless(options)


def play_game(a: str, b: str, index: int, seed: int, players: int = 2, options: Any = None,
              rounds: int | None = None, game_name: str | None = None) -> GameResult:
    """Game ``index`` of a match: pair ``index // 2``'s deals, A on side ``index % 2``.

    Bots see only ``game.view(seat)``; a full-state player (:class:`~diloti.ai.base.FullStatePlayer`: the
    oracle, for measurement) is given the round's state instead. ``game_name`` is a registered game (its
    options, if given, are that game's; None: the default game).
    """
    game_name = default_game().name if game_name is None else game_name
    opts = options or find_game(game_name).options()
    if rounds is not None:
        # A game of a fixed number of rounds: the largest target, and the loop below stops at the rounds.
        opts = _endless(game_name, opts)
    a_side = index % 2
    game_seed = derive_seed("game", seed, index // 2)
    game: Any = find_game(game_name).game(players, opts, seed=game_seed)
    bots = []
    for seat in range(players):
        spec = a if seat % 2 == a_side else b
        bots.append(make_player(spec, derive_seed("bot", seed, index, seat), measurement=True))
    start = time.perf_counter()
    moves = 0
    while not game.is_over:
        st = game.state
        seat = st.turn
        bot = bots[seat]
        move = bot.choose_full(st) if isinstance(bot, FullStatePlayer) else bot.choose(game.view(seat))
        if not st.is_legal(move):
            raise TournamentError(f"player {bot.name!r} at seat {seat} chose the illegal move {move} "
                                  f"in {st.describe()}")
        round_no = game.round_no
        game.push(move)
        moves += 1
        if rounds is not None and game.round_no != round_no and game.round_no > rounds:
            break
    played = sum(1 for r in game.rounds if r.score is not None)
    pa, pb = _side_points(game, a_side), _side_points(game, 1 - a_side)
    if game.winner is not None:
        winner = "a" if game.winner == a_side else "b"
    else:
        winner = "a" if pa > pb else "b" if pb > pa else "draw"
    return GameResult(index, a_side, pa, pb, played, winner, time.perf_counter() - start, moves, game_seed)


def _task(args: tuple[str, str, int, int, int, Any, int | None, str]) -> GameResult:
    a, b, index, seed, players, options, rounds, game = args
    return play_game(a, b, index, seed, players, options, rounds, game)


def pairs_of(results: Iterable[GameResult], whole: bool = False) -> dict[int, list[GameResult]]:
    """Games by duplicate pair (pair ``index // 2``), in index order; ``whole``: only pairs with both games.

    >>> g = lambda i: GameResult(i, i % 2, 1, 0, 1, "a", 0.0, 0)
    >>> {p: [r.index for r in games] for p, games in pairs_of([g(3), g(0), g(1)]).items()}
    {0: [0, 1], 1: [3]}
    >>> list(pairs_of([g(3), g(0), g(1)], whole=True))
    [0]
    """
    pairs: dict[int, list[GameResult]] = {}
    for r in sorted(results, key=lambda r: r.index):
        pairs.setdefault(r.index // 2, []).append(r)
    return {p: games for p, games in pairs.items() if len(games) == 2} if whole else pairs


def summarise(a: str, b: str, results: Iterable[GameResult], players: int, options: Any, seed: int,
              rounds: int | None, seconds: float, game: str | None = None) -> MatchResult:
    """Match statistics from game results (pairs are the independent units); ``game`` None: the default game."""
    game = default_game().name if game is None else game
    res = sorted(results, key=lambda r: r.index)
    pairs = pairs_of(res)
    win = [[g.score for g in p] for p in pairs.values()]
    ppr = [fmean(g.ppr for g in p) for p in pairs.values()]
    return MatchResult(
        a=a, b=b, players=players, options=options.changed(), seed=seed, rounds_per_game=rounds,
        games=len(res), a_wins=sum(r.winner == "a" for r in res), b_wins=sum(r.winner == "b" for r in res),
        draws=sum(r.winner == "draw" for r in res), win_rate=Interval.wilson(win),
        points_per_round=Interval.of(ppr),
        rounds=sum(r.rounds for r in res), seconds=seconds, results=res, game=game,
    )


Progress = Callable[[int, int], None]


def check_match(a: str, b: str, games: int, players: int, options: Any, rounds: int | None,
                target: int | None, game: str) -> Any:
    """Check a match's settings (each failing with its own message, before any game); the game's options."""
    info = find_game(game)
    if players not in info.players:
        raise TournamentError(f"invalid number of players {players!r}: expected {_either(info.players)}")
    opts = options or info.options()
    if info.sides(players, opts) != 2:
        raise TournamentError(f"invalid number of players {players!r} for a {game} match: a match is between two "
                              "sides (2 players, or 4 in partnerships)")
    if games < 1:
        raise TournamentError(f"invalid number of games {games!r}: expected at least 1")
    if rounds is not None and rounds < 1:
        raise TournamentError(f"invalid number of rounds {rounds!r}: expected at least 1")
    for spec in (a, b):
        make_player(spec, 0, measurement=True)  # fail early, with the spec's own error
    return opts if target is None else opts.replace(target=target)


def play_match(a: str, b: str, games: int = 100, seed: int = 0, players: int = 2, options: Any = None,
               rounds: int | None = None, jobs: int = 1, target: int | None = None,
               progress: Progress | None = None, first: int = 0, pool: Executor | None = None,
               game: str | None = None) -> MatchResult:
    """Play ``games`` games (rounded up to an even number: duplicate pairs) of A against B.

    Games are numbered from ``first`` (even): a long match can be played in
    chunks that together are exactly the one long match. The games run in
    ``pool`` (any :func:`~diloti.match.workers.worker_pool`: local processes or
    Ray) when one is given, else in ``jobs`` local processes (1: here); the
    results are the same either way. ``game`` is a registered game (None: the default game); a match
    is always between two sides (4 players only in partnerships).
    """
    game = default_game().name if game is None else game
    opts = check_match(a, b, games, players, options, rounds, target, game)
    games += games % 2
    first -= first % 2
    tasks = [(a, b, i, seed, players, opts, rounds, game) for i in range(first, first + games)]
    start = time.perf_counter()
    results: list[GameResult] = []
    if progress:
        progress(0, games)
    if pool is None and jobs <= 1:
        for t in tasks:
            results.append(_task(t))
            if progress:
                progress(len(results), games)
    else:
        with contextlib.ExitStack() as stack:
            if pool is None:
                pool = stack.enter_context(worker_pool(min(jobs, games)))
            for fut in as_completed([pool.submit(_task, t) for t in tasks]):
                results.append(fut.result())
                if progress:
                    progress(len(results), games)
    return summarise(a, b, results, players, opts, seed, rounds, time.perf_counter() - start, game)


def _either(counts: Sequence[int]) -> str:
    """``2 or 4``, ``2, 3 or 4``."""
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def round_robin(levels: Sequence[str], games: int, **kwargs: Any) -> list[MatchResult]:
    """Every pair of ``levels`` (the first named is A)."""
    out = []
    for i, a in enumerate(levels):
        for b in levels[i + 1:]:
            out.append(play_match(a, b, games, **kwargs))
    return out


def check_plotting() -> None:
    """Refuse at once when matplotlib (the ``plot`` extra) is missing: before a match, not after it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise TournamentError("drawing the picture needs matplotlib, which is not installed: "
                              "pip install 'diloti[plot]'") from None


def plot_ladder(results: Sequence[MatchResult], path: str) -> None:
    """Draw the points-per-round matrix of the levels against each other as a picture."""
    check_plotting()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names: list[str] = []
    for r in results:
        for n in (r.a, r.b):
            if n not in names:
                names.append(n)
    ladder = ["random", "greedy", "heuristic", "expert", "master", "oracle"]
    names.sort(key=lambda n: (ladder.index(n.split(":")[0]) if n.split(":")[0] in ladder else len(ladder), n))
    k = len(names)
    grid = [[0.0] * k for _ in range(k)]
    text = [[""] * k for _ in range(k)]
    for r in results:
        i, j = names.index(r.a), names.index(r.b)
        p = r.points_per_round
        half = (p.high - p.low) / 2
        grid[i][j], grid[j][i] = p.mean, -p.mean
        text[i][j] = f"{p.mean:+.2f}\n±{half:.2f}\n{r.win_rate.mean:.0%}"
        text[j][i] = f"{-p.mean:+.2f}\n±{half:.2f}\n{1 - r.win_rate.mean:.0%}"
    fig, ax = plt.subplots(figsize=(1.6 * k + 2, 1.4 * k + 1.5))
    lim = max(1.0, max(abs(x) for row in grid for x in row))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=-lim, vmax=lim)
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            ax.text(j, i, text[i][j] or "—", ha="center", va="center", fontsize=8)
    ax.set_title("Points per round of the row player minus the column player\n(95% CI half-width; game win rate)")
    fig.colorbar(im, ax=ax, label="points per round")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
