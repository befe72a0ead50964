"""0001_initial: servers, players, challenges, games, their actions, and Glicko-2 ratings.

Instants are unix seconds (floating point, UTC); durations are whole seconds; user, server,
channel, thread and message ids are Discord snowflakes (BIGINT). The baseline: on SQLite it
makes what ``0001_initial.sql`` made before Alembic (a file at that version is stamped, not
rebuilt).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# An id the database assigns: SQLite's INTEGER PRIMARY KEY (the rowid), PostgreSQL's bigserial.
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SNOWFLAKE = sa.BigInteger()
INSTANT = sa.Float()


def flag(name: str) -> sa.Boolean:
    """A boolean column: native on PostgreSQL, 0/1 with a CHECK on SQLite."""
    return sa.Boolean(create_constraint=True, name=f"ck_{name}")


def upgrade() -> None:
    """Create the tables."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.create_table(
        "guilds",
        sa.Column("guild_id", SNOWFLAKE, primary_key=True, autoincrement=False),
        sa.Column("game_channel_id", SNOWFLAKE),
        sa.Column(
            "default_clock",
            sa.Integer,
            sa.CheckConstraint("default_clock BETWEEN 30 AND 604800"),
            nullable=False,
            server_default="60",
        ),
        sa.Column("updated", INSTANT, nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("user_id", SNOWFLAKE, primary_key=True, autoincrement=False),
        sa.Column("dm_on_turn", flag("dm_on_turn"), nullable=False, server_default=sa.false()),
        sa.Column("updated", INSTANT, nullable=False),
    )
    op.create_table(
        "challenges",
        sa.Column("challenge_id", ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("channel_id", SNOWFLAKE, nullable=False),
        sa.Column("message_id", SNOWFLAKE),
        sa.Column("challenger_id", SNOWFLAKE, nullable=False),
        sa.Column("opponent_id", SNOWFLAKE, nullable=False),
        sa.Column(
            "width", sa.Integer, sa.CheckConstraint("width BETWEEN 5 AND 52"), nullable=False
        ),
        sa.Column(
            "height", sa.Integer, sa.CheckConstraint("height BETWEEN 5 AND 52"), nullable=False
        ),
        sa.Column(
            "rules",
            sa.Text,
            sa.CheckConstraint("rules IN ('standard', 'grounding')"),
            nullable=False,
        ),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column(
            "clock", sa.Integer, sa.CheckConstraint("clock IS NULL OR clock BETWEEN 30 AND 604800")
        ),
        sa.Column(
            "colour",
            sa.Text,
            sa.CheckConstraint("colour IN ('pink', 'blue', 'random')"),
            nullable=False,
        ),
        sa.Column("rated", flag("challenges_rated"), nullable=False),
        sa.Column(
            "status",
            sa.Text,
            sa.CheckConstraint(
                "status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')"
            ),
            nullable=False,
            server_default="open",
        ),
        sa.Column("created", INSTANT, nullable=False),
        sa.Column("expires", INSTANT, nullable=False),
        # SQLite accepts the reference to the table made next; PostgreSQL gets it afterwards.
        sa.Column("game_id", ID, *([sa.ForeignKey("games.game_id")] if sqlite else [])),
    )
    op.create_table(
        "games",
        sa.Column("game_id", ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("channel_id", SNOWFLAKE, nullable=False),
        sa.Column("thread_id", SNOWFLAKE),
        sa.Column("message_id", SNOWFLAKE),
        sa.Column("challenge_id", ID, sa.ForeignKey("challenges.challenge_id")),
        sa.Column("pink_id", SNOWFLAKE, nullable=False),
        sa.Column("blue_id", SNOWFLAKE, nullable=False),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column(
            "rules",
            sa.Text,
            sa.CheckConstraint("rules IN ('standard', 'grounding')"),
            nullable=False,
        ),
        sa.Column("start", sa.Text, nullable=False),
        # The starting dots as "1:E5 2:F5 ..." (1 Pink, 2 Blue): four-crosses is drawn at
        # random, and a replay must not depend on the draw (rule 9.2).
        sa.Column("start_dots", sa.Text, nullable=False, server_default=""),
        sa.Column("seed", sa.BigInteger),
        sa.Column(
            "clock", sa.Integer, sa.CheckConstraint("clock BETWEEN 30 AND 604800"), nullable=False
        ),
        sa.Column("rated", flag("games_rated"), nullable=False),
        sa.Column(
            "status",
            sa.Text,
            sa.CheckConstraint("status IN ('running', 'over', 'aborted')"),
            nullable=False,
            server_default="running",
        ),
        sa.Column("winner", sa.Integer, sa.CheckConstraint("winner IN (1, 2)")),
        sa.Column("pink_score", sa.Integer),
        sa.Column("blue_score", sa.Integer),
        sa.Column("reason", sa.Text),
        # How many actions the game has: the seq of the next one.
        sa.Column("moves", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created", INSTANT, nullable=False),
        sa.Column("started", INSTANT, nullable=False),
        sa.Column("finished", INSTANT),
        # The instant the player to move runs out of time (NULL once the game is not running).
        sa.Column("deadline", INSTANT),
        sa.Column(
            "reminder_sent", flag("reminder_sent"), nullable=False, server_default=sa.false()
        ),
    )
    if not sqlite:
        op.create_foreign_key(
            "challenges_game_id_fkey", "challenges", "games", ["game_id"], ["game_id"]
        )
    # Rule 10.1: a game is its actions in order; a position is their replay.
    op.create_table(
        "actions",
        sa.Column("game_id", ID, sa.ForeignKey("games.game_id"), nullable=False),
        sa.Column("seq", sa.Integer, sa.CheckConstraint("seq >= 0"), nullable=False),
        sa.Column(
            "kind",
            sa.Text,
            sa.CheckConstraint("kind IN ('dot', 'end', 'resign', 'time')"),
            nullable=False,
        ),
        sa.Column("player", sa.Integer, sa.CheckConstraint("player IN (1, 2)"), nullable=False),
        sa.Column("point", sa.Text, sa.CheckConstraint("(kind = 'dot') = (point IS NOT NULL)")),
        sa.Column("at", INSTANT, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seq"),
        sqlite_with_rowid=False,
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("user_id", SNOWFLAKE, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("losses", sa.Integer, nullable=False, server_default="0"),
        sa.Column("draws", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", INSTANT, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
        sqlite_with_rowid=False,
    )
    # What each rated game did to each player's rating (for history).
    op.create_table(
        "rating_changes",
        sa.Column("game_id", ID, sa.ForeignKey("games.game_id"), nullable=False),
        sa.Column("user_id", SNOWFLAKE, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
