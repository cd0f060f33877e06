"""The parent games: ``tables.game`` names the game a table plays (``diloti``, ``xeri`` or ``kontsina``).

Every table stored before it plays Diloti, the server default.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no batch copy): on SQLite a rebuilt ``tables`` would cascade-delete the moves.
    op.add_column("tables", sa.Column("game", sa.String(16), nullable=False, server_default="diloti"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as t:
        t.drop_column("game")
