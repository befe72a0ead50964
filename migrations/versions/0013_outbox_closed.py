"""0013_outbox_closed: the outbox keeps a challenge's decline or withdrawal too ("closed"), a
takeback request ("asked") and its answer ("takeback"), with the token of the interaction
whose placeholder the post fills."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

KINDS = sa.text(
    "kind IN ('time_out', 'reminder', 'expired', 'computer', 'action', 'tournament', 'closed', "
    "'takeback', 'asked')"
)


def upgrade() -> None:
    """Add the kinds "closed", "takeback" and "asked"."""
    # As in 0010 and 0012: SQLite copies the table (batch mode), never reusing a post id.
    with op.batch_alter_table("outbox", table_kwargs={"sqlite_autoincrement": True}) as table:
        table.drop_constraint("ck_outbox_kind", type_="check")
        table.create_check_constraint("ck_outbox_kind", KINDS)


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
