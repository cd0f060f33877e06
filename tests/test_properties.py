"""Invariants over thousands of random games, every option mix, 2 and 4 players."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diloti.core.cards import ALL_MASK, NAMES, cards_of, mask_of
from diloti.core.moves import Move
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State
from helpers import options_st


def check_round_end(s: State) -> None:
    assert s.is_over and s.legal_moves() == []
    assert not s.declarations, "a declaration survived the round"
    assert all(not h for h in s.hands) and s.stock_size == 0
    total = s.captured[0] | s.captured[1] | mask_of(s.table)
    assert total == ALL_MASK and not s.captured[0] & s.captured[1]
    a, b = s.score()
    base = 7 if a.cards == b.cards == 26 else 11
    if s.last_capturer is not None:
        assert a.cards + b.cards == 52
        assert a.total + b.total == base + 10 * (a.xeri + b.xeri)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), players=st.sampled_from([2, 4]), options=options_st)
def test_round_invariants_every_option_mix(seed: int, players: int, options: Options) -> None:
    rng = random.Random(seed)
    s = State.new(players, options, dealer=rng.randrange(players), seed=seed)
    while not s.is_over:
        moves = s.legal_moves()
        assert moves and len(moves) == len(set(moves))
        # Each card on the table, in hands and in the stock is in exactly one place.
        seen = 0
        for part in [*s.hands, s.table, s.remaining_stock]:
            for c in part:
                assert not seen >> c & 1
                seen |= 1 << c
        for p in s.declarations:
            assert not seen & p.mask
            seen |= p.mask
        assert seen | s.captured[0] | s.captured[1] == ALL_MASK
        owners = [p.owner for p in s.declarations]
        assert len(owners) == len(set(owners))
        for p in s.declarations:  # the declarer's obligation holds between moves
            if p.owner != s.turn or s.phase != 0:
                assert any(c.value == p.value for c in s.hands[p.owner]) or not s.hands[p.owner]
        s.push(rng.choice(moves))
    check_round_end(s)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), players=st.sampled_from([2, 4]), options=options_st)
def test_every_move_applies_and_undo_restores_exactly(seed: int, players: int, options: Options) -> None:
    rng = random.Random(seed)
    s = State.new(players, options, seed=seed)
    while not s.is_over:
        before = s.key()
        moves = s.legal_moves()
        for m in moves:
            s.push(m)
            s.pop()
            assert s.key() == before
            assert Move.parse(str(m)) == m  # the canonical notation round-trips
        s.push(rng.choice(moves))


def test_thousands_of_games_conserve_cards_and_points() -> None:
    for seed in range(2000):
        rng = random.Random(seed)
        players = 2 if seed % 3 else 4
        s = State.new(players, dealer=seed % players, seed=seed)
        while not s.is_over:
            s.push(rng.choice(s.legal_moves()))
        check_round_end(s)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), players=st.sampled_from([2, 4]), options=options_st)
def test_views_never_show_another_hand_or_the_stock(seed: int, players: int, options: Options) -> None:
    rng = random.Random(seed)
    s = State.new(players, options, seed=seed)
    played = 0
    while not s.is_over:
        for seat in range(players):
            v = s.view(seat)
            hidden = mask_of(s.remaining_stock)
            for other in range(players):
                if other != seat:
                    hidden |= mask_of(s.hands[other])
            if v.bottom is not None:
                hidden &= ~(1 << v.bottom)  # the dealer peeked at it
            assert not hidden & (v.seen_mask | played | (mask_of(v.first_table)))
            text = json.dumps(v.to_dict())
            for c in cards_of(hidden):
                assert f'"{NAMES[c]}"' not in text and f"{NAMES[c]} " not in text
            assert not hasattr(v, "state") and v.unseen_mask & hidden == hidden
        m = rng.choice(s.legal_moves())
        if m.card is not None:
            played |= 1 << m.card
        s.push(m)


def test_games_replay_exactly_from_their_rounds() -> None:
    for seed in range(20):
        players = 2 if seed % 2 else 4
        opts = Options(face_card_redeal="any_deal", dealer_sees_bottom=bool(seed % 3), target=41)
        g = Game(players, opts, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.push(rng.choice(g.state.legal_moves()))
        assert max(g.scores) >= 41 and g.scores[0] != g.scores[1]
        assert sum(r.points[0] for r in g.rounds) == g.scores[0]
        for r in g.rounds:
            s = State.new(players, opts, r.dealer, seed=r.seed, deck=r.deck)
            for seat, m in r.moves:
                assert s.turn == seat and s.is_legal(m)
                s.push(m)
            assert s.score() == r.score
