"""The terminal's promise to continue a saved game names the command as it was started
(``.venv/bin/dots-bot local``, ``python -m bot.main local``), not a bare `dots-bot local` that
the PATH may not find: when it saves the game, in its help, and when it does not offer a saved
game for the options given."""

from __future__ import annotations

from pathlib import Path

from bot.local import LocalOptions, play_local
from tests.bot.test_local import Script

STARTED = ".venv/bin/dots-bot local"


async def run(tmp_path: Path, lines: list[str], *, command: str, **options: object) -> str:
    """Run the terminal, started as ``command``, with scripted input; everything printed."""
    out: list[str] = []
    opts = LocalOptions(database=str(tmp_path / "dots.sqlite3"), out=tmp_path / "pics", **options)  # type: ignore[arg-type]
    await play_local(opts, read=Script(lines), write=out.append, command=command)
    return "\n".join(out)


async def test_a_saved_game_and_the_help_name_the_command_as_started(tmp_path: Path) -> None:
    printed = await run(tmp_path, ["help", "C3", "quit"], command=STARTED, size=(5, 5))
    assert f"is saved; `{STARTED}` offers to continue it." in printed
    assert f"the game is saved and `{STARTED}`" in printed  # the help's line for quit
    assert "`dots-bot local`" not in printed


async def test_a_saved_game_not_offered_names_the_command_as_started(tmp_path: Path) -> None:
    await run(tmp_path, ["C3", "quit"], command=STARTED, size=(5, 5))
    module = "/usr/bin/python3 -m bot.main local"
    printed = await run(tmp_path, ["quit"], command=module, size=(7, 7))
    assert "Saved local game #1" in printed and "is not offered" in printed
    assert f"`{module}` with no options offers to continue it." in printed
    assert "`dots-bot local`" not in printed


async def test_the_terminal_named_by_default_is_dots_bot_local(tmp_path: Path) -> None:
    out: list[str] = []
    opts = LocalOptions(database=str(tmp_path / "dots.sqlite3"), out=tmp_path / "pics", size=(5, 5))  # type: ignore[arg-type]
    await play_local(opts, read=Script(["C3", "quit"]), write=out.append)
    assert "is saved; `dots-bot local` offers to continue it." in "\n".join(out)
