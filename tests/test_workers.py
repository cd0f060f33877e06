"""Worker pools: the same answers as a serial run of the same seeds, on local processes and on Ray."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

import pytest

from diloti.ai.errors import UnknownLevelError
from diloti.cli import main
from diloti.core.errors import DilotiError
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View
from diloti.match.tournament import MatchResult, play_match
from diloti.match.workers import RayExecutor, WorkerPoolError, choose_move, worker_pool


def _jobs(n: int = 12) -> list[tuple[str, int, View]]:
    rng = random.Random(5)
    jobs = []
    for i in range(n):
        s = State.new(2 + 2 * (i % 2), seed=i)
        for _ in range(rng.randrange(12)):
            s.push(rng.choice(s.legal_moves()))
        jobs.append((("greedy", "heuristic", "expert:iterations=40")[i % 3], 1000 + i, s.view(s.turn)))
    return jobs


def _games(match: MatchResult) -> list[tuple[object, ...]]:
    """Everything about a match's games but the time each took."""
    return sorted((r.index, r.a_side, r.a_points, r.b_points, r.rounds, r.winner, r.moves, r.game_seed)
                  for r in match.results)


def test_moves_chosen_in_workers_equal_serial_choices() -> None:
    jobs = _jobs()
    with worker_pool(2) as pool:
        futures = [pool.submit(choose_move, *job) for job in jobs]
        assert [f.result() for f in futures] == [choose_move(*job) for job in jobs]


def test_a_match_on_two_workers_equals_the_serial_match() -> None:
    serial = play_match("greedy", "heuristic", games=4, seed=3, rounds=1, jobs=1)
    parallel = play_match("greedy", "heuristic", games=4, seed=3, rounds=1, jobs=2)
    assert _games(parallel) == _games(serial) and len(_games(serial)) == 4
    assert (parallel.a_wins, parallel.b_wins, parallel.win_rate) == (serial.a_wins, serial.b_wins, serial.win_rate)


def test_a_decimal_string_means_local_processes() -> None:
    view = State.new(seed=3).view(1)
    with worker_pool(" 2 ") as pool:
        assert pool.submit(choose_move, "greedy", 7, view).result() == choose_move("greedy", 7, view)


@pytest.mark.parametrize("spec, reason", [
    (0, "invalid worker pool 0: expected at least 1 worker process"),
    (-1, "invalid worker pool -1: expected at least 1 worker process"),
    ("0", "invalid worker pool '0': expected at least 1 worker process"),
    ("-1", "invalid worker pool '-1': expected at least 1 worker process"),
    ("fast", "invalid worker pool 'fast': expected a number of processes, ray, ray://HOST:PORT or ray:HOST:PORT"),
    ("", "invalid worker pool '': expected a number of processes"),
    ("1.5", "invalid worker pool '1.5': expected a number of processes"),
    (True, "invalid worker pool True: expected a number of processes"),
    ("ray://head", "invalid worker pool 'ray://head': expected ray://HOST:PORT (a port of 1..65535)"),
    ("ray:head:0", "invalid worker pool 'ray:head:0': expected ray:HOST:PORT (a port of 1..65535)"),
    ("ray://head:99999", "invalid worker pool 'ray://head:99999': expected ray://HOST:PORT"),
    ("ray:", "invalid worker pool 'ray:': expected ray:HOST:PORT"),
    ("rays", "invalid worker pool 'rays': expected a number of processes"),
])
def test_bad_pool_specs_say_what_and_why(spec: Any, reason: str) -> None:
    with pytest.raises(WorkerPoolError) as info:
        worker_pool(spec)
    assert str(info.value).startswith(reason)
    assert isinstance(info.value, DilotiError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("spec", ["ray", "ray://head.example:10001", "ray:10.0.0.5:6379"])
def test_ray_without_the_cluster_extra_says_how_to_install_it(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    with pytest.raises(DilotiError, match=rf"^worker pool '{spec}' needs the cluster extra: "
                                          r"pip install 'diloti\[cluster\]'"):
        worker_pool(spec)


@pytest.mark.parametrize("spec", ["ray:127.0.0.1:1", "ray://127.0.0.1:1"])
def test_an_unreachable_ray_head_fails_at_once(spec: str) -> None:
    pytest.importorskip("ray", reason="the cluster extra is not installed")
    with pytest.raises(WorkerPoolError, match=rf"^worker pool '{spec}': cannot reach 127.0.0.1:1: "):
        worker_pool(spec)


def test_cli_refuses_a_bad_pool_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "greedy", "heuristic", "--workers", "fast"]) == 2
    err = capsys.readouterr().err
    assert "invalid worker pool 'fast'" in err and "Traceback" not in err and err.count("\n") == 1
    assert main(["tournament", "greedy", "heuristic", "--jobs", "0"]) == 2
    assert "invalid worker pool '0': expected at least 1 worker process" in capsys.readouterr().err


def test_one_pool_serves_every_match_and_outlives_them() -> None:
    with worker_pool(2) as pool:
        first = play_match("greedy", "heuristic", games=2, seed=3, rounds=1, pool=pool)
        second = play_match("greedy", "heuristic", games=2, seed=3, rounds=1, pool=pool, first=2)
        assert pool.submit(sum, [1, 2]).result() == 3  # still running
    whole = play_match("greedy", "heuristic", games=4, seed=3, rounds=1, jobs=1)
    assert _games(first) + _games(second) == _games(whole)


# Ray: one small local instance for the module (starting one takes seconds).

@pytest.fixture(scope="module")
def ray_pool() -> Iterator[Executor]:
    pytest.importorskip("ray", reason="the cluster extra is not installed (pip install 'diloti[cluster]')")
    temp = tempfile.mkdtemp(prefix="diloti-ray-")  # short: Ray's socket paths live under it
    # A new local instance, whatever RAY_ADDRESS says. Ray turns token authentication on for it by
    # setting RAY_AUTH_MODE in this process (setting it here, after ray is imported, would not work):
    # put the variable back as it was afterwards.
    auth_mode = os.environ.get("RAY_AUTH_MODE")
    try:
        pool = RayExecutor("local", num_cpus=2, object_store_memory=80 * 1024 * 1024, _temp_dir=temp)
        yield pool
        pool.shutdown()
        import ray

        assert not ray.is_initialized()  # the executor that connected disconnected
    finally:
        shutil.rmtree(temp, ignore_errors=True)
        if auth_mode is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = auth_mode


def test_moves_chosen_on_ray_equal_serial_choices(ray_pool: Executor) -> None:
    jobs = _jobs()
    with worker_pool("ray") as pool:  # uses the connection this process has
        assert isinstance(pool, RayExecutor)
        futures = [pool.submit(choose_move, *job) for job in jobs]
        assert [f.result() for f in futures] == [choose_move(*job) for job in jobs]
        # a task's error is the task's own exception, as with local processes
        with pytest.raises(UnknownLevelError, match="unknown level 'nobody'"):
            pool.submit(choose_move, "nobody", 1, jobs[0][2]).result()
    with pytest.raises(RuntimeError, match="after shutdown"):
        pool.submit(choose_move, *jobs[0])
    import ray

    assert ray.is_initialized()  # a pool that only borrowed the connection leaves it open


def test_ray_serves_the_event_loop_like_the_server_uses_it(ray_pool: Executor) -> None:
    state = State.new(seed=4)
    view = state.view(state.turn)

    async def ask() -> list[Any]:
        loop = asyncio.get_running_loop()
        return await asyncio.gather(*(loop.run_in_executor(ray_pool, choose_move, level, 9, view)
                                      for level in ("greedy", "heuristic")))

    # On a thread of its own: the browser tests may leave an event loop running on this one.
    with ThreadPoolExecutor(1) as thread:
        answers = thread.submit(asyncio.run, ask()).result()
    assert answers == [choose_move("greedy", 9, view), choose_move("heuristic", 9, view)]


def test_a_match_on_ray_equals_the_serial_match(ray_pool: Executor) -> None:
    serial = play_match("greedy", "heuristic", games=4, seed=3, rounds=1, jobs=1)
    on_ray = play_match("greedy", "heuristic", games=4, seed=3, rounds=1, pool=ray_pool)
    assert _games(on_ray) == _games(serial) and len(_games(serial)) == 4
    assert (on_ray.a_wins, on_ray.b_wins, on_ray.win_rate) == (serial.a_wins, serial.b_wins, serial.win_rate)


def test_cli_tournament_on_ray_equals_the_serial_run(ray_pool: Executor, capsys: pytest.CaptureFixture[str]) -> None:
    def run(spec: str) -> list[dict[str, Any]]:
        argv = ["tournament", "greedy", "heuristic", "random", "--games", "2", "--rounds", "1", "--seed", "8",
                "--workers", spec, "--quiet", "--per-game", "--json", "-"]
        assert main(argv) == 0
        out = capsys.readouterr().out
        data: list[dict[str, Any]] = json.loads(out)  # with --json -, standard output is the JSON alone
        for match in data:  # all but times
            del match["seconds"], match["moves_per_second"]
            for game in match["results"]:
                del game["seconds"]
        return data

    on_ray = run("ray")
    assert on_ray == run("1") and len(on_ray) == 3 and all(m["games"] == 2 for m in on_ray)
    assert os.environ.get("RAY_ADDRESS") is None


def children_of(pid: int) -> set[int]:
    """The worker processes whose parent is ``pid`` (read from /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    if b"spawn_main" in f.read():
                        out.add(int(entry))
    return out


def cpu_seconds(pid: int) -> float:
    """The user and system CPU time ``pid`` has used (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_a_killed_server_leaves_no_worker_behind(tmp_path: Any) -> None:
    # kill -9 lets the server run no cleanup at all: its workers must notice by themselves.
    import time

    import httpx

    sys.path.insert(0, os.path.dirname(__file__))
    from servers import Server

    server = Server(f"sqlite:///{tmp_path}/d.sqlite3")
    try:
        r = httpx.post(f"{server.base}/api/tables", json={"name": "Ann", "players": 4, "seats": [
            {"kind": "human"}] + [{"kind": "bot", "level": "master"}] * 3}, timeout=10)
        assert r.status_code == 201, r.text  # a computer moves first: a worker process starts, and thinks
        deadline = time.monotonic() + 30
        while not (workers := children_of(server.proc.pid)):
            assert time.monotonic() < deadline, "no worker process started"
            time.sleep(0.05)
        server.kill()
        deadline = time.monotonic() + 30
        while left := {p for p in workers if alive(p)}:
            assert time.monotonic() < deadline, f"workers {left} outlived their server"
            time.sleep(0.05)
    finally:
        server.stop()


def test_an_sprt_on_ray_stops_on_the_pair_the_serial_run_does(ray_pool: Executor,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from diloti.match.sequential import play_sequential
    from diloti.match.sprt import Sprt
    from diloti.match.workers import pool_width

    assert pool_width(ray_pool) == 2  # the games kept in flight: the cluster's CPUs
    serial = play_sequential("heuristic", "random", 200, test=Sprt(0, 300), seed=4, rounds=1)
    on_ray = play_sequential("heuristic", "random", 200, test=Sprt(0, 300), seed=4, rounds=1, pool=ray_pool)
    assert on_ray.status == serial.status and on_ray.status is not None and on_ray.status.verdict == "H1"
    assert _games(on_ray.match) == _games(serial.match)
    assert main(["tournament", "heuristic", "random", "--sprt", "0,300", "--rounds", "1", "--seed", "4",
                 "--workers", "ray", "--quiet", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["sprt"]["pairs"] == serial.pairs


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
def test_ctrl_c_stops_a_tournament_on_two_workers_at_once_and_leaves_no_worker(tmp_path: Any) -> None:
    # The executor's own exit waited for every queued game: an interrupted SPRT played on for 40 minutes.
    import signal
    import subprocess
    import time

    results = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "diloti", "tournament", "master:cpu=1", "heuristic", "--games", "40",
         "--workers", "2", "--seed", "3", "--results", str(results)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        # A background job of a non-interactive shell inherits SIGINT ignored: as a terminal's Ctrl-C it must act.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        # Both workers started and past their imports, into their games (a second of CPU time each).
        while len(workers := children_of(proc.pid)) < 2 or min(map(cpu_seconds, workers)) < 1.0:
            assert proc.poll() is None and time.monotonic() < deadline, "no two workers playing"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)  # a whole game of master moves takes minutes: only a stop is this quick
        assert proc.returncode != 0, out
        assert "Traceback" not in out, out
        deadline = time.monotonic() + 30
        while left := {p for p in workers if alive(p)}:
            assert time.monotonic() < deadline, f"workers {left} outlived the interrupted tournament"
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
