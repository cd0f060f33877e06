"""Limits counted for the whole service: ``limit_hits`` holds the moving window of each key of the limits that
protect a player (the login lockout, recovery attempts, renames), ``sign_ins`` the addresses each player signed in
from (let through their name's lockout), so that every server process on one database counts them once.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "limit_hits",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("hits", sa.Text(), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_limit_hits_expires", "limit_hits", ["expires"])
    op.create_table(
        "sign_ins",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sign_ins_at", "sign_ins", ["at"])


def downgrade() -> None:
    op.drop_index("ix_sign_ins_at", "sign_ins")
    op.drop_table("sign_ins")
    op.drop_index("ix_limit_hits_expires", "limit_hits")
    op.drop_table("limit_hits")
