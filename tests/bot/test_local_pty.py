"""`dots-bot local` in a real terminal: a pseudo-terminal, real keys, the real process.

Ctrl-C is sent as the byte 0x03, so the terminal driver turns it into SIGINT for the whole
foreground process group (the computer's worker process included), as at a keyboard.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shlex
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.games import GameService
from bot.local import LOCAL_GUILD_ID, PINK_USER_ID

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

TIMEOUT = 60.0  # seconds; the machine may be busy, and the process imports discord.py
# How the terminal was started (``Terminal``): its messages name it so, to come back.
STARTED = shlex.join([sys.executable, "-m", "bot.main"]) + " local"
SAVED = f"is saved; `{STARTED}` offers to continue it."


class Terminal:
    """A `dots-bot` process on a pseudo-terminal: type into it, read what it shows."""

    def __init__(self, args: list[str], *, cwd: Path) -> None:
        env = {key: value for key, value in os.environ.items() if not key.startswith("DISCORD")}
        env |= {"DOTS_DATABASE": str(cwd / "dots.sqlite3"), "TERM": "dumb", "COLUMNS": "200"}
        pid, fd = pty.fork()
        if pid == 0:  # the child: nothing but exec (the test process has threads)
            try:
                os.chdir(cwd)
                os.execve(sys.executable, [sys.executable, "-m", "bot.main", *args], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.output = ""
        self._seen = 0
        self.status: int | None = None

    def _pump(self, deadline: float) -> bool:
        """Read what is there (waiting until ``deadline``); False once the process has gone."""
        ready, _, _ = select.select([self.fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed its side
            return False
        if not data:
            return False
        self.output += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return True

    def expect(self, pattern: str, timeout: float = TIMEOUT) -> str:
        """Wait until ``pattern`` (a regex) shows after what was already matched; the text up
        to and including the match."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            match = regex.search(self.output, self._seen)
            if match:
                seen, self._seen = self._seen, match.end()
                return self.output[seen : match.end()]
            if time.monotonic() > deadline or not self._pump(deadline):
                raise AssertionError(f"never saw {pattern!r}; the terminal showed:\n{self.output}")

    def type(self, line: str) -> None:
        """Type a line and press Enter."""
        os.write(self.fd, line.encode() + b"\r")

    def press(self, key: bytes) -> None:
        """Press a key, e.g. Ctrl-C (``b"\\x03"``) or Ctrl-D (``b"\\x04"``)."""
        os.write(self.fd, key)

    def wait(self, timeout: float = TIMEOUT) -> int:
        """Wait for the process to exit, reading everything it prints; its exit status."""
        deadline = time.monotonic() + timeout
        while self._pump(deadline) and time.monotonic() < deadline:
            pass
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            time.sleep(0.05)
        raise AssertionError(f"still running after {timeout} s; it showed:\n{self.output}")

    def close(self) -> None:
        """Kill the process if it is still running (a failed test), and close the terminal."""
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[type[Terminal]]:
    """Start `dots-bot` processes in ``tmp_path`` (its database and pictures are there); they
    are killed at the end if a test left one running."""
    started: list[Terminal] = []

    def start(args: list[str]) -> Terminal:
        session = Terminal(args, cwd=tmp_path)
        started.append(session)
        return session

    yield start  # type: ignore[misc]
    for session in started:
        session.close()


async def saved_games(tmp_path: Path) -> list[tuple[int, int, int, list[str]]]:
    """The running local games in the database: (id, pink, blue, actions)."""
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        views = await service.running_games(user_id=PINK_USER_ID, guild_id=LOCAL_GUILD_ID)
        return [(v.game_id, v.pink_id, v.blue_id, [str(a) for a in v.game.actions]) for v in views]
    finally:
        await service.close()


def assert_clean(shown: str) -> None:
    """Nothing a player should never see."""
    for bad in ("Traceback", "Exception ignored", "KeyboardInterrupt", "Error:"):
        assert bad not in shown, shown


async def test_one_ctrl_c_saves_the_game_and_exits(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    session = terminal(["local", "--size", "5x5"])
    session.expect(r"Pink> ")
    session.type("C3")
    session.expect(r"Blue> ")
    session.press(b"\x03")
    assert session.wait() == 0
    assert "Game #1 (5×5, standard rules" in session.output
    assert SAVED in session.output
    assert_clean(session.output)
    assert await saved_games(tmp_path) == [(1, 1, 2, ["Pink C3"])]


async def test_ctrl_d_and_a_ctrl_c_at_a_confirmation_leave_the_same_way(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    session = terminal(["local", "--size", "5x5"])
    session.expect(r"Pink> ")
    session.type("C3")
    session.expect(r"Blue> ")
    session.press(b"\x04")  # Ctrl-D on an empty line: end of input
    assert session.wait() == 0
    assert SAVED in session.output
    assert_clean(session.output)
    session = terminal(["local"])
    session.expect(r"Continue local game #1 .*\? \[Y/n\] ")
    session.type("y")
    session.expect(r"Blue> ")
    session.type("resign")
    session.expect(r"\[y/N\] ")
    session.press(b"\x03")
    assert session.wait() == 0
    assert "Game #1 (5×5, standard rules" in session.output
    assert_clean(session.output)
    assert await saved_games(tmp_path) == [(1, 1, 2, ["Pink C3"])]  # nobody resigned


async def test_ctrl_c_against_the_computer_and_while_it_thinks(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    # At the prompt, with the computer's worker process idle (it gets the SIGINT too).
    session = terminal(["local", "--size", "5x5", "--computer", "hard"])
    session.expect(r"Pink> ")
    session.type("C3")
    session.expect(r"Computer \(hard\) plays")
    session.expect(r"Pink> ")
    session.press(b"\x03")
    assert session.wait() == 0
    assert_clean(session.output)
    assert "is saved" in session.output
    # While the computer thinks: its move is neither played nor shown, and the program leaves
    # at once, saying what is stored.
    session = terminal(["local", "--computer", "hard"])
    session.expect(r"Continue local game #1 .*\? \[Y/n\] ")
    session.type("")
    session.expect(r"Pink> ")
    session.type("B2")
    session.expect(r"is thinking\.\.\.")
    session.press(b"\x03")
    assert session.wait() == 0
    after = session.output.rsplit("is thinking...", 1)[1]
    assert "Computer (hard) plays" not in after and "Pink> " not in after
    assert "Game #1 (5×5, standard rules, start: empty, you (Pink) against Computer (hard), " in (
        after
    )
    assert_clean(session.output)
    [(_, _, _, actions)] = await saved_games(tmp_path)
    assert actions[2] == "Pink B2"
    assert f"{len(actions)} moves so far) is saved" in after  # what is stored, as it is
    assert len(actions) == 3  # the computer's reply was not played


async def test_plain_local_offers_the_computer_game_and_describes_it(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    session = terminal(["local", "--size", "5x5", "--computer", "easy", "--colour", "blue"])
    session.expect(r"Blue> ")
    session.type("quit")
    assert session.wait() == 0
    assert SAVED in session.output
    # What the message promised: a plain `dots-bot local` offers it, fully described.
    session = terminal(["local"])
    session.expect(
        re.escape(
            "Continue local game #1 (5×5, standard rules, start: empty, "
            "you (Blue) against Computer (easy), 1 move so far)? [Y/n] "
        )
    )
    session.type("")
    session.expect(r"Blue> ")
    session.type("A1")
    session.expect(r"Computer \(easy\) plays")
    session.expect(r"Blue> ")
    session.type("quit")
    assert session.wait() == 0
    assert_clean(session.output)


async def test_options_that_contradict_the_saved_game_are_not_offered_it(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    session = terminal(["local", "--size", "5x5"])
    session.expect(r"Pink> ")
    session.type("C3")
    session.expect(r"Blue> ")
    session.type("quit")
    assert session.wait() == 0
    session = terminal(["local", "--size", "20x20", "--rules", "grounding"])
    shown = session.expect(r"Pink> ")
    assert "Continue" not in shown
    assert (
        "Saved local game #1 (5×5, standard rules, start: empty, two players at one keyboard, "
        "1 move so far) is not offered: you asked for --size 20x20 --rules grounding." in shown
    )
    assert f"`{STARTED}` with no options offers to continue it." in shown
    assert "New local game #2: 20×20, grounding rules" in shown
    session.type("J10")
    session.expect(r"Blue> ")
    session.type("quit")
    assert session.wait() == 0
    assert [game_id for game_id, *_ in await saved_games(tmp_path)] == [1, 2]


async def test_the_terminal_shows_no_markdown_and_counts_of_one_read_well(
    terminal: type[Terminal],
) -> None:
    # Pink's C3 is the one dot not linked to the edge: stopping would hand it over and lose.
    session = terminal(["local", "--size", "5x5", "--rules", "grounding"])
    pinks, blues = ["C3", "A5", "B5", "C5", "D5"], ["A1", "B1", "C1", "D1", "E1"]
    for pink, blue in zip(pinks, blues, strict=True):
        session.expect(r"Pink> ")
        session.type(pink)
        session.expect(r"Blue> ")
        session.type(blue)
    session.expect(r"Pink> ")
    session.type("end")
    shown = session.expect(r"really stop\? \[y/N\] ")
    assert "1 of your dots is not grounded and would be handed over" in shown
    assert "Warning: you would lose the game." in shown
    assert "**" not in session.output
    session.type("n")
    session.expect(r"Pink> ")
    session.type("quit")
    assert session.wait() == 0
    assert "10 moves so far" in session.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--start", "four-crosses", "--size", "5x5"],
            "--start four-crosses: four crosses do not fit on a 5x5 board",
        ),
        (["--size", "3x3"], "argument --size: a board is 5 to 52 points wide and high"),
        (["--size", "big"], "argument --size: `big` is not a board size"),
    ],
    ids=["start-too-big", "size-too-small", "size-malformed"],
)
def test_bad_options_are_usage_errors_of_dots_bot_local(
    terminal: type[Terminal], tmp_path: Path, args: list[str], message: str
) -> None:
    session = terminal(["local", *args])
    assert session.wait() == 2
    assert "usage: dots-bot local " in session.output
    assert f"dots-bot local: error: {message}" in session.output
    assert "OptionOutOfRange" not in session.output and "database" not in session.output
    assert_clean(session.output)
    assert not (tmp_path / "dots.sqlite3").exists()  # nothing was started


async def test_keys_points_answers_and_a_stop_at_a_real_keyboard(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    session = terminal(["local", "--size", "7x7", "--rules", "grounding"])
    shown = session.expect(r"Pink> ")
    assert "Commands (the player to move types them):" in shown and "undo" not in shown
    assert "P/B: Pink's/Blue's dots" in shown
    session.type("\x1b[A")  # the up arrow, without line editing: nothing to answer
    assert "Sorry" not in session.expect(r"Pink> ")
    session.type("A0")
    assert "Sorry: A0 is off the board: columns are A–G, rows 1–7." in session.expect(r"Pink> ")
    session.type("undo")
    assert "Sorry: moves are taken back only against the computer." in session.expect("Pink> ")
    # Pink's F6 is the one Pink dot not linked to the edge: a stop hands it over.
    moves = ["`A4`", "G1", "B4", "G2", "C4", "G3", "D4", "G4", "D5", "G5", "F6", "A1"]
    for move, prompt in zip(moves, ["Blue> ", "Pink> "] * 6, strict=True):
        session.type(move)
        session.expect(prompt)
    session.type("end")
    preview = session.expect(r"Pink: really stop\? \[y/N\] ")
    assert "6 . . . . . x ." in preview and "x: handed over by the stop" in preview
    session.type("n")
    assert "Not stopped; your move." in session.expect(r"Pink> ")
    session.type("end")
    session.expect(r"\[y/N\] ")
    session.type("y")
    session.expect(r"Review the game with the computer\? \[y/N\] ")
    session.type("n")
    assert session.wait() == 0
    after = session.output.rsplit("really stop? [y/N] ", 1)[1]
    assert "6 . . . . . x ." in after and "Pink stops: 1 dot that is not grounded" in after
    assert "Pink plays A4." in session.output  # typed with Discord's backticks
    assert "\x1b" not in session.output  # the terminal echoed the arrow as ^[[A, we did not
    assert_clean(session.output)


async def test_against_the_computer_a_run_alone_and_the_result_at_a_real_keyboard(
    terminal: type[Terminal], tmp_path: Path
) -> None:
    session = terminal(["local", "--size", "5x5", "--computer", "easy"])
    shown = session.expect(r"Pink> ")
    assert "Commands (type them on your turn):" in shown and "  undo " in shown
    session.type("quit")  # nobody moved: nothing to keep
    assert session.wait() == 0
    assert "Game #1 had no moves: it is not kept." in session.output
    assert await saved_games(tmp_path) == []
    session = terminal(["local", "--size", "5x5", "--computer", "easy"])
    assert "Continue" not in session.expect(r"Pink> ")
    session.type("C3")
    session.expect(r"Pink> ")
    session.type("end")
    session.expect(r"\[y/N\] ")
    session.type("y")
    session.expect(r"Review the game with the computer\? \[y/N\] ")
    session.type("n")
    assert session.wait() == 0
    after = session.output.rsplit("Pink ends and makes no more moves.", 1)[1]
    assert after.count("  A B C D E\n5") == 1  # the computer's run alone under one board
    assert "Computer (easy) plays on alone: " in after
    assert "Computer (easy) wins this time: better luck in the next game!" in after
    assert_clean(session.output)
