"""Games against the computer in the service: start, the computer's replies, undo, refusals."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio

import ai
from bot.games import (
    COMPUTER_IDS,
    GameOptions,
    GameOver,
    GameService,
    GameView,
    NotAgainstComputer,
    NothingToUndo,
    NotYourGame,
    NotYourTurn,
    OptionOutOfRange,
    Thinker,
    computer_name,
    is_computer,
)
from bot.games.computer import computer_level, move_seed
from engine import Game, Player, Point, Record
from tests.bot.service_fakes import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    FakeTime,
    new_game,
    open_service,
)

EASY, MEDIUM, HARD = COMPUTER_IDS["easy"], COMPUTER_IDS["medium"], COMPUTER_IDS["hard"]


@pytest_asyncio.fixture(name="service")
async def computer_service(tmp_path: Path, clock: FakeTime) -> AsyncIterator[GameService]:
    """A service whose computer thinks in a thread with a tiny budget (fast, still seeded)."""
    svc = await open_service(tmp_path / "dots.sqlite3", clock)
    svc.thinker = Thinker(processes=False, iterations=20)
    yield svc
    await svc.close()


async def actions_in_db(service: GameService, game_id: int) -> list[tuple[object, ...]]:
    return await service.store.execute(
        "SELECT seq, kind, player, point FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )


async def start(
    service: GameService, colour: str = "pink", level: str = "easy", **options: object
) -> GameView:
    return await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        level=level,
        options=GameOptions(colour=colour, **options),  # type: ignore[arg-type]
    )


def test_computer_ids_are_negative_and_named_by_level() -> None:
    assert all(user_id < 0 for user_id in COMPUTER_IDS.values())
    assert len(set(COMPUTER_IDS.values())) == len(COMPUTER_IDS) == len(ai.LEVELS)
    assert computer_name(HARD) == "Computer (hard)"
    assert computer_level(MEDIUM) == "medium"
    assert is_computer(EASY) and not is_computer(ALICE) and not is_computer(1)
    with pytest.raises(ValueError, match="not the computer"):
        computer_level(ALICE)


async def test_start_is_unrated_with_the_player_in_the_colour_asked(
    service: GameService, clock: FakeTime
) -> None:
    view = await start(service, "blue", "hard", width=12, height=11, clock=timedelta(minutes=2))
    assert (view.pink_id, view.blue_id) == (HARD, ALICE)
    assert not view.rated and view.is_running
    assert (view.game.width, view.game.height) == (12, 11)
    assert view.deadline == clock.now() + timedelta(minutes=2)
    await service.set_user_limits(guild_id=GUILD, computer=20)  # 13 games against it at once
    random_colours = {(await start(service, "random")).pink_id for _ in range(12)}
    assert random_colours == {ALICE, EASY}


async def test_an_unknown_level_is_refused_and_writes_nothing(service: GameService) -> None:
    with pytest.raises(OptionOutOfRange, match="easy, medium, hard"):
        await start(service, level="grandmaster")
    assert await service.store.execute("SELECT count(*) FROM games") == [(0,)]


async def test_the_computer_answers_a_move_with_a_legal_dot_and_waits(
    service: GameService,
) -> None:
    view = await start(service)
    assert await service.computer_move(game_id=view.game_id) is None  # Alice (Pink) to move
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    outcome = await service.computer_move(game_id=view.game_id)
    assert outcome is not None and outcome.action is not None
    assert outcome.action.kind == "dot" and outcome.action.player is Player.BLUE
    assert outcome.action.point is not None and outcome.action.point.name != "E5"
    assert outcome.next_user_id == ALICE and not outcome.is_over
    rows = await actions_in_db(service, view.game_id)
    assert rows == [(0, "dot", 1, "E5"), (1, "dot", 2, outcome.action.point.name)]
    assert await service.computer_move(game_id=view.game_id) is None


async def test_as_pink_the_computer_moves_first(service: GameService) -> None:
    view = await start(service, "blue")
    outcome = await service.computer_move(game_id=view.game_id)
    assert outcome is not None and outcome.action is not None
    assert outcome.action.player is Player.PINK and outcome.next_user_id == ALICE


async def test_its_move_is_the_seeded_search_of_the_position(service: GameService) -> None:
    view = await start(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="D4")
    before = (await service.game(view.game_id)).game.record
    outcome = await service.computer_move(game_id=view.game_id)
    assert outcome is not None and outcome.action is not None
    expected = ai.choose_from_record(
        before, "easy", move_seed(game_id=view.game_id, moves=1), iterations=20
    )
    assert outcome.action.point == expected.point


async def test_a_move_made_while_it_thinks_wins_and_its_answer_is_dropped(
    service: GameService,
) -> None:
    release = asyncio.Event()
    asked = asyncio.Event()

    class SlowThinker(Thinker):
        async def choose(
            self, record: Record, level: str, seed: int, *, cheap: bool = False
        ) -> ai.Decision:
            asked.set()
            await release.wait()
            return ai.choose_from_record(record, level, seed, iterations=5)

    service.thinker = SlowThinker()
    view = await start(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    thinking = asyncio.create_task(service.computer_move(game_id=view.game_id))
    await asked.wait()
    # A second request for the same game does not search again.
    assert await service.computer_move(game_id=view.game_id) is None
    await service.resign(game_id=view.game_id, user_id=ALICE)
    release.set()
    assert await thinking is None
    assert len(await actions_in_db(service, view.game_id)) == 2  # E5 and the resignation


async def test_after_the_player_ends_the_computer_plays_on_alone_and_ends(
    service: GameService,
) -> None:
    view = await start(service)
    placed = 0
    for point in ("E5", "F6", "C3", "H8", "B8"):
        if placed == 3 or not (await service.game(view.game_id)).game.board.is_free(point):
            continue  # the computer's replies may have taken it
        await service.place(game_id=view.game_id, user_id=ALICE, point=point)
        assert await service.computer_move(game_id=view.game_id) is not None
        placed += 1
    await service.end(game_id=view.game_id, user_id=ALICE)
    alone = []
    while (outcome := await service.computer_move(game_id=view.game_id)) is not None:
        alone.append(outcome)
        assert len(alone) < 100
    assert alone and alone[-1].is_over
    assert all(o.action is not None and o.action.player is Player.BLUE for o in alone)
    assert alone[-1].result is not None and alone[-1].rating_changes == ()
    final = await service.game(view.game_id)
    assert final.status == "over" and final.game.ended == {Player.PINK, Player.BLUE}


async def test_undo_takes_back_the_move_and_the_reply_and_restarts_the_clock(
    service: GameService, clock: FakeTime
) -> None:
    view = await start(service, clock=timedelta(minutes=5))
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    await service.computer_move(game_id=view.game_id)
    # A10: beyond the computer's reach from E5 (it answers within two steps of a dot).
    await service.place(game_id=view.game_id, user_id=ALICE, point="A10")
    reply = await service.computer_move(game_id=view.game_id)
    assert reply is not None
    clock.advance(timedelta(minutes=3))
    taken_back = await service.undo(game_id=view.game_id, user_id=ALICE)
    assert [a.point for a in taken_back.taken] == [Point.parse("A10"), reply.action.point]  # type: ignore[union-attr]
    undone = taken_back.view
    assert [a.point.name for a in undone.game.actions if a.point] == [
        "E5",
        (await actions_in_db(service, view.game_id))[1][3],
    ]
    assert undone.to_move_id == ALICE and undone.deadline == clock.now() + timedelta(minutes=5)
    assert len(await actions_in_db(service, view.game_id)) == 2
    # The position is the replay of what is left, in memory and from the database.
    expected = Game(10, 10)
    for action in undone.game.actions:
        expected.apply(action)
    assert undone.game.board.picture() == expected.board.picture()
    reopened = await service.game(view.game_id)
    assert reopened.game.board.picture() == expected.board.picture()
    # The game goes on from there: A10 is free again and the computer answers again.
    await service.place(game_id=view.game_id, user_id=ALICE, point="A10")
    assert await service.computer_move(game_id=view.game_id) is not None
    assert len(await actions_in_db(service, view.game_id)) == 4


async def test_undo_refusals_change_nothing(service: GameService) -> None:
    view = await start(service)
    game_id = view.game_id
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        await service.undo(game_id=game_id, user_id=ALICE)
    await service.place(game_id=game_id, user_id=ALICE, point="E5")
    with pytest.raises(NotYourTurn):
        await service.undo(game_id=game_id, user_id=ALICE)  # the computer is to move
    await service.computer_move(game_id=game_id)
    with pytest.raises(NotYourGame):
        await service.undo(game_id=game_id, user_id=CAROL)
    assert len(await actions_in_db(service, game_id)) == 2
    human = await new_game(service, pink=ALICE, blue=BOB)
    await service.place(game_id=human.game_id, user_id=ALICE, point="E5")
    await service.place(game_id=human.game_id, user_id=BOB, point="F5")
    with pytest.raises(NotAgainstComputer, match="against the computer"):
        await service.undo(game_id=human.game_id, user_id=ALICE)
    assert len(await actions_in_db(service, human.game_id)) == 2
    await service.resign(game_id=game_id, user_id=ALICE)
    with pytest.raises(GameOver):
        await service.undo(game_id=game_id, user_id=ALICE)


async def test_the_computers_turns_are_found_again_after_a_restart(
    tmp_path: Path, clock: FakeTime
) -> None:
    path = tmp_path / "restart.sqlite3"
    service = await open_service(path, clock)
    waiting = await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        level="medium",
        options=GameOptions(colour="blue"),
    )
    await service.start_computer_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=BOB, options=GameOptions(colour="pink")
    )
    await new_game(service)
    await service.close()
    service = await open_service(path, clock)
    service.thinker = Thinker(processes=False, iterations=10)
    try:
        assert await service.computer_turns() == [waiting.game_id]
        assert await service.computer_move(game_id=waiting.game_id) is not None
        assert await service.computer_turns() == []
    finally:
        await service.close()


async def test_the_default_thinker_searches_in_another_process(
    tmp_path: Path, clock: FakeTime
) -> None:
    service = await open_service(tmp_path / "pool.sqlite3", clock)
    service.thinker = Thinker(iterations=10)
    try:
        view = await service.start_computer_game(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, options=GameOptions(colour="blue")
        )
        outcome = await service.computer_move(game_id=view.game_id)
        assert outcome is not None and outcome.action is not None
        assert outcome.action.player is Player.PINK
    finally:
        await service.close()


async def test_take_back_writes_nothing_when_another_writer_moved_the_game(
    service: GameService,
) -> None:
    view = await start(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    await service.computer_move(game_id=view.game_id)
    store = service.store
    assert not await store.games.take_back(view.game_id, moves=3, keep=1, deadline=0.0)
    assert len(await actions_in_db(service, view.game_id)) == 2
    assert await store.games.take_back(view.game_id, moves=2, keep=0, deadline=0.0)
    assert await actions_in_db(service, view.game_id) == []
    assert (await store.games.game(view.game_id)).moves == 0  # type: ignore[union-attr]
