"""After a ``bench/load.py`` run: what the database holds against what the players were told, and percentiles."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import select

from diloti.server.live import LiveTable
from diloti.store.db import Store
from diloti.store.models import MoveRow, TableRow


@dataclass
class Check:
    stored: int = 0  # move rows of the run's tables
    over: int = 0  # tables stored as finished whose moves replay to the end of the game
    lost: list[str] = field(default_factory=list)  # moves a player saw acknowledged, not stored as seen
    unstored: int = 0  # moves announced to anyone (not only the mover) that are not stored as announced
    gaps: int = 0  # plies missing below a table's last stored ply
    duplicates: int = 0  # (table, ply) stored more than once
    bad_replays: list[str] = field(default_factory=list)
    digest: str = ""  # of every stored game's moves, table by table in the order the run opened them


def games_digest(ids: list[str], rows: dict[tuple[str, int], list[str]]) -> str:
    """A digest of the stored moves, table by table in the order ``ids`` gives (not the tables' ids, which
    differ from run to run): two runs with --fixed-deals and one seed played the same games when they agree."""
    plies: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (tid, ply), moves in rows.items():
        plies[tid].extend((ply, m) for m in moves)
    text = "\n".join(" ".join(m for _, m in sorted(plies[tid])) for tid in ids)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def check_database(url: str, ids: list[str], acked: Iterable[tuple[str, int, str]],
                   seen: dict[tuple[str, int], str]) -> Check:
    """Compare the run's tables in the database with every move the players saw announced."""
    out = Check()
    store = Store(url, migrate=False)
    rows: dict[tuple[str, int], list[str]] = defaultdict(list)
    status: dict[str, str] = {}
    try:
        with store.session() as s:
            for k in range(0, len(ids), 500):
                chunk = ids[k:k + 500]
                for tid, ply, move in s.execute(select(MoveRow.table_id, MoveRow.ply, MoveRow.move)
                                                .where(MoveRow.table_id.in_(chunk))):
                    rows[(tid, ply)].append(move)
                status.update(s.execute(select(TableRow.id, TableRow.status).where(TableRow.id.in_(chunk))).all())
        out.stored = sum(len(v) for v in rows.values())
        out.digest = games_digest(ids, rows)
        out.duplicates = sum(len(v) - 1 for v in rows.values())
        last: dict[str, int] = defaultdict(lambda: -1)
        for tid, ply in rows:
            last[tid] = max(last[tid], ply)
        out.gaps = sum(n + 1 for n in last.values()) - len(rows)
        out.lost = [f"{t} ply {p} {m!r}" for t, p, m in acked if m not in rows.get((t, p), [])]
        out.unstored = sum(1 for key, m in seen.items() if m not in rows.get(key, []))
        for tid in ids:
            data = store.load(tid)
            try:
                if data is None:
                    raise ValueError("not stored")
                game_over = LiveTable(data).game.is_over  # replays every stored move through the engine
            except Exception as exc:
                out.bad_replays.append(f"{tid}: {exc}")
                continue
            if game_over and status.get(tid) == "over":
                out.over += 1
    finally:
        store.close()
    return out


def pct(data: list[float], p: float) -> float:
    """The ``p``-th percentile of ``data`` in milliseconds (nearest rank)."""
    if not data:
        return float("nan")
    data = sorted(data)
    k = min(len(data) - 1, max(0, round(p / 100 * (len(data) - 1))))
    return data[k] * 1000


def sustained_rate(times: list[float]) -> float:
    """Moves a second between the moments 10 % and 90 % of the moves had been announced (ramp and tail left out)."""
    if len(times) < 20:
        return float("nan")
    times = sorted(times)
    a, b = times[len(times) // 10], times[len(times) * 9 // 10]
    return (len(times) * 8 // 10) / (b - a) if b > a else float("nan")
