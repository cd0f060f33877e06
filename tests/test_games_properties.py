"""Properties of Xeri and Kontsina over many random games: every card accounted for at every step,
score totals, views that hide what they must, exact replay from the record, push/pop and copies."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diloti.core.cards import ALL_MASK, mask_of
from diloti.formats.games import position_from_json, position_to_json, read_any_record
from diloti.games import find_game
from diloti.games.onecard.formats import HandsRecord
from diloti.games.onecard.state import HandState

SETUPS = [("xeri", 2, {}), ("xeri", 4, {"partnerships": True}), ("xeri", 2, {"xeri_jack_double": True}),
          ("kontsina", 2, {}), ("kontsina", 3, {}), ("kontsina", 4, {}), ("kontsina", 4, {"partnerships": True}),
          ("kontsina", 2, {"forced_capture": True})]


def check_cards(s: HandState) -> None:
    """All 52 cards, each in exactly one place."""
    places = [mask_of(h) for h in s.hands] + [mask_of(s.table), mask_of(s.remaining_stock), *s.captured]
    total = 0
    for m in places:
        assert total & m == 0
        total |= m
    assert total == ALL_MASK


def check_view(s: HandState, seat: int) -> None:
    v = s.view(seat)
    hidden = mask_of(c for i, h in enumerate(s.hands) if i != seat for c in h) | mask_of(s.remaining_stock)
    assert v.unseen_mask == hidden
    assert mask_of(v.hand) & hidden == 0 and mask_of(v.table) & hidden == 0
    for side in v.captured:
        assert mask_of(side) & hidden == 0
    text = str(v.to_dict())
    for c in (c for i, h in enumerate(s.hands) if i != seat for c in h):
        assert f"'{c}'" not in text
    assert (v.legal != ()) == (seat == s.turn and not s.is_over)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETUPS), st.integers(0, 2**32), st.integers(0, 3))
def test_a_random_hand_keeps_every_card_and_scores_right(setup: tuple[str, int, dict[str, bool]], seed: int,
                                                          dealer: int) -> None:
    game, players, opts = setup
    info = find_game(game)
    s: HandState = info.state.new(players, info.options(**opts), dealer % players, seed=seed)
    rng = random.Random(seed)
    check_cards(s)
    steps = 0
    while not s.is_over:
        check_cards(s)
        if steps % 7 == 0:
            check_view(s, (s.turn + steps) % players)
        moves = s.legal_moves()
        assert moves and len(set(moves)) == len(moves)
        before = s.key()
        m = rng.choice(moves)
        s.push(m)
        if steps % 5 == 0:
            assert s.pop() == m and s.key() == before
            s.push(m)
        steps += 1
    check_cards(s)
    assert (steps == 52 - 4 and s.table == []) or s.last_capturer is None
    score = s.score()
    assert sum(x.cards for x in score) == sum(m.bit_count() for m in s.captured)
    if game == "xeri":
        base = 25 - (3 if score[0].cards == score[1].cards else 0)
        assert sum(x.total for x in score) == base + sum(x.xeri_points for x in score)
    else:
        assert sum(x.total for x in score) <= 5
        assert sum(x.two_of_clubs + x.ten_of_diamonds for x in score) == 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETUPS), st.integers(0, 2**32))
def test_a_whole_game_replays_exactly_from_its_record(setup: tuple[str, int, dict[str, bool]], seed: int) -> None:
    game, players, opts = setup
    info = find_game(game)
    g = info.game(players, info.options(**opts), seed=seed, first_dealer=seed % players)
    rng = random.Random(seed)
    while not g.is_over:
        g.push(rng.choice(g.state.legal_moves()))
    rec = HandsRecord.from_game(g, names=[f"p{i}" for i in range(players)])
    back = read_any_record(rec.dumps())
    assert isinstance(back, HandsRecord)
    assert back.errors == [] and back.game == game and back.scores == tuple(g.scores)
    assert back.result.split("-").index("1") == g.winner
    assert [r.moves for r in back.rounds] == [r.moves for r in g.rounds]
    assert back.final_state(len(back.rounds) - 1).key() == g.state.key()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SETUPS), st.integers(0, 2**32), st.integers(0, 47))
def test_a_position_reads_back_the_same(setup: tuple[str, int, dict[str, bool]], seed: int, plies: int) -> None:
    game, players, opts = setup
    info = find_game(game)
    s: HandState = info.state.new(players, info.options(**opts), seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if s.is_over:
            break
        s.push(rng.choice(s.legal_moves()))
    if s.is_over:
        return
    back = position_from_json(position_to_json(s))
    assert back.key() == s.key() and back.legal_moves() == s.legal_moves()
    c = s.copy()
    assert c == s and c.legal_moves() == s.legal_moves()


def test_thousands_of_random_hands_of_each_game() -> None:
    """1,000 random hands of each game, every card accounted for after every move."""
    rng = random.Random(16)
    for game in ("xeri", "kontsina"):
        setups = [s for s in SETUPS if s[0] == game]
        for i in range(1000):
            _, players, opts = setups[i % len(setups)]
            info = find_game(game)
            s: HandState = info.state.new(players, info.options(**opts), i % players, seed=rng.getrandbits(63))
            step = 0
            while not s.is_over:
                s.push(rng.choice(s.legal_moves()))
                step += 1
                if step % 3 == 0:
                    check_cards(s)
            check_cards(s)
            assert sum(m.bit_count() for m in s.captured) == 52 or s.last_capturer is None
