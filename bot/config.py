"""Settings from the environment (and a ``.env`` file in the working directory).

- ``DISCORD_TOKEN``: the bot's token (required to connect; never printed: ``repr`` hides it).
- ``DOTS_DATABASE``: the SQLite file, default ``dots.sqlite3`` in the working directory (one
  file beside where the bot is run is the least surprising place for a self-hosted bot; its
  ``-wal`` and ``-shm`` companions live beside it), or a ``postgresql://user:password@host/db``
  URL (with the ``postgres`` extra installed).
- ``DOTS_DEV_GUILD``: a server id to sync slash commands to instantly while developing.
- ``DOTS_LOG_LEVEL``: ``DEBUG``, ``INFO`` (default), ``WARNING``, ...
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE = "dots.sqlite3"


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names it."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's settings; the token is kept out of ``repr`` so logs never show it."""

    token: str = field(default="", repr=False)
    database: Path | str = Path(DEFAULT_DATABASE)  # a file, or a postgresql:// URL
    dev_guild: int | None = None
    log_level: str = "INFO"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Settings:
        """Read the settings from ``environ`` (default: ``os.environ`` over ``./.env``).

        Raises:
            ConfigError: ``DOTS_DEV_GUILD`` is not a number, ``DOTS_LOG_LEVEL`` not a level,
                or ``DISCORD_TOKEN`` has a space or line break inside.
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
        return cls(
            token=token,
            database=_database(environ.get("DOTS_DATABASE", "").strip() or DEFAULT_DATABASE),
            dev_guild=dev_guild,
            log_level=level,
        )

    def require_token(self) -> str:
        """The token, for connecting.

        Raises:
            ConfigError: no ``DISCORD_TOKEN`` is set.
        """
        if not self.token:
            raise ConfigError("DISCORD_TOKEN is not set (put it in the environment or in .env)")
        return self.token


def _database(value: str) -> Path | str:
    """A PostgreSQL URL as given (a Path would fold its ``//``), else the SQLite file's path."""
    return value if value.startswith(("postgresql:", "postgres:")) else Path(value)
