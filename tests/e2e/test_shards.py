"""Two real `dots-bot` processes (shards 0 and 1 of 2) on one PostgreSQL, behind the fake
Discord routing each server to its shard; one of them SIGKILLed at random moments and
restarted, again and again, while people play in servers of both shards and let clocks run
out. Afterwards: every acknowledged move is stored once, every clock that came due fired
exactly once (a stored time-out each, and no deadline left in the past), and no time-out was
announced twice (nor without being stored).

What main does not guarantee yet: a time-out's announcement is posted after its commit, so
a kill between the two loses it. The outbox fixes that; this
test then also asserts that no announcement was lost (it looks for the outbox table).

The processes run ``tests.e2e.shard_worker``: ``dots-bot`` itself pointed at the fake, with
the settings the README gives a server operator (``DOTS_DATABASE``, ``DOTS_SHARD_COUNT``,
``DOTS_SHARD_IDS``). About two minutes: marked ``slow`` (``-m "not slow"`` leaves it out).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.storage import Store, schema
from engine import NAMED_SIZES, Point
from tests import postgres
from tests.e2e.shard_worker import COMMAND, BotProcess
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Guild, Message, User
from tests.postgres import HOW_TO_ENABLE, Cluster

__all__ = ["fake_discord"]  # the fixture is used by name

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
GAMES_PER_SERVER = 3
CLOCK = 30  # seconds a move: the shortest clock the bot allows
KILLS = 12
PLAY_SECONDS = 80.0
SIZE = "16x16"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    """A private PostgreSQL cluster (skipped where PostgreSQL is not installed)."""
    binaries = postgres.find_binaries()
    if binaries is None:
        pytest.skip(HOW_TO_ENABLE)
    found = Cluster.start(binaries)
    try:
        yield found
    finally:
        found.stop()


@dataclass
class Table:
    """One game: its players, its thread and what its players were told."""

    guild: Guild
    pink: User
    blue: User
    thread: Channel | None = None
    game_id: int = 0
    acknowledged: list[str] = field(default_factory=list)


async def start_game(fake: FakeDiscord, table: Table, store: Store) -> None:
    """Challenge, accept, a first move each (a game without moves is aborted, not timed out)."""
    general = fake.channel_named("general", table.guild)
    handle = await fake.slash(
        table.pink, "challenge", channel=general, opponent=table.blue, colour="pink",
        size=SIZE, clock=CLOCK,
    )  # fmt: skip
    challenge: Message = await handle.reply(timeout=30)
    accept = next(c for c in challenge.custom_ids() if c.startswith("dots:challenge:accept:"))
    await fake.click(table.blue, challenge, accept)
    thread_id = await fake.wait_until(lambda: challenge.thread_id, timeout=30, poll=None)
    table.thread = fake.channels[thread_id]
    # The game's row learns its thread just after Discord made it.
    for _ in range(200):
        rows = await store.execute("SELECT game_id FROM games WHERE thread_id = ?", (thread_id,))
        if rows:
            table.game_id = int(rows[0][0])
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"no game in thread {thread_id}")


async def stored_dots(store: Store, game_id: int) -> list[str]:
    rows = await store.execute(
        "SELECT point FROM actions WHERE game_id = ? AND kind = 'dot' ORDER BY seq", (game_id,)
    )
    return [str(r[0]) for r in rows]


async def move(fake: FakeDiscord, table: Table, store: Store, rng: random.Random) -> bool:
    """One move by whoever is to move, on a free point; False once the game is over."""
    assert table.thread is not None
    taken = set(await stored_dots(store, table.game_id))
    width, height = NAMED_SIZES[SIZE]
    free = [Point(x, y).name for x in range(width) for y in range(height)]
    point = rng.choice([p for p in free if p not in taken])
    for player in rng.sample([table.pink, table.blue], 2):
        handle = await fake.slash(player, "move", channel=table.thread, point=point)
        try:
            reply = await handle.reply(timeout=8)
        except TimeoutError:
            return True  # its process was killed: not acknowledged
        # The new card goes to the thread; the player is told privately it was played.
        if reply.is_ephemeral and f"Played {point} in game" in reply.content:
            table.acknowledged.append(point)
            return True
        if "over" in reply.content:
            return False
        if "not your turn" not in reply.content:
            return True  # a point inside a base, say: try another next time
    return True


async def play(
    fake: FakeDiscord, table: Table, store: Store, rng: random.Random, until: float
) -> None:
    """Move now and then, with one pause longer than the clock (so that it runs out)."""
    pause_at = time.monotonic() + rng.uniform(2, until - time.monotonic() - CLOCK - 8)
    paused = False
    while time.monotonic() < until:
        if not paused and time.monotonic() >= pause_at:
            paused = True
            await asyncio.sleep(CLOCK + rng.uniform(2, 6))
            continue
        if not await move(fake, table, store, rng):
            return
        await asyncio.sleep(rng.uniform(0.3, 2.0))


async def chaos(processes: list[BotProcess], rng: random.Random, until: float) -> int:
    """SIGKILL a random process at a random moment and restart it, at least ``KILLS`` times
    and until ``until``; how many kills."""
    kills = 0
    while kills < KILLS or time.monotonic() < until:
        await asyncio.sleep(rng.uniform(0.5, 4.0))
        victim = rng.choice(processes)
        victim.kill()
        kills += 1
        await asyncio.sleep(rng.uniform(0.0, 1.5))  # down for a moment
        await victim.start()
    return kills


async def test_two_shard_processes_killed_again_and_again_lose_nothing(
    fake_discord: FakeDiscord, cluster: Cluster, tmp_path: Path
) -> None:
    fake = fake_discord
    rng = random.Random(12)
    database = cluster.create_database()
    servers = [fake.create_guild(f"Shard {n}", shard=(n, SHARDS)) for n in range(SHARDS)]
    tables = []
    for guild in servers:
        for n in range(GAMES_PER_SERVER):
            pink, blue = fake.create_user(f"pink{n}"), fake.create_user(f"blue{n}")
            fake.add_member(guild, pink)
            fake.add_member(guild, blue)
            tables.append(Table(guild, pink, blue))
    processes = [
        BotProcess(fake, database, tmp_path, shard=(shard, SHARDS)) for shard in range(SHARDS)
    ]
    store = await Store.open(database)
    try:
        for process in processes:
            await process.start()
        await fake.wait_until(lambda: fake.global_commands, timeout=30, poll=0.05)
        # Only one process synced the commands (the advisory lock).
        assert len(fake.command_syncs) == 1
        for table in tables:
            await start_game(fake, table, store)
            thread = table.thread
            assert thread is not None
            await fake.wait_until(lambda t=thread: fake.posted(t), timeout=30, poll=None)
            for _ in range(2):
                await move(fake, table, store, rng)

        until = time.monotonic() + PLAY_SECONDS
        results = await asyncio.gather(
            chaos(processes, random.Random(rng.random()), until),
            *(play(fake, t, store, random.Random(rng.random()), until) for t in tables),
        )
        kills = results[0]

        # Both processes are up: every clock that came due fires (re-armed after a kill).
        async def overdue() -> list[tuple[object, ...]]:
            return await store.execute(
                "SELECT game_id FROM games WHERE status = 'running' AND deadline < ?",
                (time.time() - 2,),
            )

        deadline = time.monotonic() + CLOCK + 20
        while await overdue() and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
        assert await overdue() == [], "a clock came due and never fired"
        await asyncio.sleep(3)  # the last announcements on their way

        outcome = await store.execute(
            "SELECT game_id, seq, kind, point FROM actions ORDER BY game_id, seq"
        )
    finally:
        for process in processes:
            process.stop()
        await store.close()

    assert kills >= 10
    by_game: dict[int, list[tuple[str, str | None]]] = {}
    for game_id, _, kind, point in outcome:
        by_game.setdefault(int(game_id), []).append((str(kind), point))  # type: ignore[arg-type]
    timeouts = lost = 0
    for table in tables:
        actions = by_game[table.game_id]
        dots = Counter(point for kind, point in actions if kind == "dot")
        # Every acknowledged move is stored, once.
        assert all(dots[point] == 1 for point in table.acknowledged), table.game_id
        assert len(set(table.acknowledged)) == len(table.acknowledged)
        stored = sum(1 for kind, _ in actions if kind == "time")
        assert table.thread is not None
        announced = sum("ran out of time" in m.text() for m in fake.posted(table.thread))
        # Never twice, never without a stored time-out.
        assert announced <= stored, (table.game_id, announced, stored)
        timeouts += stored
        lost += stored - announced
    # Every game paused longer than its clock once: at least one time-out each.
    assert timeouts >= len(tables)
    print(f"kills {kills}, time-outs stored {timeouts}, announcements lost {lost}")
    if hasattr(schema, "outbox"):
        assert lost == 0, f"{lost} time-out announcements lost"
    for process in processes:
        text = process.read_log()
        assert "Traceback" not in text, text[-3000:]


def test_the_readme_gives_the_operator_the_commands_this_test_runs(tmp_path: Path) -> None:
    """The README's section on several processes shows the settings and the command the
    processes above are started with, so it stays true."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Many servers") :]
    section = section[: section.index("\n## ", 1)]
    fake = FakeDiscord()
    for shard in range(SHARDS):
        process = BotProcess(fake, "postgresql://x/db", tmp_path, shard=(shard, SHARDS))
        environ = process.environment()
        assert f"DOTS_SHARD_COUNT={environ['DOTS_SHARD_COUNT']}" in section
        command = f"DOTS_SHARD_IDS={environ['DOTS_SHARD_IDS']} .venv/bin/dots-bot"
        assert f"{command} {' '.join(COMMAND)}" in section
    assert "DOTS_DATABASE=postgresql://" in section
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text(encoding="utf-8")
    assert "DOTS_SHARD_COUNT=" in example and "DOTS_SHARD_IDS=" in example
