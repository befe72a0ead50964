"""A fake Discord (REST + gateway on 127.0.0.1) for driving the real discord.py client in tests.

Usage (see test_harness.py for every feature)::

    from tests.fakediscord.faults import FOLLOWUP
    from tests.fakediscord.fixtures import fake_discord, run_bot  # noqa: F401 (fixture)

    async def test_move(fake_discord, tmp_path):
        fake = fake_discord  # running; discord.py's Route.BASE and gateway point at it
        guild = fake.create_guild("Dots Club")  # before the bot connects
        alice, bob = fake.create_user("alice"), fake.create_user("bob")
        fake.add_member(guild, alice)
        general = fake.channel_named("general")
        bot = create_bot(Settings(token=fake.token, database=tmp_path / "db.sqlite3"))
        async with run_bot(fake, bot):  # started, ready, closed after
            handle = await fake.slash(alice, "challenge", channel=general, opponent=bob)
            challenge = await handle.reply()  # a state.Message
            click = await fake.click(bob, challenge, challenge.custom_ids()[0])
            fake.fail_next("POST", FOLLOWUP, status=429)  # next follow-up is rate limited
            await fake.drop_gateway()  # the client resumes
"""

from tests.fakediscord.drivers import Callback, InteractionHandle
from tests.fakediscord.records import Request, UploadedFile
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Attachment, Channel, Guild, Member, Message, Role, User

__all__ = [
    "Attachment",
    "Callback",
    "Channel",
    "FakeDiscord",
    "Guild",
    "InteractionHandle",
    "Member",
    "Message",
    "Request",
    "Role",
    "UploadedFile",
    "User",
]
