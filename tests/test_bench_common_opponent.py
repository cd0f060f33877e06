"""bench/common_opponent.py: two players compared through the opponent both met on the same deals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def results(path: Path, margins: list[tuple[int, int]], seed: int = 0) -> str:
    """A results file: game i's points (A's, B's) in 4 rounds, pair i // 2 dealt from seed + i // 2."""
    path.write_text("".join(json.dumps({"index": i, "a_side": i % 2, "a_points": a, "b_points": b, "rounds": 4,
                                        "winner": "a" if a > b else "b", "seconds": 1.0, "moves": 96,
                                        "game_seed": seed + i // 2}) + "\n" for i, (a, b) in enumerate(margins)))
    return str(path)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "common_opponent.py"), *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_the_edge_is_taken_over_the_pairs_both_files_hold(tmp_path: Path) -> None:
    # A is 2 and 4 points a round over C in its pairs, B 3 and 7; B's third pair is not in A's file.
    a = results(tmp_path / "a.jsonl", [(40, 32), (40, 32), (50, 34), (50, 34)])
    b = results(tmp_path / "b.jsonl", [(40, 28), (40, 28), (60, 32), (60, 32), (90, 0), (90, 0)])
    out = run(a, b)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].endswith("4 of 4 games won, +3.00 [+1.04, +4.96] points a round over the common opponent")
    assert lines[1].endswith("4 of 4 games won, +5.00 [+1.08, +8.92] points a round over the common opponent")
    assert lines[2] == "2 pairs in both: the second's edge minus the first's +2.00 [+0.04, +3.96] points a round"


def test_files_of_other_deals_or_too_few_pairs_are_refused(tmp_path: Path) -> None:
    a = results(tmp_path / "a.jsonl", [(40, 32)] * 4)
    other = results(tmp_path / "other.jsonl", [(40, 32)] * 4, seed=100)
    out = run(a, other)
    assert out.returncode == 2 and "pair 0 was dealt differently in the two files" in out.stderr
    one = results(tmp_path / "one.jsonl", [(40, 32)] * 3)  # one whole pair, and half of another
    out = run(a, one)
    assert out.returncode == 2 and "1 pair(s) in both files: too few to compare" in out.stderr
    out = run(a, str(tmp_path / "bad.jsonl"))
    assert out.returncode == 2 and "bad.jsonl': no such file" in out.stderr
    (tmp_path / "bad.jsonl").write_text("not json\n")
    out = run(a, str(tmp_path / "bad.jsonl"))
    assert out.returncode == 2 and "line 1: not a game's result" in out.stderr and "Traceback" not in out.stderr
