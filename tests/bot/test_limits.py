"""Per-user limits of a server: open challenges, running games and games
against the computer, counted in the transaction that would pass them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games import GameOptions, GameService, OptionOutOfRange
from bot.games.challenges import LimitReached, UserLimits
from tests.bot.service_fakes import ALICE, BOB, CHANNEL, GUILD, FakeTime, new_game, open_service

OTHER_GUILD = GUILD + 1


@pytest_asyncio.fixture
async def service(database: str | Path) -> AsyncIterator[GameService]:
    """A service on a fresh database of each kind (on PostgreSQL the bursts below run in
    parallel transactions: the counts must be race-safe there)."""
    opened = await open_service(database, FakeTime())
    yield opened
    await opened.close()


async def count(service: GameService, sql: str) -> int:
    ((n,),) = await service.store.execute(sql)
    return int(n)  # type: ignore[call-overload]


async def test_a_burst_of_challenges_stops_at_the_limit(
    service: GameService,
) -> None:
    async def challenge(opponent: int) -> object:
        return await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=opponent
        )

    results = await asyncio.gather(
        *(challenge(1000 + n) for n in range(1000)), return_exceptions=True
    )
    refused = [r for r in results if isinstance(r, LimitReached)]
    assert len(refused) == 990 and len(results) - len(refused) == 10
    assert "10 open challenges" in str(refused[0]) and "withdraw" in str(refused[0])
    assert await count(service, "SELECT count(*) FROM challenges") == 10
    # The limit is per server, and a withdrawn challenge frees a place.
    await service.challenge(
        guild_id=OTHER_GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    first = (await service.open_challenges(user_id=ALICE, guild_id=GUILD))[0]
    await service.cancel(challenge_id=first.challenge_id, user_id=ALICE)
    await challenge(5000)
    with pytest.raises(LimitReached):
        await challenge(5001)


async def test_a_burst_of_computer_games_stops_at_the_limit(
    service: GameService,
) -> None:
    results = await asyncio.gather(
        *(
            service.start_computer_game(
                guild_id=GUILD,
                channel_id=CHANNEL,
                user_id=ALICE,
                level="easy",
                options=GameOptions(colour="pink"),
            )
            for _ in range(300)
        ),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, LimitReached)]
    assert len(refused) == 295, [r for r in results if isinstance(r, Exception)][:3]
    assert "5 games against the computer" in str(refused[0])
    assert await count(service, "SELECT count(*) FROM games") == 5
    # Another member is not held back by Alice's games.
    await service.start_computer_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=BOB, options=GameOptions(colour="pink")
    )


async def test_running_games_limit_refuses_the_accept_and_keeps_the_challenge(
    service: GameService,
) -> None:
    await service.set_user_limits(guild_id=GUILD, games=2)
    await new_game(service, pink=ALICE, blue=BOB)
    await new_game(service, pink=ALICE, blue=33)
    # Alice is at her limit: she cannot challenge, and Carol cannot accept her challenge.
    with pytest.raises(LimitReached, match="you already have 2 running games"):
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=44
        )
    made = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=44, opponent_id=ALICE
    )
    with pytest.raises(LimitReached, match="you already have 2 running games"):
        await service.accept(challenge_id=made.challenge_id, user_id=ALICE)
    assert (await service.get_challenge(made.challenge_id)).status == "open"
    assert await count(service, "SELECT count(*) FROM games") == 2
    # Raised by an admin: the accept goes through.
    await service.set_user_limits(guild_id=GUILD, games=3)
    await service.accept(challenge_id=made.challenge_id, user_id=ALICE)


async def test_the_other_players_limit_is_named_at_accept(
    service: GameService,
) -> None:
    await service.set_user_limits(guild_id=GUILD, games=1, challenges=5)
    made = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    await new_game(service, pink=ALICE, blue=33)
    with pytest.raises(LimitReached, match=f"<@{ALICE}> already has 1 running game in"):
        await service.accept(challenge_id=made.challenge_id, user_id=BOB)


async def test_limits_are_kept_per_server_and_checked(service: GameService, tmp_path: Path) -> None:
    assert await service.user_limits(guild_id=GUILD) == UserLimits(10, 25, 5)
    changed = await service.set_user_limits(guild_id=GUILD, computer=2)
    assert changed == UserLimits(10, 25, 2)
    assert await service.set_user_limits(guild_id=GUILD, challenges=3) == UserLimits(3, 25, 2)
    assert await service.user_limits(guild_id=OTHER_GUILD) == UserLimits()
    with pytest.raises(OptionOutOfRange, match="between 1 and 1000"):
        await service.set_user_limits(guild_id=GUILD, games=0)
    assert await service.user_limits(guild_id=GUILD) == UserLimits(3, 25, 2)
    # The server's clock setting and its limits do not overwrite each other.
    await service.set_guild_settings(guild_id=GUILD, game_channel_id=77)
    assert await service.user_limits(guild_id=GUILD) == UserLimits(3, 25, 2)
    assert (await service.guild_settings(guild_id=GUILD)).game_channel_id == 77
