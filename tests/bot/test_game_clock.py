"""Game clocks: parsing, the time left, the deadline, and exact restarts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.game_clock import (
    MAX_INCREMENT,
    MAX_TOTAL,
    MIN_TOTAL,
    ClockState,
    GameClock,
    TimeUpError,
    describe_left,
)
from engine import IllegalMoveError, OptionError, Player

PINK, BLUE = Player.PINK, Player.BLUE
S, M = timedelta(seconds=1), timedelta(minutes=1)


class FakeTime:
    """An injected clock: starts at a fixed instant and moves only when told."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def move(self, by: timedelta) -> datetime:
        self.now += by
        return self.now


@pytest.mark.parametrize(
    ("text", "total", "increment", "name"),
    [
        ("5+5", 5 * M, 5 * S, "5+5"),
        ("10+0", 10 * M, timedelta(0), "10+0"),
        ("3d+1d", timedelta(days=3), timedelta(days=1), "3d+1d"),
        ("30s+0", 30 * S, timedelta(0), "30s+0"),
        ("10", 10 * M, timedelta(0), "10+0"),
        (" 10 m + 5 s ", 10 * M, 5 * S, "10+5"),
        ("１５＋１０", 15 * M, 10 * S, "15+10"),  # full-width, as some keyboards type it
        ("2H+30", 2 * 60 * M, 30 * S, "2h+30"),
        ("1h+1m", 60 * M, M, "60+1m"),
        ("90s+3", 90 * S, 3 * S, "90s+3"),
    ],
)
def test_parse_and_name(text: str, total: timedelta, increment: timedelta, name: str) -> None:
    clock = GameClock.parse(text)
    assert (clock.total, clock.increment) == (total, increment)
    assert clock.name == str(clock) == name
    assert GameClock.parse(clock.name) == clock


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "say which game clock"),
        ("   ", "say which game clock"),
        ("blitz", "'blitz' is not a game clock: write it like 5+5"),
        ("5+", "not a game clock"),
        ("+5", "not a game clock"),
        ("-5+5", "not a game clock"),
        ("5.5+0", "not a game clock"),
        ("5+5+5", "not a game clock"),
        ("5y+0", "not a game clock"),
        ("5s+0", "at least 10 seconds"),
        ("0+5", "at least 10 seconds"),
        ("31d+0", "at most 30 days"),
        ("99999999999999999999+0", "at most 30 days"),
        ("5+8d", "at most 7 days"),
        ("5+99999999999999999999", "at most 7 days"),
    ],
)
def test_junk_and_out_of_range_are_refused_kindly(text: str, says: str) -> None:
    with pytest.raises(OptionError, match=says.replace("+", r"\+")):
        GameClock.parse(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("5+5", "5 minutes each, 5 seconds more a move"),
        ("1+0", "1 minute each, nothing added a move"),
        ("3d+1d", "3 days each, 1 day more a move"),
        ("90+1m", "1 hour 30 minutes each, 1 minute more a move"),
        ("61s+1", "1 minute 1 second each, 1 second more a move"),
    ],
)
def test_the_clock_in_words(text: str, words: str) -> None:
    assert GameClock.parse(text).description == words


def test_the_limits_themselves_are_allowed() -> None:
    assert GameClock(MIN_TOTAL).total == MIN_TOTAL
    assert GameClock(MAX_TOTAL, MAX_INCREMENT).name == "30d+7d"
    with pytest.raises(OptionError, match="whole seconds"):
        GameClock(5 * M, timedelta(milliseconds=500))
    with pytest.raises(OptionError):
        GameClock(5 * M, -S)


@given(
    total=st.integers(MIN_TOTAL // S, MAX_TOTAL // S), increment=st.integers(0, MAX_INCREMENT // S)
)
def test_every_clock_reads_back_from_its_name_and_its_milliseconds(
    total: int, increment: int
) -> None:
    clock = GameClock(total * S, increment * S)
    assert GameClock.parse(clock.name) == clock
    assert GameClock.from_ms(*clock.to_ms()) == clock


def test_time_runs_for_the_runner_only_and_the_increment_is_added() -> None:
    time = FakeTime()
    state = ClockState.start(GameClock.parse("5+5"), time())
    assert state.time_left(PINK, time()) == state.time_left(BLUE, time()) == 5 * M
    time.move(12 * S)
    assert state.time_left(PINK, time()) == 5 * M - 12 * S
    assert state.time_left(BLUE, time()) == 5 * M
    state = state.after_move(time())  # Pink spent 12 s and gets 5 back
    assert state.runner is BLUE
    assert state.time_left(PINK, time()) == 5 * M - 7 * S
    time.move(timedelta(seconds=3, milliseconds=250))
    assert state.time_left(BLUE, time()) == 5 * M - timedelta(seconds=3, milliseconds=250)
    assert state.time_left(PINK, time()) == 5 * M - 7 * S
    state = state.after_move(time())
    assert state.time_left(BLUE, time()) == 5 * M + timedelta(seconds=1, milliseconds=750)
    assert state.runner is PINK


def test_the_deadline_is_when_the_runner_runs_out() -> None:
    time = FakeTime()
    state = ClockState.start(GameClock.parse("1+0"), time())
    assert state.deadline() == time() + M
    time.move(20 * S)
    state = state.after_move(time())
    assert state.deadline() == time() + M  # Blue's full minute
    time.move(59 * S)
    assert not state.has_run_out(time())
    assert state.time_left(BLUE, time()) == S
    time.move(S)
    assert state.has_run_out(time())
    assert state.time_left(BLUE, time()) == timedelta(0)
    time.move(timedelta(hours=1))
    assert state.time_left(BLUE, time()) == timedelta(0)  # never below zero


def test_a_move_after_the_deadline_is_refused_as_a_time_out() -> None:
    time = FakeTime()
    state = ClockState.start(GameClock.parse("30s+0"), time())
    time.move(30 * S)
    with pytest.raises(TimeUpError, match="your time ran out") as caught:
        state.after_move(time())
    assert isinstance(caught.value, IllegalMoveError)


def test_playing_alone_after_the_opponent_ended_keeps_the_same_clock() -> None:
    time = FakeTime()
    state = ClockState.start(GameClock.parse("2+1"), time(), runner=BLUE)
    time.move(10 * S)
    state = state.after_move(time(), next_runner=BLUE)
    assert state.runner is BLUE
    assert state.time_left(BLUE, time()) == 2 * M - 9 * S
    assert state.deadline() == time() + 2 * M - 9 * S


def test_stopped_clocks_keep_their_time() -> None:
    time = FakeTime()
    state = ClockState.start(GameClock.parse("3+2"), time())
    time.move(40 * S)
    state = state.stopped(time())
    assert state.runner is None and state.deadline() is None
    time.move(timedelta(days=2))
    assert state.time_left(PINK, time()) == 3 * M - 40 * S
    assert not state.has_run_out(time())
    assert state.stopped(time()) == state
    with pytest.raises(ValueError, match="no game clock is running"):
        state.after_move(time())


def test_a_restart_keeps_exact_times() -> None:
    time = FakeTime()
    state = ClockState.start(GameClock.parse("3d+1d"), time())
    time.move(timedelta(hours=7, milliseconds=321))
    state = state.after_move(time())
    time.move(timedelta(minutes=13, microseconds=999))
    row = state.to_storage()
    assert all(type(value) is int for value in row.values())
    restored = ClockState.from_storage(dict(row))
    assert restored == state
    assert restored.deadline() == state.deadline()
    for player in Player:
        assert restored.time_left(player, time()) == state.time_left(player, time())
    stopped = state.stopped(time())
    assert stopped.to_storage()["runner"] == 0
    assert ClockState.from_storage(stopped.to_storage()) == stopped


@pytest.mark.parametrize(
    "row",
    [
        {"pink_ms": -1, "blue_ms": 0, "increment_ms": 0, "runner": 0, "since_ms": 0},
        {"pink_ms": 1, "blue_ms": 1, "increment_ms": 0, "runner": 3, "since_ms": 5},
    ],
)
def test_a_corrupt_row_is_refused(row: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="stored game clock"):
        ClockState.from_storage(row)


def test_naive_datetimes_are_refused() -> None:
    with pytest.raises(ValueError, match="aware UTC"):
        ClockState.start(GameClock.parse("5+5"), datetime(2026, 12, 1, 12, 0))


@pytest.mark.parametrize(
    ("left", "shown"),
    [
        (timedelta(0), "0:00"),
        (-S, "0:00"),
        (timedelta(seconds=9, milliseconds=999), "0:09"),
        (4 * M + 59 * S, "4:59"),
        (timedelta(hours=1, minutes=2, seconds=3), "1:02:03"),
        (timedelta(days=2, hours=3, minutes=59), "2d 3h"),
    ],
)
def test_time_left_as_shown(left: timedelta, shown: str) -> None:
    assert describe_left(left) == shown
