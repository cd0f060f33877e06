"""``diloti review``: the review of a record on the terminal and as JSON, and one clear line for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_run import run
from diloti.ai.review import review_record
from diloti.cli.review import PLAYED_MAX
from diloti.games.diloti.formats.record import load_record

pytestmark = pytest.mark.timeout(120)
SAMPLE = Path(__file__).parent / "fixtures" / "sample_record.txt"
BAD = Path(__file__).parent / "fixtures" / "bad_record_illegal_line18.txt"
SWEEPS = Path(__file__).parent / "fixtures" / "xeri_record_sweeps.txt"


def test_review_prints_every_decision_of_the_seat_and_the_accuracy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "review", str(SAMPLE), "--seat", "1", "--budget", "2")
    assert code == 0 and err == "", err
    rec = load_record(SAMPLE)
    moves = [m for r in rec.rounds for s, m in r.moves if s == 1]
    lines = [ln for ln in out.splitlines() if ln[:4].strip().rstrip(".").isdigit()]
    assert len(lines) == len(moves) and all(" s1 " in ln for ln in lines)
    assert "=== round 1 ===" in out and "=== round 2 ===" in out
    assert "seat 1 (random1): " in out.splitlines()[-1] and "by round: r1 " in out.splitlines()[-1]
    assert "(forced)" in out or any(w in out for w in ("ok", "inaccuracy", "mistake", "blunder"))


def test_review_json_is_the_review_and_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "review", str(SAMPLE), "--json", "--budget", "1", "--seed", "4")
    assert code == 0
    data = json.loads(out)  # standard output is the JSON alone
    assert data == json.loads(json.dumps(review_record(load_record(SAMPLE), None, worlds=1, seed=4).to_dict()))
    assert data["seats"] == [0, 1] and set(data["accuracy"]) == {"0", "1"}
    assert data["thresholds"] == {"inaccuracy": 1.0, "mistake": 2.5, "blunder": 5.0}


@pytest.mark.parametrize(("argv", "needle"), [
    (["review", "/no/such/record.txt"], "record '/no/such/record.txt': no such file"),
    (["review", str(BAD)], "line 18: round 1: illegal move '8D x 5C'"),
    (["review", str(SAMPLE), "--seat", "2"], "invalid --seat 2: expected a seat 0..1 of this 2-player game"),
    (["review", str(SAMPLE), "--seat", "x"], "argument --seat: expected a non-negative integer, got 'x'"),
    (["review", str(SAMPLE), "--budget", "0"], "argument --budget: expected worlds a decision (1..1000), got '0'"),
    (["review", str(SAMPLE), "--budget", "many"], "expected worlds a decision"),
    (["review"], "the following arguments are required: RECORD"),
])
def test_bad_input_is_one_clear_line(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and needle in err and len(err.strip().splitlines()) == 1, err


def test_a_file_that_is_no_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text('[Event "diloti"]\n')
    code, _, err = run(capsys, "review", str(empty))
    assert code == 2 and "no moves to review (is it a game record?)" in err
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    code, _, err = run(capsys, "review", str(binary))
    assert code == 2 and "not a text file" in err
    code, _, err = run(capsys, "review", str(tmp_path))
    assert code == 2 and "is a folder" in err


def test_help_names_the_marks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "review", "--help")
    assert code == 0 and "usage: diloti review" in out and "blunder from 5" in out and "--budget W" in out


def test_a_xeri_record_is_reviewed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from diloti.ai import make_player
    from diloti.games.onecard.formats import HandsRecord
    from diloti.games.xeri.rules import XeriGame, XeriOptions

    g = XeriGame(options=XeriOptions(hands=1), seed=2)
    bots = [make_player("random", seed=1), make_player("greedy", seed=2)]
    while not g.is_over:
        g.push(bots[g.state.turn].choose(g.view(g.state.turn)))
    path = tmp_path / "xeri.txt"
    path.write_text(HandsRecord.from_game(g, names=["ann", "bob"]).dumps())
    code, out, err = run(capsys, "review", str(path), "--seat", "0", "--budget", "1")
    assert code == 0 and err == "" and "=== round 1 ===" in out and "seat 0 (ann): " in out and " win " not in out


def test_the_columns_line_up_and_a_sweep_pushes_out_only_its_own_line(capsys: pytest.CaptureFixture[str]) -> None:
    # A Xeri game (seat 0 played its first legal move each time) whose jacks swept whole tables (moves of
    # up to 75 characters).
    code, out, err = run(capsys, "review", str(SWEEPS), "--seat", "0", "--budget", "1", "--json")
    assert code == 0 and err == "", err
    played = [d["played"] for d in json.loads(out)["decisions"]]
    code, out, err = run(capsys, "review", str(SWEEPS), "--seat", "0", "--budget", "1")
    assert code == 0 and err == "", err
    lines = [ln for ln in out.splitlines() if ln[:4].strip().rstrip(".").isdigit()]
    assert len(lines) == len(played) and max(len(p) for p in played) > PLAYED_MAX
    for ln, p in zip(lines, played, strict=True):
        assert ln[4:].startswith(f" s0 {p} "), ln
        mark = len("  1. s0 ") + max(len(p), PLAYED_MAX) + 1  # where "ok", a mark or "(forced)" starts
        assert ln[mark - 1] == " " and ln[mark] != " ", ln
