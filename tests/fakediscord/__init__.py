"""A fake Discord (REST + gateway on 127.0.0.1) for driving the real discord.py client in tests."""

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
