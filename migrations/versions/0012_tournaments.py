"""0012_tournaments: server tournaments (Swiss and round robin), their entrants and pairings.

``tournaments``: one row per tournament: where it is announced (its channel, its own thread,
the announcement message), who made it, its format (``swiss``: ``rounds`` rounds;
``round_robin``: ``cycles`` 1 or 2), the options every game of it uses (the games' own
columns), the round length (``round_seconds``), when registration closes (NULL: when its
creator starts it), the player cap, the points of a bye, and where it stands (``status``,
``round``: the round being played, ``round_deadline``).

``tournament_entrants``: who joined, with the starting number and rating drawn at the start,
and the round after which a player withdrew (NULL: still playing).

``tournament_pairings``: the pairings of every round, stored once when the round is paired (a
restart never pairs a round again: the primary key keeps one row per board). ``blue_id`` NULL
is a bye. ``game_id`` tags the ordinary game each pairing is played as (NULL: a bye, or a
forfeit decided without a game); the points are written when the round closes.

``tournament_settings``: a server's rule for tournaments: whether anyone may create one (else
only its admins) and how many may be open at once (NULL: the defaults).

The timers and the outbox learn one more kind each: ``tournament`` (the next step of a
tournament: registration closing, a round's end or deadline) and its post.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
SNOWFLAKE = sa.BigInteger()

TIMER_KINDS = "kind IN ('game', 'challenge', 'tournament')"
POST_KINDS = "kind IN ('time_out', 'reminder', 'expired', 'computer', 'action', 'tournament')"


def upgrade() -> None:
    """Create the four tables; let the timers and the outbox hold the new kind."""
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", ID, primary_key=True, autoincrement=True),
        sa.Column("guild_id", SNOWFLAKE, nullable=False),
        sa.Column("channel_id", SNOWFLAKE, nullable=False),
        sa.Column("thread_id", SNOWFLAKE),
        sa.Column("message_id", SNOWFLAKE),
        sa.Column("creator_id", SNOWFLAKE, nullable=False),
        sa.Column("format", sa.Text, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("cycles", sa.Integer, nullable=False),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("clock", sa.Integer, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("takebacks", sa.Boolean, nullable=False),
        sa.Column("gc_total_ms", sa.BigInteger),
        sa.Column("gc_increment_ms", sa.BigInteger),
        sa.Column("round_seconds", sa.Integer, nullable=False),
        sa.Column("registration_deadline", sa.Float),
        sa.Column("max_players", sa.Integer, nullable=False),
        sa.Column("bye_points", sa.Float, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("round_deadline", sa.Float),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float),
        sa.Column("finished", sa.Float),
        sa.CheckConstraint("format IN ('swiss', 'round_robin')", name="ck_tournament_format"),
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'over', 'cancelled')",
            name="ck_tournament_status",
        ),
        sa.CheckConstraint("max_players >= 2", name="ck_tournament_cap"),
    )
    # The open tournaments of a server (its limit, /tournament list).
    op.create_index("tournaments_guild", "tournaments", ["guild_id", "status"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.tournament_id"), nullable=False),
        sa.Column("user_id", SNOWFLAKE, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("seed", sa.Integer),
        sa.Column("rating", sa.Float),
        sa.Column("withdrawn_after", sa.Integer),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name="tournament_entrants_pkey"),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.tournament_id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("board", sa.Integer, nullable=False),
        sa.Column("pink_id", SNOWFLAKE, nullable=False),
        sa.Column("blue_id", SNOWFLAKE),
        sa.Column("game_id", ID, sa.ForeignKey("games.game_id")),
        sa.Column("pink_points", sa.Float),
        sa.Column("blue_points", sa.Float),
        sa.Column("outcome", sa.Text),
        sa.PrimaryKeyConstraint("tournament_id", "round", "board", name="tournament_pairings_pkey"),
    )
    # A game is in at most one pairing: found from the game when it ends.
    op.create_index("tournament_pairings_game", "tournament_pairings", ["game_id"], unique=True)
    op.create_table(
        "tournament_settings",
        sa.Column("guild_id", SNOWFLAKE, primary_key=True, autoincrement=False),
        sa.Column("anyone_creates", sa.Boolean, nullable=False),
        sa.Column("max_open", sa.Integer),
        sa.Column("updated", sa.Float),
    )
    with op.batch_alter_table("timers") as batch:
        batch.drop_constraint("ck_timer_kind", type_="check")
        batch.create_check_constraint("ck_timer_kind", TIMER_KINDS)
    # The copy SQLite makes keeps the outbox's ids unique for ever (see 0010_outbox_token).
    with op.batch_alter_table("outbox", table_kwargs={"sqlite_autoincrement": True}) as batch:
        batch.drop_constraint("ck_outbox_kind", type_="check")
        batch.create_check_constraint("ck_outbox_kind", POST_KINDS)


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
