"""Tree reuse between moves: the subtree of the move the computer played, kept for its next turn.

After a search the node of the chosen move is kept (with everything searched below it), keyed
by the game's record with that move appended. On the computer's next turn in that game the
opponent's reply (or replies) is looked up among that node's children, and the search goes on
from there instead of from nothing: the iterations spent on the reply that was played are not
lost. The bot runs every search in one long-lived worker process (bot/games/computer.py's
``Thinker``), so the kept trees live in that process between requests; the terminal and the
bench search in their own process, so they keep them too.

Only a few trees are kept (the last ``KEPT`` searches, oldest dropped first): a tree of hard
on 39x32 holds a few hundred thousand nodes. Taking a tree removes it, so two threads never
search the same tree. A reused search depends on the searches before it in the process, so it
is not reproducible by its seed alone; ``choose(..., reuse=False)`` searches afresh.

A tree a move is done with (its search's, and a kept one pushed out) is freed at the start of the
process's next move (``retire``, ``free_retired``), not as the move returns: freeing a few
hundred thousand nodes takes 30-50 ms, which would come after the search's deadline and take the
move over its level's time cap. At the start of a move it counts within that move's time, which
the search then has less of. Between the two the process holds that tree (tens of MB on 39x32),
as it would during the next search anyway.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ai.search import Node
from engine import Action, Record

KEPT = 4

_lock = threading.Lock()
_kept: OrderedDict[tuple[str, Record], Node] = OrderedDict()
_retired: list[Node] = []


def keep(level: str, record: Record, node: Node) -> None:
    """Keep ``node``, the position of ``record`` (which ends with the move into it)."""
    with _lock:
        _kept[(level, record)] = node
        _kept.move_to_end((level, record))
        while len(_kept) > KEPT:
            _retired.append(_kept.popitem(last=False)[1])


def retire(node: Node) -> None:
    """Hand over a tree a move is done with, to be freed by the next ``free_retired``."""
    with _lock:
        _retired.append(node)


def free_retired() -> None:
    """Free the trees handed over since the last call (the start of a move)."""
    with _lock:
        done = _retired[:]
        _retired.clear()
    del done  # the last references: the nodes are freed here, outside the lock


def take(level: str, record: Record) -> Node | None:
    """The kept subtree for the position of ``record``, removed from the store; None when no
    kept position leads to it by dots alone (or the game was changed otherwise)."""
    with _lock:
        for key in reversed(_kept):
            name, kept = key
            if name != level or not _extends(record, kept):
                continue
            node: Node | None = _kept.pop(key)
            for action in record.actions[len(kept.actions) :]:
                node = _child(node, action, record)
                if node is None:
                    return None
            return node
    return None


def clear() -> None:
    """Forget every kept tree, and free the retired ones."""
    with _lock:
        _kept.clear()
        _retired.clear()


def _extends(record: Record, kept: Record) -> bool:
    """Whether ``record`` is ``kept`` with one or more actions after it (the same position
    asked again is searched afresh, so asking twice gives the same answer)."""
    return (
        record.width == kept.width
        and record.height == kept.height
        and record.rules == kept.rules
        and record.start_dots == kept.start_dots
        and len(record.actions) > len(kept.actions)
        and record.actions[: len(kept.actions)] == kept.actions
    )


def _child(node: Node | None, action: Action, record: Record) -> Node | None:
    """The child of ``node`` for a dot ``action``; None for anything else or an unseen move."""
    if node is None or action.kind != "dot" or action.point is None or not node.children:
        return None
    point = action.point
    # The engine's (and the Field's) index of the point.
    index = (record.height - point.y) * (record.width + 2) + point.x + 1
    for child in node.children:
        if child.move == index and child.mover == int(action.player):
            return child
    return None
