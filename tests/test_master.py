"""The master level and its inference from play: legal, reproducible, view-only, sane weights; counted rollouts."""

from __future__ import annotations

import random
import time
from math import exp, isfinite

import pytest

from diloti import ai
from diloti.ai import LEVELS, MEASUREMENT_LEVELS, UnknownLevelError
from diloti.ai.heuristic import expected_best
from diloti.ai.master import MasterPlayer
from diloti.core.cards import ALL_MASK, BIT, VALUE, mask_of, parse_cards
from diloti.core.moves import Move, MoveKind
from diloti.games.diloti.options import Options
from diloti.games.diloti.players.inference import Evidence, WeightedWorlds, deal_start, move_score
from diloti.games.diloti.players.knowledge import (
    POINTS,
    capture_gains,
    card_worth,
    holder_odds,
    holder_probabilities,
    keys_of,
    mask_points,
    move_gain,
    p_holds,
    table_after,
    xeri_possible,
)
from diloti.games.diloti.players.rollout import counted_move
from diloti.games.diloti.players.sampler import sample_state
from diloti.games.diloti.players.scoring import counted_scores, heuristic_scores
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View


def make_player(spec: str, seed: int) -> ai.Player:
    """Built as tables and the terminal build a level (master is offered wherever levels are)."""
    return ai.make_player(spec, seed)

FAST = "master:iterations=24,seconds=none"


def played_positions(count: int, seed: int, players: tuple[int, ...] = (2, 4)) -> list[State]:
    """Positions reached by heuristic play (so the evidence of play means something), 2 and 4 players."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        n = rng.choice(players)
        s = State.new(n, seed=rng.randrange(10**9), dealer=rng.randrange(n))
        bots = [make_player("heuristic", i) for i in range(n)]
        for _ in range(rng.randrange(46)):
            if s.is_over:
                break
            s.push(bots[s.turn].choose(s.view(s.turn)))
        if not s.is_over:
            out.append(s)
    return out


def test_master_is_offered_wherever_levels_are() -> None:
    assert list(LEVELS)[4] == "master" and "master" in MEASUREMENT_LEVELS  # the strongest search; learned after it
    p = make_player("master", 1)
    # The defaults the matches measured: card-counting rollouts, the expert's 5 candidates, a quarter of a second
    # a move (as strong as the second a move of the day issue 25 was filed: docs/STRENGTH.md).
    # The inference's weight goes with the model the view gets (issue 53's SPRT): settings() says which.
    assert (p.seconds, p.width, p.counted, p.infer) == (0.25, 5, 99, None)  # type: ignore[attr-defined]
    assert make_player("master:iterations=50,seconds=none", 1).iterations == 50  # type: ignore[attr-defined]


def test_master_plays_only_legal_moves() -> None:
    for i, s in enumerate(played_positions(40, seed=1)):
        move = make_player(FAST, i).choose(s.view(s.turn))
        assert s.is_legal(move), (str(move), s.describe())


@pytest.mark.parametrize("spec", [FAST, "master:iterations=24,seconds=none,fair=1,ahead=2,seam=1",
                                  "master:iterations=24,seconds=none,tree=1"])
def test_master_plays_legal_moves_under_every_option(spec: str) -> None:
    rng = random.Random(4)
    for i in range(20):
        opts = Options(**{n: rng.random() < 0.4 for n in Options.names() if n not in ("target", "face_card_redeal")},
                       face_card_redeal=rng.choice(["off", "first_deal", "any_deal"]))
        s = State.new(rng.choice([2, 4]), opts, seed=i)
        while not s.is_over:
            moves = s.legal_moves()
            if rng.random() < 0.2:
                move = make_player(spec, i).choose(s.view(s.turn))
                assert move in moves
            else:
                move = moves[rng.randrange(len(moves))]
            s.push(move)


def test_master_is_reproducible_from_its_seed_with_iterations() -> None:
    for i, s in enumerate(played_positions(12, seed=2)):
        view = s.view(s.turn)
        a = make_player(FAST, i).estimates(view)  # type: ignore[attr-defined]
        b = make_player(FAST, i).estimates(view)  # type: ignore[attr-defined]
        assert [(e.move, e.mean) for e in a] == [(e.move, e.mean) for e in b]


def test_hidden_cards_do_not_change_the_masters_move() -> None:
    rng = random.Random(5)
    for i, s in enumerate(played_positions(25, seed=3)):
        view = s.view(s.turn)
        other = sample_state(view, rng)  # the same view over different hidden cards
        assert other.view(s.turn) == view
        assert make_player(FAST, i).choose(view) == make_player(FAST, i).choose(other.view(s.turn))


def test_time_budget_is_kept() -> None:
    s = played_positions(1, seed=6, players=(2,))[0]
    player = make_player("master:seconds=0.15", 1)
    start = time.perf_counter()
    est = player.estimates(s.view(s.turn))  # type: ignore[attr-defined]
    took = time.perf_counter() - start
    assert took < 1.5  # the budget and the last playouts' overrun, on a loaded machine
    assert sum(e.visits for e in est) > 0


@pytest.mark.parametrize("bad", ["master:iterations=0", "master:seconds=none", "master:seconds=0",
                                 "master:infer=2", "master:temperature=0", "master:mix=1.5", "master:deals=0",
                                 "master:depth=3", "master:iterations=x"])
def test_spec_errors(bad: str) -> None:
    with pytest.raises(UnknownLevelError) as info:
        make_player(bad, 1)
    assert info.value.input == bad


def test_the_truth_always_explains_the_play() -> None:
    """The true hands never get weight 0: each observed move was legal with the hand really held."""
    for s in played_positions(120, seed=7):
        view = s.view(s.turn)
        ev = Evidence(view)
        assert isfinite(ev.log_weight(s)), s.describe()
        if deal_start(view) < view.plays:
            assert ev.observed or any(seat == view.seat for seat, _ in view.history[-1:])


def test_no_evidence_at_a_new_deal() -> None:
    s = State.new(seed=8)
    assert Evidence(s.view(s.turn)).observed == []
    assert WeightedWorlds(s.view(s.turn)).evidence is None


def _declined_capture() -> tuple[State, Evidence]:
    """Seat 1 laid 7C on a table with the AD; seat 0 (to move) weighs who holds the other aces."""
    hands = [parse_cards("2C 2D 4S 6H 8D 9C"), parse_cards("7C QH JS 6S 2H 8C")]
    table = parse_cards("AD 3D 9H KD")
    used = set(hands[0]) | set(hands[1]) | set(table)
    stock = [c for c in range(52) if c not in used]
    s = State.from_parts(hands=hands, table=table, stock=stock, dealer=0, check=True)
    assert s.turn == 1
    s.push(Move.parse("7C"))
    return s, Evidence(s.view(0))


def test_a_declined_capture_makes_its_card_less_likely() -> None:
    s, ev = _declined_capture()
    assert len(ev.observed) == 1
    obs = ev.observed[0]
    without_ace = ev.probability(obs, parse_cards("7C QH JS 6S 2H 8C"))
    with_ace = ev.probability(obs, parse_cards("7C QH JS 6S 2H AS"))
    assert with_ace < 0.6 * without_ace
    # Over sampled worlds: those where seat 1 holds an ace weigh less on average.
    worlds = WeightedWorlds(s.view(0), infer=1.0)
    rng = random.Random(1)
    weights: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(400):
        world, w = worlds.sample(rng)
        weights[any(VALUE[c] == 1 for c in world.hands[1])].append(w)
    mean = {k: sum(v) / len(v) for k, v in weights.items()}
    assert mean[True] < 0.6 * mean[False]


def test_model_of_play_prefers_a_xeri_and_fears_giving_one() -> None:
    table = parse_cards("4H")
    assert move_score(Move.parse("4C x 4H"), table, [], True) > move_score(Move.parse("KS"), table, [], True) + 5
    # Laying 6D next to 4H leaves a table one 10 sweeps; laying KS does not.
    assert move_score(Move.parse("6D"), table, [], True) < move_score(Move.parse("KS"), table, [], True)


def test_inference_can_be_turned_off() -> None:
    s, _ = _declined_capture()
    worlds = WeightedWorlds(s.view(0), infer=0.0)
    assert worlds.evidence is None
    assert worlds.sample(random.Random(1))[1] == 1.0
    tempered = WeightedWorlds(s.view(0), infer=0.5)
    full = WeightedWorlds(s.view(0), infer=1.0)
    w_half = tempered.sample(random.Random(2))[1]
    w_full = full.sample(random.Random(2))[1]
    assert w_full == pytest.approx(w_half ** 2) and exp(0) >= w_half > 0


def test_master_settings() -> None:
    p = MasterPlayer(seed=1, iterations=40, seconds=None, width=3, infer=0.5)
    s = State.new(seed=9)
    est = p.estimates(s.view(s.turn))
    assert len(est) == min(3, len(s.legal_moves()))
    assert len(p.estimates(s.view(s.turn), prune=False)) == len(s.legal_moves())


def test_analysis_with_the_masters_search() -> None:
    from diloti.ai.analysis import AnalysisError, rank_moves

    s, _ = _declined_capture()
    view = s.view(0)
    a = rank_moves(view, seed=2, iterations=60, seconds=None, level="master")
    assert a == rank_moves(view, seed=2, iterations=60, seconds=None, level="master")
    assert sorted(m for m, _ in a) == sorted(view.legal)
    assert [v for _, v in a] == sorted((v for _, v in a), reverse=True)
    with pytest.raises(AnalysisError):
        rank_moves(view, level="oracle")


SEARCHES = ["master:iterations=40,seconds=none,tree=1", "master:iterations=40,seconds=none,fair=1,ahead=2,seam=1",
            "master:iterations=40,seconds=none,tree=1,fair=1,ahead=2,explore=2",
            "master:iterations=40,seconds=none,fitted=1", "master:iterations=30,seconds=none,counted=99"]


@pytest.mark.parametrize("spec", SEARCHES)
def test_every_search_is_legal_reproducible_and_view_only(spec: str) -> None:
    rng = random.Random(8)
    for i, s in enumerate(played_positions(12, seed=9)):
        view = s.view(s.turn)
        a = make_player(spec, i).estimates(view)  # type: ignore[attr-defined]
        assert [(e.move, e.mean) for e in a] == [(e.move, e.mean) for e in make_player(spec, i).estimates(view)]  # type: ignore[attr-defined]
        assert s.is_legal(a[0].move)
        other = sample_state(view, rng)
        assert make_player(spec, i).choose(other.view(s.turn)) == a[0].move


def test_tree_search_spends_its_iterations_on_the_candidates() -> None:
    s = played_positions(1, seed=10, players=(2,))[0]
    p = MasterPlayer(seed=1, iterations=90, seconds=None, width=4, tree=1)
    est = p.estimates(s.view(s.turn))
    assert len(est) == min(4, len(s.legal_moves()))
    if len(est) > 1:
        assert sum(e.visits for e in est) == 90 and est[0].visits == max(e.visits for e in est)


def test_tree_search_keeps_its_time_budget() -> None:
    s = played_positions(1, seed=11, players=(4,))[0]
    start = time.perf_counter()
    make_player("master:seconds=0.15,tree=1", 1).choose(s.view(s.turn))
    assert time.perf_counter() - start < 1.5  # the budget and the last iterations' overrun, on a loaded machine


def test_an_unknown_setting_is_named_with_the_known_ones() -> None:
    with pytest.raises(UnknownLevelError) as info:
        make_player("master:depth=3", 1)
    text = str(info.value)
    assert "'depth'" in text and "iterations" in text and "infer" in text and "tree" in text


@pytest.mark.parametrize("bad", ["master:tree=2", "master:fitted=2", "master:counted=-1", "master:fair=3",
                                 "master:seam=-1",
                                 "master:ahead=-1", "master:explore=-1"])
def test_search_setting_errors(bad: str) -> None:
    with pytest.raises(UnknownLevelError) as info:
        make_player(bad, 1)
    assert bad.split(":")[1].split("=")[0] in str(info.value)


def _positions_under_options(count: int, seed: int) -> list[State]:
    """Mid-round positions of random play under random options, 2 and 4 players, each with a choice to make."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        opts = Options.from_dict({n: rng.random() < 0.4 for n in Options.names()
                                  if n not in ("target", "face_card_redeal")})
        s = State.new(rng.choice([2, 4]), opts, seed=rng.randrange(10**9), dealer=rng.randrange(2))
        for _ in range(rng.randrange(48)):
            if s.is_over:
                break
            s.push(rng.choice(s.legal_moves()))
        if not s.is_over and s.legal_moves()[0].card is not None and len(s.legal_moves()) > 1:
            out.append(s)
    return out


def _reference_scores(view: View) -> list[float]:
    """The heuristic's scores as first written: the knowledge helpers composed move by move, the reply by
    expected_best over capture_gains (what the memo of best_replies and the odds table must reproduce)."""
    worth = card_worth((mask_of(view.captured[0]), mask_of(view.captured[1])))
    xeri_ok = xeri_possible(view)
    probs = holder_probabilities(view, (view.seat + 1) % view.players)
    last_card = not view.stock_size and sum(view.hand_sizes) == 1
    out = []
    for m in view.legal:
        card, kind, value, mask = m
        assert card is not None
        score = move_gain(m, view.table, view.declarations, worth, xeri_ok)
        table, declarations = table_after(view.table, view.declarations, m, view.seat)
        if kind == MoveKind.LAY:
            score -= 0.01 + 0.2 * POINTS[card]
        elif kind != MoveKind.CAPTURE:
            pile = mask | BIT[card]
            score += (1.0 - probs[value]) * (mask_points(pile) + worth * (pile.bit_count() + 1))
        if not last_card and sum(view.hand_sizes) > 1:
            score -= expected_best(capture_gains(tuple(table), tuple(declarations), worth), probs)
        out.append(score)
    return out


def test_counted_rollouts_score_as_the_heuristic_does_from_the_view() -> None:
    """The counted rollouts' scores, read from the state, are the heuristic's of the mover's view, to the bit."""
    for s in _positions_under_options(150, seed=12):
        view = s.view(s.turn)
        expected = _reference_scores(view)
        assert counted_scores(s) == expected, s.describe()
        assert [score for _, score in heuristic_scores(view)] == expected
    # A hand larger than a deal's (a position built by hand) is counted without the odds table.
    assert holder_odds(ALL_MASK >> 12, 8, 0, (), 1) == [p_holds(k, 40, 8) for k in keys_of(ALL_MASK >> 12)]


def test_counted_rollouts_see_only_the_movers_view() -> None:
    """Worlds that differ only in what the mover cannot see (the other hands, the stock) get the same counted
    scores and the same counted rollout moves."""
    rng = random.Random(13)
    hidden_differs = 0
    for i, s in enumerate(_positions_under_options(120, seed=14)):
        view = s.view(s.turn)
        other = sample_state(view, rng)
        assert other.view(s.turn) == view
        hidden_differs += other.hands != s.hands or other.stock[other.stock_pos:] != s.stock[s.stock_pos:]
        assert counted_scores(other) == counted_scores(s), s.describe()
        for eps in (0.0, 0.1):
            assert counted_move(other, random.Random(i), eps) == counted_move(s, random.Random(i), eps)
    assert hidden_differs > 100  # the worlds compared do hide different cards
