"""The fake Discord's world: users, guilds, channels, threads, messages and application commands.

Everything is plain data with a ``payload()`` method that builds the JSON Discord would send;
the server and the drivers mutate these objects and tests read them back.
"""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

# Discord's epoch (2015-01-01T00:00:00Z) in milliseconds: snowflakes carry their creation time.
DISCORD_EPOCH_MS = 1420070400000

# Permission bits used by the fake (values from Discord's documentation).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38

# What @everyone may do in a freshly made fake guild: an ordinary community server.
EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7


def iso(moment: datetime) -> str:
    """Format an aware datetime the way Discord does."""
    return moment.astimezone(UTC).isoformat()


class Snowflakes:
    """Issue increasing snowflake ids whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._last = 0

    def next(self) -> int:
        """Return a fresh snowflake, strictly greater than every earlier one."""
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0x3FFFFF)
        # Two ids in one millisecond with a wrapped counter would collide; keep them increasing.
        value = max(value, self._last + 1)
        self._last = value
        return value

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh snowflake that, as a server id, falls on shard ``shard_id`` of
        ``shard_count`` (Discord's ``(guild_id >> 22) % shard_count``): its timestamp part is
        moved on to the next millisecond that does."""
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
        ms += (shard_id - ms) % shard_count
        value = (ms << 22) | (next(self._counter) & 0x3FFFFF)
        self._last = value
        return value


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a server's events (direct messages: shard 0), as on Discord."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass
class User:
    """A Discord user (or the bot)."""

    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    locale: str = "en-US"  # the language of the user's client, carried by interactions

    def payload(self) -> dict[str, Any]:
        """The user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        """The text that mentions this user."""
        return f"<@{self.id}>"


@dataclass
class Role:
    """A guild role with a permission bit set."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """The role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Member:
    """A user's membership of a guild."""

    user: User
    roles: list[int] = field(default_factory=list)
    joined_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        """The guild member object (with ``permissions`` as interactions carry it)."""
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "nick": None,
            "avatar": None,
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Attachment:
    """A file attached to a message, with its bytes kept for the tests."""

    id: int
    filename: str
    content_type: str | None
    data: bytes
    url: str
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        """The attachment object."""
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
        }

    @property
    def is_png(self) -> bool:
        """Whether the bytes start with the PNG signature."""
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")


@dataclass
class Message:
    """A message in a channel, including ephemeral interaction replies."""

    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    edited_at: datetime | None = None
    deleted: bool = False
    interaction_id: int | None = None
    webhook_id: int | None = None
    message_reference: dict[str, Any] | None = None
    thread_id: int | None = None
    reactions: list[str] = field(default_factory=list)
    # The payload before each edit, oldest first: lets tests see what a message used to say.
    history: list[dict[str, Any]] = field(default_factory=list)
    # What the sender allowed to ping (None: Discord's default, every mention in the content).
    allowed_mentions: dict[str, Any] | None = None

    @property
    def pinged(self) -> set[int]:
        """The users this message notified: its user mentions that ``allowed_mentions`` let
        through (Discord's rule: without it every mention pings)."""
        mentioned = {int(m) for m in re.findall(r"<@!?(\d+)>", self.content)}
        allowed = self.allowed_mentions
        if allowed is None or "users" in allowed.get("parse", []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users", [])}

    @property
    def is_ephemeral(self) -> bool:
        """Whether only the invoking user can see this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def is_loading(self) -> bool:
        """Whether this is a deferred "thinking" message not yet filled in."""
        return bool(self.flags & LOADING)

    def buttons(self) -> list[dict[str, Any]]:
        """Every button (component type 2) in the message, in order."""
        found: list[dict[str, Any]] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if item.get("type") == 2:
                    found.append(item)
                walk(item.get("components", []))
                if isinstance(item.get("accessory"), dict):
                    walk([item["accessory"]])

        walk(self.components)
        return found

    def custom_ids(self) -> list[str]:
        """The custom ids of every interactive component."""
        ids: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if "custom_id" in item:
                    ids.append(item["custom_id"])
                walk(item.get("components", []))

        walk(self.components)
        return ids

    def text(self) -> str:
        """Content, the text displays of a Components V2 message, and embed titles and
        descriptions, for loose assertions."""
        parts = [self.content, *self.text_displays()]
        for embed in self.embeds:
            parts.extend(str(embed.get(k, "")) for k in ("title", "description"))
            for f in embed.get("fields", []):
                parts.extend((str(f.get("name", "")), str(f.get("value", ""))))
            if isinstance(embed.get("footer"), dict):
                parts.append(str(embed["footer"].get("text", "")))
        return "\n".join(p for p in parts if p)

    def text_displays(self) -> list[str]:
        """The text displays (component type 10) of a Components V2 message, in order."""
        found: list[str] = []

        def walk(items: list[dict[str, Any]]) -> None:
            for item in items:
                if item.get("type") == 10:
                    found.append(str(item.get("content", "")))
                walk(item.get("components", []))

        walk(self.components)
        return found

    def payload(self) -> dict[str, Any]:
        """The message object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 0 if self.message_reference is None else 19,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread_id is not None:
            data["flags"] = self.flags | (1 << 5)  # HAS_THREAD
        return data


@dataclass
class Channel:
    """A text channel, a thread or a DM channel."""

    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None
    archived: bool = False
    locked: bool = False
    threads_allowed: bool = True
    messages: list[Message] = field(default_factory=list)

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    def visible_messages(self) -> list[Message]:
        """Messages everyone can see (not ephemeral, not deleted), oldest first."""
        return [m for m in self.messages if not m.is_ephemeral and not m.deleted]

    def payload(self) -> dict[str, Any]:
        """The channel object."""
        last = self.messages[-1].id if self.messages else None
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": str(last) if last else None,
            "flags": 0,
        }
        if self.type == DM:
            data["recipients"] = [self.recipient.payload()] if self.recipient else []
            return data
        data.update(
            {
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": str(self.parent_id) if self.parent_id else None,
                "rate_limit_per_user": 0,
            }
        )
        if self.is_thread:
            data.update(
                {
                    "owner_id": str(self.owner_id) if self.owner_id else None,
                    "message_count": len(self.messages),
                    "member_count": 1,
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": 10080,
                        "archive_timestamp": iso(datetime.now(UTC)),
                        "locked": self.locked,
                        "invitable": True,
                    },
                }
            )
        else:
            data["topic"] = None
        return data


@dataclass
class Guild:
    """A guild (server) with its roles, channels, threads and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    locale: str = "en-US"  # the server's primary language (guild_locale, preferred_locale)

    def permissions_of(self, user_id: int) -> int:
        """The guild-wide permission bits of a member (owner and administrators get all)."""
        if user_id == self.owner_id:
            return (1 << 50) - 1
        member = self.members.get(user_id)
        bits = self.roles[self.id].permissions
        if member is not None:
            for role_id in member.roles:
                bits |= self.roles[role_id].permissions
        if bits & ADMINISTRATOR:
            return (1 << 50) - 1
        return bits

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE payload: the guild with channels, threads, members and roles."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso(datetime.now(UTC)),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "presences": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def partial(self) -> dict[str, Any]:
        """The partial guild carried by interactions."""
        return {"id": str(self.id), "locale": self.locale, "features": []}
