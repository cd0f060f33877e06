"""Explicit chance for Xeri and Kontsina: every card dealt is an event the caller sees; seeded hands unchanged."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from diloti.core.cards import CARDS, Card, parse_cards
from diloti.core.chance import HANDS, TABLE
from diloti.core.errors import InvalidPositionError, NoSuchOutcomeError
from diloti.core.phase import Phase
from diloti.games.diloti.state import State
from diloti.games.kontsina.rules import KontsinaOptions, KontsinaState
from diloti.games.onecard.state import HandState
from diloti.games.xeri.rules import XeriOptions, XeriState

SEATINGS: list[tuple[type[HandState], int, Any]] = [
    (XeriState, 2, XeriOptions()),
    (XeriState, 2, XeriOptions(pile_any_pair_redeal=True)),
    (XeriState, 4, XeriOptions(partnerships=True)),
    (KontsinaState, 2, KontsinaOptions()),
    (KontsinaState, 3, KontsinaOptions(forced_capture=True)),
    (KontsinaState, 4, KontsinaOptions()),
    (KontsinaState, 4, KontsinaOptions(partnerships=True)),
]


def conserve(s: HandState) -> None:
    seen = [c for h in s.hands for c in h] + list(s.table) + s.remaining_stock
    seen += [c for m in s.captured for c in CARDS if m >> c & 1]
    assert sorted(seen) == list(CARDS)


@pytest.mark.parametrize(("cls", "players", "options"), SEATINGS)
def test_random_hands_with_explicit_chance_end_with_every_card_scored(cls: type[HandState], players: int,
                                                                     options: Any) -> None:
    for seed in range(30):
        rng = random.Random(seed)
        s = cls.new(players, options, dealer=seed % players, explicit_chance=True)
        dealt = 0
        while not s.is_over:
            event = s.chance
            if event is not None:
                assert s.phase == Phase.CHANCE and s.legal_moves() == []
                assert all(not s.view(seat).to_move for seat in range(players))
                assert abs(sum(p for _, p in s.chance_outcomes()) - 1) < 1e-9
                assert set(event.outcomes) <= set(s.remaining_stock) and len(event.outcomes) >= event.left
                s.deal_random(rng)
                dealt += 1
            else:
                s.push(rng.choice(s.legal_moves()))
            conserve(s)
        assert dealt == 52 and sum(m.bit_count() for m in s.captured) == 52  # every card dealt once: no redeal


def explicit_copy_of(seeded: HandState) -> HandState:
    """An explicit-chance hand dealt the first deal's cards of ``seeded`` (one without a pile redeal)."""
    e = type(seeded).new(seeded.players, seeded.options, seeded.dealer, explicit_chance=True)
    first = seeded.HAND_SIZE * seeded.players + 4
    for c in seeded.deck[:first]:
        assert e.chance is not None
        e.deal(c)
    return e


@pytest.mark.parametrize(("cls", "players", "options"), SEATINGS)
def test_dealing_a_seeded_hands_cards_replays_it_move_for_move(cls: type[HandState], players: int,
                                                               options: Any) -> None:
    checked = 0
    for seed in range(20):
        seeded = cls.new(players, options, dealer=seed % players, seed=seed)
        if seeded.shuffles != 1:
            continue  # the seed dealt the pile again: the deck is not the order dealt
        e = explicit_copy_of(seeded)
        rng = random.Random(seed)
        while not seeded.is_over:
            assert e.chance is None
            assert (e.hands, e.table, e.turn, e.phase, e.first_table) == \
                (seeded.hands, seeded.table, seeded.turn, seeded.phase, seeded.first_table)
            assert sorted(e.remaining_stock) == sorted(seeded.remaining_stock)
            m = rng.choice(seeded.legal_moves())
            seeded.push(m)
            e.push(m)
            if e.chance is not None:
                assert e.chance.kind == HANDS and e.chance.left == seeded.HAND_SIZE * players
                for c in seeded.stock[e.stock_pos:e.stock_pos + seeded.HAND_SIZE * players]:
                    e.deal(c)
        assert e.points() == seeded.points() and e.phase == Phase.OVER
        checked += 1
    assert checked >= 10


def deal_hands(s: HandState, cards: list[Card]) -> None:
    for c in cards:
        assert s.chance is not None and s.chance.kind == HANDS
        s.deal(c)


def test_a_xeri_pile_is_dealt_only_as_one_that_stands() -> None:
    # RULES-XERI.md section 3 redeals a pile with a jack on top, or a top card of the rank under it: explicit
    # chance never deals one (tests/test_xeri_pile_chance.py: the piles that stand, each equally likely).
    s = XeriState.new(2, dealer=0, explicit_chance=True)
    hands = parse_cards("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H 3S")
    deal_hands(s, hands)
    assert s.chance is not None and s.chance.kind == TABLE and s.chance.to == "table" and s.chance.left == 4
    for c in parse_cards("4C 9H KD"):  # bottom first
        s.deal(c)
    event = s.chance
    assert event is not None and event.kind == TABLE and event.left == 1 and len(event.outcomes) == 30
    assert not set(parse_cards("JC JD JH JS KC KH KS")) & set(event.outcomes)  # no jack, no king on the king
    before = s.copy(stack=True)
    for card in ("JS", "KS"):
        with pytest.raises(NoSuchOutcomeError, match=f"cannot deal {card}: every table with it there"):
            s.deal(card)
        assert s == before
    assert s.hands[1] == sorted(hands[:6]) and s.hands[0] == sorted(hands[6:])
    s.deal("7S")
    assert s.chance is None and s.phase == Phase.PLAY and s.turn == 1
    assert s.table == parse_cards("4C 9H KD 7S") and s.first_table == tuple(s.table) and s.stock_size == 36
    assert s.remaining_stock == sorted(s.remaining_stock)


def test_a_kontsina_table_is_never_dealt_again() -> None:
    s = KontsinaState.new(3, dealer=2, explicit_chance=True)
    deal_hands(s, [Card(c) for c in range(12)])
    for c in parse_cards("JC JD JH JS"):
        s.deal(c)
    assert s.chance is None and s.table == parse_cards("JC JD JH JS") and s.turn == 0
    assert [len(h) for h in s.hands] == [4, 4, 4] and s.stock_size == 36


def test_a_card_that_cannot_be_dealt_is_refused_and_changes_nothing() -> None:
    s = KontsinaState.new(2, explicit_chance=True)
    s.deal("AC")
    before = s.copy(stack=True)
    with pytest.raises(NoSuchOutcomeError, match="AC"):
        s.deal("AC")
    assert s == before
    seeded = XeriState.new(seed=1)
    with pytest.raises(NoSuchOutcomeError, match="not a chance point"):
        seeded.deal("AC")
    with pytest.raises(InvalidPositionError, match="deck"):
        XeriState.new(deck=list(range(52)), explicit_chance=True)


def test_state_new_offers_explicit_chance_for_every_game() -> None:
    for game in ("xeri", "kontsina"):
        s = State.new(game=game, explicit_chance=True)
        assert s.game == game and s.phase == Phase.CHANCE and s.chance is not None


@pytest.mark.parametrize("cls", [XeriState, KontsinaState])
def test_undoing_the_last_card_of_a_deal_goes_back_before_the_chance_point(cls: type[HandState]) -> None:
    rng = random.Random(2)
    s = cls.new(2, explicit_chance=True)
    while s.chance is not None:
        s.deal_random(rng)
    while True:
        if sum(len(h) for h in s.hands) == 1:
            before = s.copy(stack=True)
            s.push(s.legal_moves()[0])
            assert s.phase == Phase.CHANCE
            s.deal_random(rng)
            s.pop()
            assert s == before and s.chance is None
            return
        s.push(rng.choice(s.legal_moves()))


@pytest.mark.parametrize(("cls", "players"), [(XeriState, 2), (KontsinaState, 3)])
def test_a_hand_in_the_middle_of_a_deal_copies_and_pickles(cls: type[HandState], players: int) -> None:
    s = cls.new(players, explicit_chance=True)
    rng = random.Random(4)
    for _ in range(10):
        s.deal_random(rng)
    for other in (copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert other == s and other.chance == s.chance
        other.deal_random(rng)
        assert other != s


@pytest.mark.parametrize(("any_pair", "stands"), [(False, True), (True, False)])
def test_a_pair_below_the_top_is_dealt_only_without_pile_any_pair_redeal(any_pair: bool, stands: bool) -> None:
    s = XeriState.new(2, XeriOptions(pile_any_pair_redeal=any_pair), explicit_chance=True)
    deal_hands(s, [Card(c) for c in range(12)])
    s.deal("4C")
    s.deal("9H")
    if not stands:  # a second 9 leaves no pile that stands
        with pytest.raises(NoSuchOutcomeError, match="cannot deal 9D"):
            s.deal("9D")
        assert s.chance is not None and not {c >> 2 for c in s.chance.outcomes} & {3, 8}
        return
    for c in parse_cards("9D 7S"):
        s.deal(c)
    assert s.chance is None and s.table == parse_cards("4C 9H 9D 7S")
