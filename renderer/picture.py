"""What a picture shows (a ``Scene`` read off a position) and how a region of it is painted."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from PIL import Image, ImageDraw
from PIL import _imaging as pillow_core

from engine import Base, Board, Game, Player, Point, StopPreview
from renderer import sprites
from renderer import words as headers
from renderer.header import Header, header_text, name_middles, name_x, status_middles, status_top
from renderer.layout import Layout
from renderer.palette import COLOURS, INK, LABEL, PAPER, Rgb
from renderer.paper import paper, tinted
from renderer.text import clean, font, stamp
from renderer.words import ENGLISH, Words

Box = tuple[int, int, int, int]

# Every picture allocates a few MB (the copy of the paper, the palette image). By default
# Pillow returns freed memory blocks to the system at once, so each picture page-faults its
# memory in again, about a fifth of the time of a large board. Keep a few freed blocks for
# reuse (a process-wide Pillow setting; PILLOW_BLOCKS_MAX in the environment can raise it).
_BLOCKS_KEPT = 8
try:
    if pillow_core.get_blocks_max() < _BLOCKS_KEPT:
        pillow_core.set_blocks_max(_BLOCKS_KEPT)
except AttributeError:  # pragma: no cover - a Pillow without the setting: slower, still right
    pass

Names = tuple[str, str] | Mapping[Player, str] | None
Clock = str | timedelta | float | None


class Shape:
    """A base in pixels: its owner, the polygon of its ring, the ring's lines and its box."""

    __slots__ = ("_strokes", "box", "owner", "polygon", "segments")

    def __init__(self, lay: Layout, base: Base) -> None:
        self.owner = base.owner
        self.polygon = [lay.centre(p) for p in base.ring]
        segments = []
        count = len(base.ring)
        for n, a in enumerate(base.ring):
            b = base.ring[(n + 1) % count]
            dx, dy = b.x - a.x, a.y - b.y  # pixel rows run downwards
            if dx < 0 or (dx == 0 and dy < 0):
                a, dx, dy = b, -dx, -dy
            px, py = lay.centre(a)
            segments.append((dx, dy, px, py))
        self.segments = segments
        xs = [x for x, _ in self.polygon]
        ys = [y for _, y in self.polygon]
        reach = lay.strong_line_width
        self.box: Box = (min(xs) - reach, min(ys) - reach, max(xs) + reach + 1, max(ys) + reach + 1)
        self._strokes: dict[int, list[tuple[Any, Any, tuple[int, int, int, int]]]] = {}

    def strokes(self, cell: int, width: int) -> list[tuple[Any, Any, tuple[int, int, int, int]]]:
        """The ring's lines ``width`` wide, ready to paste through Pillow's core:
        (colour block, mask, box)."""
        found = self._strokes.get(width)
        if found is None:
            found = []
            colour = COLOURS[self.owner].dark
            for dx, dy, px, py in self.segments:
                mask, mx, my = sprites.segment(dx, dy, cell, width)
                block = sprites.solid(mask.size, colour)
                x, y = px + mx, py + my
                found.append((block.im, mask.im, (x, y, x + mask.width, y + mask.height)))
            self._strokes[width] = found
        return found


@dataclass(slots=True)
class Scene:
    """Everything a picture of a position shows, in engine terms."""

    dots: dict[Point, tuple[Player, bool]]
    bases: list[tuple[Shape, bool]]
    last: Point | None
    marks: tuple[Point, ...]
    header: Header


def name_pair(names: Names, words: Words = ENGLISH) -> tuple[str, str]:
    """The players' names to show, Pink's first; the colour names when none are given."""
    if names is None:
        pink, blue = words.pink, words.blue
    elif isinstance(names, Mapping):
        pink = names.get(Player.PINK, words.pink)
        blue = names.get(Player.BLUE, words.blue)
    else:
        pink, blue = names
    shown = []
    for name, player in ((pink, Player.PINK), (blue, Player.BLUE)):
        text = " ".join(clean(str(name)).split())
        shown.append(text if any(c.isalnum() for c in text) else words.label(player))
    return shown[0], shown[1]


def clock_text(clock: Clock, words: Words = ENGLISH) -> str:
    """``"42 s"`` or ``"1:05"`` for a duration in seconds or a timedelta; a string as it is."""
    if clock is None:
        return ""
    if isinstance(clock, str):
        return clean(clock)
    seconds = clock.total_seconds() if isinstance(clock, timedelta) else float(clock)
    whole = max(0, math.ceil(seconds))
    if whole < 60:
        return words.seconds.format(s=whole)
    return f"{whole // 60}:{whole % 60:02d}"


def game_status(
    game: Game, names: tuple[str, str], clock: Clock, words: Words = ENGLISH
) -> tuple[str, Player | None]:
    """The second header line for ``game``: the result naming the winner, or whose turn it
    is with the clock."""
    result = game.result
    if result is not None:
        return headers.result_line(result, names, words), result.winner
    mover = game.to_move
    assert mover is not None
    line = headers.turn_line(
        mover,
        names,
        opponent_ended=mover.opponent in game.ended,
        clock=clock_text(clock, words),
        words=words,
    )
    return line, mover


_SHAPES: dict[tuple[Layout, Player, tuple[Point, ...]], Shape] = {}
# A shape takes a few kB; a game makes at most a few hundred bases, and the cache is emptied
# when full rather than kept in order (a miss costs a fraction of a millisecond).
_SHAPES_KEPT = 4_000


def shape_of(lay: Layout, base: Base) -> Shape:
    """The shape of ``base`` in ``lay`` (kept: a base's ring never changes while it stands)."""
    key = (lay, base.owner, base.ring)
    shape = _SHAPES.get(key)
    if shape is None:
        if len(_SHAPES) >= _SHAPES_KEPT:
            _SHAPES.clear()
        shape = _SHAPES[key] = Shape(lay, base)
    return shape


def shapes(
    lay: Layout, bases: Iterable[Base], fresh: Iterable[Base] = ()
) -> list[tuple[Shape, bool]]:
    """The bases to draw, each with whether it was made by the last dot."""
    rings = {base.ring for base in fresh}
    return [(shape_of(lay, base), base.ring in rings) for base in bases]


def board_dots(board: Board) -> dict[Point, tuple[Player, bool]]:
    """Every dot of ``board`` with its player and whether it is live."""
    live_at, index = board.live_at, board.index
    return {point: (player, live_at(index(point)) == player) for point, player in board.dots()}


def scene_of(
    lay: Layout,
    position: Game | Board,
    *,
    names: Names = None,
    clock: Clock = None,
    marks: Sequence[Point | str] = (),
    highlight_last: bool = True,
    status: str | None = None,
    preview: StopPreview | None = None,
    words: Words = ENGLISH,
    times: Mapping[Player, Clock] | None = None,
) -> Scene:
    """The scene of a game or a board (a board has no turn: its header shows the scores).

    ``status``, when given, replaces the header's second line (whose turn it is, or the result).
    ``preview`` shows what a stop would do (rule 8.2): its dots crossed, and a header that
    says it is a preview. ``words`` are the header's words (in the reader's language).
    ``times``: each player's time left on a game clock, shown after their
    score.
    """
    shown = name_pair(names, words)
    if preview is not None:
        marks = marks or preview.dots
        status = status or headers.preview_line(preview.player, shown, len(preview.dots), words)
    if isinstance(position, Game):
        board = position.board
        scores = (position.score(Player.PINK), position.score(Player.BLUE))
        line, player = game_status(position, shown, clock, words)
        placement = position.last_placement if highlight_last else None
        fresh = placement.bases if placement else ()
        last = placement.point if placement else None
        if not marks and position.handed_over:
            marks = position.handed_over
    else:
        board = position
        scores = (board.score(Player.PINK), board.score(Player.BLUE))
        line, player = clock_text(clock, words), None
        fresh, last = (), None
    if status is not None:
        line = clean(status)
        if preview is not None:
            player = preview.player
    return Scene(
        dots=board_dots(board),
        bases=shapes(lay, board.bases, fresh),
        last=last,
        marks=tuple(board.point(p) for p in marks),
        header=Header(
            shown,
            scores,
            line,
            player,
            None
            if times is None
            else (clock_text(times[Player.PINK], words), clock_text(times[Player.BLUE], words)),
        ),
    )


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def paint(lay: Layout, scene: Scene, box: Box | None = None, *, labels: bool = True) -> Image.Image:
    """The RGB picture of ``scene`` inside ``box`` (the whole picture by default)."""
    if box is None:
        box = (0, 0, lay.image_width, lay.image_height)
    canvas = _Canvas(lay, box, labels)
    if box[1] < lay.header_height:
        canvas.header(scene.header)
    shown = [(shape, fresh) for shape, fresh in scene.bases if _overlaps(shape.box, box)]
    for player in (Player.PINK, Player.BLUE):
        for fresh in (False, True):
            group = [s for s, f in shown if f is fresh and s.owner is player]
            canvas.tint(group, fresh=fresh)
    for shape, fresh in shown:
        canvas.ring(shape, fresh=fresh)
    canvas.dots(scene.dots)
    if scene.last is not None:
        canvas.stamp(scene.last, _marker(lay), INK)
    for point in scene.marks:
        halo, ink = _crosses(lay)
        canvas.stamp(point, halo, PAPER)
        canvas.stamp(point, ink, INK)
    return canvas.image


def _marker(lay: Layout) -> Image.Image:
    return sprites.ring(*lay.marker_radii)


def _crosses(lay: Layout) -> tuple[Image.Image, Image.Image]:
    half = lay.radius * 0.85
    width = max(2.0, lay.cell * 0.08)
    return sprites.cross(half + 1, width + 2.5), sprites.cross(half, width)


class _Canvas:
    """The pixels of one box of a picture, with the paper already laid down."""

    def __init__(self, lay: Layout, box: Box, labels: bool) -> None:
        self.lay = lay
        self.box = box
        self.labels = labels
        self.image = paper(lay, labels).crop(box)
        self.ox, self.oy = box[0], box[1]

    def tint(self, shapes: list[Shape], *, fresh: bool) -> None:
        """Shade the areas of one player's bases: the washed paper, copied through the
        polygons of their rings (one mask and one copy for them all)."""
        if not shapes:
            return
        box, lay = self.box, self.lay
        look = COLOURS[shapes[0].owner]
        layer = tinted(lay, self.labels, look.dot, look.strong if fresh else look.tint)
        x0 = max(box[0], min(shape.box[0] for shape in shapes))
        y0 = max(box[1], min(shape.box[1] for shape in shapes))
        x1 = min(box[2], max(shape.box[2] for shape in shapes))
        y1 = min(box[3], max(shape.box[3] for shape in shapes))
        if box == (0, 0, *layer.size) and (x1 - x0) * (y1 - y0) * 4 > layer.width * layer.height:
            # For bases spread over the board, copying through a mask of the whole picture
            # costs less than cutting their box out of the layer (fresh memory, page by page).
            x0, y0, x1, y1 = box
            source = layer
        else:
            source = layer.crop((x0, y0, x1, y1))
        # The polygons' edges need not be smooth: the rings' lines are drawn over them.
        mask = Image.new("1", (x1 - x0, y1 - y0), 0)
        draw = ImageDraw.Draw(mask)
        for shape in shapes:
            draw.polygon([(x - x0, y - y0) for x, y in shape.polygon], fill=1)
        self.image.paste(source, (x0 - self.ox, y0 - self.oy), mask)

    def ring(self, shape: Shape, *, fresh: bool) -> None:
        """Draw a base's ring: a line from each of its dots to the next."""
        lay, ox, oy = self.lay, self.ox, self.oy
        paste = self.image.im.paste
        for block, mask, (x0, y0, x1, y1) in shape.strokes(
            lay.cell, lay.strong_line_width if fresh else lay.line_width
        ):
            paste(block, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), mask)

    def dots(self, dots: dict[Point, tuple[Player, bool]]) -> None:
        """Draw the dots that reach into the box: live ones with a rim, captured ones faded."""
        lay, box = self.lay, self.box
        reach = lay.radius + 2
        cell = lay.cell
        x_first = max(0, math.ceil((box[0] - reach - lay.left) / cell))
        x_last = min(lay.width - 1, math.floor((box[2] + reach - lay.left) / cell))
        # Picture rows run downwards: row index r = height - 1 - y.
        r_first = max(0, math.ceil((box[1] - reach - lay.top) / cell))
        r_last = min(lay.height - 1, math.floor((box[3] + reach - lay.top) / cell))
        if x_first > x_last or r_first > r_last:
            return
        y_first, y_last = lay.height - 1 - r_last, lay.height - 1 - r_first
        disc = sprites.disc(lay.radius)
        mask = disc.im
        n = disc.width
        k = n // 2
        rim = max(1.0, lay.radius * 0.22)
        # Pasting through Pillow's core skips per-call checks that cost more than the paste.
        looks: dict[tuple[Player, bool], Any] = {}
        for player in (Player.PINK, Player.BLUE):
            colours = COLOURS[player]
            looks[player, True] = sprites.dot(lay.radius, colours.dot, colours.dark, rim).im
            looks[player, False] = colours.faded
        if (x_last - x_first + 1) * (y_last - y_first + 1) >= len(dots):
            items = [
                (p, v)
                for p, v in dots.items()
                if x_first <= p.x <= x_last and y_first <= p.y <= y_last
            ]
        else:
            items = []
            get = dots.get
            for y in range(y_first, y_last + 1):
                for x in range(x_first, x_last + 1):
                    point = Point(x, y)
                    value = get(point)
                    if value is not None:
                        items.append((point, value))
        paste = self.image.im.paste
        ox = lay.left - k - box[0]
        oy = lay.top + (lay.height - 1) * cell - k - box[1]
        for point, look in items:
            px = ox + point.x * cell
            py = oy - point.y * cell
            paste(looks[look], (px, py, px + n, py + n), mask)

    def stamp(self, point: Point, mask: Image.Image, colour: Rgb) -> None:
        """Paint ``colour`` through ``mask`` centred on ``point``."""
        px, py = self.lay.centre(point)
        k = mask.width // 2
        self.image.paste(colour, (px - k - self.ox, py - k - self.oy), mask)

    def header(self, header: Header) -> None:
        """Draw the names with their colours and scores, and the status lines below (the words
        laid out by ``renderer.header.header_text``)."""
        lay = self.lay
        size, small = lay.header_size, lay.status_size
        x0 = lay.header_left
        shown = header_text(lay, header)
        half = (lay.image_width - 2 * x0) / 2
        face = font(size)
        rows = name_middles(lay)
        # A box below the names (a replay frame's new move number) skips them.
        names_shown = self.box[1] < status_top(lay)
        for n, player in enumerate((Player.PINK, Player.BLUE) if names_shown else ()):
            x, y = (x0, rows[n]) if shown.stacked else (x0 + n * half, rows[0])
            self.swatch(player, size * 0.36, (x + size * 0.36, y))
            score = str(header.scores[n])
            time = f"  {header.times[n]}" if header.times else ""
            name = shown.names[n]
            self.text(name, size, (name_x(lay, x), y), INK)
            score_x = name_x(lay, x) + face.getlength(name) + size * 0.5
            self.text(score, size, (score_x, y), COLOURS[player].dark)
            if time:
                self.text(time, size, (score_x + face.getlength(score), y), LABEL)
        x = float(x0)
        lines = status_middles(lay)
        if header.status_player is not None:
            self.swatch(header.status_player, small * 0.3, (x + small * 0.3, lines[0]))
        for line, y in zip(shown.status, lines, strict=False):
            self.text(line, small, (x + small, y), LABEL)

    def text(self, text: str, size: int, at: tuple[float, float], colour: Rgb) -> None:
        """Write ``text`` with its left end and middle at ``at`` (picture pixels)."""
        if not text:
            return
        mask, dx, dy = stamp(text, size)
        self.image.paste(colour, (round(at[0]) + dx - self.ox, round(at[1]) + dy - self.oy), mask)

    def swatch(self, player: Player, radius: float, at: tuple[float, float]) -> None:
        """A dot of ``player``'s colours of ``radius`` at ``at`` (picture pixels)."""
        rounded = round(radius * 2) / 2
        mask = sprites.disc(rounded)
        colours = COLOURS[player]
        look = sprites.dot(rounded, colours.dot, colours.dark, max(1.0, rounded * 0.2))
        k = mask.width // 2
        position = (round(at[0]) - k - self.ox, round(at[1]) - k - self.oy)
        self.image.paste(look, position, mask)
