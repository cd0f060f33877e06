"""Tournaments: duplicate deals, statistics, reproducibility, and the CLI (tiny runs only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diloti.cli import main
from diloti.core.seeds import derive_seed
from diloti.games.diloti.formats.position import format_position
from diloti.games.diloti.game import Game
from diloti.games.diloti.state import State
from diloti.match.tournament import Interval, TournamentError, play_game, play_match

FAST_EXPERT = "expert:iterations=8,seconds=none"


def test_duplicate_pairs_deal_the_same_cards_with_seats_swapped() -> None:
    a = play_game("greedy", "random", 0, seed=3, options=None, rounds=1)
    b = play_game("greedy", "random", 1, seed=3, options=None, rounds=1)
    assert (a.a_side, b.a_side) == (0, 1)
    assert a.game_seed == b.game_seed == derive_seed("game", 3, 0)
    c = play_game("greedy", "random", 2, seed=3, options=None, rounds=1)
    assert c.game_seed != a.game_seed
    # the same game seed deals the same cards to the same seats: only the players swap
    assert Game(2, seed=a.game_seed).state.hands == Game(2, seed=b.game_seed).state.hands
    assert a.rounds == b.rounds == 1


def test_match_is_reproducible_and_counts_add_up() -> None:
    r1 = play_match("greedy", "heuristic", games=4, seed=5, target=21)
    r2 = play_match("greedy", "heuristic", games=4, seed=5, target=21)
    assert [(g.a_points, g.b_points, g.winner) for g in r1.results] == \
           [(g.a_points, g.b_points, g.winner) for g in r2.results]
    assert r1.a_wins + r1.b_wins + r1.draws == r1.games == 4
    assert r1.win_rate.low <= r1.win_rate.mean <= r1.win_rate.high
    assert r1.rounds == sum(g.rounds for g in r1.results)


def test_chunks_are_the_same_games_as_one_run() -> None:
    whole = play_match("random", "greedy", games=4, seed=9, rounds=1)
    part = play_match("random", "greedy", games=2, seed=9, rounds=1, first=2)
    assert [g.a_points for g in whole.results[2:]] == [g.a_points for g in part.results]


def test_four_players_and_fixed_rounds() -> None:
    r = play_match("heuristic", "random", games=2, seed=1, players=4, rounds=1)
    assert r.rounds == 2 and r.players == 4
    assert r.points_per_round.mean > 0  # heuristic partners beat random partners on these deals


def test_oracle_and_expert_play_whole_games() -> None:
    r = play_match(FAST_EXPERT, "oracle:iterations=8,seconds=none", games=2, seed=2, rounds=1)
    assert r.games == 2


def test_interval() -> None:
    i = Interval.of([0.0, 1.0, 0.0, 1.0])
    assert i.mean == 0.5 and i.low < 0.5 < i.high
    assert Interval.of([]).mean == 0.0


def test_win_rate_interval_never_collapses() -> None:
    """One side winning every game still gets a Wilson interval of real width (the normal one had none)."""
    from diloti.games.diloti.options import Options
    from diloti.match.tournament import GameResult, summarise

    games = [GameResult(i, i % 2, 61, 10, 4, "a", 0.1, 100) for i in range(40)]
    r = summarise("expert", "random", games, 2, Options(), 0, None, 1.0)
    assert r.win_rate.mean == r.win_rate.high == 1.0 and 0.9 < r.win_rate.low < 0.95  # 40 games: 91.2%
    assert "100.0% (95% CI 91.2% .. 100.0%)" in r.summary()
    assert Interval.wilson([[0.0, 0.0]] * 1000).high > 0.0
    # split pairs (each player wins one game of each pair): no spread, still an interval of width
    split = Interval.wilson([[1.0, 0.0]] * 50)
    assert split.mean == 0.5 and split.low < 0.45 and split.high > 0.55
    # pairs always alike count as one game each: wider than independent games
    alike = Interval.wilson([[1.0, 1.0]] * 30 + [[0.0, 0.0]] * 30)
    mixed = Interval.wilson([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0], [0.0, 1.0]] * 15)
    assert alike.mean == mixed.mean == 0.5 and alike.high - alike.low > mixed.high - mixed.low


def test_plot_without_matplotlib_fails_before_any_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    import diloti.cli.tournament as cli_tournament

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    monkeypatch.setattr(cli_tournament, "play_match", no_games)
    png = tmp_path / "ladder.png"
    assert main(["tournament", "random", "greedy", "--games", "2", "--plot", str(png)]) == 2
    err = capsys.readouterr().err
    assert f"--plot {str(png)!r}" in err and "matplotlib" in err and err.count("\n") == 1


def test_bad_settings() -> None:
    with pytest.raises(TournamentError):
        play_match("random", "greedy", games=0)
    with pytest.raises(TournamentError):
        play_match("random", "greedy", players=3)
    with pytest.raises(ValueError, match="unknown level"):
        play_match("random", "grandmaster", games=2)


def test_cli_tournament_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    png = tmp_path / "ladder.png"
    code = main(["tournament", "random", "greedy", "heuristic", "--games", "2", "--rounds", "1", "--jobs", "1",
                 "--seed", "4", "--quiet", "--json", str(out), "--plot", str(png)])
    assert code == 0
    data = json.loads(out.read_text())
    assert [(d["a"], d["b"]) for d in data] == [("random", "greedy"), ("random", "heuristic"),
                                                ("greedy", "heuristic")]
    assert {"win_rate", "points_per_round", "games", "rounds"} <= set(data[0])
    assert png.stat().st_size > 1000
    assert "game win rate" in capsys.readouterr().out


def test_cli_tournament_in_parallel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "random", "greedy", "--games", "2", "--rounds", "1", "--jobs", "2", "--quiet",
                 "--json", "-"]) == 0
    text = capsys.readouterr().out
    assert json.loads(text[text.index("{"):])["games"] == 2


@pytest.mark.parametrize("argv, message", [
    (["tournament", "random", "nobody"], "unknown level 'nobody'"),
    (["tournament", "random"], "at least two"),
    (["tournament", "random", "expert:iterations=x"], "invalid setting value"),
    (["analyse", "no such position"], "POSITION"),
])
def test_cli_errors_are_one_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_cli_analyse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--seed", "3", "--iterations", "30"]) == 0
    out = capsys.readouterr().out
    assert "1. " in out and "expected round points difference" in out
    s = State.new(seed=8)
    assert main(["analyse", format_position(s), "--iterations", "30", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sorted(m["move"] for m in data["moves"]) == sorted(str(m) for m in s.legal_moves())


def test_outside_players_by_import_path() -> None:
    from diloti.ai import FullStatePlayer, UnknownLevelError, make_player

    r = play_match("outside_bot:LastMove:bias=1", "greedy", games=2, seed=3, rounds=1)
    assert r.games == 2 and r.a == "outside_bot:LastMove:bias=1"
    bot = make_player("outside_bot:LastMove", 1, measurement=True)
    assert not isinstance(bot, FullStatePlayer)  # only its seat's view ever reaches it
    for spec, why in [("outside_bot:Nope", "has no callable 'Nope'"), ("no_such_mod.x:Bot", "cannot import"),
                      ("outside_bot:LastMove:depth=2", "unexpected keyword"),
                      ("outside_bot::bias=1", "package.module:Name")]:
        with pytest.raises(UnknownLevelError, match=why):
            make_player(spec, 1, measurement=True)
    with pytest.raises(UnknownLevelError, match="outside_bot"):
        make_player("outside_bot:LastMove", 1)  # never from a browser table: nothing is imported
