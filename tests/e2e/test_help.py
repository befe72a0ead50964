"""/help through the real bot and the fake Discord: each command a mention a player can click
(``</move:id>``, with the ids Discord gave the synced commands), in every language, within
Discord's limits; a bot that did not sync them itself fetches them once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cogs.info import HELP
from bot.i18n import translate
from tests.e2e.helpers import bot_on, make_server
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name


def synced_ids(fake: FakeDiscord) -> dict[str, str]:
    return {command["name"]: command["id"] for command in fake.global_commands}


@pytest.mark.parametrize("locale", ["en-US", "pl", "ru", "uk"])
async def test_help_mentions_every_command_by_the_id_discord_gave_it(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str
) -> None:
    fake = fake_discord
    s = make_server(fake, tmp_path / "db.sqlite3")
    fake.set_locale(s.bob, locale)
    async with bot_on(fake, s.database):
        await fake.wait_until(lambda: fake.global_commands, timeout=30)
        ids = synced_ids(fake)
        shown = (await (await fake.slash(s.bob, "help", channel=s.general)).reply()).content
    assert len(shown) <= 2000 and not shown.endswith("…")
    for name in ("rules", "challenge", "play-computer", "move", "end", "resign", "draw", "notify"):
        assert f"</{name}:{ids[name]}>" in shown, name
    assert f"</dots-admin cancel:{ids['dots-admin']}>" in shown
    assert "`/" not in shown  # no command left as plain text
    assert f"</move:{ids['move']}> `B7`" in shown  # its argument stays as an example
    assert translate(locale, HELP)[:30] in shown  # in the player's language


async def test_a_bot_that_did_not_sync_fetches_the_ids_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    s = make_server(fake, tmp_path / "db.sqlite3")
    async with bot_on(fake, s.database) as bot:
        await fake.wait_until(lambda: fake.global_commands, timeout=30)
        ids = synced_ids(fake)
        bot.command_ids = {}  # as in a process that did not sync (another one did)
        before = len(
            [r for r in fake.requests if r.method == "GET" and r.path.endswith("/commands")]
        )
        for _ in range(2):
            shown = (await (await fake.slash(s.alice, "help", channel=s.general)).reply()).content
            assert f"</move:{ids['move']}>" in shown
        fetches = [r for r in fake.requests if r.method == "GET" and r.path.endswith("/commands")]
        assert len(fetches) == before + 1
