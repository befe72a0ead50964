"""Tournaments through the real bot and the fake Discord: a seven-player Swiss of three rounds
(a bye each round, a withdrawal after round 1, a time-out, a forfeit for a player who never
moves, a draw) whose standings after each round equal a table computed by hand here; a
four-player double round robin; bad requests refused privately; and restarts (a kill while a
round's posts go out, a kill at a round's last game's end) after which every round is paired
once and every post made once.

The tournament's commands, buttons and posts go through Discord; the games' moves go through
the service (the game tests play moves through ``/move``), on a clock the test moves.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter, defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import DotsBot
from bot.cogs import tournaments as tournament_cog
from tests.e2e.helpers import Server, ShiftedClock, bot_on, make_server, query, snapshot
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

HOUR = 3600
Results = dict[tuple[int, int, int | None], tuple[float, float]]  # (round, pink, blue) -> points


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    return make_server(fake_discord, tmp_path / "db.sqlite3")


def more_players(server: Server, count: int) -> list[User]:
    fake = server.fake
    made = []
    for n in range(count):
        user = fake.create_user(f"player{n + 1}")
        fake.add_member(server.guild, user)
        made.append(user)
    return made


async def create(server: Server, user: User, **options: Any) -> Message:
    handle = await server.fake.slash(user, "tournament create", channel=server.general, **options)
    return await handle.reply()


def button(message: Message, action: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith(f"dots:tournament:{action}:"))


def tournament_thread(server: Server) -> Channel:
    return next(t for t in server.fake.threads() if t.name.startswith("Tournament #"))


def posts(server: Server, thread: Channel, start: str) -> list[Message]:
    return [m for m in server.fake.posted(thread) if m.content.startswith(start)]


async def round_posted(server: Server, round_: int) -> Message:
    """The post of round ``round_``'s pairings, once every game of it has its picture."""
    thread = tournament_thread(server)
    found: Message = await server.fake.wait_until(
        lambda: next(iter(posts(server, thread, f"**Round {round_}** of")), None), timeout=20
    )
    return found


def boards(db: Path, round_: int) -> list[tuple[int, int, int | None, int | None]]:
    """(board, pink, blue, game) of a round."""
    return [
        (int(b), int(p), None if q is None else int(q), None if g is None else int(g))
        for b, p, q, g in query(
            db,
            "SELECT board, pink_id, blue_id, game_id FROM tournament_pairings WHERE round = ? "
            "ORDER BY board",
            (round_,),
        )
    ]


def hand_table(results: Results, names: dict[int, str]) -> list[tuple[str, str, str, str]]:
    """The standings worked out here, independently of the bot: points, Buchholz cut-1 and
    Buchholz (opponents' points; a bye adds none), then (for these results) the name."""
    points: dict[int, float] = defaultdict(float)
    opponents: dict[int, list[int]] = defaultdict(list)
    for (_round, pink, blue), (pp, bp) in results.items():
        points[pink] += pp
        if blue is not None:
            points[blue] += bp
            opponents[pink].append(blue)
            opponents[blue].append(pink)
    rows = []
    for user, name in names.items():
        scores = [points[o] for o in opponents[user]]
        bh = sum(scores)
        rows.append((points[user], bh - min(scores) if scores else 0.0, bh, name))
    rows.sort(key=lambda r: (-r[0], -r[1], -r[2]))
    return [(n, half(p), half(c), half(b)) for p, c, b, n in rows]


def half(value: float) -> str:
    whole, rest = divmod(round(value * 2), 2)
    return ("½" if whole == 0 else f"{whole}½") if rest else str(whole)


def posted_table(message: Message) -> list[tuple[str, str, str, str]]:
    """The standings' rows in a post's code block: (name, points, BH-1, BH)."""
    block = message.content.split("```")[1].strip().splitlines()[1:]
    rows = []
    for line in block:
        cells = re.split(r"\s{2,}", line.strip())
        rows.append((re.sub(r" \(withdrew\)$", "", cells[1]), cells[2], cells[3], cells[4]))
    return rows


async def play(bot: DotsBot, game_id: int, how: str) -> None:
    """Play a game to ``how``: "pink" or "blue" wins (the other resigns), "draw" (both end),
    "capture" (Pink surrounds a Blue dot; Blue is then left to run out of time), "one dot"
    (Pink places one dot; Blue never moves)."""
    service = bot.service
    view = await service.game(game_id)
    pink, blue = view.pink_id, view.blue_id
    if how == "one dot":
        await service.place(game_id=game_id, user_id=pink, point="E5")
        return
    if how == "capture":
        for user, point in ((pink, "B3"), (blue, "C3"), (pink, "D3"), (blue, "H8"),
                            (pink, "C2"), (blue, "H7"), (pink, "C4")):  # fmt: skip
            await service.place(game_id=game_id, user_id=user, point=point)
        return
    await service.place(game_id=game_id, user_id=pink, point="B2")
    await service.place(game_id=game_id, user_id=blue, point="H8")
    if how == "draw":
        await service.end(game_id=game_id, user_id=pink)
        await service.end(game_id=game_id, user_id=blue)
    else:
        await service.resign(game_id=game_id, user_id=blue if how == "pink" else pink)


async def run_out(bot: DotsBot, clock: ShiftedClock, db: Path, game_id: int) -> None:
    """Let Blue's move clock of an hour run out, then Pink's (playing alone after Blue's
    time-out, rule 7.2): the game is over by time."""
    assert bot.clocks is not None
    for timeouts in (1, 2):
        clock.offset += timedelta(seconds=HOUR + 5)
        bot.clocks.wake()
        await bot.service.timers.due_timers(0)  # a round trip: the clocks read meanwhile
        for _ in range(500):
            found = query(db, "SELECT count(*) FROM actions WHERE game_id = ? AND kind = 'time'",
                          (game_id,))  # fmt: skip
            if found[0][0] >= timeouts:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(f"game {game_id} did not time out")


async def test_a_seven_player_swiss_runs_its_three_rounds_by_itself(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    players = [server.alice, server.bob, server.carol, *more_players(server, 4)]
    names = {u.id: u.name for u in players}
    clock = ShiftedClock()
    async with bot_on(fake, db, now=clock) as bot:
        # Bad requests: private refusals, nothing stored.
        before = snapshot(db)
        for who, options, words in (
            (server.carol, {}, "admins"),
            (server.admin, {"players": 0}, "from 2 to 256 players"),
            (server.admin, {"players": 10_000}, "from 2 to 256 players"),
            (server.admin, {"round_hours": 1}, "at least 2 hours"),
        ):
            refused = await create(server, who, format="swiss", clock=HOUR, **options)
            assert refused.is_ephemeral and words in refused.content, refused.content
        assert snapshot(db) == before

        announcement = await create(
            server, server.admin, format="swiss", rounds=3, clock=HOUR, round_hours=3, rated=False
        )
        assert not announcement.is_ephemeral and "Swiss, 3 rounds" in announcement.content
        await fake.wait_until(lambda: query(db, "SELECT thread_id FROM tournaments")[0][0])
        for user in players[:6]:
            clicked = await fake.click(user, announcement, button(announcement, "join"))
            await clicked.reply()
        joined = await (
            await fake.slash(players[6], "tournament join", channel=server.general)
        ).reply()
        assert joined.is_ephemeral and "You joined tournament #1" in joined.content
        again = await (
            await fake.click(server.alice, announcement, button(announcement, "join"))
        ).reply()
        assert again.is_ephemeral and "already joined" in again.content
        assert "7 players" in announcement.content
        not_theirs = await (
            await fake.slash(server.bob, "tournament start", channel=server.general)
        ).reply()
        assert not_theirs.is_ephemeral and "creator or an admin" in not_theirs.content
        await (await fake.slash(server.admin, "tournament start", channel=server.general)).reply()

        results: Results = {}
        thread = tournament_thread(server)
        plans = {
            1: ["draw", "pink", "capture"],  # board 3: Blue runs out of time, a capture down
            2: ["withdraw", "one dot", "pink"],  # board 2: Blue never moves (a forfeit)
            3: ["pink", "blue", "draw"],
        }
        withdrawn: int | None = None
        for round_ in (1, 2, 3):
            pairing_post = await round_posted(server, round_)
            this = boards(db, round_)
            everyone = {p for b in this for p in b[1:3] if p is not None}
            assert pairing_post.pinged == everyone  # every player of the round, once
            games = [b for b in this if b[3] is not None]
            timed = None
            for (_number, pink, blue, game_id), how in zip(games, plans[round_], strict=True):
                assert game_id is not None and blue is not None
                if how == "withdraw":
                    withdrawn = blue
                    user = next(u for u in players if u.id == blue)
                    said = await (
                        await fake.slash(user, "tournament withdraw", channel=server.general)
                    ).reply()
                    assert "withdrew from tournament #1" in said.content
                    # Their running game is a forfeit, said in its thread; not a resignation.
                    [(thread_id,)] = query(
                        db, "SELECT thread_id FROM games WHERE game_id = ?", (game_id,)
                    )
                    game_thread = fake.channels[thread_id]
                    forfeit = await fake.wait_until(
                        lambda t=game_thread: next(
                            (m for m in fake.posted(t) if "by forfeit" in m.content), None
                        ),
                        timeout=20,
                    )
                    assert f"<@{blue}> withdrew" in forfeit.content
                    assert f"<@{pink}> wins this game by forfeit" in forfeit.content
                    assert not [m for m in fake.posted(game_thread) if "resign" in m.content]
                    results[round_, pink, blue] = (1, 0)
                    continue
                await play(bot, game_id, how)
                if how in {"capture", "one dot"}:
                    timed = game_id
                    results[round_, pink, blue] = (1, 0)  # by time, and a forfeit
                else:
                    points = {"pink": (1, 0), "blue": (0, 1), "draw": (0.5, 0.5)}[how]
                    results[round_, pink, blue] = points
            for _number, pink, blue, _game in this:
                if blue is None:
                    results[round_, pink, None] = (1, 0)
            if timed is not None:
                await run_out(bot, clock, db, timed)
            table = await fake.wait_until(
                lambda r=round_: next(
                    iter(posts(server, thread, f"**Tournament #1: after round {r}**")), None
                ),
                timeout=20,
            )
            assert posted_table(table) == hand_table(results, names)
            assert table.attachments and table.attachments[0].is_png
            assert table.pinged == set()
        # The end: the winner named; every pair met at most once; colours within one.
        await fake.wait_until(lambda: posts(server, thread, "Tournament #1 is over"), timeout=20)
        rows = query(
            db, "SELECT round, pink_id, blue_id, game_id, outcome FROM tournament_pairings"
        )
        pairs = Counter(frozenset((p, b)) for _r, p, b, _g, _o in rows if b is not None)
        assert max(pairs.values()) == 1
        balance: Counter[int] = Counter()
        for _r, pink, blue, game, _o in rows:
            if game is not None:
                balance[pink] += 1
                balance[blue] -= 1
        assert all(abs(v) <= 1 for v in balance.values())
        outcomes = Counter(o for *_rest, o in rows)
        # Two forfeits: the withdrawal's game and the player who never moved.
        assert outcomes["bye"] == 2 and outcomes["forfeit"] == 2  # round 3 had six players
        withdrawal = [r for r in rows if r[0] == 2 and withdrawn in r[1:3]]
        assert [r[4] for r in withdrawal] == ["forfeit"]
        assert withdrawn is not None and all(withdrawn not in r[1:3] for r in rows if r[0] == 3)
        # Each round's post once, each game its one thread, paced within Discord's limit.
        for round_ in (1, 2, 3):
            assert len(posts(server, thread, f"**Round {round_}** of")) == 1
        game_threads = [t for t in fake.threads() if t.name.startswith("Dots #")]
        assert len(game_threads) == 9 and fake.thread_limit.limited == 0
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_double_round_robin_of_four_plays_every_pair_both_ways(server: Server) -> None:
    fake, db = server.fake, server.database
    players = [server.alice, server.bob, server.carol, *more_players(server, 1)]
    async with bot_on(fake, db) as bot:
        announcement = await create(
            server, server.admin, format="round_robin", double=True, clock=HOUR, rated=False
        )
        assert "double round robin" in announcement.content
        for user in players:
            await (await fake.click(user, announcement, button(announcement, "join"))).reply()
        await (await fake.slash(server.admin, "tournament start", channel=server.general)).reply()
        for round_ in range(1, 7):
            await round_posted(server, round_)
            for _n, pink, blue, game_id in boards(db, round_):
                assert game_id is not None and blue is not None
                await play(bot, game_id, "pink" if pink < blue else "blue")
        thread = tournament_thread(server)
        await fake.wait_until(lambda: posts(server, thread, "Tournament #1 is over"), timeout=20)
        games = [
            (p, b)
            for _r, p, b in query(db, "SELECT round, pink_id, blue_id FROM tournament_pairings")
        ]
        assert sorted(games) == sorted((b, p) for p, b in games) and len(games) == 12
        final = posts(server, thread, "**Tournament #1: after round 6**")[0]
        ranked = [row[0] for row in posted_table_rr(final)]
        by_id = sorted(players, key=lambda u: u.id)
        assert ranked == [u.name for u in by_id]  # the lower id won every game


def posted_table_rr(message: Message) -> list[list[str]]:
    block = message.content.split("```")[1].strip().splitlines()[1:]
    return [re.split(r"\s{2,}", line.strip())[1:] for line in block]


async def test_a_kill_while_a_round_is_posted_and_at_its_last_games_end_repeats_nothing(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, db = server.fake, server.database
    players = [server.alice, server.bob, server.carol, *more_players(server, 3)]
    real_open = tournament_cog.open_round_threads

    async def killed_after_one_thread(bot: Any, boards_: Any, pacer: Any) -> None:
        await real_open(bot, boards_[:1], pacer)
        raise asyncio.CancelledError  # the process dies here

    async with bot_on(fake, db) as bot:
        announcement = await create(server, server.admin, format="swiss", rounds=2, clock=HOUR)
        for user in players:
            await (await fake.click(user, announcement, button(announcement, "join"))).reply()
        monkeypatch.setattr(tournament_cog, "open_round_threads", killed_after_one_thread)
        await (await fake.slash(server.admin, "tournament start", channel=server.general)).reply()
        await fake.wait_until(lambda: query(db, "SELECT count(*) FROM outbox") == [(1,)])
        await fake.wait_until(
            lambda: len([t for t in fake.threads() if t.name.startswith("Dots #")]) == 1
        )
    monkeypatch.setattr(tournament_cog, "open_round_threads", real_open)
    assert query(db, "SELECT count(*) FROM tournament_pairings") == [(3,)]
    async with bot_on(fake, db) as bot:
        await round_posted(server, 1)
        await fake.wait_until(lambda: query(db, "SELECT count(*) FROM outbox") == [(0,)])
        # The round's last game ends, and the process dies before its tournament hears of it.
        hook = bot.service.tournaments.rounds.game_ended
        bot.service.core.after_commit.remove(hook)
        for _n, _pink, _blue, game_id in boards(db, 1):
            assert game_id is not None
            await play(bot, game_id, "pink")
    assert query(db, "SELECT max(round) FROM tournament_pairings") == [(1,)]
    async with bot_on(fake, db):
        await round_posted(server, 2)
        await fake.wait_until(lambda: query(db, "SELECT count(*) FROM outbox") == [(0,)])
    thread = tournament_thread(server)
    assert len(posts(server, thread, "**Round 1** of")) == 1
    assert len(posts(server, thread, "**Round 2** of")) == 1
    assert len(posts(server, thread, "**Tournament #1: after round 1**")) == 1
    assert query(db, "SELECT round, count(*) FROM tournament_pairings GROUP BY round") == [
        (1, 3),
        (2, 3),
    ]
    threads = Counter(t.name for t in fake.threads() if t.name.startswith("Dots #"))
    assert len(threads) == 6 and max(threads.values()) == 1
    assert query(db, "SELECT count(*) FROM games WHERE thread_id IS NULL") == [(0,)]
