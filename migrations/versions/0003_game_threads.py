"""0003_game_threads: find a game by the thread (or channel) it is played in."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the index."""
    condition = sa.text("thread_id IS NOT NULL")
    op.create_index(
        "games_thread", "games", ["thread_id"], sqlite_where=condition, postgresql_where=condition
    )


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
