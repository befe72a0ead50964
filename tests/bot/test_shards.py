"""Several processes over one database: each re-arms only the clocks of the servers on its
shards (games, challenges, tournaments, the puzzle of the day), and only one of them runs the
one-off jobs (the command sync)."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from bot.clocks import Clocks
from bot.config import Shards
from bot.games import GameOptions, GameService
from bot.games.pairing import Format
from bot.games.tournaments import TournamentPlan
from bot.storage import Store
from tests.bot.service_fakes import ALICE, BOB, CAROL, CHANNEL, FakeTime

# Two servers: one on shard 0 of 2, one on shard 1.
ZERO, ONE = 1000 << 22, (1001 << 22) | 5


async def fill(service: GameService) -> dict[int, tuple[int, int, int, int]]:
    """In each server: a running game, an open challenge, a game against the computer
    waiting for its move, a tournament taking entrants until a deadline and a puzzle of the
    day; (game, challenge, computer game, tournament) ids by server."""
    made = {}
    for guild in (ZERO, ONE):
        challenge = await service.challenge(
            guild_id=guild,
            channel_id=CHANNEL,
            challenger_id=ALICE,
            opponent_id=BOB,
            options=GameOptions(colour="pink"),
        )
        game = await service.accept(challenge_id=challenge.challenge_id, user_id=BOB)
        waiting = await service.challenge(
            guild_id=guild, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=CAROL
        )
        computer = await service.start_computer_game(
            guild_id=guild,
            channel_id=CHANNEL,
            user_id=CAROL,
            options=GameOptions(colour="blue"),
        )
        plan = TournamentPlan(
            Format.SWISS, GameOptions(), timedelta(days=2), registration=timedelta(days=1)
        )
        tournament = await service.create_tournament(
            guild_id=guild, channel_id=CHANNEL, creator_id=ALICE, is_admin=True, plan=plan
        )
        await service.set_daily_puzzle(guild_id=guild, channel_id=CHANNEL)
        made[guild] = (
            game.game_id,
            waiting.challenge_id,
            computer.game_id,
            tournament.tournament_id,
        )
    return made  # fmt: skip


async def test_a_process_re_arms_only_its_own_shards_games(database: str | Path) -> None:
    clock = FakeTime()
    service = await GameService.open(database, now=clock.now, rng=random.Random(1))
    try:
        made = await fill(service)
    finally:
        await service.close()
    clock_keys = {}
    for shard in (0, 1):
        owner = Shards(2, (shard,))
        process = await GameService.open(database, now=clock.now, owns=owner.owns)
        try:
            timers = await Clocks(process, shards=owner).pending()
            clock_keys[shard] = {(t.kind, t.ref_id) for t in timers}
            turns = await process.computer_turns()
        finally:
            await process.close()
        guild = ZERO if shard == 0 else ONE
        game, challenge, computer, tournament = made[guild]
        assert turns == [computer]
        mine = {("game", game), ("challenge", challenge), ("tournament", tournament)}
        assert mine | {("daily", guild)} <= clock_keys[shard]
    # Between them they cover every clock, each once.
    assert not clock_keys[0] & clock_keys[1]
    everything = await GameService.open(database, now=clock.now)
    try:
        timers = await Clocks(everything).pending()
        assert {(t.kind, t.ref_id) for t in timers} == clock_keys[0] | clock_keys[1]
    finally:
        await everything.close()


async def test_one_process_of_several_runs_the_one_off_jobs(database: str | Path) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        assert await first.claim_one_off_jobs()
        assert await first.claim_one_off_jobs()  # held: asking again changes nothing
        if isinstance(database, Path):
            # SQLite has one process: it always runs them.
            assert await second.claim_one_off_jobs()
            return
        assert not await second.claim_one_off_jobs()
        await first.close()  # the process stops (or dies): the server frees the lock
        assert await second.claim_one_off_jobs()
        third = await Store.open(database)
        try:
            assert not await third.claim_one_off_jobs()
        finally:
            await third.close()
    finally:
        await first.close()
        await second.close()
