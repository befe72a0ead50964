"""Playouts: a position played on to its end by a cheap policy, for the search to average.

A playout runs on the computer's own Field (ai/field.py), not on the engine's Board. Its policy,
in order, each with a chance set by ``Policy``:
- urgent answers next to the last dot: take a capture there, else block the opponent's capture
  there (play the point that would close the opponent's ring: the threatened dots are saved);
- a local move: a free neighbour of one of the last two dots;
- else a uniform pick among the free points;
and it never throws a dot into the opponent's ring (rule 4.4) while another move is left.
What it costs is printed by bench/ai.py (playouts per second on 10x10, 20x20 and 39x32).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ai.field import RUNS, Field


@dataclass(frozen=True, slots=True)
class Policy:
    """How a playout picks its moves: ``urgent`` is the chance of looking for a capture to
    take or block next to the last dot; ``local`` the chance of answering near the last dots;
    ``avoid_rings`` skips dots the opponent's rings would take at once; ``depth`` caps the
    playout's length (None: play until no sensible move is left); ``reach`` keeps the
    playout local to the fight: only points within that many king steps of a live dot at
    its start are played (0: the whole board), so on a big board the result is the fight's,
    not the noise of a thousand random dots far away."""

    local: float = 0.5
    avoid_rings: bool = True
    depth: int | None = None
    urgent: float = 0.0
    reach: int = 0


def playout(
    field: Field,
    player: int,
    *,
    alone: bool,
    rng: random.Random,
    policy: Policy,
    recent: tuple[int, ...] = (),
    played: list[int] | None = None,
    deadline: float | None = None,
) -> int:
    """Play ``field`` on from ``player`` to move until no sensible move is left; mutates it.

    ``alone``: the other player has ended (rule 6.2), so ``player`` moves every turn.
    ``recent``: the indices of the last dots, for the local policy. ``played``, when given,
    gets ``index << 2 | player`` of every dot placed (for the search's AMAF statistics).
    ``deadline`` (a ``time.perf_counter()`` value), when given, is looked at every 64 moves:
    past it the playout stops unfinished and returns -1 (its result is worth nothing).
    Returns the moves played.
    """
    free = field.free_indices()
    taken = field.taken
    near = fight(field, policy.reach)
    if near is not None:
        free = [i for i in free if near[i]]
    random_ = rng.random  # int(random() * n) costs a third of randrange(n)
    dirs = field.dirs
    place = field.place
    is_suicide = field.is_suicide
    avoid = policy.avoid_rings
    local = policy.local
    urgent = policy.urgent
    limit = policy.depth if policy.depth is not None else len(free) + 1
    last = recent[-1] if recent else 0
    before = recent[-2] if len(recent) > 1 else 0
    record = played.append if played is not None else None
    moves = 0
    stuck = 0  # players in a row who found no sensible move
    while moves < limit and free:
        if deadline is not None and not moves & 63 and moves and time.perf_counter() > deadline:
            return -1
        chosen = -1
        if urgent and last and random_() < urgent:
            chosen = urgent_answer(field, last, player)
            if chosen >= 0 and near is not None and not near[chosen]:
                chosen = -1
        if chosen < 0 and local and (last or before) and random_() < local:
            # A few tries round the last dots instead of listing them all: most succeed.
            for _ in range(4):
                centre = last if not before or (last and random_() < 0.5) else before
                c = centre + dirs[int(random_() * 8)]
                if (
                    not taken[c]
                    and (near is None or near[c])
                    and not (avoid and is_suicide(c, player))
                ):
                    chosen = c
                    break
        if chosen < 0:
            chosen = _pick_global(field, free, player, rng=rng, avoid=avoid)
        if chosen < 0:
            stuck += 1
            if alone or stuck == 2:
                break
            player = 3 - player
            continue
        stuck = 0
        place(chosen, player)
        if record is not None:
            record(chosen << 2 | player)
        moves += 1
        before, last = last, chosen
        if not alone:
            player = 3 - player
    return moves


def fight(field: Field, reach: int) -> bytearray | None:
    """1 on the points within ``reach`` king steps of a live dot, for a playout local to the
    fight (``Policy.reach``); None (the whole board) when ``reach`` is 0 or no dot stands."""
    if reach <= 0:
        return None
    live, stride = field.live, field.stride
    near = bytearray(len(live))
    rows = len(live) // stride
    found = False
    for c, value in enumerate(live):
        if value in (1, 2):
            found = True
            row, col = divmod(c, stride)
            for r in range(max(0, row - reach), min(rows, row + reach + 1)):
                start = r * stride
                low, high = max(0, col - reach), min(stride, col + reach + 1)
                near[start + low : start + high] = b"\x01" * (high - low)
    return near if found else None


def urgent_answer(field: Field, last: int, player: int) -> int:
    """A free neighbour of ``last`` where ``player`` captures now, else one where the opponent
    would (playing there saves the dots); -1 when there is neither. Moves the opponent's rings
    would take at once are skipped. Costs 8 pattern lookups (Field.around); a flood only where
    a ring could close."""
    taken, dirs = field.taken, field.dirs
    opponent = 3 - player
    mine, theirs = field.around[player], field.around[opponent]
    blocks = []
    for d in dirs:
        c = last + d
        if taken[c]:
            continue
        if RUNS[mine[c]] >= 2 and field.captures_at(c, player):
            return c
        if RUNS[theirs[c]] >= 2:
            blocks.append(c)
    for c in blocks:
        if field.captures_at(c, opponent) and not field.is_suicide(c, player):
            return c
    return -1


def _pick_global(
    field: Field,
    free: list[int],
    player: int,
    *,
    rng: random.Random,
    avoid: bool,
) -> int:
    """A uniform pick among the free points that are not suicide for ``player``; -1 if none.

    ``free`` holds the candidates: points found taken are dropped from it (swap with the last).
    """
    taken = field.taken
    is_suicide = field.is_suicide
    random_ = rng.random
    skipped: list[int] = []
    found = -1
    while free:
        k = int(random_() * len(free))
        c = free[k]
        free[k] = free[-1]
        free.pop()
        if taken[c]:
            continue
        if avoid and is_suicide(c, player):
            skipped.append(c)  # the other player may still use it
            continue
        found = c
        break
    free.extend(skipped)
    return found
