"""0014_draw_by_agreement: a game's actions may end it as a draw both players agreed to
("draw": the player who accepted the offer)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

KINDS = "kind IN ('dot', 'end', 'resign', 'time', 'draw')"
ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

# The table as 0001 made it, its kinds' check named and with "draw": SQLite rewrites the table
# from this (its unnamed check cannot be dropped otherwise).
ACTIONS = sa.Table(
    "actions",
    sa.MetaData(),
    sa.Column("game_id", ID, sa.ForeignKey("games.game_id"), nullable=False),
    sa.Column("seq", sa.Integer, sa.CheckConstraint("seq >= 0"), nullable=False),
    sa.Column("kind", sa.Text, sa.CheckConstraint(KINDS, name="ck_action_kind"), nullable=False),
    sa.Column("player", sa.Integer, sa.CheckConstraint("player IN (1, 2)"), nullable=False),
    sa.Column("point", sa.Text, sa.CheckConstraint("(kind = 'dot') = (point IS NOT NULL)")),
    sa.Column("at", sa.Float, nullable=False),
    sa.PrimaryKeyConstraint("game_id", "seq"),
    sqlite_with_rowid=False,
)


def upgrade() -> None:
    """Allow the kind "draw"."""
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("actions", copy_from=ACTIONS, recreate="always"):
            pass
        return
    op.drop_constraint("actions_kind_check", "actions", type_="check")
    op.create_check_constraint("ck_action_kind", "actions", sa.text(KINDS))


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
