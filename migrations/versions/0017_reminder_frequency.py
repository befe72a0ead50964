"""0017_reminder_frequency: how often a player is reminded of their turn in long games
(``players.remind_every``), copied onto the game row when their turn starts
(``games.remind_every``), and when this turn's last reminder was sent (``games.reminded_at``)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (NULL: reminded once, the default; 0: never; else every so many
    seconds); a turn already reminded keeps its reminder as sent a third of the clock before
    its deadline."""
    op.add_column("players", sa.Column("remind_every", sa.Integer))
    op.add_column("games", sa.Column("remind_every", sa.Integer))
    op.add_column("games", sa.Column("reminded_at", sa.Float))
    op.execute(
        "UPDATE games SET reminded_at = deadline - clock / 3.0 "
        "WHERE reminder_sent AND deadline IS NOT NULL"
    )


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
