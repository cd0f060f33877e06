"""Rules tests: the worked examples of the rule pages (seeds/000, 001, 003) and RULES.md."""

from __future__ import annotations

import random

import pytest

from diloti.core.cards import Card, parse_cards
from diloti.core.errors import IllegalMoveError, InvalidPositionError
from diloti.core.moves import CAPTURE, GROUP, LAY, PLAIN, Move
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import DECIDE, OVER, PLAY, State
from helpers import make, mv, pile


def of(state: State, card: str) -> set[Move]:
    return {m for m in state.legal_moves() if m.card is not None and str(m.card) == card}


def caps(state: State, card: str) -> set[Move]:
    return {m for m in of(state, card) if m.kind == CAPTURE}


def S(*texts: str) -> set[Move]:
    return {mv(t) for t in texts}


# ---------------------------------------------------------------- captures (seed 000)
def test_capture_3_5_with_8() -> None:
    s = make(["8H 2C", "KC"], "3D 5S")
    assert caps(s, "8H") == S("8H x 3D 5S")


def test_capture_a_4_5_with_10() -> None:
    s = make(["10H 2C", "KC"], "AD 4S 5C")
    assert caps(s, "10H") == S("10H x AD 4S 5C")


def test_capture_2_4_6_with_6_any_choice_of_parts() -> None:
    s = make(["6H 2C", "KC"], "2D 4S 6C")
    assert caps(s, "6H") == S("6H x 2D 4S 6C", "6H x 2D 4S", "6H x 6C")


def test_capture_a_4_5_8_with_9() -> None:
    s = make(["9H 2C", "KC"], "AD 4S 5C 8C")
    assert mv("9H x AD 4S 5C 8C") in caps(s, "9H")
    assert caps(s, "9H") == S("9H x AD 4S 5C 8C", "9H x AD 8C", "9H x 4S 5C")


def test_capture_a_2_3_6_7_with_10_three_choices() -> None:
    s = make(["10H 2C", "KC"], "AD 2S 3C 6C 7D")
    assert caps(s, "10H") == S("10H x AD 2S 7D", "10H x AD 3C 6C", "10H x 3C 7D")


def test_capture_german_example_nine_takes_everything_of_nine() -> None:
    # seed 003: a 9 takes 9, 9, A+8, 3+6 and a pile of nine; or less.
    nine = pile("4H 5H", 9, "plain", 1)
    s = make(["9C 2C", "KC"], "9D 9S AD 8C 3C 6C", (nine,))
    everything = mv("9C x 9D 9S AD 8C 3C 6C 4H 5H")
    assert everything in caps(s, "9C")
    assert mv("9C x 4H 5H") in caps(s, "9C")


def test_group_is_captured_only_by_its_value() -> None:
    # A group of 9s and an Ace cannot be taken together by a 10; a group of 9s and a 9 by a 9.
    g9 = pile("9H 9S", 9, "group", 1)
    s = make(["10C 9C 2C", "KC"], "AD 9D 4S 5S", (g9,))
    assert not any(m.mask & g9.mask for m in caps(s, "10C"))
    assert mv("9C x 9H 9S 9D") in caps(s, "9C")
    assert mv("9C x 9H 9S 4S 5S") in caps(s, "9C")


def test_plain_declaration_captured_with_others_of_its_value() -> None:
    seven = pile("3D 4D", 7, "plain", 1)
    s = make(["7C 2C", "KC"], "7H", (seven,))
    assert caps(s, "7C") == S("7C x 3D 4D 7H", "7C x 3D 4D", "7C x 7H")


def test_capture_is_not_forced_to_be_maximal() -> None:
    # RULES.md: A 4 5 9 on the table and a 9 played may take just 4+5.
    s = make(["9C 2C", "KC"], "AD 4S 5S 9D")
    assert mv("9C x 4S 5S") in caps(s, "9C")
    assert mv("9C x 4S 5S 9D") in caps(s, "9C")


# ------------------------------------------------------------------------ face cards
def test_face_card_takes_exactly_one_of_its_rank() -> None:
    s = make(["QH 2C", "KC"], "QD QS KS 2D")
    assert of(s, "QH") == S("QH x QD", "QH x QS")


def test_face_card_cannot_be_laid_on_its_rank_but_can_elsewhere() -> None:
    s = make(["QH KH", "KC"], "QD 2D")
    assert mv("QH") not in of(s, "QH")
    assert of(s, "KH") == S("KH")


def test_face_cards_are_never_summed_or_declared() -> None:
    s = make(["5H 10C", "KC"], "JD 5D")
    assert all(not (m.mask >> 41 & 1) for m in s.legal_moves() if m.card == Card("10C"))


def test_ten_and_jack_last_cards_example() -> None:
    # seed 000: table 10, J; one card each. The player with a J must take the J, leaving the 10
    # alone; the opponent's 10 then takes a xeri.
    s = make(["JH", "10S"], "10D JC", rest="captured", plays=46, dealer=1)
    assert s.legal_moves() == [mv("JH x JC")]
    s.push(mv("JH x JC"))
    s.push(mv("10S x 10D"))
    assert s.sweeps == [0, 1] and s.is_over


# ------------------------------------------------------------------ plain declarations
def test_plain_declaration_examples() -> None:
    s = make(["3H 8C 10C", "KC"], "5D AS 3S")
    assert mv("3H + 5D = 8") in of(s, "3H")
    s = make(["6H 10C", "KC"], "AS 3S")
    assert mv("6H + AS 3S = 10") in of(s, "6H")


def test_plain_declaration_needs_a_card_of_its_value() -> None:
    s = make(["3H 9C", "KC"], "5D")
    assert not any(m.kind == PLAIN for m in of(s, "3H"))


def test_four_on_four_is_plain_eight_or_group_of_fours() -> None:
    s = make(["4H 4S 8C", "KC"], "4D")
    assert {mv("4H + 4D = 8"), mv("4H + 4D = 4G")} <= of(s, "4H")
    assert mv("4H + 4D = 8") != mv("4H + 4D = 4G")


def test_raise_opponents_declaration() -> None:
    four = pile("AD 3D", 4, "plain", 1)
    s = make(["5H 9C", "KC"], "", (four,))
    assert mv("5H + AD 3D = 9") in of(s, "5H")
    s.push(mv("5H + AD 3D = 9"))
    assert s.declarations[0].owner == 0 and s.declarations[0].value == 9 and s.declarations[0].kind == PLAIN


def test_no_raise_of_own_or_partners_declaration() -> None:
    own = pile("AD 3D", 4, "plain", 0)
    s = make(["5H 9C 4C", "KC"], "", (own,))
    assert not any(m.kind == PLAIN for m in s.legal_moves())
    partner = pile("AD 3D", 4, "plain", 2)
    s4 = make(["5H 9C", "KC", "2C", "KD"], "", (partner,))
    assert not any(m.kind == PLAIN for m in s4.legal_moves())


def test_raise_back_after_being_raised() -> None:
    four = pile("AD 3D", 4, "plain", 1)
    s = make(["5H 9C 2C", "AC 10C KC"], "", (four,))
    s.push(mv("5H + AD 3D = 9"))
    assert mv("AC + AD 3D 5H = 10") in s.legal_moves()


def test_raise_never_above_ten() -> None:
    nine = pile("4D 5D", 9, "plain", 1)
    s = make(["2H 10C", "KC"], "", (nine,))
    assert not any(m.kind == PLAIN for m in s.legal_moves())


def test_standard_raise_takes_no_loose_cards() -> None:
    six = pile("4D 2D", 6, "plain", 1)
    s = make(["AH 10C", "KC"], "3S", (six,))
    assert mv("AH + 2D 4D 3S = 10") not in s.legal_moves()
    s = make(["AH 10C", "KC"], "3S", (six,), liberal_raise=True)
    assert mv("AH + 2D 4D 3S = 10") in s.legal_moves()  # seed 000 example c


def test_a_declarer_cannot_raise_its_own_pile_in_through_a_liberal_raise() -> None:
    # Seat 0 owns 5 = AC 4H; raising the opponent's 4 = 2C 2S with AS and taking its own pile in
    # is a plain declaration by a declarer: only self-raise allows it (found by a long cross-check).
    own, theirs = pile("AC 4H", 5, "plain", 0), pile("2C 2S", 4, "plain", 1)
    move = mv("AS + AC 2C 2S 4H = 10")
    s = make(["AS 3S 5D 10C KD", "4C 4S 9H 10D JD"], "5C 9D", (own, theirs), liberal_raise=True)
    assert move not in s.legal_moves()
    assert all(m.kind != PLAIN for m in s.legal_moves())
    s = make(["AS 3S 5D 10C KD", "4C 4S 9H 10D JD"], "5C 9D", (own, theirs), liberal_raise=True, self_raise=True)
    assert move in s.legal_moves()


# ------------------------------------------------------------------ group declarations
def test_group_of_two_fives() -> None:
    s = make(["5H 5C", "KC"], "5D")
    assert mv("5H + 5D = 5G") in of(s, "5H")


def test_group_of_three_sixes() -> None:
    s = make(["6H 6C", "KC"], "6D 4S 2S")
    assert mv("6H + 6D 4S 2S = 6G") in of(s, "6H")


def test_group_of_two_eights_from_six_two_and_eight() -> None:
    s = make(["6H 8C", "KC"], "8D 2S")
    assert mv("6H + 8D 2S = 8G") in of(s, "6H")


def test_group_raising_a_plain_declaration() -> None:
    eight = pile("5D 3D", 8, "plain", 1)
    s = make(["AH 9C", "KC"], "9S", (eight,))
    assert mv("AH + 3D 5D 9S = 9G") in of(s, "AH")


def test_group_raising_opponents_five_onto_own_seven() -> None:
    seven = pile("3C 4C", 7, "plain", 0)
    five = pile("2D 3D", 5, "plain", 1)
    s = make(["2H 7H", "KC"], "", (seven, five))
    assert mv("2H + 2D 3D 3C 4C = 7G") in of(s, "2H")


def test_adding_to_own_plain_declaration_makes_a_group() -> None:
    six = pile("2C 4C", 6, "plain", 0)
    s = make(["6H 6S", "KC"], "", (six,))
    assert mv("6H + 2C 4C = 6G") in s.legal_moves()


def test_an_owner_cannot_group_its_declaration_into_another_value() -> None:
    # Found on a hidden position (liberal groups + liberal raise): seat 1 owns a plain 5 of 2C 3C and
    # was offered a group of 6s swallowing it. RULES.md, the declarer's obligation: an owner's group
    # move has the owned value and includes the owned declaration.
    five = pile("2C 3C", 5, "plain", 1)
    s = make(["KC 9H", "AC 5H 6S"], "2D 4D", (five,), turn=1, liberal_groups=True, liberal_raise=True)
    legal = s.legal_moves()
    assert mv("AC + 2C 2D 3C 4D = 6G") not in legal
    assert all(m.value == 5 for m in legal if m.kind == GROUP)
    # A group of the owned value that takes the pile in stays legal.
    s = make(["KC 9H", "AC 4S 5H"], "2D 4D", (five,), turn=1, liberal_groups=True, liberal_raise=True)
    assert mv("4S + 2C 3C = 5G") not in s.legal_moves()  # 4S + 5 is 9, not a group of 5s
    assert mv("AC + 2C 2D 3C 4D = 5G") not in s.legal_moves()  # 12 is no multiple of 5
    s = make(["KC 9H", "AC 5H 5S"], "4D", (five,), turn=1, liberal_groups=True, liberal_raise=True)
    assert mv("AC + 2C 3C 4D = 5G") in s.legal_moves()


def test_german_group_of_four_tens() -> None:
    s = make(["3C 10C", "KC"], "7D 10D 10S AH 9H")
    assert mv("3C + 7D 10D 10S AH 9H = 10G") in of(s, "3C")


def test_group_needs_two_components() -> None:
    s = make(["3C 8C", "KC"], "5D")
    assert not any(m.kind == GROUP for m in s.legal_moves())


def test_group_cannot_be_raised() -> None:
    g = pile("4D 4S", 4, "group", 1)
    s = make(["4H 8C", "KC"], "", (g,))
    assert not any(m.kind == PLAIN and m.mask & g.mask for m in s.legal_moves())


def test_extreme_case_sequence() -> None:
    # seed 000: table 2 3 4 8; A forms a group of 8s; 4 on 2 makes 6; 2 raises it to 8 into the
    # group; opponent lays an A; 7 on the A into the group; an 8 added; another 8 takes all ten.
    s = make(["AC 2D 7C 8D 8H 3S", "4H AH 6H KC QC JC"], "2C 3C 4C 8C", rest="stock")
    s.play("AC + 3C 4C 8C = 8G")
    s.play("4H + 2C = 6")
    s.play("2D + 2C 4H AC 3C 4C 8C = 8G")
    s.play("AH")
    s.play("7C + AH AC 2C 2D 3C 4C 4H 8C = 8G")
    s.play("KC") if False else s.push(mv("KC"))
    s.play("8D + AC AH 2C 2D 3C 4C 4H 7C 8C = 8G")
    s.push(mv("QC"))
    assert len(s.declarations) == 1 and s.declarations[0].mask.bit_count() == 10 and s.declarations[0].value == 8
    s.play("8H x AC AH 2C 2D 3C 4C 4H 7C 8C 8D")
    assert not s.declarations and s.captured[0].bit_count() == 11


def test_liberal_groups_examples() -> None:
    seven = pile("4D 3D", 7, "plain", 1)
    s = make(["8H 8C", "KC"], "AS", (seven,))
    assert mv("8H + 3D 4D AS = 8G") not in s.legal_moves()
    s = make(["8H 8C", "KC"], "AS", (seven,), liberal_groups=True)
    assert mv("8H + 3D 4D AS = 8G") in s.legal_moves()  # seed 000 example a
    tens = pile("4C 6C 10S", 10, "group", 0)
    five = pile("2H 3H", 5, "plain", 1)
    s = make(["3D 10D", "KC"], "2S", (tens, five), liberal_groups=True)
    assert mv("3D + 4C 6C 10S 2H 3H 2S = 10G") in s.legal_moves()  # example b


def test_liberal_capture_examples() -> None:
    five = pile("2D 3D", 5, "plain", 1)
    s = make(["6H 2C", "KC"], "AS", (five,))
    assert mv("6H x 2D 3D AS") not in s.legal_moves()
    s = make(["6H 2C", "KC"], "AS", (five,), liberal_capture=True)
    assert mv("6H x 2D 3D AS") in s.legal_moves()  # example d
    seven = pile("3C 4C", 7, "plain", 1)
    nine = pile("4H 5H", 9, "plain", 0)
    s = make(["9S 2C", "KC"], "2S", (seven, nine), liberal_capture=True)
    assert mv("9S x 3C 4C 2S 4H 5H") in s.legal_moves()  # example e


def test_soy_cannot_be_added_to() -> None:
    soy = pile("8D 8S", 8, "group", 1)
    s = make(["8H 8C", "KC"], "", (soy,))
    assert mv("8H + 8D 8S = 8G") in s.legal_moves()
    s = make(["8H 8C", "KC"], "", (soy,), soy=True)
    assert mv("8H + 8D 8S = 8G") not in s.legal_moves()
    assert mv("8H x 8D 8S") in s.legal_moves()


def test_self_raise() -> None:
    own = pile("AD 3D", 4, "plain", 0)
    s = make(["5H 9C 4C", "KC"], "", (own,), self_raise=True)
    assert mv("5H + AD 3D = 9") in s.legal_moves()


# ------------------------------------------------------------------ the declarer's obligation
def test_declarer_cannot_lay_or_declare_again() -> None:
    own = pile("3D 5D", 8, "plain", 0)
    s = make(["2H 8C 9S", "KC"], "9D AS", (own,))
    kinds = {m.kind for m in s.legal_moves()}
    assert LAY not in kinds and PLAIN not in kinds
    assert mv("9S x 9D") in s.legal_moves()
    assert mv("8C x 3D 5D") in s.legal_moves()


def test_declarer_keeps_the_card_for_the_declaration() -> None:
    own = pile("3D 5D", 8, "plain", 0)
    s = make(["8C 2S", "KC"], "8H", (own,))
    assert mv("8C x 8H") not in s.legal_moves()
    assert mv("8C x 3D 5D 8H") in s.legal_moves()
    s = make(["8C 8S", "KC"], "8H", (own,))
    assert mv("8C x 8H") in s.legal_moves()


def test_declarer_example_five_nine_jack() -> None:
    # seed 000: table 5, 9, J. 3 on the 5 declares 8; the opponent takes the 9; the declarer,
    # with neither a J nor a second 9... must capture the declaration; then a J takes a xeri.
    s = make(["3C 8C 2D", "9H JH QD"], "5D 9D JC")
    s.play("3C + 5D = 8")
    s.play("9H x 9D")
    assert s.legal_moves() == [mv("8C x 3C 5D")]
    s.play("8C x 3C 5D")
    s.play("JH x JC")
    assert s.sweeps == [0, 1]


def test_declarer_may_group_including_own() -> None:
    own = pile("3D 5D", 8, "plain", 0)
    s = make(["8C 8S 2H", "KC"], "6H", (own,))
    assert mv("2H + 6H 3D 5D = 8G") in s.legal_moves()
    assert mv("2H + 6H = 8") not in s.legal_moves()


def test_one_declaration_at_a_time_and_a_move_always_exists() -> None:
    own = pile("3D 5D", 8, "plain", 0)
    s = make(["8C"], "", (own,), players=None) if False else make(["8C", "KC"], "4S", (own,))
    assert s.legal_moves() == [mv("8C x 3D 5D")]


def test_partner_may_add_to_declaration_and_takes_it_over() -> None:
    partner = pile("3D 5D", 8, "plain", 2)
    s = make(["8C 8S 2H", "KC", "2C", "KD"], "", (partner,))
    s.play("8C + 3D 5D = 8G")
    assert s.declarations[0].owner == 0 and s.declarations[0].kind == GROUP


# --------------------------------------------------------------------------------- xeri
def test_xeri_examples_three_five_seven() -> None:
    s = make(["3H 9C", "10C 8C"], "3D 5D 7D")
    s.play("3H x 3D")
    assert not any(len(m.cards) == 2 for m in s.legal_moves() if m.kind == CAPTURE)
    s = make(["5H 9C", "10C 8C"], "3D 5D 7D")
    s.play("5H x 5D")
    s.play("10C x 3D 7D")
    assert s.sweeps == [0, 1]


def test_first_card_of_round_is_no_xeri_unless_option() -> None:
    s = make(["9H 2C", "KC"], "4D 5D", plays=0)
    s.play("9H x 4D 5D")
    assert s.sweeps == [0, 0]
    s = make(["9H 2C", "KC"], "4D 5D", plays=0, xeri_first_card=True)
    s.play("9H x 4D 5D")
    assert s.sweeps == [1, 0]


def test_last_card_xeri_and_option() -> None:
    for opt, want in ((False, [0, 1]), (True, [0, 0])):
        s = make(["2H", "9S"], "4D 5D", rest="captured", plays=47, dealer=1, last_capturer=0,
                 no_xeri_last_card=opt)
        s.play("2H")
        s.play("9S x 2H 4D 5D") if False else s.play("9S x 4D 5D")
        # The 2 stays; only a clean sweep is a xeri.
        assert s.sweeps == [0, 0]
        s = make(["2H", "9S"], "4D 5D", rest="captured", plays=47, dealer=1, no_xeri_last_card=opt)
        s.play("2H + 4D = 6") if False else s.push(mv("2H x") if False else mv("2H"))
        s2 = make(["9H", "9S"], "4D 5D", rest="captured", plays=46, dealer=1, no_xeri_last_card=opt)
        s2.play("9H x 4D 5D")
        assert s2.sweeps == [1, 0]  # not the last card
        s3 = make(["3H", "9S"], "4D 5D", rest="captured", plays=46, dealer=1, no_xeri_last_card=opt)
        s3.play("3H")
        s3.play("9S x 4D 5D")
        assert s3.sweeps == [0, 0] and s3.is_over  # the 3 stays for the sweep
        s4 = make(["3H", "9S"], "4D 5D", rest="captured", plays=46, dealer=1, no_xeri_last_card=opt)
        s4.play("3H + 4D 5D = 10") if False else None
        s5 = make(["KH", "9S"], "KD 4D 5D", rest="captured", plays=46, dealer=1, no_xeri_last_card=opt)
        s5.play("KH x KD")
        s5.play("9S x 4D 5D")
        assert s5.sweeps == want and s5.is_over


def test_end_of_round_sweep_is_no_xeri_and_goes_to_last_capturer() -> None:
    s = make(["3H", "2S"], "9D", rest="captured", plays=46, dealer=1, last_capturer=1)
    s.play("3H")
    s.play("2S")
    assert s.is_over and s.sweeps == [0, 0]
    assert s.captured[1] >> Card("9D") & 1 and s.captured[1] >> Card("3H") & 1


# ---------------------------------------------------------------------------- deal
def test_two_player_deal_and_four_deals() -> None:
    s = State.new(2, dealer=1, seed=11)
    assert s.turn == 0 and [len(h) for h in s.hands] == [6, 6] and len(s.table) == 4
    assert s.stock_size == 36
    deck = s.deck
    assert list(s.hands[0]) == sorted(deck[:6]) and list(s.hands[1]) == sorted(deck[6:12])
    deals = 1
    while not s.is_over:
        before = s.deal_no
        s.push(s.legal_moves()[0])
        if s.deal_no != before:
            deals += 1
            assert s.turn == 0 and [len(h) for h in s.hands] == [6, 6]
    assert deals == 4 and s.plays == 48


def test_four_player_deal() -> None:
    s = State.new(4, dealer=2, seed=5)
    assert s.turn == 3 and [len(h) for h in s.hands] == [6, 6, 6, 6] and s.stock_size == 24
    assert list(s.hands[3]) == sorted(s.deck[:6]) and list(s.hands[0]) == sorted(s.deck[6:12])
    while not s.is_over:
        ms = s.legal_moves()
        s.push(next((m for m in ms if m.kind == CAPTURE), ms[0]))
    assert s.deal_no == 2 and s.plays == 48


def _deck_with_table(table: str, seed: int = 0) -> list[Card]:
    import random

    t = parse_cards(table)
    rest = [c for c in map(Card, range(52)) if c not in t]
    random.Random(seed).shuffle(rest)
    return rest[:12] + t + rest[12:]


@pytest.mark.parametrize(("table", "opts", "redealt"), [
    ("QC QD QH 2S", {}, True),
    ("QC QD QH QS", {}, True),
    ("QC QD 2H 2S", {}, False),
    ("QC QD QH 2S", {"three_faces_stay": True}, False),
    ("QC QD QH QS", {"three_faces_stay": True}, True),
    ("5C 5D 5H 2S", {}, False),
    ("5C 5D 5H 2S", {"any_rank_redeal": True}, True),
])
def test_first_table_redeal(table: str, opts: dict[str, bool], redealt: bool) -> None:
    deck = _deck_with_table(table)
    s = State.new(2, Options(**opts), deck=deck, seed=3)  # type: ignore[arg-type]
    assert (sorted(s.table) != sorted(parse_cards(table))) == redealt
    assert s.stock_size == 36 and sorted(s.table + s.hands[0] + s.hands[1] + s.remaining_stock) == list(
        map(Card, range(52)))


def test_three_faces_stay_fourth_takes_all_three() -> None:
    s = make(["QS 2C", "KC"], "QC QD QH", three_faces_stay=True)
    assert of(s, "QS") == S("QS x QC QD QH")


def test_face_card_redeal_decision() -> None:
    faces = "JC JD JH QC QD 2S"
    rest = [c for c in map(Card, range(52)) if c not in parse_cards(faces)]
    deck = rest[:6] + parse_cards(faces) + rest[6:]  # seat 0 (dealer) gets the faces
    s = State.new(2, Options(face_card_redeal="first_deal"), dealer=0, deck=deck, seed=9)
    assert s.phase == DECIDE and s.turn == 0 and set(map(str, s.legal_moves())) == {"keep", "redeal"}
    t = s.copy(stack=True)
    t.play("keep")
    assert t.phase == PLAY and t.turn == 1
    s.play("redeal")
    assert s.deck != tuple(deck) or s.phase in (PLAY, DECIDE)
    assert s.plays == 0 and s.dealer == 0
    s.pop()
    assert s.phase == DECIDE and s.hands[0] == sorted(parse_cards(faces))
    off = State.new(2, Options(), dealer=0, deck=deck, seed=9)
    assert off.phase == PLAY


def test_dealer_sees_bottom_card() -> None:
    s = State.new(2, Options(dealer_sees_bottom=True), dealer=1, seed=4)
    assert s.view(1).bottom == s.deck[-1] and s.view(0).bottom is None
    assert State.new(2, dealer=1, seed=4).view(1).bottom is None


def test_the_bottom_card_stays_last_when_the_first_table_is_dealt_again() -> None:
    # Three kings on the first table go back and are reshuffled; the card the dealer saw stays at the
    # bottom (the table's cards used to go back after it, and the last of them took its place).
    front = parse_cards("AH 2H 3H 4H 5H 6H AS 2S 3S 4S 5S 6S KH KS KD 7C")
    bottom = parse_cards("2C")[0]
    deck = [*front, *(c for c in range(52) if c not in front and c != bottom), bottom]
    s = State.new(2, Options(dealer_sees_bottom=True), dealer=1, deck=deck, seed=5)
    assert s.shuffles == 2 and s.table != sorted(front[12:]), "the first table was dealt again"
    assert s.bottom == bottom and s.stock[-1] == bottom and s.view(1).bottom == bottom
    while s.stock_pos < len(s.stock):
        s.push(s.legal_moves()[0])
    assert bottom in s.hands[1], "the dealer is dealt the bottom card in the final deal"


def test_the_bottom_card_goes_to_the_dealer_again_after_a_redeal_of_the_final_deal() -> None:
    s = State.new(2, Options(dealer_sees_bottom=True, face_card_redeal="any_deal"), dealer=0, seed=458)
    rng = random.Random(458)
    while not (s.phase == DECIDE and s.stock_pos == len(s.stock)):
        s.push(rng.choice(s.legal_moves()))
    assert s.bottom in s.hands[0]
    while s.phase == DECIDE:
        s.play("redeal")
    assert s.bottom in s.hands[0], "hands dealt again from the gathered cards keep the seen card last"


# ----------------------------------------------------------------------------- forced capture
def test_forced_capture_example() -> None:
    s = make(["9H 2C", "KC"], "AD 3S 4S 5C 9D", forced_capture=True)
    assert of(s, "9H") == S("9H x AD 3S 5C 9D", "9H x 4S 5C 9D")
    # a card that cannot capture is free
    assert mv("2C") in s.legal_moves()


# --------------------------------------------------------------------------- scoring
def test_scoring_breakdown() -> None:
    s = make(["2H", "3S"], "", rest="captured", plays=46, dealer=1)
    s.sweeps = [1, 0]
    s.play("2H")
    s.play("3S")
    a, b = s.score()
    assert a.cards == 50 and a.cards_points == 4 and a.aces == 4 and a.ten_of_diamonds == 2
    assert a.two_of_clubs == 1 and a.xeri == 1 and a.total == 21 and b.total == 0


def test_split_cards_score_nothing() -> None:
    s = State.new(2, seed=1)
    s.captured = [sum(1 << i for i in range(26)), sum(1 << i for i in range(26, 52))]
    a, b = s.score()
    assert a.cards_points == b.cards_points == 0 and a.total + b.total == 7


# --------------------------------------------------------------------- push / pop / play
def test_play_rejects_illegal_move_with_position() -> None:
    s = make(["9H 2C", "KC"], "4D 5D")
    with pytest.raises(IllegalMoveError, match="9H x 4D"):
        s.play(mv("9H x 4D"))
    assert s.plays == 5 and len(s.hands[0]) == 2


def test_pop_restores_exactly_through_deals_and_round_end() -> None:
    s = State.new(2, seed=21)
    keys = [s.key()]
    while not s.is_over:
        s.push(s.legal_moves()[len(keys) % len(s.legal_moves())])
        keys.append(s.key())
    assert s.phase == OVER and s.legal_moves() == []
    while s.history:
        s.pop()
        keys.pop()
        assert s.key() == keys[-1]


def test_copy_is_independent() -> None:
    s = State.new(4, seed=2)
    c = s.copy()
    c.push(c.legal_moves()[0])
    assert s.plays == 0 and c.plays == 1 and s != c


def test_validate_rejects_impossible_positions() -> None:
    with pytest.raises(InvalidPositionError, match="twice"):
        State.from_parts(hands=[parse_cards("AC"), parse_cards("AC")], stock=[])
    with pytest.raises(InvalidPositionError, match="missing"):
        State.from_parts(hands=[parse_cards("AC"), parse_cards("2C")], stock=[])
