"""The animated replay: one frame per action, captures as they happen, the last frame held."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageSequence

from engine import Action, Game, Player, Point
from renderer import layout, render_gif, render_png
from renderer.demo import sample_game
from renderer.gif import frame_ms
from renderer.palette import PAPER, PINK_DARK
from tests.renderer.pixels import decode, near, pixel

P, B = Player.PINK, Player.BLUE


def frames(data: bytes) -> list[tuple[Image.Image, int]]:
    image = Image.open(io.BytesIO(data))
    assert image.format == "GIF"
    assert image.info.get("loop") == 0
    return [
        (frame.convert("RGB"), frame.info["duration"]) for frame in ImageSequence.Iterator(image)
    ]


def test_one_frame_per_action_and_the_last_held():
    game = Game(7, 7)
    for name in ("B2", "E5", "C3", "D4"):
        game.place(name)
    game.end()
    game.place("F6")
    game.end()
    assert game.is_over
    shown = frames(render_gif(game, move_ms=200, hold_ms=4000))
    assert len(shown) == len(game.actions) + 1
    assert [ms for _, ms in shown[1:-1]] == [200] * (len(game.actions) - 1)
    assert shown[-1][1] == 4000
    # Each dot appears in the frame of its move and not before.
    lay = layout(7, 7)
    for n, name in enumerate(("B2", "E5", "C3", "D4"), start=1):
        x, y = lay.centre(Point.parse(name))
        assert shown[n - 1][0].getpixel((x, y)) != shown[n][0].getpixel((x, y))


def test_a_capture_shows_in_the_frame_of_its_move():
    moves = [(B, "C3"), (P, "C4"), (P, "B3"), (P, "D3"), (P, "C2")]
    game = Game(5, 5)
    for player, name in moves:
        game.apply(Action("dot", player, Point.parse(name)))
    shown = frames(render_gif(game))
    lay = layout(5, 5)
    (ax, ay), (bx, by) = lay.centre(Point.parse("C4")), lay.centre(Point.parse("D3"))
    middle = ((ax + bx) / 2, (ay + by) / 2)
    assert not near(pixel(shown[-2][0], middle), PINK_DARK, 30)
    assert near(pixel(shown[-1][0], middle), PINK_DARK)
    cx, cy = lay.centre(Point.parse("C3"))
    assert not near(pixel(shown[-1][0], (cx + 8, cy + 8)), PAPER, 3)


def test_every_frame_is_the_picture_of_its_position():
    game = sample_game(10, 10, 10_000, seed=5)
    record = game.record
    assert game.board.bases, "the sample game should hold bases"
    shown = frames(render_gif(record))
    lay = layout(10, 10)
    board_box = (0, lay.header_height, lay.image_width, lay.image_height)
    replay = Game(10, 10)
    checked = 0
    for n, action in enumerate(record.actions, start=1):
        replay.apply(action)
        if n % 7 and n != len(record.actions):
            continue
        expected = decode(render_png(replay)).crop(board_box)
        assert ImageChops.difference(shown[n][0].crop(board_box), expected).getbbox() is None, n
        checked += 1
    assert checked > 5
    last = decode(render_png(game))
    assert ImageChops.difference(shown[-1][0], last).getbbox() is None


def test_a_stop_shows_the_dots_it_handed_over():
    game = Game(7, 7, rules="grounding")
    for name in ("C3", "A1", "C4", "A2", "D4", "A3", "D3", "A4", "E5", "A5"):
        game.place(name)
    game.end()
    assert game.handed_over
    shown = frames(render_gif(game))
    expected = decode(render_png(game))
    assert ImageChops.difference(shown[-1][0], expected).getbbox() is None


def test_a_whole_game_plays_in_about_forty_seconds():
    assert frame_ms(100) == 400
    assert frame_ms(1000) == 60 and frame_ms(1) == 600


def test_replays_of_many_games_end_on_the_picture_of_the_final_position():
    # Bases at the edges and corners, both players' captures, boards of several shapes.
    for seed, (width, height) in enumerate([(5, 5), (6, 9), (12, 5), (8, 8)]):
        game = sample_game(width, height, 10_000, seed=seed)
        shown = frames(render_gif(game))
        assert len(shown) == len(game.actions) + 1
        final = decode(render_png(game))
        assert ImageChops.difference(shown[-1][0], final).getbbox() is None, seed
