"""diloti.games.diloti.choices: its answers equal the full list's on every option mix, and its work stays
bounded on tables whose moves number in the millions."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest

from diloti.core.cards import Card, mask_of, parse_cards
from diloti.core.choice import choices_in
from diloti.core.errors import IllegalMoveError
from diloti.core.moves import CAPTURE, GROUP, LAY, PLAIN, Declaration, Move, MoveKind
from diloti.core.phase import Phase
from diloti.games.diloti.choices import LIST_LIMIT, Query, candidate_moves, covers, sample_moves
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State

FLAGS = ("forced_capture", "liberal_groups", "liberal_raise", "liberal_capture", "soy", "self_raise")
# A 31-card table grown by lays: millions of legal moves (every way to split it into captures and declarations).
BIG = parse_cards("AD AH AS 2D 3C 3H 3S 4C 4D 4H 4S 5C 5D 5H 5S 6D 6H 7D 7H 8C 8D 8H 8S 9C 9H 9S 10C 10D 10H JH KD")
BIG_HAND = parse_cards("AC 2C 6C 7C 9D 10S")


def counts(*values: int) -> tuple[int, ...]:
    return tuple(sum(1 for v in values if v == i) for i in range(11))


def positions(seed: int, games: int, max_items: int = 12) -> Iterator[State]:
    """Positions of random games under random option mixes, leaning to declarations and lays (piles and larger
    tables): each in the play phase with at most ``max_items`` table items."""
    rng = random.Random(seed)
    for _ in range(games):
        opts = Options.from_dict({f: rng.random() < 0.35 for f in FLAGS})
        s = State.new(players=rng.choice([2, 4]), options=opts, seed=rng.randrange(10**6))
        lay_bias = rng.random() * 0.6
        while not s.is_over:
            if s.phase == Phase.PLAY and len(s.table) + len(s.declarations) <= max_items:
                yield s
            moves = s.candidate_moves()[0]
            lays = [m for m in moves if m.kind == LAY]
            decl = [m for m in moves if m.kind in (PLAIN, GROUP)]
            r = rng.random()
            s.push(rng.choice(lays) if lays and r < lay_bias else
                   rng.choice(decl) if decl and r < 0.7 else rng.choice(moves))


def heads_of(legal: list[Move], card: Card) -> list[tuple[MoveKind, int]]:
    return sorted({(m.kind, m.value) for m in legal if m.card == card})


def test_covers_examples() -> None:
    assert covers(counts(9), counts(1), 10)
    assert not covers(counts(9, 9), counts(1), 10)  # one ace for two nines
    assert covers(counts(), counts(3), 10)  # nothing required
    assert covers(counts(4, 3), counts(3), 10)  # 4+3+3
    assert not covers(counts(8), counts(1), 10)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_heads_and_exists_agree_with_the_list(seed: int) -> None:
    rng = random.Random(seed)
    asked = positives = 0
    for s in positions(seed, 12):
        legal = s.legal_moves()
        q = Query(s.turn, s.hands[s.turn], s.table, s.declarations, s.options)
        items = q.items()
        for card in sorted(set(s.hands[s.turn])):
            mine = [m for m in legal if m.card == card]
            assert sorted(q.heads(card)) == heads_of(legal, card), (s.describe(), card)
            for kind, value in [*heads_of(legal, card), (PLAIN, 7), (GROUP, 9), (CAPTURE, 3)]:
                for _ in range(4):
                    inc = exc = 0
                    for it in items:
                        r = rng.random()
                        if r < 0.25:
                            inc |= it
                        elif r < 0.45:
                            exc |= it
                    want = any(m.kind == kind and m.value == value and m.mask & inc == inc and not m.mask & exc
                               for m in mine)
                    assert q.exists(card, kind, value, inc, exc) == want, (s.describe(), card, kind, value, inc, exc)
                    asked += 1
                    positives += want
        # Every legal move is found from any part of it, whatever else is barred.
        for m in rng.sample(legal, min(len(legal), 8)):
            inside = [it for it in items if it & m.mask]
            outside = [it for it in items if not it & m.mask]
            inc = sum(it for it in inside if rng.random() < 0.6)
            exc = sum(it for it in outside if rng.random() < 0.6)
            assert m.card is not None and q.exists(m.card, m.kind, m.value, inc, exc), (s.describe(), m, inc, exc)
    assert asked > 1000 and positives > 50  # the check reached both answers


@pytest.mark.parametrize("seed", [4, 5])
def test_choices_and_witnesses_agree_with_the_list(seed: int) -> None:
    rng = random.Random(seed)
    for s in positions(seed, 10, max_items=14):
        legal = s.legal_moves()
        if len(legal) > 5000:
            continue
        q = Query(s.turn, s.hands[s.turn], s.table, s.declarations, s.options)
        items = q.items()
        for card in sorted(set(s.hands[s.turn])):
            # the chosen items: nothing, or a part of one of the card's moves
            mine = [m for m in legal if m.card == card]
            picks = [0, *(sum(it for it in items if it & m.mask and rng.random() < 0.7) for m in mine[:3])]
            for chosen in picks:
                assert q.choices(card, chosen) == choices_in(legal, card, chosen, items), (s.describe(), card)
            for kind, value in heads_of(legal, card):
                for most in (True, False):
                    w = q.witness(card, kind, value, most=most, descending=rng.random() < 0.5)
                    assert w in legal, (s.describe(), card, kind, value, w)


def test_sample_on_small_tables_is_the_list() -> None:
    for s in positions(6, 6):
        moves, complete = s.candidate_moves()
        assert complete and moves == s.legal_moves()


def test_a_large_table_is_sampled_within_bounds() -> None:
    s = State.from_parts(hands=[BIG_HAND, parse_cards("QC")], table=BIG, turn=0, stock=[], check=False)
    t = time.process_time()
    moves, complete = s.candidate_moves()
    view = s.view(0)
    q = Query(0, BIG_HAND, BIG, [], Options())
    heads = {c: q.heads(c) for c in BIG_HAND}
    choices = [q.choices(c, 0) for c in BIG_HAND]
    spent = time.process_time() - t
    assert not complete and not view.complete and list(view.legal) == moves
    assert 0 < len(moves) <= 400
    assert all(s.is_legal(m) for m in moves)
    # every kind and value of every card is in the sample
    assert {(m.card, m.kind, m.value) for m in moves} == {(c, k, v) for c in BIG_HAND for k, v in heads[c]}
    # the lay of each card, and captures taking all the aces
    assert Move.parse("AC x AD AH AS") in moves and Move.parse("9D") in moves
    assert all(ch.open for ch in choices)
    assert spent < 30  # generous: the point is that it ends (the full list is millions of moves)


def test_large_tables_play_by_notation_and_refuse_illegal_moves() -> None:
    s = State.from_parts(hands=[BIG_HAND, parse_cards("QC")], table=BIG, turn=0, stock=[], check=False)
    move = s.play("10S x AD 9C 2D 8C")  # not in the sample: read and checked on its own
    assert move == Move.parse("10S x AD 2D 8C 9C")
    s = State.from_parts(hands=[BIG_HAND, parse_cards("QC")], table=BIG, turn=0, stock=[], check=False)
    with pytest.raises(IllegalMoveError):
        s.play("10S x AD 9C 2D")


def test_forced_capture_on_a_large_table() -> None:
    opts = Options(forced_capture=True)
    q = Query(0, BIG_HAND, BIG, [], opts)
    for card in BIG_HAND:
        # a card that can capture must: only captures, each leaving nothing it could have taken
        assert q.heads(card) == [(CAPTURE, Card(card).value)]
        w = q.witness(card, CAPTURE, Card(card).value)
        assert w is not None and q.is_legal(w)


def test_declarations_on_a_large_table() -> None:
    own = Declaration(mask_of(parse_cards("3D 5H")), 8, PLAIN, 1)
    table = [c for c in BIG if c not in own.cards]
    q = Query(0, parse_cards("AC 9D 8D"), table, [own], Options())
    assert (PLAIN, 9) in q.heads(Card("AC"))  # raising the opponent's 8 to 9
    assert q.exists(Card("AC"), PLAIN, 9, include=own.mask)
    assert q.exists(Card("8D"), CAPTURE, 8, include=own.mask)
    assert q.witness(Card("AC"), GROUP, 1) is None  # no second ace held
    assert candidate_moves(0, parse_cards("AC 9D 8D"), table, [own], Options())[1] is False
    assert LIST_LIMIT >= 100
    assert sample_moves(0, parse_cards("AC"), table, [own], Options())  # a lone card still has moves


def test_the_one_part_count_is_a_lower_bound() -> None:
    from diloti.games.diloti.choices import _one_part_captures

    for s in positions(7, 8, max_items=14):
        if s.options.forced_capture or any(d.owner == s.turn for d in s.declarations):
            continue
        legal = s.legal_moves()
        if len(legal) < 20000:
            assert _one_part_captures(s.hands[s.turn], s.table) <= sum(m.kind == CAPTURE for m in legal)


def test_candidates_worked_out_elsewhere_are_kept_for_their_position_only() -> None:
    import pickle

    from diloti.core.choice import candidates_after

    s = State.from_parts(hands=[BIG_HAND, parse_cards("2H 6S 7S")], table=BIG, turn=0, stock=[], check=False)
    lay = Move.parse("AC")
    key, moves, complete = candidates_after(pickle.loads(pickle.dumps(s.copy())), lay)  # as a worker does
    assert s.may_sample() and not complete
    s.keep_candidates(key, [moves[0]], complete)  # a marked list: one move
    assert s.candidate_moves()[0] != [moves[0]]  # not this position's
    s.push(lay)
    assert s.candidate_moves() == ([moves[0]], False)  # the next position's: kept
    s.pop()
    s.push(Move.parse("9D"))
    assert s.candidate_moves()[0] != [moves[0]]  # another position: worked out again
    assert pickle.loads(pickle.dumps(s)).candidate_moves() == s.candidate_moves()
