"""Monte-Carlo tree search with RAVE (all-moves-as-first) statistics and pattern priors.

Each iteration walks down the tree, expands the node it reaches (all its candidate moves at
once, each with a prior), plays the position out with the playout policy on a Field copy and
backs the result up: to the nodes passed (their visits and rewards) and, for every move either
player played later in the same iteration, to the sibling that plays it at once (the AMAF
statistics: "that point was good for that player", shared across the many orders of moves).
A move is chosen by a blend of the two: the AMAF mean counts most while a move has few visits
of its own (weight sqrt(K / (3n + K))), its own mean once it has many.

Priors, given as virtual visits at a virtual mean: a capture for the mover, a block of the
opponent's capture, a point next to the last dot. Rewards are for the player who made the move
into a node: 1 a win, 0.5 a draw, 0 a loss, nudged by the final score margin so that among won
(or lost) lines the search still prefers the larger margin.

The budget is a count of iterations (reproducible for a seed) or a time (``seconds``, for the
bench's equal-time matches); ``max_seconds`` is a safety cap (a search cut short by it is no
longer reproducible).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ai import collector, kernel
from ai.field import RUNS, Field
from ai.playout import Policy

# How far (in king steps) from an existing dot a move may be to enter the tree. Moves further
# away are rarely right and multiply the branching.
REACH = 2
MARGIN_WEIGHT = 0.1
MARGIN_SCALE = 10.0
# Priors: (virtual visits, virtual mean) for a capture, a block, a point next to the last dot,
# any other candidate.
PRIOR_CAPTURE = (12, 0.9)
PRIOR_BLOCK = (10, 0.8)
PRIOR_NEAR = (4, 0.6)
PRIOR_OTHER = (2, 0.45)


@dataclass(frozen=True, slots=True)
class Prior:
    """A head start for a root move found by the tactical look (a capture, or a rescue)."""

    index: int
    visits: int
    reward: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move (array index; -1 none), its visits and mean reward, the
    iterations run, every root move's (visits, mean reward) for inspection, and the tree's
    root (ai/trees.py keeps the chosen move's subtree for the next turn)."""

    index: int
    visits: int
    value: float
    iterations: int
    children: dict[int, tuple[int, float]]
    root: Node | None = None


class Node:
    """A tree node: the move into it, who made it, its own and its AMAF statistics."""

    __slots__ = ("amaf_value", "amaf_visits", "children", "move", "mover", "value", "visits")

    def __init__(self, move: int, mover: int, visits: int = 0, value: float = 0.0) -> None:
        self.move = move
        self.mover = mover
        self.visits = visits
        self.value = value
        self.amaf_visits = 0
        self.amaf_value = 0.0
        self.children: list[Node] | None = None


def candidates(
    field: Field, player: int, reach: int = REACH, *, compiled: bool = False
) -> list[int]:
    """The moves worth searching: free points within ``reach`` king steps of a live dot, less
    those the opponent's rings would take at once. Falls back to every free point, and to
    suicide moves when nothing else is left. Ordered by index (a stable order for a seed).
    ``compiled``: found by the compiled kernel (the same moves; ai/kernel.py)."""
    if compiled:
        return kernel.candidates(field, player, reach)
    free = field.free_indices()
    if not free:
        return []
    live = field.live
    stride = field.stride
    near = bytearray(len(live))
    offsets = [
        dy * stride + dx for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)
    ]
    found = False
    for i in range(stride + 1, len(live) - stride - 1):
        if live[i] == 1 or live[i] == 2:
            found = True
            for o in offsets:
                j = i + o
                if 0 <= j < len(near):
                    near[j] = 1
    if found:
        pool = [i for i in free if near[i]] or free
    else:
        # An empty board: open away from the edge, where dots are easy to surround.
        width, height = field.width, field.height
        pool = [
            i
            for i in free
            if reach <= i % stride - 1 < width - reach and reach <= i // stride - 1 < height - reach
        ] or free
    safe = [i for i in pool if not field.is_suicide(i, player)]
    if safe:
        return safe
    if pool is not free:
        safe = [i for i in free if not field.is_suicide(i, player)]
    return safe or free


def expand(
    field: Field, player: int, last: int, patterns: bool = True, *, compiled: bool = False
) -> list[Node]:
    """The children of a position with ``player`` to move: every candidate, with its prior
    (``patterns`` False: no priors, every child starts unvisited; ``compiled``: candidates
    found by the compiled kernel)."""
    if not patterns:
        return [Node(i, player) for i in candidates(field, player, compiled=compiled)]
    dirs = field.dirs
    opponent = 3 - player
    mine, theirs = field.around[player], field.around[opponent]
    near = {last + d for d in dirs} if last else set()
    children = []
    for i in candidates(field, player, compiled=compiled):
        if RUNS[mine[i]] >= 2 and field.captures_at(i, player):
            visits, mean = PRIOR_CAPTURE
        elif RUNS[theirs[i]] >= 2 and field.captures_at(i, opponent):
            visits, mean = PRIOR_BLOCK
        elif i in near:
            visits, mean = PRIOR_NEAR
        else:
            visits, mean = PRIOR_OTHER
        children.append(Node(i, player, visits, visits * mean))
    return children


def search(
    field: Field,
    player: int,
    *,
    alone: bool,
    iterations: int | None,
    rng: random.Random,
    policy: Policy,
    exploration: float,
    rave: float = 300.0,
    patterns: bool = True,
    recent: tuple[int, ...] = (),
    priors: tuple[Prior, ...] = (),
    seconds: float | None = None,
    max_seconds: float | None = None,
    tree: Node | None = None,
) -> SearchResult:
    """Search the position with ``player`` to move; ``alone``: the opponent has ended.

    ``rave``: the AMAF weight's constant K (0: plain UCT); ``patterns``: priors on new nodes.
    The budget: ``iterations`` (None: no count) and ``seconds`` (a time budget: iterate
    until it is spent); ``max_seconds`` is a cap either way. ``tree``: a node searched before
    for this position (ai/trees.py), searched on; it is changed. Pure but for ``tree``; the
    field is not changed.
    """
    # The collector kept off the tree while it is built (ai/collector.py).
    with collector.paused():
        started = time.perf_counter()
        last = recent[-1] if recent else 0
        # The compiled kernel's playouts and candidates when it is ready (ai/kernel.py), for the
        # whole search.
        compiled = kernel.ready()
        if tree is not None and tree.mover == 3 - player and tree.children:
            root = tree
        else:
            root = Node(-1, 3 - player)
            root.children = expand(field, player, last, patterns, compiled=compiled)
            rng.shuffle(root.children)
        assert root.children is not None
        by_move = {c.move: c for c in root.children}
        for prior in priors:
            child = by_move.get(prior.index)
            if child is not None:
                child.visits += prior.visits
                child.value += prior.visits * prior.reward
        if root is not tree:
            for child in root.children:
                root.visits += child.visits
        else:
            root.visits += sum(prior.visits for prior in priors if prior.index in by_move)
        limits = [s for s in (seconds, max_seconds) if s is not None]
        deadline = started + min(limits) if limits else None
        budget = iterations if iterations is not None else 1 << 60
        done = 0
        if len(root.children) > 1:
            while done < budget:
                _iterate(
                    field,
                    player,
                    deadline=deadline,
                    alone=alone,
                    root=root,
                    rng=rng,
                    policy=policy,
                    exploration=exploration,
                    rave=rave,
                    patterns=patterns,
                    recent=recent,
                    compiled=compiled,
                )
                done += 1
                # The clock is read every iteration: a read costs far less than a playout, and
                # on a big board a few playouts are already a sizeable part of a second.
                if deadline is not None and time.perf_counter() > deadline:
                    break
        if not root.children:
            return SearchResult(-1, 0, 0.0, done, {})
        best = max(root.children, key=lambda n: (n.visits, n.value))
        return SearchResult(
            best.move,
            best.visits,
            best.value / best.visits if best.visits else 0.5,
            done,
            {c.move: (c.visits, c.value / c.visits if c.visits else 0.5) for c in root.children},
            root,
        )


def _iterate(
    root_field: Field,
    root_player: int,
    *,
    alone: bool,
    root: Node,
    rng: random.Random,
    policy: Policy,
    exploration: float,
    rave: float,
    patterns: bool,
    recent: tuple[int, ...],
    deadline: float | None,
    compiled: bool,
) -> None:
    field = root_field.copy()
    player = root_player
    node = root
    path = [root]
    moves = list(recent[-2:])
    # Descend to a leaf, expand it and step once into the new children.
    expanded = False
    while not expanded:
        children = node.children
        if children is None:
            node.children = children = expand(
                field, player, moves[-1] if moves else 0, patterns, compiled=compiled
            )
            rng.shuffle(children)
            expanded = True
        if not children:
            break
        node = _select(node, children, exploration, rave)
        field.place(node.move, node.mover)
        moves.append(node.move)
        path.append(node)
        if not alone:
            player = 3 - player
    # AMAF: first[c] is the player who first played point c below the node being updated.
    first = bytearray(len(field.live))
    finished = kernel.playout(
        field,
        player,
        alone=alone,
        rng=rng,
        policy=policy,
        recent=tuple(moves[-2:]),
        first=first,
        deadline=deadline,
        compiled=compiled,
    )
    if finished < 0:
        return  # cut off by the deadline: nothing learnt
    score = field.score
    reward = _reward(score[root_player] - score[3 - root_player])
    for depth in range(len(path) - 1, -1, -1):
        n = path[depth]
        n.visits += 1
        n.value += reward if n.mover == root_player else 1.0 - reward
        if n.children:
            for child in n.children:
                if first[child.move] == child.mover:
                    child.amaf_visits += 1
                    child.amaf_value += reward if child.mover == root_player else 1.0 - reward
        if depth:
            first[n.move] = n.mover


def _reward(margin: int) -> float:
    """A reward in [0, 1] for the final score margin of the root player."""
    base = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    return (1.0 - MARGIN_WEIGHT) * base + MARGIN_WEIGHT * (
        0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE)
    )


def _select(node: Node, children: list[Node], exploration: float, rave: float) -> Node:
    """The child with the best blend of its own mean and its AMAF mean, plus exploration.

    Ties go to the first: ``expand``'s callers shuffle the children once.
    """
    log_n = math.log(node.visits + 1)
    best = children[0]
    best_score = -1.0
    for child in children:
        n = child.visits
        mean = child.value / n if n else 0.5
        if child.amaf_visits and rave:
            beta = math.sqrt(rave / (3 * n + rave))
            mean = (1.0 - beta) * mean + beta * child.amaf_value / child.amaf_visits
        score = mean + exploration * math.sqrt(log_n / (n + 1))
        if score > best_score:
            best, best_score = child, score
    return best
