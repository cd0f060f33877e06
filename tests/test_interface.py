"""diloti.core.interface: every built-in game's classes meet the one interface.

The assignments below are what is checked: the tests are type-checked (scripts/test's mypy step), so a game
class that stops meeting :class:`RoundRules`, :class:`WholeGame`, :class:`GameOptions` or
:class:`SeatViewLike` fails there; the asserts check the same members at run time."""

from __future__ import annotations

from diloti.core.interface import GameOptions, RoundRules, SeatViewLike, WholeGame
from diloti.games import GAMES
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions, KontsinaState
from diloti.games.xeri.rules import XeriGame, XeriOptions, XeriState


def test_the_built_in_games_meet_the_interface() -> None:
    games: list[WholeGame] = [Game(seed=1), XeriGame(seed=1), KontsinaGame(seed=1)]
    states: list[RoundRules] = [State.new(seed=1), XeriState.new(seed=1), KontsinaState.new(seed=1)]
    options: list[GameOptions] = [Options(), XeriOptions(), KontsinaOptions()]
    assert [g.state.game for g in games] == [s.game for s in states] == ["diloti", "xeri", "kontsina"]
    assert sorted(GAMES) == ["diloti", "kontsina", "xeri"]
    for game, opts in zip(games, options, strict=True):
        view: SeatViewLike = game.view(0)
        assert view.seat == 0 and game.state.turn in range(game.players) and len(game.rounds) == 1
        assert type(opts).from_dict(opts.to_dict()) == opts
        move = game.state.legal_moves()[0]
        game.push(move)
        assert game.state.history[-1][1] == move
