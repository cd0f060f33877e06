"""The command line: --help everywhere, normal runs, bad arguments, play driven by piped input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run
from diloti.games.diloti.formats.position import format_position, position_to_json
from diloti.games.diloti.formats.record import GameRecord, load_record
from diloti.games.diloti.state import State

FIXTURES = Path(__file__).parent / "fixtures"
MINE = ["play", "moves", "perft", "replay", "simulate", "bench"]


@pytest.mark.parametrize("command", MINE)
def test_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and f"usage: diloti {command}" in out


def test_option_flags_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "simulate", "bench"):
        _, out, _ = run(capsys, command, "--help")
        for flag in ("--target", "--face-card-redeal", "--forced-capture", "--liberal-groups", "--soy",
                     "--self-raise", "--no-xeri-last-card", "--xeri-first-card", "--dealer-sees-bottom",
                     "--three-faces-stay", "--any-rank-redeal", "--liberal-raise", "--liberal-capture"):
            assert flag in out, (command, flag)


def test_option_help_is_written_once() -> None:
    """Each rule flag's help is Options.help(name): the CLI keeps no text of its own."""
    import argparse

    import diloti.cli.common as common
    from diloti.games.diloti.options import Options

    assert not hasattr(common, "_BOOL_HELP")
    parser = argparse.ArgumentParser()
    common.add_option_flags(parser)
    helps = {a.dest: a.help for a in parser._actions}
    for name in Options.names():
        assert str(helps[name]).startswith(Options.help(name)), name
        assert Options.help(name) in str(Options.__doc__), name


@pytest.mark.parametrize("argv, needle", [
    (["perft", "x", "--json", "-"], "argument DEPTH"),
    (["perft", "2"], "one of the arguments --json --position is required"),
    (["simulate", "0"], "expected a positive integer"),
    (["bench", "--seconds", "-1"], "expected a positive number"),
    (["bench", "--players", "3"], "invalid choice"),
    (["bench", "--warmup", "-2"], "expected a number of 0 or more, got '-2'"),
    (["bench", "--warmup", "nan"], "expected a number of 0 or more, got 'nan'"),
    (["play", "--face-card-redeal", "always"], "invalid choice"),
    (["play", "--target", "0"], "expected a positive integer"),
    (["replay"], "the following arguments are required"),
    (["serve", "--port", "x"], "argument --port: invalid int value: 'x'"),
    (["serve", "--workers", "0"], "argument --workers: invalid worker pool '0': expected at least 1 worker process"),
    (["serve", "--bot-delay", "-1"], "argument --bot-delay: expected a number of 0 or more, got '-1'"),
    (["serve", "--metrics-allow-ips", "10.0.0.0/8,nonsense"],
     "argument --metrics-allow-ips: invalid address or network 'nonsense'"),
    (["serve", "--limit-concurrency", "0"], "argument --limit-concurrency: expected a positive integer"),
    (["serve", "--header-timeout", "0"], "argument --header-timeout: expected a positive number"),
])
def test_bad_arguments(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and needle in err
    assert len(err.strip().splitlines()) == 1 and err.startswith(f"diloti {argv[0]}: error:"), err
    assert f"(see 'diloti {argv[0]} --help')" in err


@pytest.mark.parametrize("argv, needle", [
    (["moves", "not a position"], "invalid position 'not a position': missing fields"),
    (["moves", '{"players": 5}'], "field 'players'"),
    (["perft", "1", "--json", "/nonexistent/file"], "positions file '/nonexistent/file': no such file"),
    (["perft", "1", "--json", "/"], "positions file '/': is a folder"),
    (["moves", "/nonexistent/pos.json"], "position file '/nonexistent/pos.json': no such file"),
    (["analyse", "/nonexistent/pos.json"], "position file '/nonexistent/pos.json': no such file"),
    (["analyse", "--dealer", "7"], "invalid --dealer 7: expected a seat 0..1 with 2 players"),
    (["analyse", "--dealer", "2", "--players", "2"], "invalid --dealer 2"),
    (["play", "--record", "/nonexistent/folder/game.txt"], "--record '/nonexistent/folder/game.txt': no such folder"),
    (["play", "--record", "/nonexistent/folder/"], "--record '/nonexistent/folder/': no such folder"),
    (["replay", "/nonexistent/record"], "'/nonexistent/record': No such file"),
    (["tournament", "random", "greedy", "--games", "2", "--json", "/nonexistent/out.json"],
     "--json '/nonexistent/out.json': cannot write there"),
    (["tournament", "random", "greedy", "--games", "2", "--plot", "/"], "--plot '/': cannot write there"),
    (["replay", str(FIXTURES / "sample_record.txt"), "--round", "9", "--all"], "invalid --round 9"),
    (["play", "--seat", "5"], "invalid --seat 5"),
    (["play", "--level", "grandmaster"], "unknown level 'grandmaster'"),
    (["play", "--name", " "], "invalid --name ' ': expected a name"),
    (["replay", "/dev/null"], "record '/dev/null': no round in it"),
])
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err, err


def test_perft_counts_fixture_positions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cases = [json.loads(line) for line in (FIXTURES / "perft.jsonl").read_text().splitlines()][:4]
    path = tmp_path / "positions.jsonl"
    path.write_text("\n".join(json.dumps(c["position"]) for c in cases) + "\n\n")
    code, out, _ = run(capsys, "perft", "2", "--json", str(path))
    assert code == 0 and out.split() == [str(c["perft"][1]) for c in cases]
    code, out, _ = run(capsys, "perft", "0", "--json", str(path))
    assert out.split() == ["1"] * len(cases)


def test_perft_stdin_compact_divide_and_bad_line(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    s = State.new(2, seed=5)
    monkeypatch.setattr(sys, "stdin", io.StringIO(format_position(s) + "\n" + position_to_json(s) + "\n"))
    code, out, _ = run(capsys, "perft", "1", "--json", "-")
    assert out.split() == [str(len(s.legal_moves()))] * 2
    code, out, _ = run(capsys, "perft", "2", "--position", format_position(s), "--divide")
    rows = out.strip().splitlines()
    assert rows[-1].startswith("total: ") and len(rows) == len(s.legal_moves()) + 1
    assert sum(int(r.rsplit(":", 1)[1]) for r in rows[:-1]) == int(rows[-1].split()[1])
    monkeypatch.setattr(sys, "stdin", io.StringIO(format_position(s) + "\n\n{\"players\": 2}\n"))
    code, out, err = run(capsys, "perft", "1", "--json", "-")
    assert code == 2 and "<stdin>:3: invalid position" in err and out == ""


def test_moves(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    s = State.new(2, seed=45)
    code, out, _ = run(capsys, "moves", format_position(s))
    assert code == 0 and out.split("\n")[:-1] == [str(m) for m in s.legal_moves()]
    code, out, _ = run(capsys, "moves", position_to_json(s), "--describe")
    assert "9C x 4S 5S" in out and "9C takes 4S+5S" in out
    monkeypatch.setattr(sys, "stdin", io.StringIO(position_to_json(s)))
    code, out, _ = run(capsys, "moves", "-", "--json")
    assert json.loads(out) == [str(m) for m in s.legal_moves()]


def test_moves_of_a_large_table_stream_with_a_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # Laid to 30 loose cards: hundreds of thousands of moves, listed one at a time; --limit stops them.
    from diloti.core.moves import LAY, Move
    from diloti.games.diloti.game import Game

    g = Game(seed=27)
    while len(g.state.table) < 30:
        moves, _ = g.state.candidate_moves()
        g.push(next((m for m in moves if m.kind == LAY), moves[0]))
    s = g.state
    code, out, _ = run(capsys, "moves", position_to_json(s), "--limit", "7")
    lines = out.split("\n")[:-1]
    assert code == 0 and len(lines) == 7 and all(s.is_legal(Move.parse(t)) for t in lines)
    code, out, _ = run(capsys, "moves", position_to_json(s), "--json", "--limit", "3")
    assert code == 0 and len(json.loads(out)) == 3
    code, _, err = run(capsys, "moves", position_to_json(s), "--limit", "0")
    assert code == 2 and "--limit" in err


def test_moves_reads_a_position_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    s = State.new(2, seed=45)
    expected = [str(m) for m in s.legal_moves()]
    for name, text in (("pos.json", position_to_json(s)), ("pos.txt", format_position(s) + "\n")):
        (tmp_path / name).write_text(text)
        code, out, err = run(capsys, "moves", str(tmp_path / name))
        assert code == 0 and out.split("\n")[:-1] == expected and err == "", name
    (tmp_path / "bad.json").write_text('{"players": 5}')
    code, _, err = run(capsys, "moves", str(tmp_path / "bad.json"))
    assert code == 2 and f"position file {str(tmp_path / 'bad.json')!r}: invalid position: field 'players'" in err


def test_the_compact_example_of_notation_md_pastes_as_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    """The command in docs/NOTATION.md runs as printed and lists the moves the page shows after it."""
    import shlex

    doc = (Path(__file__).resolve().parents[1] / "docs" / "NOTATION.md").read_text()
    blocks = doc.split("```")[1::2]  # the contents of the fenced blocks, in order
    i = next(k for k, b in enumerate(blocks) if b.strip().startswith("diloti moves "))
    argv = shlex.split(blocks[i].strip())
    code, out, err = run(capsys, *argv[1:])
    assert code == 0 and err == "" and out.strip() == blocks[i + 1].strip()


def test_perft_reads_the_fixture_file_as_it_is(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """tests/fixtures/perft.jsonl lines (name, position, perft) are counted and checked against their perft."""
    cases = [json.loads(line) for line in (FIXTURES / "perft.jsonl").read_text().splitlines()]
    code, out, err = run(capsys, "perft", "1", "--json", str(FIXTURES / "perft.jsonl"))
    assert code == 0 and err == ""
    assert out.splitlines() == [f"{c['perft'][0]}\t{c['name']}" for c in cases]
    wrong = dict(cases[0], perft=[cases[0]["perft"][0] + 1])
    path = tmp_path / "wrong.jsonl"
    path.write_text(json.dumps(wrong) + "\n")
    code, out, err = run(capsys, "perft", "1", "--json", str(path))
    assert code == 1 and out.split("\t")[0] == str(cases[0]["perft"][0])
    assert f"expected {cases[0]['perft'][0] + 1} at depth 1" in err


def test_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    sample = str(FIXTURES / "sample_record.txt")
    code, out, err = run(capsys, "replay", sample, "--all")
    assert code == 0 and err == ""
    assert "=== round 2" in out and "result 1-0, score 18-4" in out and "5C laid" in out
    code, out, _ = run(capsys, "replay", sample, "--round", "2", "--all", "--positions")
    assert "=== round 1" not in out and "table " in out and "total 10-1" in out
    bad = next(FIXTURES.glob("bad_record_illegal_line*.txt"))
    code, out, err = run(capsys, "replay", str(bad), "--all")
    assert code == 1 and f"{bad}:18: round 1: illegal move '8D x 5C'" in err and "=== round 2" in out
    # A resigned game says so after its result.
    resigned = Path(sample).read_text().replace('[Result "1-0"]', '[Termination "seat 1 resigned"]\n[Result "1-0"]')
    path = tmp_path / "resigned.txt"
    path.write_text(resigned)
    code, out, _ = run(capsys, "replay", str(path), "--all")
    assert "result 1-0, score 18-4 (seat 1 resigned)" in out, out[-300:]


def test_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "2", "--seed", "3", "--target", "25", "--json")
    d = json.loads(out)
    assert code == 0 and d["games"] == 2 and sum(d["wins"]) == 2 and d["options"] == {"target": 25}
    assert d["legal_moves_per_turn"] > 1 and err == ""
    code, out2, _ = run(capsys, "simulate", "2", "--seed", "3", "--target", "25", "--json")
    assert out2 == out  # seeded: the same games
    code, out, err = run(capsys, "simulate", "1", "--seed", "1", "--target", "15", "--players", "4", "--progress")
    assert "xeri per round" in out and "games: 100%" in err and "1/1" in err  # tqdm's bar


def test_progress_without_tqdm_is_one_final_line(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    assert importlib.util.find_spec("diloti.match.progress") is None  # the hand-written bar is gone
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm raises ImportError
    code, out, err = run(capsys, "simulate", "2", "--seed", "1", "--target", "15", "--progress")
    assert code == 0 and "xeri per round" in out
    assert err.startswith("games: 2/2 in ") and err.count("\n") == 1


def test_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--seconds", "0.05", "--repeat", "1", "--json", "--seed", "1",
                       "--warmup", "0.05")
    d = json.loads(out)
    assert code == 0 and d["actions_per_second"] > 0 and d["warmup"] == 0.05
    code, out, _ = run(capsys, "bench", "--seconds", "0.05", "--repeat", "3", "--players", "4", "--soy")
    assert "actions per second (median of 3 runs" in out


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str,
         *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return run(capsys, "play", *argv)


def test_play_a_round_with_a_bad_move_in_between(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rec = tmp_path / "game.txt"
    text = "9Z\n99\nhelp\nmoves\nhistory\nscore\ntable\nhint\n" + "1\n" * 30
    code, out, _ = play(capsys, monkeypatch, text, "--seed", "4", "--record", str(rec))
    assert code == 0
    assert "error: invalid move '9Z'" in out and "error: no move number 99" in out
    assert "Commands: moves" in out and "score sheet" in out
    assert "hint (the expert; best first" in out or "hint: not available" in out  # the analysis may not be installed
    assert "=== round 1 over ===" in out and "aces  10D  2C  xeri  total" in out
    assert f"record saved to {rec}" in out
    back = load_record(rec, strict=True)
    assert back.rounds[0].score is not None and len(back.rounds[0].moves) == 48
    assert back.result == "*" and back.names == ["you", "heuristic1"]


def test_play_four_players_to_the_end(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                      tmp_path: Path) -> None:
    rec = tmp_path / "g4.txt"
    code, out, _ = play(capsys, monkeypatch, "1\n" * 400, "--players", "4", "--seat", "2", "--seed", "9",
                        "--target", "12", "--record", str(rec), "--quiet", "--forced-capture")
    assert code == 0 and "=== game over:" in out and "options: {'target': 12, 'forced_capture': True}" in out
    back = load_record(rec, strict=True)
    assert back.result in ("1-0", "0-1") and back.options.forced_capture and back.players == 4


def test_play_quit_and_interrupt_save_the_record(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    rec = tmp_path / "q.txt"
    code, out, _ = play(capsys, monkeypatch, "1\nquit\n", "--seed", "2", "--record", str(rec))
    assert code == 0 and "record saved" in out and load_record(rec, strict=True).result == "*"

    class Interrupting(io.StringIO):
        # typeshed: StringIO inherits _IOBase's readline, said to give bytes (typeshed ignores the clash itself)
        def readline(self, *args: object) -> str:  # type: ignore[override]
            raise KeyboardInterrupt

    rec2 = tmp_path / "i.txt"
    monkeypatch.setattr(sys, "stdin", Interrupting())
    code, out, _ = run(capsys, "play", "--seed", "2", "--record", str(rec2))
    assert code == 130 and "interrupted" in out and rec2.exists()


def test_play_record_into_a_folder_and_a_lost_record(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out, _ = play(capsys, monkeypatch, "1\nquit\n", "--seed", "2", "--record", str(tmp_path))
    saved = list(tmp_path.glob("diloti-*-seed2.txt"))
    assert code == 0 and len(saved) == 1 and f"record saved to {saved[0]}" in out
    assert load_record(saved[0], strict=True).seed == 2
    # a missing folder is refused before the game: nothing is played
    code, out, err = play(capsys, monkeypatch, "1\n" * 30, "--seed", "2", "--record", str(tmp_path / "no" / "g.txt"))
    assert code == 2 and out == "" and "no such folder" in err and len(err.splitlines()) == 1
    # a record that cannot be written at the end is not lost: status 1, the record on stderr

    def fail(self: object, path: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(GameRecord, "save", fail)
    code, out, err = play(capsys, monkeypatch, "1\nquit\n", "--seed", "2", "--record", str(tmp_path / "g.txt"))
    assert code == 1 and "could not save the record" in err and '[Seed "2"]' in err and "record saved" not in out


def test_play_through_a_real_pipe(tmp_path: Path) -> None:
    rec = tmp_path / "pipe.txt"
    proc = subprocess.run([sys.executable, "-m", "diloti", "play", "--seed", "6", "--record", str(rec),
                           "--level", "greedy"],
                          input="5X x\n" + "1\n" * 30, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "error: invalid move '5X x'" in proc.stdout and "round 1 over" in proc.stdout
    assert "Traceback" not in proc.stderr
    assert load_record(rec, strict=True).rounds[0].score is not None


def test_play_saves_the_record_when_a_computer_player_fails(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    from diloti.cli import session as play_module
    from diloti.core.moves import Move

    class Broken:
        name = "broken"

        def choose(self, view: object) -> Move:
            return Move.parse("KS x QS QH")

    monkeypatch.setattr(play_module, "make_computer", lambda spec, seed: Broken())
    rec = tmp_path / "b.txt"
    code, out, err = play(capsys, monkeypatch, "1\n" * 5, "--seed", "3", "--record", str(rec))
    assert code == 2 and "illegal move 'KS x QH QS'" in err and len(err.strip().splitlines()) == 1
    assert "record saved" in out and rec.exists()


def test_replay_steps_on_enter(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("\n\nq\n"))
    code, out, _ = run(capsys, "replay", str(FIXTURES / "sample_record.txt"))
    assert code == 0 and "  3. s1" in out and "  4. s0" not in out  # stopped after the third move
    monkeypatch.setattr(sys, "stdin", Terminal(""))  # end of input stops too
    code, out, _ = run(capsys, "replay", str(FIXTURES / "sample_record.txt"))
    assert code == 0 and "  2. s0" not in out


def test_play_against_an_outside_player_by_import_path(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`--level package.module:Name[:settings]` plays the user's own player (tests/outside_bot.py) in the terminal."""
    code, out, err = play(capsys, monkeypatch, "1\n" * 30, "--seed", "4", "--level", "outside_bot:LastMove:bias=1",
                          "--quiet")
    assert code == 0 and err == "" and "=== round 1 over ===" in out and "outside_bot1" in out
    code, out, err = play(capsys, monkeypatch, "1\n" * 30, "--game", "xeri", "--seed", "4", "--level",
                          "outside_bot:LastMove", "--quiet")
    assert code == 0 and "Traceback" not in err
    for spec, why in [("outside_bot:Nope", "outside_bot has no callable 'Nope'"),
                      ("no_such_module:Bot", "cannot import 'no_such_module'")]:
        code, out, err = play(capsys, monkeypatch, "1\n", "--level", spec)
        assert code == 2 and why in err and "settings are KEY=VALUE" not in err and err.count("\n") == 1


def test_outside_players_are_refused_where_nothing_may_be_imported() -> None:
    from diloti.ai import UnknownLevelError, make_player

    with pytest.raises(UnknownLevelError, match=r"plays only in matches \(diloti tournament\) and terminal games"):
        make_player("outside_bot:LastMove", 1)  # as a browser table builds its players
