"""Rematches and series.

``tables.series`` is the id of the first game of the series a table belongs to (null: a single
game, or the first of its series before a rematch); ``tables.next_table`` is the rematch created
from this table once it is over. It is unique and set by a conditional update (only while null),
so however many players or processes ask for the rematch, exactly one new table is made.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN and indexes: rebuilding ``tables`` on SQLite (a batch copy) would drop
    # the old table, and with foreign keys on that cascades to every stored move.
    op.add_column("tables", sa.Column("series", sa.String(32), nullable=True))
    op.add_column("tables", sa.Column("next_table", sa.String(32), nullable=True))
    op.create_index("ix_tables_series", "tables", ["series"])
    op.create_index("ix_tables_next_table", "tables", ["next_table"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tables_next_table", "tables")
    op.drop_index("ix_tables_series", "tables")
    with op.batch_alter_table("tables") as t:
        t.drop_column("next_table")
        t.drop_column("series")
