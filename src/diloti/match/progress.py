"""A small progress bar for long command-line runs (written to stderr).

It draws only when enabled (on a terminal, or when asked), and redraws at
most a few times a second so it never slows the work it reports on.

>>> import io
>>> out = io.StringIO()
>>> with Progress(3, "games", stream=out, enabled=True, interval=0) as bar:
...     for _ in range(3):
...         bar.advance()
>>> "3/3 games" in out.getvalue()
True
>>> with Progress(3, stream=out, enabled=False) as bar:
...     bar.advance()
>>> bar.done
1
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO


class Progress:
    """``[#####     ] 50/100 games  2.1s  eta 2.1s`` on one redrawn line."""

    def __init__(self, total: int, label: str = "", *, stream: TextIO | None = None, enabled: bool | None = None,
                 width: int = 30, interval: float = 0.2) -> None:
        self.total = max(total, 0)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.width = width
        self.interval = interval
        self.done = 0
        self.start = time.monotonic()
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more items done."""
        self.done += n
        if self.enabled:
            now = time.monotonic()
            if now - self._last >= self.interval or self.done >= self.total:
                self._last = now
                self._draw(now)

    def _draw(self, now: float) -> None:
        total = self.total or 1
        frac = min(self.done / total, 1.0)
        filled = int(frac * self.width)
        elapsed = now - self.start
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        label = f" {self.label}" if self.label else ""
        self.stream.write(f"\r[{'#' * filled}{' ' * (self.width - filled)}] {self.done}/{self.total}{label}"
                          f"  {elapsed:.1f}s  eta {eta:.1f}s ")
        self.stream.flush()

    def close(self) -> None:
        """Finish the line (the bar stays visible)."""
        if self.enabled:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
