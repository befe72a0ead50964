"""Settings from the environment (and a ``.env`` file in the working directory).

- ``DISCORD_TOKEN``: the bot's token (required to connect; never printed: ``repr`` hides it).
- ``DOTS_DATABASE``: the SQLite file, default ``dots.sqlite3`` in the working directory (one
  file beside where the bot is run is the least surprising place for a self-hosted bot; its
  ``-wal`` and ``-shm`` companions live beside it), or a ``postgresql://user:password@host/db``
  URL (with the ``postgres`` extra installed) in libpq's form, ``?sslmode=require`` and the
  other parameters asyncpg reads included (a parameter it cannot honour is refused). Its
  password is never shown (``shown_database``).
- ``DOTS_DEV_GUILD``: a server id to sync slash commands to instantly while developing.
- ``DOTS_LOG_LEVEL``: ``DEBUG``, ``INFO`` (default), ``WARNING``, ...
- ``DOTS_SHARD_COUNT``: how many shards the whole bot has (unset: one process, Discord's
  recommended count); ``DOTS_SHARD_IDS``: the shards this process runs (``0-3``, ``0,2``;
  default: all of them). Processes with disjoint shard ids share one PostgreSQL database.
- ``DOTS_CARDS``: ``on`` (default): each position is posted as a game card with buttons
  (``bot.cogs.card``); ``off``: as text under a picture, played by typed commands only.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.logs import without_password
from bot.storage.database import is_postgres, postgres_dsn
from bot.storage.errors import UnreachableDatabaseError
from bot.storage.timers import Shards

DEFAULT_DATABASE = "dots.sqlite3"


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names it."""


@dataclass(frozen=True, slots=True, repr=False)
class Settings:
    """The bot's settings; ``repr`` shows neither the token nor the database's password, so
    logs never show them."""

    token: str = field(default="", repr=False)
    database: Path | str = Path(DEFAULT_DATABASE)  # a file, or a postgresql:// URL
    dev_guild: int | None = None
    log_level: str = "INFO"
    shards: Shards | None = None  # None: one process, as many shards as Discord recommends
    cards: bool = True  # positions posted as game cards (DOTS_CARDS=off: text under a picture)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
        """Read the settings from ``environ`` (default: ``os.environ`` over ``./.env``).

        Raises:
            ConfigError: ``DOTS_DEV_GUILD`` is not a number, ``DOTS_LOG_LEVEL`` not a level,
                ``DISCORD_TOKEN`` has a space or line break inside, ``DOTS_DATABASE`` has a
                parameter the PostgreSQL driver cannot honour, the shard settings are
                malformed, or this process runs only some shards on a SQLite file.
        """
        if environ is None:
            # The environment wins over .env, except where it is empty: a bare
            # `DISCORD_TOKEN=` left in a shell or a service file must not hide .env's token.
            # .env is read from the working directory and never copied into os.environ (so the
            # token reaches no child process).
            found = dotenv_values(Path.cwd() / ".env") if dotenv else {}
            environ = {
                **{k: v for k, v in found.items() if v is not None},
                **{k: v for k, v in os.environ.items() if v.strip()},
            }
        guild_text = environ.get("DOTS_DEV_GUILD", "").strip()
        try:
            dev_guild = int(guild_text) if guild_text else None
        except ValueError:
            raise ConfigError(f"DOTS_DEV_GUILD must be a server id, not {guild_text!r}") from None
        level = environ.get("DOTS_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if not isinstance(logging.getLevelName(level), int):
            raise ConfigError(
                f"DOTS_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}"
            )
        token = environ.get("DISCORD_TOKEN", "").strip()
        if any(c.isspace() or not c.isprintable() for c in token):
            # It would reach Discord as a broken Authorization header (aiohttp refuses it).
            raise ConfigError(
                "DISCORD_TOKEN has a line break or space inside: copy the token again from the "
                "developer portal and paste it as one line."
            )
        database = _database(environ.get("DOTS_DATABASE", "").strip() or DEFAULT_DATABASE)
        return cls(
            token=token,
            database=database,
            dev_guild=dev_guild,
            log_level=level,
            shards=_shards(environ, database),
            cards=_switch(environ, "DOTS_CARDS", default=True),
        )

    def __repr__(self) -> str:
        return (
            f"Settings(database={shown_database(self.database)!r}, dev_guild={self.dev_guild!r}, "
            f"log_level={self.log_level!r}, shards={self.shards!r}, cards={self.cards!r})"
        )

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process owns the games of server ``guild_id`` (see ``Shards``)."""
        return self.shards is None or self.shards.owns(guild_id)

    def require_token(self) -> str:
        """The token, for connecting.

        Raises:
            ConfigError: no ``DISCORD_TOKEN`` is set.
        """
        if not self.token:
            raise ConfigError("DISCORD_TOKEN is not set (put it in the environment or in .env)")
        return self.token


_ON = {"1", "on", "yes", "true"}
_OFF = {"0", "off", "no", "false"}


def _switch(environ: Mapping[str, str], name: str, *, default: bool) -> bool:
    """An on/off setting (``on``/``off``, ``yes``/``no``, ``1``/``0``, ``true``/``false``).

    Raises:
        ConfigError: the value is none of these.
    """
    value = environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in _ON | _OFF:
        return value in _ON
    raise ConfigError(f"{name} must be on or off, not {value!r}")


def _database(value: str) -> Path | str:
    """A PostgreSQL URL as given (a Path would fold its ``//``), else the SQLite file's path.

    Raises:
        ConfigError: the URL has a parameter the bot's driver cannot honour.
    """
    if not is_postgres(value):
        return Path(value)
    try:
        postgres_dsn(value)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    return value


def shown_database(database: Path | str) -> str:
    """``DOTS_DATABASE`` as the bot shows it (a URL without its password)."""
    return without_password(str(database))


def database_problem(
    database: Path | str,
    error: Exception,
    *,
    other: str = "set DOTS_DATABASE to another file",
) -> str:
    """The one sentence that says why the database cannot be used (``error``: an
    ``UnusableDatabaseError`` or ``UnreachableDatabaseError``), naming it without its password;
    ``other`` says how to name another SQLite file."""
    shown, words = shown_database(database), without_password(str(error))
    if not is_postgres(str(database)):
        return (
            f"The database {shown} is not one the bot can use ({words}): {other}, or move this "
            "one away."
        )
    if isinstance(error, UnreachableDatabaseError):
        return (
            f"Could not reach the PostgreSQL server of {shown} ({words}): check that it runs "
            "and that DOTS_DATABASE names the right host and port."
        )
    return (
        f"The PostgreSQL server refused the database {shown} ({words}): check the database "
        "name, the user and the password in DOTS_DATABASE."
    )


def parse_shards(count_text: str, ids_text: str = "") -> Shards:
    """``DOTS_SHARD_COUNT`` and ``DOTS_SHARD_IDS`` (``0-3``, ``0,2``, ``0-1,4``; empty: all) as
    the shards this process runs (``bot.storage.timers.Shards``: which servers it owns).

    Raises:
        ConfigError: a count that is not a positive number, ids that are not numbers or
            ranges, ids outside ``0 .. count - 1``.
    """
    try:
        count = int(count_text)
    except ValueError:
        raise ConfigError(
            f"DOTS_SHARD_COUNT must be a number of shards, not {count_text!r}"
        ) from None
    if count < 1:
        raise ConfigError(f"DOTS_SHARD_COUNT must be 1 or more, not {count}")
    if not ids_text.strip():
        return Shards.of(count, range(count))
    ids: set[int] = set()
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise ConfigError(
                f"DOTS_SHARD_IDS must be shard numbers or ranges such as 0-3 or 0,2, "
                f"not {ids_text!r}"
            ) from None
        if not 0 <= low <= high < count:
            raise ConfigError(
                f"DOTS_SHARD_IDS {part.strip()!r} is outside the shards 0-{count - 1} "
                f"of DOTS_SHARD_COUNT={count}"
            )
        ids.update(range(low, high + 1))
    return Shards.of(count, ids)


def _shards(environ: Mapping[str, str], database: Path | str) -> Shards | None:
    """The shard settings; refused where several processes would share one SQLite file."""
    count_text = environ.get("DOTS_SHARD_COUNT", "").strip()
    ids_text = environ.get("DOTS_SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError(
                "DOTS_SHARD_IDS needs DOTS_SHARD_COUNT too (how many shards there are in all)"
            )
        return None
    shards = parse_shards(count_text, ids_text)
    if not shards.is_all and isinstance(database, Path):
        # The other shards run in other processes, and a SQLite file has one writer process:
        # its per-game locks and cache would not be shared.
        raise ConfigError(
            f"DOTS_SHARD_IDS={ids_text} runs {len(shards.ids)} of the {shards.count} shards, "
            "so other processes run the rest, and several processes cannot share the SQLite "
            f"file {database}: set DOTS_DATABASE to a postgresql:// URL (see the README's "
            "section on running several processes), or leave DOTS_SHARD_IDS unset to run "
            "every shard in this process."
        )
    return shards
