"""The real bot under load through the fake Discord (issue 6): many games played at once.

Each game is two players of its own: /challenge, Accept, then moves by /move in the game's
thread, each player waiting for the bot's picture before the other moves (as people do). All
games play at the same time; their first moves are spread over ``--ramp`` seconds (``--ramp 0``
sends them in the same instant) and each player thinks before moving (``--think``, 2 s on
average: a quick human). With ``--think 0`` every player moves the instant the picture
arrives: a closed loop that saturates the bot, good for the most moves per second it
sustains, while its latencies then only measure the queue (200 players / moves per second).
The bot, discord.py and the fake Discord share one process and one event loop, so the figures
include the fake's own work.

Prints p50/p95/p99 (and max) from INTERACTION_CREATE sent to the bot's first response (the
interaction callback) and to the picture's upload, moves per second, errors (failed requests,
unanswered or refused moves, ERROR log records), and checks every game's stored actions
against the moves sent: none lost, none duplicated, none out of order.
Targets: p99 first response <= 250 ms; no move lost or duplicated (exit status 1 otherwise).

With ``--burst N`` N games are started, then one move in each is sent in the same instant: it
prints whether every first answer came within Discord's 3 seconds (a later one is refused 10062
by the fake, as by Discord) and the first-answer p99.

With ``--processes N`` (issue 12) the bot runs as real `dots-bot` processes (subprocesses,
as a server operator runs them; the fake stays in this one): saturated (think time 0) on
SQLite with one process, then on PostgreSQL (a private cluster, see tests/postgres.py) with
1 .. N processes, each owning one shard of N with servers on every shard; then one move in
each of ``--burst`` games sent at once (first-answer p99). One table, side by side. With
``--baseline REF`` the SQLite rows are run twice in turn with the bot as it was at git commit
REF (a temporary worktree, e.g. deb0275: before issue 12), and their ratio is printed.

Run from the repository root: python bench/load.py [--games 200] [--moves 2000] [--size 20x20]
or python bench/load.py --burst 50, or python bench/load.py --processes 2 [--baseline deb0275]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import create_bot
from bot.config import Settings
from bot.storage import Store
from engine import NAMED_SIZES, Game, Point
from tests import postgres
from tests.e2e.shard_worker import ROOT, BotProcess
from tests.fakediscord.drivers import InteractionHandle
from tests.fakediscord.fixtures import patch_discord, run_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User
from tests.fakediscord.timings import percentile

TARGET_P99_MS = 250.0
DAY = 86400  # a one-day move clock: no game times out during the run


@dataclass
class Table:
    """One game under load: its players, thread, the moves to play and what happened."""

    pink: User
    blue: User
    points: list[str]
    game_id: int = 0
    thread: Channel | None = None
    sent: list[str] = field(default_factory=list)
    handles: list[InteractionHandle] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class Replies:
    """Wakes each player when the bot's reply to their move is in.

    One loop polls the waiting moves every 2 ms: the fake's own ``handle.reply()`` wakes every
    waiting player on every request the fake serves, which with hundreds of players waiting
    costs the shared event loop more than the bot's work and would be counted as its latency.
    """

    def __init__(self) -> None:
        self.waiting: dict[InteractionHandle, asyncio.Future[Message]] = {}

    async def reply(self, handle: InteractionHandle, timeout: float) -> Message:
        """The first filled-in message answering ``handle``.

        Raises:
            TimeoutError: none within ``timeout`` seconds.
        """
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self.waiting[handle] = future
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self.waiting.pop(handle, None)

    async def run(self) -> None:
        """Poll until cancelled."""
        while True:
            await asyncio.sleep(0.002)
            for handle, future in list(self.waiting.items()):
                replies = handle.replies()
                if replies and not future.done():
                    future.set_result(replies[0])


class ErrorCounter(logging.Handler):
    """Counts log records at ERROR or above, keeping the first few messages."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Count one record."""
        self.count += 1
        if len(self.first) < 5:
            self.first.append(f"{record.name}: {record.getMessage()[:200]}")


def legal_points(width: int, height: int, count: int, rng: random.Random) -> list[str]:
    """``count`` moves that are legal in turn from the empty board (checked with the engine:
    no point inside a base)."""
    game = Game(width, height)
    free = [Point(x, y) for y in range(height) for x in range(width)]
    rng.shuffle(free)
    moves: list[str] = []
    for point in free:
        if len(moves) == count:
            break
        if game.board.is_free(point):
            game.place(point)
            moves.append(point.name)
    return moves


async def start(
    fake: FakeDiscord, table: Table, general: Channel, size: str, database: Path
) -> None:
    """Challenge and accept: the game's thread with its first picture."""
    handle = await fake.slash(
        table.pink,
        "challenge",
        channel=general,
        opponent=table.blue,
        colour="pink",
        size=size,
        clock=DAY,
    )
    challenge: Message = await handle.reply(timeout=60)
    accept = next(c for c in challenge.custom_ids() if c.startswith("dots:challenge:accept:"))
    await fake.click(table.blue, challenge, accept)
    thread_id = await fake.wait_until(lambda: challenge.thread_id, timeout=60, poll=None)
    thread = fake.channels[thread_id]
    await fake.wait_until(lambda: fake.posted(thread), timeout=60, poll=None)
    table.thread = thread
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as con:
        row = con.execute("SELECT game_id FROM games WHERE thread_id = ?", (thread.id,)).fetchone()
    table.game_id = int(row[0])


async def play(
    fake: FakeDiscord,
    table: Table,
    replies: Replies,
    *,
    delay: float,
    think: float,
    rng: random.Random,
) -> None:
    """Play the table's moves in turn, each after the bot posted the previous picture: the
    first after ``delay`` seconds, each after a think time of ``think`` seconds on average."""
    assert table.thread is not None
    players = (table.pink, table.blue)
    await asyncio.sleep(delay)
    for point in table.points:
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        # Whoever is to move: Pink after an even number of moves (a burst's move follows
        # the saturated phase's).
        mover = players[len(table.sent) % 2]
        handle = await fake.slash(mover, "move", channel=table.thread, point=point)
        table.sent.append(point)
        table.handles.append(handle)
        try:
            reply = await replies.reply(handle, timeout=60)
        except TimeoutError:
            table.problems.append(f"game {table.game_id}: no picture for {point}")
            return
        if reply.is_ephemeral or f"plays {point}" not in reply.content:
            table.problems.append(f"game {table.game_id}: {point} refused: {reply.content[:120]}")
            return


def stored_moves(database: Path) -> dict[int, list[tuple[int, str | None]]]:
    """Every game's stored actions in order: (seq, point)."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as con:
        rows = con.execute("SELECT game_id, seq, point FROM actions ORDER BY game_id, seq")
        games: dict[int, list[tuple[int, str | None]]] = {}
        for game_id, seq, point in rows:
            games.setdefault(game_id, []).append((seq, point))
    return games


def check_moves(tables: Sequence[Table], database: Path) -> tuple[int, int, int, int]:
    """Compare the moves sent with the database: (stored, lost, duplicated, out of order)."""
    stored = stored_moves(database)
    total = lost = duplicated = disordered = 0
    for table in tables:
        points = [str(point) for _, point in stored.get(table.game_id, [])]
        total += len(points)
        sent, got = Counter(table.sent), Counter(points)
        lost += sum((sent - got).values())
        duplicated += sum((got - sent).values())
        disordered += int(points != table.sent and sent == got)
    return total, lost, duplicated, disordered


def line(name: str, values: Sequence[float]) -> str:
    """p50/p95/p99/max of latencies in milliseconds."""
    if not values:
        return f"{name}: no data"
    p50, p95, p99 = (percentile(values, q) for q in (50, 95, 99))
    return (
        f"{name}: p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms, max {max(values):.1f} ms"
        f" ({len(values)} samples)"
    )


async def run(args: argparse.Namespace, database: Path) -> int:
    """Drive the bot; print the figures; 0 when the targets are met."""
    burst = getattr(args, "burst", 0) or 0
    if burst:
        # N games, one move each, all sent at once.
        args = argparse.Namespace(**{**vars(args), "games": burst, "moves": burst})
        args.ramp = args.think = 0.0
    rng = random.Random(args.seed)
    width, height = NAMED_SIZES[args.size]
    per_game, extra = divmod(args.moves, args.games)
    if per_game + (extra > 0) > width * height // 2:
        raise SystemExit(f"too many moves per game for {args.size}")
    errors = ErrorCounter()
    root = logging.getLogger()
    level = root.level
    root.addHandler(errors)
    root.setLevel(logging.WARNING)
    fake = FakeDiscord()
    # A bench of its own: the fake answers late callbacks like Discord (404 after 3 s).
    await fake.start()
    try:
        with patch_discord(fake):
            guild = fake.create_guild("Load")
            general = fake.channel_named("general", guild)
            tables = []
            for n in range(args.games):
                pink, blue = fake.create_user(f"pink{n}"), fake.create_user(f"blue{n}")
                fake.add_member(guild, pink)
                fake.add_member(guild, blue)
                count = per_game + (n < extra)
                tables.append(Table(pink, blue, legal_points(width, height, count, rng)))
            bot = create_bot(Settings(token=fake.token, database=database))
            async with run_bot(fake, bot, timeout=30):
                print(
                    f"load: {args.games} games of {args.size} at once, {args.moves} moves; "
                    f"first moves spread over {args.ramp:g} s, think time {args.think:g} ms "
                    f"(seed {args.seed})"
                )
                began = time.perf_counter()
                await asyncio.gather(
                    *(start(fake, t, general, args.size, database) for t in tables)
                )
                started = time.perf_counter() - began
                print(f"start: {args.games} challenges accepted in {started:.1f} s")
                setup = list(fake.handles())
                replies = Replies()
                poller = asyncio.create_task(replies.run())
                began = time.perf_counter()
                await asyncio.gather(
                    *(
                        play(
                            fake,
                            t,
                            replies,
                            delay=args.ramp * n / args.games,
                            think=args.think / 1000,
                            rng=random.Random(args.seed + n),
                        )
                        for n, t in enumerate(tables)
                    )
                )
                elapsed = time.perf_counter() - began
                poller.cancel()
                # The handler of a move goes on briefly after its reply (the turn DM check).
                await asyncio.sleep(0.5)
        moves = [h for t in tables for h in t.handles]
        first = [h.response_latency * 1000 for h in moves if h.response_latency is not None]
        upload = [h.file_latency * 1000 for h in moves if h.file_latency is not None]
        paced = " (paced by the players' think time)" if args.think else ""
        print(f"moves: {len(moves)} in {elapsed:.1f} s = {len(moves) / elapsed:.1f} moves/s{paced}")
        print(line("first response (INTERACTION_CREATE -> callback)", first))
        print(line("picture upload (INTERACTION_CREATE -> PNG received)", upload))
        setup_first = [h.response_latency * 1000 for h in setup if h.response_latency]
        print(line("challenge and accept, first response", setup_first))
        failed = sum(len(h.failures) for h in fake.handles())
        unanswered = sum(1 for h in moves if h.response_latency is None)
        problems = [p for t in tables for p in t.problems]
        print(
            f"errors: {failed} failed requests, {unanswered} unanswered moves, "
            f"{len(problems)} moves without their picture or refused, "
            f"{errors.count} ERROR log records, {len(fake.unrouted)} unrouted requests"
        )
        for message in problems[:5] + errors.first:
            print(f"  {message}")
        total, lost, duplicated, disordered = check_moves(tables, database)
        sent = sum(len(t.sent) for t in tables)
        print(
            f"moves checked against the database: {sent} sent, {total} stored, {lost} lost, "
            f"{duplicated} duplicated, {disordered} games out of order"
        )
        p99 = percentile(first, 99) if first else float("inf")
        if burst:
            deadline = fake.callback_deadline or 3.0
            in_time = sum(
                1
                for h in moves
                if h.response_latency is not None and h.response_latency <= deadline
            )
            late = sum(1 for h in moves for f in h.failures if f.status == 404)
            print(
                f"burst: {len(moves)} moves sent at once in {args.games} games; first answer "
                f"within {deadline:g} s: {in_time}/{len(moves)} "
                f"({'YES' if in_time == len(moves) == burst else 'NO'}), {late} refused as "
                f"too late (10062); first-answer p99 {p99:.1f} ms"
            )
        fast = p99 <= TARGET_P99_MS
        exact = lost == duplicated == disordered == 0 and total == sent == args.moves
        print(
            f"targets: p99 first response <= {TARGET_P99_MS:.0f} ms: {'PASS' if fast else 'FAIL'}"
            f" ({p99:.1f} ms); no move lost or duplicated: {'PASS' if exact else 'FAIL'}"
        )
        return 0 if fast and exact and not problems else 1
    finally:
        root.removeHandler(errors)
        root.setLevel(level)
        await fake.stop()


@dataclass
class Figures:
    """One row of the ``--processes`` table."""

    label: str
    processes: int
    moves_per_second: float
    first: list[float]
    burst: list[float]
    sent: int
    stored: int
    lost: int
    duplicated: int
    errors: int


async def start_remote(fake: FakeDiscord, table: Table, general: Channel, size: str) -> None:
    """``start`` for a bot in other processes: the game's id read from its thread's name
    ("Dots #12: ..."), not from the database (which may be PostgreSQL, or a baseline bot's
    older schema)."""
    handle = await fake.slash(
        table.pink, "challenge", channel=general, opponent=table.blue, colour="pink",
        size=size, clock=DAY,
    )  # fmt: skip
    challenge: Message = await handle.reply(timeout=60)
    accept = next(c for c in challenge.custom_ids() if c.startswith("dots:challenge:accept:"))
    await fake.click(table.blue, challenge, accept)
    thread_id = await fake.wait_until(lambda: challenge.thread_id, timeout=60, poll=None)
    table.thread = fake.channels[thread_id]
    await fake.wait_until(lambda: fake.posted(fake.channels[thread_id]), timeout=60, poll=None)
    found = re.search(r"#(\d+)", table.thread.name)
    if found is None:
        raise RuntimeError(f"no game id in the name of thread {thread_id}: {table.thread.name}")
    table.game_id = int(found.group(1))


async def stored_points(database: str | Path) -> dict[int, list[str]]:
    """Every game's stored points in order: read with sqlite3 from a SQLite file (the Store
    would migrate a baseline bot's older schema), through the Store from PostgreSQL."""
    if not str(database).startswith("postgresql"):
        moves = await asyncio.to_thread(stored_moves, Path(database))
        return {game: [str(point) for _, point in actions] for game, actions in moves.items()}
    store = await Store.open(database)
    try:
        rows = await store.execute("SELECT game_id, point FROM actions ORDER BY game_id, seq")
    finally:
        await store.close()
    stored: dict[int, list[str]] = {}
    for game_id, point in rows:
        stored.setdefault(int(game_id), []).append(str(point))  # type: ignore[call-overload]
    return stored


async def measure_processes(
    args: argparse.Namespace,
    label: str,
    database: str | Path,
    count: int,
    logs: Path,
    *,
    root: Path = ROOT,
) -> Figures:
    """Saturate ``count`` bot processes (of the checkout ``root``) on ``database``, then send
    a burst; the figures."""
    rng = random.Random(args.seed)
    width, height = NAMED_SIZES[args.size]
    per_game, extra = divmod(args.moves, args.games)
    fake = FakeDiscord()
    await fake.start()
    processes: list[BotProcess] = []
    try:
        sharded = count > 1
        guilds = [
            fake.create_guild(f"Load {i}", shard=(i, count) if sharded else None)
            for i in range(count)
        ]
        tables = []
        for n in range(args.games):
            guild = guilds[n % count]
            pink, blue = fake.create_user(f"pink{n}"), fake.create_user(f"blue{n}")
            fake.add_member(guild, pink)
            fake.add_member(guild, blue)
            # One more point than it plays: its move in the burst.
            points = legal_points(width, height, per_game + (n < extra) + 1, rng)
            tables.append(Table(pink, blue, points))
        processes = [
            BotProcess(fake, database, logs, shard=(i, count) if sharded else None, root=root)
            for i in range(count)
        ]
        await asyncio.gather(*(p.start(timeout=120) for p in processes))
        await fake.wait_until(lambda: fake.global_commands, timeout=60, poll=0.05)
        await asyncio.gather(
            *(
                start_remote(fake, t, fake.channel_named("general", guilds[n % count]), args.size)
                for n, t in enumerate(tables)
            )
        )
        bursts = [t.points.pop() for t in tables]
        replies = Replies()
        poller = asyncio.create_task(replies.run())
        began = time.perf_counter()
        await asyncio.gather(
            *(
                play(fake, t, replies, delay=0.0, think=0.0, rng=random.Random(args.seed + n))
                for n, t in enumerate(tables)
            )
        )
        elapsed = time.perf_counter() - began
        moves = [h for t in tables for h in t.handles]
        await asyncio.sleep(1.0)
        # The burst: one move in each of the first ``--burst`` games, all in the same instant.
        chosen = tables[: args.burst or 50]
        for table, point in zip(chosen, bursts, strict=False):
            table.points = [point]
        before = {id(t): len(t.handles) for t in chosen}
        await asyncio.gather(
            *(play(fake, t, replies, delay=0.0, think=0.0, rng=rng) for t in chosen)
        )
        burst = [
            h.response_latency * 1000
            for t in chosen
            for h in t.handles[before[id(t)] :]
            if h.response_latency is not None
        ]
        poller.cancel()
        await asyncio.sleep(0.5)
        stored = await stored_points(database)
        lost = duplicated = 0
        for table in tables:
            sent, got = Counter(table.sent), Counter(stored.get(table.game_id, []))
            lost += sum((sent - got).values())
            duplicated += sum((got - sent).values())
        problems = sum(len(t.problems) for t in tables) + sum(len(h.failures) for h in moves)
        errors = sum(p.read_log().count(" ERROR ") for p in processes)
        return Figures(
            label, count, len(moves) / elapsed,
            [h.response_latency * 1000 for h in moves if h.response_latency is not None],
            burst, sum(len(t.sent) for t in tables), sum(map(len, stored.values())), lost,
            duplicated,
            problems + errors,
        )  # fmt: skip
    finally:
        for process in processes:
            process.stop()
        await fake.stop()


def print_table(rows: Sequence[Figures], args: argparse.Namespace) -> None:
    """The figures side by side."""
    print(
        f"processes: {args.games} games of {args.size}, {args.moves} moves saturated "
        f"(think time 0), then one move in each of {min(args.burst or 50, args.games)} games "
        "at once"
    )
    print(
        f"{'database':<11} {'procs':>5} {'moves/s':>8} {'first p50':>10} {'first p99':>10} "
        f"{'burst p99':>10} {'sent':>6} {'stored':>6} {'lost':>4} {'dup':>4} {'errors':>6}"
    )
    for r in rows:
        first50, first99 = percentile(r.first, 50), percentile(r.first, 99)
        burst99 = percentile(r.burst, 99) if r.burst else float("nan")
        print(
            f"{r.label:<11} {r.processes:>5} {r.moves_per_second:>8.1f} {first50:>8.1f}ms "
            f"{first99:>8.1f}ms {burst99:>8.1f}ms {r.sent:>6} {r.stored:>6} {r.lost:>4} "
            f"{r.duplicated:>4} {r.errors:>6}"
        )


async def run_processes(args: argparse.Namespace) -> int:
    """The ``--processes`` table: SQLite with one process, PostgreSQL with 1 .. N; with
    ``--baseline REF`` first SQLite with one process of the bot at REF and of this one, twice
    in turn (the machine's noise falls on both), and their ratio."""
    rows: list[Figures] = []
    logging.getLogger().setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.baseline:
            baseline = folder / "baseline"
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(baseline),
                 args.baseline], check=True, capture_output=True,
            )  # fmt: skip
            try:
                for round_ in range(2):
                    for root, label in ((baseline, args.baseline[:10]), (ROOT, "SQLite")):
                        database = folder / f"{label}-{round_}.sqlite3"
                        rows.append(
                            await measure_processes(args, label, database, 1, folder, root=root)
                        )
            finally:
                subprocess.run(
                    ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(baseline)],
                    check=False, capture_output=True,
                )  # fmt: skip
        else:
            rows.append(await measure_processes(args, "SQLite", folder / "load.sqlite3", 1, folder))
        binaries = postgres.find_binaries()
        if binaries is None:
            print(postgres.HOW_TO_ENABLE)
        else:
            cluster = postgres.Cluster.start(binaries)
            try:
                for count in range(1, args.processes + 1):
                    database = cluster.create_database()
                    rows.append(
                        await measure_processes(args, "PostgreSQL", database, count, folder)
                    )
            finally:
                cluster.stop()
    print_table(rows, args)
    if args.baseline:
        old = [r.moves_per_second for r in rows if r.label == args.baseline[:10]]
        new = [r.moves_per_second for r in rows if r.label == "SQLite"]
        print(
            f"SQLite moves/s, this tree / {args.baseline}: {sum(new) / sum(old):.2f} "
            f"(target: at least 0.90)"
        )
    exact = all(r.lost == r.duplicated == r.errors == 0 for r in rows)
    print(f"no move lost or duplicated, no error: {'PASS' if exact else 'FAIL'}")
    return 0 if exact else 1


def main() -> None:
    """Parse the flags and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games played at once")
    parser.add_argument("--moves", type=int, default=2000, help="moves in all")
    parser.add_argument("--size", default="20x20", choices=sorted(NAMED_SIZES), help="board")
    parser.add_argument(
        "--ramp",
        type=float,
        default=2.0,
        help="seconds over which the games make their first move (0: all in the same instant)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=2000.0,
        help="mean think time before each move, in ms (0: saturate the bot)",
    )
    parser.add_argument(
        "--burst",
        type=int,
        default=0,
        metavar="N",
        help="N games, then one move in each sent at once: is every first answer within 3 s?",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="N",
        help="real dots-bot processes: SQLite x1, PostgreSQL x1..N, side by side",
    )
    parser.add_argument(
        "--baseline",
        metavar="REF",
        help="with --processes: also SQLite x1 of the bot at this git commit, side by side",
    )
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--database", type=Path, help="keep the SQLite file here")
    args = parser.parse_args()
    if args.processes:
        sys.exit(asyncio.run(run_processes(args)))
    if args.database is not None:
        args.database.unlink(missing_ok=True)
        sys.exit(asyncio.run(run(args, args.database)))
    with tempfile.TemporaryDirectory() as tmp:
        sys.exit(asyncio.run(run(args, Path(tmp) / "load.sqlite3")))


if __name__ == "__main__":
    main()
