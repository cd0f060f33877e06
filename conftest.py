"""What every collected test shares, the doctests of ``src/diloti`` too (``tests/conftest.py`` serves the tests).

The docstrings' examples make their databases with ``tempfile.mkdtemp()``, as a reader would: under pytest that
folder is the example's own ``tmp_path`` (pytest keeps the last three runs' and removes the rest), so the suite
leaves nothing behind in the system's temporary folder.
"""

from __future__ import annotations

import tempfile

import pytest


@pytest.fixture(autouse=True)
def _doctest_temporary_folder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.setattr(tempfile, "tempdir", str(request.getfixturevalue("tmp_path")))  # undone after it
