"""The position: dots, rings, bases and scores (RULES.md rules 1 to 5 and 8.1).

Representation (for speed in pure Python): flat ``bytearray``s over the board padded by one cell
on each side, laid out by ``engine.rings.Geometry`` (one per board size), so a neighbour is
``index + offset`` and the padding stops every walk without a bounds check. Index of point
(x, y) is ``(height - y) * stride + x + 1``: row 0 of the array is the padding above the top
row. The rules of capture on these arrays (closing rings, a dot played into a ring, the inside
of a ring, base scoring) are engine/rings.py's, which the computer's Field calls too.

What a move costs: placing a dot looks at its 8 neighbours. Only a dot that touches two separate
runs of its own live dots can close a ring; only then are rings traced, and the work is the length
of the rings traced plus the area of a ring that is closed. The check of rule 4.4 (a dot played
into an empty ring) walks four rays and, when all four end on the opponent's dots, the region
around the dot, stopping at the first own dot or the board's edge.

Taking a dot back (``undo``) reads a journal of what it changed and costs what placing it did.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.errors import (
    InsideBaseError,
    InvalidPointError,
    OccupiedError,
    OffBoardError,
    PointMistake,
)
from engine.options import check_size
from engine.point import Player, Point
from engine.rings import CORNERS, RUN_STARTS, claim, closed_rings, geometry, ring_around

_BASES_MADE = -(1 << 40)  # a mark in the journal that is no ~index


@dataclass(frozen=True, slots=True)
class Base:
    """A base (rule 4.1): its owner, its ring in order around the closed chain, and its area."""

    owner: Player
    ring: tuple[Point, ...]
    area: frozenset[Point]


@dataclass(frozen=True, slots=True)
class Placement:
    """What placing one dot did: the bases it made (of either player, rule 4.4) and the dots
    it put inside a base, with the change of each player's score."""

    point: Point
    player: Player
    bases: tuple[Base, ...]
    captured: tuple[Point, ...]
    pink_gain: int
    blue_gain: int

    def gain(self, player: Player) -> int:
        """How much ``player``'s score changed with this dot."""
        return self.pink_gain if player is Player.PINK else self.blue_gain


class _BaseRecord:
    __slots__ = ("area", "owner", "ring")

    def __init__(self, owner: int, ring: tuple[int, ...], area: frozenset[int]) -> None:
        self.owner = owner
        self.ring = ring
        self.area = area


class Board:
    """A position with no turn order: place dots for either player and read the result.

    Every method that takes a point also takes its name (``"B7"``). For analysis and imported
    records a board may be smaller than rule 1.1 allows a game (down to 2x2).
    """

    __slots__ = (
        "_base_cache",
        "_base_journal",
        "_bases",
        "_chain",
        "_dirs",
        "_dot",
        "_edge",
        "_free",
        "_geometry",
        "_journal",
        "_live",
        "_owner",
        "_score",
        "height",
        "stride",
        "width",
    )

    def __init__(self, width: int = 10, height: int = 10) -> None:
        check_size(width, height, smallest=2)
        self.width = width
        self.height = height
        geo = geometry(width, height)
        self._geometry = geo
        self.stride = geo.stride
        cells = geo.cells
        # _live: 1/2 a live dot of that player, 0 no live dot (free, or a dead dot), 3 padding.
        self._live = geo.padding[:]
        # _dot: 1/2 the dot's colour whether live or not, 0 none, 3 padding.
        self._dot = geo.padding[:]
        # _owner: 1/2 the owner of the base the point lies in, 0 none.
        self._owner = bytearray(cells)
        # The geometry's neighbour offsets and outer line (rule 3.3), at hand for the hot path.
        self._dirs = geo.dirs
        self._edge = geo.edge
        self._chain = list(range(cells))
        self._score = [0, 0, 0]
        self._free = width * height
        self._bases: list[_BaseRecord] = []
        self._base_cache: list[Base] | None = None
        # What each dot changed, for ``undo``. _journal is flat ints, so that a dot allocates no
        # container (and wakes no garbage collection): per dot, ~index (negative), then its
        # writes to _chain as (index, old value) pairs, then _BASES_MADE if it made a base. A
        # free point's chain entry is always itself, so the dot's own is not logged.
        # _base_journal has one entry per dot that made bases: the free count, the scores and
        # the bases before the first, and (index, old owner, old live) triples, flat, for every
        # point its bases took.
        self._journal: list[int] = []
        self._base_journal: list[tuple[int, list[int], list[_BaseRecord], list[int]]] = []

    # -- points ---------------------------------------------------------------------------

    def point(self, point: Point | str) -> Point:
        """The point named, checked to lie on this board (rule 1.2).

        Raises:
            InvalidPointError: a malformed name.
            OffBoardError: a point off this board.
        """
        if isinstance(point, str):
            return Point.parse(point, self.width, self.height)
        if not isinstance(point, tuple) or len(point) != 2:
            raise InvalidPointError(repr(point), PointMistake.NOT_A_PAIR)
        point = Point(*point)
        if not point.is_on(self.width, self.height):
            raise OffBoardError(point, self.width, self.height)
        return point

    def index(self, point: Point) -> int:
        """The array index of an on-board point (fast path: not checked)."""
        return (self.height - point.y) * self.stride + point.x + 1

    def point_at(self, index: int) -> Point:
        """The point at an array index (fast path: not checked)."""
        row, col = divmod(index, self.stride)
        return Point(col - 1, self.height - row)

    def is_free_index(self, i: int) -> bool:
        """Whether array index ``i`` is a free point (fast path: ``i`` must be on the board)."""
        return not self._dot[i] and not self._owner[i]

    def free_indices(self) -> list[int]:
        """The array indices of every free point (fast path for searches)."""
        dot, owner = self._dot, self._owner
        return [
            i
            for i in range(self.stride + 1, len(dot) - self.stride - 1)
            if not dot[i] and not owner[i]
        ]

    def live_at(self, i: int) -> int:
        """At array index ``i``: 1/2 for a live Pink/Blue dot, 0 for none, 3 for the padding."""
        return self._live[i]

    def neighbours(self, i: int) -> tuple[int, ...]:
        """The array indices of the 8 neighbours of ``i`` (N, NE, E, SE, S, SW, W, NW)."""
        return tuple(i + d for d in self._dirs)

    def points(self) -> Iterator[Point]:
        """Every point of the board, row 1 first."""
        for y in range(self.height):
            for x in range(self.width):
                yield Point(x, y)

    # -- reading the position --------------------------------------------------------------

    def dot(self, point: Point | str) -> Player | None:
        """The player whose dot is on the point, live or captured; None when there is none."""
        value = self._dot[self.index(self.point(point))]
        return Player(value) if value else None

    def owner(self, point: Point | str) -> Player | None:
        """The owner of the base the point lies in; None outside every base."""
        value = self._owner[self.index(self.point(point))]
        return Player(value) if value else None

    def is_live(self, point: Point | str) -> bool:
        """Whether a dot is on the point and it lies inside no base (rule 3.2)."""
        return self._live[self.index(self.point(point))] in (1, 2)

    def is_free(self, point: Point | str) -> bool:
        """Whether a dot may be placed on the point (rule 2.2)."""
        try:
            i = self.index(self.point(point))
        except ValueError:
            return False
        return not self._dot[i] and not self._owner[i]

    def score(self, player: Player) -> int:
        """The number of the opponent's dots inside ``player``'s bases (rule 5.1)."""
        return self._score[player]

    @property
    def free_count(self) -> int:
        """How many points are free (rule 6.3: the game ends when none is left)."""
        return self._free

    def free_points(self) -> Iterator[Point]:
        """Every free point, row 1 first."""
        dot, owner = self._dot, self._owner
        for point in self.points():
            i = self.index(point)
            if not dot[i] and not owner[i]:
                yield point

    def dots(self) -> Iterator[tuple[Point, Player]]:
        """Every dot on the board with its player, live or captured."""
        for point in self.points():
            value = self._dot[self.index(point)]
            if value:
                yield point, Player(value)

    @property
    def bases(self) -> list[Base]:
        """The bases standing now; a base swallowed by a bigger one (rule 4.5) is gone."""
        if self._base_cache is None:
            at = self.point_at
            self._base_cache = [
                Base(
                    Player(rec.owner),
                    tuple(at(i) for i in rec.ring),
                    frozenset(at(i) for i in rec.area),
                )
                for rec in self._bases
            ]
        return list(self._base_cache)

    def is_grounded(self, point: Point | str) -> bool:
        """Whether the dot is live and linked to the board's outer line (rule 8.1)."""
        i = self.index(self.point(point))
        player = self._live[i]
        if player not in (1, 2):
            return False
        return i in self._grounded(player)

    def grounded(self, player: Player) -> set[Point]:
        """Every live dot of ``player`` that is grounded (rule 8.1)."""
        return {self.point_at(i) for i in self._grounded(player)}

    def ungrounded(self, player: Player) -> list[Point]:
        """Every live dot of ``player`` that is not grounded: what a stop hands over (rule 8.2)."""
        grounded = self._grounded(player)
        live = self._live
        return sorted(
            (self.point_at(i) for i in range(len(live)) if live[i] == player and i not in grounded),
            key=lambda p: (p.y, p.x),
        )

    def _grounded(self, player: int) -> set[int]:
        live, edge, dirs = self._live, self._edge, self._dirs
        opponent = 3 - player
        seen = {i for i in range(len(live)) if live[i] == player and edge[i]}
        stack = list(seen)
        while stack:
            i = stack.pop()
            for k in range(8):
                j = i + dirs[k]
                if j in seen or live[j] != player:
                    continue
                # A diagonal link crossed by the opponent's diagonal link does not count.
                if (
                    k & 1
                    and live[i + dirs[k - 1]] == opponent
                    and live[i + dirs[(k + 1) & 7]] == (opponent)
                ):
                    continue
                seen.add(j)
                stack.append(j)
        return seen

    # -- placing ---------------------------------------------------------------------------

    def place(self, point: Point | str, player: Player) -> Placement:
        """Place a dot for ``player`` and resolve rules 4.1 to 4.6.

        Raises:
            InvalidPointError: a malformed point name.
            OffBoardError: the point is off this board.
            OccupiedError: the point holds a dot.
            InsideBaseError: the point lies inside a base.
        """
        point = self.point(point)
        i = self.index(point)
        if self._dot[i]:
            raise OccupiedError(point)
        if self._owner[i]:
            raise InsideBaseError(point)
        before = (self._score[1], self._score[2])
        made = self.place_index(i, Player(player))
        captured = sorted(
            {self.point_at(c) for rec in made for c in rec.area if self._dot[c]},
            key=lambda p: (p.y, p.x),
        )
        at = self.point_at
        bases = tuple(
            Base(
                Player(rec.owner),
                tuple(at(c) for c in rec.ring),
                frozenset(at(c) for c in rec.area),
            )
            for rec in made
        )
        return Placement(
            point,
            Player(player),
            bases,
            tuple(captured),
            self._score[1] - before[0],
            self._score[2] - before[1],
        )

    def place_index(self, i: int, player: int) -> list[_BaseRecord]:
        """Place a dot at array index ``i`` and resolve its captures; return the bases made.

        Fast path: the caller has checked that ``i`` is free (rule 2.2).
        """
        live = self._live
        self._dot[i] = player
        live[i] = player
        self._free -= 1
        made: list[_BaseRecord] = []
        self._journal.append(~i)
        new_rings = self._new_rings(i, player)
        if new_rings > 0:
            # Each base is made before the next ring is looked for (its dots stop being live).
            for ring, area in closed_rings(self._geometry, live, i, player, new_rings):
                made.append(self._make_base(player, ring, area, first=not made))
        if not made and not self._edge[i]:
            # Rule 4.4: a dot that made no base, played inside an empty ring of the opponent.
            taken_by = ring_around(self._geometry, live, i, player)
            if taken_by is not None:
                made.append(self._make_base(3 - player, *taken_by, first=True))
        if made:
            self._base_cache = None
            self._journal.append(_BASES_MADE)
        return made

    def undo(self) -> Point:
        """Take back the last dot placed, and everything it did; return its point.

        Reads the journal of what the dot changed (its chain links, and the points, scores and
        bases of the bases it made), so it costs what the dot cost, never a replay.

        Raises:
            IndexError: no dot has been placed.
        """
        journal = self._journal
        value = journal.pop()
        if value == _BASES_MADE:
            value = journal.pop()
            free, scores, standing, cells = self._base_journal.pop()
            owners, live = self._owner, self._live
            for k in range(len(cells) - 3, -1, -3):
                c = cells[k]
                owners[c] = cells[k + 1]
                live[c] = cells[k + 2]
            self._free = free
            self._score = scores
            self._bases = standing
            self._base_cache = None
        chain = self._chain
        while value >= 0:  # (index, old value) pairs down to the dot's own mark, ~index
            chain[journal.pop()] = value
            value = journal.pop()
        i = ~value
        chain[i] = i
        self._dot[i] = 0
        self._live[i] = 0
        self._free += 1
        return self.point_at(i)

    def _new_rings(self, i: int, player: int) -> int:
        """At most how many new rings the new dot closes (0: none, so nothing to trace).

        A new ring passes through two runs of the dot's own live neighbours that were already
        linked to each other; two runs that meet across a corner (N and E own, NE not) are
        linked directly and close nothing new. So the count is the runs, less those corners,
        less the separate chains they belong to.

        ``_chain`` is a union-find over every dot placed, linked as they were placed. A dot
        that dies is not taken out, so two dots in one set may no longer be linked: the count
        errs only upwards (more tracing), never towards missing a ring. Costs a few finds. Every
        write to ``_chain`` is logged in ``_journal`` as (index, old value), for ``undo``.
        """
        live, stride = self._live, self.stride
        # The own live neighbours as 8 bits, N first and clockwise (cheaper than a loop).
        a, b = i - stride, i + stride
        own = (
            (live[a] == player)
            | (live[a + 1] == player) << 1
            | (live[i + 1] == player) << 2
            | (live[b + 1] == player) << 3
            | (live[b] == player) << 4
            | (live[b - 1] == player) << 5
            | (live[i - 1] == player) << 6
            | (live[a - 1] == player) << 7
        )
        starts = RUN_STARTS[own]
        if not starts:
            return 0  # a free point's chain entry is itself already
        chain, dirs, writes = self._chain, self._dirs, self._journal
        roots: list[int] = []
        for k in starts:
            n = i + dirs[k]
            # Find the root of this run, halving the path on the way.
            while chain[n] != n:
                writes.append(n)
                writes.append(chain[n])
                chain[n] = chain[chain[n]]
                n = chain[n]
            roots.append(n)
        # The new dot joins the first run's set (no new root, so paths stay short).
        first = roots[0]
        chain[i] = first
        if len(roots) == 1:
            return 0
        for root in roots:
            if root != first:
                writes.append(root)
                writes.append(root)
                chain[root] = first
        return len(roots) - CORNERS[own] - len(set(roots))

    def _make_base(
        self, owner: int, ring: tuple[int, ...], area: frozenset[int], *, first: bool
    ) -> _BaseRecord:
        """Make a base (``claim``) and note what it changes, for ``undo``."""
        live, owners = self._live, self._owner
        if first:  # the dot's first base: note what its bases change, for ``undo``
            self._base_journal.append((self._free, self._score[:], self._bases, []))
        undo = self._base_journal[-1][3]
        for c in area:
            undo.extend((c, owners[c], live[c]))
        self._free -= claim(owner, area, live=live, dot=self._dot, owners=owners, score=self._score)
        # A base swallowed (rule 4.5) or merged into the new one is gone: its ring dots are
        # inside, or (ring dots shared with the new ring) its whole area is.
        self._bases = [
            rec for rec in self._bases if area.isdisjoint(rec.ring) and not rec.area <= area
        ]
        record = _BaseRecord(owner, ring, area)
        self._bases.append(record)
        return record

    # -- copies and pictures ---------------------------------------------------------------

    def copy(self) -> Board:
        """An independent copy of the position."""
        other = Board.__new__(Board)
        other.width, other.height, other.stride = self.width, self.height, self.stride
        other._live = self._live[:]
        other._dot = self._dot[:]
        other._owner = self._owner[:]
        other._geometry = self._geometry
        other._edge = self._edge
        other._dirs = self._dirs
        other._chain = self._chain[:]
        other._score = self._score[:]
        other._free = self._free
        other._bases = self._bases[:]
        other._base_cache = self._base_cache
        other._journal = self._journal[:]
        other._base_journal = self._base_journal[:]
        return other

    def picture(self) -> str:
        """The position as text, top row first: ``P``/``B`` live dots, ``p``/``b`` captured
        dots, ``.`` a free point, ``+``/``-`` an empty point inside a Pink/Blue base."""
        rows = []
        for y in reversed(range(self.height)):
            row = []
            for x in range(self.width):
                i = self.index(Point(x, y))
                value, owner = self._dot[i], self._owner[i]
                if value:
                    letter = "P" if value == 1 else "B"
                    row.append(letter if self._live[i] else letter.lower())
                else:
                    row.append(".+-"[owner])
            rows.append(" ".join(row))
        return "\n".join(rows)

    def __str__(self) -> str:
        """The text picture (``picture``)."""
        return self.picture()

    def __repr__(self) -> str:
        """``<Board 5x5 Pink 1 Blue 0 '..P../.PpP./..P../...../.....'>``: the size, the scores
        and the picture's rows, top row first, joined by ``/`` (like a FEN)."""
        return (
            f"<Board {self.width}x{self.height} Pink {self._score[1]} Blue {self._score[2]}"
            f" {self.picture().replace(' ', '').replace(chr(10), '/')!r}>"
        )

    @classmethod
    def from_moves(
        cls, moves: Iterable[tuple[Player, Point | str]], width: int = 10, height: int = 10
    ) -> Board:
        """A board after placing ``moves`` in order (for tests and analysis)."""
        board = cls(width, height)
        for player, point in moves:
            board.place(point, player)
        return board
