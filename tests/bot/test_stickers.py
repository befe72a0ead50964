"""Stickers: each earned in a scripted game that should earn it, not in one
that should not, at most once per game, only by the players who collect."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from ai import Decision
from bot.games import GameOptions, GameService, GameView, MoveOutcome
from bot.games.queries import month_of, month_ranking
from bot.games.stickers import (
    BIG_CAPTURE,
    Earned,
    Sticker,
    StickerNews,
    book_entries,
    counts_of,
    new_sticker_line,
    stickers_of_game,
    stickers_of_last_action,
)
from bot.storage.rows import MonthRow
from engine import Game, Player, Point, Rules
from engine.game import Action
from renderer.demo import sample_game
from renderer.stickers import EMBLEMS
from tests.bot.discord_inprocess import World
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
from tests.bot.test_cogs import ANN, button_id, posted
from tests.bot.test_cogs import play as cog_play
from tests.engine.helpers import SYMMETRIES, game_state, transform, transformed_size

PINK, BLUE = Player.PINK, Player.BLUE
_WHO = {"P": PINK, "B": BLUE}


def scripted(
    width: int,
    height: int,
    script: str,
    sym: tuple[bool, bool, bool] = (False, False, False),
    rules: Rules = Rules.STANDARD,
) -> Game:
    """A game from ``"P:D5 C4 B:D4 P:end"``: ``P:``/``B:`` names the player of what follows,
    ``end``/``resign`` are actions, anything else a dot (mapped by ``sym``). Dots need not
    alternate (``Game.apply``, as for an imported record)."""
    w, h = transformed_size(sym, width, height)
    game = Game(w, h, rules=rules)
    player: Player | None = None
    for token in script.split():
        if ":" in token:
            who, _, token = token.partition(":")
            player = _WHO[who]
            if not token:
                continue
        assert player is not None
        if token in ("end", "resign", "time"):
            game.apply(Action(token, player))  # type: ignore[arg-type]
        else:
            point = transform(Point.parse(token), sym, width, height)
            game.apply(Action("dot", player, point))
    return game


def earned(game: Game, players: tuple[Player, ...] = (PINK, BLUE)) -> set[tuple[Player, Sticker]]:
    return {(e.player, e.sticker) for e in stickers_of_game(game, players)}


def index_of(game: Game, sticker: Sticker, player: Player) -> int:
    (found,) = [e for e in stickers_of_game(game) if e.sticker is sticker and e.player is player]
    return found.action


# A Blue dot inside a Pink diamond; the last Pink dot closes the ring.
CAPTURE = "B:E5 P:E6 D5 F5 E4"
# An empty Pink ring (rule 4.6), then Blue walks into it (rule 4.4).
EMPTY_RING = "P:D5 C4 E4 D3"
# Five Blue dots in a row inside a Pink ring; four for the near miss.
FIVE = "B:D5 E5 F5 G5 H5 P:C5 D6 E6 F6 G6 H6 D4 E4 F4 G4 H4 I5"
FOUR = "B:D5 E5 F5 G5 P:C5 D6 E6 F6 G6 D4 E4 F4 G4 H5"
# Pink D3 closes the ring around C3 and the ring around E3 at once.
TWO_RINGS = "B:C3 E3 P:C4 B3 C2 E4 F3 E2 D3"
# Blue's diamond of radius 2 around the Pink base of CAPTURE: a bigger ring (rules 4.5, 5.2).
BIGGER = CAPTURE + " B:E7 D6 C5 D4 E3 F4 G5 F6"


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_first_capture_and_not_for_an_empty_ring(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(9, 9, CAPTURE, sym)
    assert earned(game) == {(PINK, Sticker.FIRST_CAPTURE)}
    assert index_of(game, Sticker.FIRST_CAPTURE, PINK) == 4
    assert earned(scripted(9, 9, EMPTY_RING, sym)) == set()


def test_first_capture_is_earned_once_at_the_first() -> None:
    game = scripted(12, 9, CAPTURE + " B:I5 P:I6 H5 J5 I4")
    assert game.score(PINK) == 2
    assert stickers_of_game(game) == [Earned(PINK, Sticker.FIRST_CAPTURE, 4)]


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_big_capture_needs_five_at_once(sym: tuple[bool, bool, bool]) -> None:
    five = scripted(11, 9, FIVE, sym)
    assert five.last_placement is not None and five.last_placement.gain(PINK) == BIG_CAPTURE
    assert earned(five) == {(PINK, Sticker.FIRST_CAPTURE), (PINK, Sticker.BIG_CAPTURE)}
    four = scripted(11, 9, FOUR, sym)
    assert four.score(PINK) == 4
    assert earned(four) == {(PINK, Sticker.FIRST_CAPTURE)}


def test_five_captured_one_by_one_is_no_big_capture() -> None:
    rings = " ".join(f"B:{c}5 P:{c}6 {chr(ord(c) - 1)}5 {chr(ord(c) + 1)}5 {c}4" for c in "CGKOS")
    game = scripted(22, 9, rings)
    assert game.score(PINK) == 5
    assert Sticker.BIG_CAPTURE not in {s for _, s in earned(game)}


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_one_dot_closing_two_bases(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(7, 5, TWO_RINGS, sym)
    assert game.last_placement is not None and len(game.last_placement.bases) == 2
    assert (PINK, Sticker.DOUBLE_BASE) in earned(game)
    # The same two bases closed by two dots: D3 placed before the rings' last dots.
    apart = scripted(7, 5, "B:C3 E3 P:D3 C4 B3 E4 F3 E2 C2")
    assert len(apart.board.bases) == 2
    assert earned(apart) == {(PINK, Sticker.FIRST_CAPTURE)}


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_bigger_ring_around_a_base(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(9, 9, BIGGER, sym)
    assert game.score(PINK) == 0 and game.score(BLUE) == 4
    assert earned(game) == {
        (PINK, Sticker.FIRST_CAPTURE),
        (BLUE, Sticker.FIRST_CAPTURE),
        (BLUE, Sticker.BIGGER_RING),
    }
    # The same Blue ring around Pink dots that no base holds: a capture, not a bigger ring.
    plain = scripted(9, 9, "P:E6 D5 F5 E4 B:E7 D6 C5 D4 E3 F4 G5 F6", sym)
    assert plain.score(BLUE) == 4
    assert earned(plain) == {(BLUE, Sticker.FIRST_CAPTURE)}


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_trap_of_an_empty_ring(sym: tuple[bool, bool, bool]) -> None:
    game = scripted(7, 7, EMPTY_RING + " B:D4", sym)
    assert game.score(PINK) == 1
    # Earned by the ring's owner on the opponent's dot.
    assert earned(game) == {(PINK, Sticker.FIRST_CAPTURE), (PINK, Sticker.EMPTY_RING_TRAP)}
    assert index_of(game, Sticker.EMPTY_RING_TRAP, PINK) == 4
    # Worked case 3: Blue's dot in the ring closes Blue's own base first, so no trap.
    case3 = scripted(7, 7, "P:D5 C4 D3 E4 B:E5 F4 E3 D4", sym)
    assert case3.score(BLUE) == 1 and case3.score(PINK) == 0
    assert earned(case3) == {(BLUE, Sticker.FIRST_CAPTURE)}


def test_comeback_is_a_win_by_the_score_from_behind() -> None:
    behind = "P:E5 B:E6 D5 F5 E4"  # Blue leads 1-0
    back = " B:J5 P:J6 I5 K5 J4 B:N5 P:N6 M5 O5 N4"  # Pink takes two
    game = scripted(16, 9, behind + back + " P:end B:end")
    assert game.result is not None and game.result.winner is PINK
    assert (PINK, Sticker.COMEBACK) in earned(game)
    assert index_of(game, Sticker.COMEBACK, PINK) == len(game.actions) - 1
    # Ahead all along: no comeback.
    ahead = scripted(16, 9, back + " P:end B:end")
    assert ahead.result is not None and ahead.result.winner is PINK
    assert Sticker.COMEBACK not in {s for _, s in earned(ahead)}
    # Behind, then level: a draw is no win.
    level = scripted(16, 9, behind + " B:J5 P:J6 I5 K5 J4 P:end B:end")
    assert level.result is not None and level.result.winner is None
    assert Sticker.COMEBACK not in {s for _, s in earned(level)}
    # Behind when the opponent resigned: a win, but not by the score.
    resigned = scripted(16, 9, behind + " B:resign")
    assert resigned.result is not None and resigned.result.winner is PINK
    assert Sticker.COMEBACK not in {s for _, s in earned(resigned)}


def _grounding(pink: list[str], blue: list[str]) -> Game:
    game = Game(10, 10, rules=Rules.GROUNDING)
    for mine, theirs in zip(pink, blue, strict=True):
        game.place(mine, PINK)
        game.place(theirs, BLUE)
    game.end(PINK)  # a stop (rule 8.2)
    return game


def test_win_after_the_opponents_stop() -> None:
    game = _grounding(["D5", "E5", "F5", "G5", "D7"], ["A1", "A2", "A3", "A4", "A5"])
    assert game.result is not None and game.result.winner is BLUE and game.result.blue == 5
    assert earned(game) == {(BLUE, Sticker.WIN_AFTER_STOP)}
    # A stop that hands over nothing is a draw: nobody wins after it.
    drawn = _grounding(["J1", "J2", "J3", "J4", "J5"], ["A1", "A2", "A3", "A4", "A5"])
    assert drawn.result is not None and drawn.result.winner is None
    assert earned(drawn) == set()
    # Both ended under standard rules: no stop.
    ended = scripted(10, 10, CAPTURE + " P:end B:end")
    assert ended.result is not None and ended.result.winner is PINK
    assert Sticker.WIN_AFTER_STOP not in {s for _, s in earned(ended)}


def test_full_page_for_who_played_a_game_to_its_end_on_39x32() -> None:
    game = scripted(39, 32, "P:T16 B:U16 P:end B:end")
    assert game.is_over
    assert earned(game) == {(PINK, Sticker.FULL_PAGE), (BLUE, Sticker.FULL_PAGE)}
    assert index_of(game, Sticker.FULL_PAGE, BLUE) == 3
    # Blue resigned without placing a dot: only Pink played the page.
    assert earned(scripted(39, 32, "P:T16 B:resign")) == {(PINK, Sticker.FULL_PAGE)}
    # Not over yet, or a smaller page.
    assert earned(scripted(39, 32, "P:T16 B:U16")) == set()
    assert earned(scripted(39, 31, "P:T16 B:U16 P:end B:end")) == set()
    assert earned(scripted(32, 39, "P:T16 B:U16 P:end B:end")) == set()


def test_against_the_computer_only_the_person_collects() -> None:
    game = scripted(9, 9, BIGGER)
    assert earned(game, (PINK,)) == {(PINK, Sticker.FIRST_CAPTURE)}
    assert earned(game, (BLUE,)) == {(BLUE, Sticker.FIRST_CAPTURE), (BLUE, Sticker.BIGGER_RING)}


def test_the_game_is_not_touched_and_the_last_action_is_announced() -> None:
    game = scripted(9, 9, BIGGER)
    before = game_state(game)
    assert stickers_of_last_action(game) == [
        Earned(BLUE, Sticker.FIRST_CAPTURE, 12),
        Earned(BLUE, Sticker.BIGGER_RING, 12),
    ]
    assert game_state(game) == before
    game.pop()
    assert stickers_of_last_action(game) == []


def test_counts_book_and_words() -> None:
    games = [scripted(9, 9, CAPTURE), scripted(9, 9, BIGGER), scripted(7, 7, EMPTY_RING + " B:D4")]
    all_earned = [e for g in games for e in stickers_of_game(g)]
    counts = counts_of(all_earned, PINK)
    assert counts == {Sticker.FIRST_CAPTURE: 3, Sticker.EMPTY_RING_TRAP: 1}
    entries = book_entries(counts)
    assert [e[0] for e in entries] == [str(s) for s in Sticker]
    assert ("first_capture", "First capture", 3) in entries
    assert ("full_page", "Full page", 0) in entries
    assert new_sticker_line(Sticker.EMPTY_RING_TRAP, first_ever=True) == "New sticker! Trap"
    assert new_sticker_line(Sticker.EMPTY_RING_TRAP, first_ever=False) == "Sticker: Trap"


def test_ids_are_stable_and_every_sticker_has_words_and_an_emblem() -> None:
    # Stored ids: renaming one loses players' stickers, so they are pinned here.
    assert [str(s) for s in Sticker] == [
        "first_capture",
        "big_capture",
        "double_base",
        "bigger_ring",
        "empty_ring_trap",
        "comeback",
        "win_after_stop",
        "full_page",
        "tournament_win",
    ]
    assert len({s.label for s in Sticker}) == len(Sticker)
    assert all(s.description.endswith(".") for s in Sticker)
    assert set(EMBLEMS) == {str(s) for s in Sticker}
    assert Sticker.parse(" Full_Page ") is Sticker.FULL_PAGE
    with pytest.raises(ValueError, match="not a sticker"):
        Sticker.parse("gold star")


@pytest.mark.parametrize(("width", "height", "seed"), [(39, 32, 11), (16, 12, 4)])
def test_move_by_move_equals_the_replay(width: int, height: int, seed: int) -> None:
    # A greedy random game full of bases: what each move's post would announce, given what the
    # game earned before, adds up to what a replay of the whole game finds.
    full = sample_game(width, height, 10_000, seed=seed)
    assert full.is_over
    game = Game.at_start(full.record)
    so_far: list[Earned] = []
    for action in full.actions:
        game.apply(action)
        new = stickers_of_last_action(game, earlier=so_far)
        assert all(e.action == len(game.actions) - 1 for e in new)
        so_far += new
    assert so_far == stickers_of_game(full)
    # The random game reaches most stickers, so the comparison covers them.
    assert len({e.sticker for e in so_far}) >= 3


# -- the service: stored with the action that earned them, announced, kept over restarts ---


class Scripted:
    """The computer's search replaced by a list of dots (then an end): decided at once."""

    def __init__(self, *points: str) -> None:
        self.points = iter(points)

    async def choose(self, record: object, level: str, seed: int, *, cheap: bool = False) -> Any:
        point = next(self.points, None)
        return Decision("end") if point is None else Decision("dot", Point.parse(point))

    def close(self) -> None:
        """Nothing to stop."""


async def play(service: GameService, view: GameView, points: str) -> list[MoveOutcome]:
    """Alternate dots (Pink first if Pink is to move) through the service."""
    outcomes = []
    for name in points.split():
        user_id = view.user_of(view.game.to_move or PINK)
        outcome = await service.place(game_id=view.game_id, user_id=user_id, point=name)
        view = outcome.view
        outcomes.append(outcome)
    return outcomes


async def stored(service: GameService, game_id: int) -> list[tuple[int, str, int]]:
    rows = await service.store.execute(
        "SELECT user_id, sticker, seq FROM stickers WHERE game_id = ? ORDER BY seq, sticker",
        (game_id,),
    )
    return [(int(u), str(s), int(q)) for u, s, q in rows]


BIG = GameOptions(width=20, height=20)
# Pink's diamond around Blue's E5, Blue's other dots far away: Pink's 4th dot (action 6) captures.
ALTERNATE_CAPTURE = "E6 E5 D5 A1 F5 A2 E4"


async def test_a_capture_is_stored_with_its_move_and_new_only_the_first_time(
    service: GameService,
) -> None:
    view = await new_game(service, options=BIG)
    outcomes = await play(service, view, ALTERNATE_CAPTURE)
    assert [o.stickers for o in outcomes[:-1]] == [()] * 6
    assert outcomes[-1].stickers == (StickerNews(ALICE, Sticker.FIRST_CAPTURE, True),)
    assert await stored(service, view.game_id) == [(ALICE, "first_capture", 6)]
    # A second capture in the same game earns nothing more.
    more = await play(service, outcomes[-1].view, "J5 J6 A3 I5 A4 K5 A5 J4")
    assert all(o.stickers == () for o in more) and more[-1].view.game.score(PINK) == 2
    # The same sticker in another game: counted again, but no longer new.
    again = await play(service, await new_game(service, options=BIG), ALTERNATE_CAPTURE)
    assert again[-1].stickers == (StickerNews(ALICE, Sticker.FIRST_CAPTURE, False),)
    assert await service.sticker_book(user_id=ALICE) == {Sticker.FIRST_CAPTURE: 2}
    assert await service.sticker_book(user_id=BOB) == {}


async def test_the_book_and_a_game_s_stickers_survive_a_restart(
    tmp_path: Path, clock: FakeTime
) -> None:
    path = tmp_path / "dots.sqlite3"
    first = await open_service(path, clock)
    view = await new_game(first, options=BIG)
    await play(first, view, ALTERNATE_CAPTURE)
    await first.close()
    second = await open_service(path, clock)
    try:
        assert await second.sticker_book(user_id=ALICE) == {Sticker.FIRST_CAPTURE: 1}
        # The game goes on after the restart: what it earned before is read back, so the
        # next capture is no first capture, and the big one is.
        big = "D8 C8 E8 D9 F8 E9 G8 F9 H8 G9 T1 H9 T2 D7 T3 E7 T4 F7 T5 G7 T6 H7 T7 I8"
        outcomes = await play(second, await second.game(view.game_id), big)
        assert outcomes[-1].view.game.score(PINK) == 1 + BIG_CAPTURE
        assert [o.stickers for o in outcomes if o.stickers] == [
            (StickerNews(ALICE, Sticker.BIG_CAPTURE, True),)
        ]
        assert await second.game_stickers(game_id=view.game_id) == [
            (ALICE, Sticker.FIRST_CAPTURE, 6),
            (ALICE, Sticker.BIG_CAPTURE, 6 + len(big.split())),
        ]
    finally:
        await second.close()


async def test_a_new_game_reads_no_stickers_and_a_rebuilt_one_reads_them_once(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[int] = []
    game_stickers = service.store.stickers.game_stickers

    async def counted(game_id: int) -> Any:
        reads.append(game_id)
        return await game_stickers(game_id)

    monkeypatch.setattr(service.store.stickers, "game_stickers", counted)
    view = await new_game(service, options=BIG)
    outcomes = await play(service, view, ALTERNATE_CAPTURE)
    assert reads == [] and outcomes[-1].stickers  # earned, without reading the game's stickers
    service.core.forget_all()
    await play(service, await service.game(view.game_id), "J5 J6")
    assert reads == [view.game_id]


async def test_game_level_stickers_at_the_end_for_both_friends(service: GameService) -> None:
    view = await new_game(service, options=GameOptions(width=39, height=32))
    await play(service, view, "T16 U16")
    await service.end(game_id=view.game_id, user_id=ALICE)
    outcome = await service.end(game_id=view.game_id, user_id=BOB)
    assert outcome.is_over
    assert set(outcome.stickers) == {
        StickerNews(ALICE, Sticker.FULL_PAGE, True),
        StickerNews(BOB, Sticker.FULL_PAGE, True),
    }
    assert await stored(service, view.game_id) == [
        (ALICE, "full_page", 3),
        (BOB, "full_page", 3),
    ]
    # A resignation on a smaller page earns nothing.
    small = await new_game(service)
    await play(service, small, "E5")
    resigned = await service.resign(game_id=small.game_id, user_id=BOB)
    assert resigned.is_over and resigned.stickers == ()


async def test_the_end_stores_what_the_game_earned_before_stickers_existed(
    service: GameService,
) -> None:
    view = await new_game(service, options=BIG)
    outcomes = await play(service, view, ALTERNATE_CAPTURE)
    await service.store.execute("DELETE FROM stickers")  # as if played before this version
    over = await service.resign(game_id=view.game_id, user_id=BOB)
    assert over.stickers == ()  # the resignation itself earned nothing to announce
    assert await stored(service, view.game_id) == [(ALICE, "first_capture", 6)]
    assert outcomes[-1].view.game.score(PINK) == 1


async def test_against_the_computer_only_the_person_collects_and_an_undo_takes_it_back(
    service: GameService,
) -> None:
    # Alice is Blue: the computer's diamond E6 D5 F5 E4 takes Alice's E5 (no sticker for it);
    # then Alice's ring around the computer's J5 is hers, until she undoes it.
    service.thinker = Scripted("E6", "D5", "F5", "E4", "J5", "A10", "A11", "A12", "A13")  # type: ignore[assignment]
    view = await service.start_computer_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        options=GameOptions(colour="blue", width=20, height=20),
    )
    game_id = view.game_id
    for point in ("E5", "A1", "A2", "J6"):
        assert (await service.computer_move(game_id=game_id)) is not None
        await service.place(game_id=game_id, user_id=ALICE, point=point)
    computer = await service.computer_move(game_id=game_id)
    assert computer is not None and computer.view.game.score(PINK) == 1
    assert computer.stickers == ()
    await service.place(game_id=game_id, user_id=ALICE, point="I5")
    await service.computer_move(game_id=game_id)
    await service.place(game_id=game_id, user_id=ALICE, point="K5")
    await service.computer_move(game_id=game_id)
    captured = await service.place(game_id=game_id, user_id=ALICE, point="J4")
    assert captured.view.game.score(BLUE) == 1
    assert captured.stickers == (StickerNews(ALICE, Sticker.FIRST_CAPTURE, True),)
    assert await stored(service, game_id) == [(ALICE, "first_capture", 13)]
    await service.computer_move(game_id=game_id)
    await service.undo(game_id=game_id, user_id=ALICE)
    assert await stored(service, game_id) == []
    assert await service.sticker_book(user_id=ALICE) == {}
    # Played again, it is earned again (and new again: the undone one never counted).
    again = await service.place(game_id=game_id, user_id=ALICE, point="J4")
    assert again.stickers == (StickerNews(ALICE, Sticker.FIRST_CAPTURE, True),)


# -- on both databases: stickers kept once, undone with their actions; the month's table ----


@pytest_asyncio.fixture(name="either")
async def either_fixture(database: str | Path, clock: FakeTime) -> AsyncIterator[GameService]:
    """A service on a fresh database of each kind (SQLite, PostgreSQL where installed)."""
    service = await open_service(database, clock)
    yield service
    await service.close()


async def resigned_game(service: GameService, winner: int, loser: int) -> None:
    view = await new_game(service, pink=winner, blue=loser, options=BIG)
    await play(service, view, ALTERNATE_CAPTURE)
    await service.resign(game_id=view.game_id, user_id=loser)


async def test_stickers_are_kept_once_and_owned_on_either_database(either: GameService) -> None:
    await resigned_game(either, ALICE, BOB)
    await resigned_game(either, ALICE, CAROL)
    store = either.store
    (game_id,) = [int(g) for (g,) in await store.execute("SELECT MIN(game_id) FROM games")]
    rows = await store.stickers.game_stickers(game_id)
    assert [(r.user_id, r.sticker, r.seq) for r in rows] == [(ALICE, "first_capture", 6)]
    assert rows[0].guild_id == GUILD
    # Written again (a retried transaction): kept once, as it was.
    async with store.db.transaction() as conn:
        await store.stickers.insert(conn, [replace(rows[0], seq=9, earned=1.0)])
    assert await store.stickers.game_stickers(game_id) == rows
    assert await store.stickers.sticker_counts(ALICE) == {"first_capture": 2}
    pairs = [(ALICE, "first_capture"), (ALICE, "trap"), (BOB, "first_capture")]
    assert await store.stickers.stickers_owned(pairs, besides=game_id) == {(ALICE, "first_capture")}
    assert await store.stickers.stickers_owned(pairs, besides=game_id + 1) == {
        (ALICE, "first_capture")
    }
    assert await store.stickers.stickers_owned([], besides=game_id) == set()


async def test_the_month_s_table_on_either_database(either: GameService, clock: FakeTime) -> None:
    await resigned_game(either, ALICE, BOB)  # January
    clock.advance(timedelta(days=31))  # 1 February
    await resigned_game(either, BOB, CAROL)
    await resigned_game(either, CAROL, ALICE)
    table = await either.month_leaderboard(guild_id=GUILD)
    assert (table.start, table.end) == (
        datetime(2026, 2, 1, tzinfo=UTC),
        datetime(2026, 3, 1, tzinfo=UTC),
    )
    # February only: Alice's January win is left out. Bob and Carol have a point each,
    # ranked by the rating gained; Alice none.
    by_user = {r.user_id: (r.points, r.games, r.wins, r.losses, r.draws) for r in table.rows}
    assert by_user == {BOB: (1, 1, 1, 0, 0), CAROL: (1, 2, 1, 1, 0), ALICE: (0, 1, 0, 1, 0)}
    first, second, third = table.rows
    assert {first.user_id, second.user_id} == {BOB, CAROL} and first.gained > second.gained
    assert third.user_id == ALICE and third.gained < 0
    assert [r.rank for r in table.rows] == [1, 2, 3]
    standing = await either.month_standing(guild_id=GUILD, user_id=BOB)
    assert standing is not None and standing in table.rows
    assert await either.month_standing(guild_id=GUILD, user_id=999) is None
    assert (await either.month_leaderboard(guild_id=GUILD + 1)).rows == ()
    clock.advance(timedelta(days=28))  # March: nothing yet
    assert (await either.month_leaderboard(guild_id=GUILD)).rows == ()


def test_month_bounds_and_ranking_ties() -> None:
    assert month_of(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)) == (
        datetime(2026, 12, 1, tzinfo=UTC),
        datetime(2027, 1, 1, tzinfo=UTC),
    )
    rows = [
        MonthRow(1, 2, 1, 1, 0, -3.0),
        MonthRow(2, 1, 0, 0, 1, 2.0),
        MonthRow(3, 2, 0, 0, 2, 1.0),
        MonthRow(4, 1, 0, 0, 1, 2.0),
        MonthRow(5, 1, 1, 0, 0, 8.0),
    ]
    ranked = month_ranking(rows)
    # Points first (a win 1, a draw ½), then rating gained; equal in both, equal rank.
    assert [(r.user_id, r.rank, r.points) for r in ranked] == [
        (5, 1, 1.0),
        (3, 2, 1.0),
        (1, 3, 1.0),
        (2, 4, 0.5),
        (4, 4, 0.5),
    ]


async def test_a_takeback_by_consent_takes_the_sticker_back_too(service: GameService) -> None:
    view = await new_game(service, options=GameOptions(width=20, height=20, rated=False))
    outcomes = await play(service, view, ALTERNATE_CAPTURE)
    assert outcomes[-1].stickers == (StickerNews(ALICE, Sticker.FIRST_CAPTURE, True),)
    moves = len(outcomes[-1].view.game.actions)
    await service.ask_takeback(game_id=view.game_id, user_id=ALICE)
    await service.answer_takeback(game_id=view.game_id, user_id=BOB, moves=moves, accept=True)
    assert await stored(service, view.game_id) == []
    # Another dot earns nothing; the capture played again is the first again.
    assert (await service.place(game_id=view.game_id, user_id=ALICE, point="A10")).stickers == ()
    await service.place(game_id=view.game_id, user_id=BOB, point="A3")
    again = await service.place(game_id=view.game_id, user_id=ALICE, point="E4")
    assert again.stickers == (StickerNews(ALICE, Sticker.FIRST_CAPTURE, True),)
    assert await stored(service, view.game_id) == [(ALICE, "first_capture", 8)]


# -- in-process Discord: the computer's run alone announces what it made the person earn ---


async def test_a_trap_during_the_computer_s_run_alone_is_announced(world: World) -> None:
    from tests.bot.test_computer_cogs import ScriptedThinker  # noqa: PLC0415 (a test helper)

    h = world.harness
    # Ann's empty ring around D4; she ends, and the computer, alone, walks into it, then ends.
    world.service.thinker = ScriptedThinker(["J1", "J2", "J3", "J4", "D4", "A10", "end"])
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    await cog_play(world, thread, (ANN, "D5"), (ANN, "C4"), (ANN, "E4"), (ANN, "D3"))
    await h.slash(ANN, "end", channel_id=thread)
    prompt = h.last_message_with("dots:confirm:end")
    calls = await h.click(ANN, prompt, button_id(prompt, "dots:confirm:end:"))
    last = [c for c in posted(calls) if c.path == f"/channels/{thread}/messages"][-1].content
    assert "plays on alone: D4 (captures 1), A10." in last and "Pink wins 1–0" in last
    assert f"<@{ANN.id}>: New sticker! {Sticker.EMPTY_RING_TRAP.label}" in last
    assert f"<@{ANN.id}>: New sticker! {Sticker.FIRST_CAPTURE.label}" in last
    assert "<@-" not in last  # the computer collects nothing
    assert await world.service.sticker_book(user_id=ANN.id) == {
        Sticker.EMPTY_RING_TRAP: 1,
        Sticker.FIRST_CAPTURE: 1,
    }
