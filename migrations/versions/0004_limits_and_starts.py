"""0004_limits_and_starts: per-user limits per server; starts still to finish; replays.

The branch written before Alembic had this as ``0004_limits_and_starts.sql``; the same schema,
for either database. SQLite: its ALTER TABLE ADD COLUMN takes a CHECK inline, so the columns
are added in place (a copy of the table, Alembic's batch mode, is not needed, and would drop
``challenges`` while ``games`` rows refer to it, which foreign keys refuse).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def partial(condition: str) -> dict[str, object]:
    """The WHERE of a partial index, for both databases."""
    return {"sqlite_where": sa.text(condition), "postgresql_where": sa.text(condition)}


def add_checked(table: str, column: sa.Column[object], check: str | None) -> None:
    """Add ``column`` to ``table`` with the CHECK ``check`` (named ``ck_<column>``)."""
    name = f"ck_{column.name}"
    if op.get_bind().dialect.name == "sqlite":
        spec = sa.schema.CreateColumn(column).compile(dialect=op.get_bind().dialect)
        op.execute(f"ALTER TABLE {table} ADD COLUMN {spec} CONSTRAINT {name} CHECK ({check})")
        return
    op.add_column(table, column)
    if check is not None:
        op.create_check_constraint(name, table, check)


def upgrade() -> None:
    """Add the limits and ``answer_shown`` columns, the two indexes and ``replays``."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    # What one member may have at once in a server; NULL: the bot's default
    # (bot.games.challenges).
    for name in ("max_open_challenges", "max_running_games", "max_computer_games"):
        add_checked(
            "guilds", sa.Column(name, sa.Integer), f"{name} IS NULL OR {name} BETWEEN 1 AND 1000"
        )
    # True once an accepted challenge's message says so (the bot may be killed before that
    # edit; it then makes it at start-up, with the game's thread and first picture). A native
    # boolean on PostgreSQL, 0/1 with a CHECK on SQLite (as 0001's flags).
    add_checked(
        "challenges",
        sa.Column("answer_shown", sa.Boolean, nullable=False, server_default=sa.false()),
        "answer_shown IN (0, 1)" if sqlite else None,
    )
    # Older answers were shown: the bot before this revision edited the message in the accept.
    old = sa.table("challenges", sa.column("answer_shown", sa.Boolean), sa.column("status"))
    op.execute(old.update().where(old.c.status != "open").values(answer_shown=True))
    # The start-up scans: games whose first picture was never posted, accepts not yet shown.
    op.create_index(
        "games_unstarted", "games", ["game_id"],
        **partial("status = 'running' AND message_id IS NULL"),
    )  # fmt: skip
    shown = "answer_shown = 0" if sqlite else "NOT answer_shown"
    op.create_index(
        "challenges_unshown", "challenges", ["challenge_id"],
        **partial(f"status = 'accepted' AND {shown}"),
    )  # fmt: skip
    # The animated replay of a finished game (it never changes): rendered once, sent by
    # /export.
    op.create_table(
        "replays",
        sa.Column("game_id", ID, sa.ForeignKey("games.game_id"), primary_key=True,
                  autoincrement=False),
        sa.Column("gif", sa.LargeBinary, nullable=False),
    )  # fmt: skip


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
