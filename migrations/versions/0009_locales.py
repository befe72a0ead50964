"""0009_locales: a server's language chosen by an admin; each user's last seen language."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``guild_locales`` and ``player_locales``."""
    for table, key in (("guild_locales", "guild_id"), ("player_locales", "user_id")):
        op.create_table(
            table,
            sa.Column(key, ID, primary_key=True, autoincrement=False),
            sa.Column("locale", sa.Text, nullable=False),
            sa.Column("updated", sa.Float),
        )


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
