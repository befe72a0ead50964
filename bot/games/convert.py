"""Conversions between stored rows and the service's values: times, options, positions.

Rows hold plain text (``"grounding"``, ``"over"``); the values hold the engine's enums and
``GameStatus``: the text is read into them here, at the storage boundary, and nowhere else."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from bot.games.errors import OptionOutOfRange
from bot.games.game_clock import ClockState, GameClock
from bot.games.models import (
    MAX_CLOCK,
    MIN_CLOCK,
    REMINDER_MIN_CLOCK,
    Challenge,
    GameOptions,
    GameView,
)
from bot.storage.rows import ANYONE, ActionRow, ChallengeRow, GameRow, GameStatus
from engine import (
    Action,
    ActionKind,
    Colour,
    EndReason,
    Game,
    OptionError,
    Player,
    Point,
    Record,
    Result,
    Rules,
    Start,
)
from engine import check_options as check_game_options


def to_ts(when: datetime) -> float:
    """Unix seconds of an aware datetime."""
    return when.timestamp()


def to_dt(ts: float) -> datetime:
    """The aware UTC datetime of unix seconds."""
    return datetime.fromtimestamp(ts, UTC)


def clock_seconds(clock: timedelta) -> int:
    """A move clock as whole seconds, refused outside 30 seconds to 7 days (rule 7.1).

    Raises:
        OptionOutOfRange: the clock is out of range.
    """
    if not MIN_CLOCK <= clock <= MAX_CLOCK:
        raise OptionOutOfRange("the move clock must be between 30 seconds and 7 days")
    return round(clock.total_seconds())


def check_options(options: GameOptions) -> None:
    """Refuse options the engine refuses, or an unknown colour (the clock is checked by
    ``clock_seconds``).

    Raises:
        OptionOutOfRange: carrying the engine's error, which names the option.
    """
    try:
        check_game_options(options.width, options.height, options.rules, options.start)
        Colour.parse(options.colour)
    except OptionError as error:
        raise OptionOutOfRange(error) from None


def encode_start_dots(dots: tuple[tuple[Player, Point], ...]) -> str:
    """Starting dots as text: ``"1:E5 2:F5"`` (1 Pink, 2 Blue)."""
    return " ".join(f"{int(player)}:{point.name}" for player, point in dots)


def decode_start_dots(text: str) -> tuple[tuple[Player, Point], ...]:
    """The inverse of ``encode_start_dots``."""
    out = []
    for item in text.split():
        player, name = item.split(":")
        out.append((Player(int(player)), Point.parse(name)))
    return tuple(out)


def to_action(row: ActionRow) -> Action:
    """The engine action of a stored one."""
    point = Point.parse(row.point) if row.point is not None else None
    return Action(ActionKind(row.kind), Player(row.player), point)


def rebuild(row: GameRow, actions: list[ActionRow]) -> Game:
    """The position of a stored game: its start, then its actions replayed (rule 10.1)."""
    record = Record(
        row.width,
        row.height,
        Rules(row.rules),
        Start(row.start),
        decode_start_dots(row.start_dots),
        tuple(to_action(action) for action in actions),
    )
    return Game.replay(record)


def stored_result(row: GameRow) -> Result | None:
    """The result written in a finished game's row (None if running or aborted)."""
    if row.status != GameStatus.OVER or row.reason is None:
        return None
    winner = Player(row.winner) if row.winner else None
    return Result(winner, row.pink_score or 0, row.blue_score or 0, EndReason(row.reason))


def carried(row: object, value_type: type, **converted: object) -> dict[str, object]:
    """The fields of the dataclass ``value_type`` for a value made from ``row``: those given in
    ``converted``, and every other one the row has under the same name, as it is (ids, flags)."""
    names = (f.name for f in dataclasses.fields(value_type))
    same = {name: getattr(row, name) for name in names if name not in converted}
    return same | converted


def game_view(row: GameRow, game: Game) -> GameView:
    """The snapshot of a game from its row and position (ids, players and status as stored)."""
    return GameView(
        **carried(
            row,
            GameView,
            clock=timedelta(seconds=row.clock),
            game=game,
            deadline=to_dt(row.deadline) if row.deadline is not None else None,
            created=to_dt(row.created),
            started=to_dt(row.started),
            finished=to_dt(row.finished) if row.finished is not None else None,
            result=stored_result(row),
            game_clock=stored_game_clock(row.gc_total_ms, row.gc_increment_ms),
            clock_state=clock_state(row),
            takebacks=bool(row.takebacks),
        )
    )


# -- takebacks and game clocks ---


def stored_game_clock(total_ms: int | None, increment_ms: int | None) -> GameClock | None:
    """The game clock a row stores (None: a clock per move only)."""
    if total_ms is None:
        return None
    return GameClock.from_ms(total_ms, increment_ms or 0)


def clock_state(row: GameRow) -> ClockState | None:
    """A game row's game clock state (None without a game clock)."""
    if row.gc_total_ms is None or row.gc_pink_ms is None or row.gc_blue_ms is None:
        return None
    return ClockState.from_storage(
        {
            "pink_ms": row.gc_pink_ms,
            "blue_ms": row.gc_blue_ms,
            "increment_ms": row.gc_increment_ms or 0,
            "runner": row.gc_runner or 0,
            "since_ms": row.gc_since_ms or 0,
        }
    )


def clock_columns(state: ClockState | None) -> dict[str, int | None] | None:
    """The game row's columns of a game clock state (None without a game clock)."""
    if state is None:
        return None
    stored = state.to_storage()
    return {
        "gc_pink_ms": stored["pink_ms"],
        "gc_blue_ms": stored["blue_ms"],
        "gc_runner": stored["runner"],
        "gc_since_ms": stored["since_ms"] if state.runner is not None else None,
    }


def challenge_value(row: ChallengeRow) -> Challenge:
    """The service's value of a challenge row."""
    options = GameOptions(
        width=row.width,
        height=row.height,
        rules=Rules(row.rules),
        start=Start(row.start),
        clock=timedelta(seconds=row.clock) if row.clock is not None else None,
        colour=Colour(row.colour),
        rated=row.rated,
        game_clock=stored_game_clock(row.gc_total_ms, row.gc_increment_ms),
        takebacks=bool(row.takebacks),
    )
    return Challenge(
        **carried(
            row,
            Challenge,
            opponent_id=None if row.opponent_id == ANYONE else row.opponent_id,
            options=options,
            created=to_dt(row.created),
            expires=to_dt(row.expires),
        )
    )


def remind_at(row: GameRow) -> datetime | None:
    """When to remind the player to move this turn, for clocks of an hour or more, by the
    frequency the row took from them (``remind_every``): once (None), a third of the clock
    before the deadline; never (0); or every so many seconds from the turn's start (the first
    no later than a third before the deadline), each after the one before. None once this
    turn has no reminder left before its deadline."""
    deadline, every = row.deadline, row.remind_every
    if deadline is None or every == 0 or row.clock < REMINDER_MIN_CLOCK.total_seconds():
        return None
    third_left = deadline - row.clock / 3
    if row.reminded_at is None:
        due = third_left if every is None else min(turn_start(row) + every, third_left)
    elif every is None:
        return None
    else:
        due = row.reminded_at + every
    return to_dt(due) if due < deadline else None


def user_of(row: GameRow, player: Player) -> int:
    """The user id playing ``player`` in a game."""
    return row.pink_id if player is Player.PINK else row.blue_id


def mover_id(row: GameRow, game: Game) -> int | None:
    """The user id of the player to move in ``game`` (None once it is over)."""
    return None if game.to_move is None else user_of(row, game.to_move)


def turn_start(row: GameRow) -> float:
    """When the turn of a running game with a deadline started (unix seconds): its game
    clock's start, else its move clock's whole length before the deadline."""
    assert row.deadline is not None
    if row.gc_since_ms is not None:
        return row.gc_since_ms / 1000
    return row.deadline - row.clock
