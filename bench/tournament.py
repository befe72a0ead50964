"""Tournaments: how long the pairing library takes, and whether the bot stays responsive
while a round opens its games' threads.

1. Pairing time of a 256-player Swiss round (FIDE Dutch, ``py4swiss``): round 1, and
   the later rounds with the history of the rounds before it (each played out, the lower starting
   number winning, every tenth game drawn), as the bot pairs it (``bot.games.pairing``).
2. The real bot against the fake Discord: 64 players join a Swiss and an admin starts it; the
   round opens its 32 game threads (paced within Discord's limit on thread creation, which the
   fake enforces with 429s). Meanwhile players send ``/tournament list`` and ``/rules`` every
   50 ms; printed: the first answers' p50/p99 (from INTERACTION_CREATE sent to the bot's first
   response), how long the 32 threads took, and the 429s the fake answered.

Run: python bench/tournament.py [--players 256] [--rounds 3] [--open 64] [--no-open] (a round
of 256 players takes seconds; with caissify-pairings, used before, round 2 took 75 s for 128
players and over 18 minutes for 256: its matching was networkx's pure-Python one).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import create_bot
from bot.config import Settings
from bot.games.pairing import Format, Seeded, pair_round
from bot.storage.rows import PairingRow
from tests.fakediscord.fixtures import patch_discord, run_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.timings import percentile


def pairing_times(players: int, rounds: int) -> list[float]:
    """Seconds to pair each round of a ``players``-player Swiss of ``rounds`` rounds."""
    field = [Seeded(n + 1, n + 1, 2400 - n) for n in range(players)]
    history: list[PairingRow] = []
    times = []
    for round_ in range(1, rounds + 1):
        began = time.perf_counter()
        boards = pair_round(Format.SWISS, field, history, round_=round_, rounds=rounds)
        times.append(time.perf_counter() - began)
        for number, board in enumerate(boards, 1):
            if board.blue_id is None:
                history.append(PairingRow(1, round_, number, board.pink_id, None, None, 1, 0))
                continue
            drawn = number % 10 == 0
            pink_wins = board.pink_id < board.blue_id
            pink = 0.5 if drawn else float(pink_wins)
            history.append(
                PairingRow(1, round_, number, board.pink_id, board.blue_id, number, pink, 1 - pink)
            )
    return times


async def responsiveness(players: int, database: Path) -> None:
    """Start a ``players``-player Swiss through the bot; print the first answers' latency
    while its first round opens its threads."""
    logging.getLogger().setLevel(logging.WARNING)
    fake = FakeDiscord()
    await fake.start()
    try:
        with patch_discord(fake):
            guild = fake.create_guild("Bench")
            general = fake.channel_named("general", guild)
            admin = fake.create_user("admin")
            fake.add_member(guild, admin, permissions=1 << 5)
            entrants = []
            for n in range(players):
                user = fake.create_user(f"player{n}")
                fake.add_member(guild, user)
                entrants.append(user)
            bot = create_bot(Settings(token=fake.token, database=database))
            async with run_bot(fake, bot, timeout=60):
                made = await fake.slash(
                    admin, "tournament create", channel=general, format="swiss",
                    players=players, clock=3600, round_hours=48, rated=False,
                )  # fmt: skip
                await made.reply()
                for user in entrants:
                    await (await fake.slash(user, "tournament join", channel=general)).reply()
                games = players // 2
                before = len(fake.threads())
                began = time.perf_counter()
                await fake.slash(admin, "tournament start", channel=general)
                latencies: list[float] = []

                def opened() -> int:
                    return len(fake.threads()) - before  # the tournament's own came before

                n = 0
                while opened() < games and time.perf_counter() - began < 120:
                    user = entrants[n % len(entrants)]
                    command = "tournament list" if n % 2 else "rules"
                    handle = await fake.slash(user, command, channel=general)
                    await handle.reply(timeout=10)
                    if handle.response_latency is not None:
                        latencies.append(handle.response_latency * 1000)
                    n += 1
                    await asyncio.sleep(0.05)
                took = time.perf_counter() - began
                p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
                print(
                    f"a {players}-player round: {opened()} game threads in {took:.1f} s; "
                    f"{fake.thread_limit.limited} thread creations rate limited (429)"
                )
                print(
                    f"first answers meanwhile ({len(latencies)}): p50 {p50:.1f} ms, "
                    f"p99 {p99:.1f} ms, max {max(latencies):.1f} ms"
                )
    finally:
        await fake.stop()


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=256, help="players of the paired Swiss")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the paired Swiss")
    parser.add_argument("--open", type=int, default=64, help="players of the round opened")
    parser.add_argument("--no-open", action="store_true", help="only the pairing times")
    args = parser.parse_args()
    times = pairing_times(args.players, args.rounds)
    print(f"pairing a {args.players}-player Swiss round (FIDE Dutch, py4swiss):")
    for round_, seconds in enumerate(times, 1):
        print(f"  round {round_}: {seconds * 1000:.0f} ms")
    if args.no_open:
        return
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(responsiveness(args.open, Path(folder) / "bench.sqlite3"))


if __name__ == "__main__":
    main()
