"""The compiled playout kernel: ai/field.py's placement and ai/playout.py's policy in numba.

Imported only by ai/kernel.py (the seam that chooses it or the pure-Python board), and only
when numba is installed. Every function works on a Field's own arrays, passed as zero-copy
numpy views (ai/kernel.py ``views``), so what the kernel plays lands in the Field:

- ``b``: the tuple (live, dot, owner, taken, around of Pink, around of Blue, edge) of uint8
  arrays (``b[AROUND + player]`` is ``player``'s neighbour patterns);
- ``meta``: int64 [free points, Pink's score, Blue's score];
- ``chain``: int64, the union-find over the dots placed (as Field.chain);
- ``w``: scratch arrays of one board size (``work``): stamps, a walk, a stack, a loop, an area.

The rules are engine/rings.py's, line for line (ring tracing, the outer loop of a walk, the
inside of a ring, rule 4.4, claiming a base), with sets replaced by stamped arrays; the tests
(tests/ai/test_kernel.py) play random games on the kernel and the engine side by side.
Compiled code is cached on disk (``cache=True``; ai/kernel.py sets where).
"""

# numba's decorators are untyped: the module is typed by its callers in ai/kernel.py. Its
# functions take the board's arrays positionally and compare with plain == (what numba
# compiles best), hence the lint rules left out.
# mypy: disable-error-code="misc,no-untyped-def,no-untyped-call,no-any-return"
# ruff: noqa: PLR0917, PLR1714, SIM109, SIM114

from __future__ import annotations

import numpy as np
from numba import njit

from engine.rings import CORNERS, RUN_STARTS, RUNS

LIVE, DOT, OWNER, TAKEN, AROUND, EDGE = 0, 1, 2, 3, 3, 6
BORDER = 3

_RUNS = np.frombuffer(bytes(RUNS), dtype=np.uint8).copy()
_CORNERS = np.frombuffer(bytes(CORNERS), dtype=np.uint8).copy()
_STARTS = np.full((256, 4), -1, dtype=np.int64)
_NSTARTS = np.zeros(256, dtype=np.int64)
for _own in range(256):
    _NSTARTS[_own] = len(RUN_STARTS[_own])
    for _j, _k in enumerate(RUN_STARTS[_own]):
        _STARTS[_own, _j] = _k
_DX = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
_DY = np.array([-1, -1, 0, 1, 1, 1, 0, -1], dtype=np.int64)


@njit(cache=True)
def work(cells):
    """Scratch arrays for a board of ``cells`` padded cells: (seen, counter, walk, stack,
    position, loop, area, small): ``small`` holds the few numbers a function keeps (slices
    0-7 closed_rings, 8-11 _new_rings, 12-15 _may_close, 16-23 urgent_answer)."""
    return (
        np.zeros(cells, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(4 * cells + 8, dtype=np.int64),
        np.zeros(cells + 8, dtype=np.int64),
        np.full(cells, -1, dtype=np.int64),
        np.zeros(cells + 8, dtype=np.int64),
        np.zeros(cells + 8, dtype=np.int64),
        np.zeros(32, dtype=np.int64),
    )


@njit(cache=True)
def _stamp(w):
    w[1][0] += 1
    return w[1][0]


@njit(cache=True)
def _find(chain, n):
    while chain[n] != n:
        chain[n] = chain[chain[n]]
        n = chain[n]
    return n


@njit(cache=True)
def trace_ring(live, dirs, stride, start, k0, player, walk):
    """engine.rings.trace_ring: (length of the walk in ``walk``, or -1; covered; twice the
    signed area)."""
    covered = 1 << k0
    k = k0
    found = False
    for _ in range(7):
        k = (k + 1) & 7
        if live[start + dirs[k]] == player:
            found = True
            break
        covered |= 1 << k
    if not found:
        return -1, covered, 0
    first = start + dirs[k]
    area = start * 2 * _DY[k] + stride * _DY[k] * _DY[k] + _DX[k] * _DY[k]
    n = 0
    walk[n] = start
    n += 1
    cur = first
    offset = 0
    for _ in range(4 * live.shape[0]):
        base = k
        if cur == start:
            k2 = k
            for j in range(8):
                k2 = (base + 5 + j) & 7
                offset = dirs[k2]
                if live[cur + offset] == player:
                    break
                covered |= 1 << k2
            if cur + offset == first:
                return n, covered, area
            k = k2
        else:
            for j in range(8):
                k = (base + 5 + j) & 7
                offset = dirs[k]
                value = live[cur + offset]
                if value == player:
                    break
                if value == BORDER:
                    return -1, covered, 0
        walk[n] = cur
        n += 1
        area += cur * 2 * _DY[k] + stride * _DY[k] * _DY[k] + _DX[k] * _DY[k]
        cur += offset
    return -1, covered, 0  # pragma: no cover - a trace always closes


@njit(cache=True)
def _twice_area(stack, lo, hi, stride):
    total = 0
    x0 = stack[hi - 1] % stride
    y0 = stack[hi - 1] // stride
    for t in range(lo, hi):
        v = stack[t]
        y1 = v // stride
        x1 = v % stride
        total += x0 * y1 - x1 * y0
        x0, y0 = x1, y1
    return total


@njit(cache=True)
def outer_loop(walk, n, stride, w):
    """engine.rings.outer_loop: the ring's length in ``w[5]`` (0: none)."""
    if n < 4:
        return 0
    stack, position, loop = w[3], w[4], w[5]
    best_len = 0
    best_area = 0
    sp = 0
    for t in range(n + 1):
        v = walk[t] if t < n else walk[0]
        at = position[v]
        if at < 0:
            position[v] = sp
            stack[sp] = v
            sp += 1
            continue
        for u in range(at + 1, sp):
            position[stack[u]] = -1
        length = sp - at
        if length >= 4:
            area = _twice_area(stack, at, sp, stride)
            if area < best_area:
                best_area = area
                best_len = length
                for u in range(length):
                    loop[u] = stack[at + u]
        sp = at + 1
    for u in range(sp):
        position[stack[u]] = -1
    return best_len


@njit(cache=True)
def inside_of(ring, length, stride, w):
    """engine.rings.inside_of: the inside of ``ring[:length]`` into ``w[6]``; its size."""
    seen, stack, area = w[0], w[3], w[6]
    dots = _stamp(w)
    outside = _stamp(w)
    top = bottom = ring[0] // stride
    left = right = ring[0] % stride
    for t in range(length):
        c = ring[t]
        seen[c] = dots
        row, col = c // stride, c % stride
        top, bottom = min(top, row), max(bottom, row)
        left, right = min(left, col), max(right, col)
    sp = 0
    for row in range(top, bottom + 1):
        base = row * stride
        if row == top or row == bottom:
            for col in range(left, right + 1):
                c = base + col
                if seen[c] != dots and seen[c] != outside:
                    seen[c] = outside
                    stack[sp] = c
                    sp += 1
        else:
            for c in (base + left, base + right):
                if seen[c] != dots and seen[c] != outside:
                    seen[c] = outside
                    stack[sp] = c
                    sp += 1
    low, high = top * stride + left, bottom * stride + right
    while sp:
        sp -= 1
        c = stack[sp]
        for n in (c - stride, c + 1, c + stride, c - 1):
            if seen[n] == outside or seen[n] == dots or not low <= n <= high:
                continue
            if not left <= n % stride <= right:
                continue
            seen[n] = outside
            stack[sp] = n
            sp += 1
    size = 0
    for row in range(top + 1, bottom):
        for c in range(row * stride + left + 1, row * stride + right):
            if seen[c] != outside and seen[c] != dots:
                area[size] = c
                size += 1
    return size


@njit(cache=True)
def area_inside(live, dirs, stride, ring, length, seed, w):
    """engine.rings.area_inside: everything inside ``ring[:length]`` into ``w[6]``; its size."""
    seen, stack, area = w[0], w[3], w[6]
    dots = _stamp(w)
    for t in range(length):
        seen[ring[t]] = dots
    for t in range(length):
        c = ring[t]
        touching = 0
        for k in range(8):
            if seen[c + dirs[k]] == dots:
                touching += 1
        if touching > 2:
            return inside_of(ring, length, stride, w)
    inside = _stamp(w)
    seen[seed] = inside
    area[0] = seed
    size = 1
    stack[0] = seed
    sp = 1
    while sp:
        sp -= 1
        c = stack[sp]
        for k in range(0, 8, 2):
            n = c + dirs[k]
            if seen[n] != dots and seen[n] != inside:
                if live[n] == BORDER:
                    return inside_of(ring, length, stride, w)
                seen[n] = inside
                area[size] = n
                size += 1
                stack[sp] = n
                sp += 1
    return size


@njit(cache=True)
def _make_base(b, meta, dirs, owner, area, size):
    """Field._make_base and engine.rings.claim over ``area[:size]``."""
    live, dot, owners, taken = b[LIVE], b[DOT], b[OWNER], b[TAKEN]
    for t in range(size):
        c = area[t]
        value = live[c]
        if value == 1 or value == 2:
            around = b[AROUND + value]
            for k in range(8):
                around[c + dirs[k]] &= ~(1 << ((k + 4) & 7)) & 255
        taken[c] = 1
    gained = 0
    opponent = 3 - owner
    for t in range(size):
        c = area[t]
        old = owners[c]
        if old != owner:
            value = dot[c]
            if value:
                if old and value != old:
                    meta[old] -= 1
                if value == opponent:
                    meta[owner] += 1
            elif not old:
                gained += 1
            owners[c] = owner
        live[c] = 0
    meta[0] -= gained


@njit(cache=True)
def closed_rings(b, meta, dirs, stride, i, player, new_rings, make, w):
    """engine.rings.closed_rings, each base made (``make``) before the next ring is looked
    for, as Field.place does. Returns the bases made; without ``make``, 1 at the first ring
    that would make a base (0: none)."""
    live = b[LIVE]
    opponent = 3 - player
    dist = w[7][0:4]
    ks = w[7][4:8]
    nc = 0
    open_seen = False
    for k in range(0, 8, 2):
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
            d = (c - q) // offset
            t = nc
            while t > 0 and (dist[t - 1] > d or (dist[t - 1] == d and ks[t - 1] > k)):
                dist[t] = dist[t - 1]
                ks[t] = ks[t - 1]
                t -= 1
            dist[t] = d
            ks[t] = k
            nc += 1
    done = 0
    found = 0
    made = 0
    walk, loop, area = w[2], w[5], w[6]
    for t in range(nc):
        k = ks[t]
        if done >> k & 1:
            continue
        n, covered, area2 = trace_ring(live, dirs, stride, i, k, player, walk)
        done |= covered
        if n < 0 or area2 >= 0:
            continue
        length = outer_loop(walk, n, stride, w)
        if length == 0:
            continue
        on_loop = False
        for u in range(length):
            if loop[u] == i:
                on_loop = True
                break
        if not on_loop:
            continue
        size = area_inside(live, dirs, stride, loop, length, i + dirs[k], w)
        for u in range(size):
            if live[area[u]] == opponent:
                if not make:
                    return 1
                _make_base(b, meta, dirs, player, area, size)
                made += 1
                break
        found += 1
        if open_seen and found >= new_rings:
            return made
    return made


@njit(cache=True)
def ring_around(b, dirs, stride, i, player, w):
    """engine.rings.ring_around: the size of the area (in ``w[6]``) of the opponent's empty
    ring round ``player``'s live dot on ``i``; 0 when none holds it."""
    live = b[LIVE]
    opponent = 3 - player
    for k in range(0, 8, 2):
        if live[i + dirs[k]] == player:
            return 0
    for k in range(0, 8, 2):
        c = i + dirs[k]
        while live[c] == 0:
            c += dirs[k]
        if live[c] != opponent:
            return 0
    seen, stack = w[0], w[3]
    face = _stamp(w)
    seen[i] = face
    top = i
    stack[0] = i
    sp = 1
    while sp:
        sp -= 1
        c = stack[sp]
        for k in range(0, 8, 2):
            n = c + dirs[k]
            value = live[n]
            if value == opponent or seen[n] == face:
                continue
            if value:
                return 0
            seen[n] = face
            top = min(top, n)
            stack[sp] = n
            sp += 1
    n, _, area2 = trace_ring(live, dirs, stride, top - stride, 4, opponent, w[2])
    if n < 0 or area2 >= 0:
        return 0
    length = outer_loop(w[2], n, stride, w)
    if length == 0:
        return 0
    size = area_inside(live, dirs, stride, w[5], length, top, w)
    area = w[6]
    for u in range(size):
        c = area[u]
        if live[c] == player and c != i:
            return 0
    return size


@njit(cache=True)
def _new_rings(b, chain, dirs, i, player, w):
    chain[i] = i
    pattern = b[AROUND + player][i]
    count = _NSTARTS[pattern]
    if count == 0:
        return 0
    roots = w[7][8:12]
    for j in range(count):
        roots[j] = _find(chain, i + dirs[_STARTS[pattern, j]])
    first = roots[0]
    chain[i] = first
    distinct = 0
    for j in range(count):
        chain[roots[j]] = first
        seen_before = False
        for t in range(j):
            if roots[t] == roots[j]:
                seen_before = True
                break
        if not seen_before:
            distinct += 1
    return count - _CORNERS[pattern] - distinct


@njit(cache=True)
def place(b, meta, chain, dirs, stride, i, player, w):
    """Field.place: a dot of ``player`` on free ``i``, rules 4.1 to 4.6; the dots it took."""
    live = b[LIVE]
    live[i] = player
    b[DOT][i] = player
    b[TAKEN][i] = 1
    meta[0] -= 1
    before = meta[player]
    around = b[AROUND + player]
    for k in range(8):
        around[i + dirs[k]] |= 1 << ((k + 4) & 7)
    pattern = around[i]
    rings = 0
    if _RUNS[pattern] < 2:
        if pattern:
            k = 0
            while not pattern >> k & 1:
                k += 1
            chain[i] = i + dirs[k]
        else:
            chain[i] = i
    else:
        rings = _new_rings(b, chain, dirs, i, player, w)
    made = 0
    if rings > 0:
        made = closed_rings(b, meta, dirs, stride, i, player, rings, True, w)
    if made == 0 and not b[EDGE][i]:
        size = ring_around(b, dirs, stride, i, player, w)
        if size > 0:
            _make_base(b, meta, dirs, 3 - player, w[6], size)
    return meta[player] - before


@njit(cache=True)
def _may_close(b, chain, dirs, i, player, w):
    pattern = b[AROUND + player][i]
    roots = w[7][12:16]
    for j in range(_NSTARTS[pattern]):
        n = _find(chain, i + dirs[_STARTS[pattern, j]])
        for t in range(j):
            if roots[t] == n:
                return True
        roots[j] = n
    return False


@njit(cache=True)
def captures_at(b, meta, chain, dirs, stride, i, player, w):
    """Field.captures_at: whether a dot of ``player`` on free ``i`` makes a base now."""
    if _RUNS[b[AROUND + player][i]] < 2 or not _may_close(b, chain, dirs, i, player, w):
        return False
    live = b[LIVE]
    live[i] = player
    found = closed_rings(b, meta, dirs, stride, i, player, 8, False, w) > 0
    live[i] = 0
    return found


@njit(cache=True)
def is_suicide(b, meta, chain, dirs, stride, i, player, w):
    """Field.is_suicide: whether a dot of ``player`` on free ``i`` is taken at once."""
    if b[EDGE][i]:
        return False
    live = b[LIVE]
    opponent = 3 - player
    for k in range(0, 8, 2):
        if live[i + dirs[k]] == player:
            return False
    for k in range(0, 8, 2):
        c = i + dirs[k]
        while live[c] == 0:
            c += dirs[k]
        if live[c] != opponent:
            return False
    if _RUNS[b[AROUND + player][i]] >= 2 and _may_close(b, chain, dirs, i, player, w):
        trial = (
            b[0].copy(),
            b[1].copy(),
            b[2].copy(),
            b[3].copy(),
            b[4].copy(),
            b[5].copy(),
            b[6],
        )
        place(trial, meta.copy(), chain.copy(), dirs, stride, i, player, w)
        return trial[LIVE][i] == 0
    live[i] = player
    taken = ring_around(b, dirs, stride, i, player, w) > 0
    live[i] = 0
    return taken


@njit(cache=True)
def urgent_answer(b, meta, chain, dirs, stride, last, player, w):
    """ai.playout.urgent_answer: a capture next to ``last``, else a block; -1 if neither."""
    taken = b[TAKEN]
    opponent = 3 - player
    mine, theirs = b[AROUND + player], b[AROUND + opponent]
    blocks = w[7][16:24]
    nb = 0
    for k in range(8):
        c = last + dirs[k]
        if taken[c]:
            continue
        if _RUNS[mine[c]] >= 2 and captures_at(b, meta, chain, dirs, stride, c, player, w):
            return c
        if _RUNS[theirs[c]] >= 2:
            blocks[nb] = c
            nb += 1
    for t in range(nb):
        c = blocks[t]
        if captures_at(b, meta, chain, dirs, stride, c, opponent, w) and not is_suicide(
            b, meta, chain, dirs, stride, c, player, w
        ):
            return c
    return -1


@njit(cache=True)
def fight(live, stride, reach):
    """1 on the points within ``reach`` king steps of a live dot (every point when ``reach``
    is 0 or no dot stands): where a playout local to the fight plays (Policy.reach)."""
    cells = live.shape[0]
    near = np.zeros(cells, dtype=np.uint8)
    found = False
    if reach > 0:
        rows = cells // stride
        for c in range(cells):
            if live[c] == 1 or live[c] == 2:
                found = True
                row, col = c // stride, c % stride
                for r in range(max(0, row - reach), min(rows, row + reach + 1)):
                    for k in range(max(0, col - reach), min(stride, col + reach + 1)):
                        near[r * stride + k] = 1
    if not found:
        near[:] = 1
    return near


@njit(cache=True)
def _draw(free, nfree):
    """A point drawn at random from ``free[:nfree]`` and swapped out: (it, the count left)."""
    k = int(np.random.random() * nfree)
    c = free[k]
    nfree -= 1
    free[k] = free[nfree]
    return c, nfree


@njit(cache=True)
def playout(
    b,
    meta,
    chain,
    dirs,
    stride,
    player,
    alone,
    seed,
    local,
    urgent,
    avoid,
    limit,
    reach,
    recent,
    first,
    w,
):
    """ai.playout.playout on the arrays: ``recent`` the last two dots (0: none), ``limit``
    the moves at most (< 0: none), ``reach`` as Policy.reach, ``first[c]`` set to the player
    of each dot placed (for the search's AMAF statistics). Returns the moves played."""
    np.random.seed(seed)
    taken = b[TAKEN]
    cells = taken.shape[0]
    near = fight(b[LIVE], stride, reach)
    free = np.empty(cells, dtype=np.int64)
    nfree = 0
    for c in range(stride + 1, cells - stride - 1):
        if not taken[c] and near[c]:
            free[nfree] = c
            nfree += 1
    skipped = np.empty(cells, dtype=np.int64)
    if limit < 0:
        limit = nfree + 1
    last = recent[1]
    before = recent[0]
    moves = 0
    stuck = 0
    while moves < limit and nfree:
        chosen = -1
        if urgent > 0.0 and last and np.random.random() < urgent:
            chosen = urgent_answer(b, meta, chain, dirs, stride, last, player, w)
            if chosen >= 0 and not near[chosen]:
                chosen = -1
        if chosen < 0 and local > 0.0 and (last or before) and np.random.random() < local:
            for _ in range(4):
                if not before:
                    centre = last
                elif last and np.random.random() < 0.5:
                    centre = last
                else:
                    centre = before
                c = centre + dirs[int(np.random.random() * 8)]
                if (
                    not taken[c]
                    and near[c]
                    and not (avoid and is_suicide(b, meta, chain, dirs, stride, c, player, w))
                ):
                    chosen = c
                    break
        if chosen < 0:
            nskip = 0
            while nfree:
                c, nfree = _draw(free, nfree)
                if taken[c]:
                    continue
                if avoid and is_suicide(b, meta, chain, dirs, stride, c, player, w):
                    skipped[nskip] = c
                    nskip += 1
                    continue
                chosen = c
                break
            for t in range(nskip):
                free[nfree] = skipped[t]
                nfree += 1
        if chosen < 0:
            stuck += 1
            if alone or stuck == 2:
                break
            player = 3 - player
            continue
        stuck = 0
        place(b, meta, chain, dirs, stride, chosen, player, w)
        first[chosen] = player
        moves += 1
        before, last = last, chosen
        if not alone:
            player = 3 - player
    return moves


@njit(cache=True)
def random_games(b, meta, chain, dirs, stride, player, games, seed, w):
    """Play ``games`` uniformly random games from the position to a full board, each on a copy
    of its arrays (the position is left as it was), as oppai-rs's bench does: every free point
    in random order, players alternating. Returns the moves played in all."""
    np.random.seed(seed)
    taken = b[TAKEN]
    cells = taken.shape[0]
    free = np.empty(cells, dtype=np.int64)
    total = 0
    for _ in range(games):
        copy = (b[0].copy(), b[1].copy(), b[2].copy(), b[3].copy(), b[4].copy(), b[5].copy(), b[6])
        state, links = meta.copy(), chain.copy()
        now = copy[TAKEN]
        nfree = 0
        for c in range(stride + 1, cells - stride - 1):
            if not taken[c]:
                free[nfree] = c
                nfree += 1
        mover = player
        while nfree:
            c, nfree = _draw(free, nfree)
            if now[c]:
                continue
            place(copy, state, links, dirs, stride, c, mover, w)
            mover = 3 - mover
            total += 1
    return total


@njit(cache=True)
def candidates(b, meta, chain, dirs, stride, width, height, player, reach, w):
    """ai.search.candidates: the moves worth searching, in index order (see there)."""
    live, taken = b[LIVE], b[TAKEN]
    cells = live.shape[0]
    near = np.zeros(cells, dtype=np.uint8)
    found = False
    for i in range(stride + 1, cells - stride - 1):
        if live[i] == 1 or live[i] == 2:
            found = True
            for dy in range(-reach, reach + 1):
                for dx in range(-reach, reach + 1):
                    j = i + dy * stride + dx
                    if 0 <= j < cells:
                        near[j] = 1
    free = np.empty(cells, dtype=np.int64)
    nfree = 0
    for i in range(stride + 1, cells - stride - 1):
        if not taken[i]:
            free[nfree] = i
            nfree += 1
    if nfree == 0:
        return free[:0]
    pool = np.empty(nfree, dtype=np.int64)
    npool = 0
    for t in range(nfree):
        i = free[t]
        if found:
            keep = near[i] == 1
        else:
            col, row = i % stride - 1, i // stride - 1
            keep = reach <= col < width - reach and reach <= row < height - reach
        if keep:
            pool[npool] = i
            npool += 1
    filtered = npool > 0
    if not filtered:
        pool[:nfree] = free[:nfree]
        npool = nfree
    safe = np.empty(nfree, dtype=np.int64)
    nsafe = 0
    for t in range(npool):
        if not is_suicide(b, meta, chain, dirs, stride, pool[t], player, w):
            safe[nsafe] = pool[t]
            nsafe += 1
    if nsafe:
        return safe[:nsafe]
    if filtered:
        for t in range(nfree):
            if not is_suicide(b, meta, chain, dirs, stride, free[t], player, w):
                safe[nsafe] = free[t]
                nsafe += 1
    if nsafe:
        return safe[:nsafe]
    return free[:nfree]
