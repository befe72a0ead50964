"""Rematches and open challenges in the game service, on SQLite and
PostgreSQL: who may ask, what the rematch copies, and the races (two clicks at once make one
rematch; two takers of an open challenge make one game), decided in the database."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games import (
    CannotChallengeSelf,
    Challenge,
    ChallengeClosed,
    GameOptions,
    GameService,
    GameView,
    NotYourChallenge,
    NotYourGame,
    computer_id,
)
from bot.games.game_clock import GameClock
from bot.games.rematch import NoRematch
from engine import Player
from tests.bot.service_fakes import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeTime, open_service


@pytest_asyncio.fixture
async def clock() -> FakeTime:
    """The service's clock."""
    return FakeTime()


@pytest_asyncio.fixture
async def service(database: str | Path, clock: FakeTime) -> AsyncIterator[GameService]:
    """A service on a fresh database of each kind (on PostgreSQL the races below run in
    parallel transactions)."""
    opened = await open_service(database, clock)
    yield opened
    await opened.close()


async def rows(service: GameService, sql: str) -> list[tuple[object, ...]]:
    """The rows of a query on the service's database."""
    return await service.store.execute(sql)


OPTIONS = GameOptions(
    width=16, height=12, rules="grounding", start="cross", clock=timedelta(minutes=5), rated=False
)


async def finished(service: GameService) -> GameView:
    """A game alice (Pink) and bob played one dot each in, then bob resigned."""
    challenge = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        options=replace(OPTIONS, colour="pink"),
    )
    view = await service.accept(challenge_id=challenge.challenge_id, user_id=BOB)
    await service.place(game_id=view.game_id, user_id=ALICE, point="B2")
    await service.place(game_id=view.game_id, user_id=BOB, point="C2")
    return (await service.resign(game_id=view.game_id, user_id=BOB)).view


# -- rematch ---------------------------------------------------------------------------------


async def test_a_rematch_offer_swaps_colours_and_copies_the_options(
    service: GameService,
) -> None:
    old = await finished(service)
    offer = await service.rematch(game_id=old.game_id, user_id=ALICE)
    assert isinstance(offer, Challenge)
    assert (offer.challenger_id, offer.opponent_id, offer.rematch_of) == (ALICE, BOB, old.game_id)
    # Alice was Pink; the game's takeback setting (the default, on when unrated) is kept.
    assert offer.options == replace(OPTIONS, colour="blue", takebacks=OPTIONS.allows_takebacks)
    assert offer.channel_id == CHANNEL and offer.is_open
    new = await service.accept(challenge_id=offer.challenge_id, user_id=BOB)
    assert (new.pink_id, new.blue_id) == (BOB, ALICE)
    game = new.game
    assert (game.width, game.height, game.rules, game.start) == (16, 12, "grounding", "cross")
    assert (new.clock, new.rated) == (timedelta(minutes=5), False)
    # The same game's rematch again: refused, naming the new game.
    with pytest.raises(NoRematch, match=f"game #{new.game_id}"):
        await service.rematch(game_id=old.game_id, user_id=BOB)


async def test_a_rematch_keeps_the_game_clock_and_takebacks_off(service: GameService) -> None:
    """A rated 5+5 game without takebacks: its rematch is a 5+5 game without takebacks."""
    challenge = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        options=GameOptions(colour="pink", game_clock=GameClock.parse("5+5"), takebacks=False),
    )
    view = await service.accept(challenge_id=challenge.challenge_id, user_id=BOB)
    old = (await service.resign(game_id=view.game_id, user_id=BOB)).view
    offer = await service.rematch(game_id=old.game_id, user_id=BOB)
    assert isinstance(offer, Challenge)
    assert offer.options.game_clock == GameClock.parse("5+5")
    assert offer.options.takebacks is False
    new = await service.accept(challenge_id=offer.challenge_id, user_id=ALICE)
    assert (new.pink_id, new.blue_id) == (BOB, ALICE)
    assert new.game_clock == GameClock.parse("5+5") and not new.takebacks


async def test_two_rematch_clicks_at_once_make_one_offer(service: GameService) -> None:
    old = await finished(service)
    asked = await asyncio.gather(
        service.rematch(game_id=old.game_id, user_id=ALICE),
        service.rematch(game_id=old.game_id, user_id=BOB),
        service.rematch(game_id=old.game_id, user_id=ALICE),
        return_exceptions=True,
    )
    offers = [a for a in asked if isinstance(a, Challenge)]
    assert len(offers) == 1
    assert all(isinstance(a, NoRematch) for a in asked if a is not offers[0])
    assert await rows(service, "SELECT COUNT(*) FROM challenges WHERE rematch_of IS NOT NULL") == [
        (1,)
    ]


async def test_a_rematch_is_refused_to_a_bystander_a_running_game_and_after_it_expired(
    service: GameService, clock: FakeTime
) -> None:
    old = await finished(service)
    with pytest.raises(NotYourGame, match="only the players"):
        await service.rematch(game_id=old.game_id, user_id=CAROL)
    running = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=CAROL, opponent_id=BOB
    )
    view = await service.accept(challenge_id=running.challenge_id, user_id=BOB)
    with pytest.raises(NoRematch, match="still being played"):
        await service.rematch(game_id=view.game_id, user_id=BOB)
    offer = await service.rematch(game_id=old.game_id, user_id=BOB)
    assert isinstance(offer, Challenge)
    with pytest.raises(NotYourChallenge):
        await service.accept(challenge_id=offer.challenge_id, user_id=CAROL)
    with pytest.raises(NoRematch, match="waits for"):
        await service.rematch(game_id=old.game_id, user_id=BOB)
    with pytest.raises(NoRematch, match="has offered you"):
        await service.rematch(game_id=old.game_id, user_id=ALICE)
    clock.advance(timedelta(minutes=10, seconds=1))
    with pytest.raises(NoRematch, match="expired"):
        await service.rematch(game_id=old.game_id, user_id=ALICE)
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.accept(challenge_id=offer.challenge_id, user_id=ALICE)
    assert await rows(service, "SELECT COUNT(*) FROM games") == [(2,)]


async def test_a_declined_rematch_is_not_offered_again(service: GameService) -> None:
    old = await finished(service)
    offer = await service.rematch(game_id=old.game_id, user_id=BOB)
    assert isinstance(offer, Challenge)
    await service.decline(challenge_id=offer.challenge_id, user_id=ALICE)
    with pytest.raises(NoRematch, match="declined"):
        await service.rematch(game_id=old.game_id, user_id=BOB)


async def test_a_rematch_against_the_computer_starts_at_once_once(service: GameService) -> None:
    easy = computer_id("easy")
    first = await service.start_computer_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, level="easy",
        options=replace(OPTIONS, colour="pink"),
    )  # fmt: skip
    await service.resign(game_id=first.game_id, user_id=ALICE)
    started = await asyncio.gather(
        service.rematch(game_id=first.game_id, user_id=ALICE),
        service.rematch(game_id=first.game_id, user_id=ALICE),
        return_exceptions=True,
    )
    views = [s for s in started if isinstance(s, GameView)]
    assert len(views) == 1 and isinstance(next(s for s in started if s is not views[0]), NoRematch)
    new = views[0]
    assert (new.pink_id, new.blue_id) == (easy, ALICE) and new.is_running
    assert (new.game.width, new.game.rules, new.clock) == (16, "grounding", timedelta(minutes=5))
    assert new.game.to_move is Player.PINK  # the computer's turn (its listeners were told)
    assert await rows(service, "SELECT status, rematch_of, game_id FROM challenges") == [
        ("accepted", first.game_id, new.game_id)
    ]
    assert await service.unshown_accepts() == []  # nothing for the start-up repair to show


# -- open challenges -------------------------------------------------------------------------


async def test_two_takers_of_an_open_challenge_at_once_make_one_game(
    service: GameService,
) -> None:
    challenge = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=None
    )
    assert challenge.opponent_id is None
    with pytest.raises(CannotChallengeSelf, match="your own challenge"):
        await service.accept(challenge_id=challenge.challenge_id, user_id=ALICE)
    taken = await asyncio.gather(
        service.accept(challenge_id=challenge.challenge_id, user_id=BOB),
        service.accept(challenge_id=challenge.challenge_id, user_id=CAROL),
        return_exceptions=True,
    )
    games = [t for t in taken if isinstance(t, GameView)]
    assert len(games) == 1
    (refused,) = [t for t in taken if not isinstance(t, GameView)]
    taker = next(u for u in (BOB, CAROL) if u in games[0].players)
    assert isinstance(refused, ChallengeClosed) and f"<@{taker}>" in str(refused)
    assert ALICE in games[0].players
    stored = await service.get_challenge(challenge.challenge_id)
    assert (stored.status, stored.opponent_id, stored.game_id) == (
        "accepted", taker, games[0].game_id
    )  # fmt: skip
    assert await rows(service, "SELECT COUNT(*) FROM games") == [(1,)]


async def test_an_open_challenge_cannot_be_declined_and_one_at_a_time(
    service: GameService,
) -> None:
    challenge = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=None
    )
    with pytest.raises(NotYourChallenge):
        await service.decline(challenge_id=challenge.challenge_id, user_id=BOB)
    with pytest.raises(Exception, match="open challenge to anyone"):
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=None
        )
    named = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    assert named.opponent_id == BOB
    assert [c.challenge_id for c in await service.open_challenges(user_id=ALICE)] == [
        challenge.challenge_id, named.challenge_id
    ]  # fmt: skip
