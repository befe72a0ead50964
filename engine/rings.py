"""Rings, their insides and bases on a padded board's flat arrays (RULES.md rules 3.3, 4.1 to 4.5).

The rules of capture, written once for the engine's ``Board`` and the computer's ``Field``: both
keep the same arrays over one ``Geometry`` and call these functions on them.

Representation: a board of ``width`` x ``height`` is padded by one cell on each side and flattened
row by row, so a neighbour is ``index + offset`` and the padding stops every walk without a
bounds check. Index of point (x, y) is ``(height - y) * stride + x + 1``: row 0 of the array is
the padding above the top row. ``live`` holds 1/2 for a live dot of that player, 0 for none (a
free point, or a dot inside a base), ``BORDER`` on the padding; ``dot`` the colour of every dot
placed, live or not (``BORDER`` on the padding); ``owner`` 1/2 for the owner of the base a point
lies in, 0 outside every base.

What it costs: ``closed_rings`` traces the rings round the regions beside a new dot (the length
of each ring) and floods the inside of a ring that is closed (its area); ``ring_around`` walks
four rays and, when all four end on the opponent's dots, floods the region round the dot,
stopping at the first own dot or the board's edge.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

EMPTY = 0
BORDER = 3

# Directions clockwise on the picture (the array's rows run downwards): N, NE, E, SE, S, SW, W, NW.
_DX = (0, 1, 1, 1, 0, -1, -1, -1)
_DY = (-1, -1, 0, 1, 1, 1, 0, -1)


def _run_starts(own: int) -> tuple[int, ...]:
    """The directions where a run of own neighbours begins (clockwise), for 8 bits of them."""
    return tuple(k for k in range(8) if own >> k & 1 and not own >> ((k - 1) & 7) & 1)


def _corners(own: int) -> int:
    """How many pairs of runs meet across a corner (N and E own, NE not), for 8 bits."""
    return sum(
        1
        for k in (1, 3, 5, 7)
        if not own >> k & 1 and own >> (k - 1) & 1 and own >> ((k + 1) & 7) & 1
    )


# A dot's own live neighbours as 8 bits (bit k: neighbour k, N first and clockwise), looked up:
# where each run of them starts, how many pairs of runs meet across a corner (linked directly,
# so a dot between them closes nothing), and the runs less those corners (a dot can close a
# ring only where that is at least 2).
RUN_STARTS = tuple(_run_starts(own) for own in range(256))
CORNERS = bytes(_corners(own) for own in range(256))
RUNS = bytes(max(0, len(RUN_STARTS[own]) - CORNERS[own]) for own in range(256))


class Geometry:
    """The layout of one board size: its padded arrays' stride, neighbour offsets and tables.

    Shared by every board of that size (``geometry``) and never changed.
    """

    __slots__ = (
        "area_steps",
        "cells",
        "dirs",
        "edge",
        "height",
        "orth",
        "padding",
        "scan",
        "stride",
        "width",
    )

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        stride = width + 2
        self.stride = stride
        cells = stride * (height + 2)
        self.cells = cells
        # padding: BORDER on the padding, EMPTY on the board (a new board's live and dot).
        self.padding = bytearray(cells)
        # edge: 1 on the board's outer line (rule 3.3: never inside anything).
        self.edge = bytearray(cells)
        for i in range(cells):
            row, col = divmod(i, stride)
            if row in (0, height + 1) or col in (0, width + 1):
                self.padding[i] = BORDER
            elif row in (1, height) or col in (1, width):
                self.edge[i] = 1
        # dirs: the offsets of the 8 neighbours, N first and clockwise; orth: N, E, S, W.
        self.dirs = tuple(dy * stride + dx for dx, dy in zip(_DX, _DY, strict=True))
        self.orth = self.dirs[0::2]
        # scan[k]: having arrived by direction k, the (direction, offset) pairs to look at, in
        # order, for the next dot of a ring: clockwise, starting just after the way back.
        self.scan = tuple(
            tuple(((k + 5 + j) & 7, self.dirs[(k + 5 + j) & 7]) for j in range(8)) for k in range(8)
        )
        # Per direction of a step: 2*dy, and stride*dy*dy + dx*dy (see ``trace_ring``).
        self.area_steps = (
            tuple(2 * dy for dy in _DY),
            tuple(stride * dy * dy + dx * dy for dx, dy in zip(_DX, _DY, strict=True)),
        )


@cache
def geometry(width: int, height: int) -> Geometry:
    """The geometry of a ``width`` x ``height`` board (one object per size)."""
    return Geometry(width, height)


def closed_rings(
    geo: Geometry, live: bytearray, i: int, player: int, new_rings: int = 8
) -> Iterator[tuple[tuple[int, ...], frozenset[int]]]:
    """Rules 4.1 and 4.2: the bases ``player``'s live dot on ``i`` completes, as (ring, area).

    For each region beside the dot, the smallest ring of ``player``'s live dots round it that
    passes through the dot; a ring whose area holds an opponent's live dot is yielded. The caller
    may make each base before asking for the next (the engine does). ``new_rings`` is at most how
    many new rings the dot closes (the engine's union-find count); 8 when unknown.

    A region that a straight line reaches the board's edge from, without crossing an own live
    dot, is open: it is not traced. Then the region the dot stood in was open, so every new ring
    encloses a region of its own; once ``new_rings`` are found, what is left is the open region.
    The shortest lines are traced first. Both spare the long walk round the outside of a big
    chain, the usual case once the board fills up. Costs the rings traced plus the areas.
    """
    dirs = geo.dirs
    opponent = 3 - player
    candidates: list[tuple[int, int]] = []
    open_seen = False
    for k in (0, 2, 4, 6):
        q = i + dirs[k]
        if live[q] == player or live[q] == BORDER:
            continue
        offset = dirs[k]
        c = q
        while live[c] != player and live[c] != BORDER:
            c += offset
        if live[c] == BORDER:
            open_seen = True
        else:
            candidates.append(((c - q) // offset, k))
    candidates.sort()
    done = 0
    found = 0
    for _, k in candidates:
        if done >> k & 1:
            continue
        walk, covered, area2 = trace_ring(geo, live, i, k, player)
        done |= covered
        if walk is None or area2 >= 0:
            continue
        loop = outer_loop(walk, geo.stride)
        if loop is None or i not in loop:
            continue
        area = area_inside(geo, live, loop, i + dirs[k])
        for c in area:
            if live[c] == opponent:
                yield loop, area
                break
        found += 1
        if open_seen and found >= new_rings:
            return


def ring_around(
    geo: Geometry, live: bytearray, i: int, player: int
) -> tuple[tuple[int, ...], frozenset[int]] | None:
    """Rule 4.4: the opponent's empty ring round ``player``'s live dot on ``i`` (a dot that made
    no base, off the outer line), as (ring, area); None when no such ring holds it.

    Each of the four rays from the dot must end on an opponent's dot; an own live dot or the
    edge on the way means the region round the dot is open or holds a live dot of ``player``:
    no empty ring. Then the region is flooded (cost: its area) and its ring traced.
    """
    orth = geo.orth
    opponent = 3 - player
    for step in orth:
        if live[i + step] == player:
            return None
    for step in orth:
        c = i + step
        while not live[c]:
            c += step
        if live[c] != opponent:
            return None
    face = {i}
    stack = [i]
    while stack:
        c = stack.pop()
        for step in orth:
            n = c + step
            value = live[n]
            if value == opponent or n in face:
                continue
            if value:  # a live dot of ours, or the padding: not an empty ring
                return None
            face.add(n)
            stack.append(n)
    top = min(face)
    walk, _, area2 = trace_ring(geo, live, top - geo.stride, 4, opponent)
    if walk is None or area2 >= 0:
        return None
    loop = outer_loop(walk, geo.stride)
    if loop is None:
        return None
    area = area_inside(geo, live, loop, top)
    for c in area:
        if live[c] == player and c != i:
            return None
    return loop, area


def claim(
    owner: int,
    area: frozenset[int],
    *,
    live: bytearray,
    dot: bytearray,
    owners: bytearray,
    score: list[int],
) -> int:
    """Make ``area`` ``owner``'s base (rules 4.1, 4.5, 5.1, 5.2): every point in it becomes
    ``owner``'s and no dot in it is live; ``score[player]`` counts the opponent's dots inside
    ``player``'s bases. Returns how many free points the base took. Costs the area."""
    taken = 0
    opponent = 3 - owner
    for c in area:
        old = owners[c]
        if old != owner:
            value = dot[c]
            if value:
                if old and value != old:
                    score[old] -= 1
                if value == opponent:
                    score[owner] += 1
            elif not old:
                taken += 1
            owners[c] = owner
        live[c] = EMPTY
    return taken


def trace_ring(
    geo: Geometry, live: bytearray, start: int, k0: int, player: int
) -> tuple[list[int] | None, int, int]:
    """Walk the boundary of ``player``'s live dots around the region beside ``start``.

    The region is the one holding ``start + dirs[k0]``; the walk keeps it on its right hand
    and hugs it as tightly as the links allow, so it is the smallest chain around it. It ends
    when it would repeat its first step, or as soon as it finds the region open (it touches
    the padding). Returns the walk (None when ``start`` has no own neighbour or the region
    is open), a bit mask of the directions around ``start`` that open onto the region, and
    twice the signed area the walk goes round (negative when it goes round the region, so
    the region is enclosed; see ``outer_loop``). Costs the length of the walk.
    """
    dirs, scan = geo.dirs, geo.scan
    twice_dy, area_step = geo.area_steps
    covered = 1 << k0
    k = k0
    for _ in range(7):
        k = (k + 1) & 7
        if live[start + dirs[k]] == player:
            break
        covered |= 1 << k
    else:
        return None, covered, 0
    first = start + dirs[k]
    # Twice the signed area, summed step by step from the array index alone (Green's
    # theorem: 2A = sum of 2*x*dy + dx*dy, with x*dy rewritten through index = y*stride + x).
    area = start * twice_dy[k] + area_step[k]
    walk = [start]
    cur = first
    for _ in range(4 * len(live)):
        if cur == start:
            for k2, offset in scan[k]:
                if live[cur + offset] == player:
                    break
                covered |= 1 << k2
            if cur + offset == first:
                return walk, covered, area
            k = k2
        else:
            for k, offset in scan[k]:  # noqa: B007, B020 - k carries the direction out
                value = live[cur + offset]
                if value == player:
                    break
                if value == BORDER:
                    # The cells passed over belong to the region: it reaches the padding,
                    # so it is open and nothing encloses it.
                    return None, covered, 0
        walk.append(cur)
        area += cur * twice_dy[k] + area_step[k]
        cur += offset
    raise AssertionError("a ring trace did not close")  # pragma: no cover


def area_inside(geo: Geometry, live: bytearray, ring: tuple[int, ...], seed: int) -> frozenset[int]:
    """Everything inside ``ring`` (rule 3.3); ``seed`` is a point known to be inside.

    Usually that is the points reachable from ``seed`` by steps up, down, left and right
    without stepping on a ring dot (cost: the area). When the ring touches itself (two of
    its dots that do not follow each other are neighbours), it can seal off pockets on
    its far side or split its inside in two, which rule 3.3 counts too: then the whole
    bounding box is examined (``inside_of``).
    """
    dots = frozenset(ring)
    dirs = geo.dirs
    for c in ring:
        touching = 0
        for offset in dirs:
            if c + offset in dots:
                touching += 1
        if touching > 2:
            return frozenset(inside_of(ring, geo.stride))
    steps = geo.orth
    area = {seed}
    stack = [seed]
    while stack:
        c = stack.pop()
        for offset in steps:
            n = c + offset
            if n not in dots and n not in area:
                if live[n] == BORDER:  # the seed was not inside after all
                    return frozenset(inside_of(ring, geo.stride))
                area.add(n)
                stack.append(n)
    return frozenset(area)


def inside_of(ring: tuple[int, ...], stride: int) -> list[int]:
    """The array indices inside ``ring`` (rule 3.3), row by row: the points that cannot step out
    of the ring's bounding box up, down, left and right without stepping on a ring dot.

    Only the ring's bounding box needs looking at: a point on the box's border that is not a
    ring dot can step out of the box, where no ring dot stands. Costs the box's area.
    """
    dots = frozenset(ring)
    rows = [c // stride for c in ring]
    cols = [c % stride for c in ring]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    outside: set[int] = set()
    for row in range(top, bottom + 1):
        base = row * stride
        if row in (top, bottom):
            outside.update(base + col for col in range(left, right + 1))
        else:
            outside.update((base + left, base + right))
    outside -= dots
    stack = list(outside)
    low, high = top * stride + left, bottom * stride + right
    while stack:
        c = stack.pop()
        for n in (c - stride, c + 1, c + stride, c - 1):
            if n in outside or n in dots or not low <= n <= high:
                continue
            if not left <= n % stride <= right:
                continue
            outside.add(n)
            stack.append(n)
    return [
        c
        for row in range(top + 1, bottom)
        for c in range(row * stride + left + 1, row * stride + right)
        if c not in outside and c not in dots
    ]


def outer_loop(walk: list[int], stride: int) -> tuple[int, ...] | None:
    """The ring of a closed walk: the largest loop in it that goes round the region on its right.

    A walk may pass a dot twice (a spur, or a loop hanging into the region); it is cut into
    simple loops at every repeated dot. Loops that turn the other way go round an island, not
    the region, and spurs enclose nothing. None when no loop goes round the region.
    """
    if len(walk) < 4:
        return None
    best: tuple[int, ...] | None = None
    best_area = 0
    stack: list[int] = []
    position: dict[int, int] = {}
    for v in [*walk, walk[0]]:
        at = position.get(v)
        if at is None:
            position[v] = len(stack)
            stack.append(v)
            continue
        loop = stack[at:]
        del stack[at + 1 :]
        for u in loop[1:]:
            del position[u]
        if len(loop) < 4:
            continue
        area = twice_area(loop, stride)
        # With rows running downwards, a loop that keeps the region on its right has a
        # negative signed area.
        if area < best_area:
            best, best_area = tuple(loop), area
    return best


def twice_area(loop: list[int], stride: int) -> int:
    """Twice the signed area of a closed loop of array indices (shoelace formula)."""
    total = 0
    x0, y0 = loop[-1] % stride, loop[-1] // stride
    for v in loop:
        y1, x1 = divmod(v, stride)
        total += x0 * y1 - x1 * y0
        x0, y0 = x1, y1
    return total
