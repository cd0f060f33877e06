"""Names alike across alphabets are one name: ``players.name_key`` made again by the new rule.

The key now also takes accents out and makes letters that look alike in the Latin, Greek and Cyrillic
alphabets one (``diloti.store.players.name_key``; the rule is copied here, as it was when this revision
was written, so that the migration does not change with later code). Two players whose names now have one
key keep their names; the later one's key gets its id after it (``key#id``), so the name stays theirs and
no third player can take it.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_ALIKE = str.maketrans({
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "n", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "y", "χ": "x", "а": "a", "в": "b", "е": "e", "ё": "e", "і": "i", "ј": "j", "к": "k", "м": "m",
    "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t", "у": "y", "х": "x", "ӏ": "l",
})


def _key(name: str) -> str:
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).translate(_ALIKE)
    return " ".join(unicodedata.normalize("NFC", text).split())


def _old_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def _rekey(key_of: object) -> None:
    conn = op.get_bind()
    players = sa.table("players", sa.column("id", sa.String), sa.column("name", sa.Text),
                       sa.column("name_key", sa.String), sa.column("created", sa.DateTime))
    rows = conn.execute(sa.select(players.c.id, players.c.name).where(players.c.name.is_not(None))
                        .order_by(players.c.created, players.c.id)).all()
    keys: dict[str, str] = {}
    for pid, name in rows:
        key = key_of(name)[:64]  # type: ignore[operator]
        if key in keys.values():
            key = f"{key[:47]}#{pid}"[:64]
        keys[pid] = key
    # Cleared first: a new key may be another player's old one until every key is written.
    conn.execute(players.update().where(players.c.name.is_not(None)).values(name_key=None))
    for pid, key in keys.items():
        conn.execute(players.update().where(players.c.id == pid).values(name_key=key))


def upgrade() -> None:
    _rekey(_key)


def downgrade() -> None:
    _rekey(_old_key)
