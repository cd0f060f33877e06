"""bench/load.py end to end on a tiny load: the computer moves against the servers' workers' CPU, per core."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import diloti

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_load_benchmark_counts_computer_moves_per_worker_cpu_second_on_the_core_asked(tmp_path: Path) -> None:
    # Both cores where the compiled one is built (the compiled run first); the pure core alone otherwise,
    # since asking for a core the servers cannot run fails the run.
    core = "both" if diloti.CORE == "compiled" else "pure"
    figures = tmp_path / "load.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("DILOTI_PURE", None)  # --core alone decides
    # Its own process group: if it hangs, its servers and their workers die with it (none is left behind).
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "load.py"), "--tables", "2", "--bots",
                             "--bot-level", "greedy", "--workers", "1", "--core", core, "--ramp", "0.2",
                             "--think-min", "0.01", "--think-max", "0.02", "--json", str(figures)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        stdout, stderr = proc.communicate()
        pytest.fail("bench/load.py did not finish in 240 s:\n" + stdout[-3000:] + stderr[-3000:])
    run = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    runs = [json.loads(line) for line in figures.read_text().splitlines()]
    assert [r["core"] for r in runs] == (["compiled", "pure"] if core == "both" else ["pure"])
    for r in runs:
        w = r["workers"]
        # Every computer move was computed by a worker that ran the core asked for, as did the server.
        assert w["played"] == w["computed"] > 0
        assert w["processes"] == 1 and w["cores"] == w["server_cores"] == [r["core"]]
        assert w["cpu"] > 0 and w["moves_per_cpu_s"] == pytest.approx(w["computed"] / w["cpu"], rel=0.05)
        assert r["check"]["over"] == 2 and r["errors"] == 0
    # --core both fixes the deals: the same games whatever the core.
    assert len({r["games"] for r in runs}) == 1
    assert "computer moves per worker CPU-second" in run.stdout
    if core == "both":
        assert "side by side" in run.stdout and "games stored: the same in every run" in run.stdout
