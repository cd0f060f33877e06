"""The page as an installable app, checked the way an install audit checks it, in a real browser: a web
manifest with a name, a start address, standalone display and 192/512 PNG icons that really are those
sizes; a service worker that takes control and opens the shell offline; a dark theme that follows the
system setting; turn alerts that are off until the player turns them on."""

from __future__ import annotations

import json
import struct
import urllib.request
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def fetch(url: str) -> tuple[bytes, str]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read(), r.headers.get("Content-Type", "")


def test_manifest_and_icons_pass_an_install_audit(server: str, new_page: Any) -> None:
    page = new_page()
    page.goto(server + "/?pace=0")
    page.wait_for_selector("#new-table")
    href = page.get_attribute("link[rel=manifest]", "href")
    assert href and page.get_attribute("meta[name=theme-color]", "content")
    assert "width=device-width" in (page.get_attribute("meta[name=viewport]", "content") or "")
    body, _ = fetch(server + href)
    manifest = json.loads(body)
    assert manifest["name"] and manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["display"] in ("standalone", "fullscreen", "minimal-ui")
    assert manifest["start_url"].startswith("/") and manifest["background_color"] and manifest["theme_color"]
    sizes = set()
    for icon in manifest["icons"]:
        data, ctype = fetch(server + icon["src"])
        assert ctype == "image/png" and data[:8] == b"\x89PNG\r\n\x1a\n", icon
        width, height = struct.unpack(">II", data[16:24])
        assert f"{width}x{height}" == icon["sizes"], icon
        sizes.add((icon["sizes"], icon.get("purpose", "any")))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    start, ctype = fetch(server + manifest["start_url"])
    assert ctype.startswith("text/html") and b'rel="manifest"' in start


def test_the_service_worker_takes_control_and_the_shell_opens_offline(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 800}, service_workers="allow")
    try:
        page = context.new_page()
        page.goto(server + "/?pace=0")
        page.wait_for_selector("#new-table")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == server + "/"
        page.reload()
        page.wait_for_function("() => !!navigator.serviceWorker.controller")
        cached = page.evaluate("caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys()))))"
                               ".then(all => all.flat().map(r => new URL(r.url).pathname))")
        assert {"/", "/static/app.css", "/static/js/app.js", "/static/js/game.js"} <= set(cached)
        context.set_offline(True)
        page.goto(server + "/?table=anything")  # any page address is the same shell
        page.wait_for_selector("#home-link")
        assert "Diloti" in page.title()
    finally:
        context.close()


def test_dark_theme_follows_the_system_setting(server: str, new_page: Any) -> None:
    colours = {}
    for scheme in ("light", "dark"):
        page = new_page(color_scheme=scheme)
        page.goto(server + "/?pace=0")
        page.wait_for_selector("#new-table")
        colours[scheme] = page.evaluate("getComputedStyle(document.querySelector('#new-table')).backgroundColor")
    assert colours["light"] != colours["dark"]
    light = [int(x) for x in colours["light"].split("(")[1].split(")")[0].split(",")[:3]]
    dark = [int(x) for x in colours["dark"].split("(")[1].split(")")[0].split(",")[:3]]
    assert sum(light) > 600 and sum(dark) < 200, colours


def test_turn_alerts_are_off_until_chosen(server: str, browser: Any, ui: Any) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 820}, reduced_motion="reduce")
    context.grant_permissions(["notifications"], origin=server)
    try:
        page = context.new_page()
        ui.create_table(page, server, "Eleni", ["greedy"])
        page.wait_for_selector("#game")

        def module(body: str, *args: Any) -> Any:
            return page.evaluate(f"async (args) => {{ const M = await import('/static/js/alerts.js'); {body} }}",
                                 list(args))
        assert module("return M.alertPrefs()") == {"sound": False, "notify": False}
        assert module("return M.turnAlert(M.alertPrefs(), 'Diloti', 'x')") == []  # off: nothing happens
        mine = {"your_turn": True, "ply": 4}
        assert module("return M.shouldAlert(args[0], args[1], true)", {"your_turn": False, "ply": 3}, mine)
        assert not module("return M.shouldAlert(args[0], args[1], false)", {"your_turn": False, "ply": 3}, mine)
        assert not module("return M.shouldAlert(args[0], args[0], true)", mine)  # the same turn: once
        assert not module("return M.shouldAlert(null, args[0], true)", {"your_turn": False, "ply": 4})
        page.click("#alerts-btn")
        page.check("#alert-sound")
        page.check("#alert-notify")  # permission granted: it stays on
        assert page.is_checked("#alert-notify")
        assert module("return M.alertPrefs()") == {"sound": True, "notify": True}
        assert module("return M.turnAlert(M.alertPrefs(), 'Diloti', 'Your turn')") == ["sound", "notify"]
        page.uncheck("#alert-sound")
        assert module("return M.alertPrefs()") == {"sound": False, "notify": True}
    finally:
        context.close()
