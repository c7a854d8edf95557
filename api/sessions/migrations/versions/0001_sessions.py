"""sessions, players, entries, corrections

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(200), nullable=False, server_default=""),
        sa.Column("variant", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("final", sa.JSON, nullable=True),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.String(32), sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column("seat_index", sa.Integer, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.UniqueConstraint("session_id", "seat"),
    )
    op.create_index("ix_players_session_id", "players", ["session_id"])
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.String(32), sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("request", sa.JSON, nullable=False),
        sa.Column("context", sa.JSON, nullable=False),
        sa.Column("outcome", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
        sa.Column("payments", sa.JSON, nullable=False),
        sa.Column("photo", sa.String(64), nullable=True),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("session_id", "seq"),
    )
    op.create_index("ix_entries_session_id", "entries", ["session_id"])
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.String(32), sa.ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
        sa.Column("action", sa.String(10), nullable=False),
        sa.Column("entry_seq", sa.Integer, nullable=False),
        sa.Column("new_entry_seq", sa.Integer, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_corrections_session_id", "corrections", ["session_id"])


def downgrade() -> None:
    op.drop_table("corrections")
    op.drop_table("entries")
    op.drop_table("players")
    op.drop_table("sessions")
