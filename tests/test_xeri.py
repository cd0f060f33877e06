"""Xeri: every rule and settled point of docs/RULES-XERI.md, and its worked examples (section 11)."""

from __future__ import annotations

import pytest

from diloti.core.cards import CARDS, Card, parse_card, parse_cards
from diloti.core.errors import IllegalMoveError, InvalidPositionError, OptionsError
from diloti.core.moves import CAPTURE, LAY
from diloti.games.diloti.state import State
from diloti.games.xeri.rules import XeriGame, XeriOptions, XeriState, hands_won, pile_must_be_redealt, score_xeri
from helpers import hand_of


def play(s: XeriState, cards: str) -> None:
    for c in cards.split():
        s.play(c)


def test_a_hand_deals_six_each_and_a_pile_of_four() -> None:
    s = State.new(seed=4, game="xeri")
    assert isinstance(s, XeriState)
    assert [len(h) for h in s.hands] == [6, 6] and len(s.table) == 4 and s.stock_size == 36
    assert s.turn == 1 and s.dealer == 0  # the non-dealer leads


def test_four_players_play_in_partnerships_only() -> None:
    s = State.new(players=4, options=XeriOptions(partnerships=True), seed=1, game="xeri")
    assert [len(h) for h in s.hands] == [6] * 4 and s.stock_size == 24 and s.sides == 2
    with pytest.raises(InvalidPositionError, match="partnerships"):
        State.new(players=4, seed=1, game="xeri")
    with pytest.raises(InvalidPositionError, match="expected 2 or 4"):
        State.new(players=3, seed=1, game="xeri")


def _deck(hands: str, pile: str) -> list[Card]:
    front = parse_cards(hands) + parse_cards(pile)
    return front + [c for c in CARDS if c not in front]


HANDS = "2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D 7D"


@pytest.mark.parametrize("pile", ["8C 9H KD JS", "8C 9H 9D 9S"])
def test_the_first_pile_is_redealt_keeping_the_hands(pile: str) -> None:
    s = XeriState.new(deck=_deck(HANDS, pile), seed=3)
    assert sorted(s.hands[0] + s.hands[1]) == sorted(parse_cards(HANDS))
    assert s.table != parse_cards(pile) and not pile_must_be_redealt(s.table)
    assert s.shuffles > 1  # the stock was shuffled from the seed: the hand replays from seed and deck
    again = XeriState.new(deck=_deck(HANDS, pile), seed=3)
    assert again.table == s.table and again.remaining_stock == s.remaining_stock


@pytest.mark.parametrize("pile", ["JC 9H KD 7S", "8C 8H KD 7S", "8C 9H 8D 7S"])
def test_only_the_top_two_cards_are_checked(pile: str) -> None:
    s = XeriState.new(deck=_deck(HANDS, pile), seed=3)
    assert s.table == parse_cards(pile)
    t = XeriState.new(options=XeriOptions(pile_any_pair_redeal=True), deck=_deck(HANDS, pile), seed=3)
    assert (t.table == parse_cards(pile)) == (pile.startswith("JC"))  # a jack below the top still stays


def test_every_card_is_a_legal_move_and_a_capture_is_automatic() -> None:
    s = hand_of("xeri", ["7H 3S JH 2C", "3D JC 5C 8H"], "4C 9H KD 7S", turn=0, deals=0)
    legal = s.legal_moves()
    assert [m.card for m in legal] == s.hands[0]
    kinds = {str(m.card): m.kind for m in legal}
    assert kinds == {"2C": LAY, "3S": LAY, "7H": CAPTURE, "JH": CAPTURE}
    assert all(m.cards == tuple(sorted(s.table)) for m in legal if m.kind == CAPTURE)


def test_only_the_top_card_is_matched() -> None:
    s = hand_of("xeri", ["9S 2C", "3D 4D"], "4C 9H KD 7S", turn=0)
    s.play("9S")
    assert s.table[-1] == parse_card("9S") and len(s.table) == 5


def test_a_jack_on_an_empty_pile_captures_nothing() -> None:
    s = hand_of("xeri", ["JH 2C", "3D 4D"], "", turn=0)
    assert [m.kind for m in s.legal_moves()] == [LAY, LAY]
    s.play("JH")
    assert s.table == [parse_card("JH")] and s.last_capturer is None


def test_the_worked_deal_of_play() -> None:
    s = hand_of("xeri", ["7H 3S JH JD 2C QS", "3D JC 5C 8H 2D 6H"], "4C 9H KD 7S", turn=0, dealer=1, deals=2)
    play(s, "7H 3D 3S JC JH 5C JD 8H 2C 2D QS 6H")
    assert [bin(m).count("1") for m in s.captured] == [11 + 36 - 24, 3]  # the 12 undealt-elsewhere cards: side 0
    assert s.sweeps == [2, 0] and s.jack_xeri == [1, 0]
    assert s.table == parse_cards("QS 6H")  # the pile stays into the next deal
    assert s.turn == 0 and s.stock_size == 12 and [len(h) for h in s.hands] == [6, 6]


def test_a_jack_on_a_lone_card_of_another_rank_is_no_xeri() -> None:
    s = hand_of("xeri", ["JD 2C", "5C 4D"], "", turn=1)
    play(s, "5C JD")
    assert s.sweeps == [0, 0] and s.table == [] and s.last_capturer == 0


def test_partners_share_captures_and_xeris() -> None:
    s = hand_of("xeri", ["9C 2C", "4D 5D", "4H 3H", "6C 7C"], "", turn=0, dealer=3,
                partnerships=True, players=4)
    play(s, "9C 4D 4H")  # seat 2 takes 9C 4D: not a xeri (two cards)
    assert s.sweeps == [0, 0] and s.last_capturer == 2 and s.side_of(2) == 0
    play(s, "6C 2C")
    assert s.table == parse_cards("6C 2C")
    play(s, "5D 3H 7C")
    s2 = hand_of("xeri", ["9C 2C", "4D 5D", "9D 3H", "6C 7C"], "4S", turn=1, dealer=0,
                 partnerships=True, players=4)
    play(s2, "4D")  # seat 1 takes the lone 4S: a xeri for side 1
    play(s2, "9D 6C")  # seat 2 lays 9D; seat 3 lays 6C on it
    assert s2.sweeps == [0, 1]


def test_a_xeri_on_a_lone_card_carried_into_a_new_deal() -> None:
    s = hand_of("xeri", ["5S", "9C"], "", turn=0, dealer=1, deals=1)
    play(s, "5S 9C")  # the pile 5S 9C carries over; nobody captured
    assert s.table == parse_cards("5S 9C") and s.stock_size == 0
    s2 = hand_of("xeri", ["4H", "9C"], "5S", turn=1, dealer=0, deals=1)
    play(s2, "9C")  # no capture: 9C on 5S
    assert s2.sweeps == [0, 0]


def test_the_last_card_can_make_a_xeri_unless_the_option_says_no() -> None:
    s = hand_of("xeri", ["9C", "9D"], "", turn=0, dealer=1, last_capturer=1)
    play(s, "9C 9D")
    assert s.is_over and s.sweeps == [0, 1] and s.score()[1].xeri_points == 10
    t = hand_of("xeri", ["9C", "9D"], "", turn=0, dealer=1, last_capturer=1, no_xeri_last_card=True)
    play(t, "9C 9D")
    assert t.is_over and t.sweeps == [0, 0] and bin(t.captured[1]).count("1") == 2


def test_the_end_of_hand_sweep_goes_to_the_last_capturer_and_is_no_xeri() -> None:
    s = hand_of("xeri", ["9C", "4H"], "", turn=0, dealer=1, last_capturer=1)
    play(s, "9C 4H")
    assert s.is_over and s.sweeps == [0, 0] and s.swept and bin(s.captured[1]).count("1") == 2


def test_with_no_capture_all_hand_the_leftovers_go_to_no_one() -> None:
    s = hand_of("xeri", ["9C", "4H"], "", turn=0, dealer=1, last_capturer=None)
    play(s, "9C 4H")
    assert s.is_over and not s.swept and s.table == parse_cards("9C 4H")
    assert sum(bin(m).count("1") for m in s.captured) == 50


def test_the_worked_scored_hand() -> None:
    from diloti.core.cards import mask_of

    a = mask_of(parse_cards("AC AD AH KC KD QC QD QH JC JD 10C 10D 2C")) | mask_of(range(8, 23))
    b = mask_of(parse_cards("AS KH KS QS JH JS 10H 10S")) | mask_of(range(23, 36)) | mask_of(range(5, 8))
    assert a & b == 0 and (a | b).bit_count() == 52
    x, y = score_xeri([a, b], [2, 1], [1, 0], XeriOptions())
    assert (x.cards, x.cards_points, x.honours, x.ten_of_diamonds, x.two_of_clubs, x.total) == (28, 3, 12, 1, 1, 37)
    assert (y.cards, y.honours, y.total) == (24, 8, 18)
    assert score_xeri([a, b], [2, 1], [1, 0], XeriOptions(xeri_jack_double=True))[0].total == 47


def test_cards_are_worth_25_a_hand_and_a_26_26_tie_scores_nobody() -> None:
    from diloti.core.cards import mask_of

    half = mask_of(range(0, 52, 2))
    x, y = score_xeri([half, ((1 << 52) - 1) & ~half], [0, 0], [0, 0], XeriOptions())
    assert x.cards == y.cards == 26 and x.cards_points == y.cards_points == 0 and x.total + y.total == 22
    x, y = score_xeri([(1 << 52) - 1, 0], [0, 0], [0, 0], XeriOptions())
    assert x.total == 25 and y.total == 0


def test_equal_hand_points_make_a_drawn_hand() -> None:
    assert hands_won([(20, 20), (30, 5)]) == [1, 0]


def test_the_game_stops_when_decided_and_a_tie_plays_more_hands() -> None:
    opts = XeriOptions()
    assert XeriGame.decide(opts, [(30, 1)] * 5 + [(1, 30)] * 3 + [(5, 5)]) == 0  # 5 > 3 + 1: no tenth hand
    assert XeriGame.decide(opts, [(30, 1)] * 5 + [(1, 30)] * 3) is None
    tied = [(30, 1)] * 4 + [(1, 30)] * 4 + [(5, 5)] * 2
    assert XeriGame.decide(opts, tied) is None
    assert XeriGame.decide(opts, [*tied, (5, 5)]) is None  # a drawn extra hand decides nothing
    assert XeriGame.decide(opts, [*tied, (5, 5), (1, 2)]) == 1
    assert XeriGame.decide(XeriOptions(hands=2), [(3, 1), (3, 1)]) == 0


def test_the_game_by_points() -> None:
    opts = XeriOptions(game_by_points=True)
    assert XeriGame.decide(opts, [(96, 88), (12, 30)]) == 1
    assert XeriGame.decide(opts, [(96, 88)]) is None
    assert XeriGame.decide(opts, [(101, 101)]) is None  # equal totals play another hand


def test_a_whole_game_alternates_the_deal_and_counts_hands() -> None:
    g = XeriGame(seed=11)
    while not g.is_over:
        g.push(g.state.legal_moves()[-1])
    dealers = [r.dealer for r in g.rounds]
    assert dealers == [i % 2 for i in range(len(dealers))]
    won = hands_won([r.points for r in g.rounds])
    assert won[g.winner or 0] > won[1 - (g.winner or 0)]
    assert g.scores == [sum(r.points[i] for r in g.rounds) for i in (0, 1)]


def test_options_are_checked_and_named() -> None:
    with pytest.raises(OptionsError, match="unknown xeri option 'soy'"):
        XeriOptions.from_text("soy")
    assert XeriOptions.help("hands") == "the hands in a game decided by hands won"
    assert XeriOptions.from_text(XeriOptions(target=151, game_by_points=True).to_text()).target == 151


def test_a_move_reads_as_the_card_alone_or_in_full() -> None:
    s = hand_of("xeri", ["7H 3S", "3D 4D"], "4C 7S", turn=0)
    assert s.play("7h") == s.pop()
    assert str(s.play("7H x 4C 7S")) == "7H x 4C 7S"
    with pytest.raises(IllegalMoveError):
        s.play("QS")
