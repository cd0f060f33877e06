"""Leaving, resigning and away seats.

``tables.end_reason`` says why a game ended early (``resigned:SEAT``), ``tables.away_level`` and
``tables.grace`` are the table's settings for absent players (the computer's level, the seconds a
disconnected player keeps the seat before the others may hand it to the computer), ``seats.away``
marks a seat the computer plays for, and ``moves.by`` names the level of the computer that made a
move for an away player.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as t:
        t.add_column(sa.Column("end_reason", sa.String(40), nullable=True))
        t.add_column(sa.Column("away_level", sa.String(32), nullable=True))
        t.add_column(sa.Column("grace", sa.Integer, nullable=True))
    with op.batch_alter_table("seats") as t:
        t.add_column(sa.Column("away", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("moves") as t:
        t.add_column(sa.Column("by", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as t:
        t.drop_column("by")
    with op.batch_alter_table("seats") as t:
        t.drop_column("away")
    with op.batch_alter_table("tables") as t:
        t.drop_column("grace")
        t.drop_column("away_level")
        t.drop_column("end_reason")
