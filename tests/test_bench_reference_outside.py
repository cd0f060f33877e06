"""bench/reference_table.py --outside (issue 53 item 4): an outside player by import path gets its row against the
reference players, with intervals, from the same matches as ``diloti tournament``; a bad path is a clear error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT / "tests")])}
    return subprocess.run([sys.executable, str(ROOT / "bench" / "reference_table.py"), *args], capture_output=True,
                          text=True, timeout=240, check=False, env=env)


def test_an_outside_players_row_with_intervals_and_its_results_files(tmp_path: Path) -> None:
    out = run("--outside", "outside_bot:LastMove:bias=1", "--name", "last", "--games", "4", "--against", "random",
              "greedy", "--dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-3] == "| row against column | random | greedy |"
    row = lines[-1]
    assert row.startswith("| **last** (`outside_bot:LastMove:bias=1`) | ") and row.count("[4]") == 2
    assert row.count("%–") == 2 and row.count("..") == 2  # a win-rate interval and a points interval a cell
    games = [json.loads(line) for line in (tmp_path / "last_vs_random.jsonl").read_text().splitlines()]
    assert [g["index"] for g in games] == [0, 1, 2, 3]
    again = run("--outside", "outside_bot:LastMove:bias=1", "--name", "last", "--games", "4", "--against", "random",
                "greedy", "--dir", str(tmp_path))
    assert again.stdout.strip().splitlines()[-1] == row and "games" not in again.stdout  # resumed: nothing to play


def test_a_bad_import_path_or_name_is_refused_naming_it(tmp_path: Path) -> None:
    out = run("--outside", "outside_bot:Nope", "--dir", str(tmp_path))
    assert out.returncode == 2 and "invalid --outside 'outside_bot:Nope'" in out.stderr
    assert "Traceback" not in out.stderr
    out = run("--outside", "outside_bot:LastMove", "--name", "expert", "--dir", str(tmp_path))
    assert out.returncode == 2 and "invalid --name 'expert'" in out.stderr
