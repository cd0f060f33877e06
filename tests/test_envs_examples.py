"""Each runnable example in examples/ runs, briefly."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is missing")
pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_example_is_tested() -> None:
    assert sorted(p.stem for p in EXAMPLES.glob("*.py")) == ["gym_random", "openspiel_ismcts", "pettingzoo_random",
                                                            "train_batched_ppo", "train_selfplay_ppo"]


def test_pettingzoo_random(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("pettingzoo_random").main(["--players", "4", "--options", "liberal_groups soy"]) == 0
    out = capsys.readouterr().out
    assert "table:" in out and "round 1: player_0" in out


def test_gym_random(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("gym_random").main(["--episodes", "2", "--opponent", "heuristic"]) == 0
    assert "random agent against heuristic" in capsys.readouterr().out


def test_openspiel_ismcts(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("openspiel_ismcts").main(["--games", "1", "--simulations", "3", "--level", "greedy"]) == 0
    assert "ISMCTS against greedy" in capsys.readouterr().out


def test_train_batched_ppo(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="the baselines extra is not installed")
    model = tmp_path / "ppo.zip"
    args = ["--steps", "256", "--envs", "8", "--games", "2", "--against", "random", "--out", str(model)]
    assert load("train_batched_ppo").main(args) == 0
    out = capsys.readouterr().out
    assert "trained MaskablePPO for 256 steps on 8 games" in out and "PPO vs random: 2 games" in out
    assert model.exists()


def test_train_selfplay_ppo(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="torch (the baselines extra) is not installed")
    from diloti.games.diloti.envs import cbatch

    if not cbatch.available():
        pytest.skip("Diloti's C batch is not built (scripts/build-core)")
    model = tmp_path / "ppo.pt"
    args = ["--steps", "2048", "--games", "2", "--rollout", "16", "--hidden", "16", "--matches", "2",
            "--against", "random", "--out", str(model)]
    example = load("train_selfplay_ppo")
    assert example.main(args) == 0
    out = capsys.readouterr().out
    assert "trained self-play PPO for 2,048 steps on 2 games" in out and "PPO vs random: 2 games" in out
    assert ", 0 illegal actions;" in out
    assert model.exists()


def test_train_selfplay_ppo_plays_only_legal_moves(tmp_path: Path) -> None:
    """The trained network's player, from its own view, picks a legal move in every position of played rounds
    (PolicyPlayer refuses an action the mask does not allow, so an illegal pick fails here)."""
    pytest.importorskip("torch", reason="torch (the baselines extra) is not installed")
    import torch

    from diloti.games.diloti.state import State

    example = load("train_selfplay_ppo")
    net = example.make_net(744, 559, 16)
    # A random network with large logits: its favourites are illegal as often as not, so the mask is what keeps
    # its picks legal.
    torch.manual_seed(0)
    for param in net.parameters():
        torch.nn.init.normal_(param, std=3.0)
    model = tmp_path / "ppo.pt"
    torch.save({"size": 744, "actions": 559, "hidden": 16, "state": net.state_dict()}, model)
    player = example.SelfPlayPPOPlayer(model=str(model))
    moves = 0
    for seed in range(3):
        state = State.new(seed=seed)
        while not state.is_over:
            move = player.choose(state.view(state.turn))
            assert move in state.legal_moves()
            state.play(move)
            moves += 1
    assert moves > 60


def test_train_selfplay_ppo_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    example = load("train_selfplay_ppo")
    with pytest.raises(SystemExit):
        example.main(["--games", "0"])
    assert "invalid --games 0: expected at least 1" in capsys.readouterr().err
    assert example.main(["--evaluate", str(tmp_path / "none.pt")]) == 2
    assert "invalid --evaluate" in capsys.readouterr().err
    with pytest.raises(ValueError, match="invalid model="):
        example.SelfPlayPPOPlayer(model=str(tmp_path / "none.pt"))


def test_runs_as_a_script() -> None:
    done = subprocess.run([sys.executable, str(EXAMPLES / "gym_random.py"), "--episodes", "1"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "episode 1:" in done.stdout
