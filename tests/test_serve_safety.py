"""``diloti serve`` as an operator meets it: what trusting a proxy means (``--help``), a warning when forwarded
addresses are trusted beyond the loopback, and database errors that never show the URL's password."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from diloti.cli import main

pytestmark = pytest.mark.timeout(60)
SECRET = "s3cret-Pw"


def test_help_says_what_trusting_a_proxy_means(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "X-Forwarded-For" in text and "Trust only your own proxy" in text and "escape or shift" in text


@pytest.mark.parametrize("url", [f"postgresql://diloti:{SECRET}@127.0.0.1:1/diloti",
                                 f"postgresql://diloti:{SECRET}@no host:5432/diloti",
                                 f"mysql://diloti:{SECRET}@127.0.0.1/diloti",
                                 f"postgresql://diloti:{SECRET.replace('-', '%2D')}@127.0.0.1:1/diloti"])
def test_database_errors_never_print_the_password(url: str) -> None:
    out = subprocess.run([sys.executable, "-m", "diloti", "serve", "--db", url, "--port", "1"], capture_output=True,
                         text=True, timeout=50, check=False)
    assert out.returncode == 2, out
    assert "***" in out.stderr and "Traceback" not in out.stderr
    assert SECRET not in out.stderr + out.stdout and SECRET.replace("-", "%2D") not in out.stderr


def test_a_warning_when_forwarded_addresses_are_trusted_beyond_the_loopback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    ran: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.append(kw))  # not listening: only what it says
    db = str(tmp_path / "d.sqlite3")
    assert main(["serve", "--db", db, "--host", "0.0.0.0", "--forwarded-allow-ips", "10.0.0.5"]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "10.0.0.5" in err and "X-Forwarded-For" in err
    assert ran[-1]["forwarded_allow_ips"] == "10.0.0.5" and ran[-1]["proxy_headers"]
    assert main(["serve", "--db", db]) == 0  # the loopback: nobody else can connect, nothing to warn of
    assert "warning" not in capsys.readouterr().err
