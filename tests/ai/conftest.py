"""Every test of the computer starts with no tree kept from another test (ai/trees.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ai import trees


@pytest.fixture(autouse=True)
def no_kept_trees() -> Iterator[None]:
    """Forget the trees kept by earlier searches, before and after the test."""
    trees.clear()
    yield
    trees.clear()
