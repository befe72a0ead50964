"""0002_indexes: indexes for the start-up scan, a player's games, challenges and leaderboards."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def partial(condition: str) -> dict[str, object]:
    """The WHERE of a partial index, for both databases."""
    return {"sqlite_where": sa.text(condition), "postgresql_where": sa.text(condition)}


def upgrade() -> None:
    """Create the indexes."""
    # Keyed by game_id, which never changes: a move (new deadline) touches no index.
    op.create_index("games_running", "games", ["game_id"], **partial("status = 'running'"))
    op.create_index("games_pink", "games", ["pink_id", "status"])
    op.create_index("games_blue", "games", ["blue_id", "status"])
    op.create_index("games_guild_finished", "games", ["guild_id", "finished"])
    op.create_index("challenges_open", "challenges", ["expires"], **partial("status = 'open'"))
    op.create_index(
        "challenges_pair", "challenges", ["guild_id", "challenger_id", "opponent_id", "status"]
    )
    op.create_index("ratings_board", "ratings", ["guild_id", sa.text("rating DESC")])


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
