"""0005_rematch_open: rematch offers (a challenge naming the game it replays) and open
challenges (anyone in the server may accept).

A rematch offer is a challenge row with ``rematch_of`` set to the finished game it replays
(a rematch against the computer too: its row is stored accepted, with its game). At most one
per game, ever: a unique index makes two clicks at once one offer.

An open challenge is a challenge row whose ``opponent_id`` is 0 until someone accepts it (no
Discord snowflake is 0, and the computer's ids are negative). 0 rather than NULL: the column
is NOT NULL since 0001, and SQLite could only drop that by copying the table, which foreign
keys refuse while ``games`` rows refer to it (see 0004). The accept sets it to the taker.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def partial(condition: str) -> dict[str, object]:
    """The WHERE of a partial index, for both databases."""
    return {"sqlite_where": sa.text(condition), "postgresql_where": sa.text(condition)}


def upgrade() -> None:
    """Add ``challenges.rematch_of`` and its unique index."""
    if op.get_bind().dialect.name == "sqlite":
        # SQLite's ADD COLUMN takes a reference inline (NULL by default, so it may).
        op.execute("ALTER TABLE challenges ADD COLUMN rematch_of INTEGER REFERENCES games(game_id)")
    else:
        op.add_column("challenges", sa.Column("rematch_of", ID))
        op.create_foreign_key(
            "fk_challenges_rematch_of", "challenges", "games", ["rematch_of"], ["game_id"]
        )
    op.create_index(
        "challenges_rematch_of", "challenges", ["rematch_of"], unique=True,
        **partial("rematch_of IS NOT NULL"),
    )  # fmt: skip


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
