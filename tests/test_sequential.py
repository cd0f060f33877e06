"""Sequential matches: the SPRT's stopping, its pools, resuming from a results file, and `diloti tournament --sprt`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypedDict

import pytest

from cli_run import run
from diloti.cli import main
from diloti.match.sequential import append_result, play_sequential, read_results
from diloti.match.sprt import Sprt
from diloti.match.tournament import GameResult, TournamentError, play_match
from diloti.match.workers import worker_pool


class Fast(TypedDict):
    seed: int
    rounds: int


# Fast players and one round a game: a pair takes milliseconds.
FAST: Fast = {"seed": 4, "rounds": 1}


def _outcome(games: Sequence[GameResult]) -> list[tuple[int, int, int, str]]:
    return [(g.index, g.a_points, g.b_points, g.winner) for g in games]


def test_the_test_stops_at_its_verdict_on_the_same_pair_wherever_games_run() -> None:
    test = Sprt(0, 300)
    serial = play_sequential("heuristic", "random", 200, test=test, **FAST)
    assert serial.status is not None and serial.status.verdict == "H1"
    assert serial.pairs < 100 and serial.match.games == 2 * serial.pairs == serial.played
    # the verdict is the first pair after which the LLR is out of its bounds
    counts = serial.status.counts
    assert test.status(counts).llr >= test.upper
    games = serial.match.results
    before = [sum(1 for i in range(0, 2 * serial.pairs - 2, 2)
                  if round(2 * (games[i].score + games[i + 1].score)) == k) for k in range(5)]
    assert test.status(before).verdict is None
    with worker_pool(2) as pool:
        pooled = play_sequential("heuristic", "random", 200, test=test, pool=pool, **FAST)
    assert _outcome(pooled.match.results) == _outcome(serial.match.results)
    assert pooled.status == serial.status


def test_h0_and_no_verdict() -> None:
    h0 = play_sequential("random", "heuristic", 400, test=Sprt(0, 100), **FAST)
    assert h0.status is not None and h0.status.verdict == "H0"
    capped = play_sequential("greedy", "random", 6, test=Sprt(0, 30), **FAST)
    assert capped.status is not None and capped.status.verdict is None and capped.pairs == 3


def test_resuming_plays_only_what_is_missing_and_reaches_the_same_verdict(tmp_path: Path) -> None:
    path = str(tmp_path / "r.jsonl")
    whole = play_sequential("heuristic", "random", 200, test=Sprt(0, 300), **FAST)
    first = play_sequential("heuristic", "random", 6, test=Sprt(0, 300), on_game=lambda r: append_result(path, r),
                            **FAST)
    assert len(read_results(path)) == 6 and first.status is not None and first.status.verdict is None
    done = read_results(path)[:5]  # a run killed in the middle of a pair
    resumed = play_sequential("heuristic", "random", 200, test=Sprt(0, 300), done=done, **FAST)
    assert resumed.played == 2 * whole.pairs - 5
    assert resumed.status == whole.status and _outcome(resumed.match.results) == _outcome(whole.match.results)
    # games of another match (other deals) are refused, not mixed in
    with pytest.raises(TournamentError, match="another match"):
        play_sequential("heuristic", "random", 20, test=Sprt(0, 300), done=done, seed=5, rounds=1)
    with pytest.raises(TournamentError, match="twice"):
        play_sequential("heuristic", "random", 20, done=[*done, replace(done[0])], **FAST)


def test_a_results_file_that_is_not_one_says_where(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"index": 0, "a_side": 0}\nnot json\n')
    with pytest.raises(TournamentError, match=r"bad.jsonl' line 1: not a game's result"):
        read_results(str(bad))
    bad.write_text('{"index": 0, "colour": "red"}\n')
    with pytest.raises(TournamentError, match="line 1"):
        read_results(str(bad))
    with pytest.raises(TournamentError, match="is a folder"):
        read_results(str(tmp_path))


def test_cli_sprt_prints_the_running_llr_and_a_verdict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    code, out, err = run(capsys, "tournament", "heuristic", "random", "--sprt", "0,300", "--rounds", "1", "--seed",
                         "4", "--workers", "1", "--results", str(path))
    assert code == 0 and err == ""
    assert "SPRT H0 elo=0 against H1 elo=300" in out and "alpha=0.05, beta=0.05" in out
    assert "1 pairs (2 games): LLR" in out and "(-2.94, 2.94)" in out and "Elo +" in out
    assert "H1 accepted after" in out and "heuristic's Elo over random is 300 (or more) rather than 0" in out
    lines = path.read_text().splitlines()
    # resumed: nothing left to play, the same verdict
    code, out2, _ = run(capsys, "tournament", "heuristic", "random", "--sprt", "0,300", "--rounds", "1", "--seed",
                        "4", "--workers", "2", "--results", str(path))
    assert code == 0 and f"{len(lines)} games already played" in out2 and "0 games played now" in out2
    assert out.splitlines()[-3:] == out2.splitlines()[-3:] and path.read_text().splitlines() == lines


def test_cli_sprt_no_verdict_settings_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tournament", "greedy", "random", "--sprt", "0,30", "--alpha", "0.1", "--beta",
                         "0.2", "--games", "4", "--rounds", "1", "--workers", "1", "--quiet", "--json", "-")
    assert code == 0
    data = json.loads(out)  # standard output is the JSON alone
    assert data["sprt"]["verdict"] is None and data["sprt"]["pairs"] == 2 and data["games"] == 4
    assert data["sprt"]["alpha"] == 0.1 and data["sprt"]["beta"] == 0.2 and len(data["sprt"]["pentanomial"]) == 5
    assert "no verdict after 4 games" in err and "pairs (" not in err  # --quiet: no running lines
    code, out, _ = run(capsys, "tournament", "greedy", "random", "--sprt", "0,30", "--elo-model", "normalized",
                       "--games", "2", "--rounds", "1", "--workers", "1")
    assert code == 0 and "normalized Elo" in out


def test_cli_sprt_with_an_outside_player(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "outside_bot:LastMove", "heuristic", "--sprt=-300,0", "--rounds",
                       "1", "--games", "60", "--workers", "2")
    assert code == 0 and "outside_bot:LastMove vs heuristic" in out and "accepted after" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--sprt", "50,0"], "ELO0 < ELO1"),
    (["--sprt", "fifty"], "ELO0,ELO1"),
    (["--sprt", "0,50", "--alpha", "0.7"], "error rate between 0 and 0.5"),
    (["--sprt", "0,50", "--elo-model", "bayes"], "invalid choice"),
])
def test_cli_sprt_bad_settings(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "tournament", "greedy", "random", *argv)
    assert code == 2 and message in err and "Traceback" not in err and err.count("\n") == 1


def test_cli_sprt_needs_two_players_and_a_writable_results_file(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    code, _, err = run(capsys, "tournament", "greedy", "random", "heuristic", "--sprt", "0,50")
    assert code == 2 and "--sprt is for a match of two players, not 3" in err
    code, _, err = run(capsys, "tournament", "greedy", "random", "--results", str(tmp_path / "no" / "r.jsonl"))
    assert code == 2 and "--results" in err and "cannot write there" in err


def test_cli_results_resume_a_fixed_length_match(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "fixed.jsonl"
    argv = ["tournament", "greedy", "random", "--rounds", "1", "--seed", "2", "--workers", "1", "--results", str(path),
            "--json", "-"]
    assert main([*argv, "--games", "4"]) == 0
    capsys.readouterr()
    assert main([*argv, "--games", "8"]) == 0
    data = json.loads(capsys.readouterr().out)
    whole = play_match("greedy", "random", games=8, seed=2, rounds=1)
    assert data["games"] == 8 and data["a_wins"] == whole.a_wins and data["points_per_round"]["mean"] == \
        whole.points_per_round.mean
    assert len(path.read_text().splitlines()) == 8


def test_json_to_stdout_is_the_json_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "tournament", "greedy", "random", "--games", "2", "--rounds", "1", "--workers", "1",
                         "--json", "-")
    assert code == 0 and json.loads(out)["games"] == 2
    assert "greedy vs random: 2 games" in err  # the text, on standard error
    # one duplicate pair: no interval to give, and the summary says so instead of a zero-width one
    assert "too few games for an interval" in err
    code, out, err = run(capsys, "tournament", "greedy", "random", "--games", "2", "--rounds", "1", "--workers", "1")
    assert code == 0 and "greedy vs random: 2 games" in out and err == ""
