"""How `dots-bot` names itself and its options: the first-run hint gives the command as it
was started, and `dots-bot local --help` takes its figures from where they are set."""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE
from bot.local import add_arguments
from bot.local import options as local_options
from bot.main import command_name


def local_help(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", "1000")  # one line an option
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    parser = argparse.ArgumentParser(prog="dots-bot local")
    add_arguments(parser)
    return parser.format_help()


def test_the_help_names_the_default_database_file(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = local_help(monkeypatch)
    assert f"SQLite file (default: DOTS_DATABASE if set, else {DEFAULT_DATABASE})" in shown


def test_the_help_takes_the_computers_time_from_its_levels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown = local_help(monkeypatch)
    longest = max(level.max_seconds for level in local_options.LEVELS.values())
    assert f"it thinks at most {longest:g} s a move" in shown
    assert "2 s" not in shown
    hard = local_options.LEVELS["hard"]
    slower = {**local_options.LEVELS, "hard": dataclasses.replace(hard, max_seconds=2.5)}
    monkeypatch.setattr(local_options, "LEVELS", slower)
    assert "it thinks at most 2.5 s a move" in local_help(monkeypatch)


def test_the_command_is_named_as_it_was_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "bin" / "dots-bot"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/nonexistent")
    python = ["/usr/bin/python3"]
    assert command_name(["bin/dots-bot"], [*python, "bin/dots-bot"]) == "bin/dots-bot"
    assert command_name([str(script)], [*python, str(script)]) == str(script)
    monkeypatch.setenv("PATH", str(script.parent))  # found on the PATH: its name is enough
    assert command_name([str(script)], [*python, str(script)]) == "dots-bot"
    module = [".venv/bin/python", "-m", "bot.main", "local"]
    assert command_name(["/x/bot/main.py"], module) == ".venv/bin/python -m bot.main"
    spaced = tmp_path / "my games" / "dots-bot"
    assert command_name([str(spaced)], [*python, str(spaced)]) == f"'{spaced}'"
    assert command_name(["/x/pytest"], ["python", "-m", "pytest"]) == "dots-bot"


@pytest.mark.skipif(sys.platform == "win32", reason="a console script with a POSIX path")
def test_the_first_run_hint_gives_the_script_as_it_was_typed(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "dots-bot"
    if not script.exists():
        pytest.skip("dots-bot is not installed beside this Python")
    typed = os.path.relpath(script, tmp_path)  # like .venv/bin/dots-bot after the README
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DOTS", "LC_"))}
    env |= {"LANG": "C.UTF-8", "LANGUAGE": "", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [typed],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert f"  {typed} local --computer easy " in done.stdout
    assert f"Run {typed} again." in done.stdout
