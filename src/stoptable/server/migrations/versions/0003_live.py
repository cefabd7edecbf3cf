"""What a restart needs beside the record (protocol.md §9): on the last line of every
stored change, the events it published (for ``resume``) and the table's live state then
(turn-clock banks, the running seat, absent seats).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("published", sa.Text, nullable=True))
        batch.add_column(sa.Column("live", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("live")
        batch.drop_column("published")
