"""The header line of each picture names what it shows: the winner by name,
the move a replay frame shows, and a stop's preview as a preview."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageSequence

from engine import Action, Game, Player, Point
from renderer import layout, render_gif, render_png, words
from renderer.palette import to_palette
from renderer.picture import Header, paint, scene_of
from tests.renderer.pixels import decode

P, B = Player.PINK, Player.BLUE
NAMES = ("alice", "bob")


def header_of(png: bytes, game: Game) -> Image.Image:
    lay = layout(game.width, game.height)
    return decode(png).crop((0, 0, lay.image_width, lay.header_height))


def grounding_game() -> Game:
    """Both players have placed five dots; Blue to move, whose F5 is not grounded."""
    game = Game(10, 10, rules="grounding")
    for name in ("A1", "J10", "A2", "J9", "A3", "J8", "A4", "J7", "E5", "F5", "F6"):
        game.place(name)
    return game


def test_the_result_line_names_the_winner() -> None:
    game = grounding_game()
    game.resign(B)
    lay = layout(10, 10)
    assert scene_of(lay, game, names=NAMES).header.status == "alice wins 0–0 (resignation)"
    shown = header_of(render_png(game, names=NAMES), game)
    said = header_of(render_png(game, names=NAMES, status="alice wins 0–0 (resignation)"), game)
    by_colour = header_of(render_png(game, names=NAMES, status="Pink wins 0–0 (resignation)"), game)
    assert ImageChops.difference(shown, said).getbbox() is None
    assert ImageChops.difference(shown, by_colour).getbbox() is not None


def test_a_draw_and_a_score_are_said_winner_first() -> None:
    game = Game(7, 7)
    game.end()
    game.end()
    result = game.result
    assert result is not None
    assert words.result_line(result, NAMES) == "Draw 0–0 (both ended)"
    game = Game(7, 7)
    for player, name in [(B, "C3"), (P, "C4"), (P, "B3"), (P, "D3"), (P, "C2")]:
        game.apply(Action("dot", player, Point.parse(name)))
    game.resign(P)
    assert game.result is not None and words.result_line(game.result, NAMES) == (
        "bob wins 0–1 (resignation)"
    )


def test_the_stop_preview_is_marked_as_a_preview() -> None:
    game = grounding_game()
    preview = game.stop_preview()
    assert preview.player is B and preview.dots == (Point.parse("F5"),)
    lay = layout(10, 10)
    scene = scene_of(lay, game, names=NAMES, preview=preview)
    assert scene.header.status == "Preview: if bob stops now, alice gets 1 dot"
    assert scene.marks == preview.dots and scene.header.status_player is B
    shown = decode(render_png(game, names=NAMES, preview=preview))
    said = decode(render_png(game, names=NAMES, marks=preview.dots, status=scene.header.status))
    as_a_turn = decode(render_png(game, names=NAMES, marks=preview.dots))
    assert ImageChops.difference(shown, said).getbbox() is None
    changed = ImageChops.difference(shown, as_a_turn).getbbox()
    assert changed is not None and changed[3] <= lay.header_height  # only the header differs


def test_preview_words() -> None:
    assert words.preview_line(P, NAMES, 0) == "Preview: if alice stops now, no dot is handed over"
    assert words.preview_line(P, NAMES, 1) == "Preview: if alice stops now, bob gets 1 dot"


def test_every_replay_frame_says_its_move() -> None:
    game = Game(7, 7)
    for name in ("B2", "E5", "C3"):
        game.place(name)
    game.end()
    game.place("D4")
    game.place("F6")
    total = len(game.actions)
    data = render_gif(game, names=NAMES)
    frames = [f.convert("RGB") for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]
    assert len(frames) == total + 1
    lay = layout(7, 7)
    box = (0, 0, lay.image_width, lay.header_height)
    replay = Game.at_start(game.record)
    expected_lines = []
    for move, frame in enumerate(frames):
        if move:
            replay.apply(game.actions[move - 1])
        placed = sum(a.kind == "dot" for a in game.actions[:move])
        played = words.played(game.actions)
        line = words.replay_line(placed, played, NAMES, replay.ended, "standard")
        expected_lines.append(line)
        scene = scene_of(lay, replay, names=NAMES)
        scene.header = Header(NAMES, (replay.score(P), replay.score(B)), line, None)
        expected = to_palette(paint(lay, scene, box)).convert("RGB")
        assert ImageChops.difference(frame.crop(box), expected).getbbox() is None, line
    assert expected_lines[0] == "Start: 5 dots, 1 end, standard rules"
    assert expected_lines[2] == "Dot 2 of 5"
    assert expected_lines[5] == "Dot 4 of 5 · bob ended"


def test_the_last_replay_frame_names_the_winner() -> None:
    game = grounding_game()
    game.resign(P)
    frames = list(ImageSequence.Iterator(Image.open(io.BytesIO(render_gif(game, names=NAMES)))))
    last = frames[-1].convert("RGB")
    png = header_of(render_png(game, names=NAMES, highlight_last=False), game)
    lay = layout(10, 10)
    assert (
        ImageChops.difference(last.crop((0, 0, lay.image_width, lay.header_height)), png).getbbox()
        is None
    )
