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

``--pictures DIR`` writes instead the README's standings pictures (English and Polish) of a
7-player Swiss of 3 rounds played through the service: a bye each round, a draw on the first
board, a withdrawal after round 1.

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
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import create_bot
from bot.cogs.tournament_posts import standings_rows
from bot.config import Settings
from bot.games import GameOptions, GameService
from bot.games.pairing import Format, Seeded, pair_round
from bot.games.tournaments import TournamentPlan
from bot.i18n import _, translate
from bot.storage.rows import PairingRow
from renderer.standings import standings_png
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


NAMES = ["Anna", "Bartek", "Celina", "Dmytro", "Ewa", "Fiodor", "Grażyna"]


async def standings_pictures(folder: Path, database: Path) -> None:
    """The README's pictures: a 7-player Swiss's standings after its 3 rounds, in English and
    Polish (``docs/tournament-standings-{en,pl}.png``)."""
    service = await GameService.open(database)
    plan = TournamentPlan(
        format=Format.SWISS,
        options=GameOptions(rated=False),
        round_length=timedelta(days=2),
        max_players=16,
        rounds=3,
    )
    made = await service.create_tournament(
        guild_id=1, channel_id=1, creator_id=1, is_admin=True, plan=plan
    )
    tid, ids = made.tournament_id, list(range(101, 108))
    for user in ids:
        await service.join_tournament(tournament_id=tid, guild_id=1, user_id=user)
    await service.start_tournament(tournament_id=tid, guild_id=1, user_id=1, is_admin=True)
    await service.advance_tournament(tournament_id=tid)
    for round_ in (1, 2, 3):
        if round_ == 2:  # Grażyna withdraws after round 1: her later games are forfeits
            await service.withdraw_from_tournament(tournament_id=tid, guild_id=1, user_id=107)
        for board in await service.tournament_pairings(tournament_id=tid, round_=round_):
            view = None if board.game_id is None else await service.game(board.game_id)
            if view is None or not view.is_running:
                continue
            await service.place(game_id=view.game_id, user_id=view.pink_id, point="B2")
            await service.place(game_id=view.game_id, user_id=view.blue_id, point="H8")
            if board.board == 1:  # a draw: both end
                await service.end(game_id=view.game_id, user_id=view.pink_id)
                await service.end(game_id=view.game_id, user_id=view.blue_id)
            else:  # the lower number wins
                loser = max(view.pink_id, view.blue_id)
                await service.resign(game_id=view.game_id, user_id=loser)
        await service.advance_tournament(tournament_id=tid)
    tournament = await service.tournament(tournament_id=tid)
    lines = await service.tournament_standings(tournament_id=tid)
    await service.close()
    name = dict(zip(ids, NAMES, strict=True))
    for locale in ("en", "pl"):
        heads, rows = standings_rows(tournament.format, lines, name, locale)
        title = translate(locale, _("Tournament #{id}: after round {round}", id=tid, round=3))
        out = folder / f"tournament-standings-{locale}.png"
        out.write_bytes(standings_png(title, heads, rows))
        print(f"wrote {out}")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=256, help="players of the paired Swiss")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the paired Swiss")
    parser.add_argument("--open", type=int, default=64, help="players of the round opened")
    parser.add_argument("--no-open", action="store_true", help="only the pairing times")
    parser.add_argument("--pictures", type=Path, help="write the README's standings pictures")
    args = parser.parse_args()
    if args.pictures is not None:
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(standings_pictures(args.pictures, Path(folder) / "pictures.sqlite3"))
        return
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
