"""Monte-Carlo tree search (UCT) over engine boards.

Each iteration walks down the tree by the UCT rule, adds one node, plays the position out with
the playout policy and backs the result up. Rewards are for the player who made the move into a
node: 1 a win, 0.5 a draw, 0 a loss, nudged by the final score margin so that among won (or lost)
lines the search still prefers the larger margin. The budget is a count of iterations, so a
search is reproducible for a seed; ``max_seconds`` is a safety cap only (a search cut short by it
is no longer reproducible).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ai.playout import Geometry, Policy, is_suicide, playout
from engine import Board, Player

# How far (in king steps) from an existing dot a move may be to enter the tree. Moves further
# away are rarely right on small boards and multiply the branching.
REACH = 2
MARGIN_WEIGHT = 0.1
MARGIN_SCALE = 10.0


@dataclass(frozen=True, slots=True)
class Prior:
    """A head start for a root move found by the tactical look (a capture, or a rescue)."""

    index: int
    visits: int
    reward: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move (array index; -1 none), its visits and mean reward, the
    iterations run, and every root move's (visits, mean reward) for inspection."""

    index: int
    visits: int
    value: float
    iterations: int
    children: dict[int, tuple[int, float]]


class Node:
    """A tree node: the move into it, who made it, and the rewards seen below it."""

    __slots__ = ("children", "move", "mover", "untried", "value", "visits")

    def __init__(self, move: int, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.visits = 0
        self.value = 0.0
        self.children: list[Node] = []
        self.untried: list[int] | None = None


def candidates(board: Board, player: int, geometry: Geometry, reach: int = REACH) -> list[int]:
    """The moves worth searching: free points within ``reach`` king steps of a live dot, less
    those the opponent's rings would take at once. Falls back to every free point, and to
    suicide moves when nothing else is left. Ordered by index (a stable order for a seed)."""
    free = board.free_indices()
    if not free:
        return []
    live = board.live_at
    stride = geometry.stride
    near: set[int] = set()
    offsets = [
        dy * stride + dx for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)
    ]
    for i in range(stride + 1, stride * (board.height + 1) - 1):
        if live(i) in (1, 2):
            near.update(i + o for o in offsets)
    if not near:
        # An empty board: open away from the edge, where dots are easy to surround.
        width, height = board.width, board.height
        near = {
            i
            for i in free
            if reach <= i % stride - 1 < width - reach and reach <= i // stride - 1 < height - reach
        }
    pool = [i for i in free if i in near] or free
    safe = [i for i in pool if not is_suicide(board, i, player, geometry)]
    if safe:
        return safe
    if pool is not free:
        safe = [i for i in free if not is_suicide(board, i, player, geometry)]
    return safe or free


def search(
    board: Board,
    player: int,
    *,
    alone: bool,
    iterations: int,
    rng: random.Random,
    policy: Policy,
    exploration: float,
    recent: tuple[int, ...] = (),
    priors: tuple[Prior, ...] = (),
    max_seconds: float | None = None,
) -> SearchResult:
    """Search the position with ``player`` to move; ``alone``: the opponent has ended.

    Pure but for the board it is given, which it does not change.
    """
    geometry = Geometry(board)
    root = Node(-1, 3 - player)
    root.untried = candidates(board, player, geometry)
    for prior in priors:
        if prior.index in root.untried:
            root.untried.remove(prior.index)
            child = Node(prior.index, player)
            child.visits = prior.visits
            child.value = prior.visits * prior.reward
            root.children.append(child)
            root.visits += prior.visits
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    done = 0
    for done in range(1, iterations + 1):
        _iterate(
            board,
            player,
            alone=alone,
            root=root,
            rng=rng,
            policy=policy,
            exploration=exploration,
            geometry=geometry,
            recent=recent,
        )
        # The clock is read every 16 iterations: a check costs about as much as a placement.
        if deadline is not None and not done & 15 and time.perf_counter() > deadline:
            break
    if not root.children:
        return SearchResult(-1, 0, 0.0, done, {})
    best = max(root.children, key=lambda n: (n.visits, n.value))
    return SearchResult(
        best.move,
        best.visits,
        best.value / best.visits,
        done,
        {c.move: (c.visits, c.value / c.visits) for c in root.children},
    )


def _iterate(
    root_board: Board,
    root_player: int,
    *,
    alone: bool,
    root: Node,
    rng: random.Random,
    policy: Policy,
    exploration: float,
    geometry: Geometry,
    recent: tuple[int, ...],
) -> None:
    board = root_board.copy()
    player = root_player
    node = root
    path = [root]
    moves = list(recent[-2:])
    while True:
        if node.untried is None:
            node.untried = candidates(board, player, geometry)
        if node.untried:
            k = rng.randrange(len(node.untried))
            move = node.untried[k]
            node.untried[k] = node.untried[-1]
            node.untried.pop()
            child = Node(move, player)
            node.children.append(child)
            board.place_index(move, player)
            moves.append(move)
            path.append(child)
            if not alone:
                player = 3 - player
            break
        if not node.children:
            break
        node = _select(node, exploration)
        board.place_index(node.move, node.mover)
        moves.append(node.move)
        path.append(node)
        if not alone:
            player = 3 - player
    playout(
        board,
        player,
        alone=alone,
        rng=rng,
        policy=policy,
        geometry=geometry,
        recent=tuple(moves[-2:]),
    )
    me = Player(root_player)
    margin = board.score(me) - board.score(me.opponent)
    reward = _reward(margin)
    for n in path:
        n.visits += 1
        n.value += reward if n.mover == root_player else 1.0 - reward


def _reward(margin: int) -> float:
    """A reward in [0, 1] for the final score margin of the root player."""
    base = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    return (1.0 - MARGIN_WEIGHT) * base + MARGIN_WEIGHT * (
        0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE)
    )


def _select(node: Node, exploration: float) -> Node:
    """The child with the highest UCT bound."""
    log_n = math.log(node.visits)
    best = node.children[0]
    best_score = -1.0
    for child in node.children:
        score = child.value / child.visits + exploration * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best
