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


def test_an_unknown_name_costs_no_cpu_but_waits_as_long_as_real_checks() -> None:
    async def go() -> tuple[float, float, float, float]:
        h = Hashing()
        stored = await h.hash("correct horse")
        cpu = time.process_time()
        await h.verify(stored, "wrong")
        real_cpu = time.process_time() - cpu
        for _ in range(2):
            await h.verify(stored, "wrong")
        mean = h.seconds  # the running mean of the real checks' times: what an unknown name waits
        cpu, wall = time.process_time(), time.perf_counter()
        assert await h.pretend() is False
        return real_cpu, mean, time.process_time() - cpu, time.perf_counter() - wall

    real_cpu, mean, fake_cpu, fake_wall = asyncio.run(go())
    assert fake_cpu < real_cpu / 5
    assert fake_wall >= 0.9 * mean > 0
