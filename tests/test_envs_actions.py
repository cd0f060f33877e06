"""The factored action encoding: exact masks, every legal move reachable by exactly one sequence.

Positions come from random rounds of every option mix, 2 and 4 players, played
by a chooser that often lays or declares (so that tables grow and the
liberal options make long move lists). At each position the whole tree of
action sequences is walked: every action the mask allows leads on to at least
one legal move, every legal move is reached, and by exactly one sequence,
which is also what :meth:`Decision.encode` gives, and what :func:`sequence` gives from the move and
the table alone (so that no action id depends on the mover's hidden cards).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diloti.core.moves import CAPTURE, GROUP, KEEP, LAY, PLAIN, REDEAL, Move
from diloti.core.phase import Phase
from diloti.envs.actions import InvalidActionError
from diloti.games.diloti.envs.actions import (
    HEADS,
    ITEM,
    KEEP_ACTION,
    NUM_ACTIONS,
    NUM_HEADS,
    REDEAL_ACTION,
    STOP,
    Decision,
    describe,
    head_of,
    item_mask,
    sequence,
    steps_of,
)
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State
from helpers import options_st

LIBERAL = Options(liberal_groups=True, liberal_raise=True, liberal_capture=True, self_raise=True)


def walk(decision: Decision, prefix: list[int], out: dict[Move, list[int]]) -> None:
    """Every action sequence from ``decision`` (at ``prefix``), checking each step's mask."""
    actions = decision.legal_actions()
    assert actions == sorted(set(actions)) and actions, f"empty or unsorted mask after {prefix}"
    if prefix:
        assert all(a >= ITEM for a in actions), "an item step offers a head"
    else:
        assert all(a < NUM_HEADS for a in actions), "the first step offers an item"
    for a in actions:
        d = decision.copy()
        move = d.apply(a)
        if move is None:
            walk(d, [*prefix, a], out)
        else:
            assert move not in out, f"{move} reached by {out[move]} and {[*prefix, a]}"
            out[move] = [*prefix, a]


def check_position(s: State) -> int:
    legal = s.legal_moves()
    d = Decision.of(s)
    if not legal:
        assert d.done and d.legal_actions() == []
        return 0
    found: dict[Move, list[int]] = {}
    walk(d, [], found)
    assert set(found) == set(legal) and len(found) == len(legal)
    low = item_mask(s.table, s.declarations)
    for m, seq in found.items():
        assert d.encode(m) == seq
        assert d.decode(seq) == m
        assert seq == sequence(head_of(m), m.mask & low, low)
        assert steps_of(m, s.table, s.declarations) == len(seq)  # the drivers' count of a whole move's steps
    # An action outside the mask is refused with its name and the step.
    illegal = next(a for a in range(NUM_ACTIONS) if a not in d.actions)
    with pytest.raises(InvalidActionError, match=f"illegal action {illegal} "):
        d.copy().apply(illegal)
    return len(legal)


def chooser(rng: random.Random, moves: list[Move]) -> Move:
    """Random, but laying or declaring half the time when it can (tables grow)."""
    if rng.random() < 0.5:
        building = [m for m in moves if m.kind in (LAY, PLAIN, GROUP)]
        if building:
            return rng.choice(building)
    return rng.choice(moves)


def play_round(seed: int, players: int, options: Options) -> tuple[int, int]:
    """Check every position of one random round; (positions, largest move count)."""
    rng = random.Random(seed)
    s = State.new(players, options, dealer=rng.randrange(players), seed=seed)
    n = biggest = 0
    while True:
        biggest = max(biggest, check_position(s))
        n += 1
        if s.is_over:
            return n, biggest
        s.push(chooser(rng, s.legal_moves()))


def test_heads_table() -> None:
    assert len(HEADS) == NUM_HEADS == 506 and ITEM == 506 and STOP == 558 and NUM_ACTIONS == 559
    assert len(set(HEADS)) == NUM_HEADS
    assert HEADS[KEEP_ACTION] == (None, KEEP, 0) and HEADS[REDEAL_ACTION] == (None, REDEAL, 0)
    for i, (card, kind, value) in enumerate(HEADS[:KEEP_ACTION]):
        assert card is not None
        assert head_of(Move(card, kind, value, 0)) == i
        if card >= 40:
            assert kind in (LAY, CAPTURE) and value == 0
    assert [describe(a) for a in (0, 1, 2, 11, 504, 505, ITEM, STOP)] == [
        "AC lay", "AC capture", "AC plain 2", "AC group 1", "keep", "redeal", "item AC", "stop"]
    with pytest.raises(InvalidActionError, match="invalid action 559"):
        describe(NUM_ACTIONS)
    with pytest.raises(InvalidActionError, match="no head action"):
        head_of(Move.parse("9D + 4H = 3"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), players=st.sampled_from([2, 4]), options=options_st)
def test_exact_masks_every_option_mix(seed: int, players: int, options: Options) -> None:
    play_round(seed, players, options)


def test_thousands_of_positions_liberal() -> None:
    """Seeded rounds with the liberal options (the longest move lists), 2 and 4 players."""
    positions = biggest = 0
    for seed in range(100):
        n, b = play_round(seed, 2 if seed % 3 else 4, LIBERAL)
        positions += n
        biggest = max(biggest, b)
    assert positions > 2500
    assert biggest > 40


def test_long_move_lists() -> None:
    """Rounds in which players mostly lay, so that tables grow: move lists of hundreds of moves and more."""
    biggest = 0
    for seed in range(10):
        rng = random.Random(seed)
        s = State.new(2, LIBERAL if seed % 2 else Options(), seed=seed)
        while not s.is_over and len(s.table) <= 14:
            biggest = max(biggest, check_position(s))
            moves = s.legal_moves()
            lays = [m for m in moves if m.kind == LAY]
            s.push(rng.choice(lays) if lays and rng.random() < 0.95 else rng.choice(moves))
    assert biggest > 500


def test_redeal_decision() -> None:
    opts = Options(face_card_redeal="first_deal")
    for seed in range(3000):
        s = State.new(2, opts, seed=seed)
        if s.phase == 1:
            break
    else:  # pragma: no cover - the seeds above hold a redeal decision
        pytest.fail("no face-card redeal decision found")
    d = Decision.of(s)
    assert d.legal_actions() == [KEEP_ACTION, REDEAL_ACTION]
    assert d.copy().apply(KEEP_ACTION) == Move.keep() and d.apply(REDEAL_ACTION) == Move.redeal()


def test_apply_after_unique_and_decode_errors() -> None:
    s = State.new(seed=7)
    d = Decision.of(s)
    m = s.legal_moves()[0]
    seq = d.encode(m)
    with pytest.raises(InvalidActionError, match="goes on"):
        d.decode([*seq, STOP])
    with pytest.raises(InvalidActionError, match="not among the legal moves"):
        d.encode(Move.parse("KS"))


def test_action_ids_do_not_depend_on_the_movers_hidden_cards() -> None:
    """Worlds another seat cannot tell apart (the mover's hand dealt again): every move legal in two of
    them has the same action sequence in both, and the same sequence means the same move."""
    from diloti.games.diloti.players.sampler import Worlds

    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        s = State.new(2, LIBERAL if seed % 2 else Options(), dealer=seed % 2, seed=seed)
        while not s.is_over:
            if s.phase == Phase.PLAY and s.declarations:
                watcher = (s.turn + 1) % s.players
                worlds = Worlds(s.view(watcher))
                mine = {m: Decision.of(s).encode(m) for m in s.legal_moves()}
                for _ in range(4):
                    other = worlds.sample(rng)
                    d = Decision.of(other)
                    for m in other.legal_moves():
                        seq = d.encode(m)
                        if m in mine:
                            assert seq == mine[m], (s, other, m)
                            compared += 1
                        assert d.decode(seq) == m
            s.push(chooser(rng, s.legal_moves()))
    assert compared > 200
