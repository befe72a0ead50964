"""Speed of the engine: uniformly random legal playouts to the end of the game.

Prints moves per second on 10x10 and on 39x32 and the per-move cost ratio 39x32 / 10x10, and
how fast ``Board.undo`` takes every move of a playout back.
With ``--baseline REF`` it prints instead the moves per second of this tree and of git commit
REF side by side, with their ratio, on each of ``--sizes``: REF is checked out into a temporary
worktree and each tree's engine runs in a process of its own (bench/baseline.py), the two
taking batches in turn so that a shared machine's load falls on both alike.
Run: python bench/engine.py [--seconds N] [--baseline REF [--sizes 10x10,20x20,39x32]]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baseline import ROOT, Tree, checkout, engine_playout, interleaved, ratio

from engine import Board


def undo_rate(width: int, height: int, playouts: int, seed: int) -> float:
    """Undos per second: random playouts taken back to the empty board, the median of them."""
    rng = random.Random(seed)
    rates = []
    for _ in range(playouts):
        board = Board(width, height)
        order = [board.index(p) for p in board.points()]
        rng.shuffle(order)
        moves = 0
        for i in order:
            if board.is_free_index(i):
                board.place_index(i, 1 + moves % 2)
                moves += 1
        start = time.perf_counter()
        for _ in range(moves):
            board.undo()
        rates.append(moves / (time.perf_counter() - start))
    return statistics.median(rates)


def measure(width: int, height: int, seconds: float, seed: int) -> tuple[float, int]:
    """Moves per second over repeated playouts for about ``seconds``; and the playouts run."""
    rng = random.Random(seed)
    rates = []
    games = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or games < 3:
        start = time.perf_counter()
        moves = engine_playout(width, height, rng)
        rates.append(moves / (time.perf_counter() - start))
        games += 1
    return statistics.median(rates), games


def side_by_side(ref: str, sizes: list[str], seconds: float) -> None:
    """Print this tree's and ``ref``'s moves per second on each size, and their ratio."""
    print(f"engine playouts, moves per second: this tree against {ref}, {seconds:g} s each")
    print(f"{'size':<7} {'this tree':>10} {ref[:10]:>10}  this / {ref[:10]}")
    with checkout(ref) as tree, Tree(ROOT) as here, Tree(tree) as there:
        for size in sizes:
            width, height = (int(n) for n in size.split("x"))
            kwargs = {"width": width, "height": height}
            new, old = interleaved(
                [(here, "engine_moves", kwargs), (there, "engine_moves", kwargs)], seconds
            )
            print(
                f"{size:<7} {new[0] / new[1]:>10,.0f} {old[0] / old[1]:>10,.0f}  {ratio(new, old)}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", metavar="REF", help="side by side with this git commit")
    parser.add_argument("--sizes", default="10x10,20x20,39x32", help="with --baseline")
    args = parser.parse_args()
    if args.baseline:
        side_by_side(args.baseline, args.sizes.split(","), args.seconds)
        return
    small, small_games = measure(10, 10, args.seconds, args.seed)
    large, large_games = measure(39, 32, args.seconds, args.seed)
    print(f"10x10: {small:,.0f} moves/s (median of {small_games} playouts)")
    print(f"39x32: {large:,.0f} moves/s (median of {large_games} playouts)")
    print(f"cost of a move, 39x32 / 10x10: {small / large:.2f}x")
    print("targets: >= 50,000 moves/s on 39x32; ratio <= 2.0x")
    for width, height in ((10, 10), (39, 32)):
        rate = undo_rate(width, height, 20, args.seed)
        print(f"undo on {width}x{height}: {rate:,.0f} moves/s (median of 20 playouts)")


if __name__ == "__main__":
    main()
