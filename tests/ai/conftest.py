"""Every test of the computer starts with no tree kept from another test (ai/trees.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ai import kernel, trees


@pytest.fixture(autouse=True, scope="session")
def compiled_kernel_ready() -> None:
    """The compiled kernel loaded (or compiled) before the first search, where numba is
    installed: a search then plays the same playouts from its first move to its last."""
    kernel.warm_up(wait=True)


@pytest.fixture(autouse=True)
def no_kept_trees() -> Iterator[None]:
    """Forget the trees kept by earlier searches, before and after the test."""
    trees.clear()
    yield
    trees.clear()
