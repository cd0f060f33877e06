"""The one-card games' C batch plays the Python drivers' hands exactly (issue 52: a compiled loop for every game).

The correctness gate of :mod:`diloti.games.onecard.envs.cbatch`, as tests/test_envs_batch_c.py is Diloti's: the C
batch is stepped side by side with one PettingZoo ``env()`` a game and with the batch's Python backend, from the
same seeds, with random legal actions, comparing every observation, mask, seat to act, reward, end and final
observation at every step, over thousands of steps of whole hands, for Xeri (2 and 4 players) and Kontsina (2, 3
and 4 players); its legal moves are compared with the engine's at every position; random seeds, options, illegal
actions, step limits and dealers by hypothesis; tables grown by lays; a hand exported to Python mid-move.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is not installed")

from hypothesis import given, settings
from hypothesis import strategies as st

from batch_compare import assert_same_step, same, step_beside_pettingzoo
from diloti.envs import pettingzoo_env
from diloti.envs.batch import SelfPlayBatch
from diloti.envs.driver import EnvArgumentError
from diloti.envs.games import find_env_game
from diloti.games.onecard.envs import cbatch

pytestmark = pytest.mark.skipif(not cbatch.available(), reason="the C batch is not built (scripts/build-core)")

CONFIGS = [("xeri", 2), ("xeri", 4), ("kontsina", 2), ("kontsina", 3), ("kontsina", 4)]
#: Options that change a hand, each game's, and with which player counts they may be set.
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "xeri": [{}, {"xeri_jack_double": True}, {"no_xeri_last_card": True}, {"pile_any_pair_redeal": True},
             {"xeri_jack_double": True, "no_xeri_last_card": True, "hands": 3}],
    "kontsina": [{}, {"forced_capture": True}, {"partnerships": True}, {"forced_capture": True, "target": 31}],
}


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_c_batch_steps_as_pettingzoo(game: str, players: int) -> None:
    """Every step of whole hands against one PettingZoo environment a game: thousands of steps."""
    n, seed = 6, 11
    batch = SelfPlayBatch(n, game=game, players=players)
    assert batch.backend == "c"
    envs = [pettingzoo_env.env(game=game, players=players) for _ in range(n)]
    episodes = step_beside_pettingzoo(batch, envs, seed, 700, rng_seed=4)
    assert sum(episodes) >= 40  # 4,200 steps of whole episodes


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_c_moves_are_the_engines(game: str, players: int) -> None:
    """At every position the C kernel's legal moves are the engine's, each once (Kontsina's matches and sums
    counted, so the comparison meets them)."""
    n = 16
    c = SelfPlayBatch(n, game=game, players=players)
    p = SelfPlayBatch(n, game=game, players=players, backend="python")
    oc, op = c.reset(seed=5), p.reset(seed=5)
    kernel = c.kernel
    assert isinstance(kernel, cbatch.CKernel)
    rng = np.random.default_rng(6)
    captures = sums = 0
    for step in range(300):
        for i in range(n):
            d = p.drivers[i]
            if d.decision.head >= 0:
                continue
            engine = sorted((int(m.card), int(m.kind), m.value, m.mask) for m in d.state.legal_moves())
            mine = kernel.moves(i)
            assert len(mine) == len(set(mine)), f"step {step}, game {i}: a move listed twice"
            assert sorted(mine) == engine, f"step {step}, game {i}: {d.state.describe()}"
            captures += sum(1 for m in mine if m[1])
            sums += sum(1 for m in mine if m[3].bit_count() > 1 and game == "kontsina")
        acts = p.sample_actions(rng)
        oc, op = c.step(acts), p.step(acts)
        assert_same_step(oc, op, step)
    assert captures > 100 and (game == "xeri" or sums > 20), (captures, sums)


@st.composite
def configurations(draw: st.DrawFn) -> tuple[str, int, dict[str, Any]]:
    game, players = draw(st.sampled_from(CONFIGS))
    options = draw(st.sampled_from([o for o in OPTIONS[game] if not o.get("partnerships") or players == 4]))
    return game, players, options


@settings(max_examples=40, deadline=None)
@given(config=configurations(), seed=st.integers(0, 2**40), act_seed=st.integers(0, 2**32 - 1),
       max_steps=st.sampled_from([None, 7, 60]), illegal=st.sampled_from([0.0, 0.02]),
       dealer=st.sampled_from([None, 0, 1]))
def test_c_batch_is_the_python_batch(config: tuple[str, int, dict[str, Any]], seed: int, act_seed: int,
                                     max_steps: int | None, illegal: float, dealer: int | None) -> None:
    """From random seeds and options, with step limits, illegal actions and a fixed dealer: the C and the Python
    backends write the same arrays."""
    game, players, options = config
    n = 8
    kw: dict[str, Any] = {"game": game, "players": players, "options": options, "max_steps": max_steps,
                          "illegal_reward": -5.0, "dealer": dealer}
    c, p = SelfPlayBatch(n, **kw), SelfPlayBatch(n, backend="python", **kw)
    assert c.backend == "c"
    oc, op = c.reset(seed=seed), p.reset(seed=seed)
    assert_same_step(oc, op, -1)
    rng = np.random.default_rng(act_seed)
    for step in range(150):
        acts = p.sample_actions(rng)
        if illegal:
            bad = rng.random(n) < illegal
            acts[bad] = np.argmin(op.action_masks[bad], axis=1)  # an action its mask forbids
        oc, op = c.step(acts), p.step(acts)
        assert_same_step(oc, op, step)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kontsina_tables_grown_by_lays(players: int) -> None:
    """Laying whenever possible grows Kontsina's tables (many sums a numeral): the C batch still plays them as the
    Python batch, every step bounded."""
    n = 8
    c = SelfPlayBatch(n, game="kontsina", players=players)
    p = SelfPlayBatch(n, game="kontsina", players=players, backend="python")
    oc, op = c.reset(seed=0), p.reset(seed=0)
    worst = 0.0
    biggest = most = 0
    kernel = c.kernel
    assert isinstance(kernel, cbatch.CKernel)
    for step in range(400):
        actions = []
        for i in range(n):
            allowed = np.flatnonzero(op.action_masks[i])
            lays = [a for a in allowed if a < 104 and a % 2 == 0]
            actions.append(int(lays[0] if lays and step % 7 else allowed[-1]))
            most = max(most, len(kernel.moves(i)))
        start = time.process_time()
        oc = c.step(np.array(actions))
        worst = max(worst, time.process_time() - start)
        op = p.step(np.array(actions))
        assert_same_step(oc, op, step)
        biggest = max(biggest, *(len(d.state.table) for d in p.drivers))
    assert biggest >= 14 and most >= 20, (biggest, most)
    assert worst < 1.0, worst


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_an_exported_hand_goes_on_in_python(game: str, players: int) -> None:
    """export(i) gives the Python driver of game i's hand at the same step (a move being chosen included): it
    observes, masks and plays on as the Python batch's own driver."""
    n = 6
    c = SelfPlayBatch(n, game=game, players=players)
    p = SelfPlayBatch(n, game=game, players=players, backend="python")
    c.reset(seed=3)
    op = p.reset(seed=3)
    rng = np.random.default_rng(2)
    for _ in range(200):  # on to a step where a move is being chosen (Kontsina's items), past the first deal
        acts = p.sample_actions(rng)
        c.step(acts)
        op = p.step(acts)
        if game == "xeri" or any(p.drivers[i].decision.head >= 0 for i in range(n)):
            break
    assert game == "xeri" or any(p.drivers[i].decision.head >= 0 for i in range(n))
    kernel = c.kernel
    assert isinstance(kernel, cbatch.CKernel)
    drivers: list[Any] = [kernel.export(i) for i in range(n)]
    ended = 0
    for _ in range(150):
        acts = p.sample_actions(rng)
        for i, d in enumerate(drivers):
            if d is None:
                continue
            theirs = p.drivers[i]
            assert d.to_act == theirs.to_act and d.applied == theirs.applied
            for seat in range(players):
                assert same(d.observation(seat), theirs.observation(seat))
            assert same(d.mask(), theirs.mask())
            d.apply(int(acts[i]))
        op = p.step(acts)
        for i, d in enumerate(drivers):
            if d is not None and d.over:
                assert op.terminated[i] and op.rewards[i].tolist() == d.returns()
                drivers[i] = None  # the Python batch deals on: this game is compared no more
                ended += 1
    assert ended == n


@pytest.mark.parametrize("options", [{}, {"no_xeri_last_card": True}, {"xeri_jack_double": True},
                                     {"xeri_jack_double": True, "no_xeri_last_card": True}])
@pytest.mark.parametrize("cards", ["7H 7S", "JH JS", "JH 7S"])
def test_the_last_card_of_a_hand_of_xeri(options: dict[str, Any], cards: str) -> None:
    """The hand's last card taking a lone card (a xeri, or none with no_xeri_last_card; a jack's on a jack doubled
    with xeri_jack_double; a jack on another rank no xeri): the C rewards and final observations are the engine's."""
    from diloti.core.cards import parse_cards
    from diloti.games.xeri.envs import LAYOUT
    from diloti.games.xeri.rules import XeriOptions, XeriState

    first, last = parse_cards(cards)
    batch = SelfPlayBatch(1, game="xeri", options=options)
    batch.reset(seed=0)
    kernel = batch.kernel
    assert isinstance(kernel, cbatch.CKernel)
    kernel._batch.start(0, 1, 0, [[first], [last]], [], [])  # seat 0 lays, seat 1's card is the hand's last
    s = XeriState.from_parts(dealer=1, turn=0, hands=[[first], [last]], options=XeriOptions(**options), check=False)
    s.plays, s.deal_no = 0, 1  # as start() counts a hand it is given: from its first play
    batch.step([int(first)])
    out = batch.step([int(last)])
    s.play(str(first))
    s.play(str(last))
    from diloti.games.onecard.envs.driver import side_returns
    from diloti.games.onecard.envs.observation import observe_hand

    assert out.terminated[0] and out.rewards[0].tolist() == side_returns(s.points(), 2, 2)
    for seat in (0, 1):
        assert same(out.final_observations[0, seat], observe_hand(LAYOUT, s.view(seat)))
    assert s.sweeps[1] == (0 if options.get("no_xeri_last_card") or first >> 2 != last >> 2 else 1)


def test_sampled_actions_are_the_python_samplers() -> None:
    """The kernel's sampler draws what sample_masks draws from the same generator, rows without a legal action
    included (0)."""
    from diloti.envs.batch import sample_masks

    for game in ("xeri", "kontsina"):
        c, p = SelfPlayBatch(64, game=game), SelfPlayBatch(64, game=game, backend="python")
        c.reset(seed=8)
        p.reset(seed=8)
        for step in range(60):
            a, b = c.sample_actions(np.random.default_rng(step)), p.sample_actions(np.random.default_rng(step))
            assert a.tolist() == b.tolist()
            c.step(a)
            p.step(b)
        c.buffers.action_masks[3] = 0
        kernel = c.kernel
        assert isinstance(kernel, cbatch.CKernel)
        u = np.random.default_rng(1).random(64)
        assert kernel.sample(u).tolist() == sample_masks(c.buffers.action_masks, np.random.default_rng(1)).tolist()
        assert kernel.sample(u)[3] == 0


def test_which_configurations_use_c(monkeypatch: pytest.MonkeyPatch) -> None:
    for game, players in CONFIGS:
        assert SelfPlayBatch(2, game=game, players=players, max_steps=9).backend == "c"
        assert SelfPlayBatch(2, game=game, players=players, backend="python").backend == "python"
    for game in ("xeri", "kontsina"):
        assert cbatch.layout_matches(find_env_game(game).part)  # type: ignore[arg-type]
    # A layout the C kernel does not write (changed in Python only): the drivers, never wrong bytes.
    monkeypatch.setitem(cbatch._KNOWN, "kontsina", {"partnerships"})  # an option it would not know: target
    assert SelfPlayBatch(2, game="kontsina", options={"target": 31}).backend == "python"
    monkeypatch.setattr(cbatch, "layout_matches", lambda env: False)
    assert SelfPlayBatch(2, game="xeri").backend == "python"
    with pytest.raises(EnvArgumentError, match="invalid backend='kernel': xeri has no batched kernel"):
        SelfPlayBatch(2, game="xeri", backend="kernel")


def test_without_the_c_extension_the_batch_plays_its_drivers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cbatch, "_cbatch", None)
    assert not cbatch.available()
    batch = SelfPlayBatch(3, game="kontsina", players=3)
    assert batch.backend == "python" and batch.kernel is None
    out = batch.reset(seed=2)
    assert out.action_masks.sum(axis=1).min() >= 1 and batch.python_games() == [0, 1, 2]


def test_bad_kernel_inputs_name_the_input() -> None:
    batch = SelfPlayBatch(2, game="xeri")
    batch.reset(seed=0)
    kernel = batch.kernel
    assert isinstance(kernel, cbatch.CKernel)
    with pytest.raises(IndexError, match="invalid game index 5"):
        kernel.moves(5)
    with pytest.raises(ValueError, match="invalid actions: expected 2 int64"):
        kernel.step(np.zeros(3, np.int64))
    with pytest.raises(EnvArgumentError, match="invalid actions\\[1\\]=9999"):
        batch.step([0, 9999])
    with pytest.raises(ValueError, match="invalid card 52 in table"):
        kernel._batch.start(0, 0, 1, [[], []], [52], [])
    native = cbatch._cbatch
    assert native is not None
    b = batch.buffers
    with pytest.raises(ValueError, match=r"invalid Batch\(num_envs=2, game=1, players=5, sides=5\)"):
        native.Batch(2, 1, 5, 5, (False,) * 5, b.observations, b.action_masks, b.to_act, b.rewards,
                     b.terminated.view("u1"), b.truncated.view("u1"), b.illegal.view("u1"), b.final_observations,
                     -1.0, -1)
