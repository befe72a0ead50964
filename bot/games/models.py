"""The values the game service takes and returns: options, snapshots, outcomes and events.

All instants are aware UTC ``datetime``; all durations ``timedelta``; user ids are Discord
snowflakes (ints) but nothing here knows Discord.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from bot.games.game_clock import ClockState, GameClock
from bot.games.stickers import StickerNews
from bot.storage.rows import ChallengeStatus, GameStatus, RatingChange
from engine import Action, Colour, Game, Placement, Player, Result, Rules, Start

MIN_CLOCK = timedelta(seconds=30)
MAX_CLOCK = timedelta(days=7)
DEFAULT_CLOCK = timedelta(seconds=60)  # rule 7.1
CHALLENGE_TTL = timedelta(minutes=10)
# The guild_id of a game (and its challenge) with no server: it lives on its card, in a DM, a
# group DM or a server without the bot (bot/cogs/on_card.py).
NO_SERVER = 0
# Clocks of an hour or more remind the player to move when a third of the time is left.
REMINDER_MIN_CLOCK = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """What a challenge asks for. ``clock=None`` means the server's default move clock.

    The options are the engine's enums (``Rules``, ``Start``, ``Colour``); ``colour`` is the
    challenger's colour (``Colour.RANDOM`` draws it when the challenge is accepted). Sizes may
    come from ``engine.parse_size("20x20")`` or ``engine.NAMED_SIZES``. ``game_clock``: a total
    time per player plus an increment, instead of a clock per move. ``takebacks``: whether
    takebacks by consent are allowed; None: off for a rated game, on for an unrated one.
    """

    width: int = 10
    height: int = 10
    rules: Rules = Rules.STANDARD
    start: Start = Start.EMPTY
    clock: timedelta | None = None
    colour: Colour = Colour.RANDOM
    rated: bool = True
    game_clock: GameClock | None = None
    takebacks: bool | None = None

    @property
    def allows_takebacks(self) -> bool:
        """Whether takebacks are allowed (the default: only in unrated games)."""
        return not self.rated if self.takebacks is None else self.takebacks


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings: the channel games are posted in and the default move clock."""

    guild_id: int
    game_channel_id: int | None = None
    default_clock: timedelta = DEFAULT_CLOCK


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as stored. ``status``: open, accepted, declined, cancelled or expired.

    ``opponent_id`` is None for an open challenge that nobody has taken yet (anyone in the
    server may accept it); ``rematch_of`` is the finished game a rematch offer replays."""

    challenge_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    opponent_id: int | None
    options: GameOptions
    status: str
    created: datetime
    expires: datetime
    game_id: int | None = None
    rematch_of: int | None = None

    @property
    def is_open(self) -> bool:
        """Whether the challenge still waits for an answer."""
        return self.status == ChallengeStatus.OPEN


@dataclass(frozen=True, slots=True)
class GameView:
    """A snapshot of one game: its players, settings, status, clock and live position.

    ``game`` is the engine's position. It is the service's cached object for a running game:
    read it (draw it, list its actions) but never mutate it; act through the service.
    """

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    pink_id: int
    blue_id: int
    clock: timedelta
    rated: bool
    status: GameStatus
    game: Game
    deadline: datetime | None
    created: datetime
    started: datetime
    finished: datetime | None
    result: Result | None
    challenge_id: int | None = None
    game_clock: GameClock | None = None
    clock_state: ClockState | None = None
    takebacks: bool = False

    def times_left(self, now: datetime) -> dict[Player, timedelta] | None:
        """Each player's time left on the game clock at ``now``; None without a game clock."""
        if self.clock_state is None:
            return None
        return {player: self.clock_state.time_left(player, now) for player in Player}

    @property
    def options(self) -> GameOptions:
        """The options this game is played with (its colours are ``pink_id`` and ``blue_id``:
        ``colour`` is left random)."""
        return GameOptions(
            width=self.game.width,
            height=self.game.height,
            rules=self.game.rules,
            start=self.game.start,
            clock=self.clock,
            rated=self.rated,
            game_clock=self.game_clock,
            takebacks=self.takebacks,
        )

    @property
    def is_running(self) -> bool:
        """Whether the game is still being played."""
        return self.status == GameStatus.RUNNING

    @property
    def to_move(self) -> Player | None:
        """The colour to move, None when the game is over or aborted."""
        return self.game.to_move if self.is_running else None

    @property
    def to_move_id(self) -> int | None:
        """The user id of the player to move, None when the game is over or aborted."""
        colour = self.to_move
        return None if colour is None else self.user_of(colour)

    def user_of(self, player: Player) -> int:
        """The user id playing ``player``."""
        return self.pink_id if player is Player.PINK else self.blue_id

    def player_of(self, user_id: int) -> Player | None:
        """The colour ``user_id`` plays, None if they do not play in this game."""
        if user_id == self.pink_id:
            return Player.PINK
        if user_id == self.blue_id:
            return Player.BLUE
        return None

    @property
    def players(self) -> tuple[int, int]:
        """The user ids (pink, blue)."""
        return (self.pink_id, self.blue_id)


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    """What one action did, for the adapter to show.

    ``placement`` is set for a dot. ``result`` is set once the game is over; ``aborted`` when a
    game without any move timed out (it is then aborted: no result, no rating change).
    ``next_user_id``/``deadline`` say who moves next and until when (None once over).
    """

    view: GameView
    action: Action | None
    placement: Placement | None
    is_over: bool
    result: Result | None
    rating_changes: tuple[RatingChange, ...] = ()
    next_user_id: int | None = None
    deadline: datetime | None = None
    aborted: bool = False
    stickers: tuple[StickerNews, ...] = ()  # what the action earned (bot.games.sticker_cases)


@dataclass(frozen=True, slots=True)
class Undone:
    """What an undo did: the game after it and the actions taken back (the player's dot and
    the computer's reply, in the order they were played)."""

    view: GameView
    taken: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a server's leaderboard."""

    rank: int
    user_id: int
    rating: float
    rd: float
    provisional: bool
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's rating and record in one server (defaults for a player who never played)."""

    guild_id: int
    user_id: int
    rating: float
    rd: float
    volatility: float
    provisional: bool
    games: int
    wins: int
    losses: int
    draws: int
    rank: int | None
    running: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A finished game from one player's side."""

    game_id: int
    opponent_id: int
    colour: Player
    outcome: Literal["win", "loss", "draw", "aborted"]
    score: int
    opponent_score: int
    reason: str | None
    rated: bool
    rating_delta: float | None
    width: int
    height: int
    finished: datetime


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' finished games against each other in one server (aborted ones aside)."""

    a: int
    b: int
    a_wins: int
    b_wins: int
    draws: int
    game_ids: tuple[int, ...] = field(default=())

    @property
    def games(self) -> int:
        """How many games were decided or drawn."""
        return self.a_wins + self.b_wins + self.draws


@dataclass(frozen=True, slots=True)
class ClockChange:
    """A deadline set, moved or cleared (``due=None``), for ``bot.clocks.Clocks`` to arm.

    Exactly one of ``game_id`` / ``challenge_id`` is set. ``remind_at`` is when to remind the
    player to move next this turn (``convert.remind_at``), else None.
    """

    game_id: int | None
    challenge_id: int | None
    due: datetime | None
    remind_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class GameAborted:
    """A game ended without a result (aborted before its first move, by its clock with no
    move, or cancelled by an admin): published once stored, for the service's own listeners
    (a tournament decides the game's board)."""

    view: GameView


# -- events: things that happen without a user asking (clocks), for the adapter to post ---


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A player's move clock ran out: the outcome of the time-out (maybe an abort)."""

    outcome: MoveOutcome


@dataclass(frozen=True, slots=True)
class Reminder:
    """A third of a long move clock is left: ping ``user_id`` (sent once per turn)."""

    view: GameView
    user_id: int
    deadline: datetime
    left: timedelta


@dataclass(frozen=True, slots=True)
class ChallengeExpired:
    """An unanswered challenge expired."""

    challenge: Challenge


@dataclass(frozen=True, slots=True)
class ComputerMoved:
    """The computer played its turn: one outcome, or several when it plays on alone after the
    player ended (the last one is the position to show)."""

    outcomes: tuple[MoveOutcome, ...]

    @property
    def outcome(self) -> MoveOutcome:
        """The last action's outcome."""
        return self.outcomes[-1]


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A player's action (a move, an end, a resign) whose post a crash left unsent: published
    again at start (``bot.outbox``), to fill the placeholder of the interaction it answered
    (``token``, while Discord allows it) or else to post in the game's thread."""

    outcome: MoveOutcome
    token: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class ChallengeCalledOff:
    """A challenge declined or withdrawn whose post (its message saying so, buttons disabled)
    a crash left unsent: published again at start (``bot.outbox``), to fill the placeholder of
    the click it answered (``token``, while Discord allows it) or else to edit its message."""

    challenge: Challenge
    token: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class TakebackAnswered:
    """A takeback request accepted or declined whose post (its message saying so and, accepted,
    the game's picture) a crash left unsent: published again at start (``bot.outbox``), to fill
    the placeholder of the click it answered (``token``, while Discord allows it) or else to
    edit the request's message, and to post the picture in the game's thread."""

    request: Any  # a bot.games.takebacks.TakebackRequest (which imports this module)
    view: GameView
    token: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class TakebackAsked:
    """A takeback request whose post (the question with its buttons, in the game's thread) a
    crash left unsent: published again at start (``bot.outbox``) while it can still be
    answered, to post it and to fill the asker's placeholder (``token``) while Discord allows
    it."""

    request: Any  # a bot.games.takebacks.TakebackRequest (which imports this module)
    view: GameView
    token: str | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class RematchOffered:
    """A rematch offer to a player whose post (the offer with its buttons, in the game's
    channel) a crash left unsent: published again at start (``bot.outbox``) while it is open,
    to post it and to fill the asker's placeholder (``token``) while Discord allows it."""

    challenge: Challenge
    token: str | None = field(default=None, repr=False)


Event = (
    TimedOut
    | Reminder
    | ChallengeExpired
    | ComputerMoved
    | ActionTaken
    | ChallengeCalledOff
    | TakebackAnswered
    | TakebackAsked
    | RematchOffered
)
