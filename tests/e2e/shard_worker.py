"""`dots-bot` against the fake Discord, for the tests that run real bot processes.

``python -m tests.e2e.shard_worker [dots-bot arguments]`` is ``dots-bot`` itself (the same
``bot.main.main``, the same settings from the environment: ``DISCORD_TOKEN``,
``DOTS_DATABASE``, ``DOTS_SHARD_COUNT``, ``DOTS_SHARD_IDS``, ...), with discord.py pointed at
the fake on ``127.0.0.1:$DOTS_FAKE_DISCORD_PORT`` instead of discord.com.
"""

from __future__ import annotations

import os
import sys

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.main import main


def point_at_fake(port: int) -> None:
    """discord.py's REST base and gateway at the fake Discord on ``port``."""
    Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/")


if __name__ == "__main__":
    point_at_fake(int(os.environ["DOTS_FAKE_DISCORD_PORT"]))
    sys.exit(main(sys.argv[1:]))
