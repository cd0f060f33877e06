"""Explicit chance: every deal is an event the caller sees and chooses; seeded rounds unchanged."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from diloti.core.cards import CARDS, NAMES, Card, parse_cards
from diloti.core.chance import BOTTOM, HANDS, TABLE
from diloti.core.errors import InvalidCardError, NoSuchOutcomeError
from diloti.core.moves import KEEP, REDEAL, Move
from diloti.core.phase import Phase
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import HAND_SIZE, State

OPTION_MIXES = [
    Options(),
    Options(dealer_sees_bottom=True),
    Options(face_card_redeal="any_deal", any_rank_redeal=True),
    Options(dealer_sees_bottom=True, face_card_redeal="any_deal", three_faces_stay=True),
    Options(liberal_groups=True, liberal_raise=True, liberal_capture=True, soy=True, self_raise=True),
]


def conserve(s: State) -> None:
    seen: list[int] = []
    for h in s.hands:
        seen += h
    seen += s.table
    for p in s.declarations:
        seen += p.cards
    seen += s.remaining_stock
    for m in s.captured:
        seen += [c for c in CARDS if m >> c & 1]
    assert sorted(seen) == list(CARDS)


def play_out(s: State, rng: random.Random, redeal_p: float = 0.5) -> list[str]:
    """Play a whole round at random, dealing at random; the kinds of chance events seen."""
    kinds = []
    while not s.is_over:
        event = s.chance
        if event is not None:
            kinds.append(event.kind)
            # OpenSpiel's outcomes: the same cards, as plain ints, with the same probabilities
            ids = s.chance_outcome_ids()
            assert ids == [(int(c), p) for c, p in s.chance_outcomes()]
            assert all(type(c) is int for c, _ in ids)
            assert s.legal_moves() == []
            assert all(not s.view(seat).to_move and s.view(seat).legal == () for seat in range(s.players))
            s.deal_random(rng)
        else:
            moves = s.legal_moves()
            if moves[0].kind == KEEP:
                s.push(moves[1] if rng.random() < redeal_p else moves[0])
            else:
                s.push(rng.choice(moves))
        conserve(s)
    return kinds


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("opts", OPTION_MIXES, ids=range(len(OPTION_MIXES)))
def test_random_rounds_with_explicit_chance_end_with_every_card_scored(players: int, opts: Options) -> None:
    rng = random.Random(players * 100 + OPTION_MIXES.index(opts))
    for _ in range(40):
        s = State.new(players, opts, dealer=rng.randrange(players), explicit_chance=True)
        kinds = play_out(s, rng)
        assert s.phase == Phase.OVER
        assert s.captured[0].bit_count() + s.captured[1].bit_count() == 52
        deals = 48 // (HAND_SIZE * players)
        assert kinds.count(HANDS) >= deals * HAND_SIZE * players
        assert kinds.count(TABLE) >= 4
        assert (kinds[0] == BOTTOM) == opts.dealer_sees_bottom


def test_each_outcome_is_equally_likely_and_undealt() -> None:
    s = State.new(4, explicit_chance=True, dealer=2)
    event = s.chance
    assert event is not None and event.kind == HANDS and event.to == 3 and event.left == 24
    assert event.outcomes == tuple(CARDS) and event.probability == pytest.approx(1 / 52)
    assert s.chance_outcomes() == [(c, 1 / 52) for c in CARDS]
    s.deal("7H")
    assert s.chance is not None and Card("7H") not in s.chance.outcomes and len(s.chance.outcomes) == 51
    for c in parse_cards("AC 2C 3C 4C 5C"):
        s.deal(c)
    assert s.chance.to == 0 and s.chance.left == 18  # the second hand, in play order after the dealer


def explicit_copy_of(seeded: State) -> State:
    """An explicit-chance round dealt the same cards as ``seeded`` (one without table redeals)."""
    e = State.new(seeded.players, seeded.options, seeded.dealer, explicit_chance=True)
    if seeded.options.dealer_sees_bottom:
        e.deal(seeded.deck[-1])
    for c in seeded.deck[:HAND_SIZE * seeded.players + 4]:
        e.deal(c)
    return e


def test_dealing_a_seeded_rounds_cards_replays_it_move_for_move() -> None:
    checked = 0
    for seed in range(60):
        opts = OPTION_MIXES[seed % 2]
        seeded = State.new(2 + 2 * (seed % 3 == 0), opts, dealer=seed % 2, seed=seed)
        if seeded.shuffles != 1 or seeded.phase != Phase.PLAY:
            continue  # the seed laid the table again or offered a redeal: the deck is not the order dealt
        e = explicit_copy_of(seeded)
        rng = random.Random(seed)
        while not seeded.is_over:
            assert e.chance is None
            assert (e.hands, e.table, e.declarations, e.turn, e.phase) == \
                (seeded.hands, seeded.table, seeded.declarations, seeded.turn, seeded.phase)
            assert sorted(e.remaining_stock) == sorted(seeded.remaining_stock)
            m = rng.choice(seeded.legal_moves())
            seeded.push(m)
            e.push(m)
            if e.chance is not None:
                # The next deal: the cards the seeded stock holds next, in its order.
                for c in seeded.stock[e.stock_pos:e.stock_pos + HAND_SIZE * seeded.players]:
                    e.deal(c)
        assert e.points() == seeded.points() and e.phase == Phase.OVER
        checked += 1
    assert checked >= 30


def test_a_third_king_is_no_table_outcome_so_the_table_is_never_dealt_again() -> None:
    # RULES.md redeals a first table of three kings; explicit chance draws only tables that stand
    # (tests/test_diloti_table_chance.py checks the distribution), so the third king is refused.
    s = State.new(2, explicit_chance=True)
    for c in parse_cards("AC 2C 3C 4C 5C 6C AD 2D 3D 4D 5D 6D"):
        s.deal(c)
    assert s.chance is not None and s.chance.kind == TABLE and s.chance.left == 4
    for c in parse_cards("KC KD"):
        s.deal(c)
    event = s.chance
    assert event is not None and event.kind == TABLE and event.left == 2
    assert not set(parse_cards("KH KS")) & set(event.outcomes) and len(event.outcomes) == 36
    with pytest.raises(NoSuchOutcomeError, match="cannot deal KH: every table with it there would be dealt again"):
        s.deal("KH")
    for c in parse_cards("9S 9H"):
        s.deal(c)
    assert s.chance is None and s.phase == Phase.PLAY
    assert [NAMES[c] for c in s.table] == ["9H", "9S", "KC", "KD"] and s.stock_size == 36
    assert s.remaining_stock == sorted(s.remaining_stock)


def test_the_bottom_card_is_chosen_first_and_dealt_last_to_the_dealer() -> None:
    s = State.new(2, Options(dealer_sees_bottom=True), dealer=0, explicit_chance=True)
    assert s.chance is not None and s.chance.kind == BOTTOM and s.chance.to == BOTTOM
    s.deal("10D")
    assert s.bottom == Card("10D") and s.view(0).bottom == Card("10D") and s.view(1).bottom is None
    rng = random.Random(5)
    while not s.is_over:
        event = s.chance
        if event is not None:
            last = event.left == 1 and s.stock_size == HAND_SIZE * 2  # the last place of the last deal
            assert (Card("10D") in event.outcomes) == last
            if last:
                assert event.outcomes == (Card("10D"),) and event.to == 0
            s.deal_random(rng)
        else:
            s.push(rng.choice(s.legal_moves()))
    assert (s.captured[0] | s.captured[1]) >> Card("10D") & 1


def test_a_face_card_redeal_on_the_first_deal_deals_the_whole_deck_again() -> None:
    s = State.new(2, Options(face_card_redeal="any_deal"), dealer=0, explicit_chance=True)
    for c in parse_cards("JC JD JH QC QD 2C  AC 2D 3C 4C 5C 6C  7C 8C 9C 10C"):
        s.deal(c)
    assert (s.phase, s.turn) == (Phase.DECIDE, 1)  # one tuple: mypy would keep s.phase narrowed past the push
    before = s.copy(stack=True)
    s.push(Move(None, REDEAL))
    assert s.phase == Phase.CHANCE and s.chance is not None and len(s.chance.outcomes) == 52
    assert all(not h for h in s.hands) and not s.table
    s.pop()
    assert s == before


def test_a_face_card_redeal_on_a_later_deal_deals_those_hands_again() -> None:
    opts = Options(face_card_redeal="any_deal")
    rng = random.Random(11)
    for _ in range(300):
        s = State.new(2, opts, explicit_chance=True)
        while not s.is_over and not (s.phase == Phase.DECIDE and s.deal_no > 1):
            if s.chance is not None:
                s.deal_random(rng)
            else:
                moves = s.legal_moves()
                s.push(moves[0] if moves[0].kind == KEEP else rng.choice(moves))
        if s.is_over:
            continue
        stock = s.stock_size
        hands = sorted(c for h in s.hands for c in h)
        s.push(Move(None, REDEAL))
        assert s.chance is not None and s.chance.kind == HANDS and s.chance.left == 12
        assert set(hands) <= set(s.chance.outcomes) and len(s.chance.outcomes) == stock + 12
        assert all(not h for h in s.hands)
        return
    pytest.fail("no later face-card redeal offered in 300 random rounds")


def test_a_card_that_cannot_be_dealt_is_refused_and_changes_nothing() -> None:
    s = State.new(2, explicit_chance=True)
    s.deal("AC")
    before = s.copy(stack=True)
    with pytest.raises(NoSuchOutcomeError, match="cannot deal AC: not among the undealt cards"):
        s.deal("AC")
    with pytest.raises(InvalidCardError, match="invalid card index 64"):
        s.deal(64)
    with pytest.raises(InvalidCardError):
        s.deal("ZZ")
    assert s == before
    # while the bottom card is chosen, any card of the deck; the undealt cards once it is seen
    bottom = State.new(2, Options(dealer_sees_bottom=True), explicit_chance=True)
    bottom.deal("KS")
    with pytest.raises(NoSuchOutcomeError, match="cannot deal KS: not among the undealt cards"):
        bottom.deal("KS")
    assert bottom.chance is not None and Card("KS") not in bottom.chance.outcomes and len(bottom.chance.outcomes) == 51
    seeded = State.new(2, seed=1)
    with pytest.raises(NoSuchOutcomeError, match="not a chance point"):
        seeded.deal("AC")


def test_undoing_the_last_card_of_a_deal_goes_back_before_the_chance_point() -> None:
    rng = random.Random(2)
    s = State.new(2, explicit_chance=True)
    while s.chance is not None:
        s.deal_random(rng)
    while s.hands[0] or s.hands[1]:
        if len(s.hands[0]) + len(s.hands[1]) == 1:
            before = s.copy(stack=True)
            s.push(s.legal_moves()[0])
            assert s.phase == Phase.CHANCE
            s.pop()
            assert s == before and s.chance is None
            return
        s.push(rng.choice(s.legal_moves()))


def test_a_state_in_the_middle_of_a_deal_copies_and_pickles() -> None:
    s = State.new(4, Options(dealer_sees_bottom=True), explicit_chance=True)
    rng = random.Random(4)
    for _ in range(10):
        s.deal_random(rng)
    for other in (copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert other == s and other.chance == s.chance
        other.deal_random(rng)
        assert other != s
