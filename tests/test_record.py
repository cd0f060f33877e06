"""Game records: written and read back, exact replay, damaged records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from diloti.core.errors import RecordError
from diloti.games.diloti.formats.record import GameRecord, load_record, read_record
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options

FIXTURES = Path(__file__).parent / "fixtures"


def random_game(players: int, options: Options, seed: int, stop_after: int | None = None) -> Game:
    rng = random.Random(seed)
    g = Game(players, options, seed=seed, first_dealer=seed % players)
    n = 0
    while not g.is_over and (stop_after is None or n < stop_after):
        g.push(rng.choice(g.state.legal_moves()))
        n += 1
    return g


@pytest.mark.parametrize("players, options, seed", [
    (2, Options(), 1),
    (4, Options(target=40), 2),
    (2, Options(forced_capture=True, soy=True, face_card_redeal="any_deal", target=50), 3),
    (4, Options(liberal_groups=True, liberal_raise=True, liberal_capture=True, self_raise=True, target=30), 4),
    (2, Options(dealer_sees_bottom=True, three_faces_stay=True, xeri_first_card=True, no_xeri_last_card=True,
                any_rank_redeal=True, target=30), 5),
])
def test_round_trip_and_exact_replay(players: int, options: Options, seed: int) -> None:
    g = random_game(players, options, seed)
    rec = GameRecord.from_game(g, names=[f"p{i}" for i in range(players)], date="2026.11.22")
    text = rec.dumps()
    back = read_record(text)
    assert back.errors == []
    assert back.dumps() == text
    assert back.players == players and back.options == options and back.seed == g.seed
    assert back.scores == tuple(g.scores) and back.result == ("1-0" if g.winner == 0 else "0-1")
    assert len(back.rounds) == len(g.rounds)
    for i, (a, b) in enumerate(zip(back.rounds, g.rounds, strict=True)):
        assert (a.dealer, a.seed, a.deck, a.moves, a.score, a.swept) == (b.dealer, b.seed, b.deck, b.moves,
                                                                          b.score, b.swept)
        assert back.final_state(i).score() == b.score


def test_unfinished_game() -> None:
    g = random_game(2, Options(), 7, stop_after=60)
    rec = GameRecord.from_game(g)
    back = read_record(rec.dumps())
    assert back.errors == [] and back.result == "*"
    assert back.rounds[-1].score is None and back.rounds[-1].moves == g.current.moves
    assert '[Result "*"]' in rec.dumps()


def test_file_round_trip(tmp_path: Path) -> None:
    g = random_game(2, Options(target=20), 8)
    path = tmp_path / "game.txt"
    GameRecord.from_game(g, names=['a "quoted" name', "b; #2 \\ c"]).save(path)
    back = load_record(path, strict=True)
    assert back.names == ['a "quoted" name', "b; #2 \\ c"] and back.scores == tuple(g.scores)


def test_names_with_newlines_stay_on_one_line() -> None:
    g = random_game(2, Options(target=15), 9)
    back = read_record(GameRecord.from_game(g, names=["a\nb", "c\td"]).dumps())
    assert back.errors == [] and back.names == ["a b", "c d"]


def test_sample_record_fixture() -> None:
    rec = load_record(FIXTURES / "sample_record.txt", strict=True)
    assert rec.players == 2 and rec.names == ["you", "random1"] and rec.options.target == 10
    assert rec.scores == (18, 4) and rec.result == "1-0" and len(rec.rounds) == 2


def lines_of(rec: GameRecord) -> list[str]:
    return rec.dumps().splitlines()


def damage(text: list[str], lineno: int, new: str | None) -> str:
    out = list(text)
    if new is None:
        del out[lineno - 1]
    else:
        out[lineno - 1] = new
    return "\n".join(out) + "\n"


def first_move_line(lines: list[str], round_no: int = 1) -> int:
    start = next(i for i, line in enumerate(lines, 1) if line.startswith(f"round {round_no} "))
    return start + 2


def test_illegal_move_reports_line_and_keeps_what_was_read() -> None:
    g = random_game(2, Options(), 11)
    rec = GameRecord.from_game(g)
    lines = lines_of(rec)
    at = first_move_line(lines) + 5
    seat = lines[at - 1].split()[0]
    bad = read_record(damage(lines, at, f"{seat} KS x QS"))
    assert bad.errors[0][0] == at
    assert "illegal move 'KS x QS'" in bad.errors[0][1] or "not in the hand" in bad.errors[0][1]
    assert bad.rounds[0].moves == g.rounds[0].moves[:5]
    # Later rounds replay on their own and are kept.
    assert len(bad.rounds) == len(g.rounds)
    assert [r.moves for r in bad.rounds[1:]] == [r.moves for r in g.rounds[1:]]


@pytest.mark.parametrize("kind", ["seat", "syntax", "score", "deck", "round", "header", "result", "options",
                                  "players", "stray", "nodeck", "after_end", "missing_score"])
def test_damaged_records(kind: str) -> None:
    g = random_game(2, Options(), 12)
    rec = GameRecord.from_game(g)
    lines = lines_of(rec)
    mv = first_move_line(lines)
    deck_at = mv - 1
    score_at = next(i for i, line in enumerate(lines, 1) if line.startswith("score"))
    expect: tuple[int, str]
    if kind == "seat":
        seat = lines[mv - 1].split()[0]
        other = "s0" if seat == "s1" else "s1"
        text, expect = damage(lines, mv, other + lines[mv - 1][2:]), (mv, "is to move, not seat")
    elif kind == "syntax":
        text, expect = damage(lines, mv, "s1 9Q"), (mv, "cannot read")
    elif kind == "score":
        text, expect = damage(lines, score_at, lines[score_at - 1].replace("= ", "= 9", 1)), (score_at, "says")
    elif kind == "deck":
        text, expect = damage(lines, deck_at, "deck AS AS"), (deck_at, "bad deck")
    elif kind == "round":
        text, expect = damage(lines, deck_at - 1, "round 1 dealer 7 seed 3"), (deck_at - 1, "dealer 7")
    elif kind == "header":
        text, expect = damage(lines, 1, "[Event diloti"), (1, "bad header")
    elif kind == "result":
        at = next(i for i, line in enumerate(lines, 1) if line.startswith("[Result"))
        flipped = '[Result "0-1"]' if g.winner == 0 else '[Result "1-0"]'
        text, expect = damage(lines, at, flipped), (len(lines), "Result header says")
    elif kind == "options":
        at = next(i for i, line in enumerate(lines, 1) if line.startswith("[Options"))
        text, expect = damage(lines, at, '[Options "sooy"]'), (at, "unknown option 'sooy'")
    elif kind == "players":
        at = next(i for i, line in enumerate(lines, 1) if line.startswith("[Players"))
        text, expect = damage(lines, at, '[Players "3"]'), (at, "expected 2 or 4")
    elif kind == "stray":
        text, expect = "hello\n" + rec.dumps(), (1, "unexpected line 'hello'")
    elif kind == "nodeck":
        text, expect = damage(lines, deck_at, None), (deck_at, "before the deck line")
    elif kind == "after_end":
        text = damage(lines, score_at, lines[mv - 1])
        expect = (score_at, "after the end of the round")
    else:
        # Reported where the next round starts (the blank line moved up into the score line's place).
        text, expect = damage(lines, score_at, None), (score_at + 1, "score line is missing")
    bad = read_record(text)
    assert bad.errors, kind
    line, msg = bad.errors[0]
    assert line == expect[0] and expect[1] in msg, (kind, bad.errors)


def test_strict_loading_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("[Players \"2\"]\nround 1 dealer 0 seed 1\ndeck AS\n")
    with pytest.raises(RecordError, match=r"bad.txt:3: round 1: bad deck"):
        load_record(path, strict=True)
    assert load_record(path).errors[0][0] == 3
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="not a text record"):
        load_record(binary)


def test_bad_record_fixtures() -> None:
    for path in sorted(FIXTURES.glob("bad_record_*.txt")):
        rec = load_record(path)
        assert rec.errors, path.name
        expected_line = int(path.stem.split("_line")[1])
        assert rec.errors[0][0] == expected_line, (path.name, rec.errors)


def test_options_header_reads_both_spellings_of_a_flag() -> None:
    """The header is Options.to_text(); a flag reads as ``soy`` or ``soy=true`` (records written either way load)."""
    g = Game(2, Options(soy=True, target=15), seed=3)
    text = GameRecord.from_game(g).dumps()
    assert '[Options "target=15 soy"]' in text
    for spelling in ("target=15 soy", "target=15 soy=true", "soy=true forced_capture=false target=15"):
        rec = read_record(text.replace('[Options "target=15 soy"]', f'[Options "{spelling}"]'))
        assert rec.errors == [] and rec.options == Options(soy=True, target=15), spelling
    for bad in ("target=x", "face_card_redeal=maybe", "soy=perhaps", "sooy"):
        rec = read_record(text.replace('[Options "target=15 soy"]', f'[Options "{bad}"]'))
        assert rec.errors and "bad header Options" in rec.errors[0][1], bad


def test_a_resigned_game_says_so_and_old_records_still_load() -> None:
    g = Game(seed=12)
    for _ in range(30):  # mid-game: the scores decide nothing yet
        g.push(g.state.legal_moves()[0])
    rec = GameRecord.from_game(g, names=["ann", "bob"], date="2026.11.24", notes={3: "computer (heuristic) for bob"})
    assert rec.result == "*"
    rec.termination, rec.winner = "seat 0 resigned", 1
    text = rec.dumps()
    assert '[Termination "seat 0 resigned"]' in text and '[Result "0-1"]' in text
    assert "; computer (heuristic) for bob" in text.splitlines()[text.splitlines().index("") + 3 + 3]
    back = read_record(text)
    assert back.errors == [] and back.termination == "seat 0 resigned" and back.winner == 1
    assert back.result == "0-1" and sum(len(r.moves) for r in back.rounds) == 30
    # Result before Termination reads the same; a forged Result without Termination is still checked.
    lines = text.splitlines()
    moved = [x for x in lines if x.startswith("[Termination")] + [x for x in lines if not x.startswith("[Termination")]
    assert read_record("\n".join(moved)).winner == 1
    forged = read_record(text.replace('[Termination "seat 0 resigned"]\n', ""))
    assert forged.errors and "Result header says '0-1'" in forged.errors[-1][1]
    # An old record (no Termination) reads as before.
    old = read_record(GameRecord.from_game(g, names=["ann", "bob"]).dumps())
    assert old.errors == [] and old.termination is None and old.winner is None and old.result == "*"
