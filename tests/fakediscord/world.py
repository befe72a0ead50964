"""The fake Discord's state and the queries and waits tests use; the base of ``FakeDiscord``."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tests.fakediscord.faults import Fault, Faults
from tests.fakediscord.rate_limits import ThreadLimit
from tests.fakediscord.records import Request
from tests.fakediscord.state import (
    DM,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    Snowflakes,
    User,
)

if TYPE_CHECKING:
    from tests.fakediscord.drivers import InteractionHandle
    from tests.fakediscord.gateway import Session

API_PREFIX = "/api/v10"


class World:
    """Users, guilds, channels, messages and commands, plus everything recorded so far."""

    def __init__(self, *, token: str = "fake-bot-token", bot_name: str = "DotsBot") -> None:
        self.token = token
        self.snowflakes = Snowflakes()
        self.bot = User(id=self.snowflakes.next(), name=bot_name, bot=True)
        self.application_id = self.bot.id
        self.owner = User(id=self.snowflakes.next(), name="owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[Request] = []
        self.requests: list[Request] = []
        # Requests the fake has no route for: a gap in the fake, not the bot (assert it empty).
        self.unrouted: list[Request] = []
        self.faults = Faults()
        # Discord's limit on creating threads in a server (429 past it).
        self.thread_limit = ThreadLimit()
        self.interactions: dict[int, InteractionHandle] = {}
        self.interactions_by_token: dict[str, InteractionHandle] = {}
        self.sessions: dict[str, Session] = {}
        # The session that connected last, and the one now receiving each shard's events
        # (keyed by (shard id, shard count); (0, 1) for an unsharded client).
        self.session: Session | None = None
        self.shard_sessions: dict[tuple[int, int], Session] = {}
        # What GET /gateway/bot recommends, and the most guilds one session may hold (more:
        # IDENTIFY is closed with 4011 "sharding required", as on Discord). None: no limit.
        self.recommended_shards = 1
        self.max_guilds_per_session: int | None = None
        self.identifies = 0
        self.resumes = 0
        # Like Discord, a first callback later than this many seconds gets 404/10062 (None: never).
        self.callback_deadline: float | None = 3.0
        # Follow-ups and edits through an interaction's token work this long after it was sent.
        self.webhook_token_lifetime = 15 * 60.0
        # The largest upload (each file, and all of a request's together): 413 / 40005 above it.
        self.upload_limit = 10 * 1024 * 1024
        # The gateway closes with 4004 at IDENTIFY though REST took the token (it was reset).
        self.gateway_refuses_token = False
        self._awaiting_file: dict[int, list[InteractionHandle]] = {}
        self.port = 0
        self._changed: asyncio.Condition | None = None

    @property
    def base_url(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """The value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (and the resume URL)."""
        return f"ws://127.0.0.1:{self.port}/"

    # ----------------------------------------------------------------- world building

    def create_user(self, name: str, *, dms_closed: bool = False, bot: bool = False) -> User:
        """A new user; ``dms_closed`` makes DMs to them fail with 403/50007."""
        user = User(id=self.snowflakes.next(), name=name, dms_closed=dms_closed, bot=bot)
        self.users[user.id] = user
        return user

    def create_guild(
        self,
        name: str = "Test Server",
        *,
        channels: tuple[str, ...] = ("general",),
        shard: tuple[int, int] | None = None,
        with_bot: bool = True,
    ) -> Guild:
        """A guild owned by ``self.owner`` with the bot as a member (unless not ``with_bot``:
        then only a user's install of the app reaches it) and some text channels;
        ``shard=(shard_id, shard_count)`` picks an id on that shard.

        Create guilds before the bot connects, or call ``announce_guild`` afterwards.
        """
        ident = self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(*shard)
        guild = Guild(id=ident, name=name, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(
            id=guild.id, name="@everyone", permissions=EVERYONE_PERMISSIONS
        )
        self.guilds[guild.id] = guild
        self.add_member(guild, self.owner)
        if with_bot:
            self.add_member(guild, self.bot)
        for channel_name in channels:
            self.create_channel(guild, channel_name)
        return guild

    def add_member(self, guild: Guild, user: User, *, permissions: int = 0) -> Member:
        """Make ``user`` a member of ``guild``; extra ``permissions`` come through a new role."""
        roles: list[int] = []
        if permissions:
            role = Role(
                id=self.snowflakes.next(),
                name=f"{user.name}-role",
                permissions=permissions,
                position=1,
            )
            guild.roles[role.id] = role
            roles.append(role.id)
        member = Member(user=user, roles=roles)
        guild.members[user.id] = member
        return member

    def remove_member(self, guild: Guild, user: User) -> None:
        """``user`` leaves ``guild`` (Discord then answers a lookup of them with 404 10007
        Unknown Member; the bot, without the members intent, gets no event)."""
        del guild.members[user.id]

    def create_channel(self, guild: Guild, name: str, *, threads_allowed: bool = True) -> Channel:
        """A text channel; with ``threads_allowed=False`` creating threads in it gets 403."""
        channel = Channel(
            id=self.snowflakes.next(),
            type=GUILD_TEXT,
            name=name,
            guild_id=guild.id,
            threads_allowed=threads_allowed,
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def channel_named(self, name: str, guild: Guild | None = None) -> Channel:
        """The channel or thread with this name (in ``guild`` if given)."""
        for channel in self.channels.values():
            if channel.name == name and (guild is None or channel.guild_id == guild.id):
                return channel
        raise KeyError(name)

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        """Threads, oldest first (only those under ``parent`` if given)."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    def dm_channel(self, user: User) -> Channel | None:
        """The bot's DM channel with ``user``, if the bot opened one."""
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient is user:
                return channel
        return None

    def open_dm(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (made if needed): where a user runs
        slash commands in DMs, and where the bot's DMs to them land."""
        channel = self.dm_channel(user)
        if channel is None:
            channel = Channel(id=self.snowflakes.next(), type=DM, recipient=user)
            self.channels[channel.id] = channel
        return channel

    def find_command(self, name: str, guild: Guild | None = None) -> dict[str, Any]:
        """The synced top-level command ``name`` (guild commands first)."""
        pools = []
        if guild is not None:
            pools.append(self.guild_commands.get(guild.id, []))
        pools.append(self.global_commands)
        for pool in pools:
            for command in pool:
                if command["name"] == name and command.get("type", 1) == 1:
                    return command
        raise KeyError(f"no synced slash command named {name!r}")

    # ----------------------------------------------------------------- waiting

    async def notify(self) -> None:
        """Wake everything waiting in ``wait_until``."""
        if self._changed is None:
            return
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float = 5.0, *, poll: float | None = 0.02
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        It is re-checked on every change the fake sees and, unless ``poll`` is None, every
        ``poll`` seconds, so predicates on the bot's own state (errors it logged, rows it
        wrote) work too. Predicates on the fake's state alone can pass ``poll=None``.

        Raises:
            TimeoutError: if it is still falsy after ``timeout`` seconds.
        """
        assert self._changed is not None, "start() the fake first"
        deadline = time.perf_counter() + timeout
        # Checking under the condition's lock means no notify can slip in between.
        async with self._changed:
            while True:
                result = predicate()
                if result:
                    return result
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"condition not met within {timeout} s")
                step = left if poll is None else min(left, poll)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), step)

    # ----------------------------------------------------------------- queries for tests

    def fail_next(self, method: str, path_regex: str, **options: Any) -> Fault:
        """Shorthand for ``self.faults.fail_next``: make matching requests fail (see there)."""
        return self.faults.fail_next(method, path_regex, **options)

    def requests_to(self, method: str, path_regex: str) -> list[Request]:
        """Recorded requests whose method matches and whose path contains ``path_regex``."""
        pattern = re.compile(path_regex)
        return [r for r in self.requests if r.method == method.upper() and pattern.search(r.path)]

    def command_schema(self, guild: Guild | None = None) -> list[dict[str, Any]]:
        """The synced commands as the bot sent them (no ids or versions), sorted by name.

        Stable across runs, so it can be compared with a reviewed golden file.
        """
        pool = self.guild_commands.get(guild.id, []) if guild else self.global_commands
        volatile = {"id", "application_id", "version", "guild_id"}
        return sorted(
            ({k: v for k, v in c.items() if k not in volatile} for c in pool),
            key=lambda c: (c["name"], c.get("type", 1)),
        )

    def handles(self, *, kind: int | None = None) -> list[InteractionHandle]:
        """Every interaction sent so far (of one interaction type if given), oldest first."""
        return [h for h in self.interactions.values() if kind is None or h.type == kind]

    def posted(self, channel: Channel, *, include_ephemeral: bool = False) -> list[Message]:
        """Messages in ``channel``, oldest first (public ones unless told otherwise)."""
        return [
            m
            for m in channel.messages
            if not m.deleted and (include_ephemeral or not m.is_ephemeral)
        ]
