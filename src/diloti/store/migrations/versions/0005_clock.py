"""Turn clocks.

``tables.clock_move`` and ``tables.clock_reserve`` are a table's turn clock (seconds per move, and a
reserve per player spent once a move takes longer; both null: no clock). ``moves.left`` is the
mover's reserve in milliseconds after a move its player made on a clocked table, so a restarted
server, or another process, resumes every player's clock with the reserve it had.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN (no batch copy): on SQLite a rebuilt ``tables`` would cascade-delete the moves.
    op.add_column("tables", sa.Column("clock_move", sa.Integer, nullable=True))
    op.add_column("tables", sa.Column("clock_reserve", sa.Integer, nullable=True))
    op.add_column("moves", sa.Column("left", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as t:
        t.drop_column("left")
    with op.batch_alter_table("tables") as t:
        t.drop_column("clock_reserve")
        t.drop_column("clock_move")
