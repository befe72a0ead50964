"""`dots-bot` as a newcomer meets it: no token, a bad token, no network, the local mode."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands

from bot import main as entry
from bot.app import create_bot
from bot.config import Settings, Shards
from bot.logs import RedactSecrets, redact, unredact
from tests.fakediscord.fixtures import fake_discord, run_bot
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name

JUNK_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GjunkX.very-secret-junk-token-value"


@pytest.fixture
def fresh_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory without .env and an environment without Dots settings."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DOTS_DATABASE", "DOTS_DEV_GUILD", "DOTS_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """run_bot installs discord.py's log handler on the root logger: take it off after."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for handler in handlers:  # pytest's own handlers outlive the test
        unredact(handler)


def test_without_a_token_it_explains_tokens_and_the_local_mode(
    fresh_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = entry.no_token(Settings.from_env(), interactive=False)
    printed = capsys.readouterr().out
    assert status == 1
    assert "discord.com/developers/applications" in printed
    assert "DISCORD_TOKEN=" in printed and ".env" in printed
    assert "dots-bot local" in printed


def test_without_a_token_on_a_terminal_it_offers_a_local_game(
    fresh_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[Any] = []

    async def fake_local(options: Any, *, command: str) -> int:
        started.append(options)
        assert command == f"{entry.command_name()} local"  # how the terminal came back
        return 0

    monkeypatch.setattr(entry, "play_local", fake_local)
    settings = Settings.from_env()
    assert entry.no_token(settings, read=lambda _: "n", interactive=True) == 1
    assert not started
    assert entry.no_token(settings, read=lambda _: "y", interactive=True) == 0
    assert len(started) == 1
    assert started[0].database == "dots.sqlite3" and started[0].width == 10


def test_the_console_script_without_a_token_exits_cleanly(fresh_dir: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DOTS_"))}
    script = Path(sys.executable).with_name("dots-bot")
    result = subprocess.run(
        [str(script)],
        check=False,
        cwd=fresh_dir,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 1
    assert "dots-bot local" in result.stdout
    assert "Traceback" not in result.stderr + result.stdout
    assert not (fresh_dir / "dots.sqlite3").exists()


def test_local_with_a_bad_size_is_a_usage_error(
    fresh_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        entry.main(["local", "--size", "3x3"])
    assert exit_info.value.code == 2
    assert "3x3" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (discord.LoginFailure("Improper token has been passed."), "refused the token"),
        (OSError("Name or service not known"), "Could not reach Discord"),
        (
            aiohttp.ClientConnectionError(f"cannot connect with Bot {JUNK_TOKEN}"),
            "Could not reach Discord",
        ),
    ],
    ids=["bad-token", "no-network", "token-in-error"],
)
def test_a_failed_login_is_one_friendly_line_without_the_token(  # noqa: PLR0917
    fresh_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    restore_logging: None,
    error: BaseException,
    words: str,
) -> None:
    (fresh_dir / ".env").write_text(f"DISCORD_TOKEN={JUNK_TOKEN}\nDOTS_LOG_LEVEL=DEBUG\n")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    tried: list[str] = []

    async def static_login(self: Any, token: str) -> None:
        tried.append(token)
        raise error

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    status = entry.main([])
    out, err = capfd.readouterr()
    assert status == 1
    assert tried == [JUNK_TOKEN]
    assert words in err
    assert JUNK_TOKEN not in out + err
    assert "Traceback" not in out + err
    # The database is not opened before Discord accepts the token.
    assert not (fresh_dir / "dots.sqlite3").exists()


def test_an_empty_token_in_the_environment_does_not_hide_the_one_in_env(
    fresh_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (fresh_dir / ".env").write_text(f"DISCORD_TOKEN={JUNK_TOKEN}\nDOTS_LOG_LEVEL=DEBUG\n")
    for empty in ("", "  "):
        monkeypatch.setenv("DISCORD_TOKEN", empty)
        monkeypatch.setenv("DOTS_LOG_LEVEL", empty)
        settings = Settings.from_env()
        assert settings.token == JUNK_TOKEN and settings.log_level == "DEBUG"
    monkeypatch.setenv("DISCORD_TOKEN", "from-the-environment")
    assert Settings.from_env().token == "from-the-environment"


@pytest.mark.parametrize(
    "line",
    ['DISCORD_TOKEN="first-half\\nsecond-half"', "DISCORD_TOKEN=first-half second-half"],
    ids=["line-break", "space"],
)
def test_a_token_with_a_line_break_is_one_clear_sentence(
    fresh_dir: Path, capfd: pytest.CaptureFixture[str], line: str
) -> None:
    (fresh_dir / ".env").write_text(line + "\n")
    status = entry.main([])
    out, err = capfd.readouterr()
    assert status == 2
    assert "DISCORD_TOKEN has a line break or space inside" in err
    assert "Traceback" not in out + err
    assert "first-half" not in out + err and "second-half" not in out + err
    assert not (fresh_dir / "dots.sqlite3").exists()


def test_setup_logging_redacts_on_every_root_handler(restore_logging: None) -> None:
    settings = Settings(token=JUNK_TOKEN, log_level="DEBUG")
    entry.setup_logging(settings)
    handlers = logging.getLogger().handlers
    assert handlers
    for handler in handlers:
        guards = [f for f in handler.filters if isinstance(f, RedactSecrets)]
        assert len(guards) == 1 and guards[0].secrets == (JUNK_TOKEN,)
    entry.setup_logging(settings)  # a second call adds no second filter
    assert all(len(h.filters) == 1 for h in logging.getLogger().handlers)


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        (
            "POST http://x/api/v10/interactions/123/itok-Abc_9.x-Y/callback with None",
            "POST http://x/api/v10/interactions/123/[redacted]/callback with None",
        ),
        (
            "PATCH https://discord.com/api/v10/webhooks/42/aW50ZXJhY3Rpb246/messages/@original",
            "PATCH https://discord.com/api/v10/webhooks/42/[redacted]/messages/@original",
        ),
        ("POST /webhooks/42/tok?wait=true has", "POST /webhooks/42/[redacted]?wait=true has"),
        (
            "WebSocket Event: {'t': 'INTERACTION_CREATE', 'd': {'token': 'itok-1', 'id': '5'}}",
            "WebSocket Event: {'t': 'INTERACTION_CREATE', 'd': {'token': '[redacted]', 'id': '5'}}",
        ),
        ('{"token": "abc.def", "x": 1}', '{"token": "[redacted]", "x": 1}'),
        (f"Authorization: Bot {JUNK_TOKEN}", "Authorization: Bot [redacted]"),
        ("GET /channels/123/messages/456 has returned 200", None),
    ],
)
def test_redact_blanks_every_kind_of_token(raw: str, kept: str | None) -> None:
    assert redact(raw, [JUNK_TOKEN]) == (raw if kept is None else kept)


def test_redacting_twice_changes_nothing_more() -> None:
    # A record passes the same filter once for each handler it reaches.
    once = redact("POST /interactions/1/tok/callback; /webhooks/2/tok; 'token': 'tok'")
    assert redact(once) == once
    assert once == (
        "POST /interactions/1/[redacted]/callback; /webhooks/2/[redacted]; 'token': '[redacted]'"
    )


def test_the_filter_redacts_arguments_and_tracebacks() -> None:
    guard = RedactSecrets([JUNK_TOKEN])
    try:
        raise ValueError(f"bad token {JUNK_TOKEN} at /webhooks/1/secret-tok")
    except ValueError:
        record = logging.LogRecord(
            "discord.http",
            logging.DEBUG,
            __file__,
            1,
            "%s %s",
            ("GET", "/webhooks/1/tok"),
            sys.exc_info(),
        )
    assert guard.filter(record)
    formatted = logging.Formatter().format(record)
    assert "GET /webhooks/1/[redacted]" in formatted
    assert JUNK_TOKEN not in formatted and "secret-tok" not in formatted
    assert "ValueError: bad token [redacted]" in formatted


async def test_a_database_that_is_not_sqlite_is_one_clear_sentence(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "dots.sqlite3"
    database.write_text("these are my notes, not a database\n" * 10)
    settings = Settings(token=fake_discord.token, database=database)
    with caplog.at_level(logging.DEBUG):
        status = await entry.serve(settings)
    assert status == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None
    assert "is not one the bot can use (file is not a database)" in errors[0].getMessage()
    assert str(database) in errors[0].getMessage()
    assert database.read_text().startswith("these are my notes")


def test_a_database_that_is_not_sqlite_is_one_clear_sentence_in_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "notes.txt"
    database.write_text("these are my notes, not a database\n" * 10)
    status = entry.main(["local", "--db", str(database), "--new"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip().splitlines() == [
        f"dots-bot local: the database {database} is not one the bot can use (file is not a "
        "database): give another file with --db, or move this one away."
    ]
    assert database.read_text().startswith("these are my notes")


async def test_the_gateway_refusing_the_token_is_one_clear_sentence(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake_discord.gateway_refuses_token = True
    settings = Settings(token=fake_discord.token, database=tmp_path / "dots.sqlite3")
    with caplog.at_level(logging.INFO):
        status = await asyncio.wait_for(entry.serve(settings), 30)
    assert status == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.exc_info for r in errors] == [None]
    assert "gateway refused the token" in errors[0].getMessage()
    assert "4004" in errors[0].getMessage()
    assert fake_discord.identifies == 0


async def test_a_shard_the_gateway_refuses_is_one_clear_sentence(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Shard 2 of 2 does not exist: Discord closes the gateway with 4010.
    settings = Settings(
        token=fake_discord.token, database=tmp_path / "dots.sqlite3", shards=Shards(2, (2,))
    )
    with caplog.at_level(logging.INFO):
        status = await asyncio.wait_for(entry.serve(settings), 30)
    assert status == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.exc_info for r in errors] == [None]
    assert "4010" in errors[0].getMessage() and "DOTS_SHARD_IDS" in errors[0].getMessage()


async def test_the_sharded_bot_runs_one_session_per_shard(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guilds = [fake.create_guild(f"Server {n}", shard=(n, 2)) for n in range(2)]
    settings = Settings(
        token=fake.token, database=tmp_path / "dots.sqlite3", shards=Shards(2, (0, 1))
    )
    bot = create_bot(settings)
    assert isinstance(bot, commands.AutoShardedBot)
    async with run_bot(fake, bot):
        assert set(fake.shard_sessions) == {(0, 2), (1, 2)}
        assert all(bot.get_guild(g.id) is not None for g in guilds)
        assert bot.settings.owns(guilds[1].id)
        # One process over every shard is the only process: it synced the commands.
        assert fake.global_commands
