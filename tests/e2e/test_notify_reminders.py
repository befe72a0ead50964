"""/notify's reminders through the real client and the fake Discord: a player chooses how
often their turn is reminded in long games, privately and in their language; a game takes the
choice of the player whose turn starts; DMs on their turn are switched as before."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.helpers import bot_on, make_server, query, start_game
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name

SIX_HOURS = 6 * 3600


async def test_a_player_chooses_how_often_their_turn_is_reminded(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    fake.set_locale(s.bob, "ru")
    async with bot_on(fake, db):
        chosen = await (
            await fake.slash(s.alice, "notify", channel=s.general, reminders="6h")
        ).reply()
        assert chosen.is_ephemeral and "every 6 hours" in chosen.content
        assert "DM" not in chosen.content  # the DM setting was not asked about
        assert query(db, "SELECT remind_every FROM players WHERE user_id = ?", (s.alice.id,)) == [
            (SIX_HOURS,)
        ]
        never = await (
            await fake.slash(s.bob, "notify", channel=s.general, reminders="never")
        ).reply()
        assert never.is_ephemeral and "никогда" in never.content
        # Both at once; then neither shows what is set.
        both = await (
            await fake.slash(s.bob, "notify", channel=s.general, setting="on", reminders="day")
        ).reply()
        assert both.is_ephemeral and "каждый день" in both.content
        assert "личные сообщения" in both.content
        shown = await (await fake.slash(s.alice, "notify", channel=s.general)).reply()
        assert shown.is_ephemeral and "every 6 hours" in shown.content
        assert "No DMs on your turn." in shown.content
        # A day's game: Pink's turn takes Alice's choice, then Blue's takes Bob's.
        game = await start_game(s, s.alice, s.bob, clock=86400)
        row = "SELECT remind_every, reminded_at FROM games WHERE game_id = ?"
        assert query(db, row, (game.game_id,)) == [(SIX_HOURS, None)]
        await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        assert query(db, row, (game.game_id,)) == [(24 * 3600, None)]
    # The choices are offered in each player's language.
    (notify,) = [c for c in fake.global_commands if c["name"] == "notify"]
    (reminders,) = [o for o in notify["options"] if o["name"] == "reminders"]
    assert [c["value"] for c in reminders["choices"]] == ["never", "once", "6h", "12h", "day"]
    assert all(c["name_localizations"].get("ru") for c in reminders["choices"])
