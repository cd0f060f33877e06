"""The table manager's background tasks: those nobody awaits, kept until they end and their failures logged.

Every part of the manager (:mod:`diloti.server.tables`) starts such tasks through one :class:`Background`,
so that stopping the manager cancels them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

from diloti.server.health import is_outage

log = logging.getLogger("diloti.server")
T = TypeVar("T")


def report_failure(task: asyncio.Future[Any]) -> None:
    """Log the failure of a task nobody awaits (a done callback); a database outage's is not logged (the outage's
    own lines say it: diloti.server.health.Outage)."""
    exc = None if task.cancelled() else task.exception()
    if exc is not None and not is_outage(exc):
        log.error("background task failed: %r", exc)


class Background:
    """The tasks nobody has to await."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Future[Any]] = set()

    def spawn(self, coro: Awaitable[T], report: bool = True) -> asyncio.Future[T]:
        """Run ``coro`` in a task kept here, so that it is not collected mid-flight, its failure logged
        (``report=False``: a caller awaits it and logs its failure itself)."""
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        if report:
            task.add_done_callback(report_failure)
        return task
