"""Players who come back: identities, device keys, ratings and per-seat results.

``players`` holds a name (unique by ``name_key``, its case-folded form), the SHA-256 of a recovery code
and optionally an argon2 password hash; ``player_keys`` one row per device key (SHA-256 only);
``ratings`` a player's rating per mode (``overall``, ``2p``, ``4p``) with ``score = mu - 3 sigma``, indexed
for the leaderboard; ``results`` one row per seat of each finished game that had a player, with the
rating after it (the profile's history); ``player_stats`` a player's running totals per mode (games,
wins, losses, xeris, points, rounds). ``seats.player_id`` is the player holding a seat,
``tables.rated`` (null: rated) a table's choice, ``tables.scored`` that its results are written (once:
a conditional update, whichever process sees the game end).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("name_key", sa.String(64), nullable=True),
        sa.Column("recovery_hash", sa.String(64), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
        sa.UniqueConstraint("recovery_hash", name="uq_players_recovery_hash"),
    )
    op.create_table(
        "player_keys",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_keys_player_id", "player_keys", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("mode", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["mode", "score", "player_id"])
    op.create_table(
        "results",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("side", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("won", sa.Boolean, nullable=True),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("against", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("xeris", sa.Integer, nullable=False),
        sa.Column("end_reason", sa.String(40), nullable=True),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mu", sa.Float, nullable=True),
        sa.Column("sigma", sa.Float, nullable=True),
        sa.Column("omu", sa.Float, nullable=True),
        sa.Column("osigma", sa.Float, nullable=True),
    )
    op.create_index("ix_results_player", "results", ["player_id", "finished"])
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(16), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("mode", sa.String(8), primary_key=True),
        *(sa.Column(name, sa.Integer, nullable=False)
          for name in ("games", "won", "lost", "xeris", "points", "rounds")),
    )
    # Plain ADD COLUMN (no batch copy): on SQLite a rebuilt ``tables`` would cascade-delete the moves. A
    # foreign key added this way is not enforced on SQLite (ALTER TABLE cannot add one); the store only
    # ever writes a player's id there.
    op.add_column("seats", sa.Column("player_id", sa.String(16), nullable=True))
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    if op.get_bind().dialect.name == "postgresql":
        op.create_foreign_key("fk_seats_player_id", "seats", "players", ["player_id"], ["id"])
    op.add_column("tables", sa.Column("rated", sa.Boolean, nullable=True))
    op.add_column("tables", sa.Column("scored", sa.Boolean, nullable=False, server_default=sa.false()))
    # Games finished before players existed have nobody to score.
    op.execute("UPDATE tables SET scored = true WHERE status IN ('over', 'closed')")
    op.create_index("ix_tables_scored", "tables", ["scored"])


def downgrade() -> None:
    # Plain DROP COLUMN (SQLite 3.35+), not a batch copy: a rebuilt ``tables`` would cascade-delete the moves.
    op.drop_index("ix_tables_scored", "tables")
    op.drop_column("tables", "scored")
    op.drop_column("tables", "rated")
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint("fk_seats_player_id", "seats", type_="foreignkey")
    op.drop_index("ix_seats_player_id", "seats")
    op.drop_column("seats", "player_id")
    op.drop_table("player_stats")
    op.drop_index("ix_results_player", "results")
    op.drop_table("results")
    op.drop_index("ix_ratings_board", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_player_keys_player_id", "player_keys")
    op.drop_table("player_keys")
    op.drop_table("players")
