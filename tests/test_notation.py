"""Move notation: canonical round trips, the forgiving reader, readable forms, errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diloti.core.cards import NAMES, SUIT_SYMBOLS, Card
from diloti.core.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from diloti.core.moves import CAPTURE, GROUP, LAY, PLAIN, Move
from diloti.games.diloti.formats.notation import card_words, describe_move, format_move, move_sentence, parse_move
from diloti.games.diloti.formats.position import parse_position
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State

OPTION_MIXES = [
    Options(),
    Options(forced_capture=True),
    Options(liberal_groups=True, liberal_raise=True, liberal_capture=True),
    Options(soy=True, self_raise=True),
    Options(three_faces_stay=True),
    Options(face_card_redeal="any_deal"),
]


def scramble(move: Move, rng: random.Random) -> str:
    """The move written the way a careless person might: shuffled, symbols, T, lower case."""
    def card(c: Card) -> str:
        rank, suit = NAMES[c][:-1], NAMES[c][-1]
        if rank == "10" and rng.random() < 0.5:
            rank = "t"
        if rng.random() < 0.5:
            suit = SUIT_SYMBOLS["CDHS".index(suit)]
        text = rank + suit
        return text.lower() if rng.random() < 0.5 else text

    if move.card is None:
        return str(move).upper() if rng.random() < 0.5 else str(move)
    cards = list(move.cards)
    rng.shuffle(cards)
    named = " ".join(card(c) for c in cards)
    if move.kind == LAY:
        return card(move.card)
    if move.kind == CAPTURE:
        op = rng.choice(["x", "X", ":", "takes"])
        return f"{card(move.card)} {op} {named}"
    suffix = "G" if move.kind == GROUP else ""
    return f"{card(move.card)} + {named} = {move.value}{suffix}"


@settings(max_examples=30, deadline=None)
@given(players=st.sampled_from([2, 4]), opt=st.integers(0, len(OPTION_MIXES) - 1), seed=st.integers(0, 10**9))
def test_every_legal_move_round_trips(players: int, opt: int, seed: int) -> None:
    rng = random.Random(seed)
    s = State.new(players, OPTION_MIXES[opt], dealer=seed % players, seed=seed)
    while not s.is_over:
        moves = s.legal_moves()
        view = s.view(s.turn)
        for m in moves:
            text = str(m)
            assert Move.parse(text) == m
            assert format_move(m) == text
            assert parse_move(s, text) == m
            assert parse_move(view, text) == m
            assert parse_move(s, scramble(m, rng)) == m
            d = describe_move(s, m)
            if opt == 0 and m.kind == GROUP:  # standard rules: a split into components always exists
                assert d.startswith(f"{m.card} makes a group of {m.value}s: "), d
            if opt == 0 and m.kind == CAPTURE and m.card is not None and not m.card.is_face:
                assert " and " not in d, d
            move_sentence(s, m, seat=s.turn)
        s.push(rng.choice(moves))


def position_with_pile() -> State:
    """A position where the mover can capture a declaration together with loose cards."""
    for seed in range(2000):
        rng = random.Random(seed)
        s = State.new(2, seed=seed)
        while not s.is_over:
            for m in s.legal_moves():
                declarations = [p for p in s.declarations if p.mask & m.mask]
                first = declarations[0] if declarations else None
                if m.kind == CAPTURE and first and m.mask != first.mask and first.mask.bit_count() >= 2:
                    return s
            s.push(rng.choice(s.legal_moves()))
    raise AssertionError("no such position")


def test_one_card_of_a_pile_names_the_pile() -> None:
    s = position_with_pile()
    m = next(m for m in s.legal_moves() if m.kind == CAPTURE and any(p.mask & m.mask for p in s.declarations)
             and any(not any(p.mask >> c & 1 for p in s.declarations) for c in m.cards))
    pile = next(p for p in s.declarations if p.mask & m.mask)
    table = [c for c in m.cards if not pile.mask >> c & 1]
    one = pile.cards[-1]
    text = f"{m.card} x {' '.join(map(str, table))} {one}"
    assert parse_move(s, text) == m
    # The readable form shows the pile as a pile.
    d = describe_move(s, m)
    assert f"[{' '.join(map(str, pile.cards))}]={pile.value}" in d and d.startswith(f"{m.card} takes")
    assert d.endswith(f"]={pile.value}") and ", [" in d
    assert "owned by seat" in move_sentence(s, m)


def seed45() -> State:
    # Seat 1: 4C 4H 8D 9C 10H KH; table 4S 5S 6D JC (see the notation module docstring).
    return State.new(seed=45)


def test_forgiving_inputs() -> None:
    s = seed45()
    assert str(parse_move(s, "9C x")) == "9C x 4S 5S"
    assert str(parse_move(s, "9c takes")) == "9C x 4S 5S"
    assert str(parse_move(s, "♣9 : s5 S4")) == "9C x 4S 5S"
    assert str(parse_move(s, "T♥ x 6♦ 4♠")) == "10H x 4S 6D"
    assert str(parse_move(s, "th x 6d, 4s")) == "10H x 4S 6D"
    assert str(parse_move(s, "KH")) == "KH"
    assert str(parse_move(s, "lay kh")) == "KH"
    assert str(parse_move(s, "4h + 4s = 8")) == "4H + 4S = 8"
    assert str(parse_move(s, "4h 4s = 8")) == "4H + 4S = 8"
    assert str(parse_move(s, "4h + 4s = 4")) == "4H + 4S = 4G"
    assert str(parse_move(s, "4h + 4s = 4 group")) == "4H + 4S = 4G"
    assert str(parse_move(s, "4h + 4s plain")) == "4H + 4S = 8"
    assert str(parse_move(s, "4H*4S")) == "4H + 4S = 4G"
    # A bare card is the lay when legal.
    assert parse_move(s, "9c").kind == LAY


def test_bare_card_without_lay_is_its_only_move() -> None:
    for seed in range(3000):
        rng = random.Random(seed)
        s = State.new(2, seed=seed)
        while not s.is_over:
            for c in set(s.hands[s.turn]):
                ms = [m for m in s.legal_moves() if m.card == c]
                if len(ms) == 1 and ms[0].kind != LAY:
                    assert parse_move(s, str(c)) == ms[0]
                    return
            s.push(rng.choice(s.legal_moves()))
    raise AssertionError("no position found")


@pytest.mark.parametrize("text, reason", [
    ("", "empty"),
    ("   ", "empty"),
    ("9Z", "cannot read '9Z'"),
    ("x 4S", "start with the card"),
    ("9C x 4S = 9", "either a capture"),
    ("9C x 4S 4S", "named twice"),
    ("9C + 4S =", "followed by a value"),
    ("9C + 4S = 12", "after '='"),
    ("9C +", "names the table cards"),
    ("= 4", "start with the card"),
])
def test_syntax_errors(text: str, reason: str) -> None:
    s = seed45()
    with pytest.raises(InvalidMoveError) as err:
        parse_move(s, text)
    msg = str(err.value)
    assert reason in msg and repr(text) in msg


def test_illegal_moves_say_why() -> None:
    s = seed45()
    with pytest.raises(IllegalMoveError, match=r"5D is not in the hand \(4C 4H 8D 9C 10H KH\)") as err:
        parse_move(s, "5D x 5S")
    assert s.describe() in str(err.value)
    with pytest.raises(IllegalMoveError, match="AH is not on the table"):
        parse_move(s, "9C x AH")
    with pytest.raises(IllegalMoveError, match=r"legal with 9C: 9C x 4S 5S, .*9C") as err:
        parse_move(s, "9C x 6D")
    assert "'9C x 6D'" in str(err.value)
    with pytest.raises(IllegalMoveError, match="no face-card redeal decision"):
        parse_move(s, "keep")
    with pytest.raises(InvalidMoveError):
        parse_move(s, 42)  # type: ignore[arg-type]


def test_ambiguous_moves_list_the_candidates() -> None:
    s = seed45()
    with pytest.raises(AmbiguousMoveError) as err:
        parse_move(s, "4h + 4s")
    msg = str(err.value)
    assert "plain 8 (4H + 4S = 8) or group of 4s (4H + 4S = 4G)" in msg and s.describe() in msg
    with pytest.raises(AmbiguousMoveError, match=r"capture .* or plain 8"):
        parse_move(s, "4H 4S")


def test_bare_capture_with_several_captures_is_ambiguous() -> None:
    for seed in range(3000):
        s = State.new(2, seed=seed)
        for c in s.hands[s.turn]:
            caps = [m for m in s.legal_moves() if m.card == c and m.kind == CAPTURE]
            if len(caps) >= 2:
                with pytest.raises(AmbiguousMoveError) as err:
                    parse_move(s, f"{c} x")
                assert all(f"capture ({m})" in str(err.value) for m in caps[:8])
                return
    raise AssertionError("no position found")


def test_view_parsing_uses_only_the_view() -> None:
    s = seed45()
    v = s.view(s.turn)
    assert parse_move(v, "9c x") == parse_move(s, "9c x")
    other = s.view(1 - s.turn)
    with pytest.raises(IllegalMoveError, match="no move can be made now"):
        parse_move(other, "9c x")


def test_redeal_decisions() -> None:
    opts = Options(face_card_redeal="any_deal")
    seed = next(k for k in range(1000) if State.new(2, opts, seed=k).phase == 1)
    s = State.new(2, opts, seed=seed)
    assert str(parse_move(s, "KEEP")) == "keep"
    assert str(parse_move(s, "redeal")) == "redeal"
    with pytest.raises(IllegalMoveError):
        parse_move(s, str(s.hands[s.turn][0]))


def test_readable_forms() -> None:
    s = seed45()
    assert describe_move(s, parse_move(s, "9c x")) == "9C takes 4S+5S"
    assert describe_move(s, parse_move(s, "kh")) == "KH laid"
    assert describe_move(s, parse_move(s, "4h + 4s = 4g")) == "4H makes a group of 4s: 4H, 4S"
    assert describe_move(s, parse_move(s, "4h + 4s = 8")) == "4H builds 4S into plain 8"
    assert move_sentence(s, parse_move(s, "kh"), seat=1) == "Seat 1 lays the king of hearts on the table."
    assert move_sentence(s, parse_move(s, "4h + 4s = 8")) == (
        "The player plays the 4 of hearts with the 4 of spades to declare a plain declaration of 8.")
    assert card_words(Card("AS")) == "the ace of spades"


def test_raise_is_described_as_a_raise() -> None:
    for seed in range(3000):
        rng = random.Random(seed)
        s = State.new(2, seed=seed)
        while not s.is_over:
            for m in s.legal_moves():
                declarations = [p for p in s.declarations if p.mask & m.mask]
                if m.kind == PLAIN and declarations and m.mask == declarations[0].mask:
                    p = declarations[0]
                    assert describe_move(s, m) == (
                        f"{m.card} raises [{' '.join(map(str, p.cards))}]={p.value} to {m.value}")
                    assert "raises the plain declaration" in move_sentence(s, m)
                    assert parse_move(s, f"{m.card} + {p.cards[0]} = {m.value}") == m
                    return
            s.push(rng.choice(s.legal_moves()))
    raise AssertionError("no raise found")


def test_parse_position_then_move() -> None:
    s = seed45()
    from diloti.games.diloti.formats.position import format_position

    back = parse_position(format_position(s))
    assert back.play("9c x") == Move.parse("9C x 4S 5S")
