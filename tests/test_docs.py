"""The docs stay true to the code: the README's map of the package, its links and example, no name that is gone."""

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
            if name != "make_player":  # a module, or a package of modules (ai/learned)
                assert (SRC / folder / f"{name}.py").exists() or (SRC / folder / name / "__init__.py").exists(), \
                    (folder, name)


def test_no_doc_names_what_is_gone() -> None:
    gone = ["make_player_spec", "progress.py", "diloti.state", "diloti.moves", "diloti.table", "round_seed",
            "derived_seed", "options_text", "parse_options_text", "owner_pile", "own_pile", "`Pile`", ".loose",
            "_BOOL_HELP", "exact bound"]
    # The games' modules that left the core for their own packages (games/diloti, games/xeri, games/kontsina).
    gone += [f"core{sep}{name}" for sep in "/." for name in (
        "state", "xeri", "kontsina", "games", "variants", "variant_chance", "variant_game", "variant.", "options",
        "table", "movegen", "bigtable", "scoring", "game.", "reading", "validation")]
    # The one-card games' frame, which left the core, the formats, the players and the environments for its own
    # package (games/onecard), and the registry, which moved to the bottom floor (core/registry).
    gone += [f"{floor}{sep}{name}" for sep in "/." for floor, name in (
        ("core", "hand_state"), ("core", "hand_chance"), ("core", "hands_game"), ("formats", "hands"),
        ("ai", "hand_sense"), ("envs", "hand_"), ("envs", "openspiel_hands"))]
    gone += ['.part("', "GameInfo.part("]
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for name in gone:
            assert name not in text, (path.name, name)


def test_the_readme_links_every_page_of_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pages = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").rglob("*.md"))
    missing = [page for page in pages if f"]({page})" not in readme]
    assert not missing, f"docs pages the README does not link: {missing}"


def test_the_readme_names_every_extra() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("Heavy dependencies are optional extras", 1)[1].split("\n## ", 1)[0]
    assert not [name for name in extras if f"`{name}`" not in section]


def test_the_readme_library_example_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(example, "README.md", "exec"), {"print": lambda *_: None})


def test_docs_say_which_interpreter_runs_the_scripts_and_speak_of_the_software() -> None:
    # `python bench/x.py` fails with the system Python (no diloti there): the project's .venv runs them.
    bare = re.compile(r"(^|[^/\w.])python3? (bench|examples)/")
    history = re.compile(r"\b(first|second|third|fourth|next|previous|earlier|this|last) session\b", re.IGNORECASE)
    for path in [*DOCS, *sorted((ROOT / "bench").glob("*.py")), *sorted((ROOT / "examples").glob("*.py"))]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not bare.search(line), (path.name, number, line)
            if path.suffix == ".md":
                assert not history.search(line), (path.name, number, line)


def test_rules_pages_cite_their_sources_by_address() -> None:
    for name in ("RULES.md", "RULES-XERI.md", "RULES-KONTSINA.md"):
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert "seeds/" not in text and "https://" in text, name
