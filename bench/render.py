"""Speed and size of the pictures (issue 3).

Prints the median milliseconds per PNG and the bytes per PNG for a 10x10 mid-game and for
39x32 positions with 600+ dots and many bases (and a full board), the size and time of a GIF
replay of a full 39x32 game, the sticker book picture and the cost of finding stickers (issue
13), and the colour-blind distances between Pink and Blue.
Run: python bench/render.py [--runs N]
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.stickers import (
    Earned,
    Sticker,
    book_entries,
    stickers_of_game,
    stickers_of_last_action,
)
from engine import Game
from renderer import layout, render_gif, render_png
from renderer import palette as colours
from renderer.demo import sample_game
from renderer.picture import paint, scene_of
from renderer.png import compress_level
from renderer.stickers import render_sticker_book
from tests.renderer.colourblind import distance


def median_ms(game: Game, runs: int) -> tuple[float, float, float, int]:
    """Median and fastest wall-clock milliseconds per PNG of ``game``, the median CPU
    milliseconds (less disturbed by other processes on a busy machine), and the PNG's bytes."""
    data = render_png(game, names=("Ada", "Bartosz"), clock=42)  # warms the caches of the size
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        render_png(game, names=("Ada", "Bartosz"), clock=42)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    return statistics.median(wall), min(wall), statistics.median(cpu), len(data)


def describe(game: Game) -> str:
    """``"700 dots, 41 bases"``."""
    dots = sum(1 for _ in game.board.dots())
    return f"{dots} dots, {len(game.board.bases)} bases"


def stages(game: Game, runs: int) -> str:
    """Where the time of one PNG goes: painting, mapping onto the palette, compressing."""
    lay = layout(game.width, game.height)
    parts: dict[str, list[float]] = {"scene": [], "paint": [], "palette": [], "zlib": []}
    for _ in range(runs):
        t0 = time.perf_counter()
        scene = scene_of(lay, game)
        t1 = time.perf_counter()
        rgb = paint(lay, scene)
        t2 = time.perf_counter()
        image = colours.to_palette(rgb)
        t3 = time.perf_counter()
        image.save(io.BytesIO(), format="PNG", compress_level=compress_level(len(scene.dots)))
        t4 = time.perf_counter()
        for name, spent in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            parts[name].append(spent * 1000)
    return ", ".join(f"{name} {statistics.median(ms):.1f}" for name, ms in parts.items())


def sticker_book_ms(runs: int) -> tuple[float, float, int]:
    """Median wall and CPU milliseconds per sticker book PNG (half the stickers earned), and
    its bytes."""
    counts = {sticker: n for n, sticker in enumerate(Sticker) if n % 2 == 0}
    entries = book_entries(counts)
    data = render_sticker_book(entries, "Ada's sticker book")  # loads the fonts
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        render_sticker_book(entries, "Ada's sticker book")
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu), len(data)


def stickers_ms(game: Game) -> tuple[float, float]:
    """Milliseconds to find a whole game's stickers by replay, and the median microseconds to
    find one move's given what the game earned before (issue 13's post after each move)."""
    start = time.perf_counter()
    stickers_of_game(game)
    replay = (time.perf_counter() - start) * 1000
    step = Game.at_start(game.record)
    earlier: list[Earned] = []
    per_move = []
    for action in game.actions[:-1]:
        step.apply(action)
        start = time.perf_counter()
        earlier += stickers_of_last_action(step, earlier=earlier)
        per_move.append((time.perf_counter() - start) * 1e6)
    return replay, statistics.median(per_move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")

    small = sample_game(10, 10, 50, seed=3)
    mid = sample_game(39, 32, 700, seed=11)
    full = sample_game(39, 32, 10_000, seed=11)
    cases = [("10x10 mid-game", small), ("39x32 mid-game", mid), ("39x32 full board", full)]
    for label, game in cases:
        med, best, cpu, size = median_ms(game, args.runs)
        lay = layout(game.width, game.height)
        print(
            f"{label} ({describe(game)}; {lay.image_width}x{lay.image_height} px): "
            f"median {med:.1f} ms per PNG (fastest {best:.1f}, median CPU {cpu:.1f}), "
            f"{size / 1000:.1f} KB"
        )
        print(f"    median ms by stage: {stages(game, max(10, args.runs // 4))}")
    print("targets: <= 5 ms for 10x10, <= 25 ms and <= 60 KB for 39x32")

    start, start_cpu = time.perf_counter(), time.thread_time()
    gif = render_gif(full, names=("Ada", "Bartosz"))
    spent, spent_cpu = time.perf_counter() - start, time.thread_time() - start_cpu
    print(
        f"GIF of a full 39x32 game ({len(full.actions)} actions): {len(gif) / 1e6:.2f} MB "
        f"in {spent:.1f} s (CPU {spent_cpu:.1f} s; target <= 8 MB)"
    )

    book_ms, book_cpu, book_bytes = sticker_book_ms(max(10, args.runs // 3))
    print(
        f"sticker book ({len(Sticker)} stickers): median {book_ms:.1f} ms per PNG "
        f"(median CPU {book_cpu:.1f}), {book_bytes / 1000:.1f} KB"
    )
    replay_ms, move_us = stickers_ms(full)
    print(
        f"stickers of the full 39x32 game: {replay_ms:.0f} ms by replay (at its end), "
        f"median {move_us:.1f} us after a move"
    )

    print(
        f"Pink {colours.PINK} and Blue {colours.BLUE}, CIEDE2000 distance "
        "(dots / captured dots / base shading):"
    )
    for vision in ("normal", "deuteranopia", "protanopia", "tritanopia"):
        dots = distance(colours.PINK, colours.BLUE, vision)
        faded = distance(colours.PINK_FADED, colours.BLUE_FADED, vision)
        tint = distance(colours.PINK_TINT, colours.BLUE_TINT, vision)
        print(f"    {vision:13} {dots:5.1f} / {faded:5.1f} / {tint:5.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
