"""0007_stickers: the stickers players earned (issue 13 item 5), one row per player, game and
sticker.

A sticker is written in the transaction of the action that earned it (``Store.record_action``),
so none is lost to a crash, and the primary key keeps it to once per game. ``seq`` is the
action that earned it: taking actions back deletes what they earned.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Create ``stickers`` and its index by game."""
    op.create_table(
        "stickers",
        # The sticker book is a player's across servers; guild_id says where it was earned.
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("game_id", ID, sa.ForeignKey("games.game_id"), nullable=False),
        # bot.games.stickers.Sticker's stable ids; no CHECK, so a new sticker needs no revision.
        sa.Column("sticker", sa.Text, nullable=False),
        sa.Column("guild_id", sa.BigInteger),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("earned", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("user_id", "sticker", "game_id", name="stickers_pkey"),
        sa.CheckConstraint("seq >= 0", name="ck_stickers_seq"),
    )
    # A game's stickers (what it earned so far; a take-back deletes by game and seq).
    op.create_index("stickers_game", "stickers", ["game_id", "seq"])


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
