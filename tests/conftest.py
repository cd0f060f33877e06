"""Shared test helpers: build positions from short text."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser tests run last. Playwright's sync API keeps an event loop running in the main thread while
    its session-wide browser is open, so a test after it that calls ``asyncio.run`` (a doctest too) would fail
    with "cannot be called from a running event loop"."""
    items.sort(key=lambda item: item.nodeid.startswith("tests/browser/"))
