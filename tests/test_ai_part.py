"""The players' contract with a game (diloti.ai.part): every built-in game's players part meets it, and a game
registered here, with its players part in this very module, gets every level, the analysis, the hints and
matches, with no change to the players or the matches."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from diloti.ai import LEVELS, MEASUREMENT_LEVELS, level_plays, make_player
from diloti.ai.analysis import AnalysisError, rank_moves, win_chances
from diloti.ai.base import player_move
from diloti.ai.games import game_players, players_part
from diloti.ai.part import PlayersPart
from diloti.core.errors import UnknownGameError
from diloti.core.registry import GameInfo, built_in, registered
from diloti.games.kontsina.rules import KontsinaOptions
from diloti.match.tournament import play_game, play_match
from diloti.match.workers import choose_move, rank_hint
from toy_players import ToyGame, ToyState

CONTRACT = [name for name in PlayersPart.__dict__ if not name.startswith("_")]


@pytest.mark.parametrize("game", built_in())
def test_every_built_in_game_has_the_whole_players_part(game: str) -> None:
    part = game_players(game)
    assert {"greedy_scores", "heuristic_scores", "rollouts", "worlds", "rank_moves", "endless"} <= set(CONTRACT)
    missing = [name for name in CONTRACT if not callable(getattr(part, name, None))]
    assert not missing, f"{game}'s players part lacks {missing}"


# ---------------------------------------------------------------- a fourth game, in tests/toy_players.py
@pytest.fixture
def toy() -> Iterator[GameInfo]:
    info = GameInfo("toy", ToyState, ToyGame, KontsinaOptions, (2, 3, 4), "tests/test_ai_part.py", "hand",
                    {"players": "toy_players"})
    with registered(info):
        yield info


def test_a_registered_game_gets_every_level(toy: GameInfo) -> None:
    s = toy.new_state(2, seed=4)
    from toy_players import PART

    assert players_part(s.view(0)) is PART
    # Every level but one that says it does not play this game (the learned level: the games it was trained for).
    bots = {name: make_player(name if name in ("random", "greedy", "heuristic") else f"{name}:iterations=20,"
                              "seconds=none", seed=1, measurement=True) for name in MEASUREMENT_LEVELS
            if level_plays(name, toy.name, 2)}
    assert set(LEVELS) - set(bots) <= {"learned"} and "heuristic" in bots
    while not s.is_over:
        for name, bot in bots.items():
            move = player_move(bot, s)
            assert s.is_legal(move), name
        s.push(bots["heuristic"].choose(s.view(s.turn)))


def test_a_registered_game_is_analysed_and_hinted(toy: GameInfo) -> None:
    s = toy.new_state(3, seed=2)
    view = s.view(s.turn)
    ranked = rank_moves(view, seed=1, iterations=30, seconds=None)
    assert sorted(m for m, _ in ranked) == sorted(s.legal_moves())
    assert [v for _, v in ranked] == sorted((v for _, v in ranked), reverse=True)
    assert win_chances(view, ranked) is None  # the toy has no model of a game's chances
    hint = rank_hint(view, seed=5, ply=0)
    assert [m for m, _, _ in hint] and all(w is None for _, _, w in hint)
    assert choose_move("greedy", 3, view) in s.legal_moves()
    with pytest.raises(AnalysisError):
        rank_moves(s.view((s.turn + 1) % 3), seed=1, iterations=30, seconds=None)


def test_a_registered_game_plays_matches(toy: GameInfo) -> None:
    r = play_match("random", "greedy", games=2, seed=3, game="toy", target=5)
    assert r.games == 2 and r.game == "toy" and "toy games" in r.summary() and "hands)" in r.summary()
    g = play_game("heuristic", "expert:iterations=10,seconds=none", 1, seed=3, game_name="toy", rounds=1)
    assert g.rounds == 1


def test_an_unregistered_game_is_refused_by_name() -> None:
    s = ToyState.new(seed=1)
    with pytest.raises(UnknownGameError, match="unknown game 'toy'"):
        make_player("greedy", 1).choose(s.view(s.turn))
