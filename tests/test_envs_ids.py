"""Versioned environment ids (issue 53 item 4): one for each game, player count and episode kind, taken by the
three libraries, listed in docs/RESEARCH.md, and each pinned by a fingerprint of what its episodes give."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is not installed")

import gymnasium

import diloti.envs  # noqa: F401  (registers the Gymnasium ids)
from diloti.envs import pettingzoo_env
from diloti.envs.driver import EnvArgumentError
from diloti.envs.fingerprint import fingerprint
from diloti.envs.ids import EVALUATION_SEEDS, VERSIONS, env_ids, load_openspiel, parse

#: Each id's fingerprint (diloti.envs.fingerprint.fingerprint). A change here means an episode of the id gives other
#: numbers: give the game a new version in diloti.envs.ids.VERSIONS (and docs/RESEARCH.md's table), then pin the
#: new id's fingerprint; never change a version's pinned fingerprint.
PINNED = {
    "Diloti-2p-round-v0": "c37c7be9210bf6a9",
    "Diloti-2p-game-v0": "7ef31a4d061edfd7",
    "Diloti-4p-round-v0": "8b50f20d16179462",
    "Diloti-4p-game-v0": "1fb0dce96859d02a",
    "Xeri-2p-round-v0": "ac09f7a6c6023cfc",
    "Xeri-4p-round-v0": "742f35f9c52a64aa",
    "Kontsina-2p-round-v0": "083abc058c76f3a4",
    "Kontsina-3p-round-v0": "d48befeb974fd909",
    "Kontsina-4p-round-v0": "9743caf9d2855454",
    "MiniDiloti-2p-round-v0": "b25702dfeb5dcb69",
}
DOCS = Path(__file__).resolve().parents[1] / "docs" / "RESEARCH.md"


def test_every_game_player_count_and_episode_kind_has_one_id() -> None:
    ids = env_ids()
    assert set(ids) == set(PINNED)
    assert {(e.game, e.players, e.episode) for e in ids.values()} >= {
        ("diloti", 2, "round"), ("diloti", 4, "game"), ("xeri", 4, "round"), ("kontsina", 3, "round"),
        ("mini", 2, "round")}
    for text, e in ids.items():
        assert parse(text) == e and e.id == text and text.endswith(f"-v{VERSIONS[e.game]}")


def test_the_registry_lists_the_episodes_each_envs_part_offers() -> None:
    from diloti.envs.games import env_games

    for g in env_games().values():
        assert g.info.episodes == g.part.episodes, g.name


def test_a_games_envs_part_imported_first_still_registers_every_id() -> None:
    import subprocess
    import sys

    code = ("import diloti.games.diloti.envs.mini, gymnasium; "
            "print(sorted(k for k in gymnasium.registry if k.endswith('-v0') and 'p-' in k))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == str(sorted(parse(i).gym_id for i in PINNED if not i.startswith("Mini")))


@pytest.mark.parametrize("env_id", sorted(PINNED))
def test_each_id_gives_the_numbers_pinned_for_it(env_id: str) -> None:
    assert fingerprint(env_id) == PINNED[env_id], (
        f"{env_id}'s episodes changed: give the game a new version in diloti.envs.ids.VERSIONS and pin it")


@pytest.mark.parametrize("env_id", [i for i in sorted(PINNED) if not i.startswith("Mini")])
def test_the_three_libraries_take_each_id(env_id: str) -> None:
    e = parse(env_id)
    pz = pettingzoo_env.env(env_id=env_id)
    pz.reset(seed=EVALUATION_SEEDS[0])
    assert len(pz.possible_agents) == e.players and pz.unwrapped.game.name == e.game
    gym = gymnasium.make(e.gym_id, opponent="greedy")
    gym.reset(seed=EVALUATION_SEEDS[0])
    inner: Any = gym.unwrapped
    assert inner.players == e.players and inner.episode == e.episode
    game = load_openspiel(env_id, {"dealer": 1})
    assert game.num_players() == e.players and game.get_parameters()["dealer"] == 1


def test_an_id_refuses_what_contradicts_it_and_a_library_that_lacks_it() -> None:
    with pytest.raises(EnvArgumentError, match="invalid players=2 with env_id='Diloti-4p-game-v0'"):
        pettingzoo_env.env(env_id="Diloti-4p-game-v0", players=2)
    with pytest.raises(EnvArgumentError, match="offered by openspiel"):
        pettingzoo_env.env(env_id="MiniDiloti-2p-round-v0")
    with pytest.raises(EnvArgumentError, match="expected one of Diloti-2p-round-v0"):
        parse("Diloti-2p-round-v9")
    assert load_openspiel("MiniDiloti-2p-round-v0").num_players() == 2


def test_the_research_page_lists_every_id() -> None:
    text = DOCS.read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([A-Za-z]+-\dp-[a-z]+-v\d+)` \|", text, re.MULTILINE))
    assert listed == set(PINNED)
