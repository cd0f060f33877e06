"""Password hashing at a bounded cost (diloti.server.hashing): a few at a time, a short line, a cheap refusal."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from diloti.server import hashing
from diloti.server.hashing import Hashing
from diloti.server.protocol import ProtocolError


def test_at_most_threads_hash_at_once_and_the_line_is_short(monkeypatch: pytest.MonkeyPatch) -> None:
    running, peak = [0], [0]
    lock = threading.Lock()
    real = hashing.check

    def counted(stored: str, password: str) -> bool:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        try:
            return real(stored, password)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(hashing, "check", counted)

    async def go() -> list[bool | ProtocolError]:
        h = Hashing(threads=2, waiting=3)
        stored = await h.hash("correct horse")
        tries = [h.verify(stored, "correct horse" if i % 2 else "wrong") for i in range(10)]
        out = await asyncio.gather(*tries, return_exceptions=True)
        assert h.busy == 0 and h.refused == 5
        return out  # type: ignore[return-value]

    out = asyncio.run(go())
    refused = [r for r in out if isinstance(r, ProtocolError)]
    assert len(refused) == 5 and {(e.code, e.status, e.retry_after) for e in refused} == {("busy", 503, 1)}
    assert [r for r in out[:5]] == [False, True, False, True, False]  # the first five were admitted, checked
    assert peak[0] == 2


def test_an_unknown_name_costs_no_cpu_but_waits_as_long_as_real_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    # "No CPU" is "no hashing": counted by the calls, not timed by the process's CPU clock, which also counts
    # every other thread of the test process (a loaded CI run's leftovers made that flaky).
    calls = [0]
    real = hashing.check

    def counted(stored: str, password: str) -> bool:
        calls[0] += 1
        return real(stored, password)

    monkeypatch.setattr(hashing, "check", counted)

    async def go() -> tuple[int, float, float, float]:
        h = Hashing()
        stored = await h.hash("correct horse")
        for _ in range(3):
            await h.verify(stored, "wrong")
        mean = h.seconds  # the running mean of the real checks' times: what an unknown name waits
        before = calls[0]
        cpu, wall = time.thread_time(), time.perf_counter()
        assert await h.pretend() is False
        return calls[0] - before, mean, time.thread_time() - cpu, time.perf_counter() - wall

    hashed, mean, fake_cpu, fake_wall = asyncio.run(go())
    assert calls[0] == 3 and hashed == 0  # the real checks hashed; the pretended one did not
    assert fake_cpu < 0.05  # its own thread only waited
    assert fake_wall >= 0.9 * mean > 0
