"""The game service's use-cases and refusals, on real databases: a SQLite file (tmp_path) and,
where installed, a PostgreSQL database (the ``database`` fixture)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games import (
    CannotChallengeBot,
    CannotChallengeSelf,
    ChallengeClosed,
    ChallengeExists,
    ChallengeExpired,
    GameChanged,
    GameOptions,
    GameOver,
    GameService,
    IllegalMove,
    NoSuchChallenge,
    NoSuchGame,
    NotYourChallenge,
    NotYourGame,
    NotYourTurn,
    OptionOutOfRange,
    Refusal,
    TooLateToAbort,
)
from engine import Player, Point
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


@pytest_asyncio.fixture(name="service")
async def service_fixture(database: str | Path, clock: FakeTime) -> AsyncIterator[GameService]:
    """A service on a fresh database of each kind, migrated by the real migrations."""
    svc = await open_service(database, clock)
    yield svc
    await svc.close()


# Pink surrounds Blue's E5: D5, F5, E6, E4 (Blue plays on the edge meanwhile).
CAPTURE = [("D5", ALICE), ("E5", BOB), ("F5", ALICE), ("A1", BOB), ("E6", ALICE), ("A3", BOB)]


async def actions_in_db(service: GameService, game_id: int) -> list[tuple[object, ...]]:
    return await service.store.execute(
        "SELECT seq, kind, player, point FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )


async def challenge(service: GameService, **options: object) -> int:
    made = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        options=GameOptions(**options),  # type: ignore[arg-type]
    )
    return made.challenge_id


# -- challenges ----------------------------------------------------------------------------


async def test_challenge_accept_starts_a_game_with_pinks_clock_running(
    service: GameService, clock: FakeTime
) -> None:
    cid = await challenge(service, width=16, height=12, colour="blue", clock=timedelta(minutes=5))
    stored = await service.get_challenge(cid)
    assert stored.is_open and stored.expires == clock.now() + timedelta(minutes=10)
    view = await service.accept(challenge_id=cid, user_id=BOB)
    assert (view.pink_id, view.blue_id) == (BOB, ALICE)
    assert (view.game.width, view.game.height) == (16, 12)
    assert view.deadline == clock.now() + timedelta(minutes=5)
    assert view.to_move_id == BOB and view.is_running
    assert (await service.get_challenge(cid)).status == "accepted"
    assert (await service.get_challenge(cid)).game_id == view.game_id


async def test_random_colour_gives_both_colours_over_many_challenges(
    service: GameService,
) -> None:
    pinks = set()
    for _ in range(12):
        cid = await challenge(service, colour="random")
        view = await service.accept(challenge_id=cid, user_id=BOB)
        pinks.add(view.pink_id)
        await service.abort(game_id=view.game_id, user_id=ALICE)
    assert pinks == {ALICE, BOB}


async def test_challenge_refusals(service: GameService) -> None:
    with pytest.raises(CannotChallengeSelf):
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=ALICE
        )
    with pytest.raises(CannotChallengeBot):
        await service.challenge(
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger_id=ALICE,
            opponent_id=BOB,
            opponent_is_bot=True,
        )
    await challenge(service)
    with pytest.raises(ChallengeExists):
        await challenge(service)
    with pytest.raises(ChallengeExists):  # the other way round
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=BOB, opponent_id=ALICE
        )
    # Another server is another matter.
    await service.challenge(
        guild_id=GUILD + 1, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    assert len(await service.store.execute("SELECT * FROM challenges")) == 2


@pytest.mark.parametrize(
    "options",
    [
        {"width": 4},
        {"height": 53},
        {"rules": "chess"},
        {"start": "diamond"},
        {"clock": timedelta(seconds=29)},
        {"clock": timedelta(days=7, seconds=1)},
        {"colour": "green"},
        {"width": 5, "height": 5, "start": "four-crosses"},
    ],
)
async def test_options_out_of_range_are_refused_and_store_nothing(
    service: GameService, options: dict[str, object]
) -> None:
    with pytest.raises(OptionOutOfRange) as refused:
        await challenge(service, **options)
    assert str(refused.value)
    assert await service.store.execute("SELECT * FROM challenges") == []


async def test_accept_decline_cancel_refusals(service: GameService, clock: FakeTime) -> None:
    with pytest.raises(NoSuchChallenge):
        await service.accept(challenge_id=999, user_id=BOB)
    cid = await challenge(service)
    with pytest.raises(NotYourChallenge):
        await service.accept(challenge_id=cid, user_id=ALICE)
    with pytest.raises(NotYourChallenge):
        await service.accept(challenge_id=cid, user_id=CAROL)
    with pytest.raises(NotYourChallenge):
        await service.decline(challenge_id=cid, user_id=ALICE)
    with pytest.raises(NotYourChallenge):
        await service.cancel(challenge_id=cid, user_id=BOB)
    assert (await service.get_challenge(cid)).is_open
    declined = await service.decline(challenge_id=cid, user_id=BOB)
    assert declined.status == "declined"
    with pytest.raises(ChallengeClosed, match="declined"):
        await service.accept(challenge_id=cid, user_id=BOB)
    cid2 = await challenge(service)  # a closed challenge no longer blocks a new one
    assert (await service.cancel(challenge_id=cid2, user_id=ALICE)).status == "cancelled"
    with pytest.raises(ChallengeClosed):
        await service.cancel(challenge_id=cid2, user_id=ALICE)
    cid3 = await challenge(service)
    clock.advance(timedelta(minutes=10))
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.accept(challenge_id=cid3, user_id=BOB)
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.decline(challenge_id=cid3, user_id=BOB)
    assert (await service.get_challenge(cid3)).status == "expired"
    assert await service.store.execute("SELECT * FROM games") == []


async def test_expire_only_when_due_and_publishes_once(
    service: GameService, clock: FakeTime
) -> None:
    events: list[object] = []
    service.subscribe(events.append)
    cid = await challenge(service)
    other = await service.challenge(
        guild_id=GUILD, channel_id=CHANNEL, challenger_id=CAROL, opponent_id=BOB
    )
    clock.advance(timedelta(minutes=9, seconds=59))
    assert await service.expire(challenge_id=cid) is None
    assert await service.expire(challenge_id=other.challenge_id) is None
    clock.advance(timedelta(seconds=1))
    expired = [await service.expire(challenge_id=c) for c in (cid, other.challenge_id)]
    assert [c.challenge_id for c in expired if c is not None] == [cid, other.challenge_id]
    assert await service.expire(challenge_id=cid) is None
    assert [type(e) for e in events] == [ChallengeExpired, ChallengeExpired]
    assert await service.open_challenges(user_id=BOB) == []


async def test_open_challenges_and_challenge_message(service: GameService) -> None:
    cid = await challenge(service)
    await service.set_challenge_message(challenge_id=cid, message_id=555)
    listed = await service.open_challenges(user_id=BOB, guild_id=GUILD)
    assert [(c.challenge_id, c.message_id) for c in listed] == [(cid, 555)]
    assert await service.open_challenges(user_id=BOB, guild_id=GUILD + 1) == []
    with pytest.raises(NoSuchChallenge):
        await service.set_challenge_message(challenge_id=cid + 1, message_id=1)


async def test_challenge_uses_the_servers_default_clock(service: GameService) -> None:
    settings = await service.set_guild_settings(
        guild_id=GUILD, game_channel_id=77, default_clock=timedelta(hours=2)
    )
    assert settings.default_clock == timedelta(hours=2)
    assert (await service.guild_settings(guild_id=GUILD)).game_channel_id == 77
    cid = await challenge(service)
    view = await service.accept(challenge_id=cid, user_id=BOB)
    assert view.clock == timedelta(hours=2)
    with pytest.raises(OptionOutOfRange):
        await service.set_guild_settings(guild_id=GUILD, default_clock=timedelta(seconds=5))
    assert (await service.guild_settings(guild_id=GUILD)).default_clock == timedelta(hours=2)
    assert (await service.guild_settings(guild_id=GUILD + 5)).default_clock == timedelta(seconds=60)


async def test_notify_preference(service: GameService) -> None:
    assert await service.wants_notify(user_id=ALICE) is False
    await service.set_notify(user_id=ALICE, on=True)
    assert await service.wants_notify(user_id=ALICE) is True
    await service.set_notify(user_id=ALICE, on=False)
    assert await service.wants_notify(user_id=ALICE) is False


# -- playing -------------------------------------------------------------------------------


async def test_place_captures_and_moves_the_clock(service: GameService, clock: FakeTime) -> None:
    view = await new_game(service)
    for point, user in CAPTURE:
        clock.advance(timedelta(seconds=5))
        outcome = await service.place(game_id=view.game_id, user_id=user, point=point)
        assert outcome.deadline == clock.now() + timedelta(seconds=60)
        assert outcome.next_user_id == (BOB if user == ALICE else ALICE)
    outcome = await service.place(game_id=view.game_id, user_id=ALICE, point="e4")
    assert outcome.placement is not None
    assert outcome.placement.captured == (Point.parse("E5"),)
    assert outcome.placement.pink_gain == 1
    assert outcome.view.game.score(Player.PINK) == 1
    assert not outcome.is_over and outcome.rating_changes == ()
    rows = await actions_in_db(service, view.game_id)
    assert [r[3] for r in rows] == [p for p, _ in CAPTURE] + ["E4"]
    assert [r[2] for r in rows] == [1, 2, 1, 2, 1, 2, 1]


async def test_place_refusals_change_nothing(service: GameService) -> None:
    view = await new_game(service)
    gid = view.game_id
    with pytest.raises(NoSuchGame):
        await service.place(game_id=gid + 1, user_id=ALICE, point="A1")
    with pytest.raises(NotYourGame):
        await service.place(game_id=gid, user_id=CAROL, point="A1")
    with pytest.raises(NotYourTurn):
        await service.place(game_id=gid, user_id=BOB, point="A1")
    await service.place(game_id=gid, user_id=ALICE, point="C3")
    for bad in ("C3", "K3", "hello", "Z99"):
        with pytest.raises(IllegalMove) as refused:
            await service.place(game_id=gid, user_id=BOB, point=bad)
        assert str(refused.value)
    with pytest.raises(IllegalMove, match="already"):
        await service.place(game_id=gid, user_id=BOB, point="C3")
    assert len(await actions_in_db(service, gid)) == 1
    assert (await service.game(gid)).to_move_id == BOB


async def test_inside_base_is_refused(service: GameService) -> None:
    view = await new_game(service)
    for point, user in [*CAPTURE, ("E4", ALICE)]:
        await service.place(game_id=view.game_id, user_id=user, point=point)
    with pytest.raises(IllegalMove):
        await service.place(game_id=view.game_id, user_id=BOB, point="E5")


async def test_both_end_gives_a_rated_result(service: GameService) -> None:
    view = await new_game(service)
    for point, user in [*CAPTURE, ("E4", ALICE)]:
        await service.place(game_id=view.game_id, user_id=user, point=point)
    with pytest.raises(NotYourTurn):
        await service.end(game_id=view.game_id, user_id=ALICE)
    first = await service.end(game_id=view.game_id, user_id=BOB)
    assert not first.is_over and first.next_user_id == ALICE
    # Pink plays on alone after Blue ended (rule 6.2).
    alone = await service.place(game_id=view.game_id, user_id=ALICE, point="J10")
    assert alone.next_user_id == ALICE
    last = await service.end(game_id=view.game_id, user_id=ALICE)
    assert last.is_over and last.result is not None
    assert last.result.winner is Player.PINK and last.result.reason == "ended"
    assert last.deadline is None and last.next_user_id is None
    changes = {c.user_id: c for c in last.rating_changes}
    assert changes[ALICE].after > 1500 > changes[BOB].after
    assert changes[ALICE].provisional
    with pytest.raises(GameOver):
        await service.place(game_id=view.game_id, user_id=BOB, point="A5")
    with pytest.raises(GameOver):
        await service.resign(game_id=view.game_id, user_id=BOB)
    row = (await service.store.execute(
        "SELECT status, winner, pink_score, blue_score, reason, deadline FROM games"
    ))[0]  # fmt: skip
    assert row == ("over", 1, 1, 0, "ended", None)
    board = await service.leaderboard(guild_id=GUILD)
    assert [(r.rank, r.user_id, r.wins, r.losses) for r in board] == [
        (1, ALICE, 1, 0),
        (2, BOB, 0, 1),
    ]
    stats = await service.stats(guild_id=GUILD, user_id=BOB)
    assert (stats.games, stats.losses, stats.rank, stats.running) == (1, 1, 2, 0)
    assert stats.rating == pytest.approx(changes[BOB].after)
    history = await service.history(guild_id=GUILD, user_id=BOB)
    assert [(h.game_id, h.outcome, h.score, h.opponent_score) for h in history] == [
        (view.game_id, "loss", 0, 1)
    ]
    assert history[0].rating_delta == pytest.approx(changes[BOB].delta)


async def test_resign_out_of_turn_and_unrated(service: GameService) -> None:
    view = await new_game(service, options=GameOptions(rated=False))
    await service.place(game_id=view.game_id, user_id=ALICE, point="B2")
    with pytest.raises(NotYourGame):
        await service.resign(game_id=view.game_id, user_id=CAROL)
    outcome = await service.resign(game_id=view.game_id, user_id=ALICE)  # Blue is to move
    assert outcome.is_over and outcome.result is not None
    assert outcome.result.winner is Player.BLUE and outcome.result.reason == "resigned"
    assert outcome.rating_changes == ()
    assert await service.leaderboard(guild_id=GUILD) == []
    history = await service.history(guild_id=GUILD, user_id=BOB)
    assert history[0].outcome == "win" and history[0].rating_delta is None


async def test_grounding_stop_before_five_dots_is_refused(service: GameService) -> None:
    view = await new_game(service, options=GameOptions(rules="grounding"))
    with pytest.raises(IllegalMove, match=r"five|5"):
        await service.end(game_id=view.game_id, user_id=ALICE)
    assert await actions_in_db(service, view.game_id) == []


async def test_abort_only_before_the_first_move(service: GameService) -> None:
    view = await new_game(service)
    with pytest.raises(NotYourGame):
        await service.abort(game_id=view.game_id, user_id=CAROL)
    aborted = await service.abort(game_id=view.game_id, user_id=BOB)
    assert aborted.status == "aborted" and aborted.result is None and aborted.deadline is None
    with pytest.raises(GameOver, match="aborted"):
        await service.abort(game_id=view.game_id, user_id=BOB)
    with pytest.raises(GameOver):
        await service.place(game_id=view.game_id, user_id=ALICE, point="A1")
    second = await new_game(service)
    await service.place(game_id=second.game_id, user_id=ALICE, point="A1")
    with pytest.raises(TooLateToAbort):
        await service.abort(game_id=second.game_id, user_id=BOB)
    assert await service.leaderboard(guild_id=GUILD) == []
    history = await service.history(guild_id=GUILD, user_id=ALICE)
    assert [h.outcome for h in history] == ["aborted"]


async def test_admin_cancel_is_limited_to_its_server(service: GameService) -> None:
    view = await new_game(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="A1")
    with pytest.raises(NoSuchGame):
        await service.admin_cancel(game_id=view.game_id, guild_id=GUILD + 1)
    cancelled = await service.admin_cancel(game_id=view.game_id, guild_id=GUILD)
    assert cancelled.status == "aborted"
    with pytest.raises(GameOver):
        await service.admin_cancel(game_id=view.game_id, guild_id=GUILD)
    assert await service.leaderboard(guild_id=GUILD) == []


async def test_thread_and_message_are_remembered(service: GameService, tmp_path: Path) -> None:
    view = await new_game(service)
    await service.set_game_thread(game_id=view.game_id, thread_id=71)
    await service.set_game_thread(game_id=view.game_id, message_id=72)
    assert (
        (await service.game(view.game_id)).thread_id,
        (await service.game(view.game_id)).message_id,
    ) == (71, 72)
    with pytest.raises(NoSuchGame):
        await service.set_game_thread(game_id=view.game_id + 9, thread_id=1)


async def test_running_games_and_queries_of_finished_games(service: GameService) -> None:
    first = await new_game(service)
    second = await new_game(service, pink=CAROL, blue=ALICE)
    await new_game(service, pink=BOB, blue=CAROL)
    running = await service.running_games(user_id=ALICE)
    assert [v.game_id for v in running] == [first.game_id, second.game_id]
    assert await service.running_games(user_id=ALICE, guild_id=GUILD + 1) == []
    await service.resign(game_id=first.game_id, user_id=BOB)
    assert [v.game_id for v in await service.running_games(user_id=ALICE)] == [second.game_id]
    finished = await service.game(first.game_id)
    assert finished.status == "over" and finished.result is not None
    assert finished.result.winner is Player.PINK
    with pytest.raises(NoSuchGame):
        await service.game(12345)


async def test_refusals_share_one_base_with_a_message() -> None:
    for cls in (NoSuchGame, NotYourTurn, IllegalMove, ChallengeExists, TooLateToAbort):
        assert issubclass(cls, Refusal)
        assert str(cls("why")) == "why"


# -- concurrency, restart, failures -----------------------------------------------------------


async def test_two_places_at_once_apply_exactly_once(service: GameService) -> None:
    view = await new_game(service)
    results = await asyncio.gather(
        service.place(game_id=view.game_id, user_id=ALICE, point="C3"),
        service.place(game_id=view.game_id, user_id=ALICE, point="D4"),
        service.place(game_id=view.game_id, user_id=ALICE, point="C3"),
        return_exceptions=True,
    )
    done = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(done) == 1 and len(refused) == 2
    assert all(isinstance(r, NotYourTurn) for r in refused)
    rows = await actions_in_db(service, view.game_id)
    assert len(rows) == 1
    assert [a.point.name for a in (await service.game(view.game_id)).game.actions if a.point] == [
        rows[0][3]
    ]


async def test_restart_resumes_every_running_game(database: str | Path, clock: FakeTime) -> None:
    path = database
    svc = await open_service(path, clock)
    games = [await new_game(svc, options=GameOptions(start=s, width=20, height=20))
             for s in ("empty", "cross", "four-crosses")]  # fmt: skip
    for view in games:
        for point, user in CAPTURE:
            await svc.place(game_id=view.game_id, user_id=user, point=point)
    before = {v.game_id: (await svc.game(v.game_id)).game.board.picture() for v in games}
    await svc.close()
    again = await open_service(path, clock, seed=99)
    assert again.cached == 0  # rebuilt lazily
    for view in games:
        resumed = await again.game(view.game_id)
        assert resumed.game.board.picture() == before[view.game_id]
        assert resumed.to_move_id == ALICE and resumed.is_running
    outcome = await again.place(game_id=games[2].game_id, user_id=ALICE, point="E4")
    assert outcome.placement is not None and outcome.placement.pink_gain == 1
    await again.close()


async def test_a_failed_commit_leaves_memory_equal_to_the_database(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = await new_game(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="C3")

    async def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(service.store.games, "record_action", broken)
    with pytest.raises(OSError):
        await service.place(game_id=view.game_id, user_id=BOB, point="D4")
    monkeypatch.undo()
    snapshot = await service.game(view.game_id)
    assert [a.point.name for a in snapshot.game.actions if a.point] == ["C3"]
    assert snapshot.to_move_id == BOB
    await service.place(game_id=view.game_id, user_id=BOB, point="D4")
    assert len(await actions_in_db(service, view.game_id)) == 2


async def test_two_accepts_at_once_start_one_game(service: GameService) -> None:
    cid = await challenge(service)
    results = await asyncio.gather(
        service.accept(challenge_id=cid, user_id=BOB),
        service.accept(challenge_id=cid, user_id=BOB),
        return_exceptions=True,
    )
    assert sum(isinstance(r, ChallengeClosed) for r in results) == 1
    assert len(await service.store.execute("SELECT * FROM games")) == 1


async def test_a_small_cache_drops_and_rebuilds_games(tmp_path: Path, clock: FakeTime) -> None:
    service = await open_service(tmp_path / "dots.sqlite3", clock)
    service.max_cached = 2
    games = [await new_game(service, pink=100 + n, blue=200 + n) for n in range(4)]
    assert service.cached == 2
    for point, user in CAPTURE:
        for n, view in enumerate(games):
            mover = 100 + n if user == ALICE else 200 + n
            await service.place(game_id=view.game_id, user_id=mover, point=point)
            assert service.cached <= 2
    for view in games:
        snapshot = await service.game(view.game_id)
        assert [a.point.name for a in snapshot.game.actions if a.point] == [p for p, _ in CAPTURE]
        assert len(await actions_in_db(service, view.game_id)) == len(CAPTURE)
    await service.close()


async def test_a_running_game_is_found_by_its_thread_without_a_read(
    tmp_path: Path, clock: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await open_service(tmp_path / "dots.sqlite3", clock)
    service.max_cached = 2
    games = [await new_game(service, pink=100 + n, blue=200 + n) for n in range(3)]
    for n, view in enumerate(games):
        await service.set_game_thread(game_id=view.game_id, thread_id=7000 + n)
    reads: list[int] = []
    read = service.store.games.game_id_in_thread

    async def counted(thread_id: int) -> int | None:
        reads.append(thread_id)
        return await read(thread_id)

    monkeypatch.setattr(service.store.games, "game_id_in_thread", counted)
    for n in (1, 2):  # cached
        found = await service.game_in_thread(thread_id=7000 + n)
        assert found is not None and found.game_id == games[n].game_id
    assert reads == []
    found = await service.game_in_thread(thread_id=7000)  # dropped from the cache: read
    assert found is not None and found.game_id == games[0].game_id
    assert reads == [7000]
    await service.resign(game_id=games[0].game_id, user_id=100)  # over: no longer cached
    reads.clear()
    found = await service.game_in_thread(thread_id=7000)
    assert found is not None and not found.is_running and reads == [7000]
    assert await service.game_in_thread(thread_id=7999) is None
    await service.close()


async def test_a_second_process_writing_the_same_game_is_a_refusal(
    tmp_path: Path, clock: FakeTime
) -> None:
    path = tmp_path / "dots.sqlite3"
    first = await open_service(path, clock)
    view = await new_game(first)
    second = await open_service(path, clock)
    await second.place(game_id=view.game_id, user_id=ALICE, point="C3")
    with pytest.raises(GameChanged):
        await first.place(game_id=view.game_id, user_id=ALICE, point="D4")
    assert len(await actions_in_db(first, view.game_id)) == 1
    # Rebuilt from the database, the first process sees the move and plays on.
    await first.place(game_id=view.game_id, user_id=BOB, point="D4")
    assert len(await actions_in_db(first, view.game_id)) == 2
    await first.close()
    await second.close()


@pytest.mark.parametrize("clock_", [timedelta(seconds=30), timedelta(days=7)])
async def test_clock_limits_are_accepted(service: GameService, clock_: timedelta) -> None:
    view = await new_game(service, options=GameOptions(clock=clock_))
    assert view.clock == clock_


async def test_start_game_without_a_challenge(service: GameService, clock: FakeTime) -> None:
    with pytest.raises(CannotChallengeSelf):
        await service.start_game(guild_id=GUILD, channel_id=CHANNEL, pink_id=ALICE, blue_id=ALICE)
    with pytest.raises(OptionOutOfRange):
        await service.start_game(
            guild_id=GUILD, channel_id=CHANNEL, pink_id=ALICE, blue_id=BOB,
            options=GameOptions(rules="chess"),
        )  # fmt: skip
    view = await service.start_game(guild_id=GUILD, channel_id=CHANNEL, pink_id=BOB, blue_id=ALICE)
    assert view.to_move_id == BOB and view.challenge_id is None
    assert view.deadline == clock.now() + timedelta(seconds=60)


async def test_time_out_with_a_stale_or_future_deadline_does_nothing(
    service: GameService, clock: FakeTime
) -> None:
    view = await new_game(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
    current = (await service.game(view.game_id)).deadline
    assert current is not None
    assert await service.time_out(game_id=view.game_id, deadline=current) is None  # not yet
    clock.advance(timedelta(minutes=5))
    stale = current - timedelta(seconds=1)
    assert await service.time_out(game_id=view.game_id, deadline=stale) is None
    assert await service.time_out(game_id=view.game_id + 7, deadline=current) is None
    assert len(await actions_in_db(service, view.game_id)) == 1
    outcome = await service.time_out(game_id=view.game_id, deadline=current)
    assert outcome is not None and outcome.action is not None and outcome.action.kind == "time"


async def test_stats_of_a_newcomer(service: GameService) -> None:
    await new_game(service)
    stats = await service.stats(guild_id=GUILD, user_id=ALICE)
    assert (stats.rating, stats.rd, stats.provisional) == (1500, 350, True)
    assert (stats.games, stats.rank, stats.running) == (0, None, 1)
