"""The exact solver of a round's perfect-information end (issue 54): every move's value equals a brute-force
minimax's, in every game and option mix; the players, the hints and the review use it where it applies."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from diloti.ai import InvalidSettingError, UnknownLevelError, make_player
from diloti.ai.analysis import rank_moves
from diloti.ai.exact import (
    OverLimit,
    best_moves,
    exact_ranking,
    exact_state,
    is_exact,
    scoring_of,
    solve,
    solve_best,
    solve_counted,
)
from diloti.ai.master import MasterPlayer
from diloti.ai.review import EXACT_REASON, Point, review_decision
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.core.registry import GameInfo, registered
from diloti.games import find_game
from diloti.games.kontsina.rules import KontsinaOptions
from diloti.match.workers import rank_hint
from toy_players import ToyGame, ToyState

GAMES = ("diloti", "xeri", "kontsina")
# The most cards a hand holds in the positions checked against the brute force (its cost grows fast).
BRUTE_CARDS = {"diloti": 3, "xeri": 4, "kontsina": 3}


def brute(st: Any) -> dict[Move, int]:
    """Each legal move's value for the mover by plain minimax to the round's end (no table, no pruning): the
    round's points of the mover's side less the other's, as the game scores the finished round."""

    def value(side: int) -> int:  # the position's value for ``side``
        if st.is_over:
            points = st.points()
            return int(points[side] - points[1 - side])
        mover = st.turn % 2
        best = None
        for m in st.legal_moves():
            st.push(m)
            v = value(mover)
            st.pop()
            best = v if best is None else max(best, v)
        assert best is not None
        return best if mover == side else -best

    side = st.turn % 2
    out = {}
    for m in st.legal_moves():
        st.push(m)
        out[m] = value(side)
        st.pop()
    return out


def option_mixes(game: str) -> list[Any]:
    """The game's options: the defaults, each flag and word alone, every flag at once, and random mixes (the
    4-player ``partnerships`` aside)."""
    cls = find_game(game).options
    base = cls()
    flags = [n for n in cls.names() if isinstance(getattr(base, n), bool) and n != "partnerships"]
    mixes: list[dict[str, Any]] = [{}, dict.fromkeys(flags, True)]
    mixes += [{n: True} for n in flags]
    mixes += [{n: w} for n, words in cls.CHOICES.items() for w in words if w != getattr(base, n)]
    rng = random.Random(game)
    for _ in range(4):
        mix: dict[str, Any] = {n: rng.random() < 0.5 for n in flags}
        mix.update({n: rng.choice(words) for n, words in cls.CHOICES.items()})
        mixes.append(mix)
    return [cls(**m) for m in mixes]


def last_deal(game: str, options: Any, cards: int, rng: random.Random, policy: str = "random") -> Any:
    """A position of a 2-player round played on (at random, or by the heuristic) to its last deal, the seat to
    move holding ``cards`` cards (the other as many, or one fewer)."""
    info = find_game(game)
    bots = [make_player("heuristic", rng.randrange(1 << 30)) for _ in range(2)] if policy == "heuristic" else []
    while True:
        s = info.state.new(2, options, dealer=rng.randrange(2), seed=rng.randrange(1 << 40))
        while not s.is_over:
            if s.stock_size == 0 and s.phase == Phase.PLAY and len(s.hands[s.turn]) == cards:
                return s
            if bots:
                s.push(bots[s.turn].choose(s.view(s.turn)))
            else:
                moves = s.legal_moves()
                s.push(moves[rng.randrange(len(moves))])


@cache
def checked_positions(game: str) -> list[Any]:
    """Last-deal positions of every option mix, played at random and by the heuristic (shared: don't change)."""
    rng = random.Random(54)
    out: list[Any] = []
    for i, options in enumerate(option_mixes(game)):
        for policy in ("random", "heuristic", "random", "heuristic"):
            out.append(last_deal(game, options, 1 + (i + len(out)) % BRUTE_CARDS[game], rng, policy))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_moves_value_is_the_brute_forces(game: str) -> None:
    positions = checked_positions(game)
    assert {p.options for p in positions} == set(option_mixes(game))
    for s in positions:
        assert is_exact(s), s.describe()
        before = s.key()
        values = solve(s)
        assert values is not None, s.describe()
        assert s.key() == before  # the search plays on a copy
        assert values == brute(s.copy()), (s.options, s.describe())
        move, value = solve_best(s) or (None, None)
        assert value == max(values.values()) and move in best_moves(values)


@pytest.mark.parametrize("game", GAMES)
def test_the_scoring_model_is_the_games_own(game: str) -> None:
    # The solver scores finished rounds (and keeps its table's entries net of the points made) with its own model
    # of each game's scoring: it must agree with the game's points, under every option mix.
    rng = random.Random(7)
    info = find_game(game)
    for options in option_mixes(game):
        for _ in range(3):
            s = info.state.new(2, options, dealer=rng.randrange(2), seed=rng.randrange(1 << 40))
            scoring = scoring_of(s)
            assert scoring is not None
            while not s.is_over:
                moves = s.legal_moves()
                s.push(moves[rng.randrange(len(moves))])
            tallies = [getattr(s, name) for name, _ in scoring.tallies]
            assert scoring.points(s.captured, s.sweeps, tallies) == tuple(s.points()), (options, s.describe())


def test_longer_last_deals_agree_with_the_brute_force_in_each_game() -> None:
    # A few positions with more cards than the option mixes' (the table's transpositions matter more there).
    rng = random.Random(3)
    for game, cards in (("diloti", 4), ("xeri", 5), ("kontsina", 4)):
        info = find_game(game)
        s = last_deal(game, info.options(), cards, rng, "heuristic")
        assert solve(s) == brute(s.copy()), s.describe()


def test_what_is_exact() -> None:
    rng = random.Random(2)
    s = last_deal("diloti", find_game("diloti").options(), 3, rng)
    assert is_exact(s) and is_exact(s.view(s.turn))
    assert not is_exact(find_game("diloti").state.new(2, seed=1))  # a stock to deal: hidden cards
    four = find_game("kontsina").state.new(4, seed=1)
    while four.stock_size:
        four.push(four.legal_moves()[0])
    assert not is_exact(four) and solve(four) is None  # four players: the unseen cards are three hands
    three = find_game("kontsina").state.new(3, seed=1)
    while three.stock_size:
        three.push(three.legal_moves()[0])
    assert not is_exact(three)
    # A view whose legal moves are a large table's sample is not searched (its moves are not all known).
    assert not is_exact(replace(s.view(s.turn), complete=False))
    # A game whose players part declares no scoring (a test's, a plug-in's): Kontsina's table under another name.
    info = GameInfo("toy", ToyState, ToyGame, KontsinaOptions, (2, 3, 4), "tests/test_exact.py", "hand",
                    {"players": "toy_players"})
    with registered(info):
        toy = ToyState.new(2, seed=1)
        while toy.stock_size:
            toy.push(toy.legal_moves()[0])
        assert toy.phase == Phase.PLAY and not is_exact(toy) and solve(toy) is None


@pytest.mark.parametrize("game", GAMES)
def test_the_state_of_an_exact_view_is_the_true_state(game: str) -> None:
    # Every option mix's positions (Diloti's with declarations on the table among them), from either seat.
    positions = checked_positions(game)
    assert game != "diloti" or any(s.declarations for s in positions)
    for s in positions:
        for seat in (0, 1):
            w = exact_state(s.view(seat))
            assert w is not None
            assert (w.hands, w.table, w.captured, w.sweeps, w.turn, w.last_capturer, w.plays) == (
                s.hands, s.table, s.captured, s.sweeps, s.turn, s.last_capturer, s.plays)
            assert getattr(w, "declarations", None) == getattr(s, "declarations", None)
            assert getattr(w, "jack_xeri", None) == getattr(s, "jack_xeri", None)
        assert solve(exact_state(s.view(s.turn))) == solve(s)


def test_past_its_limits_the_solver_answers_none() -> None:
    rng = random.Random(9)
    s = last_deal("diloti", find_game("diloti").options(), 5, rng, "heuristic")
    assert solve(s, node_limit=3) is None and solve_best(s, node_limit=3) is None
    found = solve_counted(s, node_limit=10**6)
    assert found.values is not None and found.nodes > 3
    assert solve(s, node_limit=found.nodes) == found.values  # the limit is of positions: it is reproducible
    assert issubclass(OverLimit, Exception)


@cache
def played_last_deals() -> list[Any]:
    """Last-deal positions of heuristic play, 2 to 5 cards a hand, in each game (shared: don't change)."""
    rng = random.Random(11)
    return [last_deal(game, find_game(game).options(), cards, rng, "heuristic")
            for game in GAMES for cards in ((2, 3, 4, 5) if game != "kontsina" else (2, 3, 4))]


@pytest.mark.parametrize("spec", ["master:iterations=8,seconds=none", "expert:iterations=8,seconds=none",
                                  "master:cpu=1", "expert:seconds=0.5,cpu=1"])
def test_the_search_players_choose_a_best_move_in_every_exact_position(spec: str) -> None:
    for i, s in enumerate(played_last_deals()):
        values = solve(s)
        assert values is not None
        move = make_player(spec, i).choose(s.view(s.turn))
        assert values[move] == max(values.values()), (spec, s.describe(), str(move), values)


def test_exact_zero_is_the_search_of_before() -> None:
    s = played_last_deals()[3]
    p = make_player("master:iterations=8,seconds=none,exact=0", 1)
    assert not p.exact  # type: ignore[attr-defined]
    assert s.is_legal(p.choose(s.view(s.turn)))
    with pytest.raises(UnknownLevelError, match="invalid exact 2: expected 0 or 1"):
        make_player("expert:exact=2", 1)
    with pytest.raises(InvalidSettingError):
        MasterPlayer(exact=2)


def test_hints_and_analysis_rank_exact_positions_by_the_solver() -> None:
    for s in played_last_deals()[:6]:
        view = s.view(s.turn)
        values = solve(s)
        assert values is not None
        ranked = rank_moves(view, seed=1, iterations=10, seconds=None, level="master")
        assert dict(ranked) == {m: float(v) for m, v in values.items()}
        assert ranked == exact_ranking(view)
        assert [v for _, v in ranked] == sorted(values.values(), reverse=True)
        hint = rank_hint(view, seed=1, ply=s.plays, level="expert")
        assert hint[0][0] in best_moves(values) and hint[0][1] == max(values.values())


def test_the_review_judges_exact_positions_exactly_and_never_marks_a_best_move() -> None:
    seen_marks = 0
    for i, s in enumerate(played_last_deals()):
        view = s.view(s.turn)
        values = solve(s)
        assert values is not None
        if len(values) < 2:
            continue
        top = max(values.values())
        for move, value in values.items():
            d = review_decision(Point(1, i, 1, view, move), worlds=2, seed=1)
            assert d.exact and d.reason == EXACT_REASON and d.judged
            assert (d.best_points, d.played_points, d.lost) == (top, value, top - value)
            assert (d.mark is None) == (top - value < 1.0)
            if value == top:
                assert d.mark is None and d.lost == 0.0
            seen_marks += d.mark is not None
    assert seen_marks  # some move of these positions does lose points
    # Not exact (cards still to deal): the search judges, and says nothing of exactness.
    s = find_game("diloti").state.new(2, seed=3)
    v = s.view(s.turn)
    d = review_decision(Point(1, 0, 1, v, v.legal[0]), worlds=2, seed=1)
    assert not d.exact and d.reason is None
