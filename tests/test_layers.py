"""The floors of the package, read from the imports: nothing imports upward, and no module circle.

Floors, bottom up: the rules core; the text formats; players and matches; research environments;
front ends. A module may import the standard library, its own floor and the floors below. The core
imports nothing outside the standard library.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "diloti"

FLOORS = {
    "core": 0,
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


def _floor(module: str) -> int | None:
    parts = module.split(".")
    if parts[0] != "diloti" or len(parts) < 2:
        return None
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


def test_core_imports_only_the_standard_library() -> None:
    bad = []
    for mod, path in _modules().items():
        if _floor(mod) != 0:
            continue
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "diloti":
                if not name.startswith("diloti.core"):
                    bad.append(f"{mod} imports {name}")
            elif top != "__future__" and top not in sys.stdlib_module_names:
                bad.append(f"{mod} imports {name}")
    assert not bad, "\n".join(bad)


def test_no_import_circle() -> None:
    mods = _modules()
    graph = {m: {n for n in _imports(p) if n in mods and n != m and not m.startswith(n + ".")}
             for m, p in mods.items()}
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
