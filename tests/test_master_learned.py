"""The master with the learned policy as the model of its inference (issue 53, item 2): the setting, the replayed
views the policy is asked about, the weights as the policy's likelihood, legal and reproducible play from the
seat's view, and the fallback to the game's own model where the learned level does not claim the game."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")

from diloti import ai  # noqa: E402
from diloti.ai import UnknownLevelError  # noqa: E402
from diloti.ai.errors import InvalidSettingError  # noqa: E402
from diloti.ai.learned.features import move_features, position_features  # noqa: E402
from diloti.ai.learned.network import load_weights  # noqa: E402
from diloti.ai.master import MasterPlayer, learned_model  # noqa: E402
from diloti.core.cards import parse_cards  # noqa: E402
from diloti.core.moves import Move  # noqa: E402
from diloti.core.registry import find_game  # noqa: E402
from diloti.games.diloti.players.inference import WeightedWorlds  # noqa: E402
from diloti.games.diloti.players.opponent import ModelEvidence, PooledWorlds, replay  # noqa: E402
from diloti.games.diloti.players.sampler import sample_state  # noqa: E402
from diloti.games.diloti.state import State  # noqa: E402

FAST = "master:model=learned,infer=1,iterations=24,seconds=none"


def _games(count: int, seed: int, players: int = 2) -> list[list[State]]:
    """Rounds of heuristic play, every position kept (copies, with their history)."""
    rng = random.Random(seed)
    out: list[list[State]] = []
    for _ in range(count):
        s = State.new(players, seed=rng.randrange(10**9), dealer=rng.randrange(players))
        bots = [ai.make_player("heuristic", i) for i in range(players)]
        kept = []
        while not s.is_over:
            kept.append(s.copy(stack=True))
            s.push(bots[s.turn].choose(s.view(s.turn)))
        out.append(kept)
    return out


def _probability(view: object, move: Move, mix: float) -> float:
    """The learned policy's chance of ``move`` from ``view``, mixed with the uniform, computed directly."""
    net = load_weights()
    scores = net.scores(position_features(view), move_features(view)).astype(float)
    p = np.exp(scores - scores.max())
    legal = list(view.legal)  # type: ignore[attr-defined]
    return float((1 - mix) * p[legal.index(move)] / p.sum() + mix / len(legal))


def test_the_setting_parses() -> None:
    player = ai.make_player("master:model=learned,infer=1,pool=64", 1)
    assert isinstance(player, MasterPlayer) and (player.model, player.pool) == ("learned", 64)
    plain = ai.make_player("master", 1)  # numpy is here: the default model is the learned one
    assert isinstance(plain, MasterPlayer) and (plain.model, plain.pool) == ("learned", 0)
    assert ai.make_player("master:model=play", 1).model == "play"  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad, name", [("master:model=neural", "model"), ("master:pool=-1", "pool"),
                                       ("master:pool=x", "pool"), ("master:pool=1.5", "pool")])
def test_bad_values_are_refused(bad: str, name: str) -> None:
    with pytest.raises(UnknownLevelError) as refused:
        ai.make_player(bad, 1)
    assert bad.split(":")[1] in str(refused.value) or f"invalid {name} " in str(refused.value)
    with pytest.raises(InvalidSettingError) as info:
        MasterPlayer(**{name: bad.split("=")[1]})  # type: ignore[arg-type]
    assert info.value.name == name


@pytest.mark.parametrize("players", [2, 4])
def test_replayed_views_are_the_views_the_seat_had(players: int) -> None:
    """Each observed move's position, with the hand the seat really held, gives the view it really had (4 players
    too: the replay is the game's, whoever the model)."""
    checked = 0
    for positions in _games(6, seed=1, players=players):
        for now in positions:
            view = now.view(now.turn)
            for obs in replay(view):
                then = positions[len(obs.position.history)]
                real = then.view(obs.seat)
                st = obs.position
                st.hands[obs.seat] = list(then.hands[obs.seat])
                st._legal = None
                assert st.view(obs.seat) == real
                assert sorted([*now.hands[obs.seat], *obs.later]) == sorted(then.hands[obs.seat])
                checked += 1
    assert checked > 100


def test_the_weights_are_the_learned_policys_likelihood() -> None:
    """A world's log weight is the sum, over the other seat's moves of this deal, of the log of the policy's chance
    of the move from the view it had (mixed with the uniform), as the network computes it from that view directly."""
    model = learned_model("diloti", 2)
    assert model is not None
    checked = 0
    for positions in _games(3, seed=2):
        for now in positions[::3]:
            view = now.view(now.turn)
            ev = ModelEvidence(view, model, mix=0.1)
            expected = 0.0
            for obs in ev.observed:
                then = positions[len(obs.position.history)]
                expected += math.log(_probability(then.view(obs.seat), obs.move, 0.1))
            assert ev.log_weight(now) == pytest.approx(expected, rel=1e-4, abs=1e-6)
            checked += bool(ev.observed)
    assert checked > 10


def test_a_move_the_policy_prefers_weighs_a_world_more() -> None:
    """Seat 1 laid the 7C on a table with the AD. Had it held an ace, the policy would have taken the AD with it:
    the world where it holds none explains the lay better, by the ratio of the policy's chances."""
    hands = [parse_cards("2C 2D 4S 6H 8D 9C"), parse_cards("7C QH JS 6S 2H 8C")]
    table = parse_cards("AD 3D 9H KD")
    used = set(hands[0]) | set(hands[1]) | set(table)
    s = State.from_parts(hands=hands, table=table, stock=[c for c in range(52) if c not in used], dealer=0)
    s.push(Move.parse("7C"))
    model = learned_model("diloti", 2)
    assert model is not None
    ev = ModelEvidence(s.view(0), model, mix=0.0)
    without_ace = ev.seat_log_weight(1, parse_cards("QH JS 6S 2H 8C"))
    with_ace = ev.seat_log_weight(1, parse_cards("QH JS 6S 2H AS"))
    assert with_ace < without_ace - 1.0
    then = State.from_parts(hands=[hands[0], parse_cards("7C QH JS 6S 2H AS")], table=table,
                            stock=[c for c in range(52) if c not in used | {parse_cards("AS")[0]}] + [hands[1][5]],
                            dealer=0)
    assert with_ace == pytest.approx(math.log(_probability(then.view(1), Move.parse("7C"), 0.0)), rel=1e-4)


def test_the_pool_caps_the_worlds_weighed() -> None:
    positions = _games(1, seed=3)[0]
    now = next(p for p in positions if p.plays % 12 >= 7)  # some moves of the deal seen
    view = now.view(now.turn)
    model = learned_model("diloti", 2)
    assert model is not None
    ev = ModelEvidence(view, model)
    assert ev.observed
    worlds = PooledWorlds(view, ev, infer=1.0, pool=5)
    rng = random.Random(1)
    drawn = [worlds.sample(rng) for _ in range(40)]
    assert len({id(w) for w, _ in drawn}) <= 5
    assert ev.passes <= 5 * len(ev.observed)
    for w, weight in drawn:
        assert w.view(view.seat) == view and weight >= 0.0


def test_the_master_plays_legal_moves_from_its_view_reproducibly() -> None:
    rng = random.Random(4)
    for i, positions in enumerate(_games(2, seed=4)):
        for now in positions[1::4]:
            view = now.view(now.turn)
            a = ai.make_player(FAST, i)
            move = a.choose(view)
            assert move in now.legal_moves()
            assert ai.make_player(FAST, i).choose(view) == move  # seconds=none: the seed decides
            other = sample_state(view, rng)  # the same view over different hidden cards
            assert other.view(now.turn) == view
            assert ai.make_player(FAST, i).choose(other.view(now.turn)) == move


def test_the_model_is_used_where_the_learned_level_claims_the_game() -> None:
    positions = _games(1, seed=5)[0]
    now = next(p for p in positions if p.plays % 12 >= 5)
    view = now.view(now.turn)
    player = MasterPlayer(seed=1, model="learned", infer=1.0, iterations=20, seconds=None)
    assert player.settings(view).model is not None
    assert isinstance(player.worlds(view), PooledWorlds)
    assert MasterPlayer(seed=1, model="learned", infer=0).settings(view).model is None  # no inference at all


def test_the_default_master_is_the_sprts_where_the_model_claims_the_game_and_todays_elsewhere(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 53's SPRT accepted ``model=learned,infer=1`` over ``model=play,infer=0``: the default is the first
    where the learned policy claims the game and player count, the second (the master measured before) elsewhere
    and wherever numpy is missing."""
    now = next(p for p in _games(1, seed=6)[0] if p.plays % 12 >= 5)
    view = now.view(now.turn)
    default = MasterPlayer(seed=1).settings(view)
    chosen = MasterPlayer(seed=1, model="learned", infer=1.0).settings(view)
    assert default.model is not None and (default.infer, chosen.infer) == (1.0, 1.0)
    four = State.new(4, seed=3)
    for player in (MasterPlayer(seed=1), MasterPlayer(seed=1, model="learned")):
        s = player.settings(four.view(four.turn))
        assert s == MasterPlayer(seed=1, model="play", infer=0.0).settings(four.view(four.turn))
        assert (s.model, s.infer) == (None, 0.0)
    monkeypatch.setattr("diloti.ai.master.learned_available", lambda: False)
    bare = MasterPlayer(seed=1)  # numpy missing: today's master, not an error
    assert bare.model == "play" and bare.settings(view) == MasterPlayer(seed=1, model="play", infer=0).settings(view)
    with pytest.raises(InvalidSettingError):
        MasterPlayer(model="learned")  # asked for by name, it says what it needs


@pytest.mark.parametrize("game, players", [("diloti", 4), ("xeri", 2), ("kontsina", 3)])
def test_the_master_falls_back_where_the_level_does_not_claim_the_game(game: str, players: int) -> None:
    st = find_game(game).new_state(players=players, seed=3)
    player = MasterPlayer(seed=1, model="learned", infer=1.0, iterations=30, seconds=None)
    plain = MasterPlayer(seed=1, infer=1.0, iterations=30, seconds=None)
    for _ in range(8):
        if st.is_over:
            break
        view = st.view(st.turn)
        assert player.settings(view).model is None
        move = player.choose(view)
        assert move in st.legal_moves() and move == plain.choose(view)
        st.push(move)
    if game == "diloti":
        assert isinstance(player.worlds(st.view(st.turn)), WeightedWorlds)


def test_the_network_runs_on_one_blas_thread() -> None:
    """A fresh process that builds the master with the model has pinned numpy's BLAS to one thread before numpy
    loaded (its threads' wake-ups cost ~9 ms a pass between rollouts on a busy machine); a user's setting is kept."""
    # What the environment says when numpy is first imported (OpenBLAS reads it then; find_spec("numpy") alone, as
    # diloti.ai.learned.available asks, imports nothing).
    code = ("import os, sys\n"
            "class Watch:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.startswith('numpy.'):  # numpy's own modules: numpy is loading\n"
            "            print(os.environ.get('OPENBLAS_NUM_THREADS'))\n"
            "            sys.meta_path.remove(self)\n"
            "sys.meta_path.insert(0, Watch())\n"
            "from diloti.ai.master import MasterPlayer\n"
            "MasterPlayer(model='learned')\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"
    kept = subprocess.run([sys.executable, "-c", code], env={**env, "OPENBLAS_NUM_THREADS": "2"},
                          capture_output=True, text=True, check=True)
    assert kept.stdout.strip() == "2"
