"""The tables as the Store's queries see them (SQLAlchemy Core); ``migrations/`` makes them.

Only what the queries need: names and types (so values convert: booleans, snowflakes as
BIGINT). Constraints and indexes live in the migrations, which are the truth for the schema.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    Table,
    Text,
)

metadata = MetaData()


def _key(name: str, type_: type[BigInteger | Integer | Text] = BigInteger) -> Column[Any]:
    """A part of a table's key whose values the bot chooses (Discord's ids, numbers)."""
    return Column(name, type_, primary_key=True, autoincrement=False)


guilds = Table(
    "guilds",
    metadata,
    _key("guild_id"),
    Column("game_channel_id", BigInteger),
    Column("default_clock", Integer),
    Column("updated", Float),
    Column("max_open_challenges", Integer),
    Column("max_running_games", Integer),
    Column("max_computer_games", Integer),
)

players = Table(
    "players",
    metadata,
    _key("user_id"),
    Column("dm_on_turn", Boolean),
    Column("updated", Float),
    # -- how often their turn is reminded in long games (0017): NULL once, 0 never, else seconds
    Column("remind_every", Integer),
)

challenges = Table(
    "challenges",
    metadata,
    Column("challenge_id", BigInteger, primary_key=True),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger),
    Column("message_id", BigInteger),
    Column("challenger_id", BigInteger),
    Column("opponent_id", BigInteger),
    Column("width", Integer),
    Column("height", Integer),
    Column("rules", Text),
    Column("start", Text),
    Column("clock", Integer),
    Column("colour", Text),
    Column("rated", Boolean),
    Column("status", Text),
    Column("created", Float),
    Column("expires", Float),
    Column("game_id", BigInteger),
    Column("answer_shown", Boolean),
    # -- rematch and open challenges ---
    Column("rematch_of", BigInteger),
    # -- takebacks and game clocks (0006) ---
    Column("takebacks", Boolean),
    Column("gc_total_ms", BigInteger),
    Column("gc_increment_ms", BigInteger),
)

games = Table(
    "games",
    metadata,
    Column("game_id", BigInteger, primary_key=True),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger),
    Column("thread_id", BigInteger),
    Column("message_id", BigInteger),
    Column("challenge_id", BigInteger),
    Column("pink_id", BigInteger),
    Column("blue_id", BigInteger),
    Column("width", Integer),
    Column("height", Integer),
    Column("rules", Text),
    Column("start", Text),
    Column("start_dots", Text),
    Column("seed", BigInteger),
    Column("clock", Integer),
    Column("rated", Boolean),
    Column("status", Text),
    Column("winner", Integer),
    Column("pink_score", Integer),
    Column("blue_score", Integer),
    Column("reason", Text),
    Column("moves", Integer),
    Column("created", Float),
    Column("started", Float),
    Column("finished", Float),
    Column("deadline", Float),
    Column("reminder_sent", Boolean),
    # -- takebacks and game clocks (0006) ---
    Column("takebacks", Boolean),
    Column("gc_total_ms", BigInteger),
    Column("gc_increment_ms", BigInteger),
    Column("gc_pink_ms", BigInteger),
    Column("gc_blue_ms", BigInteger),
    Column("gc_runner", Integer),
    Column("gc_since_ms", BigInteger),
    # -- reminders at the player's frequency (0017): the player to move's ``remind_every``,
    # copied when their turn starts, and when this turn's last reminder was sent
    Column("remind_every", Integer),
    Column("reminded_at", Float),
)

actions = Table(
    "actions",
    metadata,
    _key("game_id"),
    _key("seq", Integer),
    Column("kind", Text),
    Column("player", Integer),
    Column("point", Text),
    Column("at", Float),
)

ratings = Table(
    "ratings",
    metadata,
    _key("guild_id"),
    _key("user_id"),
    Column("rating", Float),
    Column("rd", Float),
    Column("volatility", Float),
    Column("games", Integer),
    Column("wins", Integer),
    Column("losses", Integer),
    Column("draws", Integer),
    Column("updated", Float),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    _key("game_id"),
    _key("user_id"),
    Column("before", Float),
    Column("after", Float),
    Column("rd", Float),
)

replays = Table(
    "replays",
    metadata,
    _key("game_id"),
    Column("gif", LargeBinary),
)

# -- locales ---------------------------------------------------------------------


def _locale_table(name: str, key: str) -> Table:
    """A table of one language per ``key`` (a locale name such as ``pl``, and when it was set)."""
    return Table(
        name,
        metadata,
        _key(key),
        Column("locale", Text, nullable=False),
        Column("updated", Float),
    )


# A server's language for public posts set by an admin (no row: the server's own locale).
guild_locales = _locale_table("guild_locales", "guild_id")

# The language each user's client last showed (for direct messages, which carry none).
player_locales = _locale_table("player_locales", "user_id")

# -- takebacks (0006) ---
takebacks = Table(
    "takebacks",
    metadata,
    _key("game_id"),
    Column("asker_id", BigInteger),
    Column("moves", Integer),
    Column("status", Text),
    Column("asked", Float),
    Column("expires", Float),
    Column("message_id", BigInteger),
)

# -- stickers ---------------------------------------------------------------

stickers = Table(
    "stickers",
    metadata,
    _key("user_id"),
    _key("sticker", Text),
    _key("game_id"),
    Column("guild_id", BigInteger),
    Column("seq", Integer),
    Column("earned", Float),
)

# -- timers and outbox ---------------------------------------------------------

timers = Table(
    "timers",
    metadata,
    _key("kind", Text),
    _key("ref_id"),
    Column("guild_id", BigInteger),
    Column("due", Float),
)

outbox = Table(
    "outbox",
    metadata,
    Column("post_id", BigInteger, primary_key=True),
    Column("kind", Text),
    Column("ref_id", BigInteger),
    Column("guild_id", BigInteger),
    Column("seq", Integer),
    Column("created", Float),
    # The interaction whose "thinking..." placeholder the post fills (a player's action):
    # Discord lets its token edit it for 15 minutes. Deleted with the row once posted.
    Column("token", Text),
    # Never reuse a post id: its nonces are made from it (``bot.outbox.nonce``).
    sqlite_autoincrement=True,
)

# -- reviews and puzzles (0011) --------------------------------------------------

# The computer's review of a finished game (JSON: ai.review.Review.to_json), made once.
reviews = Table(
    "reviews",
    metadata,
    _key("game_id"),
    Column("requested_by", BigInteger),
    Column("data", Text),
    Column("created", Float),
)

# Puzzles mined from the server's games (JSON: ai.puzzles.Puzzle.to_json); the shipped ones
# come with the package (ai/data/puzzles.json).
puzzles = Table(
    "puzzles",
    metadata,
    _key("puzzle_key", Text),
    Column("game_id", BigInteger),
    Column("width", Integer),
    Column("height", Integer),
    Column("depth", Integer),
    Column("data", Text),
    Column("created", Float),
)

# Each puzzle given to a player (its JSON kept, whatever its source) and the answer.
puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("attempt_id", BigInteger, primary_key=True),
    Column("user_id", BigInteger),
    Column("puzzle_key", Text),
    Column("data", Text),
    Column("given", Float),
    Column("answered", Float),
    Column("answer", Text),
    Column("solved", Boolean),
)

puzzle_streaks = Table(
    "puzzle_streaks",
    metadata,
    _key("user_id"),
    Column("streak", Integer),
    Column("best", Integer),
    Column("solved", Integer),
    Column("tried", Integer),
    Column("updated", Float),
)

# A server's daily puzzle (0016): its channel and its day's puzzle (JSON, as an attempt's).
daily_puzzles = Table(
    "daily_puzzles",
    metadata,
    _key("guild_id"),
    Column("channel_id", BigInteger),
    Column("day", Integer),
    Column("puzzle_key", Text),
    Column("data", Text),
    Column("posted", Float),
)

# -- tournaments (0012) ----------------------------------------------------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("tournament_id", BigInteger, primary_key=True),
    Column("guild_id", BigInteger),
    Column("channel_id", BigInteger),
    Column("thread_id", BigInteger),
    Column("message_id", BigInteger),
    Column("creator_id", BigInteger),
    Column("format", Text),
    Column("rounds", Integer),
    Column("cycles", Integer),
    Column("width", Integer),
    Column("height", Integer),
    Column("rules", Text),
    Column("start", Text),
    Column("clock", Integer),
    Column("rated", Boolean),
    Column("takebacks", Boolean),
    Column("gc_total_ms", BigInteger),
    Column("gc_increment_ms", BigInteger),
    Column("round_seconds", Integer),
    Column("registration_deadline", Float),
    Column("max_players", Integer),
    Column("bye_points", Float),
    Column("status", Text),
    Column("round", Integer),
    Column("round_deadline", Float),
    Column("created", Float),
    Column("started", Float),
    Column("finished", Float),
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    _key("tournament_id"),
    _key("user_id"),
    Column("joined", Float),
    Column("seed", Integer),
    Column("rating", Float),
    Column("withdrawn_after", Integer),
)

tournament_pairings = Table(
    "tournament_pairings",
    metadata,
    _key("tournament_id"),
    _key("round", Integer),
    _key("board", Integer),
    Column("pink_id", BigInteger),
    Column("blue_id", BigInteger),
    Column("game_id", BigInteger),
    Column("pink_points", Float),
    Column("blue_points", Float),
    Column("outcome", Text),
)

tournament_settings = Table(
    "tournament_settings",
    metadata,
    _key("guild_id"),
    Column("anyone_creates", Boolean),
    Column("max_open", Integer),
    Column("updated", Float),
)
