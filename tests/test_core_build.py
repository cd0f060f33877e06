"""The compiled core and its pure fallback (diloti._core, setup.py): which one runs, staleness, same answers."""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import diloti
from diloti import _core
from diloti._core import PureFinder, StaleCoreWarning, read_manifest, select

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def _tree(tmp_path: Path, record: bool = True, library: bool = True) -> Path:
    """A fake installed package: diloti/core/fast.py with an (empty) extension beside it, and the build's record."""
    core = tmp_path / "diloti" / "core"
    core.mkdir(parents=True)
    for package in (core.parent, core):
        (package / "__init__.py").write_text("")
    source = core / "fast.py"
    source.write_text("X = 1\n")
    (core / f"fast{SUFFIX}").write_bytes(b"")
    if library:
        (tmp_path / f"lib__mypyc{SUFFIX}").write_bytes(b"")
    if record:
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        (tmp_path / "diloti" / "_compiled.txt").write_text(f"library lib__mypyc\ndiloti.core.fast {digest}\n")
    return tmp_path


@pytest.fixture
def meta_path() -> Iterator[None]:
    """Undo what select() puts on sys.meta_path."""
    before = list(sys.meta_path)
    yield
    sys.meta_path[:] = before


def _finders() -> list[PureFinder]:
    return [f for f in sys.meta_path if isinstance(f, PureFinder)]


def test_a_recorded_unchanged_build_runs_compiled(tmp_path: Path, meta_path: None) -> None:
    root = _tree(tmp_path)
    assert read_manifest(str(root))[1] == "lib__mypyc"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert select({}, str(root))[0] == "compiled"
    assert not [f for f in _finders() if "diloti.core.fast" in f.sources]


@pytest.mark.parametrize("value", ["1", "yes"])
def test_diloti_pure_forces_the_pure_core(tmp_path: Path, meta_path: None, value: str) -> None:
    root = _tree(tmp_path)
    core, why = select({"DILOTI_PURE": value}, str(root))
    assert (core, why) == ("pure", "DILOTI_PURE is set")
    spec = _finders()[0].find_spec("diloti.core.fast")
    assert spec is not None and spec.origin == str(root / "diloti" / "core" / "fast.py")
    assert _finders()[0].find_spec("diloti.core.other") is None
    assert select({"DILOTI_PURE": "0"}, str(root))[0] == "compiled"


def test_an_edited_source_runs_pure_with_a_warning(tmp_path: Path, meta_path: None) -> None:
    root = _tree(tmp_path)
    (root / "diloti" / "core" / "fast.py").write_text("X = 2\n")
    with pytest.warns(StaleCoreWarning, match=r"diloti\.core\.fast changed or missing.*scripts/build-core"):
        core, why = select({}, str(root))
    assert core == "pure" and "diloti.core.fast" in why
    assert "diloti.core.fast" in _finders()[0].sources


def test_a_missing_extension_or_library_runs_pure(tmp_path: Path, meta_path: None) -> None:
    root = _tree(tmp_path, library=False)
    with pytest.warns(StaleCoreWarning, match="lib__mypyc"):
        assert select({}, str(root))[0] == "pure"
    (root / f"lib__mypyc{SUFFIX}").write_bytes(b"")
    (root / "diloti" / "core" / f"fast{SUFFIX}").unlink()
    with pytest.warns(StaleCoreWarning, match=r"diloti\.core\.fast"):
        assert select({}, str(root))[0] == "pure"


def test_extensions_without_a_record_never_run(tmp_path: Path, meta_path: None) -> None:
    root = _tree(tmp_path, record=False)
    core, why = select({}, str(root))
    assert core == "pure" and "_compiled.txt" in why
    assert "diloti.core.fast" in _finders()[0].sources
    # At any depth (the games' packages sit a level deeper).
    deep = root / "diloti" / "games" / "xeri"
    deep.mkdir(parents=True)
    for package in (root / "diloti" / "games", deep):
        (package / "__init__.py").write_text("")
    (deep / "rules.py").write_text("")
    (deep / f"rules{SUFFIX}").write_bytes(b"")
    with warnings.catch_warnings():
        # The suite's own diloti.games.xeri.rules is imported already when an earlier test used Xeri: the warning
        # that it is too late to choose its core is about this process, not about the tree under test.
        warnings.simplefilter("ignore", StaleCoreWarning)
        select({}, str(root))
    assert "diloti.games.xeri.rules" in _finders()[0].sources
    (deep / f"rules{SUFFIX}").unlink()
    # Nothing compiled and nothing recorded: nothing to do.
    (root / "diloti" / "core" / f"fast{SUFFIX}").unlink()
    assert select({}, str(root)) == ("pure", "no compiled core is installed")


def test_the_version_and_the_bench_say_which_core_runs() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run([sys.executable, "-m", "diloti", "--version"], capture_output=True, text=True, env=env,
                         check=True, timeout=60).stdout
    assert out.strip() == f"diloti {diloti.__version__} ({diloti.CORE} core)"
    pure = subprocess.run([sys.executable, "-m", "diloti", "bench", "--json", "--seconds", "0.05", "--repeat", "1"],
                          capture_output=True, text=True, env={**env, "DILOTI_PURE": "1"}, check=True,
                          timeout=60).stdout
    assert json.loads(pure)["core"] == "pure"
    assert diloti.CORE == _core.CORE


def _listed(name: str) -> list[str]:
    """A list of module paths that setup.py assigns to ``name``."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    listed = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == name for t in node.targets))
    paths: list[str] = ast.literal_eval(listed)
    return paths


def test_setup_lists_existing_typed_modules_of_the_package() -> None:
    """setup.py's COMPILED list names files that exist (a moved module must move in the list too)."""
    paths = _listed("COMPILED") + _listed("RESEARCH_COMPILED")
    assert paths and len(set(paths)) == len(paths)
    for path in paths:
        assert path.startswith("diloti/") and (ROOT / "src" / path).is_file(), path


def _fingerprints(pure: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "DILOTI_PURE": pure}
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "fingerprint.py"), "--rounds", "4"],
                         capture_output=True, text=True, env=env, check=True, timeout=240).stdout
    result: dict[str, str] = json.loads(out)
    return result


@pytest.mark.slow
def test_the_compiled_and_the_pure_core_give_the_same_answers() -> None:
    """Moves, perft counts, the computer players' moves and environment trajectories, compiled and pure."""
    compiled = _fingerprints("0")
    if compiled["core"] != "compiled":
        pytest.skip("no compiled core is built here (bash scripts/build-core)")
    pure = _fingerprints("1")
    assert pure.pop("core") == "pure"
    compiled.pop("core")
    assert compiled == pure
    assert compiled["random_rounds"] and compiled["players"]


def test_every_listed_module_runs_compiled_when_the_core_is() -> None:
    """With the compiled core running, each module of setup.py's COMPILED is loaded from its extension (a module
    added to the list is compiled and checked for staleness like the others)."""
    if diloti.CORE != "compiled":
        pytest.skip("the pure core runs here")
    paths = _listed("COMPILED")
    if all(importlib.util.find_spec(name) is not None for name in ("numpy", "gymnasium")):
        paths += _listed("RESEARCH_COMPILED")  # compiled where the research extras are installed (setup.py)
    for path in paths:
        module = importlib.import_module(path[:-3].replace("/", "."))
        assert str(module.__file__).endswith(SUFFIX), module.__file__


@pytest.mark.parametrize("seed", range(40))
def test_the_compiled_shuffle_and_choice_draw_as_random_does(seed: int) -> None:
    """diloti.core.shuffling (compiled with the core) against random.Random on random lengths and seeds: the
    same permutation, the same choice, and the generator left in the same state."""
    from diloti.core.shuffling import choice, shuffle

    sizes = random.Random(seed)
    for _ in range(20):
        n = sizes.randrange(0, 60)
        a, b = list(range(n)), list(range(n))
        ours, theirs = random.Random(seed * 1000 + n), random.Random(seed * 1000 + n)
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        if n:
            assert choice(ours, a) == theirs.choice(b)
        assert ours.getstate() == theirs.getstate()


def test_the_compiled_shuffle_leaves_other_generators_to_their_own_methods() -> None:
    from diloti.core.shuffling import choice, shuffle

    class Reversing(random.Random):
        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

        def choice(self, seq: object) -> object:  # type: ignore[override]
            return "mine"

    a: list[object] = [1, 2, 3]
    shuffle(Reversing(1), a)
    assert a == [3, 2, 1] and choice(Reversing(1), a) == "mine"
    with pytest.raises(IndexError):
        choice(random.Random(1), [])
