"""Computer players: legal moves everywhere, no peeking, reproducible, consistent sampling."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from diloti.ai import LEVELS, MEASUREMENT_LEVELS, UnknownLevelError, level_plays, make_player, parse_spec
from diloti.ai.expert import OraclePlayer
from diloti.ai.heuristic import expected_best
from diloti.core.cards import mask_of, parse_cards
from diloti.core.moves import Declaration, Move, MoveKind
from diloti.games.diloti.game import Game
from diloti.games.diloti.options import Options
from diloti.games.diloti.players.knowledge import best_capture, sweep_values
from diloti.games.diloti.players.sampler import consistent, sample_state
from diloti.games.diloti.state import State

BOOL_OPTIONS = [n for n in Options.names() if n not in ("target", "face_card_redeal")]
FAST: dict[str, dict[str, Any]] = {"expert": {"iterations": 6, "seconds": None},
                                  "master": {"iterations": 8, "seconds": None}}
SEARCH = ("expert", "master")


def random_options(rng: random.Random) -> Options:
    opts = {n: rng.random() < 0.3 for n in BOOL_OPTIONS}
    return Options(face_card_redeal=rng.choice(["off", "first_deal", "any_deal"]), **opts)


@cache
def random_positions(count: int, seed: int) -> list[State]:
    """Positions reached by random play, with random options, 2 and 4 players (shared: don't modify)."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        s = State.new(rng.choice([2, 4]), random_options(rng), dealer=rng.randrange(4), seed=rng.randrange(10**9))
        depth = rng.randrange(48)
        for _ in range(depth):
            if s.is_over:
                break
            moves = s.legal_moves()
            s.push(moves[rng.randrange(len(moves))])
        if not s.is_over:
            out.append(s)
    return out


def bot(level: str, seed: int) -> object:
    return make_player(level, seed, measurement=True, **FAST.get(level, {}))


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_only_legal_moves(level: str) -> None:
    positions = random_positions(1000, seed=1)
    for i, s in enumerate(positions[:150] if level in SEARCH else positions):
        if not level_plays(level, "diloti", s.players):  # the learned level: the player counts it was trained for
            continue
        move = bot(level, i).choose(s.view(s.turn))  # type: ignore[attr-defined]
        assert s.is_legal(move), (level, str(move), s.describe())


def test_oracle_plays_legal_moves_from_the_state_only() -> None:
    oracle = OraclePlayer(seed=3, iterations=6, seconds=None)
    for s in random_positions(60, seed=5):
        assert s.is_legal(oracle.choose_full(s))
    with pytest.raises(ValueError, match="full state"):
        oracle.choose(s.view(s.turn))
    assert "oracle" not in LEVELS and "oracle" in MEASUREMENT_LEVELS
    with pytest.raises(UnknownLevelError):
        make_player("oracle", 1)
    assert make_player("oracle:iterations=6", 1, measurement=True).name == "oracle"


def test_sampler_never_contradicts_the_view() -> None:
    rng = random.Random(7)
    states = random_positions(250, seed=11)
    # positions where declarations bind their owners, and the dealer-peek option
    states += [s for s in random_positions(400, seed=12) if s.declarations][:150]
    with_piles = 0
    for s in states:
        for seat in range(s.players):
            view = s.view(seat)
            for _ in range(4):
                world = sample_state(view, rng, check=True)  # validate(): every card exactly once
                assert consistent(view, world) == [], (seat, s.describe(), world.describe())
                assert world.view(seat).legal == view.legal or seat != s.turn
        with_piles += bool(s.declarations)
    assert with_piles > 50


def test_sampler_keeps_the_bottom_card_for_the_dealer() -> None:
    s = State.new(2, Options(dealer_sees_bottom=True), dealer=0, seed=21)
    view = s.view(0)
    assert view.bottom is not None
    rng = random.Random(1)
    for _ in range(50):
        world = sample_state(view, rng)
        assert world.remaining_stock[-1] == view.bottom
    assert s.view(1).bottom is None


def test_sampler_gives_each_declarer_its_value() -> None:
    # seat 1 owns a plain 9 and holds exactly one unseen 9 among many cards.
    s = State.from_parts(
        hands=[parse_cards("2C 3C 4C 5C 6C"), parse_cards("9D KH QH JH AH")],
        table=parse_cards("7D"), declarations=[Declaration(mask_of(parse_cards("4D 5D")), 9, MoveKind.PLAIN, 1)],
        stock=[c for c in range(52) if c not in parse_cards("2C 3C 4C 5C 6C 9D KH QH JH AH 7D 4D 5D")],
        turn=0, check=False,
    )
    view = s.view(0)
    rng = random.Random(3)
    for _ in range(200):
        world = sample_state(view, rng)
        assert any(c.value == 9 for c in world.hands[1])
        assert consistent(view, world) == []


@pytest.mark.parametrize("level", list(LEVELS))
def test_hidden_cards_do_not_change_the_move(level: str) -> None:
    rng = random.Random(17)
    for i, s in enumerate(random_positions(25 if level in SEARCH else 80, seed=23)):
        if not level_plays(level, "diloti", s.players):
            continue
        view = s.view(s.turn)
        other = sample_state(view, rng)  # the same view over different hidden cards
        other_view = other.view(s.turn)
        assert other_view == view
        a = bot(level, i).choose(view)  # type: ignore[attr-defined]
        b = bot(level, i).choose(other_view)  # type: ignore[attr-defined]
        assert a == b


@pytest.mark.parametrize("level", ["greedy", "heuristic", "expert", "master"])
def test_same_seed_same_game(level: str) -> None:
    def play(seed: int) -> list[tuple[int, Move]]:
        g = Game(2, Options(target=15), seed=99)
        bots = [bot(level, seed), bot("heuristic", seed + 1)]
        while not g.is_over:
            seat = g.state.turn
            g.push(bots[seat].choose(g.view(seat)))  # type: ignore[attr-defined]
        return [m for r in g.rounds for m in r.moves]

    assert play(5) == play(5)


def test_greedy_takes_a_xeri_and_avoids_giving_one() -> None:
    s = State.from_parts(hands=[parse_cards("8C 3H"), parse_cards("KS 2D")], table=parse_cards("3C 5D"),
                         stock=(), captured=[(), ()], plays=10, turn=0, check=False)
    move = make_player("greedy", 1).choose(s.view(0))
    assert str(move) == "8C x 3C 5D"


def position(hand: str, other: str, table: str, captured: tuple[str, str] = ("", "")) -> State:
    """Seat 0 to move late in a round, the stock empty, everything else captured by side 1."""
    used = parse_cards(f"{hand} {other} {table} {captured[0]} {captured[1]}")
    rest = [c for c in range(52) if c not in used]
    return State.from_parts(hands=[parse_cards(hand), parse_cards(other)], table=parse_cards(table), stock=(),
                            captured=[parse_cards(captured[0]), [*parse_cards(captured[1]), *rest]],
                            plays=30, turn=0, check=True)


def test_rule_players_do_not_offer_a_xeri() -> None:
    # Laying 7D next to 3C offers the 10 in the other hand a xeri; KS cannot be swept with the 3C.
    s = position("7D KS", "10H 2D", "3C")
    for level in ("greedy", "heuristic"):
        assert str(make_player(level, 1).choose(s.view(0))) == "KS"


def test_heuristic_declares_what_the_opponent_cannot_take() -> None:
    # Every other 8 is captured: 5H + 3C = 8 is safe, and the 8D will take the pile next turn.
    s = position("5H 8D", "KH 2D", "3C", ("8C 8H 8S", ""))
    assert str(make_player("heuristic", 1).choose(s.view(0))) == "5H + 3C = 8"


def test_rank_moves_is_reproducible_and_ranks_every_move() -> None:
    from diloti.ai.analysis import AnalysisError, rank_moves

    s = State.new(seed=31)
    view = s.view(s.turn)
    a = rank_moves(view, seed=2, iterations=60, seconds=None)
    assert a == rank_moves(view, seed=2, iterations=60, seconds=None)
    assert sorted(m for m, _ in a) == sorted(view.legal)
    assert [v for _, v in a] == sorted((v for _, v in a), reverse=True)
    with pytest.raises(AnalysisError):
        rank_moves(s.view(1 - s.turn))


def test_knowledge_helpers() -> None:
    assert sweep_values(parse_cards("AC 4D 5H 8S"), ()) == {9}
    assert sweep_values(parse_cards("KH"), ()) == {13}
    assert sweep_values(parse_cards("KH 2C"), ()) == set()
    assert best_capture(parse_cards("AC 9D"), (), 10, 0.0) == 11.0  # the ace and a xeri
    assert expected_best([0, 2, 4], [0, 1.0, 1.0]) == 4.0


def test_specs() -> None:
    assert parse_spec("expert:iterations=20,seconds=none") == ("expert", {"iterations": 20, "seconds": None})
    for bad in ("nobody", "expert:iterations", "expert:iterations=x", "expert:depth=3", "expert:iterations=0"):
        with pytest.raises(UnknownLevelError):
            make_player(bad, 1)


def test_one_way_to_make_a_player() -> None:
    """A level name, a spec with settings and keyword settings all go through make_player."""
    import diloti.ai as ai

    assert not hasattr(ai, "make_player_spec")
    assert make_player("expert:iterations=20,seconds=none", 1).iterations == 20  # type: ignore[attr-defined]
    assert make_player("expert:iterations=20", 1, iterations=30).iterations == 30  # type: ignore[attr-defined]
    with pytest.raises(UnknownLevelError) as info:
        make_player("expert:iterations=0", 1)
    assert info.value.input == "expert:iterations=0" and "invalid iterations 0" in str(info.value)


def test_greedy_and_heuristic_share_one_choice() -> None:
    from diloti.ai import GreedyPlayer, HeuristicPlayer, ScoringPlayer

    assert GreedyPlayer.choose is HeuristicPlayer.choose is ScoringPlayer.choose
    assert "choose" not in vars(GreedyPlayer) and "choose" not in vars(HeuristicPlayer)


@pytest.mark.parametrize("level", list(MEASUREMENT_LEVELS))
def test_errors_are_diloti_errors_carrying_the_input(level: str) -> None:
    from diloti.ai import NoMoveError, PlayerError
    from diloti.core.errors import DilotiError

    s = State.new(seed=3)
    view = s.view(1 - s.turn)  # not to move: no legal move
    player = make_player(level, 1, measurement=True, **FAST.get(level, {}))
    with pytest.raises(PlayerError) as info:
        player.choose(view)
    assert isinstance(info.value, DilotiError) and info.value.input is view
    assert level == "oracle" or isinstance(info.value, NoMoveError)


def test_player_errors_pickle_as_they_are() -> None:
    """A worker process answers with the error itself (a pool must not break on unpickling it)."""
    import pickle

    from diloti.ai.errors import InvalidSettingError, NoMoveError, UnknownLevelError

    view = State.new(seed=1).view(0)
    for err in (NoMoveError(view), InvalidSettingError("iterations", -1, "at least 1"),
                UnknownLevelError("unknown level 'x'", "x")):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err) and str(back) == str(err) and back.__dict__.keys() == err.__dict__.keys()


# ------------------------------------------------------------------ budgets on the CPU clock
@pytest.mark.parametrize("level", ["expert", "master"])
@pytest.mark.parametrize("cpu", [0, 1])
def test_a_budget_is_counted_on_the_clock_its_cpu_setting_names(level: str, cpu: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # One clock stands still and the other moves 10 ms a reading: the second is spent after about 100
    # readings of the clock the search counts on (cpu=1: the thread's CPU time; cpu=0: the wall clock), so
    # the search stops long before its 100,000 playouts; counting on the other clock it would not stop.
    import itertools
    import time

    ticks = itertools.count()
    moving, still = ("thread_time", "perf_counter") if cpu else ("perf_counter", "thread_time")
    monkeypatch.setattr(time, moving, lambda: next(ticks) * 0.01)
    monkeypatch.setattr(time, still, lambda: 0.0)
    s = State.new(seed=3)
    bot: Any = make_player(f"{level}:iterations=100000,seconds=1,cpu={cpu}", seed=1)
    assert 0 < sum(e.visits for e in bot.estimates(s.view(s.turn))) < 2_000


def test_the_cpu_setting_is_0_or_1() -> None:
    with pytest.raises(UnknownLevelError, match="cpu"):
        make_player("master:cpu=2")
    assert make_player("expert:cpu=1").cpu is True  # type: ignore[attr-defined]
