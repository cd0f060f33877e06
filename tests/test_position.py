"""Positions: JSON interchange and compact line, round trips and every bad-field error."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diloti.core.cards import Card
from diloti.core.errors import InvalidPositionError
from diloti.games.diloti.formats.position import (
    format_position,
    format_view,
    load_position,
    parse_position,
    position_from_dict,
    position_from_json,
    position_to_dict,
    position_to_json,
    same_position,
)
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State

OPTION_MIXES = [
    Options(),
    Options(forced_capture=True),
    Options(liberal_groups=True, liberal_raise=True, liberal_capture=True),
    Options(soy=True, self_raise=True, target=121),
    Options(three_faces_stay=True, xeri_first_card=True, no_xeri_last_card=True),
    Options(face_card_redeal="any_deal", dealer_sees_bottom=True, any_rank_redeal=True),
]


def playout_states(players: int, options: Options, seed: int, every: int = 1) -> list[State]:
    """Copies of the positions of one seeded random round."""
    rng = random.Random(seed)
    s = State.new(players, options, dealer=seed % players, seed=seed)
    out = []
    i = 0
    while True:
        if i % every == 0:
            out.append(s.copy())
        if s.is_over:
            return out
        s.push(rng.choice(s.legal_moves()))
        i += 1


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 4]), opt=st.integers(0, len(OPTION_MIXES) - 1), seed=st.integers(0, 10**9))
def test_round_trips_over_random_playouts(players: int, opt: int, seed: int) -> None:
    for s in playout_states(players, OPTION_MIXES[opt], seed, every=3):
        text = format_position(s)
        back = parse_position(text)
        assert format_position(back) == text
        assert same_position(back, s)
        assert back.legal_moves() == s.legal_moves()
        j = position_to_json(s)
        back2 = position_from_json(j)
        assert position_to_json(back2) == j
        assert back2 == back
        assert load_position(j) == load_position(text)


def test_json_field_names_and_defaults() -> None:
    s = State.new(2, seed=11)
    d = position_to_dict(s)
    assert list(d) == ["players", "options", "dealer", "turn", "hands", "table", "declarations", "stock",
                       "captured", "xeri", "last_capturer", "plays", "seed"]
    assert d["stock"][0] == str(s.remaining_stock[0])
    # A missing option key takes its default; missing options altogether too.
    d["options"] = {"soy": True}
    assert position_from_dict(d).options == Options(soy=True)
    del d["options"]
    del d["seed"]
    assert position_from_dict(d).options == Options()
    assert "seed" not in position_to_dict(position_from_dict(d))


def test_extra_keys_written_only_when_set() -> None:
    s = State.new(2, Options(dealer_sees_bottom=True), seed=12)
    d = position_to_dict(s)
    assert d["bottom"] == str(s.bottom)
    assert position_from_dict(d).bottom == s.bottom
    assert "pending" not in d


def test_redeal_decision_round_trips() -> None:
    opts = Options(face_card_redeal="any_deal")
    seed = next(k for k in range(1000) if State.new(2, opts, seed=k).phase == 1)
    s = State.new(2, opts, seed=seed)
    d = position_to_dict(s)
    assert d["pending"] == list(s.pending)
    back = position_from_dict(d)
    assert back.phase == 1 and back.legal_moves() == s.legal_moves()
    assert "pending=" in format_position(s)
    assert parse_position(format_position(s)).pending == s.pending


def good() -> dict[str, Any]:
    return position_to_dict(State.new(2, seed=21))


def with_pile() -> dict[str, Any]:
    """A position with one declaration owned by seat 0."""
    for s in playout_states(2, Options(), 5):
        if len(s.declarations) == 1:
            return position_to_dict(s)
    raise AssertionError("no declaration in the playout")


def edit(d: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    d = json.loads(json.dumps(d))
    obj = d
    for k in path[:-1]:
        obj = obj[k]
    if value is DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return d


DELETE = object()


@pytest.mark.parametrize("path, value, field, reason", [
    (["players"], 3, "players", "expected 2 or 4"),
    (["players"], "2", "players", "expected 2 or 4"),
    (["players"], DELETE, "players", "expected 2 or 4"),
    (["dealer"], 2, "dealer", "expected 0..1"),
    (["dealer"], "0", "dealer", "expected an integer"),
    (["turn"], DELETE, "turn", "missing"),
    (["turn"], True, "turn", "expected an integer"),
    (["hands"], [["AS"]], "hands", "expected a list of 2 lists"),
    (["hands"], "AS", "hands", "expected a list of 2 lists"),
    (["hands", 0, 0], "ZZ", "hands[0][0]", "unknown card 'ZZ'"),
    (["hands", 0, 0], 7, "hands[0][0]", "expected a card"),
    (["table"], "5C", "table", "expected a list of cards"),
    (["table", 0], "1X", "table[0]", "unknown card"),
    (["stock"], None, "stock", "expected a list of cards"),
    (["captured"], [[]], "captured", "expected a list of 2 lists"),
    (["xeri"], [0], "xeri", "expected two counts"),
    (["xeri"], [0, -1], "xeri", "expected two counts"),
    (["last_capturer"], 5, "last_capturer", "expected null or a seat"),
    (["last_capturer"], 0, "last_capturer", "side holds no cards"),
    (["plays"], -1, "plays", "expected 0..48"),
    (["plays"], 3, "plays", "expected 0"),
    (["options"], {"sooy": True}, "options", "unknown option 'sooy'"),
    (["options"], {"target": 0}, "options", "invalid option target=0"),
    (["options"], [], "options", "expected an object"),
    (["declarations"], {}, "declarations", "expected a list"),
    (["bogus"], 1, "bogus", "unknown field"),
    (["seed"], -4, "seed", "expected 0.."),
    (["bottom"], "QQ", "bottom[0]", "unknown card"),
    (["pending"], [7], "pending", "expected a list of seats"),
])
def test_bad_fields_name_the_field(path: list[Any], value: Any, field: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        position_from_dict(edit(good(), path, value))
    msg = str(err.value)
    assert f"field {field!r}" in msg or field in msg
    assert reason in msg


def test_card_problems() -> None:
    d = good()
    dup = edit(d, ["table", 0], d["hands"][0][0])
    with pytest.raises(InvalidPositionError, match="appears twice"):
        position_from_dict(dup)
    missing = edit(d, ["stock"], d["stock"][:-12])
    with pytest.raises(InvalidPositionError, match="missing"):
        position_from_dict(missing)
    short = edit(d, ["hands", 1], d["hands"][1][:-1])
    with pytest.raises(InvalidPositionError):
        position_from_dict(short)
    odd = edit(edit(d, ["stock"], d["stock"][:-5]), ["captured", 0], d["stock"][-5:])
    with pytest.raises(InvalidPositionError, match=r"field 'stock'.*whole deals"):
        position_from_dict(odd)


def test_hand_sizes_must_fit_the_turn() -> None:
    d = good()
    wrong_turn = edit(d, ["turn"], d["dealer"])
    with pytest.raises(InvalidPositionError, match=r"field 'hands'.*do not fit"):
        position_from_dict(wrong_turn)


def test_declaration_errors() -> None:
    d = with_pile()
    pile = d["declarations"][0]
    owner = pile["owner"]
    cases = [
        (["declarations", 0], "x", "declarations[0]", "expected an object"),
        (["declarations", 0, "kind"], "pile", "declarations[0].kind", "expected \"plain\" or \"group\""),
        (["declarations", 0, "owner"], 9, "declarations[0].owner", "expected a seat"),
        (["declarations", 0, "owner"], None, "declarations[0].owner", "expected a seat"),
        (["declarations", 0, "value"], 11, "declarations[0].value", "expected 1..10"),
        (["declarations", 0, "value"], "8", "declarations[0].value", "expected 1..10"),
        (["declarations", 0, "value"], DELETE, "declarations[0].value", "missing"),
        (["declarations", 0, "cards"], pile["cards"][:1], "declarations[0].cards", "at least 2"),
        (["declarations", 0, "cards", 0], "XX", "declarations[0].cards[0]", "unknown card"),
        (["declarations", 0, "extra"], 1, "declarations[0].extra", "unknown field"),
    ]
    for path, value, field, reason in cases:
        with pytest.raises(InvalidPositionError) as err:
            position_from_dict(edit(d, path, value))
        assert field in str(err.value) and reason in str(err.value), str(err.value)
    bad_value = edit(d, ["declarations", 0, "value"], pile["value"] % 10 + 1)
    with pytest.raises(InvalidPositionError, match=r"field 'declarations\[0\]': a plain declaration's value"):
        position_from_dict(bad_value)
    # Swap the declarer's cards of the declared value into the stock: it no longer holds one.
    value = pile["value"]
    hand = list(d["hands"][owner])
    stock = list(d["stock"])
    for i, c in enumerate(hand):
        if Card(c).value == value:
            j = next(k for k, x in enumerate(stock) if Card(x).value != value and x not in hand)
            hand[i], stock[j] = stock[j], hand[i]
    broken = edit(edit(d, ["hands", owner], hand), ["stock"], stock)
    with pytest.raises(InvalidPositionError, match=f"owner {owner} .* holds no card of value {value}"):
        position_from_dict(broken)


def test_json_reader_errors() -> None:
    with pytest.raises(InvalidPositionError, match="not JSON"):
        position_from_json("{players: 2")
    with pytest.raises(InvalidPositionError, match="expected a JSON object"):
        position_from_json("[1, 2]")


def test_compact_errors() -> None:
    s = State.new(2, seed=3)
    text = format_position(s)
    parts = text.split()
    cases = [
        ("2 0 1", "missing fields: hands"),
        (" ".join(["3", *parts[1:]]), "field 'players'"),
        (" ".join([*parts[:1], "x", *parts[2:]]), "field 'dealer'"),
        (" ".join([*parts[:2], "5", *parts[3:]]), "field 'turn'"),
        (" ".join([*parts[:3], parts[3].split("/")[0], *parts[4:]]), "field 'hands'"),
        (" ".join([*parts[:3], "ZZ/" + parts[3].split("/")[1], *parts[4:]]), "field 'hands[0]'"),
        (" ".join([*parts[:4], "5X", *parts[5:]]), "field 'table'"),
        (" ".join([*parts[:5], "AHAS=9@0", *parts[6:]]), "field"),
        (" ".join([*parts[:5], "AHAS9@0", *parts[6:]]), "field 'declarations[0]'"),
        (" ".join([*parts[:7], "-", *parts[8:]]), "field 'captured'"),
        (" ".join([*parts[:8], "0-0", *parts[9:]]), "field 'xeri'"),
        (" ".join([*parts[:9], "7", *parts[10:]]), "field 'last_capturer'"),
        (" ".join([*parts[:10], "many", *parts[11:]]), "field 'plays'"),
        (text + " sooy", "unknown option"),
        (text + " face_card_redeal=always", "field 'face_card_redeal'"),
        (text + " target=x", "field 'target'"),
        (text + " bottom=-", "field 'bottom': expected one card, got '-'"),
        (text + " bottom=", "field 'bottom': expected one card"),
        (text + " bottom=ASKS", "field 'bottom': expected one card"),
        (text + " pending=9", "field 'pending'"),
        (text + " seed=x", "field 'seed'"),
        (format_view(s.view(0)), "per-seat view"),
    ]
    for bad, reason in cases:
        with pytest.raises(InvalidPositionError) as err:
            parse_position(bad)
        assert reason in str(err.value), (bad, str(err.value))


def test_compact_options_are_options_text_and_read_both_spellings() -> None:
    """The options words are Options.to_text(), the record header's writer; ``soy=true`` reads like ``soy``."""
    opts = Options(soy=True, target=121, face_card_redeal="any_deal")
    s = State.new(seed=5, options=opts)
    text = format_position(s)
    assert " " + opts.to_text() + " " in text
    for spelling in ("soy=true", "soy=on", "soy"):
        assert parse_position(text.replace(" soy ", f" {spelling} ")) == s, spelling
    assert parse_position(text.replace(" soy ", " soy=false ")).options == opts.replace(soy=False)


def test_compact_form_is_forgiving_about_case_and_T() -> None:
    s = State.new(2, seed=3)
    text = format_position(s)
    assert parse_position(text.lower().replace("10", "t")) == parse_position(text)


def test_view_form_hides_what_it_must() -> None:
    s = State.new(4, seed=8)
    v = format_view(s.view(2))
    fields = v.split()
    assert fields[0] == "@2"
    hands = fields[4].split("/")
    assert hands[0] == hands[1] == hands[3] == "?6"
    assert hands[2] != "?6"
    assert fields[7] == f"?{s.stock_size}"
    assert str(s.remaining_stock[0]) not in " ".join(fields[5:])
