"""The cyclic collector kept off the search's tree (ai/collector.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

import ai
from ai import collector, player
from ai.search import SearchResult
from engine import Game


@pytest.fixture(autouse=True)
def _collector_as_usual() -> Iterator[None]:
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    gc.enable()


def test_the_collector_is_off_while_any_search_runs_and_freezes_what_is_alive_after() -> None:
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():  # another search, in another thread
            assert not gc.isenabled()
        # The other ended; this one still runs.
        assert not gc.isenabled() and gc.get_freeze_count() == 0
    assert gc.isenabled() and gc.get_freeze_count() > 0
    collector.thaw()
    assert gc.get_freeze_count() == 0


def test_a_collector_turned_off_by_someone_else_stays_off_and_nothing_is_frozen() -> None:
    gc.disable()
    with collector.paused():
        pass
    assert not gc.isenabled() and gc.get_freeze_count() == 0


def test_a_move_leaves_its_tree_out_of_the_collectors_passes_until_the_next_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(10, 10)
    for name in ("E5", "F6", "F5", "E6"):
        game.place(name)
    assert ai.choose(game, "hard", seed=1, iterations=100, reuse=False).iterations == 100
    assert gc.isenabled() and gc.get_freeze_count() > 100  # the tree's nodes among them
    # The next move thaws it before its own search: a cycle left meanwhile by other code is
    # not kept from the collector for good.
    frozen_at_search: list[int] = []
    real = player.search

    def search(*args: Any, **kwargs: Any) -> SearchResult:
        frozen_at_search.append(gc.get_freeze_count())
        return real(*args, **kwargs)

    monkeypatch.setattr(player, "search", search)
    ai.choose(game, "hard", seed=2, iterations=10, reuse=False)
    assert frozen_at_search == [0]
    assert gc.isenabled() and gc.get_freeze_count() > 0
