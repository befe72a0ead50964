"""Slash commands as mentions (``</move:123>``): a player clicks one to start typing it.

Discord mentions a command by its id, which it gives each command when they are synced: the
bot keeps them (``GameBot.command_ids``), from its own sync or fetched once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from discord import app_commands

# A command written in backticks in our text: `/move B7`, `/dots-admin cancel`, `/notify on`.
WRITTEN = re.compile(r"`/([a-z0-9_-]+)((?: [a-z0-9_-]+)?)([^`]*)`")


def mention_ids(commands: Iterable[app_commands.AppCommand]) -> dict[str, int]:
    """Each command's id by the name a mention uses: ``"move"``, and ``"dots-admin cancel"``
    for a group's subcommands (their group's id)."""
    ids: dict[str, int] = {}
    for command in commands:
        ids[command.name] = command.id
        for option in command.options:
            if isinstance(option, app_commands.AppCommandGroup):
                ids[f"{command.name} {option.name}"] = command.id
    return ids


def with_mentions(text: str, ids: Mapping[str, int]) -> str:
    """``text`` with each command written in backticks that ``ids`` knows made a mention,
    its arguments left in backticks after it (`/move B7` reads </move:1> `B7`); a command
    it does not know is left as written."""

    def mention(written: re.Match[str]) -> str:
        name, sub, rest = written[1], written[2], written[3]
        if sub and f"{name}{sub}" in ids:
            path = f"{name}{sub}"
        elif name in ids:
            path, rest = name, sub + rest
        else:
            return written[0]
        rest = rest.strip()
        return f"</{path}:{ids[path]}>" + (f" `{rest}`" if rest else "")

    return WRITTEN.sub(mention, text)
