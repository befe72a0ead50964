"""The game service (use-cases), its values and its refusals; no Discord here.

Typical use::

    service = await GameService.open("dots.sqlite3")
    clocks = Clocks(service); await clocks.start()
    turns = ComputerTurns(service); await turns.start()  # the computer's moves, as events
    challenge = await service.challenge(guild_id=g, channel_id=c, challenger_id=a, opponent_id=b)
    view = await service.accept(challenge_id=challenge.challenge_id, user_id=b)
    outcome = await service.place(game_id=view.game_id, user_id=view.pink_id, point="E5")
"""

from bot.games.computer import (
    COMPUTER_IDS,
    Thinker,
    computer_id,
    computer_level,
    computer_name,
    is_computer,
)
from bot.games.deadlines import PostKind, owing_post
from bot.games.errors import (
    CannotChallengeBot,
    CannotChallengeSelf,
    ChallengeClosed,
    ChallengeExists,
    GameChanged,
    GameOver,
    IllegalMove,
    NoSuchChallenge,
    NoSuchGame,
    NotAgainstComputer,
    NothingToUndo,
    NotYourChallenge,
    NotYourGame,
    NotYourTurn,
    OptionOutOfRange,
    Refusal,
    TooLateToAbort,
)
from bot.games.models import (
    CHALLENGE_TTL,
    DEFAULT_CLOCK,
    MAX_CLOCK,
    MIN_CLOCK,
    ActionTaken,
    Challenge,
    ChallengeExpired,
    ClockChange,
    ComputerMoved,
    Event,
    GameOptions,
    GameStatus,
    GameView,
    GuildSettings,
    HistoryEntry,
    LeaderboardRow,
    MoveOutcome,
    PlayerStats,
    RatingChange,
    Reminder,
    TimedOut,
    Undone,
)
from bot.games.service import GameService, utc_now

__all__ = [
    "CHALLENGE_TTL",
    "COMPUTER_IDS",
    "DEFAULT_CLOCK",
    "MAX_CLOCK",
    "MIN_CLOCK",
    "ActionTaken",
    "CannotChallengeBot",
    "CannotChallengeSelf",
    "Challenge",
    "ChallengeClosed",
    "ChallengeExists",
    "ChallengeExpired",
    "ClockChange",
    "ComputerMoved",
    "Event",
    "GameChanged",
    "GameOptions",
    "GameOver",
    "GameService",
    "GameStatus",
    "GameView",
    "GuildSettings",
    "HistoryEntry",
    "IllegalMove",
    "LeaderboardRow",
    "MoveOutcome",
    "NoSuchChallenge",
    "NoSuchGame",
    "NotAgainstComputer",
    "NotYourChallenge",
    "NotYourGame",
    "NotYourTurn",
    "NothingToUndo",
    "OptionOutOfRange",
    "PlayerStats",
    "PostKind",
    "RatingChange",
    "Refusal",
    "Reminder",
    "Thinker",
    "TimedOut",
    "TooLateToAbort",
    "Undone",
    "computer_id",
    "computer_level",
    "computer_name",
    "is_computer",
    "owing_post",
    "utc_now",
]
