"""Matches played pair by pair: a sequential test (SPRT) that stops at its verdict, and results files that resume.

:func:`play_sequential` plays the games of a duplicate match in order (in a
worker pool, the next games already running), hands every finished game to
``on_game`` (to append it to a results file at once) and, with a
:class:`~diloti.match.sprt.Sprt`, looks at the pairs in their order, stopping
at the first pair after which the test has a verdict. The verdict depends only
on the games, never on where or in what order they ran; a run stopped and
started again from its results file (:func:`read_results`, the per-game JSON
lines bench/ladder.py writes) plays only the games the file lacks and reaches
the same verdict after the same pair.

>>> from diloti.match.sprt import Sprt
>>> out = play_sequential("heuristic", "random", 40, test=Sprt(0, 400), seed=1, rounds=1)
>>> out.status.verdict, out.pairs == out.status.pairs <= 20
('H1', True)
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import asdict, dataclass, fields
from typing import Any

from diloti.core.registry import default_game
from diloti.core.seeds import derive_seed
from diloti.match.sprt import Sprt, SprtStatus, pentanomial
from diloti.match.tournament import GameResult, MatchResult, TournamentError, check_match, play_game, summarise
from diloti.match.workers import pool_width

GAME_FIELDS = {f.name for f in fields(GameResult)}


def read_results(path: str) -> list[GameResult]:
    """The games of a results file (one JSON object a line, as :func:`append_result` writes); none if absent.

    >>> read_results("/no/such/results.jsonl")
    []
    """
    if not os.path.exists(path):
        return []
    if os.path.isdir(path):
        raise TournamentError(f"results file {path!r}: is a folder, not a file")
    out: list[GameResult] = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if not isinstance(data, dict) or set(data) - GAME_FIELDS:
                    raise ValueError("not a game's result")
                out.append(GameResult(**data))
            except (ValueError, TypeError) as exc:
                raise TournamentError(f"results file {path!r} line {n}: not a game's result ({exc})") from None
    return out


def append_result(path: str, result: GameResult) -> None:
    """Append one game to a results file (flushed: a run killed later loses no finished game)."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(asdict(result)) + "\n")


def check_results(results: Iterable[GameResult], seed: int) -> dict[int, GameResult]:
    """The games by index, refusing games of another match (other deals) or a game recorded twice."""
    out: dict[int, GameResult] = {}
    for r in results:
        if r.index < 0 or r.a_side != r.index % 2 or (r.game_seed and r.game_seed != derive_seed("game", seed,
                                                                                                  r.index // 2)):
            raise TournamentError(f"the results hold game {r.index} of another match (not the deals of seed {seed}): "
                                  "give the match's own --seed, or another results file")
        if r.index in out:
            raise TournamentError(f"the results hold game {r.index} twice")
        out[r.index] = r
    return out


@dataclass
class SequentialResult:
    """A sequential match: the games of the pairs it used, and the test's status after them."""

    match: MatchResult
    status: SprtStatus | None  # None: no test (a fixed-length match)
    pairs: int  # pairs used (the test's verdict came after the last of them, if it has one)
    played: int  # games played by this run (the rest came from the results given)
    seconds: float  # this run's wall time


def play_sequential(a: str, b: str, games: int, *, test: Sprt | None = None, seed: int = 0, players: int = 2,
                    options: Any = None, rounds: int | None = None, target: int | None = None,
                    pool: Executor | None = None, done: Sequence[GameResult] = (),
                    on_game: Callable[[GameResult], None] | None = None,
                    on_pair: Callable[[SprtStatus | None, int], None] | None = None,
                    game: str | None = None) -> SequentialResult:
    """Play A against B pair by pair, at most ``games`` games (rounded up to even), stopping at ``test``'s verdict.

    ``done`` are games already played (from a results file): only the others are
    played. ``pool`` runs games ahead (as many as it has workers); without one,
    the games run here one after another. ``on_pair(status, pairs)`` follows every
    pair in order (``status`` None without a test). ``game`` None: the default game.
    """
    game = default_game().name if game is None else game
    opts = check_match(a, b, games, players, options, rounds, target, game)
    games += games % 2
    known = check_results(done, seed)
    results: dict[int, GameResult] = {i: r for i, r in known.items() if i < games}
    todo = iter([i for i in range(games) if i not in results])
    counts = [0] * 5
    status: SprtStatus | None = test.status(counts) if test else None
    pairs = played = 0
    start = time.perf_counter()
    pending: dict[Future[GameResult], int] = {}
    width = pool_width(pool) if pool is not None else 1

    def finished(r: GameResult) -> None:
        nonlocal played
        results[r.index] = r
        played += 1
        if on_game:
            on_game(r)

    try:
        while True:
            while pairs < games // 2 and 2 * pairs in results and 2 * pairs + 1 in results:
                pair = (results[2 * pairs].score, results[2 * pairs + 1].score)
                counts = [c + d for c, d in zip(counts, pentanomial([pair]), strict=True)]
                pairs += 1
                status = test.status(counts) if test else None
                if on_pair:
                    on_pair(status, pairs)
                if status is not None and status.verdict:
                    break
            if pairs == games // 2 or (status is not None and status.verdict):
                break
            if pool is None:
                index = next(todo)
                finished(play_game(a, b, index, seed, players, opts, rounds, game))
                continue
            while len(pending) < width and (nxt := next(todo, None)) is not None:
                pending[pool.submit(play_game, a, b, nxt, seed, players, opts, rounds, game)] = nxt
            if not pending:  # cannot happen: every game not yet in results was submitted
                raise TournamentError(f"internal error: pair {pairs} has no game to wait for")
            ready, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in ready:
                del pending[fut]
                finished(fut.result())
    finally:
        for fut in pending:
            fut.cancel()  # games not yet started; those running end with the pool
    used = [results[i] for i in range(2 * pairs)]
    match = summarise(a, b, used, players, opts, seed, rounds, sum(r.seconds for r in used), game)
    return SequentialResult(match, status, pairs, played, time.perf_counter() - start)


def verdict_text(test: Sprt, result: SequentialResult, a: str, b: str) -> str:
    """The test's outcome for people: the verdict (or none), the LLR against its bounds, the Elo with its interval."""
    st = result.status
    assert st is not None
    games = 2 * result.pairs
    if st.verdict == "H1":
        head = (f"H1 accepted after {games} games: {a}'s Elo over {b} is {test.elo1:g} (or more) rather than "
                f"{test.elo0:g}")
    elif st.verdict == "H0":
        head = (f"H0 accepted after {games} games: {a}'s Elo over {b} is {test.elo0:g} (or less) rather than "
                f"{test.elo1:g}")
    else:
        head = f"no verdict after {games} games (the --games cap): play on to decide"
    return (f"{test.describe()}\n  {head}\n  LLR {st.llr:+.2f} (bounds {st.lower:.2f}, {st.upper:.2f}); "
            f"{a}'s Elo over {b}: {st.elo} (95%)\n"
            f"  pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2 for {a}): {', '.join(map(str, st.counts))}")


def sprt_dict(test: Sprt, result: SequentialResult) -> dict[str, Any]:
    """The test and its outcome for ``--json``."""
    st = result.status
    assert st is not None
    return {
        "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta, "model": test.model,
        "verdict": st.verdict, "llr": st.llr, "lower": st.lower, "upper": st.upper, "pairs": result.pairs,
        "pentanomial": list(st.counts),
        # JSON has no infinity: an unbounded end (every pair won, or lost) is null, as is a missing interval
        "elo": {k: v if v is not None and math.isfinite(v) else None
                for k, v in (("mean", st.elo.elo), ("low", st.elo.low), ("high", st.elo.high))},
        "games_played_now": result.played,
    }
