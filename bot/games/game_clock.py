"""Game clocks: a total time per player plus an increment per move.

Besides the clock per move (rule 7.1), a game may be played on a game clock chosen at the
challenge, written as chess players write it: ``5+5`` is 5 minutes each and 5 seconds more after
every move, ``10+0`` has no increment, ``3d+1d`` is a correspondence game. Running out is a
time-out (rule 7.2). Everything here is pure: the instant ``now`` is always passed in (aware
UTC), and a ``ClockState`` turns into plain integers (milliseconds) and back, so a restart keeps
the exact times.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from bot.i18n import N_, SOURCE, Message, _, translate
from engine.errors import IllegalMoveError, OptionError
from engine.point import Player, normalise

MS = timedelta(milliseconds=1)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MIN_TOTAL = timedelta(seconds=10)
MAX_TOTAL = timedelta(days=30)
MAX_INCREMENT = timedelta(days=7)

_UNITS = {
    "s": timedelta(seconds=1),
    "m": timedelta(minutes=1),
    "h": timedelta(hours=1),
    "d": timedelta(days=1),
}
_PART = r"([0-9]+)\s*([smhd]?)"
_CLOCK = re.compile(rf"{_PART}(?:\s*\+\s*{_PART})?", re.ASCII | re.IGNORECASE)
_EXAMPLES = N_("write it like 5+5 (5 minutes each, 5 seconds more a move), 10+0 or 3d+1d")


class ClockOptionError(OptionError):
    """A game clock that cannot be: ``message`` says why in the reader's language."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


# Why a game clock is refused (its values out of range).
WHOLE_SECONDS = N_("a game clock counts whole seconds")
TOO_SHORT = N_("a game clock needs at least 10 seconds each")
TOO_LONG = N_("a game clock gives at most 30 days each")
TOO_MUCH_ADDED = N_("the time added after a move is at most 7 days")


class TimeUpError(IllegalMoveError):
    """A move after the mover's time ran out (rule 7.2): the game clock has timed them out."""


def _whole(duration: timedelta, unit: timedelta) -> bool:
    return duration % unit == timedelta(0)


def _in_unit(duration: timedelta, suffixes: str) -> str | None:
    """``duration`` as a whole number of the first of ``suffixes`` it fits (``"3d"``)."""
    for suffix in suffixes:
        unit = _UNITS[suffix]
        if duration >= unit and _whole(duration, unit):
            return f"{duration // unit}{suffix}"
    return None


_SPOKEN = (("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1))


def _spoken(duration: timedelta) -> str:
    """``"1 hour 30 minutes"``: a whole number of seconds in words."""
    seconds = duration // _UNITS["s"]
    parts = []
    for word, size in _SPOKEN:
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {word}" + ("" if count == 1 else "s"))
    return " ".join(parts) or "0 seconds"


@dataclass(frozen=True, slots=True)
class GameClock:
    """A game clock: ``total`` time for each player, ``increment`` added after each move.

    Raises:
        OptionError: a total or increment out of range, or not whole seconds.
    """

    total: timedelta
    increment: timedelta = timedelta(0)

    def __post_init__(self) -> None:
        if not _whole(self.total, _UNITS["s"]) or not _whole(self.increment, _UNITS["s"]):
            raise ClockOptionError(Message(WHOLE_SECONDS))
        if self.total < MIN_TOTAL:
            raise ClockOptionError(Message(TOO_SHORT))
        if self.total > MAX_TOTAL:
            raise ClockOptionError(Message(TOO_LONG))
        if self.increment < timedelta(0) or self.increment > MAX_INCREMENT:
            raise ClockOptionError(Message(TOO_MUCH_ADDED))

    @classmethod
    def parse(cls, text: str) -> GameClock:
        """Read ``"5+5"``: the total in minutes and the increment in seconds unless a unit
        says otherwise (``s``, ``m``, ``h``, ``d``: ``"3d+1d"``, ``"30s+0"``, ``"1h+30s"``); a
        total alone (``"10"``) has no increment.

        Raises:
            OptionError: text that is no game clock, or values out of range.
        """
        cleaned = normalise(text)
        match = _CLOCK.fullmatch(cleaned)
        if not cleaned:
            raise ClockOptionError(_("say which game clock: {how}", how=Message(_EXAMPLES)))
        if match is None:
            raise ClockOptionError(
                _(
                    "{shown} is not a game clock: {how}",
                    shown=repr(cleaned[:40]),
                    how=Message(_EXAMPLES),
                )
            )
        total_n, total_unit, inc_n, inc_unit = match.groups()
        # Far out of range (and too big for a timedelta): refused before converting.
        if len(total_n) > 8:
            raise ClockOptionError(Message(TOO_LONG))
        if len(inc_n or "") > 8:
            raise ClockOptionError(Message(TOO_MUCH_ADDED))
        total = int(total_n) * _UNITS[(total_unit or "m").lower()]
        increment = int(inc_n or 0) * _UNITS[(inc_unit or "s").lower()]
        return cls(total, increment)

    @property
    def name(self) -> str:
        """The clock as players write it, and as ``parse`` reads it back: ``"5+5"``."""
        total = _in_unit(self.total, "dh" if self.total >= timedelta(hours=2) else "d")
        if total is None:
            minutes = _UNITS["m"]
            whole = _whole(self.total, minutes)
            total = str(self.total // minutes) if whole else f"{self.total // _UNITS['s']}s"
        increment = _in_unit(self.increment, "dhm") or str(self.increment // _UNITS["s"])
        return f"{total}+{increment}"

    @property
    def description(self) -> str:
        """The clock in words for players: ``"5 minutes each, 5 seconds more a move"``."""
        each = f"{_spoken(self.total)} each"
        if not self.increment:
            return f"{each}, nothing added a move"
        return f"{each}, {_spoken(self.increment)} more a move"

    def __str__(self) -> str:
        return self.name

    def to_ms(self) -> tuple[int, int]:
        """``(total, increment)`` in milliseconds, for storage."""
        return self.total // MS, self.increment // MS

    @classmethod
    def from_ms(cls, total: int, increment: int) -> GameClock:
        """The clock stored by ``to_ms``.

        Raises:
            OptionError: values a clock cannot have.
        """
        return cls(total * MS, increment * MS)


def _ms_of(instant: datetime) -> int:
    """An aware instant as milliseconds since 1970 (truncated: storage keeps milliseconds)."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError("game clocks take aware UTC datetimes")
    return (instant - EPOCH) // MS


@dataclass(frozen=True, slots=True)
class ClockState:
    """The time each player has left (milliseconds), and whose clock runs since when.

    Immutable: every step returns a new state. ``runner`` is None while no clock runs (before
    the start, after the end); ``since_ms`` is the instant the runner's clock started.
    """

    pink_ms: int
    blue_ms: int
    increment_ms: int
    runner: Player | None = None
    since_ms: int | None = None

    def __post_init__(self) -> None:
        if (self.runner is None) != (self.since_ms is None):
            raise ValueError("a running clock needs its start, a stopped one none")

    @classmethod
    def start(cls, clock: GameClock, now: datetime, runner: Player = Player.PINK) -> ClockState:
        """Both players with the clock's total; ``runner``'s clock running from ``now``."""
        total, increment = clock.to_ms()
        return cls(total, total, increment, runner, _ms_of(now))

    def _left_ms(self, player: Player, now_ms: int | None) -> int:
        left = self.pink_ms if player is Player.PINK else self.blue_ms
        if player is self.runner and now_ms is not None and self.since_ms is not None:
            left -= max(0, now_ms - self.since_ms)
        return max(0, left)

    def time_left(self, player: Player, now: datetime) -> timedelta:
        """How much time ``player`` has left at ``now`` (never below zero)."""
        return self._left_ms(player, _ms_of(now)) * MS

    def deadline(self) -> datetime | None:
        """The instant the running clock runs out; None while no clock runs."""
        if self.runner is None or self.since_ms is None:
            return None
        left = self.pink_ms if self.runner is Player.PINK else self.blue_ms
        return EPOCH + (self.since_ms + left) * MS

    def has_run_out(self, now: datetime) -> bool:
        """Whether the running clock has run out at ``now`` (a time-out, rule 7.2)."""
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def after_move(self, now: datetime, *, next_runner: Player | None = None) -> ClockState:
        """The state after the runner moved at ``now``: their time spent is taken off, the
        increment added, and the clock of ``next_runner`` runs (default: the opponent; the same
        player when the opponent has ended, rule 7.1). A move that ends the game is
        followed by ``stopped``.

        Raises:
            TimeUpError: the runner's time had run out (the time-out comes first).
            ValueError: no clock is running.
        """
        if self.runner is None:
            raise ValueError("no game clock is running")
        if self.has_run_out(now):
            raise TimeUpError("your time ran out before that move")
        now_ms = _ms_of(now)
        left = self._left_ms(self.runner, now_ms) + self.increment_ms
        runner = self.runner.opponent if next_runner is None else next_runner
        moved = (
            replace(self, pink_ms=left)
            if self.runner is Player.PINK
            else replace(self, blue_ms=left)
        )
        return replace(moved, runner=runner, since_ms=now_ms)

    def stopped(self, now: datetime) -> ClockState:
        """The state with no clock running from ``now`` (the game is over): the runner's time
        spent is taken off, nothing added."""
        if self.runner is None:
            return self
        left = self._left_ms(self.runner, _ms_of(now))
        if self.runner is Player.PINK:
            return replace(self, pink_ms=left, runner=None, since_ms=None)
        return replace(self, blue_ms=left, runner=None, since_ms=None)

    def resumed(self, runner: Player | None, now: datetime) -> ClockState:
        """The state with ``runner``'s clock running from ``now`` after this one is stopped
        (the runner's time spent taken off, nothing added); None: no clock runs (game over).
        A time-out passes the turn this way: the one who ran out keeps zero."""
        stopped = self.stopped(now)
        if runner is None:
            return stopped
        return replace(stopped, runner=runner, since_ms=_ms_of(now))

    def taken_back(self, now: datetime, movers: Iterable[Player], runner: Player) -> ClockState:
        """The state after moves of ``movers`` are taken back at ``now``: time spent stays
        spent (the runner's is taken off), each move taken back returns the increment it gave,
        and ``runner``'s clock runs from ``now``."""
        state = self.stopped(now)
        for mover in movers:
            if mover is Player.PINK:
                state = replace(state, pink_ms=max(0, state.pink_ms - self.increment_ms))
            else:
                state = replace(state, blue_ms=max(0, state.blue_ms - self.increment_ms))
        return replace(state, runner=runner, since_ms=_ms_of(now))

    def to_storage(self) -> dict[str, int]:
        """Plain integers for a database row (``runner`` 0 and ``since_ms`` 0 when stopped)."""
        return {
            "pink_ms": self.pink_ms,
            "blue_ms": self.blue_ms,
            "increment_ms": self.increment_ms,
            "runner": int(self.runner or 0),
            "since_ms": self.since_ms or 0,
        }

    @classmethod
    def from_storage(cls, row: Mapping[str, int]) -> ClockState:
        """The state ``to_storage`` wrote, exactly.

        Raises:
            ValueError: a row no state writes (negative times, an unknown runner).
        """
        pink, blue, increment = int(row["pink_ms"]), int(row["blue_ms"]), int(row["increment_ms"])
        if min(pink, blue, increment) < 0:
            raise ValueError("a stored game clock has negative times")
        runner_value = int(row["runner"])
        if runner_value not in (0, 1, 2):
            raise ValueError(f"a stored game clock names runner {runner_value}")
        runner = Player(runner_value) if runner_value else None
        since = int(row["since_ms"]) if runner else None
        return cls(pink, blue, increment, runner, since)


def describe_left(left: timedelta, locale: str = SOURCE) -> str:
    """Time left as a header shows it: ``"4:59"``, ``"1:02:03"``, ``"2d 3h"`` (rounded down;
    the day and hour letters in ``locale``)."""
    seconds = max(0, int(left // _UNITS["s"]))
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return translate(locale, _("{days}d {hours}h", days=days, hours=hours))
    if hours:
        return f"{hours}:{minutes:02}:{seconds:02}"
    return f"{minutes}:{seconds:02}"


MOVE_CLOCK_RANGE = (30, 604_800)
"""The seconds a game row's per-move ``clock`` may hold (rule 7.1's limits)."""


def reminder_clock(clock: GameClock) -> int:
    """The per-move ``clock`` (seconds) stored with a game on a game clock: its total, within
    the stored range. The deadline comes from the game clock; this only sets the reminder
    (clocks of an hour or more remind when a third of it is left: a 3d game, at 1 day left)."""
    low, high = MOVE_CLOCK_RANGE
    return min(max(clock.total // _UNITS["s"], low), high)
