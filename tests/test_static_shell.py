"""The service worker's shell lists every script, style sheet and icon the page is made of.

A module missing from the list is still fetched (and cached) online, so nothing online shows it; but the
app opened offline before that fetch ever happened fails on the import, and the whole page with it.
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).parents[1] / "src" / "diloti" / "server" / "static"


def test_the_shell_lists_every_file_the_page_is_made_of() -> None:
    listed = set(re.findall(r'"(/static/[^"]+)"', (STATIC / "sw.js").read_text(encoding="utf-8")))
    files = {"/static/" + p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*")
             if p.is_file() and p.suffix in (".js", ".css", ".png", ".webmanifest") and p.name != "sw.js"}
    assert len(files) > 30
    assert files - listed == set(), "not in sw.js's SHELL"
    assert listed - files == set(), "in SHELL but not a file"
