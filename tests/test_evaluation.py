"""The fitted leaf evaluation: its features mean what they say, and it is exact once a round is over."""

from __future__ import annotations

import random

from diloti.ai import make_player
from diloti.core.cards import parse_cards
from diloti.core.phase import Phase
from diloti.games.diloti.players.evaluation import NAMES, features, fitted_evaluate, weights
from diloti.games.diloti.players.rollout import evaluate
from diloti.games.diloti.state import State


def deal_starts(rounds: int, players: int, seed: int) -> list[State]:
    """Every deal start after the first, in rounds of heuristic play."""
    out: list[State] = []
    for r in range(rounds):
        s = State.new(players, seed=seed * 1000 + r, dealer=r % players)
        bots = [make_player("heuristic", i) for i in range(players)]
        deal = s.deal_no
        while not s.is_over:
            if s.deal_no != deal and s.phase == Phase.PLAY:
                deal = s.deal_no
                out.append(s.copy())
            s.push(bots[s.turn].choose(s.view(s.turn)))
    return out


def test_weights_exist_for_both_table_sizes_and_trust_the_captured_cards() -> None:
    for players in (2, 4):
        w = dict(zip(NAMES, weights(players), strict=True))
        # The captured cards stay the main term; a table the leader can sweep is worth about a xeri.
        assert 0.8 < w["base"] < 1.2
        assert 5 < w["lead_sweep"] < 15


def test_features_are_signed_for_side_zero_and_antisymmetric() -> None:
    for s in deal_starts(6, 2, seed=3) + deal_starts(3, 4, seed=4):
        f = features(s)
        assert f[0] == evaluate(s, 0)
        assert f[2] == (1.0 if s.turn % 2 == 0 else -1.0)
        assert abs(fitted_evaluate(s, 0) + fitted_evaluate(s, 1)) < 1e-9
        # No declaration outlives a deal: every hand was empty at its end.
        assert not s.declarations


def test_a_sweepable_table_counts_for_the_leader_only_when_it_holds_the_card() -> None:
    other = parse_cards("6H 7C 8D JS QS 10H")
    s = State.from_parts(players=2, dealer=1, hands=[parse_cards("5H 9C 2D KS 3S 4D"), other],
                         table=parse_cards("2S 3H"), stock=[], check=False)
    f = features(s)
    assert s.turn == 0 and f[1] == 1.0  # the 5 takes 2+3: a xeri
    s2 = State.from_parts(players=2, dealer=1, hands=[parse_cards("6C 9C 2D KS 3S 4D"), other],
                          table=parse_cards("2S 3H"), stock=[], check=False)
    assert features(s2)[1] == 0.0


def test_exact_once_the_round_is_over() -> None:
    rng = random.Random(5)
    s = State.new(2, seed=rng.randrange(10**6))
    bots = [make_player("greedy", i) for i in range(2)]
    while not s.is_over:
        s.push(bots[s.turn].choose(s.view(s.turn)))
    a, b = s.points()
    assert fitted_evaluate(s, 0) == a - b and fitted_evaluate(s, 1) == b - a
