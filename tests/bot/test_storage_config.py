"""Settings from the environment: defaults, parsing, and a token that is never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, Settings, Shards


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


# -- shards ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ids", "expected"),
    [
        ("", (0, 1, 2, 3)),
        ("0-3", (0, 1, 2, 3)),
        ("0,2", (0, 2)),
        ("3, 0-1", (0, 1, 3)),
        ("2", (2,)),
    ],
)
def test_shard_ids_are_numbers_and_ranges(ids: str, expected: tuple[int, ...]) -> None:
    environ = {"DOTS_SHARD_COUNT": "4", "DOTS_SHARD_IDS": ids, "DOTS_DATABASE": "postgresql://x/db"}
    shards = Settings.from_env(environ).shards
    assert shards == Shards(4, expected)


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({"DOTS_SHARD_COUNT": "two"}, "DOTS_SHARD_COUNT must be a number"),
        ({"DOTS_SHARD_COUNT": "0"}, "1 or more"),
        ({"DOTS_SHARD_COUNT": "2", "DOTS_SHARD_IDS": "0-2"}, "outside the shards 0-1"),
        ({"DOTS_SHARD_COUNT": "2", "DOTS_SHARD_IDS": "1-0"}, "outside the shards"),
        ({"DOTS_SHARD_COUNT": "2", "DOTS_SHARD_IDS": "a,b"}, "ranges such as 0-3"),
        ({"DOTS_SHARD_IDS": "0"}, "needs DOTS_SHARD_COUNT"),
    ],
)
def test_malformed_shard_settings_are_refused(environ: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        Settings.from_env({**environ, "DOTS_DATABASE": "postgresql://x/db"})


def test_some_shards_on_sqlite_are_refused_with_a_clear_message() -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"DOTS_SHARD_COUNT": "2", "DOTS_SHARD_IDS": "0"})
    message = str(refused.value)
    assert "SQLite" in message and "postgresql://" in message and "dots.sqlite3" in message
    # Every shard in one process is one writer: SQLite is fine.
    assert Settings.from_env({"DOTS_SHARD_COUNT": "2"}).shards == Shards(2, (0, 1))


def test_a_server_belongs_to_the_process_of_its_shard() -> None:
    settings = Settings.from_env(
        {"DOTS_SHARD_COUNT": "2", "DOTS_SHARD_IDS": "1", "DOTS_DATABASE": "postgresql://x/db"}
    )
    on_shard_1 = (12345 << 22) | 77  # (id >> 22) % 2 == 1
    assert settings.owns(on_shard_1) and not settings.owns(on_shard_1 + (1 << 22))
    assert not settings.owns(None)  # direct messages arrive on shard 0
    assert Settings().owns(on_shard_1) and Settings().owns(None)


@pytest.mark.parametrize(
    ("value", "cards"), [("", True), ("on", True), ("YES", True), ("off", False), ("0", False)]
)
def test_game_cards_are_on_unless_turned_off(value: str, cards: bool) -> None:
    assert Settings.from_env({"DOTS_CARDS": value}).cards is cards


def test_a_malformed_cards_setting_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="DOTS_CARDS"):
        Settings.from_env({"DOTS_CARDS": "maybe"})
