"""The computer players in Xeri and Kontsina: legal, reproducible, sensible, and worlds that fit the view."""

from __future__ import annotations

import random

import pytest

from diloti.ai import FullStatePlayer, game_players, make_player, player_move
from diloti.ai.part import SearchSettings
from diloti.core.cards import mask_of, parse_card
from diloti.games import new_game
from diloti.games.diloti.state import State
from diloti.games.xeri import players as xeri_players
from helpers import hand_of

LEVELS = ["random", "greedy", "heuristic", "expert:iterations=12,seconds=none", "master:iterations=12,seconds=none"]


@pytest.mark.parametrize("game", ["xeri", "kontsina"])
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_hand(game: str, level: str) -> None:
    s = State.new(seed=3, game=game)
    bots = [make_player(level, seed=i, measurement=True) for i in range(2)]
    while not s.is_over:
        v = s.view(s.turn)
        m = bots[s.turn].choose(v)
        assert m in s.legal_moves()
        if level != "random":  # the same seed and view, the same move
            assert make_player(level, seed=s.turn, measurement=True).choose(v) == m
        s.push(m)


def test_greedy_takes_the_xeri() -> None:
    s = hand_of("xeri", ["9S 4C JH", "3D 4D 5D"], "9C", turn=0)
    assert str(make_player("greedy", 1).choose(s.view(0)).card) == "9S"
    assert xeri_players.PART.gain(s.view(0), s.legal_moves()[1]) > 10


def test_heuristic_keeps_a_jack_when_another_card_takes_the_pile() -> None:
    s = hand_of("xeri", ["3S JH 9S", "3D 4D 5D"], "2C 5H 6H 9D", turn=0)
    assert str(make_player("heuristic", 1).choose(s.view(0)).card) == "9S"


def test_greedy_takes_the_most_in_kontsina() -> None:
    s = hand_of("kontsina", ["10D 2S", "3C 4C"], "AC 9C 4H 6H", turn=0)
    best = max(xeri_players.PART.greedy_scores(s.view(0)), key=lambda ms: ms[1])[0]
    assert str(best) in ("10D x AC 9C", "10D x 4H 6H")


@pytest.mark.parametrize("game", ["xeri", "kontsina"])
def test_a_sampled_world_fits_the_view(game: str) -> None:
    s = State.new(seed=8, players=2, game=game)
    rng = random.Random(1)
    for _ in range(9):
        s.push(rng.choice(s.legal_moves()))
    v = s.view(s.turn)
    for k in range(5):
        w = game_players(game).worlds(v, SearchSettings()).sample(random.Random(k))[0]
        w.validate()
        assert w.hands[v.seat] == list(v.hand) and w.table == list(v.table)
        assert [len(h) for h in w.hands] == [len(h) for h in s.hands] and w.stock_size == s.stock_size
        hidden = mask_of(c for i, h in enumerate(w.hands) if i != v.seat for c in h) | mask_of(w.remaining_stock)
        assert hidden == v.unseen_mask
        assert w.plays == s.plays and w.deal_no == s.deal_no and w.legal_moves() == s.legal_moves()


def test_the_oracle_takes_the_full_hand() -> None:
    g = new_game("kontsina", seed=2)
    bot = make_player("oracle:iterations=8,seconds=none", 1, measurement=True)
    assert isinstance(bot, FullStatePlayer)
    m = player_move(bot, g.state)
    assert m in g.state.legal_moves()


def test_heuristic_beats_random_in_both_games() -> None:
    for game in ("xeri", "kontsina"):
        wins = 0
        for i in range(6):
            g = new_game(game, seed=i)
            bots = [make_player("heuristic" if s == i % 2 else "random", seed=s) for s in range(2)]
            while not g.is_over:
                g.push(bots[g.state.turn].choose(g.view(g.state.turn)))
            wins += g.winner == i % 2
        assert wins >= 5, game
    assert parse_card("JH")
