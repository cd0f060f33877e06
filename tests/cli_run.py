"""The ``diloti`` command run in this process, for the tests of the command line (one helper, shared)."""

from __future__ import annotations

import pytest

from diloti.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``diloti ARGV...``: its exit status (a ``SystemExit``'s too) and what it printed on standard output and error."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
