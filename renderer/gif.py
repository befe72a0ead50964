"""An animated replay of a whole game: one frame per action, the last frame held.

Frames are not drawn whole. After each action only the regions that changed are painted again
(the new dot, the last-move ring leaving the dot before, new bases, the header's status line
with the move number), and a frame stores only the box around what changed, with unchanged
pixels transparent. Pillow's own multi-frame GIF writer keeps every full frame in memory (1000
frames of a 39x32 board would take about 1 GB), so the file is put together here: Pillow
compresses each frame's pixels (LZW), this module writes the GIF blocks around them.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator

from PIL import Image, ImageChops

from engine import ActionKind, Game, Placement, Player, Record
from renderer import words as headers
from renderer.header import Header, fitted, status_box
from renderer.layout import Layout, layout
from renderer.palette import TRANSPARENT, palette_bytes, to_palette
from renderer.picture import Box, Names, Scene, name_pair, paint, scene_of, shapes
from renderer.words import ENGLISH, Words

_CHANGED = [0] + [255] * 255  # Image.point table: which palette differences are changes
HOLD_MS = 5000  # how long the last frame stays before the replay starts again
START_MS = 1000


def frame_ms(actions: int) -> int:
    """How long each move is shown: a whole game plays in about 40 seconds, but no move is
    shown for less than 60 ms or more than 600 ms."""
    return max(60, min(600, 10 * round(4_000 / max(1, actions))))


def render_gif(
    source: Record | Game,
    *,
    names: Names = None,
    move_ms: int | None = None,
    hold_ms: int = HOLD_MS,
    words: Words = ENGLISH,
) -> bytes:
    """An animated GIF replaying ``source`` (a record, or a game's record) action by action.

    Each frame shows the position after one action; captures appear as they happen and the
    last frame is held for ``hold_ms``. ``move_ms`` is each move's time on screen (by default
    a whole game takes about 40 seconds). ``words`` are the headers' words.

    Raises:
        DotsError: the record holds an illegal action.
    """
    record = source.record if isinstance(source, Game) else source
    game = Game.at_start(record)
    shown = name_pair(names, words)
    final = source if isinstance(source, Game) else Game.replay(record)
    lay = fitted(layout(record.width, record.height), _every_header(record, final, shown, words))
    delay = move_ms if move_ms is not None else frame_ms(len(record.actions))
    writer = _Writer(lay)
    scene = scene_of(lay, game, names=shown, words=words)
    counts = headers.played(record.actions)
    scene.header = _header(game, shown, 0, counts, words)
    canvas = to_palette(paint(lay, scene))
    writer.add(canvas.copy(), (0, 0, *lay.size), START_MS if record.actions else hold_ms)
    placed = 0
    for n, action in enumerate(record.actions, start=1):
        before = scene
        placement = game.apply(action)
        placed += action.kind == ActionKind.DOT
        header = _header(game, shown, placed, counts, words)
        scene = _next_scene(lay, game, before, placement, header)
        boxes = list(_changes(lay, before, scene, game, placement))
        previous = {box: canvas.crop(box) for box in boxes}
        for box in boxes:
            canvas.paste(to_palette(paint(lay, scene, box)), box[:2])
        last = n == len(record.actions)
        writer.add_change(canvas, previous, hold_ms if last else delay)
    return writer.finish()


def _header(
    game: Game,
    names: tuple[str, str],
    placed: int,
    played: tuple[int, int],
    words: Words = ENGLISH,
) -> Header:
    """A frame's header once ``placed`` of the game's ``played`` (dots, ends) dots are on the
    board: the scores, and the dot it shows (or the result, on the last)."""
    scores = (game.score(Player.PINK), game.score(Player.BLUE))
    if game.result is not None:
        return Header(names, scores, headers.result_line(game.result, names, words), game.winner)
    line = headers.replay_line(placed, played, names, game.ended, game.rules, words)
    return Header(names, scores, line)


def _every_header(
    record: Record, final: Game, names: tuple[str, str], words: Words
) -> Iterator[Header]:
    """The headers of a replay's frames, as wide as each can be: the frames share one layout,
    which must hold the longest of them uncut. A frame's dot number is at most the number of
    dots (digits are all as wide in the font), so the last dot stands for every one."""
    played = headers.played(record.actions)
    total = played[0]
    scores = (final.score(Player.PINK), final.score(Player.BLUE))
    yield Header(
        names, scores, headers.replay_line(0, played, names, frozenset(), record.rules, words)
    )
    ended: set[Player] = set()
    seen: set[frozenset[Player]] = set()
    for action in record.actions:
        if frozenset(ended) not in seen:
            seen.add(frozenset(ended))
            line = headers.replay_line(total, played, names, frozenset(ended), record.rules, words)
            yield Header(names, scores, line)
        if action.kind == ActionKind.END:
            ended.add(action.player)
    if final.result is not None:
        yield Header(names, scores, headers.result_line(final.result, names, words), final.winner)
    elif frozenset(ended) not in seen:  # the last frame of a game still running
        line = headers.replay_line(total, played, names, frozenset(ended), record.rules, words)
        yield Header(names, scores, line)


def _next_scene(
    lay: Layout, game: Game, before: Scene, placement: Placement | None, header: Header
) -> Scene:
    """The scene after one action, updated from the scene before (cheaper than reading the
    whole board again)."""
    board = game.board
    dots = before.dots
    bases = before.bases
    last = before.last
    if placement is not None:
        live_at, index = board.live_at, board.index
        point = placement.point
        dots[point] = (placement.player, live_at(index(point)) == placement.player)
        for captured in placement.captured:
            dots[captured] = (dots[captured][0], False)
        last = point
        if placement.bases or any(fresh for _, fresh in bases):
            bases = shapes(lay, board.bases, placement.bases)
    marks = game.handed_over if game.is_over else ()
    return Scene(dots, bases, last, marks, header)


def _changes(
    lay: Layout, before: Scene, after: Scene, game: Game, placement: Placement | None
) -> Iterator[Box]:
    """The boxes of the picture that differ between two scenes one action apart."""
    old, new = before.header, after.header
    if old != new:
        # Most frames change only the status line's move number: repaint just that strip.
        same_top = (old.names, old.scores, old.status_player) == (
            new.names,
            new.scores,
            new.status_player,
        )
        yield status_box(lay) if same_top else (0, 0, lay.image_width, lay.header_height)
    reach = lay.marker_reach
    for point in {before.last, after.last} - {None}:
        if point is not None and before.last != after.last:
            yield _clip(lay, lay.point_box(point, reach))
    if after.bases is not before.bases:
        # Bases that lost their emphasis, new bases, and bases swallowed by a new one (those
        # lie inside a new base's box).
        standing = {shape for shape, _ in before.bases}
        changed = {shape.box for shape, fresh in before.bases if fresh}
        changed |= {shape.box for shape, fresh in after.bases if fresh or shape not in standing}
        for box in changed:
            yield _clip(lay, (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2))
    for point in after.marks:
        yield _clip(lay, lay.point_box(point, reach))


def _clip(lay: Layout, box: Box) -> Box:
    return (
        max(0, box[0]),
        max(0, box[1]),
        min(lay.image_width, box[2]),
        min(lay.image_height, box[3]),
    )


class _Writer:
    """Writes GIF blocks: one colour table for all frames, each frame a box of changes."""

    def __init__(self, lay: Layout) -> None:
        self.out = io.BytesIO()
        self.out.write(b"GIF89a")
        # Global colour table of 256 entries (flag 0x80, colour resolution 7, size 7).
        self.out.write(struct.pack("<HHBBB", lay.image_width, lay.image_height, 0xF7, 0, 0))
        self.out.write(palette_bytes())
        # Loop forever (the Netscape extension).
        self.out.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")
        self.pending: tuple[Image.Image, int, int, bool] | None = None
        self.pending_ms = 0

    def add(self, image: Image.Image, box: Box, ms: int, *, transparent: bool = False) -> None:
        """Queue ``image`` (the pixels of ``box``) as the next frame, shown for ``ms``."""
        self._flush()
        self.pending = (image, box[0], box[1], transparent)
        self.pending_ms = ms

    def add_change(self, canvas: Image.Image, previous: dict[Box, Image.Image], ms: int) -> None:
        """Queue the next frame from ``canvas`` and the pixels its changed boxes held before;
        an action that changed nothing lengthens the frame before."""
        # Each box is compared on its own (the boxes are small; the box around all of them,
        # from the header's status line down to the move, is mostly untouched).
        changes = []
        for box, pixels in previous.items():
            new = canvas.crop(box)
            changed = ImageChops.subtract_modulo(new, pixels)
            inner = changed.getbbox()
            if inner is not None:
                mask = changed.point(_CHANGED, "1")
                changes.append((box, new, mask, inner))
        if not changes:
            self.pending_ms += ms
            return
        left = min(box[0] + inner[0] for box, _, _, inner in changes)
        top = min(box[1] + inner[1] for box, _, _, inner in changes)
        right = max(box[0] + inner[2] for box, _, _, inner in changes)
        bottom = max(box[1] + inner[3] for box, _, _, inner in changes)
        frame = Image.new("P", (right - left, bottom - top), TRANSPARENT)
        frame.putpalette(canvas.getpalette() or [])
        for box, new, mask, _ in changes:
            frame.paste(new, (box[0] - left, box[1] - top), mask)
        self.add(frame, (left, top, 0, 0), ms, transparent=True)

    def _flush(self) -> None:
        if self.pending is None:
            return
        image, x, y, transparent = self.pending
        centiseconds = max(2, round(self.pending_ms / 10))
        flags = (1 << 2) | (1 if transparent else 0)  # disposal 1: leave the frame in place
        self.out.write(b"\x21\xf9\x04" + struct.pack("<BHB", flags, centiseconds, TRANSPARENT))
        self.out.write(b"\x00")
        self.out.write(b"\x2c" + struct.pack("<HHHHB", x, y, image.width, image.height, 0))
        self.out.write(_pixel_data(image))
        self.pending = None

    def finish(self) -> bytes:
        """The whole file."""
        self._flush()
        self.out.write(b"\x3b")
        return self.out.getvalue()


def _pixel_data(image: Image.Image) -> bytes:
    """The LZW-compressed pixels of ``image`` as GIF sub-blocks (code size byte first),
    taken from a one-frame GIF written by Pillow with the same palette."""
    # The frames are crops of a picture mapped onto the fixed palette, so the indices written
    # are indices into the global colour table.
    buffer = io.BytesIO()
    image.save(buffer, format="GIF", optimize=False, interlace=False)
    data = buffer.getvalue()
    at = 13
    if data[10] & 0x80:
        at += 3 << ((data[10] & 7) + 1)
    while data[at] == 0x21:  # extensions: label, then sub-blocks up to an empty one
        at += 2
        while data[at]:
            at += data[at] + 1
        at += 1
    if data[at] != 0x2C:  # pragma: no cover - Pillow wrote something unexpected
        raise AssertionError("no image in Pillow's GIF")
    packed = data[at + 9]
    at += 10
    if packed & 0xC0:  # pragma: no cover - a local colour table, or interlaced rows
        raise AssertionError("Pillow wrote a local colour table or interlaced rows")
    start = at
    at += 1
    while data[at]:
        at += data[at] + 1
    return data[start : at + 1]
