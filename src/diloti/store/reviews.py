"""Stored game reviews (:mod:`diloti.ai.review`): one per seat of a finished table, written once.

>>> import tempfile, os
>>> from diloti.store.db import Store, TableData, SeatData
>>> st = Store(f"sqlite:///{os.path.join(tempfile.mkdtemp(), 'r.sqlite3')}")
>>> st.create_table(TableData("t1", 2, {}, 7, 0, False, "over", seats=[SeatData(0, "bot", "random"),
...                                                                    SeatData(1, "bot", "random")]))
>>> rs = ReviewStore(st)
>>> rs.get("t1", 0, 1) is None
True
>>> rs.put("t1", 0, 1, 24, {"seats": [0]}), rs.put("t1", 0, 1, 24, {"seats": ["again"]})
(True, False)
>>> rs.get("t1", 0, 1)
{'seats': [0]}
>>> st.close()
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from diloti.store.db import Store, now
from diloti.store.models import ReviewRow


class ReviewStore:
    """Reviews on the engine of a :class:`~diloti.store.db.Store` (its calls block: run them off the loop)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, table_id: str, seat: int, version: int) -> dict[str, Any] | None:
        """The stored review of ``seat`` at ``table_id`` made by the review method ``version``, if any."""
        with self.store.session() as s:
            row = s.scalars(select(ReviewRow).where(ReviewRow.table_id == table_id, ReviewRow.seat == seat)).first()
            if row is None or row.version != version:
                return None
            data: dict[str, Any] = json.loads(row.data)
            return data

    def put(self, table_id: str, seat: int, version: int, worlds: int, data: dict[str, Any]) -> bool:
        """Store a review; False (and the first one kept) if another process stored it first. A review of an
        older method's version is replaced."""
        text = json.dumps(data, separators=(",", ":"))
        try:
            with self.store.session.begin() as s:
                s.execute(delete(ReviewRow).where(ReviewRow.table_id == table_id, ReviewRow.seat == seat,
                                                  ReviewRow.version != version))
                s.add(ReviewRow(table_id=table_id, seat=seat, version=version, worlds=worlds, data=text,
                                created=now()))
        except IntegrityError:
            return False
        return True


__all__ = ["ReviewStore"]
