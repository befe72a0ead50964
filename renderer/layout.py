"""Where things go in a picture: the size of a cell, the margins, the header, a point's pixel."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine import Point

MIN_IMAGE_WIDTH = 480  # room for the header on the smallest boards
ROW_STEP = 1.3  # from one line of the header to the next, in sizes of its font


@dataclass(frozen=True, slots=True)
class Layout:
    """The geometry of a picture of a ``width`` x ``height`` board (all lengths in pixels).

    The dot of a point is centred on the pixel ``centre(point)`` (on that pixel's middle).
    The header holds ``name_rows`` lines of names (1: side by side; 2: one a line) and
    ``status_rows`` lines of status, from ``header_left`` pixels in from either side.
    """

    width: int
    height: int
    cell: int
    radius: float
    left: int
    top: int
    image_width: int
    image_height: int
    header_height: int
    label_size: int
    label_gap: float
    header_size: int
    status_size: int
    line_width: int
    strong_line_width: int
    header_left: int
    name_rows: int
    status_rows: int

    def centre(self, point: Point) -> tuple[int, int]:
        """The pixel at the middle of ``point``'s dot."""
        return self.left + point.x * self.cell, self.top + (self.height - 1 - point.y) * self.cell

    @property
    def right(self) -> int:
        """The x of the last column's centre."""
        return self.left + (self.width - 1) * self.cell

    @property
    def bottom(self) -> int:
        """The y of row 1's centre."""
        return self.top + (self.height - 1) * self.cell

    @property
    def size(self) -> tuple[int, int]:
        """The picture's (width, height)."""
        return self.image_width, self.image_height

    def column_label_centres(self, x: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where column ``x``'s letters go, above and below the board."""
        cx = self.left + x * self.cell + 0.5
        return (cx, self.top - self.label_gap + 0.5), (cx, self.bottom + self.label_gap + 0.5)

    def row_label_centres(self, y: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """Where row ``y``'s number goes (0-based from the bottom), left and right of the board."""
        cy = self.top + (self.height - 1 - y) * self.cell + 0.5
        return (self.left - self.label_gap + 0.5, cy), (self.right + self.label_gap + 0.5, cy)

    def point_box(self, point: Point, reach: float) -> tuple[int, int, int, int]:
        """The pixel box (left, top, right, bottom; right and bottom excluded) of everything
        drawn within ``reach`` pixels of ``point``'s centre."""
        cx, cy = self.centre(point)
        r = int(reach) + 2
        return cx - r, cy - r, cx + r + 1, cy + r + 1

    @property
    def marker_radii(self) -> tuple[float, float]:
        """The inner and outer radius of the ring around the last dot placed."""
        inner = self.radius + max(1.5, self.cell * 0.06)
        # At least 3 px: the small cells of a big board are shown small on a phone.
        return inner, inner + max(3.0, self.cell * 0.08)

    @property
    def marker_reach(self) -> float:
        """How far from a dot's centre its decorations (last-move ring, cross) reach."""
        return self.marker_radii[1] + 2


def label_share(longest: int, *, letters: int = 1) -> float:
    """How much of a cell a board label's font takes on a board ``longest`` points across:
    0.42 up to 10, growing to 0.75 at 20 and over; 0.55 at most when column labels have
    two ``letters`` (over 26 columns: ``AA``), so that neighbours never touch."""
    share = min(0.75, 0.42 + max(0, longest - 10) * 0.033)
    return share if letters == 1 else min(share, 0.55)


@cache
def layout(width: int, height: int, *, name_rows: int = 1, status_rows: int = 1) -> Layout:
    """The geometry of a picture of a ``width`` x ``height`` board (cached per size), with
    room in its header for ``name_rows`` lines of names and ``status_rows`` of status
    (``renderer.header.fitted`` says how many a header needs)."""
    longest = max(width, height)
    # 10x10 comes out 574 px wide, 39x32 980 px and 52x52 1290 px.
    cell = max(24, min(60, 468 // (longest - 1)))
    radius = cell * 0.27
    # A bigger board is shown smaller on a phone (about 360 px wide): its labels take more of
    # a cell, from 0.42 of it on 10x10 to 0.75 on 20x20 (a capital 8-9 px tall at 360 px, as
    # on 10x10), at most 18 px. Boards over 20 wide get a zoomed view on their card instead.
    label_size = max(11, min(18, round(cell * label_share(longest, letters=1 + (width > 26)))))
    label_gap = radius + 4 + label_size * 0.8  # from the outer line to a label's middle
    margin = round(label_gap + label_size * 0.8 + 6)
    board_width = (width - 1) * cell + 2 * margin
    image_width = max(MIN_IMAGE_WIDTH, board_width)
    # The header grows with the board as the labels do (10x10 and smaller as before).
    header_size = max(16, min(26, round(image_width / 32 + max(0, longest - 10) * 0.4)))
    status_size = round(header_size * 0.85)
    more_lines = (name_rows - 1) * header_size + (status_rows - 1) * status_size
    header_height = round(
        header_size * 1.35 + status_size * 1.35 + header_size * 0.9 + more_lines * ROW_STEP
    )
    left = (image_width - board_width) // 2 + margin
    # The header starts where the row numbers do, but no further in than 16 px: on a small
    # board, centred in a wider picture, its words take the picture's whole width.
    header_left = max(10, min(16, round(left - label_gap - label_size * 0.6)))
    top = header_height + margin
    image_height = top + (height - 1) * cell + margin
    line_width = max(2, round(cell * 0.11))
    return Layout(
        width=width,
        height=height,
        cell=cell,
        radius=radius,
        left=left,
        top=top,
        image_width=image_width,
        image_height=image_height,
        header_height=header_height,
        label_size=label_size,
        label_gap=label_gap,
        header_size=header_size,
        status_size=status_size,
        line_width=line_width,
        strong_line_width=max(line_width + 1, round(line_width * 1.6)),
        header_left=header_left,
        name_rows=name_rows,
        status_rows=status_rows,
    )
