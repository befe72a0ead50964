"""Hard's search with Python's cyclic collector kept off its tree (ai/collector.py, as the bot
plays) beside the same search with the collector running through it, side by side in one run.

For each size, random positions after 0, 100 and 300 random dots (three each); in each, hard
plays the move both ways, in turn, so a shared machine's load falls on both alike. Printed per
size and way: the mean iterations a move, the ratio of the two, and the longest and mean
seconds a move (hard's cap is 1.5 s). Every search starts afresh (``reuse=False``), after the
previous move's tree is freed.

Run: python bench/collector.py [--sizes 10x10,20x20,39x32]
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai
from ai import collector
from engine import Game

KEPT_OFF = collector.paused


@contextlib.contextmanager
def _running() -> Iterator[None]:
    """The collector left running through the search (the search's pause made a no-op)."""
    yield


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10x10,20x20,39x32")
    args = parser.parse_args()
    ai.kernel.warm_up(wait=True)
    print(f"{'size':>6} {'collector':>9} {'iterations':>10} {'x':>5} {'max s':>6} {'mean s':>6}")
    for size in args.sizes.split(","):
        width, height = (int(n) for n in size.split("x"))
        rng = random.Random(5)
        iterations: dict[str, list[int]] = {"kept off": [], "running": []}
        seconds: dict[str, list[float]] = {"kept off": [], "running": []}
        for dots in (0, 100, 300):
            for _ in range(3):
                game = Game(width, height)
                for _ in range(min(dots, width * height // 2)):
                    game.place(rng.choice(list(game.board.free_points())))
                seed = rng.randrange(2**32)
                for way in ("kept off", "running"):
                    collector.paused = KEPT_OFF if way == "kept off" else _running
                    started = time.perf_counter()
                    decision = ai.choose(game, "hard", seed=seed, reuse=False)
                    seconds[way].append(time.perf_counter() - started)
                    if decision.iterations:
                        iterations[way].append(decision.iterations)
        collector.paused = KEPT_OFF
        base = sum(iterations["running"]) / max(1, len(iterations["running"]))
        for way in ("kept off", "running"):
            mean = sum(iterations[way]) / max(1, len(iterations[way]))
            print(
                f"{size:>6} {way:>9} {mean:>10.0f} {mean / base if base else 0:>5.2f} "
                f"{max(seconds[way]):>6.2f} {sum(seconds[way]) / len(seconds[way]):>6.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
