"""Sample pictures: the worked cases of RULES.md, games of several sizes, a stop preview, GIFs.

Run: ``python -m renderer.demo OUT_DIR`` (writes PNG and GIF files and prints their names).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterable
from pathlib import Path

from engine import Action, Board, Game, Player, Point
from renderer.gif import render_gif
from renderer.png import render_png


def from_actions(
    width: int, height: int, moves: Iterable[tuple[Player, str]], *, rules: str = "standard"
) -> Game:
    """A game after ``moves`` (player, point name) placed in order, whoever's turn it is."""
    game = Game(width, height, rules=rules)
    for player, name in moves:
        game.apply(Action("dot", player, Point.parse(name)))
    return game


def sample_game(width: int, height: int, dots: int, *, seed: int, rules: str = "standard") -> Game:
    """A game of ``dots`` dots (or until the board is full) played by a greedy random player:
    it takes a capturing point when one of a few looked at gives one, and otherwise plays near
    the dots already placed, so the position has the bases of a real game."""
    rng = random.Random(seed)
    game = Game(width, height, rules=rules)
    board = game.board
    near: set[int] = set()
    while not game.is_over and len(game.actions) < dots:
        mover = game.to_move
        assert mover is not None
        near = {i for i in near if board.is_free_index(i)}
        pool = sorted(near) if near and rng.random() < 0.9 else board.free_indices()
        choice = rng.choice(pool)
        for i in rng.sample(pool, min(12, len(pool))):
            trial = board.copy()
            if trial.place(board.point_at(i), mover).gain(mover) > 0:
                choice = i
                break
        game.place(board.point_at(choice), mover)
        near.update(j for j in board.neighbours(choice) if board.is_free_index(j))
    return game


def worked_cases() -> dict[str, Game]:
    """The three diagrams at the end of RULES.md, each as the game that reaches it."""
    pink, blue = Player.PINK, Player.BLUE
    ring = [(pink, "C4"), (pink, "B3"), (pink, "D3"), (pink, "C2")]
    return {
        "rules-1-base": from_actions(5, 5, [(blue, "C3"), *ring]),
        "rules-2-empty-ring": from_actions(5, 5, ring),
        "rules-2-played-into-ring": from_actions(5, 5, [*ring, (blue, "C3")]),
        "rules-3-own-base-first": from_actions(
            6,
            5,
            [
                (pink, "C4"),
                (pink, "B3"),
                (pink, "D3"),
                (pink, "C2"),
                (blue, "D4"),
                (blue, "E3"),
                (blue, "D2"),
                (blue, "C3"),
            ],
        ),
    }


def write_all(out: Path) -> list[Path]:
    """Write every sample picture into ``out``; return the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def save(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    for name, game in worked_cases().items():
        save(f"{name}.png", render_png(game))
    names = ("Ada", "Bartosz")
    # The picture in the README (docs/board.png): the last dot has just made a base.
    save("mid-game-20x20.png", render_png(sample_game(20, 20, 155, seed=27), names=names, clock=42))
    middle = sample_game(16, 16, 120, seed=7)
    save("mid-game-16x16.png", render_png(middle, names=names, clock=42))
    small = sample_game(10, 10, 44, seed=3)
    save("mid-game-10x10.png", render_png(small, names={Player.PINK: "Zoë", Player.BLUE: "李"}))
    full = sample_game(39, 32, 10_000, seed=11)
    save("full-game-39x32.png", render_png(full, names=names))
    save("full-game-39x32.gif", render_gif(full, names=names))
    save("game-10x10.gif", render_gif(sample_game(10, 10, 10_000, seed=5), names=names))
    grounding = sample_game(20, 20, 90, seed=4, rules="grounding")
    preview = grounding.stop_preview()
    save(
        "stop-preview-20x20.png",
        render_png(
            grounding,
            names=names,
            marks=preview.dots,
            status=(
                f"A stop by {preview.player.label} hands {len(preview.dots)} dots over: "
                f"{'a loss' if preview.loses else 'no loss'}, {preview.pink}-{preview.blue}"
            ),
        ),
    )
    grounding.end()
    save("stopped-20x20.png", render_png(grounding, names=names))
    save("start-four-crosses-30x30.png", render_png(Game(30, 30, start="four-crosses", seed=2)))
    save("largest-52x52.png", render_png(sample_game(52, 52, 900, seed=9)))
    save("smallest-5x5.png", render_png(Board(5, 5)))
    save("wide-40x8.png", render_png(sample_game(40, 8, 150, seed=6)))
    return written


def main(argv: list[str] | None = None) -> None:
    """Command line: write the sample pictures into a folder."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, help="folder to write the pictures into")
    args = parser.parse_args(argv)
    for path in write_all(args.out):
        print(f"{path} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main(sys.argv[1:])
