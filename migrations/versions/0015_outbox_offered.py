"""0015_outbox_offered: the outbox keeps a rematch offer to a player too ("offered"), with the
token of the Rematch click whose placeholder the post fills."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

KINDS = sa.text(
    "kind IN ('time_out', 'reminder', 'expired', 'computer', 'action', 'tournament', 'closed', "
    "'takeback', 'asked', 'offered')"
)


def upgrade() -> None:
    """Add the kind "offered"."""
    # As in 0010, 0012 and 0013: SQLite copies the table (batch mode), never reusing a post id.
    with op.batch_alter_table("outbox", table_kwargs={"sqlite_autoincrement": True}) as table:
        table.drop_constraint("ck_outbox_kind", type_="check")
        table.create_check_constraint("ck_outbox_kind", KINDS)


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
