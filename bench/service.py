"""Speed of the game service on a real SQLite file (WAL): issue 4's figures.

Prints: moves per second through ``GameService.place`` with 1,000 running games (one caller,
and 32 concurrent callers); p50/p99 latency of a place (commit included, no picture); the
start-up time to restore 10,000 running games with their clocks (and, for comparison, the time
to rebuild every one of them eagerly); memory per cached game (tracemalloc).
Run: python bench/service.py [--moves N] [--restore N]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.clocks import Clocks
from bot.games import GameOptions, GameService, Refusal
from bot.games.convert import rebuild
from bot.storage import Store
from engine import Game, Point

SIZE = 20
CLOCK = timedelta(days=1)


async def start_games(service: GameService, count: int) -> list[int]:
    """``count`` running 20x20 games, each between two players of its own."""
    ids = []
    for n in range(count):
        view = await service.start_game(
            guild_id=1, channel_id=1, pink_id=2 * n + 1, blue_id=2 * n + 2,
            options=GameOptions(width=SIZE, height=SIZE, clock=CLOCK),
        )  # fmt: skip
        ids.append(view.game_id)
    return ids


async def one_move(service: GameService, game_id: int, rng: random.Random) -> float | None:
    """A random legal dot in ``game_id`` by the player to move; its latency in seconds."""
    view = await service.game(game_id)
    mover = view.to_move_id
    if mover is None:
        return None
    board = view.game.board
    for _ in range(50):  # random tries first: listing the free points costs more than a move
        point = Point(rng.randrange(board.width), rng.randrange(board.height))
        if board.is_free(point):
            break
    else:
        point = rng.choice(list(board.free_points()))
    start = time.perf_counter()
    try:
        await service.place(game_id=game_id, user_id=mover, point=point.name)
    except Refusal:
        return None
    return time.perf_counter() - start


async def throughput(path: Path, games: int, moves: int) -> None:
    """Moves/s and latency with ``games`` running games."""
    service = await GameService.open(path, rng=random.Random(1))
    clocks = Clocks(service)
    ids = await start_games(service, games)
    rng = random.Random(2)
    latencies: list[float] = []
    start = time.perf_counter()
    for i in range(moves):
        took = await one_move(service, ids[i % len(ids)], rng)
        if took is not None:
            latencies.append(took)
    elapsed = time.perf_counter() - start
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99)] * 1000
    print(f"place, one caller, {games} running games: {len(latencies) / elapsed:,.0f} moves/s "
          f"(including reading the snapshot to pick a move)")  # fmt: skip
    print(f"place alone (sum of latencies): {len(latencies) / sum(latencies):,.0f} moves/s")
    print(f"place latency (commit included, no picture): p50 {p50:.2f} ms, p99 {p99:.2f} ms, "
          f"max {latencies[-1] * 1000:.2f} ms over {len(latencies):,} moves")  # fmt: skip

    async def caller(k: int, count: int, done: list[int]) -> None:
        local = random.Random(k)
        for _ in range(count):
            if await one_move(service, local.choice(ids), local) is not None:
                done[0] += 1

    done = [0]
    start = time.perf_counter()
    await asyncio.gather(*(caller(k, moves // 32, done) for k in range(32)))
    elapsed = time.perf_counter() - start
    print(f"place, 32 concurrent callers: {done[0] / elapsed:,.0f} moves/s")
    await clocks.stop()
    await service.close()


def fill(path: Path, games: int, moves_each: int) -> None:
    """Write ``games`` running games of ``moves_each`` random dots straight into the tables."""
    rng = random.Random(3)
    now = time.time()
    conn = sqlite3.connect(path)
    game_rows, action_rows = [], []
    for n in range(1, games + 1):
        game = Game(SIZE, SIZE)
        free = list(game.board.free_points())
        rng.shuffle(free)
        for point in free[:moves_each]:
            if game.board.is_free(point):
                game.place(point)
        for seq, action in enumerate(game.actions):
            action_rows.append((n, seq, "dot", int(action.player), action.point.name, now))
        game_rows.append((
            n, 1, 1, 2 * n + 1, 2 * n + 2, SIZE, SIZE, "standard", "empty", "", 86400, 1,
            "running", len(game.actions), now, now, now + rng.uniform(60, 86400),
        ))  # fmt: skip
    conn.executemany(
        "INSERT INTO games (game_id, guild_id, channel_id, pink_id, blue_id, width, height, "
        "rules, start, start_dots, clock, rated, status, moves, created, started, deadline) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        game_rows,
    )
    conn.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?)", action_rows)
    conn.commit()
    conn.close()


async def restore(path: Path, games: int, moves_each: int) -> None:
    """Start-up with ``games`` running games: open, migrate check, arm every clock."""
    store = await Store.open(path)
    await store.close()
    fill(path, games, moves_each)
    start = time.perf_counter()
    service = await GameService.open(path)
    clocks = Clocks(service)
    armed = await clocks.start()
    elapsed = time.perf_counter() - start
    print(f"restore {games:,} running games ({moves_each} dots each) with clocks: "
          f"{elapsed:.2f} s ({armed:,} clocks armed; positions rebuilt on first use)")  # fmt: skip
    start = time.perf_counter()
    for game_id in range(1, games + 1):
        await service.game(game_id)
    eager = time.perf_counter() - start
    print(f"  rebuilding all {games:,} positions as well (eager, for comparison): {eager:.2f} s "
          f"({eager / games * 1000:.2f} ms a game on first use)")  # fmt: skip
    await clocks.stop()
    await service.close()


async def memory(path: Path) -> None:
    """Memory of one cached game (engine position plus row), by tracemalloc."""
    store = await Store.open(path)
    loaded = [await store.games.game_with_actions(game_id) for game_id in range(1, 1001)]
    await store.close()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [rebuild(row, actions) for row, actions in (x for x in loaded if x)]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    used = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    print(
        f"memory per cached {SIZE}x{SIZE} game (engine position): {used / len(kept) / 1024:.1f} KiB"
    )
    gc.collect()
    tracemalloc.start()
    big = [Game(39, 32) for _ in range(100)]
    size, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"memory per cached empty 39x32 game: {size / len(big) / 1024:.1f} KiB")


async def main() -> None:
    """Run the three measurements on fresh files in a temporary folder."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--restore", type=int, default=10_000)
    parser.add_argument("--dots", type=int, default=40, help="dots in each restored game")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        await throughput(Path(folder) / "play.sqlite3", 1000, args.moves)
        restore_path = Path(folder) / "restore.sqlite3"
        await restore(restore_path, args.restore, args.dots)
        await memory(restore_path)


if __name__ == "__main__":
    asyncio.run(main())
