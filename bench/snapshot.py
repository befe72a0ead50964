"""What a copy of a game's position costs (``bot.games.computer_games.snapshot``, taken after
each move against the computer so the adapter shows the position the player made), against a
plain ``copy.deepcopy`` and ``Game.replay``. Prints milliseconds per copy.
Run: python bench/snapshot.py
"""

from __future__ import annotations

import copy
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.computer_games import snapshot
from engine import DotsError, Game


def random_game(width: int, height: int, dots: int, seed: int = 1) -> Game:
    """A game of ``dots`` random legal dots."""
    game = Game(width, height)
    rng = random.Random(seed)
    points = list(game.board.points())
    rng.shuffle(points)
    for point in points:
        if len(game.actions) >= dots or game.to_move is None:
            break
        try:
            game.place(point, game.to_move)
        except DotsError:
            continue
    return game


def per_call_ms(work: Callable[[], object], repeat: int) -> float:
    """Mean milliseconds of ``work()`` over ``repeat`` calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        work()
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    """Print the table."""
    print(f"{'board':>8} {'dots':>5} {'snapshot':>9} {'deepcopy':>9} {'replay':>8}  (ms)")
    for width, height, dots in ((10, 10, 40), (20, 20, 150), (39, 32, 400)):
        game = random_game(width, height, dots)
        row = (
            per_call_ms(lambda game=game: snapshot(game), 50),
            per_call_ms(lambda game=game: copy.deepcopy(game), 20),
            per_call_ms(lambda game=game: Game.replay(game.record), 10),
        )
        cells = " ".join(f"{value:>9.2f}" for value in row)
        print(f"{width:>3}x{height:<4} {len(game.actions):>5} {cells}")


if __name__ == "__main__":
    main()
