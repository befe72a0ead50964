"""The point picker: Place a dot on a game card opens, privately for the player to move, a
zoomed picture of a window of the board with its points as buttons (free ones enabled, named
like ``E5``), and a row to move the window or jump to any part of the board.

The board is cut into tiles of ``COLUMNS`` x ``ROWS`` points (a window shows one tile: four
rows of five buttons, and a fifth row to navigate, within Discord's 25 buttons). A board of
at most six tiles (10x10) lists the other tiles in the fifth row: any point is two clicks
away. A larger one has arrows and Jump, which shows the board as a grid of at most 5x4 cells,
each a tile or a block of tiles (a block opens the grid of its tiles): any point of 39x32 is
four clicks away (Jump, a block, a tile, the point).

Every button carries the position it was made for (the game's number of actions): a pick after
the game moved on is refused with a fresh picker. ``/move B7`` is unchanged.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

import discord

from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import deferred_if_slow
from bot.cogs.locales import user_locale
from bot.cogs.on_card import lives_on_card, note_interaction
from bot.cogs.outcomes import announce
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.play import check_move, check_turn
from bot.cogs.posting import picture_file
from bot.cogs.posts import edit_original, follow_up
from bot.games import GameView, Refusal
from bot.i18n import N_, _, translate
from engine import Point
from renderer.zoom import Window, zoom_png

log = logging.getLogger(__name__)

COLUMNS, ROWS = 5, 4  # the points of a window (a tile)
GRID_COLUMNS, GRID_ROWS = 5, 4  # the cells of a jump grid
DIRECT_TILES = 6  # a board of this many tiles or fewer lists them all in the navigation row
ZOOM_FILE = "zoom.png"


# -- the geometry ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tiles:
    """The tiles of a ``width`` x ``height`` board: tile (i, j) holds columns ``5i..5i+4`` and
    rows ``4j..4j+3`` (cut at the board's edge)."""

    width: int
    height: int

    @property
    def across(self) -> int:
        """How many tiles a row of tiles holds."""
        return math.ceil(self.width / COLUMNS)

    @property
    def down(self) -> int:
        """How many rows of tiles the board holds."""
        return math.ceil(self.height / ROWS)

    def window(self, i0: int, j0: int, i1: int | None = None, j1: int | None = None) -> Window:
        """The points of tiles ``i0..i1`` x ``j0..j1`` (one tile when only one is given)."""
        i1 = i0 if i1 is None else i1
        j1 = j0 if j1 is None else j1
        return Window(
            i0 * COLUMNS,
            j0 * ROWS,
            min((i1 + 1) * COLUMNS, self.width) - 1,
            min((j1 + 1) * ROWS, self.height) - 1,
        )

    def of(self, point: Point) -> tuple[int, int]:
        """The tile holding ``point``."""
        return point.x // COLUMNS, point.y // ROWS

    def contains(self, i: int, j: int) -> bool:
        """Whether (i, j) is a tile of the board."""
        return 0 <= i < self.across and 0 <= j < self.down

    def cells(self, i0: int, j0: int, i1: int, j1: int) -> list[list[tuple[int, int, int, int]]]:
        """The jump grid of tiles ``i0..i1`` x ``j0..j1``: at most ``GRID_ROWS`` rows of at
        most ``GRID_COLUMNS`` cells, each a block of tiles (i0, j0, i1, j1), top row first."""
        across, down = i1 - i0 + 1, j1 - j0 + 1
        wide = math.ceil(across / min(across, GRID_COLUMNS))
        tall = math.ceil(down / min(down, GRID_ROWS))
        rows = []
        for top in range(j1, j0 - 1, -tall):
            bottom = max(top - tall + 1, j0)
            rows.append([(i, bottom, min(i + wide - 1, i1), top) for i in range(i0, i1 + 1, wide)])
        return rows


def window_label(window: Window) -> str:
    """A window's points, e.g. ``"F5–J8"`` (its bottom-left and top-right corners)."""
    return f"{Point(window.x0, window.y0).name}–{Point(window.x1, window.y1).name}"


def start_tile(view: GameView) -> tuple[int, int]:
    """The tile a picker opens on: the last dot's, else the board's centre's."""
    board = view.game.board
    tiles = Tiles(board.width, board.height)
    last = next((a.point for a in reversed(view.game.actions) if a.point is not None), None)
    return tiles.of(last or Point(board.width // 2, board.height // 2))


# -- the buttons -------------------------------------------------------------------------------

_POSITION = (("moves", "[0-9]{1,6}"),)
_NUMBER = "[0-9]{1,12}"
_FOUR = tuple((name, _NUMBER) for name in ("a", "b", "c", "d"))


class PickPoint(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId("dots:dot", ("play",), fields=(*_POSITION, ("x", _NUMBER), ("y", _NUMBER))),
):
    """A point of the picker's window: places the dot, if the game has not moved on."""

    def __init__(
        self, action: str, key: Any, /, *, moves: int = 0, x: int = 0, y: int = 0, **options: Any
    ) -> None:
        self.moves, self.point = moves, Point(x, y)
        super().__init__(action, key, **options)

    def component(self, *, free: bool = True, **options: Any) -> discord.ui.Button[Any]:
        """The point's button: its name, enabled when the point is free."""
        return discord.ui.Button(
            label=self.point.name,
            style=discord.ButtonStyle.primary if free else discord.ButtonStyle.secondary,
            disabled=not free,
            custom_id=self.made_id(moves=self.moves, x=self.point.x, y=self.point.y),
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Place the dot; a stale pick gets a fresh picker instead."""
        bot = bot_of(interaction)
        view = await bot.service.game(self.key)
        check_turn(interaction, view)
        if lives_on_card(view):
            note_interaction(bot, view.game_id, interaction)  # it carries the new card
        if not self.point.is_on(view.game.board.width, view.game.board.height):
            raise Refusal(N_("this button is not one I know: nothing changed"))
        if self.moves != len(view.game.actions):
            moved = N_("The game moved on since this picker was opened: here it is now.")
            await show_picker(interaction, view, *start_tile(view), note=moved)
            return
        check_move(interaction, view, self.point.name)  # refused privately, before deferring
        await place_picked(interaction, bot, view, self.point)


class PickerMove(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId("dots:zoom", ("win", "grid"), fields=(*_POSITION, *_FOUR)),
):
    """A navigation button: show tile (a, b) (``win``), or the jump grid of tiles ``a..c`` x
    ``b..d`` (``grid``)."""

    def __init__(
        self,
        action: str,
        key: Any,
        /,
        *,
        moves: int = 0,
        a: int = 0,
        b: int = 0,
        c: int = 0,
        d: int = 0,
        **options: Any,
    ) -> None:
        self.moves, self.box = moves, (a, b, c, d)
        super().__init__(action, key, **options)

    def component(self, *, label: str = "", **options: Any) -> discord.ui.Button[Any]:
        """The button, labelled ``label``."""
        a, b, c, d = self.box
        return discord.ui.Button(
            label=label or "…",
            style=discord.ButtonStyle.secondary,
            custom_id=self.made_id(moves=self.moves, a=a, b=b, c=c, d=d),
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Show the tile or the grid (a fresh picker when the game moved on)."""
        view = await bot_of(interaction).service.game(self.key)
        check_turn(interaction, view)
        tiles = Tiles(view.game.board.width, view.game.board.height)
        (a, b, c, d), kind, note = self.box, self.action, None
        if self.moves != len(view.game.actions):
            note = N_("The game moved on since this picker was opened: here it is now.")
            (a, b), kind = start_tile(view), "win"
        if kind == "grid" and tiles.contains(a, b) and tiles.contains(c, d) and a <= c and b <= d:
            await show_picker(interaction, view, a, b, grid=(a, b, c, d), note=note)
            return
        if not tiles.contains(a, b):
            a, b = start_tile(view)
        await show_picker(interaction, view, a, b, note=note)


# -- the picker --------------------------------------------------------------------------------


async def open_picker(interaction: discord.Interaction[Any], view: GameView) -> None:
    """Place a dot: the picker, privately, for the player to move (refused to anyone else)."""
    check_turn(interaction, view)
    await interaction.response.defer(thinking=True, ephemeral=True)
    i, j = start_tile(view)
    layout, files = await picker_layout(bot_of(interaction), interaction, view, i, j)
    await follow_up(interaction, view=layout, files=files, ephemeral=True)


class Shown(TypedDict, total=False):
    """What a picker shows besides its tile: the jump grid of the tiles ``grid`` instead of
    the tile, and a ``note`` above it."""

    grid: tuple[int, int, int, int] | None
    note: str | None


async def show_picker(
    interaction: discord.Interaction[Any], view: GameView, i: int, j: int, **extra: Unpack[Shown]
) -> None:
    """Turn the clicked picker into tile (i, j), or the jump grid ``grid`` (a silent deferral
    first: the picture takes a moment)."""
    await interaction.response.defer()
    layout, files = await picker_layout(bot_of(interaction), interaction, view, i, j, **extra)
    await edit_original(interaction, view=layout, attachments=files)


async def picker_layout(
    bot: GameBot,
    interaction: discord.Interaction[Any],
    view: GameView,
    i: int,
    j: int,
    **extra: Unpack[Shown],
) -> tuple[discord.ui.LayoutView, list[discord.File]]:
    """The picker of tile (i, j), or of the jump grid of the tiles ``grid``: its text, its
    zoomed picture and its buttons, with the picture's file."""
    grid, note = extra.get("grid"), extra.get("note")
    locale = user_locale(interaction)
    board = view.game.board
    tiles = Tiles(board.width, board.height)
    moves = len(view.game.actions)
    shown = tiles.window(*grid) if grid else tiles.window(i, j)
    picture = await picture_file(bot, view, locale=locale)
    png = await asyncio.to_thread(zoom_png, picture.fp.read(), board.width, board.height, shown)
    file = discord.File(io.BytesIO(png), filename=ZOOM_FILE)
    if grid:
        ask = _("Game #{game_id}: which part of the board?", game_id=view.game_id)
    else:
        ask = _(
            "Game #{game_id}: pick a point ({window})",
            game_id=view.game_id,
            window=window_label(shown),
        )
    lines = [translate(locale, note)] if note else []
    lines.append(translate(locale, ask))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay("\n".join(lines)))
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery()
    gallery.add_item(media=file)
    layout.add_item(gallery)
    rows = grid_rows(view, tiles, grid, moves) if grid else point_rows(view, shown, moves)
    for row in rows:
        layout.add_item(discord.ui.ActionRow(*row))
    back = translate(locale, N_("Back"))
    navigation = (
        [PickerMove("win", view.game_id, moves=moves, a=i, b=j, label=back)]
        if grid
        else window_navigation(view, tiles, i, j, moves, locale)
    )
    if navigation:
        layout.add_item(discord.ui.ActionRow(*navigation))
    return layout, [file]


def point_rows(view: GameView, window: Window, moves: int) -> list[list[PickPoint]]:
    """The window's points as buttons, the top row first."""
    board = view.game.board
    return [
        [
            PickPoint("play", view.game_id, moves=moves, x=x, y=y, free=board.is_free(Point(x, y)))
            for x in range(window.x0, window.x1 + 1)
        ]
        for y in range(window.y1, window.y0 - 1, -1)
    ]


def grid_rows(
    view: GameView, tiles: Tiles, grid: tuple[int, int, int, int], moves: int
) -> list[list[PickerMove]]:
    """The jump grid's cells as buttons, labelled with their points: a tile shows its window,
    a block of tiles its own grid."""
    rows = []
    for cells in tiles.cells(*grid):
        row = []
        for a, b, c, d in cells:
            label = window_label(tiles.window(a, b, c, d))
            kind = "win" if (a, b) == (c, d) else "grid"
            row.append(PickerMove(kind, view.game_id, moves=moves, a=a, b=b, c=c, d=d, label=label))
        rows.append(row)
    return rows


def window_navigation(  # noqa: PLR0917 (the window and where it is)
    view: GameView, tiles: Tiles, i: int, j: int, moves: int, locale: str
) -> list[PickerMove]:
    """The fifth row under a window: every other tile of a small board, else the arrows to
    the neighbouring tiles and Jump."""
    game_id = view.game_id
    if tiles.across * tiles.down <= DIRECT_TILES:
        return [
            PickerMove(
                "win", game_id, moves=moves, a=a, b=b, label=window_label(tiles.window(a, b))
            )
            for b in range(tiles.down - 1, -1, -1)
            for a in range(tiles.across)
            if (a, b) != (i, j)
        ]
    arrows = [("◀", i - 1, j), ("▲", i, j + 1), ("▼", i, j - 1), ("▶", i + 1, j)]
    row = [
        PickerMove("win", game_id, moves=moves, a=a, b=b, label=arrow)
        for arrow, a, b in arrows
        if tiles.contains(a, b)
    ]
    whole = (0, 0, tiles.across - 1, tiles.down - 1)
    a, b, c, d = whole
    jump = translate(locale, N_("Jump"))
    row.append(PickerMove("grid", game_id, moves=moves, a=a, b=b, c=c, d=d, label=jump))
    return row


async def place_picked(
    interaction: discord.Interaction[Any], bot: GameBot, view: GameView, point: Point
) -> None:
    """Place the picked dot: the picker says so, the new card goes to the game's thread (or,
    for a game that lives on its card, follows this click)."""
    with bot.posts.pending(view.game_id):
        outcome, acknowledged = await deferred_if_slow(
            interaction,
            bot.service.place(game_id=view.game_id, user_id=interaction.user.id, point=point.name),
            update=True,
            contended=bot.posts.others(view.game_id),
        )
        await announce(bot, outcome)
    locale = user_locale(interaction)
    played = _("Played {point} in game #{game_id}.", point=point.name, game_id=view.game_id)
    done = discord.ui.LayoutView(timeout=None)
    done.add_item(discord.ui.TextDisplay(translate(locale, played)))
    if acknowledged:
        await edit_original(interaction, view=done, attachments=[])
