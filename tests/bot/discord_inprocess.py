"""Drive the real bot in-process: Discord-shaped interaction payloads in, recorded REST calls out.

The bot is built by ``create_bot`` and set up as on login (``setup_hook``), but nothing goes
over the network: the client's ``HTTPClient.request`` and the webhook adapter (interaction
callbacks and follow-ups) are replaced by ``FakeRest``, which records each call and answers
with plausible JSON, or, for a body over one of Discord's limits (content, embeds, components,
choices, thread names: ``tests.fakediscord.limits``), with Discord's 400 / 50035 refusal.
Payloads go through ``ConnectionState.parse_interaction_create``, so
discord.py's own CommandTree, view store and dynamic-item dispatch run exactly as live.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.app import DotsBot, create_bot
from bot.config import Settings
from bot.games import GameService
from tests.fakediscord import limits
from tests.fakediscord.records import HTTPError

APP_ID = 900_000_000_000_000_001
BOT_USER_ID = APP_ID
GUILD_ID = 910_000_000_000_000_001
CHANNEL_ID = 920_000_000_000_000_001
EPHEMERAL = 64
ADMIN_PERMISSIONS = str(1 << 5 | 1 << 11 | 1 << 10)  # manage guild, send messages, view
MEMBER_PERMISSIONS = str(1 << 11 | 1 << 10)

_ids = itertools.count(930_000_000_000_000_001)


def snowflake() -> int:
    """A fresh snowflake-sized id."""
    return next(_ids)


def user_json(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A Discord user object."""
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


@dataclass
class Call:
    """One REST call the bot made."""

    method: str
    path: str
    payload: dict[str, Any] | list[Any] | None
    files: list[tuple[str, bytes]] = field(default_factory=list)

    @property
    def content(self) -> str:
        """The message text sent (callbacks nest it under ``data``)."""
        body = self.payload if isinstance(self.payload, dict) else {}
        body = body.get("data", body) or {}
        return str(body.get("content") or "")

    @property
    def flags(self) -> int:
        """The message flags sent (64 = ephemeral)."""
        body = self.payload if isinstance(self.payload, dict) else {}
        body = body.get("data", body) or {}
        return int(body.get("flags") or 0)

    @property
    def is_ephemeral(self) -> bool:
        """Whether the call answered privately."""
        return bool(self.flags & EPHEMERAL)

    @property
    def kind(self) -> int | None:
        """The interaction callback type (4 message, 5 defer, 7 update, 8 autocomplete)."""
        if isinstance(self.payload, dict) and "type" in self.payload and "callback" in self.path:
            return int(self.payload["type"])
        return None

    def custom_ids(self) -> list[str]:
        """The custom ids of the components sent."""
        body = self.payload if isinstance(self.payload, dict) else {}
        body = body.get("data", body) or {}
        return [
            item["custom_id"]
            for row in body.get("components") or []
            for item in row.get("components", [])
            if "custom_id" in item
        ]


class FakeRest:
    """Records the bot's REST calls and answers them like Discord would (roughly).

    ``forbid`` holds path fragments whose calls fail with 403 Forbidden (e.g. ``"/threads"``
    for a channel without threads, or a DM channel's messages).
    """

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.forbid: set[str] = set()
        self.users: dict[int, dict[str, Any]] = {}
        self.interaction_channels: dict[str, int] = {}
        self.threads: dict[int, str] = {}
        # The message a component interaction came from, by token (type 7 callbacks edit it).
        self.interaction_messages: dict[str, int] = {}
        # Tokens of clicks deferred as an update (type 6): their "@original" is that message.
        self.deferred_updates: set[str] = set()
        self.dm_channel: int | None = None

    # -- recording -------------------------------------------------------------------------

    def _record(
        self, method: str, path: str, payload: Any, files: list[discord.File] | None
    ) -> Call:
        blobs = []
        for f in files or []:
            f.fp.seek(0)
            blobs.append((f.filename, f.fp.read()))
            f.fp.seek(0)
        call = Call(method, path, payload, blobs)
        self.calls.append(call)
        for fragment in self.forbid:
            if fragment in path and method != "GET":
                response = SimpleNamespace(status=403, reason="Forbidden")
                raise discord.Forbidden(response, {"code": 50013, "message": "Missing Access"})
        if method in ("POST", "PATCH") and isinstance(payload, dict):
            check_limits(path, payload)
        return call

    def message(
        self, channel_id: int, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> dict[str, Any]:
        """Store and return a message object built from what the bot sent."""
        message_id = snowflake()
        data = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "guild_id": str(GUILD_ID),
            "author": user_json(BOT_USER_ID, "dots", bot=True),
            "content": body.get("content") or "",
            "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(snowflake()),
                    "filename": name,
                    "size": len(blob),
                    "url": f"https://cdn.example/{name}",
                    "proxy_url": f"https://cdn.example/{name}",
                }
                for name, blob in files
            ],
            "embeds": body.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0),
            "components": body.get("components") or [],
        }
        self.messages[message_id] = data
        return data

    def edit(self, message_id: int, body: dict[str, Any]) -> dict[str, Any]:
        """Apply an edit to a stored message."""
        data = self.messages.get(message_id)
        if data is None:
            data = self.message(CHANNEL_ID, {}, [])
            del self.messages[int(data["id"])]
            data["id"] = str(message_id)
            self.messages[message_id] = data
        for key in ("content", "components", "embeds"):
            if key in body and body[key] is not None:
                data[key] = body[key]
        return data

    # -- the two entry points ----------------------------------------------------------------

    async def request(
        self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any
    ) -> Any:
        """Stands in for ``HTTPClient.request``."""
        payload = kwargs.get("json")
        if payload is None and form:
            for part in form:
                if part.get("name") == "payload_json":
                    payload = json.loads(part["value"])
        method, path = route.method, _path(route)
        call = self._record(method, path, payload, files)
        parts = path.strip("/").split("/")
        body = payload if isinstance(payload, dict) else {}
        if method == "PUT" and path.endswith("/commands"):
            return [
                dict(cmd, id=str(snowflake()), application_id=str(APP_ID), version="1")
                for cmd in payload or []
            ]
        if parts[0] == "users" and method == "GET":
            user_id = int(parts[1])
            return self.users.get(user_id, user_json(user_id, f"user{user_id % 1000}"))
        if path == "/users/@me/channels":
            recipient = int(body["recipient_id"])
            self.dm_channel = snowflake()
            return {
                "id": str(self.dm_channel),
                "type": 1,
                "recipients": [user_json(recipient, "someone")],
                "last_message_id": None,
            }
        if parts[0] == "channels" and parts[-1] == "threads":
            if int(parts[1]) in self.threads:
                # As Discord: no thread inside a thread (50024, wrong channel type).
                response = SimpleNamespace(status=400, reason="Bad Request")
                raise discord.HTTPException(
                    response,
                    {"code": 50024, "message": "Cannot execute action on this channel type"},
                )
            thread_id = snowflake()
            self.threads[thread_id] = body.get("name", "thread")
            return {
                "id": str(thread_id),
                "guild_id": str(GUILD_ID),
                "parent_id": parts[1],
                "owner_id": str(BOT_USER_ID),
                "name": body.get("name", "thread"),
                "type": 11,
                "last_message_id": None,
                "message_count": 0,
                "member_count": 1,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": datetime.now(UTC).isoformat(),
                    "locked": False,
                },
            }
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            return self.message(int(parts[1]), body, call.files)
        if parts[0] == "channels" and parts[-2] == "messages" and method == "PATCH":
            return self.edit(int(parts[-1]), body)
        return {}

    async def webhook_request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        """Stands in for ``AsyncWebhookAdapter.request`` (interaction callbacks, follow-ups)."""
        payload = kwargs.get("payload")
        if payload is None and kwargs.get("multipart"):
            for part in kwargs["multipart"]:
                if part.get("name") == "payload_json":
                    payload = json.loads(part["value"])
        method, path = route.method, _path(route)
        call = self._record(method, path, payload, kwargs.get("files"))
        body = payload if isinstance(payload, dict) else {}
        parts = path.strip("/").split("/")
        if path.endswith("/callback"):
            kind = int(body.get("type", 0))
            data = body.get("data") or {}
            token = parts[2]
            channel_id = self.interaction_channels.get(token, CHANNEL_ID)
            interaction = {
                "id": parts[1],
                "type": 2,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
            if kind in (4, 5):
                message = self.message(channel_id, data, call.files)
                interaction["response_message_id"] = message["id"]
                return {"interaction": interaction, "resource": {"type": kind, "message": message}}
            if kind == 6:
                self.deferred_updates.add(token)
            if kind == 7 and token in self.interaction_messages:
                message = self.edit(self.interaction_messages[token], data)
                return {"interaction": interaction, "resource": {"type": kind, "message": message}}
            return {"interaction": interaction, "resource": {"type": kind}}
        if method == "GET":  # the original response, fetched again
            return self.message(self.interaction_channels.get(parts[2], CHANNEL_ID), {}, [])
        if method == "PATCH":
            if parts[-1] == "@original":
                # The answer to a click deferred as an update is the clicked message.
                token = parts[2]
                updated = token in self.deferred_updates
                message_id = self.interaction_messages.get(token) if updated else None
                message_id = message_id or snowflake()
                return self.edit(message_id, body)
            return self.edit(int(parts[-1]), body)
        token = parts[2] if len(parts) > 2 else ""
        return self.message(self.interaction_channels.get(token, CHANNEL_ID), body, call.files)

    # -- reading ---------------------------------------------------------------------------

    def since(self, mark: int) -> list[Call]:
        """The calls made after ``mark`` (a length of ``calls``)."""
        return self.calls[mark:]


def check_limits(path: str, body: dict[str, Any]) -> None:
    """Refuse, as Discord does, a body over one of its limits.

    Raises:
        discord.HTTPException: 400 / 50035 "Invalid Form Body", naming the fields.
    """
    try:
        if path.endswith("/callback"):
            data = body.get("data") or {}
            if body.get("type") == 8:
                limits.check_choices(data)
            else:
                limits.check_message(data, at=("data",))
        elif path.endswith("/threads"):
            limits.check_thread_name(body.get("name"))
        else:
            limits.check_message(body)
    except HTTPError as error:
        response = SimpleNamespace(status=error.status, reason="Bad Request")
        raise discord.HTTPException(
            response, {"code": error.code, "message": error.message, "errors": error.errors}
        ) from None


def _path(route: Any) -> str:
    """A route's path without the API base, e.g. ``/channels/1/messages``."""
    return "/" + route.url.split("/api/v10/", 1)[-1].split("?", 1)[0]


class Member:
    """A server member to act as in payloads."""

    def __init__(self, user_id: int, name: str, *, admin: bool = False, bot: bool = False) -> None:
        self.id = user_id
        self.name = name
        self.admin = admin
        self.bot = bot

    def user(self) -> dict[str, Any]:
        """The user object."""
        return user_json(self.id, self.name, bot=self.bot)

    def member(self) -> dict[str, Any]:
        """The member object as interactions carry it (with the user and permissions)."""
        return {
            "user": self.user(),
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": ADMIN_PERMISSIONS if self.admin else MEMBER_PERMISSIONS,
        }


def channel_json(channel_id: int, *, name: str = "general", thread: bool = False) -> dict[str, Any]:
    """A channel object as interactions carry it (a text channel or a public thread)."""
    data: dict[str, Any] = {
        "id": str(channel_id),
        "guild_id": str(GUILD_ID),
        "name": name,
        "type": 11 if thread else 0,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": str(CHANNEL_ID) if thread else None,
    }
    if thread:
        data |= {
            "owner_id": str(BOT_USER_ID),
            "message_count": 1,
            "member_count": 2,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                "locked": False,
            },
        }
    return data


GAMES_CHANNEL_ID = 950_000_000_000_000_001


def guild_json() -> dict[str, Any]:
    """The test server as GUILD_CREATE describes it (two text channels, no member list)."""
    everyone = {
        "id": str(GUILD_ID),
        "name": "@everyone",
        "permissions": MEMBER_PERMISSIONS,
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
    }
    return {
        "id": str(GUILD_ID),
        "name": "Dots club",
        "owner_id": str(BOT_USER_ID),
        "roles": [everyone],
        "channels": [channel_json(CHANNEL_ID), channel_json(GAMES_CHANNEL_ID, name="games")],
        "member_count": 5,
        "features": [],
        "emojis": [],
        "stickers": [],
    }


class Harness:
    """A DotsBot set up in-process over a real GameService, with helpers to send payloads."""

    def __init__(self, bot: DotsBot, rest: FakeRest, service: GameService) -> None:
        self.bot = bot
        self.rest = rest
        self.service = service
        self.commands: dict[str, int] = {}

    @classmethod
    async def start(
        cls, service: GameService, monkeypatch: Any, *, dev_guild: int | None = None
    ) -> Harness:
        """Build the bot with ``create_bot`` and run its ``setup_hook`` against FakeRest."""
        rest = FakeRest()
        settings = Settings(token="", database=service_path(service), dev_guild=dev_guild)
        bot = create_bot(settings, service=service, application_id=APP_ID)
        monkeypatch.setattr(bot.http, "request", rest.request)
        monkeypatch.setattr(AsyncWebhookAdapter, "request", _adapter_request(rest))
        await bot._async_setup_hook()
        # What READY would give: who the bot is.
        me = user_json(BOT_USER_ID, "dots", bot=True) | {"verified": True, "mfa_enabled": False}
        bot._connection.user = discord.ClientUser(state=bot._connection, data=me)  # type: ignore[arg-type]
        # What GUILD_CREATE would give: the server and its text channels.
        bot._connection._add_guild_from_data(guild_json())  # type: ignore[arg-type]
        await bot.setup_hook()
        return cls(bot, rest, service)

    async def close(self) -> None:
        """Stop the bot's clocks (the service stays open for the test to close)."""
        await self.bot.close()

    # -- sending payloads ------------------------------------------------------------------

    def _base(
        self, kind: int, member: Member, channel_id: int, data: dict[str, Any]
    ) -> dict[str, Any]:
        token = f"token-{snowflake()}"
        self.rest.interaction_channels[token] = channel_id
        thread = channel_id in self.rest.threads
        return {
            "id": str(snowflake()),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": channel_json(
                channel_id, name=self.rest.threads.get(channel_id, "general"), thread=thread
            ),
            "member": member.member(),
            "token": token,
            "version": 1,
            "app_permissions": "2251799813685247",
            "locale": "en-GB",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024,
        }

    def _command_data(
        self, name: str, options: dict[str, Any], users: list[Member], focused: str | None
    ) -> dict[str, Any]:
        parts = name.split()
        opts = []
        for key, value in options.items():
            if isinstance(value, Member):
                opt = {"name": key, "type": 6, "value": str(value.id)}
            elif isinstance(value, bool):
                opt = {"name": key, "type": 5, "value": value}
            elif isinstance(value, int):
                opt = {"name": key, "type": 4, "value": value}
            elif isinstance(value, Channel):
                opt = {"name": key, "type": 7, "value": str(value.id)}
            else:
                opt = {"name": key, "type": 3, "value": value}
            if key == focused:
                opt["focused"] = True
            opts.append(opt)
        if len(parts) == 2:
            opts = [{"name": parts[1], "type": 1, "options": opts}]
        resolved: dict[str, Any] = {}
        if users:
            resolved["users"] = {str(u.id): u.user() for u in users}
            resolved["members"] = {
                str(u.id): {k: v for k, v in u.member().items() if k != "user"} for u in users
            }
        channels = [v for v in options.values() if isinstance(v, Channel)]
        if channels:
            resolved["channels"] = {
                str(c.id): {"id": str(c.id), "name": c.name, "type": 0, "permissions": "0"}
                for c in channels
            }
        command_id = self.commands.setdefault(parts[0], snowflake())
        data: dict[str, Any] = {"id": str(command_id), "name": parts[0], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self, member: Member, name: str, *, channel_id: int = CHANNEL_ID, **options: Any
    ) -> list[Call]:
        """Run a slash command (``name`` may be ``"dots-admin cancel"``); the calls it made."""
        users = [v for v in options.values() if isinstance(v, Member)]
        data = self._command_data(name, options, users, None)
        return await self.dispatch(self._base(2, member, channel_id, data))

    async def autocomplete(
        self,
        member: Member,
        name: str,
        focused: str,
        *,
        channel_id: int = CHANNEL_ID,
        **options: Any,
    ) -> list[str]:
        """Ask for autocomplete choices of option ``focused``; the choice values."""
        data = self._command_data(name, options, [], focused)
        calls = await self.dispatch(self._base(4, member, channel_id, data))
        callbacks = [c for c in calls if c.kind == 8]
        assert len(callbacks) == 1, calls
        payload = callbacks[0].payload
        assert isinstance(payload, dict)
        return [choice["value"] for choice in payload["data"]["choices"]]

    async def click(
        self,
        member: Member,
        message: dict[str, Any],
        custom_id: str,
        *,
        values: list[str] | None = None,
    ) -> list[Call]:
        """Click a button (or choose ``values`` in a menu) on a message the bot sent."""
        component_type = 3 if values is not None else 2
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        channel_id = int(message["channel_id"])
        payload = self._base(3, member, channel_id, data)
        payload["message"] = message
        self.rest.interaction_messages[payload["token"]] = int(message["id"])
        return await self.dispatch(payload)

    async def dispatch(self, payload: dict[str, Any]) -> list[Call]:
        """Feed one INTERACTION_CREATE payload to discord.py and wait for its handlers."""
        mark = len(self.rest.calls)
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await settle()
        return self.rest.since(mark)

    # -- reading what the bot sent ------------------------------------------------------------

    def last_message_with(self, custom_id_prefix: str) -> dict[str, Any]:
        """The latest stored message with a component whose custom id starts so."""
        for data in reversed(list(self.rest.messages.values())):
            for row in data.get("components") or []:
                for item in row.get("components", []):
                    if str(item.get("custom_id", "")).startswith(custom_id_prefix):
                        return data
        raise AssertionError(f"no message with a {custom_id_prefix!r} component")

    def threads(self) -> dict[int, str]:
        """The threads the bot created: id to name."""
        return dict(self.rest.threads)


@dataclass(frozen=True)
class Channel:
    """A channel given as a command option."""

    id: int
    name: str = "games"


class Clock:
    """A settable clock for the service."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now


@dataclass
class World:
    """The bot in-process over a service on a SQLite file, with the service's clock (the
    ``world`` fixture of tests/bot/conftest.py)."""

    harness: Harness
    service: GameService
    clock: Clock
    db: Path

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table: what "changing nothing" is checked against."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as con:
            tables = [
                r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            return {t: sorted(map(tuple, con.execute(f"SELECT * FROM {t}"))) for t in tables}


def _adapter_request(rest: FakeRest) -> Any:
    async def request(
        self: AsyncWebhookAdapter, route: Any, session: Any = None, **kwargs: Any
    ) -> Any:
        return await rest.webhook_request(route, session, **kwargs)

    return request


def service_path(service: GameService) -> Any:
    """The database path of a service, for the Settings (not used when a service is given)."""
    return getattr(getattr(service, "store", None), "path", "unused.sqlite3")


def _is_clock_task(task: asyncio.Task[Any]) -> bool:
    # Timers, not handlers: the clocks' sleepers and discord.py's view time-outs.
    name = getattr(task.get_coro(), "__qualname__", "")
    return "Clocks" in name or "timeout_task" in name


async def settle(timeout: float = 10.0) -> None:
    """Wait until every task but the clocks' sleepers is done (handlers and their follow-ups)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        current = asyncio.current_task()
        pending = [
            t
            for t in asyncio.all_tasks()
            if t is not current and not t.done() and not _is_clock_task(t)
        ]
        if not pending:
            # One more turn: a finished handler may have scheduled a follow-up.
            await asyncio.sleep(0)
            if not [
                t
                for t in asyncio.all_tasks()
                if t is not current and not t.done() and not _is_clock_task(t)
            ]:
                return
            continue
        await asyncio.wait(pending, timeout=deadline - loop.time())
    stuck = [t for t in asyncio.all_tasks() if not t.done() and not _is_clock_task(t)]
    raise AssertionError(f"handlers did not finish in time: {stuck}")
