"""One upsert for every table: INSERT ... ON CONFLICT, in the dialect of the database."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite


def insert_for(dialect: str, table: Table) -> Any:
    """The dialect's INSERT of ``table`` (it has ``on_conflict_do_update`` and ``_nothing``)."""
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def upsert(
    dialect: str,
    table: Table,
    values: Mapping[str, Any],
    *,
    keys: Iterable[str],
    replace: Iterable[str] | None = None,
    add: Mapping[str, Any] | None = None,
) -> Any:
    """Insert ``values`` into ``table``, or on a clash of ``keys`` update the existing row:
    each column of ``replace`` (default: every value but the keys) takes the new value, and
    each of ``add`` is set to its expression (which may read ``stmt.excluded`` via a
    callable taking the statement)."""
    key_names = list(keys)
    stmt = insert_for(dialect, table).values(dict(values))
    names = [n for n in values if n not in key_names] if replace is None else list(replace)
    changes: dict[str, Any] = {name: stmt.excluded[name] for name in names}
    for name, expression in (add or {}).items():
        changes[name] = expression(stmt) if callable(expression) else expression
    return stmt.on_conflict_do_update(index_elements=key_names, set_=changes)
