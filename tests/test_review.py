"""Game review (diloti.ai.review): only the seat's view counts (hidden cards never change a review), the marks
follow the points lost, the accuracy figures, determinism from a seed, and the parent games through the same
calls."""

from __future__ import annotations

import random
from math import exp

import pytest

from diloti.ai import make_player
from diloti.ai.review import (
    ACCURACY_SCALE,
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Decision,
    Point,
    ReviewError,
    away_plies,
    decision_points,
    mark_of,
    review_decision,
    review_record,
    summarise,
)
from diloti.core.cards import Card
from diloti.core.moves import CAPTURE
from diloti.games.diloti.formats.record import GameRecord, read_record
from diloti.games.diloti.game import Game, RoundRecord
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions
from diloti.games.onecard.formats import HandsRecord
from diloti.games.xeri.rules import XeriGame, XeriOptions

pytestmark = pytest.mark.timeout(240)


def played_game(players: int = 2, seed: int = 1, target: int = 21) -> GameRecord:
    g = Game(players, Options(target=target), seed=seed)
    bots = [make_player("greedy" if s % 2 else "random", seed=seed + s) for s in range(players)]
    while not g.is_over:
        st = g.state
        g.push(bots[st.turn].choose(st.view(st.turn)))
    return GameRecord.from_game(g)


def with_hidden_cards_changed(rec: GameRecord, seat: int, upto: int, seed: int) -> GameRecord | None:
    """``rec`` with its last round cut after ``upto`` moves and the cards ``seat`` has not seen by then (the
    other hands and the stock) dealt differently; None if that deal would not replay the same moves."""
    last = len(rec.rounds) - 1
    r = rec.rounds[last]
    state = rec.start(last)
    for _, move in r.moves[:upto]:
        state.push(move)
    hidden = [c for s, hand in enumerate(state.hands) if s != seat for c in hand]
    hidden += list(state.stock[state.stock_pos:])
    rng = random.Random(seed)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    deck = tuple(swap.get(c, c) for c in r.deck)
    rounds = [*rec.rounds[:last], RoundRecord(r.number, r.dealer, r.seed, deck, list(r.moves[:upto]))]
    other = GameRecord(rec.players, rec.options, rec.seed, list(rec.names), dict(rec.headers), rounds)
    back = read_record(other.dumps())
    return back if not back.errors else None


@pytest.mark.parametrize(("players", "seat", "upto"), [(2, 0, 10), (2, 1, 9), (4, 2, 14)])
def test_hidden_cards_never_change_the_review(players: int, seat: int, upto: int) -> None:
    rec = played_game(players, seed=players + seat)
    assert len(rec.rounds) >= 2  # the last round is played from a score: the chance to win depends on it
    cut = with_hidden_cards_changed(rec, seat, upto, seed=0)  # nothing shuffled away: the same record, cut
    assert cut is not None
    base = review_record(cut, [seat], worlds=1, seed=9).to_dict()
    changed = 0
    for s in range(1, 30):
        other = with_hidden_cards_changed(rec, seat, upto, seed=s)
        if other is None:
            continue  # an opponent's declaration needed a card that went elsewhere: not a replayable deal
        last = len(other.rounds) - 1
        assert other.rounds[last].deck != cut.rounds[last].deck
        assert [m for _, m in other.rounds[last].moves] == [m for _, m in cut.rounds[last].moves]
        assert review_record(other, [seat], worlds=1, seed=9).to_dict() == base
        changed += 1
        if changed == 2:
            break
    assert changed == 2
    assert any(d["win_before"] is not None for d in base["decisions"])


def test_the_review_of_a_decision_is_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    from diloti.games.diloti.players.sampler import Worlds

    rec = played_game(seed=4)
    points = decision_points(rec, [1])[5:9]
    for p in points:
        assert isinstance(p.view, View)  # a Diloti game's: Worlds samples Diloti's views
        judged = review_decision(p, worlds=4, seed=2)
        for w in range(3):
            world = Worlds(p.view).sample(random.Random(w))  # other hands and stock drawn anew
            view = world.view(p.view.seat, p.view.scores)
            assert view == p.view
            assert review_decision(Point(p.round, p.ply, p.number, view, p.move), worlds=4, seed=2) == judged


def test_a_missed_xeri_is_a_blunder_and_the_best_move_is_not_marked() -> None:
    found = 0
    for seed in range(200):
        s = State.new(seed=seed)
        rng = random.Random(seed)
        while not s.is_over and found < 2:
            v = s.view(s.turn)
            whole = [m for m in v.legal if m.kind == CAPTURE and s.plays > 0 and len(s.table) >= 2
                     and not s.declarations and m.mask.bit_count() == len(s.table)]
            lays = [m for m in v.legal if m.kind != CAPTURE]
            if whole and lays and len(s.table) >= 2:
                missed = review_decision(Point(1, s.plays, s.plays + 1, v, lays[0]), worlds=12, seed=1)
                assert missed.best in {str(m) for m in whole}  # a xeri is the best move
                assert missed.lost >= BLUNDER and missed.mark == "blunder", (missed, str(s))
                assert missed.win_before is not None and missed.win_after is not None
                assert missed.win_after < missed.win_before
                top = next(m for m in v.legal if str(m) == missed.best)
                best = review_decision(Point(1, s.plays, s.plays + 1, v, top), worlds=12, seed=1)
                assert best.lost == 0.0 and best.mark is None and best.accuracy == 100.0
                found += 1
                break
            s.push(rng.choice(v.legal))
        if found == 2:
            break
    assert found == 2


def test_marks_and_accuracy_follow_the_points_lost() -> None:
    assert [mark_of(x) for x in (0, INACCURACY - 0.01, INACCURACY, MISTAKE, BLUNDER, 30)] == \
        [None, None, "inaccuracy", "mistake", "blunder", "blunder"]

    def dec(rnd: int, ply: int, seat: int, lost: float, judged: bool = True) -> Decision:
        return Decision(rnd, ply, ply + 1, seat, "7H", "8H", -lost, 0.0, lost, mark_of(lost) if judged else None,
                        judged, 3 if judged else 1)

    ds = [dec(1, 0, 0, 0.0), dec(1, 2, 0, 3.0), dec(1, 4, 0, 0.0, judged=False), dec(2, 6, 0, 6.0),
          dec(1, 1, 1, 1.5)]
    rev = summarise(ds, [0, 1], worlds=5, seed=0)
    acc = [100.0, 100 * exp(-3.0 / ACCURACY_SCALE), 100 * exp(-6.0 / ACCURACY_SCALE)]
    assert rev.accuracy[0] == round(sum(acc) / 3, 1)  # the forced move does not count
    assert rev.rounds[1][0] == round((acc[0] + acc[1]) / 2, 1) and rev.rounds[2][0] == round(acc[2], 1)
    assert rev.rounds[2][1] is None  # seat 1 made no judged move in round 2
    assert rev.counts[0] == {"inaccuracy": 0, "mistake": 1, "blunder": 1}
    assert rev.counts[1] == {"inaccuracy": 1, "mistake": 0, "blunder": 0}
    d = rev.to_dict()
    assert d["accuracy"]["1"] == round(100 * exp(-1.5 / ACCURACY_SCALE), 1)
    assert [x["ply"] for x in d["decisions"]] == [0, 1, 2, 4, 6] and d["decisions"][3]["accuracy"] is None


def test_a_review_is_reproducible_and_covers_every_decision_of_the_seats() -> None:
    rec = played_game(seed=6, target=11)
    a = review_record(rec, [1], worlds=1, seed=3)
    assert a.to_dict() == review_record(rec, [1], worlds=1, seed=3).to_dict()
    moves = [(s, m) for r in rec.rounds for s, m in r.moves]
    assert [d.played for d in a.decisions] == [str(m) for s, m in moves if s == 1]
    assert all(d.lost >= 0 and (d.best == d.played or d.best_points >= d.played_points) for d in a.decisions)
    assert all(not d.judged for d in a.decisions if d.moves == 1)
    # A forced move is not searched: it has no chance to win to draw (a chance read from its 0.0 jumped about).
    assert any(not d.judged for d in a.decisions) and any(d.judged for d in a.decisions)
    assert all((d.win_before is None and d.win_after is None) != d.judged for d in a.decisions)
    both = review_record(rec, None, worlds=1, seed=3)
    assert both.seats == [0, 1] and len(both.decisions) == len(moves)
    assert [d for d in both.decisions if d.seat == 1] == a.decisions
    seen: list[tuple[int, int]] = []
    review_record(rec, [0], worlds=1, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1] == sum(s == 0 for s, _ in moves)


def test_bad_seats_and_budgets_are_refused() -> None:
    rec = played_game(seed=2, target=11)
    for bad in (2, -1, "0", True):
        with pytest.raises(ReviewError, match="invalid seat"):
            review_record(rec, [bad], worlds=1)  # type: ignore[list-item]
    p = decision_points(rec, [0])[0]
    for worlds in (0, 1001):
        with pytest.raises(ReviewError, match="invalid budget"):
            review_decision(p, worlds=worlds)
    with pytest.raises(ReviewError, match="no moves"):
        review_record(GameRecord(), worlds=1)


@pytest.mark.parametrize("game", ["xeri", "kontsina"])
def test_the_parent_games_records_are_reviewed_through_the_same_calls(game: str) -> None:
    g = XeriGame(options=XeriOptions(hands=1), seed=3) if game == "xeri" else \
        KontsinaGame(options=KontsinaOptions(target=5), seed=3)
    bots = [make_player("random", seed=1), make_player("greedy", seed=2)]
    while not g.is_over:
        st = g.state
        g.push(bots[st.turn].choose(g.view(st.turn)))
    rev = review_record(HandsRecord.from_game(g), [0], worlds=2, seed=1)
    assert rev.decisions and all(d.seat == 0 and d.win_before is None for d in rev.decisions)
    assert 0 <= (rev.accuracy[0] or 0) <= 100


def test_moves_the_computer_made_for_an_absent_player_are_not_reviewed() -> None:
    rec = played_game(seed=6, target=11)
    mine = [p.ply for p in decision_points(rec, [0])]
    rec.notes = {mine[1]: "computer (expert) for the absent player", mine[2]: "a comment"}
    text = rec.dumps()  # as a record file (diloti serve's) carries them
    assert away_plies(text) == {mine[1]}
    assert [p.ply for p in decision_points(read_record(text), [0], away_plies(text))] == [mine[0], *mine[2:]]


def test_a_move_outside_a_large_tables_sample_is_judged_among_it() -> None:
    # Laid to 30 loose cards: the view's legal moves are a bounded sample; a capture outside it is still judged.
    from diloti.core.moves import LAY
    from diloti.games.diloti.choices import Query

    g = Game(seed=27)
    while len(g.state.table) < 30:
        moves, _ = g.state.candidate_moves()
        g.push(next((m for m in moves if m.kind == LAY), moves[0]))
    st = g.state
    view = g.view(st.turn)
    q = Query(st.turn, st.hands[st.turn], st.table, st.declarations, st.options)
    card = next(c for c in st.hands[st.turn] if c < 40 and (CAPTURE, Card(c).value) in q.heads(c))
    small = q.witness(card, CAPTURE, Card(card).value, most=False)
    assert small is not None and not view.complete and small not in view.legal
    d = review_decision(Point(1, st.plays, 1, view, small), worlds=2, seed=1)
    assert d.played == str(small) and d.judged and d.lost >= 0.0
