"""The environments' games by name: each game's spaces, and errors that name the input and the known choices."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the research extra (pip install 'diloti[research]') is not installed")

from diloti.envs.driver import EnvArgumentError
from diloti.envs.games import env_games, find_env_game
from diloti.games.diloti.options import Options
from diloti.games.kontsina.rules import KontsinaOptions
from diloti.games.xeri.rules import XeriOptions


def test_each_game_its_spaces() -> None:
    assert {g: (e.players, e.num_actions, e.size, e.max_points) for g, e in env_games().items()} == {
        "diloti": ((2, 4), 559, 744, 251), "xeri": ((2, 4), 52, 404, 285), "kontsina": ((2, 3, 4), 156, 517, 5)}


def test_unknown_game_names_the_input_and_the_games() -> None:
    for bad in ("pishti", "Xeri", 3, None):
        with pytest.raises(EnvArgumentError, match=f"invalid game={bad!r}: expected one of diloti, xeri, kontsina"):
            find_env_game(bad)


@pytest.mark.parametrize(("game", "players", "expected"), [
    ("xeri", 3, "invalid players=3 for game='xeri': expected 2 or 4"),
    ("kontsina", 5, "invalid players=5 for game='kontsina': expected 2, 3 or 4"),
    ("kontsina", True, "invalid players=True for game='kontsina'"),
    ("diloti", 3, "invalid players=3: expected 2 or 4"),
])
def test_wrong_players_name_the_game_and_the_counts(game: str, players: object, expected: str) -> None:
    with pytest.raises(EnvArgumentError, match=expected.replace("(", r"\(")):
        find_env_game(game).check_players(players)


def test_options_by_name_with_errors_naming_the_option_and_the_known_ones() -> None:
    xeri, kontsina = find_env_game("xeri"), find_env_game("kontsina")
    assert xeri.check_options({"xeri_jack_double": True}, 2) == XeriOptions(xeri_jack_double=True)
    assert xeri.check_options("hands=6", 2) == XeriOptions(hands=6)
    assert xeri.check_options(None, 4) == XeriOptions(partnerships=True)  # four play Xeri in partnerships
    assert kontsina.check_options(KontsinaOptions(target=31), 3) == KontsinaOptions(target=31)
    assert find_env_game("diloti").check_options({"soy": True}, 2) == Options(soy=True)
    with pytest.raises(EnvArgumentError, match=r"unknown xeri option 'soy' \(known: xeri_jack_double, "):
        xeri.check_options({"soy": True}, 2)
    with pytest.raises(EnvArgumentError, match=r"unknown kontsina option 'xeri_jack_double' \(known: target, "):
        kontsina.check_options("xeri_jack_double", 2)
    with pytest.raises(EnvArgumentError, match=r"invalid options=.*partnerships.*4"):
        kontsina.check_options({"partnerships": True}, 3)
    with pytest.raises(EnvArgumentError, match=r"invalid options=.*2 without"):
        xeri.check_options({"partnerships": True}, 2)
    with pytest.raises(EnvArgumentError, match="invalid options=7: expected XeriOptions"):
        xeri.check_options(7, 2)
    with pytest.raises(EnvArgumentError, match=r"invalid options=.*hands=0"):
        xeri.check_options({"hands": 0}, 2)
