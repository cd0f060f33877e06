"""Seeds derived from a game's, a match's or a table's seed: one recipe, the numbers pinned.

Records store only the game seed; each round's deck comes from a seed derived
from it, so a change of recipe would make every saved game replay differently.
The tournament's game and player seeds and the server's computer-player and
hint seeds are pinned too (a saved match or table replays the same way). The
values were taken from the three recipes the code had before they became
:func:`diloti.core.seeds.derive_seed`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import diloti.games.diloti.game as game_module
import diloti.match.tournament as tournament_module
from diloti.core.seeds import derive_seed
from diloti.games.diloti.game import Game
from diloti.match.tournament import play_game

SRC = Path(__file__).resolve().parents[1] / "src" / "diloti"


def test_round_seeds_are_pinned() -> None:
    assert derive_seed("diloti-round", 0, 1) == 8014912327611149851
    assert derive_seed("diloti-round", 42, 1) == 6431378997682784663
    assert derive_seed("diloti-round", 2**63 - 1, 7) == 5065396963689818439
    assert Game(2, seed=42).current.seed == 6431378997682784663
    assert Game(2, seed=4).current.seed == 866986074232564672  # tests/fixtures/sample_record.txt, round 1


def test_tournament_seeds_are_pinned() -> None:
    assert derive_seed("game", 3, 0) == 371530028436904951
    assert derive_seed("bot", 5, 3, 1) == 4118773485642366362
    assert derive_seed("game", 0, 999) == 1210251124863183691
    assert play_game("random", "random", 1, seed=3, rounds=1).game_seed == 371530028436904951


def test_server_seeds_are_pinned() -> None:
    assert derive_seed("diloti-bot", 123, 1, 17) == 5000036885934692131
    assert derive_seed("diloti-hint", 9, 0) == 243500105133495531


# Modules that hash something other than seeds: seat tokens, device cookies, the compiled core's sources.
NOT_SEEDS = {SRC / "server" / "lockout.py", SRC / "_core.py", SRC / "envs" / "fingerprint.py",
             SRC / "ai" / "learned" / "train.py"}


def test_one_recipe() -> None:
    """Only core/seeds.py hashes seeds (server/live.py hashes seat tokens, server/lockout.py signs device
    cookies, _core.py checks the compiled core's sources, envs/fingerprint.py what an environment's episode gives,
    ai/learned/train.py the network its cached positions were played by: never seeds)."""
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        hashes = "sha256" in path.read_text(encoding="utf-8")
        if path.name == "seeds.py":
            assert functions == {"derive_seed"}
        elif path == SRC / "server" / "live.py":
            assert hashes and "derived_seed" not in functions and "token_hash" in functions
        elif path in NOT_SEEDS:
            assert not any("seed" in name for name in functions), path
        else:
            assert not hashes, path
    assert not hasattr(game_module, "round_seed")
    assert getattr(tournament_module, "derive_seed", derive_seed) is derive_seed
