"""Bot accounts and the Bot API (docs/BOTS.md): ``players.bot`` marks an account an outside program plays,
``bot_tokens`` its revocable tokens (SHA-256 only), ``challenges`` the challenges between accounts, ``bot_events``
what each account's event stream tells (every server process reads them), and ``tables.bots`` whether a table
lets bot accounts sit (null: no).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("bots", sa.Boolean(), nullable=True))
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("scopes", sa.String(64), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_bot_tokens_player_id", "bot_tokens", ["player_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("from_id", sa.String(16), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("to_id", sa.String(16), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("bots", sa.Boolean(), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_challenges_from", "challenges", ["from_id", "created"])
    op.create_index("ix_challenges_to", "challenges", ["to_id", "status"])
    op.create_table(
        "bot_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_bot_events_created", "bot_events", ["created"])


def downgrade() -> None:
    op.drop_index("ix_bot_events_created", "bot_events")
    op.drop_table("bot_events")
    op.drop_index("ix_challenges_to", "challenges")
    op.drop_index("ix_challenges_from", "challenges")
    op.drop_table("challenges")
    op.drop_index("ix_bot_tokens_player_id", "bot_tokens")
    op.drop_table("bot_tokens")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bots")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot")
