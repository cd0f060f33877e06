"""Positions and records of every game: a record and a position say their game; Diloti's still load as before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from diloti.core.errors import InvalidPositionError, RecordError, UnknownGameError
from diloti.formats.games import (
    load_any_position,
    load_any_record,
    position_from_dict,
    position_to_dict,
    read_any_record,
)
from diloti.games.diloti.formats import position as diloti_position
from diloti.games.diloti.formats.record import GameRecord, read_record
from diloti.games.diloti.game import Game
from diloti.games.diloti.state import State
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions
from diloti.games.onecard.formats import HandsRecord
from diloti.games.xeri.rules import XeriGame, XeriOptions

FIXTURES = Path(__file__).parent / "fixtures"


def finished(game: XeriGame | KontsinaGame) -> XeriGame | KontsinaGame:
    rng = random.Random(game.seed)
    while not game.is_over:
        game.push(rng.choice(game.state.legal_moves()))
    return game


def test_old_diloti_records_still_load() -> None:
    text = (FIXTURES / "sample_record.txt").read_text()
    rec = read_any_record(text)
    assert isinstance(rec, GameRecord) and rec.errors == [] and rec.result == "1-0"
    assert read_record(text).dumps() == rec.dumps()
    with_header = text.replace('[Players "2"]', '[Game "diloti"]\n[Players "2"]')
    assert read_any_record(with_header).errors == [] and read_record(with_header).errors == []


def test_diloti_records_and_positions_are_written_as_before() -> None:
    g = Game(seed=3)
    while not g.is_over:
        g.push(g.state.legal_moves()[0])
    assert "Game" not in GameRecord.from_game(g).dumps()
    s = State.new(seed=1)
    assert "game" not in position_to_dict(s) and position_to_dict(s) == diloti_position.position_to_dict(s)
    assert position_from_dict(position_to_dict(s)) == s
    assert load_any_position(diloti_position.format_position(s)) == s
    assert diloti_position.position_from_dict({**position_to_dict(s), "game": "diloti"}) == s


def test_a_record_says_its_game_and_reads_back() -> None:
    g = finished(KontsinaGame(players=3, options=KontsinaOptions(target=11), seed=2))
    text = HandsRecord.from_game(g, names=["a", "b", "c"], date="2026.11.23").dumps()
    assert '[Game "kontsina"]' in text and '[Options "target=11"]' in text and "\nhand 1 dealer 0 seed " in text
    back = read_any_record(text)
    assert isinstance(back, HandsRecord) and back.errors == [] and back.names == ["a", "b", "c"]
    assert back.result == text.split('[Result "')[1].split('"')[0] and back.result.count("-") == 2


def test_a_xeri_record_writes_the_card_alone_and_counts_hands_won() -> None:
    g = finished(XeriGame(options=XeriOptions(hands=2), seed=4))
    text = HandsRecord.from_game(g).dumps()
    moves = [line for line in text.splitlines() if line[:1] == "s" and not line.startswith("score")]
    assert moves and all(len(line.split()) == 2 for line in moves)
    assert '[Hands "' in text and " jacks " in text


def test_a_bad_move_or_score_is_reported_with_its_line() -> None:
    g = finished(XeriGame(options=XeriOptions(hands=1), seed=4))
    text = HandsRecord.from_game(g).dumps()
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("s0") or line.startswith("s1"))
    lines[first] = lines[first].split()[0] + " ZZ"
    rec = read_any_record("\n".join(lines))
    assert rec.errors and rec.errors[0][0] == first + 1
    bad_score = text.replace("= ", "= 9", 1)
    assert any("score line" in msg for _, msg in read_any_record(bad_score).errors)


def test_a_diloti_reader_names_the_reader_of_another_game() -> None:
    text = HandsRecord.from_game(finished(XeriGame(options=XeriOptions(hands=1), seed=1))).dumps()
    assert "read_any_record" in read_record(text).errors[0][1]
    d = position_to_dict(State.new(seed=1, game="xeri"))
    with pytest.raises(InvalidPositionError, match="every game's"):
        diloti_position.position_from_dict(d)


def test_an_unknown_game_is_named() -> None:
    rec = read_any_record('[Game "pishti"]\n')
    assert "unknown game 'pishti'" in rec.errors[0][1]
    with pytest.raises(UnknownGameError, match="known: diloti, xeri, kontsina"):
        position_from_dict({"game": "pishti"})
    with pytest.raises(UnknownGameError):
        State.new(game="pishti")


def test_a_variant_position_checks_its_fields() -> None:
    d = position_to_dict(State.new(seed=1, game="kontsina"))
    assert d["game"] == "kontsina" and "xeri" not in d
    with pytest.raises(InvalidPositionError, match="field 'declarations': unknown field"):
        position_from_dict({**d, "declarations": []})
    with pytest.raises(InvalidPositionError, match="appears twice"):
        position_from_dict({**d, "table": [*d["table"][:3], d["hands"][0][0]]})
    with pytest.raises(InvalidPositionError, match="xeri only"):
        position_from_dict({**d, "xeri": [0, 0]})
    with pytest.raises(InvalidPositionError, match=r"field 'dealer': expected a seat 0\.\.1, got None"):
        position_from_dict({**d, "dealer": None})
    with pytest.raises(InvalidPositionError, match="field 'dealer': missing"):
        position_from_dict({k: v for k, v in d.items() if k != "dealer"})
    assert load_any_position(json.dumps(d)) == position_from_dict(d)


def test_load_any_record_strict(tmp_path: Path) -> None:
    p = tmp_path / "x.txt"
    p.write_text('[Game "xeri"]\n[Players "3"]\n\nhand 1 dealer 0 seed 1\n')
    with pytest.raises(RecordError, match=r"x\.txt:4: bad header Players"):
        load_any_record(p, strict=True)
