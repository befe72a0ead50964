"""Russian players type points on a Russian keyboard, through the real client and the fake
Discord: a Cyrillic letter drawn like a Latin one plays that point; a letter with no Latin twin
gets a private answer, in Russian, to write Latin letters."""

from __future__ import annotations

from pathlib import Path

from bot.cogs.interactions import sentence
from bot.error_words import error_message
from bot.i18n import translate
from engine import InvalidPointError, PointMistake
from tests.e2e.helpers import actions, bot_on, make_server, snapshot, start_game
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name


async def test_a_move_typed_in_cyrillic_plays_its_latin_twin(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    fake.set_guild_locale(s.guild, "ru")
    fake.set_locale(s.alice, "ru")
    fake.set_locale(s.bob, "ru")
    async with bot_on(fake, db):
        started = await start_game(s, s.alice, s.bob)
        thread = started.thread

        # Autocomplete reads what is typed the same way: a Cyrillic "в" offers B points.
        typing = await fake.autocomplete(
            s.alice, "move", channel=thread, focused="point", point="в"
        )
        offered = [c["value"] for c in await typing.choices()]
        assert offered and all(p.startswith("B") for p in offered)

        reply = await (await fake.slash(s.alice, "move", channel=thread, point="В7")).reply()
        assert not reply.is_ephemeral and "B7" in reply.content
        assert actions(db, started.game_id)[-1] == ("dot", 1, "B7")

        reply = await (await fake.slash(s.bob, "move", channel=thread, point="е5")).reply()
        assert not reply.is_ephemeral and "E5" in reply.content
        assert actions(db, started.game_id)[-1] == ("dot", 2, "E5")

        before = snapshot(db)
        refusal = await (await fake.slash(s.alice, "move", channel=thread, point="Д5")).reply()
        assert refusal.is_ephemeral
        said = error_message(InvalidPointError("Д5", PointMistake.LATIN_LETTERS, 10, 10))
        assert refusal.content == sentence(translate("ru", said), "ru")
        assert "латиницей (переключите раскладку клавиатуры)" in refusal.content
        assert "`Д5`" in refusal.content and "A–J" in refusal.content  # the board's columns
        assert snapshot(db) == before
    assert fake.unrouted == []
