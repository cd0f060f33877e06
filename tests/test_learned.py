"""The learned level (issue 53): it loads, plays whole games of what it claims with legal moves from its seat's view
alone, is deterministic given its seed, refuses weights of another format and games it does not claim, and its
training command runs end to end at a tiny size."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from diloti.ai import LEVELS, level_plays, make_player  # noqa: E402
from diloti.ai.errors import InvalidSettingError, UnknownLevelError  # noqa: E402
from diloti.ai.games import players_part  # noqa: E402
from diloti.ai.learned import LearnedPlayer, UnclaimedGameError, claims  # noqa: E402
from diloti.ai.learned.features import MOVE, MOVE_SIZE, POSITION_SIZE, move_features, position_features  # noqa: E402
from diloti.ai.learned.network import FORMAT, LearnedWeightsError, Network, load_weights  # noqa: E402
from diloti.ai.part import SearchSettings  # noqa: E402
from diloti.core.registry import find_game  # noqa: E402

CLAIMED = [("diloti", 2)]


def test_the_level_loads_and_is_offered() -> None:
    player = make_player("learned", seed=1)
    assert isinstance(player, LearnedPlayer) and player.name == "learned"
    assert "learned" in LEVELS
    net = load_weights()
    assert net.meta["format"] == FORMAT
    assert net.W_position.shape == (POSITION_SIZE, net.W2.shape[0]) and net.W_move.shape[0] == MOVE_SIZE
    assert [(net.meta["game"], p) for p in net.meta["players"]] == CLAIMED


@pytest.mark.parametrize(("game", "players"), CLAIMED)
def test_plays_whole_games_with_legal_moves_only(game: str, players: int) -> None:
    for seed in (1, 2):
        g = find_game(game).game(players, None, seed=seed)
        bots = [make_player("learned", seed=seed * 10 + s) for s in range(players)]
        moves = 0
        while not g.is_over:
            st = g.state
            view = g.view(st.turn)
            move = bots[st.turn].choose(view)
            assert move in view.legal and st.is_legal(move)
            g.push(move)
            moves += 1
        assert moves > 40 and g.winner is not None


def _positions(count: int, seed: int) -> list[Any]:
    """Views of the seat to move along rounds played by the heuristic (more than one legal move each)."""
    return [view for _, view in _states(count, seed)]


def _states(count: int, seed: int) -> list[tuple[Any, Any]]:
    """(round, view of the seat to move) along rounds played by the heuristic (more than one legal move each)."""
    out: list[tuple[Any, Any]] = []
    rng = random.Random(seed)
    info = find_game("diloti")
    h = make_player("heuristic", seed=seed)
    while len(out) < count:
        st = info.new_state(players=2, seed=rng.randrange(1 << 30))
        while st.view(st.turn).legal:
            view = st.view(st.turn)
            if len(view.legal) > 1 and rng.random() < 0.3:
                out.append((st.copy(), view))
            st.push(h.choose(view))
    return out[:count]


def test_sees_only_its_seats_view() -> None:
    """Worlds dealt again from the seat's view (other hand and stock redrawn) give the same move."""
    player = make_player("learned", seed=3)
    rng = random.Random(5)
    differed = 0
    for state, view in _states(25, 7):
        move = player.choose(view)
        sampler = players_part(view).worlds(view, SearchSettings())
        for _ in range(3):
            world, _weight = sampler.sample(rng)
            other = world.view(view.seat)
            assert other.legal == view.legal and other.hand == view.hand
            if sorted(world.hands[1 - view.seat]) != sorted(state.hands[1 - view.seat]):
                differed += 1
            assert player.choose(other) == move
    assert differed > 20  # the other hand was really dealt again


def test_features_read_the_view_only() -> None:
    view = _positions(1, 11)[0]
    assert position_features(view).shape == (POSITION_SIZE,)
    assert move_features(view).shape == (len(view.legal), MOVE_SIZE)


def test_deterministic_given_its_seed() -> None:
    views = _positions(30, 13)
    for temperature in (0.0, 1.0):
        a = [make_player("learned", seed=4, temperature=temperature).choose(v) for v in views]
        b = [make_player("learned", seed=4, temperature=temperature).choose(v) for v in views]
        assert a == b
    greedy = [make_player("learned", seed=s).choose(views[0]) for s in range(3)]
    assert len(set(greedy)) == 1  # temperature 0: the argmax, whatever the seed
    drawn = {make_player("learned", seed=s, temperature=5.0).choose(v) for s in range(8) for v in views[:3]}
    assert len(drawn) > 3  # a high temperature draws, and the seed chooses the draw


def test_refuses_the_games_it_does_not_claim() -> None:
    assert claims("diloti", 2) and not claims("diloti", 4) and not claims("xeri", 2)
    assert level_plays("learned", "diloti", 2) and not level_plays("learned", "kontsina", 3)
    player = make_player("learned", seed=1)
    for game, players in (("diloti", 4), ("xeri", 2), ("kontsina", 3)):
        st = find_game(game).new_state(players=players, seed=3)
        with pytest.raises(UnclaimedGameError, match=f"the learned level plays diloti with 2 players .*not {game} "
                                                     f"with {players}"):
            player.choose(st.view(st.turn))


def _saved_with(tmp_path: Path, **meta: object) -> str:
    net = load_weights()
    path = tmp_path / "weights.npz"
    Network(**{**net.__dict__, "meta": {**net.meta, **meta}}).save(path)
    return str(path)


def test_weights_of_another_format_are_refused(tmp_path: Path) -> None:
    old = _saved_with(tmp_path, format="diloti-learned-weights-0")
    with pytest.raises(LearnedWeightsError, match="is of format 'diloti-learned-weights-0'; this version of diloti "
                                                  "reads 'diloti-learned-weights-1'"):
        LearnedPlayer(1, weights=old)
    with pytest.raises(UnknownLevelError, match=r"invalid player 'learned': weights file .* is of format"):
        make_player("learned", seed=1, weights=old)
    layout = _saved_with(tmp_path, features="learned-features-0")
    with pytest.raises(LearnedWeightsError, match="has feature layout 'learned-features-0'"):
        LearnedPlayer(1, weights=layout)
    not_npz = tmp_path / "text.npz"
    not_npz.write_text("hello")
    with pytest.raises(LearnedWeightsError, match="is not a weights file"):
        LearnedPlayer(1, weights=str(not_npz))
    with pytest.raises(LearnedWeightsError, match="cannot be read"):
        LearnedPlayer(1, weights=str(tmp_path / "missing.npz"))


def test_a_margin_keeps_the_heuristics_move_unless_the_network_scores_another_well_above(tmp_path: Path) -> None:
    """``margin``: a huge one plays the heuristic's best move everywhere, 0 the network's own; the weights' meta
    gives the default, a setting overrides it, and a bad one is refused naming it."""
    views = [v for v in _positions(40, 21) if len(v.legal) > 1 and players_part(v).ruled_move(v) is None]
    net = load_weights()
    own = [make_player("learned", seed=1, margin=0).choose(v) for v in views]
    assert own == [v.legal[int(net.scores(position_features(v), move_features(v)).argmax())] for v in views]
    usual = [v.legal[int(move_features(v)[:, MOVE["heuristic"].start].argmax())] for v in views]
    assert [make_player("learned", seed=1, margin=1e9).choose(v) for v in views] == usual
    assert own != usual  # the positions tell the two apart
    stamped = _saved_with(tmp_path, margin=1e9)
    assert LearnedPlayer(1, weights=stamped).margin == 1e9
    assert [LearnedPlayer(1, weights=stamped).choose(v) for v in views] == usual
    assert [LearnedPlayer(1, weights=stamped, margin=0).choose(v) for v in views] == own
    for bad in (-1, "x", float("inf")):
        with pytest.raises(InvalidSettingError, match="margin"):
            LearnedPlayer(1, margin=bad)  # type: ignore[arg-type]


def test_bad_temperature_is_refused() -> None:
    with pytest.raises(UnknownLevelError, match="temperature"):
        make_player("learned:temperature=-1", seed=1)


def test_the_training_command_runs_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny run gives a loadable file that plays; the same seed gives the same weights (the second run reading
    its positions back from --data)."""
    pytest.importorskip("torch")
    from diloti.ai.learned.train import main

    data = tmp_path / "data"
    data.mkdir()
    nets = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.npz"
        assert main(["--seed", "1", "--out", str(out), "--rounds", "2,1", "--teacher", "heuristic", "--epochs", "1",
                     "--hidden", "8", "--workers", "1", "--data", str(data)]) == 0
        summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert summary["positions"] > 20 and summary["core_minutes"] >= 0
        nets.append(load_weights(out))
    assert sorted(p.name for p in data.iterdir()) == ["iteration-1", "iteration-2"]
    assert [p.name for p in (data / "iteration-1").iterdir()] == ["chunk-00000.npz"]  # a chunk a file: resumable
    net = nets[0]
    assert net.meta["training"]["rounds"] == [2, 1] and net.W2.shape == (8, 8) and net.claims("diloti", 2)
    assert all(np.array_equal(getattr(nets[0], k), getattr(nets[1], k)) for k in ("W_position", "W2", "w_skip"))
    st = find_game("diloti").new_state(players=2, seed=9)
    assert LearnedPlayer(1, weights=str(tmp_path / "a.npz")).choose(st.view(st.turn)) in st.legal_moves()


def test_soft_targets_from_the_searchs_values_and_a_start(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A search teacher values its candidates (an exact position every legal move); --soft learns their softmax,
    --start goes on from a weights file, and the held-out regret is measured against the heuristic's."""
    pytest.importorskip("torch")
    from diloti.ai.learned.train import main

    first = tmp_path / "first.npz"
    args = ["--seed", "2", "--rounds", "1", "--teacher", "master:iterations=10,seconds=none", "--epochs", "1",
            "--hidden", "8", "--workers", "1", "--soft", "1"]
    assert main([*args, "--out", str(first)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["unvalued"] <= 1 and summary["regret"] >= 0 and summary["heuristic_regret"] >= 0
    assert load_weights(first).meta["training"]["soft"] == 1.0
    second = tmp_path / "second.npz"
    assert main([*args, "--out", str(second), "--start", str(first)]) == 0
    assert load_weights(second).meta["training"]["start"] == "first.npz"
    with pytest.raises(SystemExit) as exc:
        main([*args, "--out", str(second), "--start", str(first), "--hidden", "16"])
    assert exc.value.code == 2 and "invalid --start" in capsys.readouterr().err


def test_the_training_command_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from diloti.ai.learned.train import main

    for args, said in ((["--rounds", "x"], "invalid --rounds 'x'"), (["--players", "5"], "invalid --players 5"),
                       (["--teacher", "grandmaster"], "invalid --teacher 'grandmaster'"),
                       (["--soft", "-1"], "invalid --soft -1"),
                       (["--start", "none.npz"], "invalid --start 'none.npz'")):
        with pytest.raises(SystemExit) as exc:
            main(["--out", str(tmp_path / "w.npz"), *args])
        assert exc.value.code == 2 and said in capsys.readouterr().err


def test_a_browser_table_offers_it_where_it_plays(tmp_path: Path) -> None:
    """Offered, seated where it plays and refused elsewhere; at its table it answers the person's moves (its moves
    made in the server's worker pool, as every level's are)."""
    pytest.importorskip("fastapi")
    from test_server import hello, make_client, new_table

    with make_client(tmp_path, rate=1e6, burst=1e6) as client:
        info = client.get("/api/info").json()
        assert "learned" in info["levels"]
        # The form is told where it plays: 2-player Diloti only.
        assert {(g, n) for g, entry in info["games"].items() for n, lv in entry["levels"].items()
                if "learned" in lv} == {("diloti", "2")}
        assert all("heuristic" in lv for entry in info["games"].values() for lv in entry["levels"].values())
        seats = [{"kind": "human"}, {"kind": "bot", "level": "learned"}]
        r = client.post("/api/tables", json={"name": "Ann", "players": 4, "seats": seats + [{"kind": "human"}] * 2})
        assert r.status_code == 400 and r.json() == {
            "type": "error", "code": "bad_level", "message": "seat 1: the level 'learned' does not play diloti with 4 "
                                                             "players"}
        r = client.post("/api/tables", json={"name": "Ann", "game": "xeri", "away_level": "learned"})
        assert r.status_code == 400 and "away_level: the level 'learned' does not play xeri" in r.json()["message"]
        t = new_table(client, seats=seats, seed=5)
        with client.websocket_connect("/ws") as ws:
            hello(ws, t["table"], t["token"])
            turns = 0
            while turns < 3:  # our move, the learned player's answer, three times
                m = ws.receive_json()
                assert m["type"] != "error", m
                if m["type"] == "state" and m["your_turn"]:
                    turns += 1
                    ws.send_json({"type": "move", "move": m["legal"][0]["move"], "ply": m["ply"]})
