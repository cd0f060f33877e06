"""The Bot API's events wake every server process through PostgreSQL's LISTEN/NOTIFY (docs/BOTS.md): an event
is announced in its own transaction (heard once committed, never before), a process's replica hands the notice
to the event reader rather than to its tables, and the reader hands out each event once whatever the order in
which their transactions commit."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from diloti.server.bots import EventCursor
from diloti.server.replica import Replica
from diloti.store.bots import BotStore
from diloti.store.db import CHANNEL, Store
from servers import pg, server_pg

__all__ = ["pg", "server_pg"]  # fixtures


def _notices(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    return [json.loads(n.payload) for n in conn.notifies(timeout=0.5, stop_after=None)]


def test_a_bot_event_is_announced_to_the_other_processes_once_committed(pg: str) -> None:
    store = Store(pg, origin="proc-a")
    bots = BotStore(store)
    with psycopg.connect(pg, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        with store.session.begin() as s:  # not yet committed: nobody hears of it
            bots._event(s, "p1", "challenge", {"type": "challenge"})
            assert [n for n in _notices(listener) if n.get("k") == "bot"] == []
        heard = [n for n in _notices(listener) if n.get("k") == "bot"]
        assert heard == [{"k": "bot", "o": "proc-a"}]
        bots.add_events([("p1", "gameStart", {"type": "gameStart"}), ("p2", "gameStart", {"type": "gameStart"})])
        assert [n for n in _notices(listener) if n.get("k") == "bot"] == [{"k": "bot", "o": "proc-a"}]
    assert [e.kind for e in bots.events_after(0)] == ["challenge", "gameStart", "gameStart"]
    store.engine.dispose()


def test_a_replica_hands_a_bot_notice_to_its_listener_not_to_the_tables() -> None:
    heard: list[dict[str, Any]] = []
    replica = Replica.__new__(Replica)  # only the notice's routing is under test: no cluster, no tables
    replica.listeners = {"bot": heard.append}
    replica.tables = {}
    asyncio.run(replica.on_notice({"k": "bot", "o": "proc-b"}))
    assert heard == [{"k": "bot", "o": "proc-b"}]


@pytest.mark.parametrize("notice", [{"k": 5}, {"k": None}, {}])
def test_a_notice_of_no_known_kind_reaches_no_listener(notice: dict[str, Any]) -> None:
    heard: list[dict[str, Any]] = []
    replica = Replica.__new__(Replica)
    replica.listeners = {"bot": heard.append}
    replica.tables = {}
    asyncio.run(replica.on_notice(notice))
    assert heard == []


@given(st.permutations(list(range(1, 13))), st.lists(st.integers(0, 12), min_size=1, max_size=12))
def test_events_committed_in_any_order_are_each_handed_out_once(order: list[int], reads: list[int]) -> None:
    """Ids committed out of order, read at any moments in between (well within the gap's wait): each once."""
    cursor = EventCursor(0)
    handed: list[int] = []
    committed: list[int] = []
    for step, event in enumerate(order):
        committed.append(event)
        if step in reads or step == len(order) - 1:
            rows = sorted(i for i in committed if i > cursor.floor)
            handed += cursor.new(rows, now=float(step))
    assert sorted(handed) == list(range(1, 13))
    assert cursor.floor == 12 and not cursor.seen
