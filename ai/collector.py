"""Python's cyclic garbage collector, kept off the search's tree.

A search builds a tree of a few hundred thousand nodes on 39x32 (ai/search.py), and the
collector's full passes walk every one of them, and every kept tree (ai/trees.py), each time:
on 39x32 they took a fifth of hard's 1.5 s, and one falling in a search's last iteration took
the move past its time cap. The tree holds no reference cycle (refcounting alone frees it), so
``paused`` turns the collector off while any search runs; as the last one ends, everything
alive is frozen (``gc.freeze``: left out of the collector's passes, still freed by refcounting)
before the collector is turned on again, so the new tree is not walked right after the search
either. ``thaw`` (the start of each move) hands what was frozen back to the collector, so a
cycle left by other code is collected later, never leaked.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _State:
    searching = 0  # searches under way, in any thread
    resume = False  # whether the collector was on when the first of them started


_lock = threading.Lock()
_state = _State()


@contextmanager
def paused() -> Iterator[None]:
    """The collector off while the block runs (and any other search); left as it was after."""
    with _lock:
        if _state.searching == 0:
            _state.resume = gc.isenabled()
            gc.disable()
        _state.searching += 1
    try:
        yield
    finally:
        with _lock:
            _state.searching -= 1
            if _state.searching == 0 and _state.resume:
                gc.freeze()
                gc.enable()


def thaw() -> None:
    """Hand what the last search froze back to the collector (unless a search is under way,
    which freezes again as it ends)."""
    with _lock:
        if _state.searching == 0:
            gc.unfreeze()
