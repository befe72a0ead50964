"""0008_timers_outbox: one timers table for every deadline, and the outbox of posts.

``timers``: one row per thing that must happen at an instant: a game's clock (its reminder, then
its time-out: ``kind`` "game"), a challenge's expiry ("challenge"). ``due`` is when it fires
(unix seconds); ``guild_id`` says which shard's process owns it (NULL: a direct-message or
terminal game, shard 0). The Store writes a timer in the same transaction as the change that
makes it; a process claims a due timer and applies it and removes it in one transaction
(``bot.timers``). On PostgreSQL a trigger NOTIFYs ``dots_timers`` on every new or moved timer,
so a sleeping claimer wakes early.

``outbox``: posts that must follow a committed change (a time-out's announcement, a reminder, an
expired challenge's edit), written in that change's transaction and deleted once posted; the
bot sends what is left at start-up (with a nonce from ``post_id``, so a retry does not post
twice).

Existing databases: a timer for every running game with a deadline and every open challenge.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SNOWFLAKE = sa.BigInteger()
# The reminder rule as this revision found it (bot.games.convert.remind_at): clocks of an hour
# or more are reminded a third of the clock before the deadline, once per turn.
REMINDER_MIN_CLOCK = 3600

NOTIFY = """
CREATE FUNCTION dots_timers_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('dots_timers', COALESCE(NEW.guild_id::text, '') || ' ' || NEW.due::text);
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""
TRIGGER = """
CREATE TRIGGER timers_notify AFTER INSERT OR UPDATE OF due ON timers
FOR EACH ROW EXECUTE FUNCTION dots_timers_notify()
"""


def upgrade() -> None:
    """Create ``timers`` (with its NOTIFY trigger on PostgreSQL) and ``outbox``; fill timers."""
    op.create_table(
        "timers",
        sa.Column("kind", sa.Text, primary_key=True),
        sa.Column("ref_id", SNOWFLAKE, primary_key=True, autoincrement=False),
        sa.Column("guild_id", SNOWFLAKE),
        sa.Column("due", sa.Float, nullable=False),
        sa.CheckConstraint("kind IN ('game', 'challenge')", name="ck_timer_kind"),
    )
    op.create_index("timers_due", "timers", ["due"])
    op.create_table(
        "outbox",
        sa.Column("post_id", ID, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("ref_id", SNOWFLAKE, nullable=False),
        sa.Column("guild_id", SNOWFLAKE),
        sa.Column("seq", sa.Integer),
        sa.Column("created", sa.Float, nullable=False),
        sa.CheckConstraint(
            "kind IN ('time_out', 'reminder', 'expired', 'computer')", name="ck_outbox_kind"
        ),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY)
        op.execute(TRIGGER)
    op.execute(
        "INSERT INTO timers (kind, ref_id, guild_id, due) "
        "SELECT 'game', game_id, guild_id, CASE "
        f"WHEN clock >= {REMINDER_MIN_CLOCK} AND NOT reminder_sent "
        "THEN deadline - clock / 3.0 ELSE deadline END "
        "FROM games WHERE status = 'running' AND deadline IS NOT NULL"
    )
    op.execute(
        "INSERT INTO timers (kind, ref_id, guild_id, due) "
        "SELECT 'challenge', challenge_id, guild_id, expires FROM challenges "
        "WHERE status = 'open'"
    )


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
