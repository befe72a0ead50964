"""Mine the shipped puzzles: self-play games of the computer (easy, seeded), each position
proved by ai/puzzles.py's exact search; writes ai/data/puzzles.json.

    nice -n 10 python bench/mine_puzzles.py --small 32 --large 24

Prints each game's puzzles and the counts by size and depth. The same seeds give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

# The project's root instead of bench/ (whose ai.py would hide the ai package).
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import ai  # noqa: E402
from ai.puzzles import Puzzle, mine  # noqa: E402
from engine import Game  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "ai" / "data" / "puzzles.json"
MOVES = {10: 80, 20: 260}


def self_play(size: int, seed: int) -> Game:
    """A self-play game of the computer at easy on ``size``x``size`` (at most MOVES dots)."""
    game = Game(size, size)
    while not game.is_over and len(game.actions) < MOVES[size]:
        decision = ai.choose(game, "easy", seed=seed * 10_007 + len(game.actions))
        assert game.to_move is not None
        game.apply(decision.action(game.to_move))
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=32, help="puzzles on 10x10")
    parser.add_argument("--large", type=int, default=24, help="puzzles on 20x20")
    parser.add_argument("--per-game", type=int, default=4)
    args = parser.parse_args()
    found: list[Puzzle] = []
    for size, wanted in ((10, args.small), (20, args.large)):
        have, seed = 0, 0
        while have < wanted:
            seed += 1
            started = time.perf_counter()
            game = self_play(size, seed)
            taken = 0
            for puzzle in mine(game.record):
                if taken >= args.per_game or have >= wanted:
                    break
                found.append(puzzle)
                taken += 1
                have += 1
            print(f"{size}x{size} game {seed}: {taken} puzzles, "
                  f"{time.perf_counter() - started:.0f} s", flush=True)  # fmt: skip
            OUT.write_text(json.dumps([p.to_json() for p in found], indent=1) + "\n")
    counts = Counter((p.record.width, p.depth) for p in found)
    for (size, depth), n in sorted(counts.items()):
        print(f"{size}x{size} depth {depth}: {n}")
    print(f"{len(found)} puzzles written to {OUT}")


if __name__ == "__main__":
    main()
