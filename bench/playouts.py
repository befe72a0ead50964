"""Random playouts per second: the compiled kernel beside the pure-Python board, and the first
computer move after a cold start.

Playouts: from the empty board on 10x10, 20x20 and 39x32 (--sizes), in batches taken in turn
so a shared machine's load falls on both alike; printed as moves and playouts a second, with
the ratio, and oppai-rs's last measured figures for reference (its random playouts on this
kind of machine: 6.9M moves/s on 10x10, 4.9M on 39x32; the goal is a third of them). Three
policies:
- ``random``: uniformly random games to a full board, oppai-rs's bench's own measure
  (``kernel.random_games``: compiled, the whole loop runs in the kernel);
- ``local`` (``Policy(local=0.5)``) and ``hard`` (hard's, with its urgent answers): one
  playout a call from Python on a fresh copy of the board, as the search calls them.

Cold start (--cold-start): a fresh Python process imports the bot's computer and plays hard's
first move in a position of a few dots, on 10x10 and 39x32; the seconds from the process's
launch to the move, with an empty kernel cache (a temporary NUMBA_CACHE_DIR: the kernel
compiles in the background while the pure-Python playouts serve) and then with the cache
it left (the kernel loads in a fraction of a second and plays that first move).

Run: python bench/playouts.py [--sizes 10x10,20x20,39x32] [--seconds 2] [--cold-start]
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai
from ai import kernel
from ai.field import Field
from ai.playout import Policy

ROOT = Path(__file__).resolve().parent.parent
# oppai-rs's random playouts, moves a second, as last measured on this kind of machine.
OPPAI = {"10x10": 6.9e6, "39x32": 4.9e6}
BATCH = 0.05  # seconds a batch


Step = Callable[[bool], tuple[int, int]]


def timed(step: Step, seconds: float) -> dict[bool, tuple[float, float]]:
    """(moves, playouts) a second of ``step`` (one call: the moves and playouts it played) for
    the compiled kernel (True) and the pure board (False), in batches taken in turn."""
    moves = {True: 0, False: 0}
    count = {True: 0, False: 0}
    spent = {True: 0.0, False: 0.0}
    sides = [True, False] if kernel.ready() else [False]
    while min(spent[s] for s in sides) < seconds:
        for compiled in sides:
            started = time.perf_counter()
            while time.perf_counter() - started < BATCH:
                played, playouts = step(compiled)
                moves[compiled] += played
                count[compiled] += playouts
            spent[compiled] += time.perf_counter() - started
    return {s: (moves[s] / spent[s], count[s] / spent[s]) for s in sides}


def rates(size: str, policy: Policy, seconds: float) -> dict[bool, tuple[float, float]]:
    """(moves, playouts) a second of one playout a call from the empty board."""
    width, height = (int(n) for n in size.split("x"))
    empty = Field(width, height)
    rng = random.Random(1)

    def step(compiled: bool) -> tuple[int, int]:
        field = empty.copy()
        return kernel.playout(field, 1, alone=False, rng=rng, policy=policy, compiled=compiled), 1

    return timed(step, seconds)


def random_rates(size: str, seconds: float) -> dict[bool, tuple[float, float]]:
    """(moves, games) a second of uniformly random games to a full board: compiled, the whole
    loop in the kernel, a batch of games a call; pure Python, a game a call."""
    width, height = (int(n) for n in size.split("x"))
    empty = Field(width, height)
    batch = {True: max(1, 40_000 // (width * height)), False: 1}
    seeds = itertools.count(1)

    def step(compiled: bool) -> tuple[int, int]:
        games = batch[compiled]
        seed = next(seeds)
        return kernel.random_games(empty, games, seed=seed * 1000, compiled=compiled), games

    return timed(step, seconds)


def speed_table(sizes: list[str], seconds: float) -> None:
    print(f"random playouts from the empty board, {seconds:g} s a column, batches in turn")
    if not kernel.ready():
        print("(the compiled kernel is not available here: numba missing or DOTS_PURE_PYTHON)")
    print(
        f"{'size':<7} {'policy':<8} {'compiled moves/s':>17} {'pure moves/s':>13} {'x':>6}"
        f" {'compiled playouts/s':>20} {'oppai moves/s':>14} {'compiled/oppai':>15}"
    )
    for size in sizes:
        for name, policy in (
            ("random", None),
            ("local", Policy(local=0.5)),
            ("hard", ai.LEVELS["hard"].policy),
        ):
            found = random_rates(size, seconds) if policy is None else rates(size, policy, seconds)
            pure = found[False][0]
            compiled, playouts = found.get(True, (0.0, 0.0))
            oppai = OPPAI.get(size)
            line = f"{size:<7} {name:<8} {compiled:>17,.0f} {pure:>13,.0f}"
            line += f" {compiled / pure:>6.1f} {playouts:>20,.0f}"
            if oppai is not None:
                line += f" {oppai:>14,.0f} {compiled / oppai:>15.2f}"
            print(line, flush=True)


# The search asks kernel.ready() once, at its start: the first answer says whether the move
# was searched with the compiled kernel.
COLD = """
import time
import ai
from ai import kernel
from engine import Game, Point
asked = []
ready = kernel.ready
kernel.ready = lambda: asked.append(ready()) or asked[-1]
game = Game({w}, {h})
for name in ({moves}):
    game.place(Point.parse(name), game.to_move)
started = time.perf_counter()
decision = ai.choose(game, "hard", seed=1)
print(asked[0], decision.iterations, time.perf_counter() - started)
"""


def cold_start() -> None:
    print("first hard move after a cold start: seconds from the process's launch to the move")
    print("(imports included), and of the move itself (ai.choose)")
    print(
        f"{'size':<7} {'cache':<6} {'from launch':>12} {'the move':>9} {'kernel used':>12}"
        f" {'iterations':>11}"
    )
    with tempfile.TemporaryDirectory(prefix="dots-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for state in ("empty", "warm"):
            for (w, h), moves in (
                ((10, 10), "'E5', 'F6', 'F5', 'E6'"),
                ((39, 32), "'T16', 'U17', 'U16', 'T17'"),
            ):
                started = time.perf_counter()
                out = subprocess.run(
                    [sys.executable, "-c", COLD.format(w=w, h=h, moves=moves)],
                    env=env,
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                spent = time.perf_counter() - started
                used, iterations, move = out.stdout.split()
                print(
                    f"{f'{w}x{h}':<7} {state:<6} {spent:>12.2f} {float(move):>9.2f} {used:>12}"
                    f" {iterations:>11}",
                    flush=True,
                )
            if state == "empty":
                # Let the first process's background compile finish filling the cache.
                subprocess.run(
                    [sys.executable, "-c", "from ai import kernel; kernel.warm_up(wait=True)"],
                    env=env,
                    cwd=ROOT,
                    check=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10x10,20x20,39x32", help="'' to skip")
    parser.add_argument("--seconds", type=float, default=2.0, help="a column and size")
    parser.add_argument("--cold-start", action="store_true", help="time the first move too")
    args = parser.parse_args()
    kernel.warm_up(wait=True)
    if args.sizes:
        speed_table(args.sizes.split(","), args.seconds)
    if args.cold_start:
        cold_start()


if __name__ == "__main__":
    main()
