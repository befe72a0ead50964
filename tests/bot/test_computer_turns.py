"""The computer's turns as a service (bot/computer_turns.py), without any adapter.

The computer's turn does not depend on an announcement succeeding; a search whose worker
process dies (twice) is retried, and the computer always answers.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from pathlib import Path

import pytest
import pytest_asyncio

import ai
from bot.computer_turns import ComputerTurns
from bot.games import (
    ComputerMoved,
    Event,
    GameOptions,
    GameService,
    GameView,
    Thinker,
)
from bot.storage.timers import Shards
from engine import Player, Point, Record
from tests.bot.service_fakes import ALICE, CHANNEL, GUILD, FakeTime, eventually, open_service


class Recorder:
    """Subscribes to the service; keeps the ComputerMoved events and the backoff sleeps."""

    def __init__(self, service: GameService) -> None:
        self.moved: list[ComputerMoved] = []
        self.sleeps: list[float] = []
        service.subscribe(self.on_event)

    def on_event(self, event: Event) -> None:
        if isinstance(event, ComputerMoved):
            self.moved.append(event)

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


@pytest_asyncio.fixture(name="service")
async def computer_service(tmp_path: Path, clock: FakeTime) -> AsyncIterator[GameService]:
    """A service whose computer thinks in a thread with a tiny budget."""
    svc = await open_service(tmp_path / "dots.sqlite3", clock)
    svc.thinker = Thinker(processes=False, iterations=10)
    yield svc
    await svc.close()


async def start(service: GameService, colour: str = "pink") -> GameView:
    return await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        level="easy",
        options=GameOptions(colour=colour),  # type: ignore[arg-type]
    )


async def settled(turns: ComputerTurns) -> None:
    await eventually(lambda: turns.armed == 0)


async def test_the_computer_answers_a_committed_move_with_no_adapter_asking(
    service: GameService,
) -> None:
    seen = Recorder(service)
    turns = ComputerTurns(service)
    try:
        view = await start(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
        assert turns.is_armed(game_id=view.game_id)  # armed by the commit itself
        await settled(turns)
        (moved,) = seen.moved
        assert len(moved.outcomes) == 1 and moved.outcome.action is not None
        assert moved.outcome.action.player is Player.BLUE
        assert moved.outcome.next_user_id == ALICE
        assert len((await service.game(view.game_id)).game.actions) == 2
    finally:
        await turns.stop()


async def test_as_pink_the_computer_moves_as_soon_as_the_game_starts(
    service: GameService,
) -> None:
    seen = Recorder(service)
    turns = ComputerTurns(service)
    try:
        view = await start(service, "blue")
        await settled(turns)
        assert [m.outcome.action.player for m in seen.moved if m.outcome.action] == [Player.PINK]
        assert (await service.game(view.game_id)).to_move_id == ALICE
    finally:
        await turns.stop()


async def test_a_subscriber_that_fails_does_not_stop_the_computer(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(event: Event) -> None:
        raise RuntimeError("the post failed")

    service.subscribe(broken)
    turns = ComputerTurns(service)
    try:
        view = await start(service)
        for point in ("E5", "C3"):
            await service.place(game_id=view.game_id, user_id=ALICE, point=point)
            await settled(turns)
        assert len((await service.game(view.game_id)).game.actions) == 4
    finally:
        await turns.stop()


async def test_at_start_the_games_waiting_for_the_computer_are_re_armed(
    tmp_path: Path, clock: FakeTime
) -> None:
    path = tmp_path / "restart.sqlite3"
    service = await open_service(path, clock)
    waiting = await start(service, "blue")  # no ComputerTurns: nobody plays it
    await service.close()
    service = await open_service(path, clock)
    service.thinker = Thinker(processes=False, iterations=10)
    seen = Recorder(service)
    turns = ComputerTurns(service)
    try:
        assert await turns.start() == 1
        await settled(turns)
        assert [m.outcome.view.game_id for m in seen.moved] == [waiting.game_id]
        assert await service.computer_turns() == []
    finally:
        await turns.stop()
        await service.close()


async def test_each_process_re_arms_only_the_computer_turns_of_its_shards(
    tmp_path: Path, clock: FakeTime
) -> None:
    """Shard 1 of 2 plays the waiting game of its server; shard 0 leaves it alone."""
    path = tmp_path / "shards.sqlite3"
    service = await open_service(path, clock)
    theirs = await service.start_computer_game(
        guild_id=(1 << 22) + 5, channel_id=CHANNEL, user_id=ALICE, level="easy",
        options=GameOptions(colour="blue"),
    )  # fmt: skip
    await service.close()
    service = await open_service(path, clock)
    service.thinker = Thinker(processes=False, iterations=10)
    seen = Recorder(service)
    zero = ComputerTurns(service, shards=Shards.of(2, [0]))
    one = ComputerTurns(service, shards=Shards.of(2, [1]))
    try:
        assert await zero.start() == 0
        assert await one.start() == 1
        await settled(one)
        assert [m.outcome.view.game_id for m in seen.moved] == [theirs.game_id]
    finally:
        await zero.stop()
        await one.stop()
        await service.close()


class ScriptedThinker(Thinker):
    """Plays the given decisions in order; ``failures`` searches fail first (the pool's
    worker died), and cheap searches are counted."""

    def __init__(self, decisions: list[str], *, failures: int = 0) -> None:
        super().__init__(processes=False)
        self.decisions = list(decisions)
        self.failures = failures
        self.cheap = 0

    async def choose(
        self, record: Record, level: str, seed: int, *, cheap: bool = False
    ) -> ai.Decision:
        if cheap:
            self.cheap += 1
        elif self.failures:
            self.failures -= 1
            raise BrokenProcessPool("A child process terminated abruptly")
        decision = self.decisions.pop(0)
        if decision == "end":
            return ai.Decision("end")
        return ai.Decision("dot", Point.parse(decision))


async def test_playing_on_alone_is_one_event_with_every_action(service: GameService) -> None:
    service.thinker = ScriptedThinker(["D5", "F5", "E6", "end"])
    seen = Recorder(service)
    turns = ComputerTurns(service)
    try:
        view = await start(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="A1")
        await settled(turns)
        await service.end(game_id=view.game_id, user_id=ALICE)
        await settled(turns)
        assert len(seen.moved) == 2
        alone = seen.moved[1]
        assert [o.action.kind for o in alone.outcomes if o.action] == ["dot", "dot", "end"]
        assert alone.outcome.is_over
    finally:
        await turns.stop()


async def test_a_failed_search_is_retried_with_backoff(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    # Twice "the worker died" (the Thinker already replaced it once each time).
    service.thinker = ScriptedThinker(["D5"], failures=2)
    seen = Recorder(service)
    turns = ComputerTurns(service, sleep=seen.sleep)
    try:
        view = await start(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="A1")
        await settled(turns)
        assert seen.sleeps == [1.0, 2.0]
        (moved,) = seen.moved
        assert moved.outcome.action is not None and moved.outcome.action.point == Point.parse("D5")
        assert service.thinker.cheap == 0
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        await turns.stop()


async def test_a_pool_that_keeps_failing_falls_back_to_a_cheap_search(
    service: GameService, caplog: pytest.LogCaptureFixture
) -> None:
    thinker = ScriptedThinker(["D5"], failures=1000)
    service.thinker = thinker
    seen = Recorder(service)
    turns = ComputerTurns(service, sleep=seen.sleep)
    try:
        view = await start(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="A1")
        await settled(turns)
        assert len(seen.sleeps) == turns.attempts - 1
        assert thinker.cheap == 1
        assert len(seen.moved) == 1  # the computer answered all the same
        assert "cheap search" in caplog.text
    finally:
        await turns.stop()


async def test_the_real_cheap_search_answers_in_a_thread(service: GameService) -> None:
    view = await start(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    outcome = await service.computer_move(game_id=view.game_id, cheap=True)
    assert outcome is not None and outcome.action is not None
    assert outcome.action.player is Player.BLUE and outcome.action.point != Point.parse("E5")


class DyingThinker(Thinker):
    """A real process pool whose first ``deaths`` searches kill their worker process."""

    def __init__(self, deaths: int) -> None:
        super().__init__(iterations=10)
        self.deaths = deaths

    def _search(self, record: Record, level: str, seed: int) -> Callable[[], ai.Decision]:
        if self.deaths:
            self.deaths -= 1
            return partial(os._exit, 1)  # type: ignore[arg-type]
        return super()._search(record, level, seed)


async def test_a_worker_process_that_dies_twice_in_one_search(
    tmp_path: Path, clock: FakeTime, caplog: pytest.LogCaptureFixture
) -> None:
    service = await open_service(tmp_path / "pool.sqlite3", clock)
    service.thinker = DyingThinker(deaths=2)
    seen = Recorder(service)
    turns = ComputerTurns(service, sleep=seen.sleep)
    try:
        view = await start(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
        await eventually(lambda: turns.armed == 0, timeout=60)
        assert len(seen.moved) == 1 and seen.sleeps == [1.0]
        assert len((await service.game(view.game_id)).game.actions) == 2
        assert "worker process died" in caplog.text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        await turns.stop()
        await service.close()


async def test_a_move_while_the_computer_is_publishing_gets_its_answer(
    service: GameService,
) -> None:
    """The player moves again before the computer's last event is handed out: the turn that
    follows is played once the first is done, not lost."""
    release = asyncio.Event()
    turns = ComputerTurns(service)
    moved: list[ComputerMoved] = []

    async def slow_subscriber(event: Event) -> None:
        if isinstance(event, ComputerMoved):
            moved.append(event)
            if len(moved) == 1:
                await release.wait()

    service.subscribe(slow_subscriber)
    try:
        view = await start(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
        await eventually(lambda: len(moved) == 1)
        await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        release.set()
        await settled(turns)
        assert len(moved) == 2
        assert len((await service.game(view.game_id)).game.actions) == 4
    finally:
        await turns.stop()


async def test_once_stopped_it_arms_nothing_and_a_new_one_takes_over(service: GameService) -> None:
    """A bot that closed leaves its turns on the service: they must not play any more."""
    old = ComputerTurns(service)
    await old.stop()
    view = await start(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    assert old.armed == 0
    await asyncio.sleep(0.05)
    assert len((await service.game(view.game_id)).game.actions) == 1
    new = ComputerTurns(service)
    try:
        assert await new.start() == 1
        await settled(new)
        assert len((await service.game(view.game_id)).game.actions) == 2
        assert old.armed == 0
    finally:
        await new.stop()


async def test_the_players_outcome_keeps_the_position_the_player_made(
    service: GameService,
) -> None:
    """The computer moves at once in the cached game: the player's outcome (which the adapter
    draws, maybe later) is a copy of the position after the player's move."""
    turns = ComputerTurns(service)
    try:
        view = await start(service)
        outcome = await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
        await settled(turns)
        assert len((await service.game(view.game_id)).game.actions) == 2
        assert [a.point for a in outcome.view.game.actions] == [Point.parse("E5")]
        assert outcome.view.game.to_move is Player.BLUE
        assert outcome.view.game.board.is_free(
            (await service.game(view.game_id)).game.actions[1].point  # type: ignore[arg-type]
        )
    finally:
        await turns.stop()
