"""0010_outbox_token: the outbox keeps a player's actions too ("action": a move, an end, a
resign), with the token of the interaction whose placeholder the post fills (Discord accepts
it for 15 minutes; the row is deleted once posted); on SQLite its ids are never reused."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

KINDS = sa.text("kind IN ('time_out', 'reminder', 'expired', 'computer', 'action')")


def upgrade() -> None:
    """Add ``outbox.token`` and the kind "action"."""
    # SQLite alters a constraint by copying the table (Alembic's batch mode); PostgreSQL in
    # place (batch mode does that there). The copy never reuses a post id (AUTOINCREMENT):
    # a post's nonces are made from its id, and Discord returns the message a nonce made for
    # a few minutes, so a new post under an old id would be taken for the old one.
    with op.batch_alter_table("outbox", table_kwargs={"sqlite_autoincrement": True}) as table:
        table.add_column(sa.Column("token", sa.Text))
        table.drop_constraint("ck_outbox_kind", type_="check")
        table.create_check_constraint("ck_outbox_kind", KINDS)


def downgrade() -> None:
    """Not supported: restore a backup instead."""
    raise NotImplementedError("downgrades are not supported; restore a backup")
