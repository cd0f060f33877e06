"""The daily deal and arena tournaments (issue 50): ``tables.event`` names the event a table belongs to
(``daily:DAY``, ``arena:ID``); ``daily_days`` the seed and the computer opponent of each UTC day; ``daily_attempts``
each player's game of a day; ``arenas``, ``arena_players``, ``arena_games`` and ``arena_results`` the tournaments,
their players, their games and their final standings. A seat's level may be a level with settings
(``master:iterations=800,seconds=none``, the daily opponent): its columns are widened.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("event", sa.String(48), nullable=True))
        batch.create_index("ix_tables_event", ["event"])
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("level", type_=sa.String(64), existing_type=sa.String(32), existing_nullable=True)
    with op.batch_alter_table("results") as batch:
        batch.alter_column("level", type_=sa.String(64), existing_type=sa.String(32), existing_nullable=True)
    op.create_table(
        "daily_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("level", sa.String(64), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("rank_player", sa.String(16), nullable=True),
        sa.Column("rank_address", sa.String(64), nullable=True),
        sa.Column("rank_device", sa.String(64), nullable=True),
        sa.Column("started", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("day", "rank_player", name="uq_daily_player"),
        sa.UniqueConstraint("day", "rank_address", name="uq_daily_address"),
        sa.UniqueConstraint("day", "rank_device", name="uq_daily_device"),
    )
    op.create_index("ix_daily_attempts_day", "daily_attempts", ["day"])
    op.create_index("ix_daily_attempts_player_id", "daily_attempts", ["player_id"])
    op.create_table(
        "arenas",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("clock_move", sa.Integer(), nullable=False),
        sa.Column("clock_reserve", sa.Integer(), nullable=False),
        sa.Column("starts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seconds", sa.Integer(), nullable=False),
        sa.Column("wait", sa.Integer(), nullable=False),
        sa.Column("schedule", sa.String(32), nullable=True),
        sa.Column("creator", sa.String(16), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("final", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("schedule", "starts", name="uq_arena_schedule"),
    )
    op.create_index("ix_arenas_starts", "arenas", ["starts"])
    op.create_table(
        "arena_players",
        sa.Column("arena_id", sa.String(16), sa.ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "arena_games",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("arena_id", sa.String(16), sa.ForeignKey("arenas.id", ondelete="CASCADE"), nullable=False),
        sa.Column("p0", sa.String(16), nullable=True),
        sa.Column("p1", sa.String(16), nullable=True),
        sa.Column("level", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_arena_games_arena_id", "arena_games", ["arena_id"])
    op.create_table(
        "arena_results",
        sa.Column("arena_id", sa.String(16), sa.ForeignKey("arenas.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
    )
    op.create_index("ix_arena_results_player_id", "arena_results", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_arena_results_player_id", "arena_results")
    op.drop_table("arena_results")
    op.drop_index("ix_arena_games_arena_id", "arena_games")
    op.drop_table("arena_games")
    op.drop_table("arena_players")
    op.drop_index("ix_arenas_starts", "arenas")
    op.drop_table("arenas")
    op.drop_index("ix_daily_attempts_player_id", "daily_attempts")
    op.drop_index("ix_daily_attempts_day", "daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_days")
    with op.batch_alter_table("results") as batch:
        batch.alter_column("level", type_=sa.String(32), existing_type=sa.String(64), existing_nullable=True)
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("level", type_=sa.String(32), existing_type=sa.String(64), existing_nullable=True)
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_event")
        batch.drop_column("event")
