"""The floors of the package, read from the imports: nothing imports upward, and no module circle, not even
through an import by name.

Floors, bottom up: the rules core (with the registry of games, ``core/registry.py``); the games (one package
each, on the core, registering itself); the text formats; players and matches; research environments; front
ends. A module may import the standard library, its own floor and the floors below. The core imports nothing
outside the standard library. No exception.

A game's package holds the game's parts for the floors above the rules as modules named for their
floor (``games/diloti/formats/``: its notation, positions and records, on the formats' floor;
``games/xeri/players.py``: its card sense for the computer players, on the players' floor;
``games/xeri/envs.py``: its action and observation layouts, on the environments' floor): each part
is on its floor. A floor finds a game's part by the module name the registry gives and imports it by that
name (``formats/games.py``, ``ai/games.py``, ``envs/games.py``); no part imports the module that loads it.
A family's shared frame is a package under ``games/`` that registers no game (``games/onecard/``: what the
one-card games share), laid out as a game's is.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "diloti"

FLOORS = {
    "core": 0,
    "games": 0.5,
    "formats": 1,
    "ai": 2,
    "match": 2,
    "envs": 3,
    "cli": 4,
    "server": 4,
    "store": 4,
}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module named by an import anywhere in the file (lazy imports too)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            # ``from diloti.core import state`` names a module too
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


# A game's part for a floor above the rules: diloti.games.<game>.<part>.
GAME_PARTS = {"formats": 1, "players": 2, "envs": 3}


def _floor(module: str) -> float | None:
    parts = module.split(".")
    if parts[0] != "diloti" or len(parts) < 2:
        return None
    if parts[1] == "games" and len(parts) >= 4 and parts[3] in GAME_PARTS:
        return GAME_PARTS[parts[3]]
    return FLOORS.get(parts[1])


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in ROOT.rglob("*.py")}


def test_every_subpackage_has_a_floor() -> None:
    for mod in _modules():
        parts = mod.split(".")
        if len(parts) > 2 or (len(parts) == 2 and (ROOT / parts[1]).is_dir()):
            assert parts[1] in FLOORS, f"{mod}: add its folder to FLOORS"


def test_no_upward_import() -> None:
    bad = []
    for mod, path in _modules().items():
        mine = _floor(mod)
        if mine is None:
            continue
        for name in _imports(path):
            theirs = _floor(name)
            if theirs is not None and theirs > mine:
                bad.append(f"{mod} imports {name}")
            if name == "diloti" and mine <= 2:
                bad.append(f"{mod} imports the top-level package (which imports everything)")
    assert not bad, "\n".join(bad)


def test_the_floors_under_the_front_ends_import_no_game() -> None:
    """The formats, players, matches and environments find a game and its parts through the registry (on the
    bottom floor), never by importing ``diloti.games`` or a game's package by its name: a game they name would be
    one they know apart from the others (mini Diloti's id once imported Diloti's envs part by name)."""
    below = {floor for floor, level in FLOORS.items() if 1 <= level <= 3}
    bad = []
    for mod, path in _modules().items():
        if mod.split(".")[1:2] and mod.split(".")[1] in below:
            bad += [f"{mod} imports {name}" for name in _imports(path)
                    if name == "diloti.games" or name.startswith("diloti.games.")]
    assert not bad, "\n".join(bad)


def _type_checking_imports(path: Path) -> set[str]:
    """The modules a file imports only under ``if TYPE_CHECKING:`` (never at run time)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for inner in node.body:
                if isinstance(inner, ast.ImportFrom) and inner.module:
                    out.add(inner.module)
                elif isinstance(inner, ast.Import):
                    out.update(a.name for a in inner.names)
    return out


# mypyc's class markers, read by the type checker (and so by mypyc) only: diloti.core._mypyc.
TYPE_CHECKING_ONLY = {"mypy_extensions"}


def test_core_imports_only_the_standard_library() -> None:
    bad = []
    for mod, path in _modules().items():
        if _floor(mod) != 0:
            continue
        checking_only = _type_checking_imports(path) & TYPE_CHECKING_ONLY
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "diloti":
                if not name.startswith("diloti.core"):
                    bad.append(f"{mod} imports {name}")
            elif top != "__future__" and top not in sys.stdlib_module_names and top not in checking_only:
                bad.append(f"{mod} imports {name}")
    assert not bad, "\n".join(bad)


def test_the_core_needs_mypy_extensions_only_to_type_check() -> None:
    """Importing the core with mypy_extensions hidden works (the markers are no-ops at run time)."""
    code = ("import sys; sys.modules['mypy_extensions'] = None; "
            "from diloti.games.diloti.state import State; print(len(State.new(seed=1).legal_moves()) > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")})
    assert out.stdout.strip() == "True"


def _registers_a_game(package: Path) -> bool:
    """Whether the package's ``__init__.py`` registers a game (calls ``register_game``)."""
    init = package / "__init__.py"
    tree = ast.parse(init.read_text(encoding="utf-8")) if init.exists() else ast.Module(body=[], type_ignores=[])
    return any(isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) ==
               "register_game" for node in ast.walk(tree))


GAME_PACKAGES = {p.name for p in (ROOT / "games").iterdir() if p.is_dir() and _registers_a_game(p)}
FRAMES = {p.name for p in (ROOT / "games").iterdir()
          if p.is_dir() and (p / "__init__.py").exists() and p.name not in GAME_PACKAGES}


def test_every_game_package_registers_itself_and_the_registry_is_at_the_bottom() -> None:
    from diloti.core.registry import built_in

    games, frames = set(built_in()), {"onecard"}
    assert games == GAME_PACKAGES and frames == FRAMES
    assert _floor("diloti.core.registry") == 0 and _floor("diloti.core.interface") == 0


def test_game_rules_import_only_the_core_and_the_standard_library() -> None:
    """The rules of every game stand on the core alone, and on their family's frame: no other game's package, no
    floor above, no third-party package (a game's parts for the floors above, ``formats``, ``players`` and
    ``envs``, are checked by their floors)."""
    bad = []
    for mod, path in _modules().items():
        if _floor(mod) != FLOORS["games"]:
            continue
        own = ".".join(mod.split(".")[:3])  # diloti.games.<game>, or diloti.games itself (the built-in games)
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "diloti":
                parts = name.split(".")
                if parts[1] == "core" or (parts[1] == "games" and len(parts) > 2 and parts[2] in FRAMES):
                    continue  # the core, and a family's frame (the frame's parts above are checked by floor)
                if not (name == own or name.startswith(own + ".")):
                    bad.append(f"{mod} imports {name}")
            elif top != "__future__" and top not in sys.stdlib_module_names:
                bad.append(f"{mod} imports {name}")
    assert not bad, "\n".join(bad)


def _loads_by_name(path: Path) -> bool:
    """Whether the file imports a module by a name it holds (``importlib.import_module``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) ==
               "import_module" for node in ast.walk(tree))


def test_no_import_circle() -> None:
    """No module circle, counting an import by name as an import of every game part it may load: a module of a
    floor that imports by name may load any game's part on its floor (its floor's loader), so none of them may
    reach it."""
    mods = _modules()
    graph = {m: {n for n in _imports(p) if n in mods and n != m and not m.startswith(n + ".")}
             for m, p in mods.items()}
    for m, p in mods.items():
        floor = _floor(m)
        if floor is not None and floor > FLOORS["games"] and _loads_by_name(p):
            graph[m] |= {n for n in mods if n.startswith("diloti.games.") and _floor(n) == floor and n != m}
    # Tarjan's strongly connected components: any component of two or more modules is a circle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    assert not circles, circles
