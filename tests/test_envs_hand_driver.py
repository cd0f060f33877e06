"""One hand of a one-card game (Xeri, Kontsina) driven by action ids (HandDriver): rewards per side, zero-sum,
the same seed the same hand."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy", reason="the research extra (pip install 'diloti[research]') is not installed")

from diloti.envs.actions import InvalidActionError
from diloti.envs.games import find_env_game
from diloti.games.kontsina.rules import KontsinaOptions
from diloti.games.onecard.envs import HandEnv
from diloti.games.onecard.envs.driver import HandDriver, side_returns
from diloti.games.xeri.rules import XeriOptions


def hand_driver(game: str, players: int, options: object, dealer: int, seed: int) -> HandDriver:
    env = find_env_game(game).part
    assert isinstance(env, HandEnv)
    return HandDriver(env.encoding, env.layout, players, options, dealer, seed)


def test_side_returns() -> None:
    assert side_returns((30, 12), 2, 2) == [18.0, -18.0]
    assert side_returns((3, 1), 4, 2) == [2.0, -2.0, 2.0, -2.0]
    assert side_returns((5, 0, 0), 3, 3) == [5.0, -2.5, -2.5]
    r = side_returns((2, 1, 1, 1), 4, 4)
    assert r[0] == 2 - 1 and abs(sum(r)) < 1e-12


@pytest.mark.parametrize(("game", "players", "options"), [
    ("xeri", 2, XeriOptions()), ("xeri", 4, XeriOptions(partnerships=True)), ("kontsina", 2, KontsinaOptions()),
    ("kontsina", 3, KontsinaOptions()), ("kontsina", 4, KontsinaOptions(partnerships=True))])
def test_random_hands_pay_each_side_its_points_against_the_others(game: str, players: int, options: object) -> None:
    for seed in range(4):
        d = hand_driver(game, players, options, dealer=seed % players, seed=seed)
        rng = random.Random(seed)
        while not d.over:
            assert d.returns() == [0.0] * players
            acts = d.actions()
            assert d.mask().sum() == len(acts) and d.mask()[acts].all()
            d.apply(rng.choice(acts))
        points = d.state.points()
        r = d.returns()
        assert abs(sum(r)) < 1e-9 and len(r) == players
        for seat in range(players):
            side = d.state.side_of(seat)
            others = [p for i, p in enumerate(points) if i != side]
            assert r[seat] == pytest.approx(points[side] - sum(others) / len(others))
        assert d.mask().sum() == 0 and "hand over" in d.render()
        with pytest.raises(InvalidActionError, match="the hand is over"):
            d.apply(0)


def test_same_seed_same_hand_and_play_takes_the_moves_actions() -> None:
    a = hand_driver("kontsina", 2, KontsinaOptions(), 0, 11)
    b = hand_driver("kontsina", 2, KontsinaOptions(), 0, 11)
    rng = random.Random(0)
    while not a.over:
        move = rng.choice(a.state.legal_moves())
        for action in a.decision.encode(move):
            got = a.apply(action)
        assert got == move
        b.play(move)
        assert a.state == b.state and a.steps == b.steps
