"""0011_reviews_puzzles: the computer's reviews of games, puzzles mined from them, the puzzles
given to players and each player's solving streak."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``reviews``, ``puzzles``, ``puzzle_attempts`` and ``puzzle_streaks``."""
    op.create_table(
        "reviews",
        sa.Column("game_id", ID, primary_key=True, autoincrement=False),
        sa.Column("requested_by", ID, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_reviews_requested_by", "reviews", ["requested_by", "created"])
    op.create_table(
        "puzzles",
        sa.Column("puzzle_key", sa.Text, primary_key=True),
        sa.Column("game_id", ID),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("depth", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column("attempt_id", ID, primary_key=True, autoincrement=True),
        sa.Column("user_id", ID, nullable=False),
        sa.Column("puzzle_key", sa.Text, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("given", sa.Float, nullable=False),
        sa.Column("answered", sa.Float),
        sa.Column("answer", sa.Text),
        sa.Column("solved", sa.Boolean),
    )
    op.create_index("ix_puzzle_attempts_user", "puzzle_attempts", ["user_id", "given"])
    op.create_table(
        "puzzle_streaks",
        sa.Column("user_id", ID, primary_key=True, autoincrement=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("best", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("tried", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
