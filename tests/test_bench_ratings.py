"""bench/ratings.py: the rating table from results files, players the games do not connect on scales of their own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from diloti.server.ratings import MASTER_OVER_EXPERT

ROOT = Path(__file__).resolve().parent.parent


def results(path: Path, winners: list[str]) -> str:
    """A results file of games in duplicate pairs (``a``, ``b`` or ``draw`` each)."""
    path.write_text("".join(json.dumps({"index": i, "winner": w}) + "\n" for i, w in enumerate(winners)))
    return str(path)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "ratings.py"), *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_unconnected_players_are_rated_on_a_scale_of_their_own(tmp_path: Path) -> None:
    files = [results(tmp_path / "expert_vs_greedy_2p_seed1.jsonl", ["a", "a", "a", "b"] * 5),
             results(tmp_path / "greedy_vs_random_2p_seed1.jsonl", ["a", "a"] * 10),
             results(tmp_path / "master-0.25s-cpu_vs_master-0.29s-cpu_2p_seed1.jsonl", ["a", "b", "b", "b"] * 3)]
    out = run(*files)
    assert out.returncode == 0, out.stderr
    main, _, own = out.stdout.partition("Not connected to the players above")
    assert all(f"| {p} |" in main for p in ("expert", "greedy", "random")) and "master" not in main
    assert "master-0.25s-cpu, master-0.29s-cpu" in own and "| master-0.29s-cpu | +" in own  # it won 9 of 12
    assert "Traceback" not in out.stderr


def test_a_bad_anchor_and_no_results_are_usage_errors(tmp_path: Path) -> None:
    f = results(tmp_path / "expert_vs_greedy_2p_seed1.jsonl", ["a", "b"])
    for args, said in (([f, "--anchor", "nosuch"], "invalid --anchor 'nosuch'"),
                       ([f, "--players", "4"], "no 4-player results")):
        out = run(*args)
        assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr


def test_the_servers_master_anchor_is_the_fitted_ladders() -> None:
    """The server places ``master`` by the ladder's fit of the recorded matches (a match that moves it shows here)."""
    out = run(*sorted(str(p) for p in (ROOT / "bench" / "results").glob("*.jsonl")), "--anchor", "expert")
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith("| master-1s |"))
    assert row.split("|")[2].strip() == f"+{MASTER_OVER_EXPERT}", row
