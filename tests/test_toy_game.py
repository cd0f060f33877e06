"""A fourth game, defined only in the tests (tests/toy_game.py), runs through every floor by the interface.

Nothing outside tests/toy_game.py knows *Pairs*: it is registered for each test and taken out after.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_run import run
from diloti.ai import make_player
from diloti.ai.analysis import rank_moves
from diloti.core.interface import GameOptions, RoundRules, WholeGame
from diloti.core.perft import divide, perft
from diloti.formats.games import (
    describe_move,
    position_from_json,
    position_to_json,
    read_any_record,
    record_from_game,
)
from diloti.games import GAMES, GameInfo, find_game
from diloti.match.tournament import play_match
from toy_game import NAME, PairsGame, PairsOptions, PairsState, registered_pairs


@pytest.fixture
def pairs() -> Iterator[GameInfo]:
    with registered_pairs() as info:
        yield info
    assert NAME not in GAMES


def test_the_classes_meet_the_interface(pairs: GameInfo) -> None:
    state: RoundRules = PairsState.new(seed=1)  # mypy would refuse a class that does not meet the protocols
    game: WholeGame = PairsGame(seed=1)
    options: GameOptions = PairsOptions()
    assert find_game(NAME) is pairs and state.game == NAME and not game.is_over and options.to_text() == ""
    assert pairs.sides(2) == 2
    with pytest.raises(Exception, match="expected 2"):
        pairs.sides(3)


def test_perft(pairs: GameInfo) -> None:
    s = pairs.state.new(2, None, 0, seed=3)
    assert perft(s, 1) == len(s.legal_moves()) == 4  # one move a card: a pair is taken, else the card is laid
    counts = [perft(s, d) for d in range(5)]
    assert counts[:2] == [1, 4] and counts == sorted(counts)
    assert sum(n for _, n in divide(s, 3)) == counts[3]
    before = position_to_json(s)
    perft(s, 4)
    assert position_to_json(s) == before  # the walk leaves the position as it was


def test_a_whole_game_to_the_target(pairs: GameInfo) -> None:
    g = pairs.new_game(2, None, seed=5)
    plays = 0
    while not g.is_over:
        legal = g.state.legal_moves()
        g.play(str(legal[plays % len(legal)]))  # checked, from notation: the game scores and deals on
        plays += 1
    assert g.winner in (0, 1) and max(g.scores) >= 11
    assert len(g.rounds) >= 2 and plays == 48 * len(g.rounds)  # every card but the first table is played
    assert all(r.score is not None and sum(s.cards for s in r.score) == 52
               for r in g.rounds)  # every card is taken by someone


def test_positions_records_and_replay(pairs: GameInfo, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    g = pairs.new_game(2, PairsOptions(target=15), seed=8)
    while not g.is_over:
        g.push(g.state.legal_moves()[-1])
    rec = record_from_game(g, names=["ann", "bob"], date="2026.11.24")
    text = rec.dumps()
    assert '[Game "pairs"]' in text and '[Options "target=15"]' in text
    back = read_any_record(text)
    assert back.errors == [] and back.scores == tuple(g.scores) and back.result == rec.result != "*"
    st = back.start(0)
    st.push(st.legal_moves()[0])
    assert position_from_json(position_to_json(st)) == st
    assert json.loads(position_to_json(st))["game"] == NAME
    path = tmp_path / "pairs.txt"
    path.write_text(text)
    code, out, err = run(capsys, "replay", str(path), "--all")
    assert code == 0, err
    assert "ann" in out and "pairs" in out
    pos = tmp_path / "pos.json"
    pos.write_text(position_to_json(st))
    code, out, err = run(capsys, "moves", "--describe", str(pos))
    assert code == 0, err
    assert out.splitlines() == [f"{m!s:<28} {describe_move(st, m)}" for m in st.legal_moves()]
    code, out, _ = run(capsys, "perft", "3", "--position", str(pos))
    assert code == 0 and str(perft(st, 3)) in out


def test_a_bad_toy_record_is_refused_in_one_line(pairs: GameInfo) -> None:
    back = read_any_record('[Game "pairs"]\n[Players "3"]\n\nhand 1 dealer 0 seed 1\n')
    assert back.errors and "expected 2" in back.errors[0][1]


@pytest.mark.parametrize("level", ["random", "greedy", "heuristic", "expert:iterations=30,seconds=none",
                                   "master:iterations=30,seconds=none"])
def test_every_level_plays_it_from_its_view(pairs: GameInfo, level: str) -> None:
    g = pairs.new_game(2, None, seed=3)
    bots = [make_player(level, seed=s) for s in range(2)]
    while not g.is_over and g.round_no == 1:
        st = g.state
        move = bots[st.turn].choose(g.view(st.turn))
        assert st.is_legal(move)
        g.push(move)
    assert g.rounds[0].score is not None


def test_a_duplicate_match_and_the_analysis(pairs: GameInfo) -> None:
    result = play_match("heuristic", "random", games=2, seed=1, game=NAME, rounds=1)
    assert result.game == NAME and len(result.results) == 2 and result.rounds == 2
    s = pairs.state.new(2, None, 0, seed=4)
    ranked = rank_moves(s.view(s.turn), seed=1, iterations=40, seconds=None)
    assert sorted(str(m) for m, _ in ranked) == sorted(str(m) for m in s.legal_moves())


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_the_three_research_environments_and_their_checks(pairs: GameInfo) -> None:
    pytest.importorskip("pettingzoo", reason="the research extra is not installed")
    pyspiel = pytest.importorskip("pyspiel", reason="the research extra is not installed")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test

    from diloti.envs import pettingzoo_env
    from diloti.envs.gym_env import CardGameEnv
    from diloti.envs.openspiel_game import register_openspiel
    from toy_game import ENV

    env = pettingzoo_env.env(game=NAME)
    assert env.observation_space("player_0")["observation"].shape == (ENV.size,)
    api_test(env, num_cycles=100)
    seed_test(lambda: pettingzoo_env.env(game=NAME), num_cycles=50)
    check_env(CardGameEnv(game=NAME, opponent="heuristic"), skip_render_check=True)
    game = pyspiel.load_game(register_openspiel(NAME))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_the_command_line_offers_it_with_its_own_flags(pairs: GameInfo, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "{diloti,xeri,kontsina,pairs}" in out
    # Its flag comes from its options class: its help, and a switch (a flag no built-in game has).
    assert "--no-sweeps" in out and PairsOptions.help("no_sweeps") in " ".join(out.split())
    assert "pairs 11" in " ".join(out.split())  # its target's default beside the others' in --target's help
    code, _, err = run(capsys, "simulate", "1", "--game", NAME, "--soy")
    assert code == 2 and "--soy is not a pairs option (its options: target, no_sweeps)" in err
    code, _, err = run(capsys, "simulate", "1", "--game", NAME, "--players", "4")
    assert code == 2 and "argument --players: invalid choice: 4 (pairs is played by 2 players)" in err
    code, _, err = run(capsys, "simulate", "1", "--no-sweeps")
    assert code == 2 and "--no-sweeps is not a diloti option" in err
    code, _, err = run(capsys, "simulate", "1", "--game", NAME, "--target", "0")
    assert code == 2 and "expected a positive integer" in err


def test_simulate_plays_it(pairs: GameInfo, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "4", "--game", NAME, "--seed", "2", "--target", "5")
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == "4 pairs games, 2 players, seed 2, options: {'target': 5}"
    # Its round word, and its sweeps per hand (its rules count them: its round state's SWEEPS), under the
    # summary's word for them.
    assert lines[3].startswith("hands:           ") and lines[4].startswith("xeri per hand:   side 0 ")
    assert lines[5].startswith("legal moves:") and len(lines) == 6
    code, out, _ = run(capsys, "simulate", "3", "--game", NAME, "--seed", "2", "--no-sweeps", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["game"] == NAME and summary["options"] == {"no_sweeps": True}
    assert sum(summary["wins"]) == 3 and summary["games"] == 3


def test_play_plays_it_to_the_end(pairs: GameInfo, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import io
    import sys

    rec = tmp_path / "pairs.txt"
    typed = "help\nmoves\ntable\nhistory\nscore\nzz\n99\nhint 2\n" + "1\n" * 400
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code, out, err = run(capsys, "play", "--game", NAME, "--seed", "3", "--target", "7", "--level", "greedy",
                         "--record", str(rec))
    assert code == 0 and err == "", err
    assert out.startswith("pairs: 2 players, you are seat 0 (side 0 (you)), seed 3; type 'help' for help\n"
                          "options: {'target': 7}\nseat 1 (greedy1): ")  # seat 1 leads
    assert "\n--- hand 1, deal 1; dealer: seat 0 (you); score 0-0 (target 7)\ntable:           " in out
    assert PairsState.MOVE_HELP in out  # help: the frame's own words for a one-card game's moves
    assert "error: no move number 99" in out and "hint (best first" in out and "=== hand 1 over ===" in out
    last = out.rstrip().splitlines()[-2:]
    assert last[0].startswith("=== game over: side ") and last[1] == f"record saved to {rec}"
    back = read_any_record(rec.read_text(encoding="utf-8"))
    assert back.game == NAME and back.result != "*" and not back.errors
