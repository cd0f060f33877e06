"""Worker processes: the same answers as a serial run of the same seeds."""

from __future__ import annotations

import random

import pytest

from diloti.core.errors import DilotiError
from diloti.core.state import State
from diloti.match.tournament import play_match
from diloti.match.workers import choose_move, worker_pool


def test_moves_chosen_in_workers_equal_serial_choices() -> None:
    rng = random.Random(5)
    jobs = []
    for i in range(12):
        s = State.new(2 + 2 * (i % 2), seed=i)
        for _ in range(rng.randrange(12)):
            s.push(rng.choice(s.legal_moves()))
        jobs.append((("greedy", "heuristic", "expert:iterations=40")[i % 3], 1000 + i, s.view(s.turn)))
    with worker_pool(2) as pool:
        futures = [pool.submit(choose_move, *job) for job in jobs]
        assert [f.result() for f in futures] == [choose_move(*job) for job in jobs]


def test_a_match_on_two_workers_equals_the_serial_match() -> None:
    serial = play_match("greedy", "heuristic", games=4, seed=3, rounds=1, jobs=1)
    parallel = play_match("greedy", "heuristic", games=4, seed=3, rounds=1, jobs=2)
    def games(match: object) -> list[tuple[object, ...]]:
        # Everything but the time a game took.
        return sorted((r.index, r.a_side, r.a_points, r.b_points, r.rounds, r.winner, r.moves, r.game_seed)
                      for r in match.results)  # type: ignore[attr-defined]

    assert games(parallel) == games(serial) and len(games(serial)) == 4
    assert (parallel.a_wins, parallel.b_wins, parallel.win_rate) == (serial.a_wins, serial.b_wins, serial.win_rate)


def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(DilotiError, match="invalid number of worker processes 0"):
        worker_pool(0)
