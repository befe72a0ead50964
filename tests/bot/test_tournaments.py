"""Tournaments through the game service and its clocks: rounds paired when their last game
ends, deadlines deciding unfinished games, withdrawals, refusals that change nothing, and
every step made exactly once across racing processes and a crash."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import bot.storage.tournaments as storage
from bot.clocks import Clocks
from bot.games import GameOptions, GameService
from bot.games.pairing import Format
from bot.games.tournament_models import Pairing, Tournament, TournamentNews
from bot.games.tournaments import TournamentPlan, TournamentRefused
from bot.storage.rows import TournamentStatus
from tests.bot.service_fakes import CHANNEL, GUILD, FakeTime, eventually, open_service
from tests.bot.tournament_helpers import (
    assert_colours_balanced,
    assert_no_pair_twice,
    draw,
    plan,
    win,
)

ADMIN = 1
PLAYERS = list(range(101, 108))
DAY = timedelta(days=1)


@pytest_asyncio.fixture
async def running(tmp_path: Path) -> AsyncIterator[tuple[GameService, FakeTime, list[Any]]]:
    """A service with its clocks on a fake clock, and the tournament news it publishes."""
    clock = FakeTime()
    service = await open_service(tmp_path / "dots.sqlite3", clock)
    news: list[Any] = []
    service.subscribe(news.append, TournamentNews)
    clocks = Clocks(service, sleep=clock.sleep)
    await clocks.start()
    try:
        yield service, clock, news
    finally:
        await clocks.stop()
        await service.close()


async def open_tournament(
    service: GameService, the_plan: TournamentPlan, players: list[int]
) -> Tournament:
    made = await service.create_tournament(
        guild_id=GUILD, channel_id=CHANNEL, creator_id=ADMIN, is_admin=True, plan=the_plan
    )
    for user_id in players:
        await service.join_tournament(
            tournament_id=made.tournament_id, guild_id=GUILD, user_id=user_id
        )
    return made


async def started(service: GameService, clock: FakeTime, tournament_id: int) -> None:
    await service.start_tournament(
        tournament_id=tournament_id, guild_id=GUILD, user_id=ADMIN, is_admin=True
    )
    clock.advance(timedelta(seconds=1))
    await reaches(service, tournament_id, 1)


async def first_round(
    service: GameService, clock: FakeTime, the_plan: TournamentPlan, players: list[int]
) -> tuple[Tournament, list[Pairing]]:
    """A tournament of ``players`` opened and started: it, and its first round's boards."""
    made = await open_tournament(service, the_plan, players)
    await started(service, clock, made.tournament_id)
    return made, await service.tournament_pairings(tournament_id=made.tournament_id, round_=1)


async def reaches(service: GameService, tournament_id: int, round_: int) -> Tournament:
    found: list[Tournament] = []

    async def poll() -> None:
        while True:
            t = await service.tournament(tournament_id=tournament_id)
            if t.round >= round_ and (t.round > round_ or t.status != "registering"):
                found.append(t)
                return
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), 5)
    return found[0]


async def decisions(
    service: GameService, tournament_id: int, round_: int
) -> list[tuple[float | None, float | None, str | None]]:
    """Each board of a round as (Pink's points, Blue's points, how it was decided)."""
    boards = await service.tournament_pairings(tournament_id=tournament_id, round_=round_)
    return [(b.pink_points, b.blue_points, b.outcome) for b in boards]


async def finished(service: GameService, tournament_id: int) -> Tournament:
    async def poll() -> Tournament:
        while True:
            t = await service.tournament(tournament_id=tournament_id)
            if not t.is_open:
                return t
            await asyncio.sleep(0.005)

    return await asyncio.wait_for(poll(), 5)


async def test_a_swiss_pairs_each_round_once_its_last_game_ends(running: Any) -> None:
    service, clock, news = running
    made = await open_tournament(service, plan(rounds=3), PLAYERS)
    await started(service, clock, made.tournament_id)
    everything = []
    for round_ in (1, 2, 3):
        boards = await service.tournament_pairings(tournament_id=made.tournament_id, round_=round_)
        assert len(boards) == 4 and sum(b.is_bye for b in boards) == 1
        everything += boards
        for b in boards:
            if b.game_id is not None:
                await (
                    draw(service, b.game_id) if b.board == 1 else win(service, b.game_id, b.pink_id)
                )
        if round_ < 3:
            await reaches(service, made.tournament_id, round_ + 1)
    over = await finished(service, made.tournament_id)
    assert over.status == TournamentStatus.OVER
    assert_no_pair_twice(everything)
    assert_colours_balanced(everything)
    assert len({b.pink_id for b in everything if b.is_bye}) == 3  # three different byes
    # One post per step: round 1 paired, rounds 1 and 2 closed with the next paired, the end.
    await eventually(lambda: len(news) == 4)
    assert [(n.closed, n.paired) for n in news] == [(0, 1), (1, 2), (2, 3), (3, 0)]
    lines = await service.tournament_standings(tournament_id=made.tournament_id)
    assert sum(line.points for line in lines) == 9 + 3  # 3 games a round, plus the byes
    assert news[-1].standings == tuple(lines)
    # The winner's sticker, on their last game of the tournament.
    crowned = await service.store.execute(
        "SELECT user_id, game_id FROM stickers WHERE sticker = 'tournament_win'"
    )
    last = max(
        (b for b in everything if b.game_id and lines[0].user_id in (b.pink_id, b.blue_id)),
        key=lambda b: b.round,
    )
    assert crowned == [(lines[0].user_id, last.game_id)]


async def test_a_double_round_robin_of_four_plays_six_rounds(running: Any) -> None:
    service, clock, news = running
    made = await open_tournament(service, plan(Format.ROUND_ROBIN, cycles=2), PLAYERS[:4])
    await started(service, clock, made.tournament_id)
    everything = []
    for round_ in range(1, 7):
        boards = await service.tournament_pairings(tournament_id=made.tournament_id, round_=round_)
        everything += boards
        for b in boards:
            assert b.game_id is not None
            await win(service, b.game_id, min(b.pink_id, b.blue_id or 0))
        if round_ < 6:
            await reaches(service, made.tournament_id, round_ + 1)
    await finished(service, made.tournament_id)
    pairs = sorted((b.pink_id, b.blue_id) for b in everything)
    assert pairs == sorted((blue, pink) for pink, blue in pairs)  # every pair both ways
    assert_colours_balanced(everything, within=0)
    lines = await service.tournament_standings(tournament_id=made.tournament_id)
    # The lower id always won: 101 won 6, 102 4, 103 2, 104 none.
    assert [(s.user_id, s.points) for s in lines] == [(101, 6), (102, 4), (103, 2), (104, 0)]
    assert len(news) == 7


async def test_at_its_deadline_a_round_decides_its_unfinished_games(running: Any) -> None:
    service, clock, _news = running
    # A one-day move clock and two-day rounds: games can outlast their round.
    the_plan = TournamentPlan(
        format=Format.SWISS,
        options=GameOptions(clock=DAY, rated=False),
        round_length=2 * DAY,
        rounds=1,
    )
    made = await open_tournament(service, the_plan, PLAYERS[:6])
    await started(service, clock, made.tournament_id)
    first, second, third = await service.tournament_pairings(
        tournament_id=made.tournament_id, round_=1
    )
    # Board 1: Pink surrounds a Blue dot (1-0) and both keep moving past the deadline.
    for who, point in (("p", "B3"), ("b", "C3"), ("p", "D3"), ("b", "H8"), ("p", "C2"),
                       ("b", "H7"), ("p", "C4")):  # fmt: skip
        user = first.pink_id if who == "p" else first.blue_id
        await service.place(game_id=first.game_id, user_id=user, point=point)
    # Board 2: Pink places one dot and Blue never does (Blue times out after a day).
    await service.place(game_id=second.game_id, user_id=second.pink_id, point="E5")
    # Board 3: nobody places a dot (Pink's clock aborts it after a day).
    for _ in range(2):
        clock.advance(DAY - timedelta(hours=1))
        view = await service.game(first.game_id)
        await service.place(game_id=first.game_id, user_id=view.to_move_id, point=f"J{_ + 1}")
    clock.advance(timedelta(hours=3))
    over = await finished(service, made.tournament_id)
    assert over.status == TournamentStatus.OVER
    assert await decisions(service, made.tournament_id, 1) == [
        (1.0, 0.0, "adjudicated"),
        (1.0, 0.0, "forfeit"),
        (0.0, 0.0, "double_loss"),
    ]
    assert (await service.game(first.game_id)).status == "aborted"  # stopped, unrated
    assert third.game_id is not None


async def test_a_game_cancelled_or_aborted_is_decided_at_once_and_ends_its_round(
    running: Any,
) -> None:
    service, clock, _news = running
    made, (first, second) = await first_round(service, clock, plan(rounds=2), PLAYERS[:4])
    assert first.game_id is not None and second.game_id is not None
    await win(service, first.game_id, first.pink_id)
    # Board 2: a dot each, then an admin cancels it: the round's last game, decided by the
    # rule for a game stopped unfinished (equal scores: a draw), without waiting for its
    # deadline (the clock does not move).
    await service.place(game_id=second.game_id, user_id=second.pink_id, point="B2")
    await service.place(game_id=second.game_id, user_id=second.blue_id, point="H8")
    await service.admin_cancel(game_id=second.game_id, guild_id=GUILD)
    await reaches(service, made.tournament_id, 2)
    assert await decisions(service, made.tournament_id, 1) == [
        (1.0, 0.0, "game"),
        (0.5, 0.5, "adjudicated"),
    ]
    # Round 2: one game cancelled before any dot, the other aborted by a player before the
    # first move: no dot at all, a double loss each; the tournament ends at once.
    third, fourth = await service.tournament_pairings(tournament_id=made.tournament_id, round_=2)
    assert third.game_id is not None and fourth.game_id is not None
    await service.admin_cancel(game_id=third.game_id, guild_id=GUILD)
    await service.abort(game_id=fourth.game_id, user_id=fourth.pink_id)
    over = await finished(service, made.tournament_id)
    assert over.status == TournamentStatus.OVER
    assert await decisions(service, made.tournament_id, 2) == [
        (0.0, 0.0, "double_loss"),
        (0.0, 0.0, "double_loss"),
    ]


async def test_a_withdrawn_player_forfeits_their_game_and_is_not_paired_again(
    running: Any,
) -> None:
    service, clock, _news = running
    made, boards = await first_round(service, clock, plan(rounds=3), PLAYERS[:6])
    leaver = boards[0].blue_id
    assert leaver is not None
    for b in boards[1:]:
        assert b.game_id is not None
        await win(service, b.game_id, b.pink_id)
    forfeits = await service.withdraw_from_tournament(
        tournament_id=made.tournament_id, guild_id=GUILD, user_id=leaver
    )
    assert [(f.loser_id, f.winner_id) for f in forfeits] == [(leaver, boards[0].pink_id)]
    assert forfeits[0].view.status == "aborted"  # stopped: no result of its own, unrated
    await reaches(service, made.tournament_id, 2)
    assert (await decisions(service, made.tournament_id, 1))[0] == (1.0, 0.0, "forfeit")
    second = await service.tournament_pairings(tournament_id=made.tournament_id, round_=2)
    assert leaver not in {p for b in second for p in (b.pink_id, b.blue_id)}
    assert sum(b.is_bye for b in second) == 1  # five players left
    with pytest.raises(TournamentRefused):
        await service.withdraw_from_tournament(
            tournament_id=made.tournament_id, guild_id=GUILD, user_id=leaver
        )
    lines = await service.tournament_standings(tournament_id=made.tournament_id)
    assert next(s for s in lines if s.user_id == leaver).withdrawn


async def test_bad_requests_are_refused_and_change_nothing(running: Any) -> None:
    service, clock, _news = running

    async def create(**changes: Any) -> Tournament:
        the_plan = replace(plan(), **changes)
        return await service.create_tournament(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=ADMIN, is_admin=True, plan=the_plan
        )

    for bad in ({"max_players": 0}, {"max_players": 10_000}, {"rounds": 0},
                {"round_length": timedelta(hours=1)}):  # fmt: skip
        with pytest.raises(TournamentRefused):
            await create(**bad)
    with pytest.raises(TournamentRefused, match="admins"):
        await service.create_tournament(
            guild_id=GUILD, channel_id=CHANNEL, creator_id=7, is_admin=False, plan=plan()
        )
    assert await service.list_tournaments(guild_id=GUILD) == []
    made = await create(max_players=2)
    tid = made.tournament_id
    await service.join_tournament(tournament_id=tid, guild_id=GUILD, user_id=101)
    with pytest.raises(TournamentRefused, match="already joined"):
        await service.join_tournament(tournament_id=tid, guild_id=GUILD, user_id=101)
    await service.join_tournament(tournament_id=tid, guild_id=GUILD, user_id=102)
    with pytest.raises(TournamentRefused, match="full"):
        await service.join_tournament(tournament_id=tid, guild_id=GUILD, user_id=103)
    with pytest.raises(TournamentRefused, match="creator or an admin"):
        await service.start_tournament(
            tournament_id=tid, guild_id=GUILD, user_id=101, is_admin=False
        )
    assert (await service.tournament(tournament_id=tid)).entrants == (101, 102)
    await started(service, clock, tid)
    with pytest.raises(TournamentRefused, match="no longer takes entrants"):
        await service.join_tournament(tournament_id=tid, guild_id=GUILD, user_id=103)
    with pytest.raises(TournamentRefused, match="withdraw"):
        await service.leave_tournament(tournament_id=tid, guild_id=GUILD, user_id=101)
    # The server's limit of open tournaments (three by default).
    await create()
    await create()
    with pytest.raises(TournamentRefused, match="open tournaments"):
        await create()
    assert len(await service.list_tournaments(guild_id=GUILD)) == 3


async def test_registration_closing_with_one_entrant_cancels(running: Any) -> None:
    service, clock, news = running
    the_plan = replace(plan(), registration=timedelta(hours=1))
    made = await open_tournament(service, the_plan, [101])
    clock.advance(timedelta(hours=2))
    over = await finished(service, made.tournament_id)
    assert over.status == TournamentStatus.CANCELLED
    await eventually(lambda: len(news) == 1)
    assert news[0].is_cancelled


async def test_two_processes_racing_make_each_step_once(database: str | Path) -> None:
    """Two services on one database (SQLite, PostgreSQL) fire the same due tournament timer at
    once: round 1 is paired once, its games made once."""
    clock = FakeTime()
    db = database
    one, two = await open_service(db, clock), await open_service(db, clock)
    clocks = [Clocks(one, sleep=clock.sleep), Clocks(two, sleep=clock.sleep)]
    try:
        made = await open_tournament(one, plan(), PLAYERS)
        await one.start_tournament(
            tournament_id=made.tournament_id, guild_id=GUILD, user_id=ADMIN, is_admin=True
        )
        (timer,) = await one.store.timers.due_timers(clock.now().timestamp())
        await asyncio.gather(*(c._fire(timer) for c in clocks))
        assert sum(c.fired for c in clocks) == 1
        rows = await one.store.execute("SELECT count(*) FROM tournament_pairings")
        games = await one.store.execute("SELECT count(*) FROM games")
        assert (rows[0][0], games[0][0]) == (4, 3)
        assert len(await one.store.timers.unsent_posts()) == 0  # no outbox without outbox=True
    finally:
        await one.close()
        await two.close()


async def test_a_crash_while_pairing_leaves_nothing_and_the_retry_pairs_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeTime()
    db = tmp_path / "dots.sqlite3"
    service = await open_service(db, clock)
    clocks = Clocks(service, sleep=clock.sleep, outbox=True)
    try:
        made = await open_tournament(service, plan(), PLAYERS)
        await service.start_tournament(
            tournament_id=made.tournament_id, guild_id=GUILD, user_id=ADMIN, is_admin=True
        )
        (timer,) = await service.store.timers.due_timers(clock.now().timestamp())
        real = storage.insert_game
        made_games = 0

        async def dies_on_the_third_game(conn: Any, row: Any) -> Any:
            nonlocal made_games
            made_games += 1
            if made_games == 3:
                raise RuntimeError("killed while pairing")
            return await real(conn, row)

        monkeypatch.setattr(storage, "insert_game", dies_on_the_third_game)
        assert not await clocks._fire(timer)
        for table in ("tournament_pairings", "games", "outbox"):
            assert (await service.store.execute(f"SELECT count(*) FROM {table}"))[0][0] == 0
        monkeypatch.setattr(storage, "insert_game", real)
        assert await clocks._fire(timer)

        async def counts() -> list[int]:
            return [
                (await service.store.execute(f"SELECT count(*) FROM {table}"))[0][0]
                for table in ("tournament_pairings", "games", "outbox")
            ]

        assert await counts() == [4, 3, 1]  # one post owed: round 1's pairings
        await clocks._fire(timer)  # the same timer again (a second process late): nothing
        assert await counts() == [4, 3, 1]
        assert clocks.fired == 1
    finally:
        await service.close()


async def test_a_kill_between_a_games_end_and_its_timer_is_repaired_at_start(
    tmp_path: Path,
) -> None:
    clock = FakeTime()
    db = tmp_path / "dots.sqlite3"
    service = await open_service(db, clock)
    try:
        made = await open_tournament(service, plan(), PLAYERS[:2])
        await service.start_tournament(
            tournament_id=made.tournament_id, guild_id=GUILD, user_id=ADMIN, is_admin=True
        )
        clocks = Clocks(service, sleep=clock.sleep)
        (timer,) = await service.store.timers.due_timers(clock.now().timestamp())
        assert await clocks._fire(timer)
        (board,) = await service.tournament_pairings(tournament_id=made.tournament_id, round_=1)
        service.core.after_commit.remove(service.tournaments.rounds.game_ended)  # the "kill"
        await win(service, board.game_id, board.pink_id)
        assert await service.store.timers.due_timers(clock.now().timestamp()) == []
        assert await service.repair_tournaments() == 1
        (timer,) = await service.store.timers.due_timers(clock.now().timestamp())
        assert await clocks._fire(timer)
        assert (await service.tournament(tournament_id=made.tournament_id)).status == "over"
    finally:
        await service.close()
