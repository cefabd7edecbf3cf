"""Several processes on one database (protocol.md §9): who drives each table.

One row per table that a process drives or drove: the process (``owner``), a fencing
``token`` that grows by one at every change of hands, and when the lease runs out. Every
append checks the token inside its own transaction (operations.md, "Several processes").

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "owners",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("owners_by_owner", "owners", ["owner"])


def downgrade() -> None:
    op.drop_index("owners_by_owner", "owners")
    op.drop_table("owners")
