"""Kontsina: every rule and settled point of docs/RULES-KONTSINA.md, and its worked examples (section 10)."""

from __future__ import annotations

import pytest

from diloti.core.cards import CARDS, mask_of, parse_card, parse_cards
from diloti.core.errors import IllegalMoveError, InvalidPositionError
from diloti.games.diloti.state import State
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions, KontsinaState, score_kontsina
from helpers import hand_of


def moves(s: KontsinaState) -> list[str]:
    return [str(m) for m in s.legal_moves()]


def play(s: KontsinaState, text: str) -> None:
    for m in text.split(", "):
        s.play(m)


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_the_deck_divides_into_whole_deals(players: int, deals: int) -> None:
    s = State.new(players=players, seed=2, game="kontsina")
    assert isinstance(s, KontsinaState)
    assert [len(h) for h in s.hands] == [4] * players and len(s.table) == 4
    assert s.stock_size == 4 * players * (deals - 1)
    while not s.is_over:
        s.push(s.legal_moves()[0])
    assert s.deal_no == deals


def test_every_player_scores_alone_unless_partners() -> None:
    assert State.new(players=3, seed=1, game="kontsina").sides == 3
    assert State.new(players=4, seed=1, game="kontsina").sides == 4
    assert State.new(players=4, options=KontsinaOptions(partnerships=True), seed=1, game="kontsina").sides == 2
    with pytest.raises(InvalidPositionError, match="partnerships: expected 4"):
        State.new(players=3, options=KontsinaOptions(partnerships=True), seed=1, game="kontsina")
    with pytest.raises(InvalidPositionError, match="2, 3 or 4"):
        State.new(players=5, seed=1, game="kontsina")


def test_the_first_table_is_never_redealt() -> None:
    front = parse_cards("2C 3C 4C 5C 2D 3D 4D 5D KC KD KH KS")
    deck = front + [c for c in CARDS if c not in front]
    s = KontsinaState.new(deck=deck, seed=1)
    assert s.table == parse_cards("KC KD KH KS") and s.shuffles == 1


def test_the_player_left_of_the_dealer_leads_every_deal() -> None:
    s = State.new(players=3, dealer=1, seed=5, game="kontsina")
    assert s.turn == 2
    for _ in range(12):
        s.push(s.legal_moves()[0])
    assert s.deal_no == 2 and s.turn == 2


def test_the_worked_legal_moves() -> None:
    s = hand_of("kontsina", ["7S KH 10C 2D", "4D KC AH 9S"], "3C 4H 4S 7D", turn=0, dealer=1, deals=5)
    assert sorted(moves(s)) == sorted(["7S", "7S x 7D", "7S x 3C 4H", "7S x 3C 4S", "KH", "10C", "10C x 3C 7D", "2D"])
    with pytest.raises(IllegalMoveError):
        s.play("7S x 3C 4H 7D")  # a match and a sum at once


def test_the_worked_deal_of_play() -> None:
    s = hand_of("kontsina", ["7S KH 10C 2D", "4D KC AH 9S"], "3C 4H 4S 7D", turn=0, dealer=1, deals=5,
                captured=[[], []])
    play(s, "7S x 3C 4H, 4D x 4S")
    assert s.table == parse_cards("7D")
    play(s, "KH, KC x KH, 2D")
    assert s.table == parse_cards("2D 7D")
    play(s, "9S x 2D 7D")
    assert s.table == []  # clearing the table scores nothing
    play(s, "10C, AH")
    assert s.table == parse_cards("AH 10C")
    assert mask_of(parse_cards("7S 3C 4H")) & s.captured[0] == mask_of(parse_cards("7S 3C 4H"))
    assert bin(s.captured[1] & mask_of(parse_cards("4D 4S KC KH 9S 2D 7D"))).count("1") == 7
    assert s.turn == 0 and s.stock_size == 32 and [len(h) for h in s.hands] == [4, 4]


def test_a_match_takes_one_card_of_several_and_the_player_chooses() -> None:
    s = hand_of("kontsina", ["5D 10S", "2H 3H"], "5C 5H 10D", turn=0, deals=0)
    assert sorted(moves(s)) == sorted(["5D", "5D x 5C", "5D x 5H", "10S", "10S x 10D", "10S x 5C 5H"])
    f = hand_of("kontsina", ["5D 10S", "2H 3H"], "5C 5H 10D", turn=0, forced_capture=True)
    assert sorted(moves(f)) == sorted(["5D x 5C", "5D x 5H", "10S x 10D", "10S x 5C 5H"])


def test_capturing_is_optional_and_a_face_card_may_be_laid_beside_its_rank() -> None:
    s = hand_of("kontsina", ["KH 2C", "3D 4D"], "KC", turn=0)
    assert sorted(moves(s)) == ["2C", "KH", "KH x KC"]
    s.play("KH")
    assert s.table == parse_cards("KC KH")


def test_forced_capture_leaves_other_cards_free_to_lay() -> None:
    s = hand_of("kontsina", ["KH 2C", "3D 4D"], "KC", turn=0, forced_capture=True)
    assert sorted(moves(s)) == ["2C", "KH x KC"]


def test_an_ace_never_captures_by_sum_and_face_cards_are_never_summed() -> None:
    s = hand_of("kontsina", ["AD 2S", "3D 4D"], "AC AH QC", turn=0)
    assert sorted(moves(s)) == sorted(["AD", "AD x AC", "AD x AH", "2S", "2S x AC AH"])


def test_on_an_empty_table_only_lays() -> None:
    s = hand_of("kontsina", ["AD 2S", "3D 4D"], "", turn=0)
    assert moves(s) == ["AD", "2S"]


def test_the_last_capturer_takes_the_leftovers_and_no_capture_gives_them_to_no_one() -> None:
    s = hand_of("kontsina", ["9C", "KD"], "", turn=0, dealer=1, last_capturer=0)
    play(s, "9C, KD")
    assert s.is_over and s.swept == mask_of(parse_cards("9C KD"))
    t = hand_of("kontsina", ["9C", "KD"], "", turn=0, dealer=1, last_capturer=None)
    play(t, "9C, KD")
    assert t.is_over and not t.swept and t.table == parse_cards("9C KD")


def test_the_worked_scored_hands() -> None:
    clubs = [c for c in CARDS if c % 4 == 0]
    seat0 = mask_of(clubs[:8]) | mask_of([c for c in CARDS if c % 4 == 2][:13]) | mask_of(
        [c for c in CARDS if c % 4 == 3][:9])
    assert seat0.bit_count() == 30 and seat0 & (1 << 4)
    seat1 = ((1 << 52) - 1) & ~seat0
    x, y = score_kontsina([seat0, seat1])
    assert (x.cards_points, x.clubs_points, x.two_of_clubs, x.total) == (2, 1, 1, 4)
    assert (y.ten_of_diamonds, y.total) == (1, 1)
    # three players: cards 20, 20, 12 and clubs 5, 5, 3 (seat 0 has the 2C, seat 1 the 10D): 1, 1, 0
    two_c, ten_d = parse_card("2C"), parse_card("10D")
    others = [c for c in CARDS if c % 4 and c != ten_d]
    club_rest = [c for c in clubs if c != two_c]
    a = [two_c, *club_rest[:4], *others[:15]]
    b = [*club_rest[4:9], ten_d, *others[15:29]]
    c = [*club_rest[9:], *others[29:]]
    assert [len(a), len(b), len(c)] == [20, 20, 12]
    assert [s.total for s in score_kontsina([mask_of(a), mask_of(b), mask_of(c)])] == [1, 1, 0]


def test_a_hand_is_worth_five_points_at_most() -> None:
    g = KontsinaGame(players=2, seed=3)
    while not g.is_over:
        g.push(g.state.legal_moves()[-1])
    assert all(sum(r.points) <= 5 for r in g.rounds)
    assert g.scores == [sum(r.points[i] for r in g.rounds) for i in (0, 1)]


def test_the_end_of_the_game_and_its_tiebreak() -> None:
    opts = KontsinaOptions()
    assert KontsinaGame.decide(opts, [(22, 22, 19)]) is None
    assert KontsinaGame.decide(opts, [(22, 22, 19), (1, 2, 2)]) == 1
    assert KontsinaGame.decide(opts, [(19, 18, 21)]) == 2
    assert KontsinaGame.decide(KontsinaOptions(target=5), [(3, 1), (3, 1)]) == 0


def test_the_deal_passes_to_the_left() -> None:
    g = KontsinaGame(players=3, seed=4, first_dealer=2)
    while not g.is_over:
        g.push(g.state.legal_moves()[-1])  # the last move of a card is a capture when it has one
    assert [r.dealer for r in g.rounds] == [(2 + i) % 3 for i in range(len(g.rounds))]
