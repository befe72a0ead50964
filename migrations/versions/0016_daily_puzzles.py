"""0016_daily_puzzles: a server's daily puzzle channel and the puzzle of its day, and the
timers' and the outbox's kind "daily" (the timer of the next day, the post it owes)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TIMER_KINDS = sa.text("kind IN ('game', 'challenge', 'tournament', 'daily')")
KINDS = sa.text(
    "kind IN ('time_out', 'reminder', 'expired', 'computer', 'action', 'tournament', 'closed', "
    "'takeback', 'asked', 'offered', 'daily')"
)


def upgrade() -> None:
    """Create ``daily_puzzles``; add the timer and outbox kind "daily"."""
    op.create_table(
        "daily_puzzles",
        sa.Column("guild_id", ID, primary_key=True, autoincrement=False),
        sa.Column("channel_id", ID, nullable=False),
        sa.Column("day", sa.Integer, nullable=False),
        sa.Column("puzzle_key", sa.Text),
        sa.Column("data", sa.Text),
        sa.Column("posted", sa.Float),
    )
    with op.batch_alter_table("timers") as batch:
        batch.drop_constraint("ck_timer_kind", type_="check")
        batch.create_check_constraint("ck_timer_kind", TIMER_KINDS)
    # As in 0013 and 0015: SQLite copies the table (batch mode), never reusing a post id.
    with op.batch_alter_table("outbox", table_kwargs={"sqlite_autoincrement": True}) as table:
        table.drop_constraint("ck_outbox_kind", type_="check")
        table.create_check_constraint("ck_outbox_kind", KINDS)


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
