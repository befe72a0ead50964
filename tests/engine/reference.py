"""A slow, independent reading of rules 2 to 5 of RULES.md, to check the engine against.

It works on whole-board flood fills (the engine must not, for speed) and is written straight
from the rule texts:

- 3.3: a point is inside P's rings when it cannot reach the edge by steps up, down, left and
  right without stepping on P's live dots. The points that cannot reach the edge fall into
  4-connected *regions*; the smallest ring around a region (4.2) is made of the dots next to it.
- 4.1: a dot of P completes the smallest ring of each region beside it whose ring passes
  through the dot; the ring becomes a base when the inside holds a live dot of the opponent.
- 4.4: if it made none, the opponent's innermost ring around the dot (the region of the dot in
  the opponent's walls) takes it, when that ring held no live dot of P before.
- 4.5 / 5.1: a base owns everything inside; a score is counted afresh from the owners.
"""

from __future__ import annotations

from engine import Player, Point

PINK, BLUE = Player.PINK, Player.BLUE
_STEPS4 = ((0, 1), (1, 0), (0, -1), (-1, 0))
_STEPS8 = (*_STEPS4, (1, 1), (1, -1), (-1, 1), (-1, -1))


class RefBoard:
    """The reference position: dots, live flags and base owners per point."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.dot: dict[Point, Player] = {}
        self.live: set[Point] = set()
        self.owner: dict[Point, Player] = {}
        # Each base as (owner, ring points, area).
        self.bases: list[tuple[Player, frozenset[Point], frozenset[Point]]] = []

    # -- reading -------------------------------------------------------------------------

    def on_board(self, p: Point) -> bool:
        """Whether ``p`` lies on the board."""
        return 0 <= p.x < self.width and 0 <= p.y < self.height

    def is_edge(self, p: Point) -> bool:
        """Whether ``p`` lies on the board's outer line."""
        return p.x in (0, self.width - 1) or p.y in (0, self.height - 1)

    def is_free(self, p: Point) -> bool:
        """Rule 2.2."""
        return self.on_board(p) and p not in self.dot and p not in self.owner

    def score(self, player: Player) -> int:
        """Rule 5.1, counted from scratch."""
        return sum(
            1
            for p, who in self.owner.items()
            if who is player and self.dot.get(p) is player.opponent
        )

    def picture(self) -> str:
        """The same text picture as ``Board.picture``."""
        lines = []
        for y in reversed(range(self.height)):
            row = []
            for x in range(self.width):
                p = Point(x, y)
                who = self.dot.get(p)
                if who is not None:
                    letter = "P" if who is PINK else "B"
                    row.append(letter if p in self.live else letter.lower())
                else:
                    owner = self.owner.get(p)
                    row.append("." if owner is None else "+" if owner is PINK else "-")
            lines.append(" ".join(row))
        return "\n".join(lines)

    # -- geometry ------------------------------------------------------------------------

    def walls(self, player: Player) -> set[Point]:
        """The live dots of ``player``: what its rings are made of (rule 3.2)."""
        return {p for p in self.live if self.dot[p] is player}

    def region(self, start: Point, walls: set[Point]) -> tuple[set[Point], bool]:
        """The 4-connected points reachable from ``start`` avoiding ``walls``, and whether
        they reach the edge of the board (rule 3.3)."""
        seen = {start}
        stack = [start]
        open_ = False
        while stack:
            p = stack.pop()
            if self.is_edge(p):
                open_ = True
            for dx, dy in _STEPS4:
                q = Point(p.x + dx, p.y + dy)
                if self.on_board(q) and q not in walls and q not in seen:
                    seen.add(q)
                    stack.append(q)
        return seen, open_

    def enclosure(
        self, region: set[Point], player: Player
    ) -> tuple[frozenset[Point], frozenset[Point]]:
        """The smallest ring of ``player`` around an enclosed region and everything inside it.

        Worked in the plane, on a grid four times finer than the board so that even the
        half-square triangle between three linked dots has cells of its own. ``player``'s live
        dots and the links between them are walls. The face F holding the region is flooded;
        the dots and links touching F are its border; the cells the edge reaches without
        crossing that border are outside. The ring (the outer border of F: the smallest ring
        around the region, 4.2) is made of the border's dots that touch the outside, directly
        or through one of their border links. The inside is rule 3.3 applied to the ring's dots:
        the region, dots hanging into it, holes, and any pocket the ring's dots seal off.
        """
        walls = self.walls(player)
        size_x, size_y = 4 * self.width + 9, 4 * self.height + 9

        def cell(p: Point) -> tuple[int, int]:
            return 4 * p.x + 4, 4 * p.y + 4

        vertex_at = {cell(p): p for p in walls}
        links: dict[tuple[Point, Point], list[tuple[int, int]]] = {}
        for p in walls:
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                q = Point(p.x + dx, p.y + dy)
                if q in walls:
                    cx, cy = cell(p)
                    links[p, q] = [(cx + k * dx, cy + k * dy) for k in (1, 2, 3)]
        blocked = set(vertex_at) | {c for cells in links.values() for c in cells}

        def flood(
            starts: list[tuple[int, int]], stop: set[tuple[int, int]]
        ) -> set[tuple[int, int]]:
            seen = set(starts)
            stack = list(starts)
            while stack:
                x, y = stack.pop()
                for dx, dy in _STEPS4:
                    q = (x + dx, y + dy)
                    if (
                        0 <= q[0] < size_x
                        and 0 <= q[1] < size_y
                        and q not in stop
                        and q not in seen
                    ):
                        seen.add(q)
                        stack.append(q)
            return seen

        def touches(
            cells: list[tuple[int, int]],
            area: set[tuple[int, int]],
            steps: tuple[tuple[int, int], ...],
        ) -> bool:
            return any((x + dx, y + dy) in area for x, y in cells for dx, dy in steps)

        face = flood([cell(p) for p in region], blocked)
        border_links = [pq for pq, cells in links.items() if touches(cells, face, _STEPS4)]
        border_dots = {p for c, p in vertex_at.items() if touches([c], face, _STEPS8)}
        border = {cell(p) for p in border_dots} | {c for pq in border_links for c in links[pq]}
        outside = flood([(0, 0)], face | border)
        ring = {p for p in border_dots if touches([cell(p)], outside, _STEPS8)}
        for p, q in border_links:
            if touches(links[p, q], outside, _STEPS4):
                ring |= {p, q}
        # Rule 3.3 for the ring found: what cannot reach the edge without stepping on its dots
        # (this also seals a pocket that the chain passes round on its far side).
        inside = frozenset(self.inside_of(frozenset(ring)))
        return frozenset(ring), inside

    def inside_of(self, ring: frozenset[Point]) -> set[Point]:
        """Rule 3.3: the points that cannot reach the edge of the board by steps up, down,
        left and right without stepping on one of the ``ring``'s dots."""
        start = [Point(x, y) for x in range(-1, self.width + 1) for y in (-1, self.height)]
        start += [Point(x, y) for y in range(self.height) for x in (-1, self.width)]
        seen = set(start)
        stack = list(start)
        while stack:
            p = stack.pop()
            for dx, dy in _STEPS4:
                q = Point(p.x + dx, p.y + dy)
                if (
                    -1 <= q.x <= self.width
                    and -1 <= q.y <= self.height
                    and q not in seen
                    and q not in ring
                ):
                    seen.add(q)
                    stack.append(q)
        return {
            Point(x, y)
            for x in range(self.width)
            for y in range(self.height)
            if Point(x, y) not in seen and Point(x, y) not in ring
        }

    # -- placing -------------------------------------------------------------------------

    def place(
        self, p: Point, player: Player
    ) -> list[tuple[Player, frozenset[Point], frozenset[Point]]]:
        """Place a dot (rule 2.2 checked) and resolve 4.1-4.6; return the bases made."""
        if not self.is_free(p):
            raise ValueError(f"{p.name} is not free")
        opponent = player.opponent
        self.dot[p] = player
        self.live.add(p)
        walls = self.walls(player)
        made: list[tuple[Player, frozenset[Point], frozenset[Point]]] = []
        seen: set[Point] = set()
        for dx, dy in _STEPS4:
            q = Point(p.x + dx, p.y + dy)
            if not self.on_board(q) or q in walls or q in seen:
                continue
            region, open_ = self.region(q, walls)
            seen |= region
            if open_:
                continue
            ring, inside = self.enclosure(region, player)
            if p not in ring:
                continue  # this ring was there before: the dot does not complete it
            if any(c in self.live and self.dot[c] is opponent for c in inside):
                made.append((player, ring, inside))
        if not made and not self.is_edge(p):
            region, open_ = self.region(p, self.walls(opponent))
            if not open_:
                ring, inside = self.enclosure(region, opponent)
                if not any(c != p and c in self.live and self.dot[c] is player for c in inside):
                    made.append((opponent, ring, inside))
        for owner, ring, inside in made:
            for c in inside:
                self.owner[c] = owner
                self.live.discard(c)
            self.bases = [b for b in self.bases if not (b[1] & inside)]
            self.bases.append((owner, ring, inside))
        return made
