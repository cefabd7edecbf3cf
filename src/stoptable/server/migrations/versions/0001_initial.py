"""Initial schema: tables, seats, events.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("header", sa.Text, nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("started_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_tables_phase", "tables", ["phase"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(64), nullable=True),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("t", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_index("ix_tables_phase", "tables")
    op.drop_table("tables")
