"""Takebacks by consent and game clocks wired into the game service, on
a real SQLite database migrated by the real migrations; restarts reopen the same file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from bot.clocks import Clocks
from bot.games import (
    GameOptions,
    GameService,
    IllegalMove,
    NotAgainstComputer,
    NotYourGame,
    Thinker,
    TimedOut,
)
from bot.games.game_clock import GameClock
from bot.games.takebacks import (
    TAKEBACK_TTL,
    AlreadyAsked,
    NothingToTakeBack,
    NotYourTakeback,
    TakebackClosed,
    TakebacksOff,
)
from engine import Player
from tests.bot.service_fakes import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeTime, new_game
from tests.bot.service_fakes import open_service as open_at

S = timedelta(seconds=1)


@pytest_asyncio.fixture(name="service")
async def service_fixture(tmp_path: Path, clock: FakeTime) -> AsyncIterator[GameService]:
    svc = await open_at(tmp_path / "dots.sqlite3", clock)
    yield svc
    await svc.close()


async def actions_in_db(service: GameService, game_id: int) -> list[tuple[object, ...]]:
    return await service.store.execute(
        "SELECT seq, player, point FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )


# -- takebacks -----------------------------------------------------------------------------


async def test_an_accepted_takeback_pops_the_dot_and_restarts_the_askers_clock(
    service: GameService, clock: FakeTime
) -> None:
    view = await new_game(service, options=GameOptions(rated=False))
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    await service.place(game_id=view.game_id, user_id=BOB, point="F5")
    clock.advance(5 * S)
    await service.place(game_id=view.game_id, user_id=ALICE, point="D4")
    clock.advance(20 * S)
    request = await service.ask_takeback(game_id=view.game_id, user_id=ALICE)
    assert (request.asker_id, request.opponent_id, request.point) == (ALICE, BOB, "D4")
    clock.advance(10 * S)
    answer = await service.answer_takeback(
        game_id=view.game_id, user_id=BOB, moves=request.moves, accept=True
    )
    assert answer.taken is not None and answer.taken.point is not None
    assert answer.taken.point.name == "D4"
    after = answer.view
    assert after.to_move is Player.PINK and len(after.game.actions) == 2
    assert after.game.board.is_free(answer.taken.point)
    assert after.deadline == clock.now() + view.clock
    assert await actions_in_db(service, view.game_id) == [(0, 1, "E5"), (1, 2, "F5")]
    # What a restart rebuilds is the same position, and Alice plays on.
    again = await service.game(view.game_id)
    assert [a.point for a in again.game.actions] == [a.point for a in after.game.actions]
    await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
    with pytest.raises(TakebackClosed, match=r"already accepted|moved on"):
        await service.answer_takeback(
            game_id=view.game_id, user_id=BOB, moves=request.moves, accept=True
        )


async def test_a_declined_takeback_changes_nothing_and_cannot_be_asked_again(
    service: GameService,
) -> None:
    view = await new_game(service, options=GameOptions(rated=False))
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    before = await service.game(view.game_id)
    request = await service.ask_takeback(game_id=view.game_id, user_id=ALICE)
    answer = await service.answer_takeback(
        game_id=view.game_id, user_id=BOB, moves=request.moves, accept=False
    )
    assert answer.taken is None and answer.request.status == "declined"
    after = await service.game(view.game_id)
    assert len(after.game.actions) == 1 and after.deadline == before.deadline
    with pytest.raises(AlreadyAsked, match="declined"):
        await service.ask_takeback(game_id=view.game_id, user_id=ALICE)
    with pytest.raises(TakebackClosed, match="already declined"):
        await service.answer_takeback(
            game_id=view.game_id, user_id=BOB, moves=request.moves, accept=True
        )


async def test_takeback_refusals_change_nothing(service: GameService, clock: FakeTime) -> None:
    rated = await new_game(service)
    await service.place(game_id=rated.game_id, user_id=ALICE, point="E5")
    with pytest.raises(TakebacksOff, match="takebacks are off"):
        await service.ask_takeback(game_id=rated.game_id, user_id=ALICE)
    game = await new_game(service, pink=ALICE, blue=CAROL, options=GameOptions(rated=False))
    with pytest.raises(NothingToTakeBack, match="right after your move"):
        await service.ask_takeback(game_id=game.game_id, user_id=ALICE)  # no move yet
    await service.place(game_id=game.game_id, user_id=ALICE, point="E5")
    with pytest.raises(NothingToTakeBack):
        await service.ask_takeback(game_id=game.game_id, user_id=CAROL)  # not their dot
    with pytest.raises(NotYourGame):
        await service.ask_takeback(game_id=game.game_id, user_id=BOB)
    request = await service.ask_takeback(game_id=game.game_id, user_id=ALICE)
    with pytest.raises(AlreadyAsked, match="wait for the answer"):
        await service.ask_takeback(game_id=game.game_id, user_id=ALICE)
    for who, says in ((ALICE, "your opponent answers"), (BOB, "only the players")):
        with pytest.raises(NotYourTakeback, match=says):
            await service.answer_takeback(
                game_id=game.game_id, user_id=who, moves=request.moves, accept=True
            )
    with pytest.raises(TakebackClosed, match="moved on"):
        await service.answer_takeback(
            game_id=game.game_id, user_id=CAROL, moves=request.moves + 1, accept=True
        )
    clock.advance(TAKEBACK_TTL)
    with pytest.raises(TakebackClosed, match="expired"):
        await service.answer_takeback(
            game_id=game.game_id, user_id=CAROL, moves=request.moves, accept=True
        )
    # Expired: it may be asked again; the old request's buttons do not answer the new one,
    # and then the opponent's move ends it.
    again = await service.ask_takeback(game_id=game.game_id, user_id=ALICE)
    assert again.asked_key != request.asked_key and again.moves == request.moves
    with pytest.raises(TakebackClosed, match="a newer one"):
        await service.answer_takeback(
            game_id=game.game_id,
            user_id=CAROL,
            moves=request.moves,
            accept=True,
            asked=request.asked_key,
        )
    await service.place(game_id=game.game_id, user_id=CAROL, point="F5")
    with pytest.raises(TakebackClosed, match="moved on"):
        await service.answer_takeback(
            game_id=game.game_id, user_id=CAROL, moves=again.moves, accept=True
        )
    assert len((await service.game(game.game_id)).game.actions) == 2


async def test_rated_games_allow_takebacks_when_the_challenge_enabled_them(
    service: GameService,
) -> None:
    view = await new_game(service, options=GameOptions(takebacks=True))
    assert view.rated and view.takebacks
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    request = await service.ask_takeback(game_id=view.game_id, user_id=ALICE)
    assert request.status == "pending"
    off = await new_game(
        service, pink=ALICE, blue=CAROL, options=GameOptions(rated=False, takebacks=False)
    )
    assert not off.takebacks


async def test_against_the_computer_takeback_points_to_undo(service: GameService) -> None:
    view = await service.start_computer_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, options=GameOptions(colour="blue")
    )
    with pytest.raises(NotAgainstComputer, match="/undo"):
        await service.ask_takeback(game_id=view.game_id, user_id=ALICE)


async def test_a_takeback_request_survives_a_restart(tmp_path: Path, clock: FakeTime) -> None:
    path = tmp_path / "dots.sqlite3"
    first = await open_at(path, clock)
    view = await new_game(first, options=GameOptions(rated=False))
    await first.place(game_id=view.game_id, user_id=ALICE, point="E5")
    request = await first.ask_takeback(game_id=view.game_id, user_id=ALICE)
    await first.set_takeback_message(game_id=view.game_id, message_id=777)
    await first.close()
    second = await open_at(path, clock)
    try:
        with pytest.raises(AlreadyAsked):
            await second.ask_takeback(game_id=view.game_id, user_id=ALICE)
        answer = await second.answer_takeback(
            game_id=view.game_id, user_id=BOB, moves=request.moves, accept=True
        )
        assert answer.request.message_id == 777
        assert answer.view.game.actions == ()
    finally:
        await second.close()


# -- game clocks ---------------------------------------------------------------------------


async def test_a_game_clock_counts_each_players_time_and_adds_the_increment(
    service: GameService, clock: FakeTime
) -> None:
    five = GameClock.parse("5+5")
    view = await new_game(service, options=GameOptions(game_clock=five, rated=False))
    assert view.game_clock == five
    assert view.deadline == clock.now() + 5 * timedelta(minutes=1)
    clock.advance(12 * S)
    moved = (await service.place(game_id=view.game_id, user_id=ALICE, point="E5")).view
    left = moved.times_left(clock.now())
    assert left == {Player.PINK: timedelta(minutes=5) - 7 * S, Player.BLUE: timedelta(minutes=5)}
    assert moved.deadline == clock.now() + timedelta(minutes=5)  # Blue's whole time
    clock.advance(100 * S)
    moved = (await service.place(game_id=view.game_id, user_id=BOB, point="F5")).view
    assert moved.times_left(clock.now()) == {
        Player.PINK: timedelta(minutes=5) - 7 * S,
        Player.BLUE: timedelta(minutes=5) - 95 * S,
    }
    assert moved.deadline == clock.now() + timedelta(minutes=5) - 7 * S
    # Accepted takebacks: time spent stays spent, the increment of the dot taken back goes.
    clock.advance(3 * S)
    moved = (await service.place(game_id=view.game_id, user_id=ALICE, point="D4")).view
    clock.advance(4 * S)
    request = await service.ask_takeback(game_id=view.game_id, user_id=ALICE)
    answer = await service.answer_takeback(
        game_id=view.game_id, user_id=BOB, moves=request.moves, accept=True
    )
    assert answer.view.times_left(clock.now()) == {
        Player.PINK: timedelta(minutes=5) - 10 * S,
        Player.BLUE: timedelta(minutes=5) - 99 * S,
    }
    assert answer.view.deadline == clock.now() + timedelta(minutes=5) - 10 * S


async def test_running_out_of_game_clock_is_a_time_out_and_a_late_move_is_refused(
    service: GameService, clock: FakeTime
) -> None:
    view = await new_game(service, options=GameOptions(game_clock=GameClock.parse("30s+0")))
    clock.advance(10 * S)
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    clock.advance(30 * S)
    with pytest.raises(IllegalMove, match="your time ran out"):
        await service.place(game_id=view.game_id, user_id=BOB, point="F5")
    assert len((await service.game(view.game_id)).game.actions) == 1
    events: list[object] = []
    service.subscribe(events.append)
    deadline = (await service.game(view.game_id)).deadline
    assert deadline is not None
    outcome = await service.time_out(game_id=view.game_id, deadline=deadline)
    assert outcome is not None and outcome.action is not None
    assert outcome.action.kind == "time" and isinstance(events[0], TimedOut)
    after = outcome.view
    # Blue has ended (rule 7.2); Pink plays alone on her 20 seconds left.
    assert after.is_running and after.to_move is Player.PINK
    assert after.times_left(clock.now()) == {Player.PINK: 20 * S, Player.BLUE: timedelta(0)}
    assert after.deadline == clock.now() + 20 * S


async def test_game_clocks_keep_exact_times_across_a_restart_and_time_out_there(
    tmp_path: Path, clock: FakeTime
) -> None:
    path = tmp_path / "dots.sqlite3"
    first = await open_at(path, clock)
    view = await new_game(first, options=GameOptions(game_clock=GameClock.parse("1+2")))
    clock.advance(timedelta(seconds=7, milliseconds=321))
    await first.place(game_id=view.game_id, user_id=ALICE, point="E5")
    before = await first.game(view.game_id)
    await first.close()
    second = await open_at(path, clock)
    clocks = Clocks(second, sleep=clock.sleep)
    try:
        again = await second.game(view.game_id)
        assert again.clock_state == before.clock_state
        assert again.times_left(clock.now()) == {
            Player.PINK: timedelta(seconds=54, milliseconds=679),
            Player.BLUE: timedelta(minutes=1),
        }
        assert await clocks.start() == 1
        clock.advance(timedelta(minutes=1))
        for _ in range(200):
            now = await second.game(view.game_id)
            if len(now.game.actions) == 2:
                break
            clock.advance(timedelta(0))
            await asyncio.sleep(0.005)
        assert now.game.actions[-1].kind == "time"
        assert now.to_move is Player.PINK
    finally:
        await clocks.stop()
        await second.close()


async def test_play_computer_takes_a_game_clock(service: GameService, clock: FakeTime) -> None:
    view = await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        options=GameOptions(colour="pink", game_clock=GameClock.parse("3d+1d")),
    )
    assert view.game_clock == GameClock.parse("3d+1d")
    assert view.deadline == clock.now() + timedelta(days=3)
    # The stored per-move clock is the total within its range: the reminder comes at a third.
    assert view.clock == timedelta(days=3)


async def test_undo_against_the_computer_on_a_game_clock_keeps_time_spent(
    service: GameService, clock: FakeTime
) -> None:
    service.thinker = Thinker(processes=False, iterations=10)
    view = await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        options=GameOptions(colour="pink", game_clock=GameClock.parse("2+10")),
    )
    clock.advance(30 * S)
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    clock.advance(2 * S)
    replied = await service.computer_move(game_id=view.game_id)
    assert replied is not None
    clock.advance(8 * S)
    undone = await service.undo(game_id=view.game_id, user_id=ALICE)
    # Alice spent 30 s and 8 s; both increments of the moves taken back go back.
    assert undone.view.times_left(clock.now()) == {
        Player.PINK: timedelta(minutes=2) - 38 * S,
        Player.BLUE: timedelta(minutes=2) - 2 * S,
    }
    assert undone.view.deadline == clock.now() + timedelta(minutes=2) - 38 * S
