"""The rows the Store reads and writes: plain values, instants as unix seconds (UTC)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


class GameStatus(enum.StrEnum):
    """Where a game stands; the values are what the games table stores."""

    RUNNING = "running"
    OVER = "over"  # finished with a result
    ABORTED = "aborted"  # timed out before its first move: no result, no rating change


class ChallengeStatus(enum.StrEnum):
    """Where a challenge stands; the values are what the challenges table stores."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class TakebackStatus(enum.StrEnum):
    """Where a takeback request stands; the values are what the takebacks table stores."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"


@dataclass(slots=True)
class ChallengeRow:
    """A row of ``challenges``."""

    challenge_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    challenger_id: int
    opponent_id: int
    width: int
    height: int
    rules: str
    start: str
    clock: int | None
    colour: str
    rated: bool
    status: ChallengeStatus
    created: float
    expires: float
    game_id: int | None
    # -- takebacks and game clocks ---
    takebacks: bool = False
    gc_total_ms: int | None = None
    gc_increment_ms: int | None = None
    # -- rematch and open challenges ---
    rematch_of: int | None = None  # the finished game a rematch offer replays

    def __post_init__(self) -> None:
        self.status = ChallengeStatus(self.status)  # the database reads back plain text


ANYONE = 0
"""``ChallengeRow.opponent_id`` of an open challenge not taken yet: anyone may accept it (no
Discord snowflake is 0, the computer's ids are negative); the accept stores the taker."""


@dataclass(slots=True)
class GameRow:
    """A row of ``games``; mutable so the service's cache can follow the database."""

    game_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    challenge_id: int | None
    pink_id: int
    blue_id: int
    width: int
    height: int
    rules: str
    start: str
    start_dots: str
    seed: int | None
    clock: int
    rated: bool
    status: GameStatus
    winner: int | None
    pink_score: int | None
    blue_score: int | None
    reason: str | None
    moves: int
    created: float
    started: float
    finished: float | None
    deadline: float | None
    reminder_sent: bool
    # -- takebacks and game clocks: a game clock's definition and state (all None without) ---
    takebacks: bool = False
    gc_total_ms: int | None = None
    gc_increment_ms: int | None = None
    gc_pink_ms: int | None = None
    gc_blue_ms: int | None = None
    gc_runner: int | None = None
    gc_since_ms: int | None = None
    # -- reminders: the player to move's frequency (None once, 0 never, else seconds), copied
    # when their turn starts, and when this turn's last reminder was sent (None: not yet) ---
    remind_every: int | None = None
    reminded_at: float | None = None

    def __post_init__(self) -> None:
        self.status = GameStatus(self.status)  # the database reads back plain text


@dataclass(frozen=True, slots=True)
class ActionRow:
    """A row of ``actions``: one dot, end, resignation or time-out of a game."""

    seq: int
    kind: str
    player: int
    point: str | None
    at: float


@dataclass(frozen=True, slots=True)
class Finish:
    """How a game ended, written with its last action."""

    status: GameStatus  # OVER or ABORTED
    winner: int | None = None
    pink_score: int | None = None
    blue_score: int | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's rating and record in one server."""

    guild_id: int
    user_id: int
    rating: float
    rd: float
    volatility: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's Glicko-2 rating before and after a rated game (provisional while RD > 110)."""

    user_id: int
    before: float
    after: float
    rd: float
    provisional: bool

    @property
    def delta(self) -> float:
        """How much the rating moved."""
        return self.after - self.before


class RatingValues(Protocol):
    """The three numbers of a Glicko-2 rating (a ``RatingRow`` and ``bot.ratings.Rating`` are
    such)."""

    @property
    def rating(self) -> float: ...
    @property
    def rd(self) -> float: ...
    @property
    def volatility(self) -> float: ...


class NewRating(RatingValues, Protocol):
    """A rating as the rating rules give it back (``bot.ratings.Rating`` is one)."""

    @property
    def is_provisional(self) -> bool: ...


# The rating rules, passed into the transaction that ends a rated game: (Pink's rating row,
# Blue's, Pink's score 1, 0.5 or 0) -> each player's (rating before, rating after); a row is
# None for a player's first rated game (the rules know the starting rating).
RateGame = Callable[
    [RatingRow | None, RatingRow | None, float],
    tuple[tuple[NewRating, NewRating], tuple[NewRating, NewRating]],
]


@dataclass(frozen=True, slots=True)
class TakebackRow:
    """A row of ``takebacks``: a game's latest takeback request and its answer."""

    game_id: int
    asker_id: int
    moves: int
    status: TakebackStatus
    asked: float
    expires: float
    message_id: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", TakebackStatus(self.status))  # read back as text


# -- stickers and monthly tables ------------------------------------


@dataclass(frozen=True, slots=True)
class StickerRow:
    """A row of ``stickers``: ``user_id`` earned ``sticker`` (a stable id) in a game, at its
    action ``seq``."""

    user_id: int
    sticker: str
    game_id: int
    guild_id: int | None
    seq: int
    earned: float


@dataclass(frozen=True, slots=True)
class MonthRow:
    """A player's rated games finished in a period, in one server: the record and the
    rating gained (the sum of the changes; negative for a loss)."""

    user_id: int
    games: int
    wins: int
    losses: int
    draws: int
    gained: float


# -- timers and outbox ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimerRow:
    """A row of ``timers``: something that must happen at ``due`` (unix seconds).

    ``kind`` (a ``bot.storage.timer_repository.TimerKind``) "game": the game ``ref_id``'s
    clock (its reminder, then its time-out); "challenge": the challenge ``ref_id``'s expiry.
    ``guild_id`` picks the shard (None: shard 0).
    """

    kind: str
    ref_id: int
    guild_id: int | None
    due: float


@dataclass(frozen=True, slots=True)
class PostRow:
    """A row of ``outbox``: a post that must follow a committed change, not yet sent.

    ``kind`` (a ``bot.storage.timers.PostKind``) "time_out" (``ref_id`` a game, ``seq`` the
    time-out's action, None for an abort), "reminder" (a game, ``seq`` its action count then),
    "expired" (a challenge), "computer" (a game, ``seq`` the computer's first move's count),
    "action" (a player's action in a game, ``seq`` its count; ``token`` the interaction it
    answers, whose placeholder the post fills while Discord allows it).
    """

    post_id: int
    kind: str
    ref_id: int
    guild_id: int | None
    seq: int | None
    created: float
    token: str | None = field(default=None, repr=False)  # a secret for 15 minutes


# When a game's timer fires (unix seconds), from the game row as stored: its reminder if one
# is due this turn, else its deadline; None for a game with no clock running. The service
# passes its rule in (``Store.wake``), as it passes the rating rules.
WakeRule = Callable[[GameRow], float | None]


# -- tournaments ---------------------------------------------------------------------


class TournamentStatus(enum.StrEnum):
    """Where a tournament stands; the values are what the tournaments table stores."""

    REGISTERING = "registering"  # taking entrants
    RUNNING = "running"  # its rounds are being played
    OVER = "over"  # its last round closed
    CANCELLED = "cancelled"  # registration closed with too few entrants


@dataclass(slots=True)
class TournamentRow:
    """A row of ``tournaments`` (see migration 0010): its place, its format, the options of
    its games (the games' own columns), its round length and where it stands."""

    tournament_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    creator_id: int
    format: str
    rounds: int
    cycles: int
    width: int
    height: int
    rules: str
    start: str
    clock: int
    rated: bool
    takebacks: bool
    gc_total_ms: int | None
    gc_increment_ms: int | None
    round_seconds: int
    registration_deadline: float | None
    max_players: int
    bye_points: float
    status: TournamentStatus
    round: int
    round_deadline: float | None
    created: float
    started: float | None
    finished: float | None

    def __post_init__(self) -> None:
        self.status = TournamentStatus(self.status)

    @property
    def is_open(self) -> bool:
        """Whether it still takes entrants or plays rounds (it counts to the server's limit)."""
        return self.status in {TournamentStatus.REGISTERING, TournamentStatus.RUNNING}


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """A row of ``tournament_entrants``: a player in a tournament; ``seed`` (the starting
    number) and ``rating`` are drawn at its start; ``withdrawn_after`` the round after which
    they withdrew (0: before the first; None: still playing)."""

    tournament_id: int
    user_id: int
    joined: float
    seed: int | None
    rating: float | None
    withdrawn_after: int | None


@dataclass(frozen=True, slots=True)
class PairingRow:
    """A row of ``tournament_pairings``: one board of one round. ``blue_id`` None is a bye;
    ``game_id`` the game played for it (None: a bye or a forfeit without a game); the points
    and ``outcome`` (a ``bot.games.tournament_rules.Outcome``) once decided."""

    tournament_id: int
    round: int
    board: int
    pink_id: int
    blue_id: int | None
    game_id: int | None
    pink_points: float | None = None
    blue_points: float | None = None
    outcome: str | None = None
