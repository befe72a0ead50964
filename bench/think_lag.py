"""How long the event loop stalls while the computer thinks: a thread versus a process pool.

A ticker task asks to wake every 10 ms, then does a piece of handler-like work on the loop
(replaying a 60-dot game) and a round trip through a worker thread (as every aiosqlite query
and every rendering does). While the computer searches some positions of a 10x10 game, the
worst and the p99 lateness of its wake-ups are the event loop's stalls, and the work's mean
time against its time on an idle loop is how much slower every other player is served. The
search runs (1) in ``asyncio.to_thread`` and (2) in ``bot.games.computer.Thinker`` (a
one-worker process pool). Prints a table per level.
Run: python bench/think_lag.py [--levels easy medium hard] [--positions N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ai
from bot.games.computer import Thinker
from engine import Game, Record

TICK = 0.010


def positions(count: int, seed: int = 7) -> list[Record]:
    """Records of 10x10 games after 6, 12, ... random dots (one per position asked for)."""
    rng = random.Random(seed)
    found = []
    for n in range(count):
        game = Game(10, 10)
        for _ in range(6 * (n + 1)):
            game.place(rng.choice(list(game.board.free_points())))
        found.append(game.record)
    return found


WORK = positions(10)[-1]


def work() -> float:
    """Seconds to replay a 60-dot game: a stand-in for a handler's own Python work."""
    started = time.perf_counter()
    Game.replay(WORK)
    return time.perf_counter() - started


async def ticker(
    stop: asyncio.Event, late: list[float], spent: list[float], hops: list[float]
) -> None:
    """Wake every TICK seconds, note how late each wake-up was, do some work, and time a
    round trip through a thread (what each aiosqlite query and each rendering costs)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + TICK
        await asyncio.sleep(TICK)
        late.append(loop.time() - due)
        spent.append(work())
        started = time.perf_counter()
        await asyncio.to_thread(int)
        hops.append(time.perf_counter() - started)


async def ticking(
    run: Callable[[], Awaitable[None]],
) -> tuple[float, list[float], list[float], list[float]]:
    """Run ``run()`` with the ticker going: its seconds, and the ticker's wake-up lateness,
    work seconds and thread round trips, each sorted."""
    stop = asyncio.Event()
    late: list[float] = []
    spent: list[float] = []
    hops: list[float] = []
    tick = asyncio.create_task(ticker(stop, late, spent, hops))
    started = time.perf_counter()
    await run()
    elapsed = time.perf_counter() - started
    stop.set()
    await tick
    return elapsed, sorted(late), sorted(spent), sorted(hops)


def p99(values: list[float]) -> float:
    """The 99th percentile of sorted ``values``."""
    return values[min(len(values) - 1, int(len(values) * 0.99))]


async def measure(
    how: str, level: str, records: list[Record]
) -> tuple[float, float, float, float, float]:
    """(worst stall, p99 stall, mean seconds per move, mean work seconds, p99 thread round
    trip) for one way of thinking."""
    thinker = Thinker(processes=True)
    if how == "process":
        await thinker.choose(records[0], "easy", 0)  # start the worker outside the timing

    async def think() -> None:
        for n, record in enumerate(records):
            if how == "thread":
                await asyncio.to_thread(ai.choose_from_record, record, level, n)
            else:
                await thinker.choose(record, level, n)

    elapsed, late, spent, hops = await ticking(think)
    thinker.close()
    return max(late), p99(late), elapsed / len(records), sum(spent) / len(spent), p99(hops)


async def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--levels", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--positions", type=int, default=5)
    args = parser.parse_args()
    records = positions(args.positions)
    idle = sorted(work() for _ in range(50))[25]
    print(f"event loop while the computer thinks ({args.positions} positions, 10x10)")
    print(f"handler work on an idle loop: {idle * 1000:.1f} ms")
    print(
        f"{'level':<8} {'where':<8} {'s/move':>7} {'worst stall':>12} {'p99 stall':>10} "
        f"{'work':>9} {'slowdown':>9} {'thread hop p99':>15}"
    )
    for level in args.levels:
        for how in ("thread", "process"):
            worst, p99, per_move, spent, hop = await measure(how, level, records)
            print(
                f"{level:<8} {how:<8} {per_move:>7.2f} {worst * 1000:>9.0f} ms "
                f"{p99 * 1000:>7.0f} ms {spent * 1000:>6.1f} ms {spent / idle:>8.1f}x "
                f"{hop * 1000:>12.1f} ms"
            )
    print(f"(the ticker asks to wake every {TICK * 1000:.0f} ms)")


if __name__ == "__main__":
    asyncio.run(main())
