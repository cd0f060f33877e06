"""The command line with --game: every command that takes a game, one-line errors for a bad game or flag."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from cli_run import run
from diloti.formats.games import load_any_record
from diloti.games.onecard.formats import HandsRecord

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("command", ["play", "perft", "replay", "simulate", "bench", "tournament", "analyse"])
def test_help_names_the_game_flag(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and ("--game" in out or command == "replay")


def test_the_game_flags_are_the_registrys(capsys: pytest.CaptureFixture[str]) -> None:
    """The flags built from the registry and the options classes read as the hand-written ones did."""
    code, out, _ = run(capsys, "simulate", "--help")
    text = " ".join(out.split())  # the words, whatever the terminal's width
    assert code == 0
    assert "rule options (RULES.md; all off by default):" in text
    assert "Xeri and Kontsina options (RULES-XERI.md, RULES-KONTSINA.md; with --game):" in text
    assert ("--game {diloti,xeri,kontsina} the game: diloti, or its parent games xeri and kontsina "
            "(default diloti)") in text
    assert ("--players {2,3,4} 2 or 4 players (default 2); Kontsina also 3, and 4 each alone unless "
            "--partnerships") in text
    assert "--target N points that win the game (default 61; xeri 101 with --game-by-points, kontsina 21)" in text
    assert "--hands N the hands in a game decided by hands won (default 10)" in text
    flags = [line.split()[0] for line in out.splitlines() if line.startswith("  --")]  # the options listed
    assert flags.index("--target") < flags.index("--face-card-redeal") < flags.index("--dealer-sees-bottom")
    assert flags.index("--xeri-jack-double") < flags.index("--hands") < flags.index("--partnerships")
    assert flags.count("--forced-capture") == 1  # a flag two games share is offered once


@pytest.mark.parametrize(("argv", "needle"), [
    (["simulate", "1", "--game", "chess"], "argument --game: invalid choice: 'chess'"),
    (["simulate", "1", "--game", "xeri", "--soy"], "--soy is not a xeri option"),
    (["simulate", "1", "--partnerships"], "--partnerships is not a diloti option"),
    (["bench", "--game", "xeri", "--players", "3"], "xeri is played by 2 or 4 players"),
    (["bench", "--game", "xeri", "--players", "4"], "4 players play in partnerships"),
    (["tournament", "random", "greedy", "--game", "kontsina", "--players", "3"], "a match is between two sides"),
    (["play", "--game", "kontsina", "--hands", "3"], "--hands is not a kontsina option"),
    (["analyse", "--game", "xeri", "--soy"], "--soy is not a xeri option"),
    (["analyse", "--gam", "xeri"], "unrecognized arguments: --gam"),  # no abbreviations: --gam is not --game
])
def test_bad_game_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and needle in err, err
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"diloti {argv[0]}: error:"), err


def test_perft_of_the_fixtures_and_of_a_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "3", "--json", str(FIXTURES / "perft-kontsina.jsonl"))
    assert code == 0 and out.splitlines()[0] == "76\tstart 2p seed 1"
    code, out, _ = run(capsys, "perft", "2", "--position", "deal:1", "--game", "xeri")
    assert code == 0 and out.strip() == "36\txeri deal 1"


def test_simulate_and_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "3", "--game", "kontsina", "--players", "3", "--seed", "2", "--json")
    d = json.loads(out)
    assert code == 0 and d["game"] == "kontsina" and d["games"] == 3 and len(d["wins"]) == 3
    code, out, _ = run(capsys, "simulate", "2", "--game", "xeri", "--seed", "2", "--hands", "2")
    assert code == 0 and "2 xeri games" in out and "xeri per hand" in out
    code, out, _ = run(capsys, "bench", "--game", "xeri", "--seconds", "0.05", "--repeat", "1", "--json")
    assert code == 0 and json.loads(out)["game"] == "xeri"


def test_tournament(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tournament", "random", "greedy", "--game", "xeri", "--games", "4", "--jobs", "1",
                       "--quiet", "--hands", "2")
    assert code == 0 and "4 xeri games" in out and "hands" in out


def test_play_and_replay_a_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                tmp_path: Path) -> None:
    rec = tmp_path / "x.txt"
    monkeypatch.setattr(sys, "stdin", io.StringIO("zz\n99\nhelp\nmoves\nhistory\nscore\ntable\n" + "1\n" * 400))
    code, out, _ = run(capsys, "play", "--game", "xeri", "--seed", "4", "--hands", "2", "--level", "greedy",
                       "--record", str(rec), "--quiet")
    assert code == 0 and "=== game over" in out and "error:" in out and "xeri" in out
    back = load_any_record(rec, strict=True)
    assert isinstance(back, HandsRecord) and back.game == "xeri" and back.result != "*"
    code, out, _ = run(capsys, "replay", str(rec), "--all")
    assert code == 0 and "=== hand 1" in out and f"result {back.result}" in out


def test_play_kontsina_with_three(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("7S x 9D\nhint 2\n" + "1\n" * 30 + "quit\n"))
    code, out, _ = run(capsys, "play", "--game", "kontsina", "--players", "3", "--seed", "1", "--target", "5")
    assert code == 0 and "kontsina: 3 players" in out and "error:" in out
    hint = out[out.index("hint (best first"):].splitlines()[1:3]
    assert [line.split()[0] for line in hint] == ["1.", "2."] and all("move" in line for line in hint)


def test_analyse_ranks_every_move_of_a_parent_game(capsys: pytest.CaptureFixture[str]) -> None:
    from diloti.games.diloti.state import State

    for game, players in (("xeri", 2), ("kontsina", 3)):
        code, out, _ = run(capsys, "analyse", "--game", game, "--players", str(players), "--seed", "4",
                           "--iterations", "60", "--json")
        assert code == 0
        got = json.loads(out)
        state = State.new(players, None, 0, seed=4, game=game)
        assert sorted(m["move"] for m in got["moves"]) == sorted(str(m) for m in state.legal_moves())
        values = [m["estimate"] for m in got["moves"]]
        assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("game", ["xeri", "kontsina"])
def test_moves_and_analyse_read_a_parent_games_position(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                        game: str) -> None:
    """``diloti moves`` and ``diloti analyse`` read every game's JSON position, as ``perft`` does."""
    from diloti.formats.games import describe_move, position_to_json
    from diloti.games import find_game

    state = find_game(game).state.new(2, None, 0, seed=7)
    path = tmp_path / "position.json"
    path.write_text(position_to_json(state))
    code, out, err = run(capsys, "moves", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines() == [str(m) for m in state.legal_moves()]
    code, out, _ = run(capsys, "moves", "--describe", str(path))
    assert code == 0 and out.splitlines() == [f"{m!s:<28} {describe_move(state, m)}" for m in state.legal_moves()]
    code, out, _ = run(capsys, "analyse", str(path), "--iterations", "40", "--json")
    assert code == 0
    assert sorted(m["move"] for m in json.loads(out)["moves"]) == sorted(str(m) for m in state.legal_moves())
