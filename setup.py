"""Build diloti, with its rules core and the searches' hot loops compiled by mypyc when it can be.

Everything else (the project's metadata, dependencies, packages) is in pyproject.toml. This file adds the
compiled core: mypyc compiles :data:`COMPILED` (and, with the research extras, :data:`RESEARCH_COMPILED`)
from the same typed source to C extensions that sit beside the ``.py`` files. Without a C compiler, or if
mypyc fails, the build says so on one line and installs the pure-Python package: every module then runs
from its source, with the same answers.

After a successful build, :class:`BuildExt` records the SHA-256 of each compiled source in
``diloti/_compiled.txt``; at import, :mod:`diloti._core` compares them with the sources beside it and
runs the pure core (with a warning) if one differs, so an edited file never runs stale. ``DILOTI_PURE=1``
forces the pure core at run time; ``DILOTI_BUILD_PURE=1`` skips compiling at build time.

For a working tree (``pip install -e .``), build the extensions in place::

    python setup.py build_ext --inplace      # or: bash scripts/build-core
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules compiled with mypyc (paths under src/): the one list to change when a module moves.
# They are compiled together (one shared library), so diloti._core runs either all of them compiled or
# all of them pure, never a mix.
COMPILED = [
    "diloti/games/diloti/table.py",
    "diloti/games/diloti/bigtable.py",
    "diloti/games/diloti/movegen.py",
    "diloti/games/diloti/choices.py",
    "diloti/core/cards.py",
    "diloti/core/round_state.py",
    "diloti/core/chance.py",
    "diloti/games/diloti/chance.py",
    "diloti/games/diloti/state.py",
    "diloti/core/shuffling.py",
    "diloti/core/playouts.py",
    "diloti/games/diloti/players/knowledge.py",
    "diloti/games/diloti/players/sampler.py",
    "diloti/games/diloti/players/rollout.py",
    "diloti/games/diloti/players/scoring.py",
    "diloti/ai/heuristic.py",
    "diloti/ai/round_points.py",  # the exact solver's scoring, called at every finished round it searches
    "diloti/ai/exact.py",  # the exact solver of a round's end (issue 54): its search loop
]

# The research environments' numpy-free parts that every step runs (the action tree, Diloti's observation
# kernel), compiled with the core. They import only the standard library and the core, but their packages
# import numpy and gymnasium, which mypy (and so mypyc) reads: they are compiled only where those are
# installed. Elsewhere they stay Python (the environments cannot run without numpy) and the core is compiled.
RESEARCH_COMPILED = [
    "diloti/envs/actions.py",
    "diloti/games/onecard/envs/actions.py",
    "diloti/games/diloti/envs/actions.py",
    "diloti/games/diloti/envs/planes.py",
    "diloti/games/onecard/envs/planes.py",
    "diloti/games/xeri/envs/planes.py",
    "diloti/games/kontsina/envs/planes.py",
    "diloti/envs/kept.py",
]


def compiled_modules() -> list[str]:
    """What this build compiles: :data:`COMPILED`, and :data:`RESEARCH_COMPILED` where numpy and gymnasium are
    installed."""
    research = all(importlib.util.find_spec(name) is not None for name in ("numpy", "gymnasium"))
    return COMPILED + RESEARCH_COMPILED if research else list(COMPILED)

# Plain C extensions (the CPython C API and the buffer protocol, no other dependency), each optional: where one
# does not build, the build says so on one line and its Python path runs (the mypyc core is unaffected).
# diloti.games.diloti.envs._cbatch: Diloti's batched kernel (many rounds stepped in one call; cbatch.py).
# diloti.games.onecard.envs._cbatch: the one-card games' (Xeri's and Kontsina's hands; cbatch.py).
C_EXTENSIONS = {
    "diloti.games.diloti.envs._cbatch": ["src/diloti/games/diloti/envs/_cbatch.c",
                                         "src/diloti/games/diloti/envs/cbatch_rules.c"],
    "diloti.games.onecard.envs._cbatch": ["src/diloti/games/onecard/envs/_cbatch.c",
                                          "src/diloti/games/onecard/envs/cbatch_rules.c"],
}
C_GLUE = "src/diloti/envs/cbatch_glue.h"  # what every kernel shares (buffers, the step loop, the sampler)
C_HEADERS = {"diloti.games.diloti.envs._cbatch": ["src/diloti/games/diloti/envs/cbatch_rules.h", C_GLUE],
             "diloti.games.onecard.envs._cbatch": ["src/diloti/games/onecard/envs/cbatch_rules.h", C_GLUE]}
C_FLAGS = ["-O2", "-Wall", "-Wextra", "-std=c11", "-fvisibility=hidden"]  # only PyInit_ exported

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"
GROUP = "diloti_core"  # the shared library of the compiled modules: diloti_core__mypyc
LIBRARY = f"{GROUP}__mypyc"
MANIFEST = "diloti/_compiled.txt"  # what the build recorded: the library, and each module's SHA-256 (diloti._core)


HASHES: dict[str, str] = {}  # filled when mypyc reads the sources

# mypyc type-checks everything the compiled modules' packages import, and the research modules' packages import
# numpy, Gymnasium, PettingZoo and OpenSpiel: reading those took 50 of mypyc's 53 s (27 Nov 2026, a quiet
# machine), and far longer on a slow host. Nothing compiled uses their types, so mypyc does not follow them: the
# same C, byte for byte (checked with and without). The `mypy` step (scripts/test, pyproject.toml) still checks
# every module against them in full.
SKIPPED = ("numpy.*", "gymnasium.*")


def mypyc_config() -> str:
    """mypyc's own mypy config: :data:`SKIPPED` not followed, and the modules pyproject.toml's mypy overrides
    call untyped (``ignore_missing_imports``: PettingZoo, OpenSpiel...) not followed and not errors. Without
    the latter, a build from a clean tree fell back to the pure core on ``import pyspiel``."""
    with open(HERE / "pyproject.toml", "rb") as f:
        overrides = tomllib.load(f)["tool"]["mypy"]["overrides"]
    untyped = [m for o in overrides if o.get("ignore_missing_imports") for m in o["module"]]
    # The package's modules that are read, not compiled, are not errors either: with numpy skipped, mypy (2.4)
    # calls a numpy array made without an annotation (diloti.ai.learned's) untyped and stopped the build, though
    # no compiled module depends on it. The `mypy` step checks every module in full, numpy followed.
    compiled = [path[:-3].replace("/", ".") for path in compiled_modules()]
    return "[mypy]\n" + "".join(f"[mypy-{m}]\nfollow_imports = skip\n" for m in SKIPPED) + "".join(
        f"[mypy-{m}]\nfollow_imports = skip\nignore_missing_imports = True\n" for m in untyped) + (
        "[mypy-diloti.*]\nignore_errors = True\n") + "".join(f"[mypy-{m}]\nignore_errors = False\n" for m in compiled)


def _notice(reason: str) -> None:
    print(f"diloti: installing the pure-Python core ({reason})", file=sys.stderr)


def source_hashes() -> dict[str, str]:
    """module name -> SHA-256 of its source, for every compiled module."""
    return {path[:-3].replace("/", "."): hashlib.sha256((SRC / path).read_bytes()).hexdigest()
            for path in compiled_modules()}


def _extensions() -> list[Any]:
    if os.environ.get("DILOTI_BUILD_PURE", "") not in ("", "0"):
        _notice("DILOTI_BUILD_PURE is set")
        return []
    return _mypyc_extensions() + [Extension(name, sources, depends=C_HEADERS.get(name, []), extra_compile_args=C_FLAGS)
                                  for name, sources in C_EXTENSIONS.items()]


def _mypyc_extensions() -> list[Any]:
    try:
        from mypyc.build import mypycify
    except ImportError:
        _notice("mypyc is not installed")
        return []
    cwd = os.getcwd()
    # The sources' hashes as mypyc reads them (not after the build: a file saved meanwhile would be recorded
    # as compiled when it was not).
    HASHES.update(source_hashes())
    target = HERE / "build" / "mypyc"
    try:
        target.mkdir(parents=True, exist_ok=True)
        config = target / "mypyc.ini"
        config.write_text(mypyc_config())
        os.chdir(SRC)  # mypyc names the modules after the paths it is given
        # group_name: the shared library is diloti_core__mypyc (a stable name, as the list changes).
        return list(mypycify(["--config-file", str(config), *compiled_modules()], opt_level="3",
                             group_name=GROUP, target_dir=str(target)))
    except (Exception, SystemExit) as exc:  # mypyc exits on a type error
        _notice(f"mypyc failed: {exc}")
        return []
    finally:
        os.chdir(cwd)


class BuildExt(build_ext):
    """setuptools' build_ext, falling back to the pure package when the C compiler fails, and writing the
    sources' hashes beside the compiled modules when it succeeds."""

    def run(self) -> None:
        if not any(ext.name not in C_EXTENSIONS for ext in self.extensions):  # mypyc compiled nothing
            self._build_c_only()
            self._write_manifest(None)
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, a compiler error, missing Python headers...
            detail = str(exc).splitlines()[0] if str(exc) else ""
            detail = detail if len(detail) <= 80 else detail[:77] + "..."  # one line: the command can be long
            _notice(f"the C build failed: {type(exc).__name__}{': ' + detail if detail else ''}")
            self._remove_outputs()
            (SRC if self.inplace else Path(self.build_lib)).joinpath(MANIFEST).unlink(missing_ok=True)
            return
        self._write_manifest(HASHES)

    def _build_c_only(self) -> None:
        if self.extensions:
            try:
                super().run()
            except Exception as exc:  # no compiler at all: build_extension's own fallback did not run
                _notice(f"the C build failed: {type(exc).__name__}")

    def build_extension(self, ext: Any) -> None:
        if ext.name not in C_EXTENSIONS:
            super().build_extension(ext)
            return
        try:
            super().build_extension(ext)
        except Exception as exc:  # an optional C extension: its Python path runs instead
            print(f"diloti: {ext.name} not built, its Python path runs ({type(exc).__name__}: "
                  f"{str(exc).splitlines()[0][:80] if str(exc) else ''})", file=sys.stderr)
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)

    def _outputs(self) -> list[Path]:
        return [Path(self.get_ext_fullpath(ext.name)) for ext in self.extensions]

    def _remove_outputs(self) -> None:
        for path in self._outputs():
            path.unlink(missing_ok=True)

    def _write_manifest(self, hashes: dict[str, str] | None) -> None:
        # In place, next to the sources; otherwise into the build tree that becomes the wheel.
        root = SRC if self.inplace else Path(self.build_lib)
        target = root / MANIFEST
        if hashes is None:
            # Nothing compiled: an earlier build's extensions and record stay as they were (diloti._core
            # still checks them against the sources), so a pure reinstall never leaves extensions unrecorded.
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        lines = [f"library {LIBRARY}"] + [f"{module} {digest}" for module, digest in sorted(hashes.items())]
        target.write_text("\n".join(lines) + "\n")


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
