"""The docs stay true to the code: the README's map of the package, and no name that is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "diloti"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _map_rows() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Where things live", 1)[1].split("\n## ", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)/` \| (.*) \|$", section, re.MULTILINE)}


def test_the_readme_maps_every_folder_and_every_core_module() -> None:
    rows = _map_rows()
    folders = {p.name for p in SRC.iterdir() if (p / "__init__.py").exists()}
    assert set(rows) == folders
    named = set(re.findall(r"`(\w+)`", rows["core"]))
    modules = {p.stem for p in (SRC / "core").glob("*.py") if p.stem != "__init__"}
    assert modules <= named, f"core modules missing from the README map: {sorted(modules - named)}"
    for folder in ("formats", "ai", "match"):
        for name in re.findall(r"`(\w+)`", rows[folder]):
            if name != "make_player":
                assert (SRC / folder / f"{name}.py").exists(), (folder, name)


def test_no_doc_names_what_is_gone() -> None:
    gone = ["make_player_spec", "progress.py", "diloti.state", "diloti.moves", "diloti.table", "round_seed",
            "derived_seed", "options_text", "parse_options_text", "owner_pile", "own_pile", "`Pile`", ".loose",
            "_BOOL_HELP", "exact bound"]
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for name in gone:
            assert name not in text, (path.name, name)
