"""The PettingZoo and Gymnasium examples play the parent games too."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is missing")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pettingzoo_random_plays_kontsina_for_three(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("pettingzoo_random").main(["--game", "kontsina", "--players", "3", "--options", "forced_capture"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Kontsina, 3 players") and "round 1: player_0" in out and "player_2" in out


def test_gym_random_plays_xeri_for_four(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("gym_random").main(["--game", "xeri", "--players", "4", "--episodes", "2"]) == 0
    assert "random agent against greedy" in capsys.readouterr().out


def test_openspiel_ismcts_plays_kontsina(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")
    assert load("openspiel_ismcts").main(["--game", "kontsina", "--games", "1", "--simulations", "3",
                                          "--level", "greedy"]) == 0
    assert "ISMCTS against greedy" in capsys.readouterr().out
