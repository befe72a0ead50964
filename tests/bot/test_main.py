"""`dots-bot` as a newcomer meets it: no token, a bad token, no network, the local mode."""

from __future__ import annotations

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

from bot import main as entry
from bot.config import Settings

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

    async def fake_local(options: Any) -> int:
        started.append(options)
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
