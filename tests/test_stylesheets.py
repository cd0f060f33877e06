"""The browser game's style sheets are well formed: every block closes where it should.

A browser drops nothing it cannot parse loudly; an unclosed ``@media`` block silently moves every rule after it
inside the media query (the review list's current move was bold in dark mode only that way)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).parents[1] / "src" / "diloti" / "server" / "static"
SHEETS = sorted(STATIC.glob("*.css"))


def depths(css: str) -> list[int]:
    """The nesting depth after each line of ``css``, comments and strings left out."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), css, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', '""', text)
    out, depth = [], 0
    for n, line in enumerate(text.splitlines(), 1):
        depth += line.count("{") - line.count("}")
        assert depth >= 0, f"line {n}: a '}}' closes nothing"
        out.append(depth)
    return out


def test_there_are_sheets() -> None:
    assert {p.name for p in SHEETS} >= {"app.css", "table.css"}


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.name)
def test_every_block_closes_and_top_level_rules_start_at_the_margin(sheet: Path) -> None:
    css = sheet.read_text(encoding="utf-8")
    seen = depths(css)
    assert seen[-1] == 0, f"{sheet.name}: {seen[-1]} block(s) left open at the end"
    # The house style indents what is inside a block: a rule at the margin inside one is a block left open.
    for n, (line, before) in enumerate(zip(css.splitlines()[1:], seen, strict=False), 2):
        if before > 0 and line[:1] not in ("", " ", "\t", "}") and not line.startswith("/*"):
            pytest.fail(f"{sheet.name} line {n}: {line[:60]!r} starts at the margin inside a block")


def test_the_checker_finds_an_open_block() -> None:
    assert depths("@media (x) {\n  a { b: c; }\nd { e: f; }\n") == [1, 1, 1]
    assert depths("a { content: '}'; } /* { */\n") == [0]
