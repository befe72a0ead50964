"""Settings from the environment: defaults, parsing, and a token that is never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings


def test_defaults() -> None:
    settings = Settings.from_env({})
    assert settings.database == Path("dots.sqlite3")
    assert settings.dev_guild is None and settings.log_level == "INFO"
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        settings.require_token()


def test_values_are_read_and_the_token_is_hidden() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "sekrit.token.value",
            "DOTS_DATABASE": "/var/lib/dots/db.sqlite3",
            "DOTS_DEV_GUILD": " 123456 ",
            "DOTS_LOG_LEVEL": "debug",
        }
    )
    assert settings.require_token() == "sekrit.token.value"
    assert settings.database == Path("/var/lib/dots/db.sqlite3")
    assert settings.dev_guild == 123456 and settings.log_level == "DEBUG"
    assert "sekrit" not in repr(settings) and "sekrit" not in str(settings)


@pytest.mark.parametrize("environ", [{"DOTS_DEV_GUILD": "my-server"}, {"DOTS_LOG_LEVEL": "LOUD"}])
def test_malformed_values_are_refused(environ: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        Settings.from_env(environ)


def test_dotenv_file_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("DOTS_DEV_GUILD=77\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DOTS_DEV_GUILD", raising=False)
    assert Settings.from_env().dev_guild == 77
