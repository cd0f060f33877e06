"""Accessibility, checked by axe-core in the real Chromium: the start page, a table (a card chosen, so the
table shows its highlighted and dimmed choices), the end of a game, the replay, the profile and the
leaderboard, in the light and the dark theme, against the WCAG 2.1 A and AA rules (contrast among them).

axe-core comes with the axe-playwright-python package (pinned in constraints/test.txt, installed by
scripts/test with the test extra).
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
         "resultTypes": ["violations"]}


def violations(page: Any) -> list[str]:
    """axe-core's WCAG A/AA violations on the page as it is now, one line per element."""
    result = axe_sync.Axe().run(page, options=RULES)
    out = []
    for v in result.response["violations"]:
        for node in v["nodes"]:
            out.append(f"{v['id']} ({v['impact']}): {node['target']} {node.get('failureSummary', '')[:300]}")
    return out


def check(page: Any, where: str) -> None:
    found = violations(page)
    assert not found, f"{where}: " + "\n".join(found)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_pages_pass_axe(server: str, new_page: Any, ui: Any, kept_name: Any, scheme: str) -> None:
    page = new_page(color_scheme=scheme)
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#play-first #play-computer")
    check(page, "start page")
    ui.open_identity(page)  # the identity control expanded: the name, keep it, sign in
    check(page, "start page with the identity control open")
    name = kept_name("Axel")  # names are unique among players
    page.fill("#name", name)
    page.click("#become-btn")
    page.click("#recovery-done")
    page.wait_for_selector("#player-panel #player-name")

    ui.create_table(page, server, name, ["greedy"])
    ui.wait_status(page, ("turn",))
    check(page, "a table")
    # A card chosen by its key (a tap on a card with one legal move would play it).
    page.keyboard.press(page.get_attribute("#hand button.card:not([disabled])", "data-key"))
    page.click("#type-btn")
    check(page, "a table with a card chosen and the typed-move box open")

    page.click("#resign-btn")
    page.click("#confirm-resign")
    page.wait_for_selector("#end-again")
    check(page, "the end of a game")
    table = page.evaluate("new URLSearchParams(location.search).get('table')")

    page.goto(f"{server}/?pace=0&replay={table}")
    page.wait_for_selector("#replay #replay-next")
    page.click("#replay-next")
    check(page, "the replay")

    page.goto(server + "/?pace=0")
    ui.open_identity(page)
    page.click("#profile-link")
    page.wait_for_selector("#profile #profile-ratings")
    check(page, "the profile")
    page.goto(server + "/?pace=0&leaders=overall")
    page.wait_for_selector("#leaders table.sheet")
    check(page, "the leaderboard")
