"""`dots-bot` against the fake Discord, for the tests and benches that run real bot processes.

``python tests/e2e/shard_worker.py [dots-bot arguments]`` is ``dots-bot`` itself (the same
``bot.main.main`` of the tree on ``PYTHONPATH``, the same settings from the environment:
``DISCORD_TOKEN``, ``DOTS_DATABASE``, ``DOTS_SHARD_COUNT``, ``DOTS_SHARD_IDS``, ...), with
discord.py pointed at the fake on ``127.0.0.1:$DOTS_FAKE_DISCORD_PORT`` instead of
discord.com. ``BotProcess`` starts, kills and restarts one such process (of this tree, or of
another checkout: ``bench/load.py --baseline``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.main import main

if TYPE_CHECKING:
    from tests.fakediscord.server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
# The arguments after `dots-bot` (the README's "Many servers" section shows the same).
COMMAND = ("run",)


def point_at_fake(port: int) -> None:
    """discord.py's REST base and gateway at the fake Discord on ``port``."""
    Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")


class BotProcess:
    """One `dots-bot` process on ``database``, running shard ``shard = (id, count)`` (None:
    unsharded, every server), restartable; its output goes to files in ``logs``; ``root``: the
    checkout whose bot runs (default this one)."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: str | Path,
        logs: Path,
        *,
        shard: tuple[int, int] | None = None,
        root: Path = ROOT,
    ) -> None:
        self.fake, self.database, self.logs, self.shard = fake, database, logs, shard
        self.root = root
        self.name = "bot" if shard is None else f"shard{shard[0]}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def environment(self) -> dict[str, str]:
        """The operator's settings (the README's section on several processes), plus where
        the fake is."""
        environ = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DOTS_")},
            "PYTHONPATH": str(self.root),
            "DISCORD_TOKEN": self.fake.token,
            "DOTS_DATABASE": str(self.database),
            "DOTS_LOG_LEVEL": "INFO",
            "DOTS_FAKE_DISCORD_PORT": str(self.fake.port),
        }
        if self.shard is not None:
            environ["DOTS_SHARD_COUNT"] = str(self.shard[1])
            environ["DOTS_SHARD_IDS"] = str(self.shard[0])
        return environ

    @property
    def key(self) -> tuple[int, int]:
        """The fake gateway's key of this process's shard."""
        return self.shard or (0, 1)

    async def start(self, timeout: float = 60.0) -> None:
        """Start the process and wait until its shard's session is connected.

        Raises:
            AssertionError: the process exited while starting.
            TimeoutError: it did not connect within ``timeout`` seconds.
        """
        before = self.fake.shard_sessions.get(self.key)
        self.starts += 1
        with (self.logs / f"{self.name}-{self.starts:02d}.log").open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), *COMMAND],
                cwd=self.root,
                env=self.environment(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: its workers die with it
            )

        def connected() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"{self.name} exited: {self.read_log()[-2000:]}")
            session = self.fake.shard_sessions.get(self.key)
            return session is not None and session is not before and session.ws is not None

        await self.fake.wait_until(connected, timeout=timeout, poll=0.05)

    def kill(self) -> None:
        """SIGKILL the process and its picture and search workers."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        assert self.proc.returncode == -signal.SIGKILL

    def stop(self) -> None:
        """End the process (SIGTERM, then SIGKILL after 10 s)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def read_log(self) -> str:
        """Everything this process (and its earlier starts) printed, in order."""
        return "".join(
            p.read_text(errors="replace") for p in sorted(self.logs.glob(f"{self.name}-*.log"))
        )


if __name__ == "__main__":
    point_at_fake(int(os.environ["DOTS_FAKE_DISCORD_PORT"]))
    sys.exit(main(sys.argv[1:]))
