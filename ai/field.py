"""The computer's own compact board (a "field", as oppai-rs calls it), built for playouts.

The engine (engine/board.py) stays the reference for the rules; a Field gives the same dots,
bases and scores for every placement (tests/ai/test_field.py plays random games on both) but
keeps only what a playout needs: no ring records, no union-find, no Placement objects.

Representation: the engine's flat arrays over the board padded by one cell (same indices, so a
Field and a Board of one size share every index). ``live`` holds 1/2 for a live dot, 0 for none
(free, or a dead dot), 3 for the padding; ``taken`` is 1 where no dot may be placed (a dot, or
ground inside a base); ``dot`` and ``owner`` as in the engine.

How a capture is found (rules 3.3, 4.1, 4.2): a dot of P can only close a ring when its eight
neighbours hold at least two runs of P's live dots that are not joined across a corner (a table
of the 256 neighbour patterns answers that with one lookup). Then the regions beside it
(4-connected cells that are not P's live dots) are flooded in lockstep, one cell each in turn:
a region that reaches the padding is open; one whose flood runs dry is enclosed, and its smallest
ring holds it and the pockets it surrounds. The flood stops as soon as at most one region is
left undecided and none was open (the region the dot stood in was open, so one part stays open),
so the cost is the size of the smaller regions, not of the open board. Rule 4.4 walks four rays
and floods the empty face around the dot, as the engine does.
"""

from __future__ import annotations

from engine import Board, Player, Point
from engine.board import inside_of, outer_loop, trace_ring

BORDER = 3

# Neighbour order N, NE, E, SE, S, SW, W, NW; bit k of a pattern is neighbour k.


def _ring_runs(pattern: int) -> int:
    """Runs of set bits round the 8-neighbour circle, less runs that meet across a corner
    (N and E set, NE clear: linked directly, so the dot closes nothing between them)."""
    bits = [(pattern >> k) & 1 for k in range(8)]
    runs = sum(1 for k in range(8) if bits[k] and not bits[k - 1])
    corners = sum(1 for k in (1, 3, 5, 7) if not bits[k] and bits[k - 1] and bits[(k + 1) & 7])
    return runs - corners


# RUNS[pattern] >= 2: a dot with these own neighbours may close a ring.
RUNS = bytes(max(0, _ring_runs(p)) for p in range(256))
# The neighbours where a run of set bits starts, and the corners that join two runs.
RUN_STARTS = tuple(
    tuple(k for k in range(8) if p >> k & 1 and not p >> ((k - 1) & 7) & 1) for p in range(256)
)
CORNERS = bytes(
    sum(1 for k in (1, 3, 5, 7) if not p >> k & 1 and p >> (k - 1) & 1 and p >> ((k + 1) & 7) & 1)
    for p in range(256)
)


class Field:
    """A position for playouts: place dots fast and read scores; exact to the engine's rules.

    ``place`` is a fast path like ``Board.place_index``: the caller checks the point is free.
    """

    __slots__ = (
        "area_steps",
        "around",
        "chain",
        "diagonal",
        "dirs",
        "dot",
        "edge",
        "free",
        "height",
        "live",
        "marks",
        "orth",
        "owner",
        "scan",
        "score",
        "stamp",
        "stride",
        "taken",
        "visit",
        "width",
    )

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        stride = width + 2
        self.stride = stride
        cells = stride * (height + 2)
        self.live = bytearray(cells)
        self.dot = bytearray(cells)
        self.owner = bytearray(cells)
        self.taken = bytearray(cells)
        self.edge = bytearray(cells)
        for i in range(cells):
            row, col = divmod(i, stride)
            if row in (0, height + 1) or col in (0, width + 1):
                self.live[i] = BORDER
                self.dot[i] = BORDER
                self.taken[i] = 1
            elif row in (1, height) or col in (1, width):
                self.edge[i] = 1
        s = stride
        self.dirs = (-s, -s + 1, 1, s + 1, s, s - 1, -1, -s - 1)
        self.orth = (-s, 1, s, -1)
        # A dot on i is neighbour (k + 4) & 7 of its neighbour k: the bit to set there.
        self.marks = tuple((self.dirs[k], 1 << ((k + 4) & 7)) for k in range(8))
        # around[p][i]: the 8-bit pattern of p's live dots round i, kept as dots are placed
        # and captured (8 writes a dot), so a pattern costs one lookup in the playouts.
        self.around = [bytearray(), bytearray(cells), bytearray(cells)]
        self.diagonal = (-s + 1, s + 1, s - 1, -s - 1)
        dx = (0, 1, 1, 1, 0, -1, -1, -1)
        dy = (-1, -1, 0, 1, 1, 1, 0, -1)
        self.scan = tuple(
            tuple(((k + 5 + j) & 7, self.dirs[(k + 5 + j) & 7]) for j in range(8)) for k in range(8)
        )
        self.area_steps = (
            tuple(2 * y for y in dy),
            tuple(stride * y * y + x * y for x, y in zip(dx, dy, strict=True)),
        )
        # A union-find over every dot placed, linked as placed (as the engine's ``_chain``):
        # dots in different sets are never linked, so a dot joining only different sets
        # closes no ring. A dead dot is not taken out: the test errs only towards flooding.
        self.chain = list(range(cells))
        self.score = [0, 0, 0]
        self.free = width * height
        # Flood marks: visit[c] >= stamp means c was reached by the current flood.
        self.visit = [0] * cells
        self.stamp = [1]

    @classmethod
    def from_board(cls, board: Board) -> Field:
        """The field of an engine board's position (reads it once through its public API)."""
        field = cls(board.width, board.height)
        for i in range(board.stride + 1, board.stride * (board.height + 1) - 1):
            if field.live[i] == BORDER:
                continue
            point = board.point_at(i)
            dot = board.dot(point)
            owner = board.owner(point)
            field.dot[i] = int(dot) if dot is not None else 0
            field.owner[i] = int(owner) if owner is not None else 0
            field.live[i] = board.live_at(i)
            if dot is not None or owner is not None:
                field.taken[i] = 1
        live, chain = field.live, field.chain
        for i in range(len(live)):
            player = live[i]
            if player not in (1, 2):
                continue
            for d in field.dirs[:4]:
                if live[i + d] == player:
                    a, b = i, i + d
                    while chain[a] != a:
                        a = chain[a]
                    while chain[b] != b:
                        b = chain[b]
                    chain[a] = b
        for i in range(len(live)):
            player = live[i]
            if player in {1, 2}:
                around = field.around[player]
                for d, bit in field.marks:
                    around[i + d] |= bit
        field.free = board.free_count
        field.score = [0, board.score(Player.PINK), board.score(Player.BLUE)]
        return field

    def copy(self) -> Field:
        """An independent copy (the flood marks and geometry are shared: single-threaded)."""
        other = Field.__new__(Field)
        other.width, other.height, other.stride = self.width, self.height, self.stride
        other.live = self.live[:]
        other.dot = self.dot[:]
        other.owner = self.owner[:]
        other.taken = self.taken[:]
        other.edge = self.edge
        other.dirs, other.orth, other.diagonal = self.dirs, self.orth, self.diagonal
        other.scan, other.area_steps = self.scan, self.area_steps
        other.marks = self.marks
        around = self.around
        other.around = [around[0], around[1][:], around[2][:]]
        other.chain = self.chain[:]
        other.score = self.score[:]
        other.free = self.free
        other.visit = self.visit
        other.stamp = self.stamp
        return other

    def index(self, point: Point) -> int:
        """The array index of an on-board point (the engine's indexing)."""
        return (self.height - point.y) * self.stride + point.x + 1

    def free_indices(self) -> list[int]:
        """The array indices of every free point."""
        taken = self.taken
        return [i for i in range(self.stride + 1, len(taken) - self.stride - 1) if not taken[i]]

    def pattern(self, i: int, player: int) -> int:
        """The 8-bit pattern of ``player``'s live dots round ``i`` (bit k: neighbour k)."""
        return self.around[player][i]

    # -- placing ---------------------------------------------------------------------------

    def place(self, i: int, player: int) -> int:
        """Place a dot of ``player`` on free index ``i`` and resolve rules 4.1 to 4.6.

        Returns how many dots of the opponent the placement put inside new bases of
        ``player`` (0 when it took nothing, or when the dot itself was taken by rule 4.4).
        """
        live = self.live
        live[i] = player
        self.dot[i] = player
        self.taken[i] = 1
        self.free -= 1
        before = self.score[player]
        made = False
        around = self.around[player]
        for d, bit in self.marks:
            around[i + d] |= bit
        pattern = around[i]
        if RUNS[pattern] < 2:
            # Every own neighbour is linked to the others already (one run, or runs that
            # meet across a corner): join the first one's set, nothing to trace.
            rings = 0
            chain = self.chain
            if pattern:
                k = 0
                while not pattern >> k & 1:
                    k += 1
                chain[i] = i + self.dirs[k]
            else:
                chain[i] = i
        else:
            rings = self.new_rings(i, player)
        if rings > 0:
            for area in self.enclosures(i, player, rings):
                self._make_base(player, area)
                made = True
        if not made and not self.edge[i]:
            taken_by = self.ring_around(i, player)
            if taken_by is not None:
                self._make_base(3 - player, taken_by)
        return self.score[player] - before

    def new_rings(self, i: int, player: int) -> int:
        """Link ``player``'s dot on ``i`` into the chain sets; at most how many new rings it
        closes (the engine's ``Board._new_rings``: runs of own neighbours, less corners, less
        the separate sets they belong to). Costs a few finds."""
        chain, dirs = self.chain, self.dirs
        chain[i] = i
        pattern = self.around[player][i]
        roots: list[int] = []
        for k in RUN_STARTS[pattern]:
            n = i + dirs[k]
            while chain[n] != n:
                chain[n] = chain[chain[n]]
                n = chain[n]
            roots.append(n)
        if not roots:
            return 0
        first = roots[0]
        chain[i] = first
        for root in roots:
            chain[root] = first
        return len(roots) - CORNERS[pattern] - len(set(roots))

    def _may_close(self, i: int, player: int) -> bool:
        """Whether two runs of ``player``'s dots round free ``i`` share a chain set (else a dot
        there closes nothing). Changes nothing but the paths' compression."""
        chain, dirs = self.chain, self.dirs
        roots = []
        for k in RUN_STARTS[self.around[player][i]]:
            n = i + dirs[k]
            while chain[n] != n:
                chain[n] = chain[chain[n]]
                n = chain[n]
            if n in roots:
                return True
            roots.append(n)
        return False

    def captures_at(self, i: int, player: int) -> bool:
        """Whether a dot of ``player`` on free index ``i`` would make a base now (no change)."""
        live = self.live
        if RUNS[self.pattern(i, player)] < 2 or not self._may_close(i, player):
            return False
        live[i] = player
        try:
            return bool(self.enclosures(i, player, first=True))
        finally:
            live[i] = 0

    def is_suicide(self, i: int, player: int) -> bool:
        """Whether a dot of ``player`` on free index ``i`` would be taken at once (rule 4.4).

        Cheap in the usual case: the dot can only be taken when it is off the outer line, no
        orthogonal neighbour is ``player``'s live dot and each of the four rays ends on the
        opponent's live dot; then the face round it is flooded (or, when the dot might close a
        ring of its own first, it is tried on a copy).
        """
        if self.edge[i]:
            return False
        live = self.live
        opponent = 3 - player
        for step in self.orth:
            if live[i + step] == player:
                return False
        for step in self.orth:
            c = i + step
            value = live[c]
            while not value:
                c += step
                value = live[c]
            if value != opponent:
                return False
        if RUNS[self.pattern(i, player)] >= 2 and self._may_close(i, player):
            trial = self.copy()
            trial.place(i, player)
            return trial.live[i] == 0
        live[i] = player
        try:
            return self.ring_around(i, player) is not None
        finally:
            live[i] = 0

    def enclosures(
        self, i: int, player: int, new_rings: int = 8, *, first: bool = False
    ) -> list[list[int]]:
        """The areas of the bases ``player``'s live dot on ``i`` completes (rules 4.1, 4.2),
        found as the engine finds them (``Board._close_rings``): for each region beside the
        dot that no straight line opens to the padding, the smallest ring round it, shortest
        lines first, stopping once ``new_rings`` rings are found and an open side is seen.
        ``first``: stop at the first base found (enough to know that one is made).
        Costs the rings traced plus the areas of the bases."""
        live, dirs = self.live, self.dirs
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
        areas: list[list[int]] = []
        for _, k in candidates:
            if done >> k & 1:
                continue
            walk, covered, twice = self._trace(i, k, player)
            done |= covered
            if walk is None or twice >= 0:
                continue
            loop = outer_loop(walk, self.stride)
            if loop is None or i not in loop:
                continue
            area = self._area(loop, i + dirs[k])
            for c in area:
                if live[c] == opponent:
                    areas.append(area)
                    if first:
                        return areas
                    break
            found += 1
            if open_seen and found >= new_rings:
                break
        return areas

    def ring_around(self, i: int, player: int) -> list[int] | None:
        """Rule 4.4: the area of the opponent's innermost empty ring round ``player``'s new dot
        on ``i`` (which made no base), or None when no such ring holds it."""
        live = self.live
        opponent = 3 - player
        orth = self.orth
        for step in orth:
            if live[i + step] == player:
                return None
        for step in orth:
            c = i + step
            while not live[c]:
                c += step
            if live[c] != opponent:
                return None
        stamp = self.stamp[0] + 1
        self.stamp[0] = stamp
        visit = self.visit
        visit[i] = stamp
        face = [i]
        stack = [i]
        while stack:
            c = stack.pop()
            for step in orth:
                n = c + step
                value = live[n]
                if value == opponent or visit[n] == stamp:
                    continue
                if value:  # a live dot of ours, or the padding: not an empty ring
                    return None
                visit[n] = stamp
                face.append(n)
                stack.append(n)
        top = min(face)
        walk, _, twice = self._trace(top - self.stride, 4, opponent)
        if walk is None or twice >= 0:
            return None
        loop = outer_loop(walk, self.stride)
        if loop is None:
            return None
        area = self._area(loop, top)
        for c in area:
            if live[c] == player and c != i:
                return None
        return area

    def _trace(self, start: int, k0: int, player: int) -> tuple[list[int] | None, int, int]:
        """The engine's ring walk (``engine.board.trace_ring``), on this field's arrays."""
        return trace_ring(
            self.live, self.dirs, self.scan, self.area_steps, start=start, k0=k0, player=player
        )

    def _area(self, ring: tuple[int, ...], seed: int) -> list[int]:
        """Everything inside ``ring`` (rule 3.3), as ``Board._area`` finds it."""
        dots = frozenset(ring)
        live, dirs, orth = self.live, self.dirs, self.orth
        for c in ring:
            if sum(1 for offset in dirs if c + offset in dots) > 2:
                return self._inside(ring)
        area = {seed}
        stack = [seed]
        while stack:
            c = stack.pop()
            for offset in orth:
                n = c + offset
                if n not in dots and n not in area:
                    if live[n] == BORDER:
                        return self._inside(ring)
                    area.add(n)
                    stack.append(n)
        return list(area)

    def _inside(self, ring: tuple[int, ...]) -> list[int]:
        """Every point inside ``ring`` (rule 3.3), as the engine finds it."""
        return inside_of(ring, self.stride)

    def _make_base(self, owner: int, area: list[int]) -> None:
        """Everything in ``area`` becomes ``owner``'s (rules 4.1, 4.5, 5.1, 5.2)."""
        live, dot, owners, taken, score = self.live, self.dot, self.owner, self.taken, self.score
        marks, arounds = self.marks, self.around
        for c in area:
            value = live[c]
            if value in {1, 2}:
                around = arounds[value]
                for d, bit in marks:
                    around[c + d] &= ~bit
            old = owners[c]
            value = dot[c]
            if old != owner:
                if value:
                    if old and value == 3 - old:
                        score[old] -= 1
                    if value == 3 - owner:
                        score[owner] += 1
                elif not old:
                    self.free -= 1
                owners[c] = owner
                taken[c] = 1
            live[c] = 0
