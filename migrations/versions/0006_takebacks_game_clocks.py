"""0006_takebacks_game_clocks: takebacks by consent and game clocks (issue 13 items 3 and 4).

A challenge and its game say whether takebacks are allowed, and may carry a game clock (a total
time per player plus an increment per move, in milliseconds). A running game on a game clock
keeps each player's exact time left, whose clock runs and since when (``bot.games.game_clock``
``ClockState``), so a restart keeps exact times. ``takebacks`` holds the one takeback request a
game may have (the latest), so its buttons work after a restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SNOWFLAKE = sa.BigInteger()
INSTANT = sa.Float()
MS = sa.BigInteger()


def add_checked(table: str, column: sa.Column[object], check: str | None) -> None:
    """Add ``column`` to ``table`` with the CHECK ``check`` (named ``ck_<table>_<column>``)."""
    name = f"ck_{table}_{column.name}"
    if op.get_bind().dialect.name == "sqlite":
        spec = sa.schema.CreateColumn(column).compile(dialect=op.get_bind().dialect)
        suffix = f" CONSTRAINT {name} CHECK ({check})" if check else ""
        op.execute(f"ALTER TABLE {table} ADD COLUMN {spec}{suffix}")
        return
    op.add_column(table, column)
    if check is not None:
        op.create_check_constraint(name, table, check)


def upgrade() -> None:
    """Add the takeback and game clock columns and the ``takebacks`` table."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table in ("challenges", "games"):
        # Unrated games allowed takebacks, rated ones not (the default of /challenge).
        add_checked(
            table,
            sa.Column("takebacks", sa.Boolean, nullable=False, server_default=sa.false()),
            "takebacks IN (0, 1)" if sqlite else None,
        )
        old = sa.table(table, sa.column("takebacks", sa.Boolean), sa.column("rated", sa.Boolean))
        op.execute(old.update().where(old.c.rated.is_(False)).values(takebacks=True))
        # The game clock chosen (NULL: a clock per move only, rule 7.1).
        add_checked(table, sa.Column("gc_total_ms", MS), "gc_total_ms IS NULL OR gc_total_ms > 0")
        add_checked(
            table,
            sa.Column("gc_increment_ms", MS),
            "gc_increment_ms IS NULL OR gc_increment_ms >= 0",
        )
    # A running game's clock state: time left at the runner's turn start, who runs since when.
    for name in ("gc_pink_ms", "gc_blue_ms"):
        add_checked("games", sa.Column(name, MS), f"{name} IS NULL OR {name} >= 0")
    add_checked(
        "games", sa.Column("gc_runner", sa.Integer), "gc_runner IS NULL OR gc_runner IN (0, 1, 2)"
    )
    add_checked("games", sa.Column("gc_since_ms", MS), None)
    op.create_table(
        "takebacks",
        sa.Column("game_id", ID, sa.ForeignKey("games.game_id"), primary_key=True,
                  autoincrement=False),
        sa.Column("asker_id", SNOWFLAKE, nullable=False),
        # The game's number of actions when asked: a click after a move finds it changed.
        sa.Column("moves", sa.Integer, sa.CheckConstraint("moves > 0"), nullable=False),
        sa.Column(
            "status",
            sa.Text,
            sa.CheckConstraint("status IN ('pending', 'accepted', 'declined')"),
            nullable=False,
        ),
        sa.Column("asked", INSTANT, nullable=False),
        sa.Column("expires", INSTANT, nullable=False),
        sa.Column("message_id", SNOWFLAKE),
    )  # fmt: skip


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
