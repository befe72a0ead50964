"""A PostgreSQL database as a newcomer sets it up: its password is never shown, a database
that does not exist or a server that is down is one clear line naming it, and the URL forms
hosted services hand out (``?sslmode=require``) are accepted or refused in one sentence."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from bot import main as entry
from bot.config import ConfigError, Settings
from bot.logs import redact
from bot.storage import Store, UnreachableDatabaseError, UnusableDatabaseError
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.postgres import Cluster

__all__ = ["fake_discord"]  # the fixture is used by name

PASSWORD = "hunter2-very-secret"


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Every record's message and traceback, as the log would show them."""
    formatter = logging.Formatter()
    return "\n".join(formatter.format(r) for r in caplog.records)


def closed_port() -> int:
    """A 127.0.0.1 port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_repr_of_the_settings_shows_no_database_password() -> None:
    url = f"postgresql://dots:{PASSWORD}@db.example.org:5432/dots"
    settings = Settings.from_env({"DOTS_DATABASE": url, "DISCORD_TOKEN": "tok.en.value"})
    assert settings.database == url  # the bot still connects with it
    shown = repr(settings)
    assert PASSWORD not in shown and "tok.en.value" not in shown
    assert "postgresql://dots:***@db.example.org:5432/dots" in shown


def test_the_log_filter_hides_every_url_password() -> None:
    line = f"connect to postgresql://dots:{PASSWORD}@h/db?sslmode=require and h?password=pw2"
    assert redact(line) == (
        "connect to postgresql://dots:***@h/db?sslmode=require and h?password=***"
    )


@pytest.mark.parametrize(("user", "name"), [("postgres", "no_such_db"), ("nobody", "postgres")])
async def test_a_postgresql_database_or_role_that_does_not_exist_is_one_line_without_the_password(
    fake_discord: FakeDiscord,
    postgres_cluster: Cluster,
    caplog: pytest.LogCaptureFixture,
    user: str,
    name: str,
) -> None:
    url = f"postgresql://{user}:{PASSWORD}@127.0.0.1:{postgres_cluster.port}/{name}"
    settings = Settings(token=fake_discord.token, database=url)
    with caplog.at_level(logging.DEBUG):
        status = await entry.serve(settings)
    assert status == 1
    text = logged(caplog)
    assert PASSWORD not in text
    assert "Traceback" not in text
    (line,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    message = line.getMessage()
    assert f'"{user if user == "nobody" else name}" does not exist' in message
    assert f"postgresql://{user}:***@127.0.0.1:{postgres_cluster.port}/{name}" in message
    assert "move this one away" not in message  # advice for a SQLite file only


def test_the_terminal_shows_no_database_password(
    postgres_cluster: Cluster,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    url = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{postgres_cluster.port}/no_such_db"
    monkeypatch.setenv("DOTS_DATABASE", url)
    status = entry.main(["local", "--new"])
    err = capsys.readouterr().err
    assert status == 1
    assert PASSWORD not in err and "Traceback" not in err
    assert "no_such_db" in err and "move this one away" not in err


async def test_an_unreachable_postgresql_server_is_named_not_discord(
    fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"postgresql://dots:{PASSWORD}@127.0.0.1:{closed_port()}/dots"
    settings = Settings(token=fake_discord.token, database=url)
    with caplog.at_level(logging.DEBUG):
        status = await entry.serve(settings)
    assert status == 1
    text = logged(caplog)
    assert PASSWORD not in text and "Traceback" not in text
    (line,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
    message = line.getMessage()
    assert "Discord" not in message
    assert "PostgreSQL" in message and "postgresql://dots:***@127.0.0.1" in message


@pytest.mark.parametrize("mode", ["require", "verify-full", "disable", "prefer"])
async def test_a_url_with_an_sslmode_asyncpg_honours_is_accepted(
    fake_discord: FakeDiscord, postgres_cluster: Cluster, mode: str
) -> None:
    """The test cluster has no certificate: "require" and "verify-full" reach the server and
    are refused there (which shows the setting was honoured), "disable" and "prefer" connect."""
    url = postgres_cluster.create_database() + f"?sslmode={mode}"
    settings = Settings(token=fake_discord.token, database=url)
    if mode in ("disable", "prefer"):
        store = await Store.open(url)
        await store.close()
    else:
        with pytest.raises((UnusableDatabaseError, UnreachableDatabaseError)) as refused:
            await Store.open(settings.database)
        assert "SSL" in str(refused.value) or "certificate" in str(refused.value)


def test_a_url_option_asyncpg_cannot_honour_is_refused_in_one_sentence() -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"DOTS_DATABASE": f"postgresql://u:{PASSWORD}@h/db?gssencmode=require"})
    message = str(refused.value)
    assert "gssencmode" in message and PASSWORD not in message
    assert message.count(".") <= 2 and "\n" not in message
