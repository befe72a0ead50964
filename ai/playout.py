"""Playouts: a position played on to its end by a cheap policy, for the search to average.

The policy prefers local moves (a free neighbour of one of the last two dots) and does not throw
dots into the opponent's rings (rule 4.4). What it costs, on 10x10 (bench/ai.py prints the
figures): a playout from the empty board is about 100 placements; the ring check is four short
rays per candidate and a board copy only when all four rays end on the opponent's dots.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import Board


@dataclass(frozen=True, slots=True)
class Policy:
    """How a playout picks its moves: ``local`` is the chance of answering near the last dots;
    ``avoid_rings`` skips dots the opponent's rings would take at once; ``depth`` caps the
    playout's length (None: play until no sensible move is left)."""

    local: float = 0.5
    avoid_rings: bool = True
    depth: int | None = None


class Geometry:
    """Array offsets of one board size, computed once (neighbour steps and the four rays)."""

    __slots__ = ("dirs", "rays", "stride")

    def __init__(self, board: Board) -> None:
        centre = board.index(board.point_at(board.stride + 1))
        self.dirs = tuple(n - centre for n in board.neighbours(centre))
        # N, E, S, W: the steps of rule 3.3.
        self.rays = (self.dirs[0], self.dirs[2], self.dirs[4], self.dirs[6])
        self.stride = board.stride


def is_suicide(board: Board, i: int, player: int, geometry: Geometry) -> bool:
    """Whether a dot of ``player`` on free index ``i`` would be taken at once (rule 4.4).

    Cheap in the usual case: the engine can only take the dot when no orthogonal neighbour is a
    live dot of ``player`` and each of the four rays ends on a live dot of the opponent; only
    then is the dot tried on a copy of the board (a few bytearray copies and one placement).
    """
    live = board.live_at
    opponent = 3 - player
    for step in geometry.rays:
        if live(i + step) == player:
            return False
    for step in geometry.rays:
        c = i + step
        value = live(c)
        while not value:
            c += step
            value = live(c)
        if value != opponent:
            return False
    trial = board.copy()
    trial.place_index(i, player)
    return trial.live_at(i) == 0


def playout(
    board: Board,
    player: int,
    *,
    alone: bool,
    rng: random.Random,
    policy: Policy,
    geometry: Geometry,
    recent: tuple[int, ...] = (),
) -> int:
    """Play ``board`` on from ``player`` to move until no sensible move is left; mutates it.

    ``alone``: the other player has ended (rule 6.2), so ``player`` moves every turn.
    ``recent``: the indices of the last dots, for the local policy. Returns the moves played.
    """
    free = board.free_indices()
    is_free = board.is_free_index
    random_ = rng.random  # int(random() * n) costs a third of randrange(n)
    dirs = geometry.dirs
    avoid = policy.avoid_rings
    local = policy.local
    limit = policy.depth if policy.depth is not None else len(free) + 1
    last = recent[-1] if recent else 0
    before = recent[-2] if len(recent) > 1 else 0
    moves = 0
    stuck = 0  # players in a row who found no sensible move
    while moves < limit and free:
        chosen = -1
        if local and (last or before) and random_() < local:
            near = [c + d for c in (last, before) if c for d in dirs]
            # Several tries from the list instead of filtering it all: most picks succeed.
            for _ in range(4):
                c = near[int(random_() * len(near))]
                if is_free(c) and not (avoid and is_suicide(board, c, player, geometry)):
                    chosen = c
                    break
        if chosen < 0:
            chosen = _pick_global(board, free, player, rng=rng, avoid=avoid, geometry=geometry)
        if chosen < 0:
            stuck += 1
            if alone or stuck == 2:
                break
            player = 3 - player
            continue
        stuck = 0
        board.place_index(chosen, player)
        moves += 1
        before, last = last, chosen
        if not alone:
            player = 3 - player
    return moves


def _pick_global(
    board: Board,
    free: list[int],
    player: int,
    *,
    rng: random.Random,
    avoid: bool,
    geometry: Geometry,
) -> int:
    """A uniform pick among the free points that are not suicide for ``player``; -1 if none.

    ``free`` holds the candidates: points found taken are dropped from it (swap with the last).
    """
    is_free = board.is_free_index
    random_ = rng.random
    skipped: list[int] = []
    found = -1
    while free:
        k = int(random_() * len(free))
        c = free[k]
        free[k] = free[-1]
        free.pop()
        if not is_free(c):
            continue
        if avoid and is_suicide(board, c, player, geometry):
            skipped.append(c)  # the other player may still use it
            continue
        found = c
        break
    free.extend(skipped)
    return found
