"""Password hashing at a bounded cost: a few hashes at a time per process, the rest waiting in a short line or
refused at once.

An argon2 hash or check costs about 0.2 CPU s and 64 MiB. Unbounded, 20 addresses within their login limits
held a process at 107% CPU and 606 MB, and a live game went from 6 to 68 ms a move. Here at most
:data:`HASH_THREADS` run at once (on threads of their own, so the default thread pool never fills with
them), at most :data:`HASH_WAITING` more wait, and any beyond are refused with ``503 busy`` before
anything is hashed.

A login for a name nobody holds is refused without hashing too, but only after waiting for a slot and
for as long as a real check takes here (the running mean of the real ones): it looks like a wrong password
from outside, it takes the same time and the same place in the line, and it costs no CPU.

>>> import asyncio
>>> h = Hashing(threads=1, waiting=0)
>>> stored = asyncio.run(h.hash("correct horse"))
>>> asyncio.run(h.verify(stored, "correct horse")), asyncio.run(h.verify(stored, "wrong"))
(True, False)
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from diloti.server.protocol import ProtocolError

HASHER = PasswordHasher()  # argon2id with the library's defaults (RFC 9106's low-memory profile)
HASH_THREADS = 2  # hashes at once per process (each ~0.2 CPU s, 64 MiB)
HASH_WAITING = 16  # attempts waiting for a slot before the next ones are refused
T = TypeVar("T")


def check(stored: str, password: str) -> bool:
    """Whether ``password`` matches the stored argon2 hash (False for a malformed hash too)."""
    try:
        return bool(HASHER.verify(stored, password))
    except (VerificationError, InvalidHashError):
        return False


class Hashing:
    """This process's password hashing: bounded concurrency, a short line, and a cheap refusal."""

    def __init__(self, threads: int = HASH_THREADS, waiting: int = HASH_WAITING) -> None:
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="diloti-hash")
        self._slots = asyncio.Semaphore(threads)
        self.limit = threads + waiting
        self.busy = 0  # attempts hashing or waiting for a slot
        self.refused = 0  # attempts refused because the line was full
        self.seconds = 0.2  # running mean of a real check's time here (what an unknown name waits)

    def _admit(self) -> None:
        if self.busy >= self.limit:
            self.refused += 1
            raise ProtocolError("busy", "too many password checks under way; try again in a moment", 503,
                                retry_after=1)

    async def _run(self, fn: Callable[..., T], *args: str) -> T:
        self._admit()
        self.busy += 1
        try:
            async with self._slots:
                return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        finally:
            self.busy -= 1

    async def hash(self, password: str) -> str:
        """The stored form of a new password."""
        return await self._run(HASHER.hash, password)

    async def verify(self, stored: str, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (its time feeds :meth:`pretend`)."""
        t0 = time.perf_counter()
        ok = await self._run(check, stored, password)
        self.seconds = 0.9 * self.seconds + 0.1 * (time.perf_counter() - t0)
        return ok

    async def pretend(self) -> bool:
        """A check that cannot succeed (the name is unknown): the line and the time of a real one, no CPU."""
        self._admit()
        self.busy += 1
        try:
            async with self._slots:
                await asyncio.sleep(self.seconds * random.uniform(0.9, 1.1))
        finally:
            self.busy -= 1
        return False

    def needs_rehash(self, stored: str) -> bool:
        return bool(HASHER.check_needs_rehash(stored))
