"""What /export of a long 52x52 game costs, and how much it stalls the event loop.

Builds a 52x52 game of ``--dots`` random dots, renders its replay GIF once on its own (time
and size), then renders it while a ticker task asks to wake every 10 ms: (1) in
``asyncio.to_thread`` (the old /export), (2) in ``bot.cogs.info.Replays`` (one worker
process). The ticker's worst and p99 lateness are the stalls every other game's posts would
see. A finished game's replay is then kept in the database, so later exports render nothing.
Run: python bench/export.py [--dots N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.cogs.info import Replays
from bot.pictures import game_gif
from engine import Game, Player

TICK = 0.010
NAMES = {Player.PINK: "alice", Player.BLUE: "bob"}


def long_game(dots: int, seed: int = 3) -> Game:
    """A 52x52 game of ``dots`` random dots."""
    rng = random.Random(seed)
    game = Game(52, 52)
    free = list(game.board.free_points())
    rng.shuffle(free)
    for point in free:
        if len(game.actions) >= dots or game.is_over:
            break
        if game.board.is_free(point):
            try:
                game.place(point)
            except ValueError:  # e.g. inside a base
                continue
    return game


async def lateness_during(render: Callable[[], Awaitable[bytes]]) -> tuple[float, list[float]]:
    """The render's wall time and the ticker's lateness (seconds) while it runs."""
    late: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - asked - TICK)

    task = asyncio.create_task(ticker())
    start = time.perf_counter()
    await render()
    took = time.perf_counter() - start
    done.set()
    await task
    return took, late


def row(name: str, took: float, late: list[float]) -> str:
    ordered = sorted(late)
    p99 = ordered[int(len(ordered) * 0.99) - 1] if ordered else 0.0
    return (
        f"{name:<28} {took:7.2f} s  worst stall {max(late, default=0) * 1000:7.1f} ms  "
        f"p99 {p99 * 1000:6.1f} ms  median {statistics.median(late or [0]) * 1000:5.1f} ms"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dots", type=int, default=1500)
    args = parser.parse_args()
    game = long_game(args.dots)
    start = time.perf_counter()
    gif = game_gif(game, NAMES)
    alone = time.perf_counter() - start
    print(f"52x52 game, {len(game.actions)} actions: GIF {len(gif) / 2**20:.2f} MiB")
    print(f"{'render alone':<28} {alone:7.2f} s")
    took, late = await lateness_during(lambda: asyncio.to_thread(game_gif, game, NAMES))
    print(row("asyncio.to_thread", took, late))
    replays = Replays()
    try:
        # The worker's start (spawn, imports) is paid once per bot: warm it first.
        await replays.render(0, long_game(5), NAMES)
        took, late = await lateness_during(lambda: replays.render(1, game, NAMES))
        print(row("Replays (worker process)", took, late))
    finally:
        replays.close()


if __name__ == "__main__":
    asyncio.run(main())
