"""The fake Discord server: aiohttp REST under ``/api/v10`` and the gateway websocket on ``/``.

It speaks enough of Discord's protocol for the real discord.py client to log in, sync
commands, receive INTERACTION_CREATE events and answer them, post messages with files, open
threads and DMs, and resume a dropped gateway session. Every REST request is recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.drivers import Drivers, InteractionHandle
from tests.fakediscord.faults import Faults, error_body
from tests.fakediscord.state import (
    DM,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    LOADING,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    Snowflakes,
    User,
)

_log = logging.getLogger(__name__)

API_PREFIX = "/api/v10"

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 0, 1, 2, 6, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11

# Intent bits that decide whether the bot hears about messages.
GUILD_MESSAGES_INTENT = 1 << 9
DM_MESSAGES_INTENT = 1 << 12


class HTTPError(Exception):
    """Raised by a handler to answer with a Discord error body."""

    def __init__(self, status: int, code: int, message: str | None = None) -> None:
        super().__init__(status, code, message)
        self.status = status
        self.code = code
        self.message = message


@dataclass
class UploadedFile:
    """A file part of a multipart request."""

    field: str
    filename: str
    content_type: str | None
    data: bytes

    @property
    def is_png(self) -> bool:
        """Whether the bytes start with the PNG signature."""
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")


@dataclass
class Request:
    """One REST request as the fake saw it, with the status it answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    at: float
    time: datetime
    status: int = 0
    fault: bool = False

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.path} -> {self.status}>"


@dataclass
class Session:
    """A gateway session; it outlives its websocket so that RESUME can replay events."""

    id: str
    intents: int
    shard: list[int] | None
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    events: list[tuple[int, str]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


Handler = Callable[[web.Request, re.Match[str], Request], Awaitable[Any]]


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response with the bare Content-Type discord.py insists on (no charset)."""
    all_headers = {"Content-Type": "application/json"}
    all_headers.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


class FakeDiscord(Drivers):
    """A local Discord: state, REST, gateway, recording, drivers and fault injection.

    Typical use is through ``tests.fakediscord.fixtures``; on its own::

        fake = FakeDiscord()
        await fake.start()
        ...  # patch discord.py (fixtures.patch_discord) and run a client against it
        await fake.stop()
    """

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
        self.faults = Faults()
        self.interactions: dict[int, InteractionHandle] = {}
        self.interactions_by_token: dict[str, InteractionHandle] = {}
        self.sessions: dict[str, Session] = {}
        self.session: Session | None = None
        self.identifies = 0
        self.resumes = 0
        # Like Discord, a first callback later than this many seconds gets 404/10062 (None: never).
        self.callback_deadline: float | None = 3.0
        self._awaiting_file: dict[int, list[InteractionHandle]] = {}
        self.port = 0
        self._runner: web.AppRunner | None = None
        self._changed: asyncio.Condition | None = None
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []
        self._add_routes()

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port."""
        self._changed = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        app.router.add_get("/", self._gateway)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets
        self.port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        """Close every websocket and stop listening."""
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                with contextlib.suppress(Exception):
                    await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

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
        self, name: str = "Test Server", *, channels: tuple[str, ...] = ("general",)
    ) -> Guild:
        """A guild owned by ``self.owner`` with the bot as a member and some text channels.

        Create guilds before the bot connects, or call ``announce_guild`` afterwards.
        """
        guild = Guild(id=self.snowflakes.next(), name=name, owner_id=self.owner.id)
        guild.roles[guild.id] = Role(
            id=guild.id, name="@everyone", permissions=EVERYONE_PERMISSIONS
        )
        self.guilds[guild.id] = guild
        self.add_member(guild, self.owner)
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

    async def announce_guild(self, guild: Guild) -> None:
        """Send GUILD_CREATE for a guild made after the bot connected."""
        await self.dispatch("GUILD_CREATE", guild.payload())

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

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until ``predicate()`` is truthy and return its value.

        It is re-checked on every change the fake sees and every 20 ms, so predicates on
        the bot's own state (errors it logged, rows it wrote) work too.

        Raises:
            TimeoutError: if it is still falsy after ``timeout`` seconds.
        """
        assert self._changed is not None, "start() the fake first"
        deadline = time.perf_counter() + timeout
        while True:
            result = predicate()
            if result:
                return result
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"condition not met within {timeout} s")
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), min(left, 0.02))

    # ----------------------------------------------------------------- gateway

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a DISPATCH event to the current session (buffered while it is disconnected)."""
        session = self.session
        if session is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        await self._dispatch_to(session, event, data)

    async def _dispatch_to(self, session: Session, event: str, data: Any) -> None:
        async with session.lock:
            session.seq += 1
            frame = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
            session.events.append((session.seq, frame))
            ws = session.ws
            if ws is not None and not ws.closed:
                try:
                    await ws.send_str(frame)
                except ConnectionError:
                    _log.debug("gateway send failed; %s stays buffered for RESUME", event)

    async def drop_gateway(self, *, code: int = 4000) -> None:
        """Close the bot's websocket with a resumable close code, forcing a RESUME."""
        session = self.session
        if session is None or session.ws is None:
            raise RuntimeError("no connected gateway session to drop")
        ws, session.ws = session.ws, None
        await ws.close(code=code)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=None, autoping=True)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": 41250}}))
        session: Session | None = None
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(msg.data)
            op, data = frame.get("op"), frame.get("d")
            if op == HEARTBEAT:
                await ws.send_str(json.dumps({"op": HEARTBEAT_ACK}))
            elif op == IDENTIFY:
                session = await self._identify(ws, data)
            elif op == RESUME:
                session = await self._resume(ws, data)
            elif op == REQUEST_MEMBERS and session is not None:
                await self._members_chunk(session, data)
        if session is not None and session.ws is ws:
            session.ws = None
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.token:
            await ws.close(code=4004, message=b"Authentication failed.")
            return None
        session = Session(
            id=secrets.token_hex(16), intents=data.get("intents", 0), shard=data.get("shard")
        )
        session.ws = ws
        self.sessions[session.id] = session
        self.session = session
        self.identifies += 1
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.bot.payload(),
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self._dispatch_to(session, "READY", ready)
        for guild in self.guilds.values():
            await self._dispatch_to(session, "GUILD_CREATE", guild.payload())
        await self.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.token:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False}))
            return None
        async with session.lock:
            session.ws = ws
            after = data.get("seq") or 0
            for seq, frame in session.events:
                if seq > after:
                    await ws.send_str(frame)
        self.session = session
        await self._dispatch_to(session, "RESUMED", {})
        self.resumes += 1
        await self.notify()
        return session

    async def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        await self._dispatch_to(
            session,
            "GUILD_MEMBERS_CHUNK",
            {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in guild.members.values()],
                "chunk_index": 0,
                "chunk_count": 1,
                "nonce": data.get("nonce"),
            },
        )

    def _hears(self, channel: Channel) -> bool:
        session = self.session
        if session is None:
            return False
        bit = DM_MESSAGES_INTENT if channel.type == DM else GUILD_MESSAGES_INTENT
        return bool(session.intents & bit)

    # ----------------------------------------------------------------- REST plumbing

    def _add_routes(self) -> None:
        table: list[tuple[str, str, Handler]] = [
            ("GET", r"/gateway(/bot)?", self._get_gateway),
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/users/(?P<user>\d+)", self._get_user),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands),
            (
                "GET",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._get_commands,
            ),
            (
                "PUT",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._put_commands,
            ),
            ("GET", r"/channels/(?P<channel>\d+)", self._get_channel),
            ("PATCH", r"/channels/(?P<channel>\d+)", self._edit_channel),
            ("GET", r"/channels/(?P<channel>\d+)/messages", self._history),
            ("POST", r"/channels/(?P<channel>\d+)/messages", self._post_message),
            ("GET", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", self._get_message),
            ("PATCH", r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", self._edit_message),
            (
                "DELETE",
                r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)",
                self._delete_message,
            ),
            ("POST", r"/channels/(?P<channel>\d+)/threads", self._create_thread),
            (
                "POST",
                r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/threads",
                self._create_thread,
            ),
            (
                "PUT",
                r"/channels/(?P<channel>\d+)/thread-members/(?P<user>@me|\d+)",
                self._no_content,
            ),
            ("POST", r"/channels/(?P<channel>\d+)/typing", self._no_content),
            ("GET", r"/guilds/(?P<guild>\d+)", self._get_guild),
            ("GET", r"/guilds/(?P<guild>\d+)/channels", self._get_guild_channels),
            (
                "PUT",
                r"/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/reactions/(?P<emoji>[^/]+)/@me",
                self._react,
            ),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", self._get_member),
            ("POST", r"/interactions/(?P<id>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup),
            (
                "GET",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<message>@original|\d+)",
                self._get_webhook_message,
            ),
            (
                "PATCH",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<message>@original|\d+)",
                self._edit_webhook_message,
            ),
            (
                "DELETE",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<message>@original|\d+)",
                self._delete_webhook_message,
            ),
        ]
        self._routes = [(m, re.compile(p + r"/?$"), h) for m, p, h in table]

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        record = Request(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=None,
            files=[],
            at=time.perf_counter(),
            time=datetime.now(UTC),
        )
        await self._read_body(request, record)
        self.requests.append(record)
        try:
            return await self._answer(request, path, record)
        finally:
            await self.notify()

    async def _answer(self, request: web.Request, path: str, record: Request) -> web.StreamResponse:
        fault = self.faults.take(record.method, path)
        if fault is not None:
            status, headers, body = fault.response()
            record.status, record.fault = status, True
            self._note_interaction_request(path, record)
            return web.Response(body=body, status=status, headers=headers)
        auth = request.headers.get("Authorization", "")
        is_webhook = path.startswith(("/interactions/", "/webhooks/"))
        if not is_webhook and auth != f"Bot {self.token}":
            record.status = 401
            return json_response(error_body(0, "401: Unauthorized"), status=401)
        for method, pattern, handler in self._routes:
            match = pattern.match(path)
            if match is None or method != record.method:
                continue
            try:
                result = await handler(request, match, record)
            except HTTPError as exc:
                record.status = exc.status
                self._note_interaction_request(path, record)
                return json_response(error_body(exc.code, exc.message), status=exc.status)
            if isinstance(result, web.Response):
                record.status = result.status
                return result
            record.status = 200
            return json_response(result)
        record.status = 404
        _log.warning("fake discord has no route for %s %s", record.method, path)
        return json_response(error_body(0, f"404: Not Found ({record.method} {path})"), status=404)

    def _note_interaction_request(self, path: str, record: Request) -> None:
        match = re.match(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", path)
        if match:
            handle = self.interactions_by_token.get(match.group(1))
            if handle is not None:
                handle.failures.append(record)

    async def _read_body(self, request: web.Request, record: Request) -> None:
        if not request.body_exists:
            return
        content_type = request.content_type
        if content_type.startswith("multipart/"):
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not hasattr(part, "read"):
                    continue
                data = await part.read(decode=False)  # type: ignore[union-attr]
                name = part.name or ""  # type: ignore[union-attr]
                if name == "payload_json":
                    record.json = json.loads(data)
                else:
                    record.files.append(
                        UploadedFile(
                            field=name,
                            filename=part.filename or name,  # type: ignore[union-attr]
                            content_type=part.headers.get("Content-Type"),
                            data=bytes(data),
                        )
                    )
        else:
            raw = await request.read()
            if raw:
                try:
                    record.json = json.loads(raw)
                except ValueError:
                    record.json = raw.decode(errors="replace")

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        attachment_id = int(request.match_info["id"])
        for message in self.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type)
        return web.Response(status=404)

    async def _no_content(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> web.Response:
        self._channel(match)
        return web.Response(status=204)

    # ----------------------------------------------------------------- lookups

    def _channel(self, match: re.Match[str]) -> Channel:
        channel = self.channels.get(int(match["channel"]))
        if channel is None:
            raise HTTPError(404, 10003)
        return channel

    def _message(self, channel: Channel, message_id: int) -> Message:
        message = self.messages.get(message_id)
        if (
            message is None
            or message.deleted
            or message.channel_id != channel.id
            or message.is_ephemeral
        ):
            raise HTTPError(404, 10008)
        return message

    def _handle(self, token: str) -> InteractionHandle:
        handle = self.interactions_by_token.get(token)
        if handle is None:
            raise HTTPError(404, 10015, "Unknown Webhook")
        return handle

    # ----------------------------------------------------------------- simple endpoints

    async def _get_gateway(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def _get_me(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        return self.bot.payload()

    async def _get_application(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        return {
            "id": str(self.application_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.payload(),
            "summary": "",
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "bot": self.bot.payload(),
        }

    async def _get_user(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        user = self.users.get(int(match["user"]))
        if user is None:
            raise HTTPError(404, 10013, "Unknown User")
        return user.payload()

    async def _get_guild(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        guild = self.guilds.get(int(match["guild"]))
        if guild is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        data = guild.payload()
        for key in ("members", "channels", "threads", "voice_states", "presences"):
            data.pop(key)
        return data

    async def _get_guild_channels(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        guild = self.guilds.get(int(match["guild"]))
        if guild is None:
            raise HTTPError(404, 10004, "Unknown Guild")
        return [c.payload() for c in guild.channels.values() if not c.is_thread]

    async def _react(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        message = self._message(self._channel(match), int(match["message"]))
        message.reactions.append(match["emoji"])
        return web.Response(status=204)

    async def _get_member(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        guild = self.guilds.get(int(match["guild"]))
        member = guild.members.get(int(match["user"])) if guild else None
        if member is None:
            raise HTTPError(404, 10007, "Unknown Member")
        return member.payload()

    # ----------------------------------------------------------------- commands

    async def _get_commands(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        if match.groupdict().get("guild"):
            return self.guild_commands.get(int(match["guild"]), [])
        return self.global_commands

    async def _put_commands(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        guild_id = int(match["guild"]) if match.groupdict().get("guild") else None
        old = self.guild_commands.get(guild_id, []) if guild_id else self.global_commands
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old}
        synced = []
        for command in record.json or []:
            stored = dict(command)
            key = (stored["name"], stored.get("type", 1))
            stored.setdefault("type", 1)
            stored.setdefault("description", "")
            stored.setdefault("options", [])
            stored["id"] = old_ids.get(key) or str(self.snowflakes.next())
            stored["application_id"] = str(self.application_id)
            stored["version"] = str(self.snowflakes.next())
            stored.setdefault("default_member_permissions", None)
            stored.setdefault("nsfw", False)
            if guild_id:
                stored["guild_id"] = str(guild_id)
            synced.append(stored)
        if guild_id:
            self.guild_commands[guild_id] = synced
        else:
            self.global_commands = synced
        self.command_syncs.append(record)
        return synced

    # ----------------------------------------------------------------- channels and messages

    async def _get_channel(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        return self._channel(match).payload()

    async def _edit_channel(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        channel = self._channel(match)
        body = record.json or {}
        channel.name = body.get("name", channel.name)
        channel.archived = body.get("archived", channel.archived)
        channel.locked = body.get("locked", channel.locked)
        if channel.is_thread and channel.guild_id is not None:
            await self._dispatch_quietly("THREAD_UPDATE", channel.payload())
        return channel.payload()

    async def _history(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        channel = self._channel(match)
        limit = int(record.query.get("limit", 50))
        visible = channel.visible_messages()
        return [m.payload() for m in reversed(visible)][:limit]

    async def _get_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        return self._message(self._channel(match), int(match["message"])).payload()

    async def _post_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        channel = self._channel(match)
        if channel.type == DM and channel.recipient is not None and channel.recipient.dms_closed:
            raise HTTPError(403, 50007)
        if channel.is_thread and (channel.archived or channel.locked):
            # An archived thread is reopened by a post; a locked one refuses the bot too.
            if channel.locked:
                raise HTTPError(403, 50083, "Thread is archived")
            channel.archived = False
        message = self._new_message(channel, self.bot, record)
        ref = (record.json or {}).get("message_reference")
        if ref:
            message.message_reference = {**ref, "channel_id": str(channel.id)}
        await self._announce(message)
        return message.payload()

    async def _edit_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        message = self._message(self._channel(match), int(match["message"]))
        self._apply_edit(message, record)
        return message.payload()

    async def _delete_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        message = self._message(self._channel(match), int(match["message"]))
        message.deleted = True
        return web.Response(status=204)

    async def _create_thread(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        parent = self._channel(match)
        if parent.type != GUILD_TEXT or not parent.threads_allowed:
            raise HTTPError(403, 50013)
        body = record.json or {}
        starter = (
            self._message(parent, int(match["message"]))
            if match.groupdict().get("message")
            else None
        )
        thread = Channel(
            id=starter.id if starter else self.snowflakes.next(),
            type=body.get("type", PUBLIC_THREAD),
            name=body.get("name", "thread"),
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot.id,
        )
        if starter is not None:
            if starter.thread_id is not None:
                raise HTTPError(400, 160004, "A thread has already been created for this message")
            starter.thread_id = thread.id
        self.channels[thread.id] = thread
        assert parent.guild_id is not None
        self.guilds[parent.guild_id].channels[thread.id] = thread
        await self._dispatch_quietly("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread.payload()

    async def _open_dm(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        user = self.users.get(int((record.json or {}).get("recipient_id", 0)))
        if user is None:
            raise HTTPError(400, 50035, "Invalid Form Body")
        channel = self.dm_channel(user)
        if channel is None:
            channel = Channel(id=self.snowflakes.next(), type=DM, recipient=user)
            self.channels[channel.id] = channel
        return channel.payload()

    async def _dispatch_quietly(self, event: str, data: Any) -> None:
        if self.session is not None:
            await self.dispatch(event, data)

    async def _announce(self, message: Message) -> None:
        channel = self.channels[message.channel_id]
        if not message.is_ephemeral and self._hears(channel):
            await self.dispatch("MESSAGE_CREATE", message.payload())

    # ----------------------------------------------------------------- message building

    def _attachments(self, record: Request, body: dict[str, Any]) -> list[Attachment]:
        by_field = {f.field: f for f in record.files}
        made: list[Attachment] = []
        listed = body.get("attachments") or []
        described = {str(a.get("id")): a for a in listed if isinstance(a, dict)}
        for index, upload in enumerate(record.files):
            meta = described.get(str(index), {})
            if f"files[{index}]" in by_field:
                upload = by_field[f"files[{index}]"]
            attachment_id = self.snowflakes.next()
            filename = meta.get("filename") or upload.filename
            made.append(
                Attachment(
                    id=attachment_id,
                    filename=filename,
                    content_type=_guess_type(filename, upload.content_type),
                    data=upload.data,
                    url=f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}",
                    description=meta.get("description"),
                )
            )
        return made

    def _new_message(
        self,
        channel: Channel,
        author: User,
        record: Request,
        *,
        flags: int | None = None,
        interaction: InteractionHandle | None = None,
        body: dict[str, Any] | None = None,
    ) -> Message:
        body = body if body is not None else (record.json or {})
        message = Message(
            id=self.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            content=body.get("content") or "",
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=self._attachments(record, body),
            flags=(body.get("flags") or 0) if flags is None else flags,
            interaction_id=interaction.id if interaction else None,
            webhook_id=self.application_id if interaction else None,
        )
        self.messages[message.id] = message
        channel.messages.append(message)
        self._note_file(channel, record, interaction)
        return message

    def _apply_edit(
        self, message: Message, record: Request, body: dict[str, Any] | None = None
    ) -> None:
        body = body if body is not None else (record.json or {})
        message.history.append(message.payload())
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if "components" in body:
            message.components = body["components"] or []
        if "flags" in body and body["flags"] is not None:
            # Whether a message is ephemeral is fixed when it is made (by the defer, too).
            message.flags = (message.flags & EPHEMERAL) | (body["flags"] & ~EPHEMERAL)
        new = self._attachments(record, body)
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or [] if isinstance(a, dict)}
            message.attachments = [a for a in message.attachments if str(a.id) in keep]
        message.attachments.extend(new)
        message.flags &= ~LOADING
        message.edited_at = datetime.now(UTC)
        self._note_file(self.channels[message.channel_id], record, None)

    def _note_file(
        self, channel: Channel, record: Request, interaction: InteractionHandle | None
    ) -> None:
        """Record the first upload answering an interaction: through its token, or posted in
        its channel after it was sent (approximate when interactions share a channel)."""
        if not record.files:
            return
        if interaction is not None:
            interaction.note_file(record.at)
        waiting = self._awaiting_file.pop(channel.id, [])
        for handle in waiting:
            handle.note_file(record.at)

    # ----------------------------------------------------------------- interactions

    async def _callback(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        handle = self.interactions.get(int(match["id"]))
        if handle is None or handle.token != match["token"]:
            raise HTTPError(404, 10062)
        if (
            self.callback_deadline is not None
            and record.at - handle.sent_at > self.callback_deadline
        ):
            raise HTTPError(404, 10062)
        if handle.callbacks:
            raise HTTPError(400, 40060)
        body = record.json or {}
        kind = body.get("type")
        data = body.get("data") or {}
        resource: dict[str, Any] | None = {"type": kind}
        message: Message | None = None
        if kind == 4:
            message = self._new_message(
                handle.channel, self.bot, record, interaction=handle, body=data
            )
            handle.original = message
        elif kind == 5:
            flags = LOADING | ((data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(
                handle.channel, self.bot, record, interaction=handle, body={}, flags=flags
            )
            handle.original = message
        elif kind == 6:
            pass
        elif kind == 7:
            if handle.message is None:
                raise HTTPError(400, 50035, "Invalid Form Body")
            self._apply_edit(handle.message, record, data)
            message = handle.message
        elif kind in (8, 9):
            resource = None
        else:
            raise HTTPError(400, 50035, "Invalid Form Body")
        if message is not None:
            if message not in handle.messages:
                handle.messages.append(message)
            assert resource is not None
            resource["message"] = message.payload()
            if message is not handle.message:
                await self._announce(message)
        handle.note_callback(kind, data, record.at)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(handle.id),
                "type": handle.type,
                "activity_instance_id": None,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.is_ephemeral),
            }
        }
        if resource is not None:
            answer["resource"] = resource
        return answer

    def _webhook_target(self, handle: InteractionHandle, which: str) -> Message:
        if which == "@original":
            message = handle.original or handle.message
            if message is None:
                raise HTTPError(404, 10008)
            return message
        message = self.messages.get(int(which))
        if message is None or message.deleted:
            raise HTTPError(404, 10008)
        return message

    async def _followup(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        handle = self._handle(match["token"])
        if not handle.callbacks:
            raise HTTPError(404, 10015, "Unknown Webhook")
        body = record.json or {}
        original = handle.original
        if original is not None and original.is_loading:
            # Discord fills the deferred "thinking" message with the first follow-up.
            self._apply_edit(original, record)
            message = original
        else:
            message = self._new_message(handle.channel, self.bot, record, interaction=handle)
            handle.messages.append(message)
            await self._announce(message)
        handle.note_followup(record.at)
        if (record.query.get("wait") or "").lower() in ("1", "true"):
            return message.payload()
        del body
        return web.Response(status=204)

    async def _get_webhook_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        handle = self._handle(match["token"])
        return self._webhook_target(handle, match["message"]).payload()

    async def _edit_webhook_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        handle = self._handle(match["token"])
        message = self._webhook_target(handle, match["message"])
        self._apply_edit(message, record)
        if message not in handle.messages:
            handle.messages.append(message)
        handle.note_followup(record.at)
        return message.payload()

    async def _delete_webhook_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        handle = self._handle(match["token"])
        self._webhook_target(handle, match["message"]).deleted = True
        return web.Response(status=204)

    # ----------------------------------------------------------------- queries for tests

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


def _guess_type(filename: str, given: str | None) -> str | None:
    lowered = filename.lower()
    for suffix, kind in (
        (".png", "image/png"),
        (".gif", "image/gif"),
        (".sgf", "application/x-go-sgf"),
    ):
        if lowered.endswith(suffix):
            return kind
    if given and given != "application/octet-stream":
        return given
    return "text/plain" if lowered.endswith(".txt") else given
