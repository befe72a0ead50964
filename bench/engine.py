"""Speed of the engine: uniformly random legal playouts to the end of the game (issue 2).

Prints moves per second on 10x10 and on 39x32 and the per-move cost ratio 39x32 / 10x10, and
how fast ``Board.undo`` takes every move of a playout back (issue 11).
Run: python bench/engine.py [--seconds N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Board


def playout(width: int, height: int, rng: random.Random) -> int:
    """Play uniformly random legal dots, alternating, until no free point is left."""
    board = Board(width, height)
    order = [board.index(p) for p in board.points()]
    rng.shuffle(order)
    dot, owner = board._dot, board._owner  # the fast path of the engine: see Board.place_index
    player = 1
    moves = 0
    for i in order:
        # A point later in a random order that is still free is a uniform pick among the free.
        if dot[i] or owner[i]:
            continue
        board.place_index(i, player)
        player = 3 - player
        moves += 1
    return moves


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
        moves = playout(width, height, rng)
        rates.append(moves / (time.perf_counter() - start))
        games += 1
    return statistics.median(rates), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
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
