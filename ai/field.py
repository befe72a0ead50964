"""The computer's own compact board (a "field", as oppai-rs calls it), built for playouts.

The engine (engine/board.py) stays the reference for the rules, and a Field applies the same
rules of capture (engine/rings.py: ring closing, dots played into a ring, the inside of a ring,
base scoring) to the same arrays over the same geometry, so it gives the same dots, bases and
scores for every placement (tests/ai/test_field.py plays random games on both). It keeps only
what a playout needs: no ring records, no journal for undo, no Placement objects, and it adds
what a playout looks up often.

Representation: the engine's flat arrays over the board padded by one cell (same indices, so a
Field and a Board of one size share every index). ``live`` holds 1/2 for a live dot, 0 for none
(free, or a dead dot), 3 for the padding; ``taken`` is 1 where no dot may be placed (a dot, or
ground inside a base); ``dot`` and ``owner`` as in the engine; ``around[p][i]`` the 8-bit
pattern of p's live dots round i, kept as dots are placed and captured.

How a capture is found (rules 3.3, 4.1, 4.2): a dot of P can only close a ring when its eight
neighbours hold at least two runs of P's live dots that are not joined across a corner (one
lookup of its pattern in ``RUNS``) and two of those runs belong to one chain (a union-find over
the dots placed). Only then are the rings round the regions beside it traced
(``engine.rings.closed_rings``); rule 4.4 is ``engine.rings.ring_around``.
"""

from __future__ import annotations

from array import array

from engine import Board, Player, Point
from engine.rings import (
    BORDER,
    CORNERS,
    RUN_STARTS,
    RUNS,
    claim,
    closed_rings,
    geometry,
    ring_around,
)

__all__ = ["RUNS", "Field"]


class Field:
    """A position for playouts: place dots fast and read scores; exact to the engine's rules.

    ``place`` is a fast path like ``Board.place_index``: the caller checks the point is free.
    """

    __slots__ = (
        "around",
        "chain",
        "dirs",
        "dot",
        "edge",
        "free",
        "geometry",
        "height",
        "live",
        "marks",
        "owner",
        "score",
        "stride",
        "taken",
        "width",
    )

    def __init__(self, width: int, height: int) -> None:
        geo = geometry(width, height)
        self.geometry = geo
        self.width = width
        self.height = height
        self.stride = geo.stride
        cells = geo.cells
        self.live = geo.padding[:]
        self.dot = geo.padding[:]
        self.owner = bytearray(cells)
        self.taken = geo.padding.replace(bytes((BORDER,)), b"\x01")
        self.edge = geo.edge
        self.dirs = geo.dirs
        # A dot on i is neighbour (k + 4) & 7 of its neighbour k: the bit to set there.
        self.marks = tuple((self.dirs[k], 1 << ((k + 4) & 7)) for k in range(8))
        # around[p][i]: the 8-bit pattern of p's live dots round i, kept as dots are placed
        # and captured (8 writes a dot), so a pattern costs one lookup in the playouts.
        self.around = [bytearray(), bytearray(cells), bytearray(cells)]
        # A union-find over every dot placed, linked as placed (as the engine's ``_chain``):
        # dots in different sets are never linked, so a dot joining only different sets
        # closes no ring. A dead dot is not taken out: the test errs only towards tracing.
        # An array of machine integers (not a list) so that the compiled kernel (ai/kernel.py)
        # works on it in place.
        self.chain = array("q", range(cells))
        self.score = [0, 0, 0]
        self.free = width * height

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
        """An independent copy (the geometry, never changed, is shared)."""
        other = Field.__new__(Field)
        other.geometry = self.geometry
        other.width, other.height, other.stride = self.width, self.height, self.stride
        other.live = self.live[:]
        other.dot = self.dot[:]
        other.owner = self.owner[:]
        other.taken = self.taken[:]
        other.edge = self.edge
        other.dirs = self.dirs
        other.marks = self.marks
        around = self.around
        other.around = [around[0], around[1][:], around[2][:]]
        other.chain = self.chain[:]
        other.score = self.score[:]
        other.free = self.free
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
            # Each base is made before the next ring is looked for, as the engine does.
            for _, area in closed_rings(self.geometry, live, i, player, rings):
                self._make_base(player, area)
                made = True
        if not made and not self.edge[i]:
            taken_by = ring_around(self.geometry, live, i, player)
            if taken_by is not None:
                self._make_base(3 - player, taken_by[1])
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
            return next(closed_rings(self.geometry, live, i, player), None) is not None
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
        orth = self.geometry.orth
        for step in orth:
            if live[i + step] == player:
                return False
        for step in orth:
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
            return ring_around(self.geometry, live, i, player) is not None
        finally:
            live[i] = 0

    def _make_base(self, owner: int, area: frozenset[int]) -> None:
        """Make ``area`` ``owner``'s base (``engine.rings.claim``), keeping ``around`` and
        ``taken`` up to date."""
        live, taken, marks, arounds = self.live, self.taken, self.marks, self.around
        for c in area:
            value = live[c]
            if value:  # a live dot: no longer in its player's patterns
                around = arounds[value]
                for d, bit in marks:
                    around[c + d] &= ~bit
            taken[c] = 1
        self.free -= claim(
            owner, area, live=live, dot=self.dot, owners=self.owner, score=self.score
        )
