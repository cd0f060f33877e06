"""Which core runs: the modules compiled with mypyc, or the same modules from their Python source.

The build (setup.py) compiles a list of modules to C extensions that sit beside their ``.py`` files, and
records each source's SHA-256 in ``_compiled.txt`` (a line ``library NAME``, then ``MODULE SHA256`` lines).
Python's import system prefers an extension to a source file in the same folder, so without this module
the compiled core would always run. At the first import of :mod:`diloti`, :func:`select` decides:

- no record (a pure install, a failed build): the pure core; nothing to do;
- ``DILOTI_PURE`` set to anything but ``""`` or ``"0"``: the pure core, as asked;
- a source whose hash differs from the one compiled (an edited file, a checkout), or a compiled module
  missing: the pure core, with a warning naming the files and how to rebuild; a developer never debugs
  code that is not running;
- otherwise: the compiled core.

The pure core is run by putting :class:`PureFinder` first on ``sys.meta_path``: for the compiled modules'
names it returns a spec that loads the ``.py`` file, so the extensions are never loaded. It is all of them
or none: mypyc compiles the modules together, and compiled code calls the compiled functions and classes
of the other modules directly, so a mix would run a stale module anyway, or two classes of one name.

>>> CORE in ("compiled", "pure")
True
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

MANIFEST = "_compiled.txt"
PURE_ENV = "DILOTI_PURE"
# The folder holding the diloti package (os.path, not pathlib: this runs at every import of diloti).
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class StaleCoreWarning(RuntimeWarning):
    """A compiled module's source changed since the build: the pure core runs instead."""


class PureFinder:
    """A meta-path finder that loads the named modules from their ``.py`` source, never an extension."""

    def __init__(self, sources: Mapping[str, str]) -> None:
        self.sources = dict(sources)

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        source = self.sources.get(name)
        if source is None:
            return None
        loader = importlib.machinery.SourceFileLoader(name, source)
        return importlib.util.spec_from_file_location(name, source, loader=loader)


def read_manifest(root: str = _ROOT) -> tuple[dict[str, str], str]:
    """(module -> SHA-256 the build recorded, the shared library's module name); empty when nothing was compiled."""
    modules: dict[str, str] = {}
    library = ""
    try:
        with open(os.path.join(root, "diloti", MANIFEST), encoding="utf-8") as f:
            for line in f:
                key, _, value = line.strip().partition(" ")
                if key == "library":
                    library = value
                elif key and value:
                    modules[key] = value
    except (OSError, ValueError):
        return {}, ""
    return (modules, library) if library else ({}, "")


def source_of(module: str, root: str = _ROOT) -> str:
    return os.path.join(root, *module.split(".")) + ".py"


def _extension_name(filename: str) -> str | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if filename.endswith(suffix):
            return filename[: -len(suffix)]
    return None


def extension_modules(root: str = _ROOT) -> set[str]:
    """The modules of the diloti package (any depth) that have a compiled extension beside their source."""
    found: set[str] = set()
    top = os.path.join(root, "diloti")
    for folder, dirs, files in os.walk(top):
        # Only subpackages: not caches, static files or migrations (their names are no identifiers).
        dirs[:] = [d for d in dirs if d.isidentifier() and not d.startswith("_")
                   and os.path.exists(os.path.join(folder, d, "__init__.py"))]
        package = ".".join(os.path.relpath(folder, root).split(os.sep))
        names = set(files)
        for filename in files:
            name = _extension_name(filename)
            if name is not None and name + ".py" in names:
                found.add(f"{package}.{name}")
    return found


def stale_modules(manifest: Mapping[str, str], library: str, root: str = _ROOT,
                  compiled: set[str] | None = None) -> list[str]:
    """The modules whose source differs from what was compiled or whose extension is missing (and the
    shared library, if it is missing)."""
    compiled = extension_modules(root) if compiled is None else compiled
    stale = []
    for module, digest in manifest.items():
        try:
            with open(source_of(module, root), "rb") as f:
                current = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            current = ""
        if current != digest or module not in compiled:
            stale.append(module)
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    if not any(os.path.exists(os.path.join(root, library + suffix)) for suffix in suffixes):
        stale.append(library)
    return stale


def select(environ: Mapping[str, str] = os.environ, root: str = _ROOT) -> tuple[str, str]:
    """(``"compiled"`` or ``"pure"``, why), installing :class:`PureFinder` when the pure core must run."""
    manifest, library = read_manifest(root)
    compiled = extension_modules(root)
    # Extensions the build did not record (left from another list of modules, or no record at all) never
    # run: they would load a shared library that does not hold them.
    strays = compiled - set(manifest)
    if not manifest:
        if strays:
            _run_pure(strays, root)
            return "pure", f"compiled modules without the build's record ({MANIFEST})"
        return "pure", "no compiled core is installed"
    if environ.get(PURE_ENV, "") not in ("", "0"):
        _run_pure(set(manifest) | strays, root)
        return "pure", f"{PURE_ENV} is set"
    stale = stale_modules(manifest, library, root, compiled)
    if stale:
        _run_pure(set(manifest) | strays, root)
        names = ", ".join(stale)
        warnings.warn(f"diloti: {names} changed or missing since the core was compiled; running the pure-Python "
                      "core (rebuild with: bash scripts/build-core)", StaleCoreWarning, stacklevel=2)
        return "pure", f"stale: {names}"
    if strays:
        _run_pure(strays, root)
    return "compiled", f"{len(manifest)} modules compiled with mypyc"


def _run_pure(modules: set[str], root: str) -> None:
    already = sorted(m for m in modules if m in sys.modules)
    if already:  # too late to choose (only if diloti was imported in an unusual order)
        warnings.warn(f"diloti: {', '.join(already)} already imported before the core was chosen",
                      StaleCoreWarning, stacklevel=3)
    sys.meta_path.insert(0, PureFinder({m: source_of(m, root) for m in sorted(modules)}))


CORE, WHY = select()
