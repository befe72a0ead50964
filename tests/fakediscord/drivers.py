"""Drivers: users act through the fake (slash commands, autocomplete, buttons, selects, modals).

Each action sends an INTERACTION_CREATE event to the connected bot and returns an
``InteractionHandle`` that records what the bot answered and when.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tests.fakediscord.gateway import Gateway
from tests.fakediscord.installs import check_command_offered, interaction_origin
from tests.fakediscord.state import Channel, Guild, Message, Role, User

if TYPE_CHECKING:
    from tests.fakediscord.records import Request
    from tests.fakediscord.world import World

# Interaction types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5

# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10

# Names of interaction callback types, for readable assertions and reports.
CALLBACK_NAMES = {
    4: "message",
    5: "deferred message",
    6: "deferred update",
    7: "update message",
    8: "autocomplete result",
    9: "modal",
}


@dataclass
class Callback:
    """The bot's answer to an interaction: callback type, its data and when it arrived."""

    type: int
    data: dict[str, Any]
    at: float

    @property
    def name(self) -> str:
        """A readable name of the callback type."""
        return CALLBACK_NAMES.get(self.type, str(self.type))

    @property
    def is_ephemeral(self) -> bool:
        """Whether the callback asked for a reply only the user sees."""
        return bool((self.data.get("flags") or 0) & 64)


class InteractionHandle:
    """One interaction sent to the bot and everything the bot did in answer to it."""

    def __init__(
        self,
        fake: World,
        *,
        type: int,
        user: User,
        channel: Channel,
        guild: Guild | None,
        data: dict[str, Any],
        message: Message | None = None,
    ) -> None:
        self.fake = fake
        self.id = fake.snowflakes.next()
        self.token = "itok-" + secrets.token_urlsafe(24)
        self.type = type
        self.user = user
        self.channel = channel
        self.guild = guild
        self.data = data
        self.message = message
        self.original: Message | None = None
        self.messages: list[Message] = []
        # The ids of messages of this interaction the bot edited (through its token: the
        # deferral's "thinking..." filled in by an edit, say) and deleted, in order.
        self.edited: list[int] = []
        self.deleted: list[int] = []
        self.callbacks: list[Callback] = []
        self.failures: list[Request] = []
        self.sent_at = 0.0
        self.first_response_at: float | None = None
        self.first_file_at: float | None = None
        self.last_activity_at: float | None = None

    def __repr__(self) -> str:
        names = [c.name for c in self.callbacks]
        return f"<InteractionHandle id={self.id} type={self.type} callbacks={names}>"

    # ---- called by the server
    def note_callback(self, kind: int, data: dict[str, Any], at: float) -> None:
        """Record the interaction callback."""
        self.callbacks.append(Callback(type=kind, data=data, at=at))
        self._note_activity(at)

    def note_followup(self, at: float) -> None:
        """Record a follow-up message or an edit of a response."""
        self._note_activity(at)

    def note_file(self, at: float) -> None:
        """Record a file upload made in answer to this interaction."""
        if self.first_file_at is None:
            self.first_file_at = at

    def _note_activity(self, at: float) -> None:
        if self.first_response_at is None:
            self.first_response_at = at
        self.last_activity_at = at

    # ---- timings
    @property
    def response_latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE sent to the bot's first callback (None if none yet)."""
        return None if self.first_response_at is None else self.first_response_at - self.sent_at

    @property
    def file_latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE sent to the first file uploaded in answer."""
        return None if self.first_file_at is None else self.first_file_at - self.sent_at

    # ---- waiting
    async def response(self, timeout: float = 5.0) -> Callback:
        """The bot's interaction callback, waiting for it if needed.

        Raises:
            TimeoutError: if the bot did not answer in ``timeout`` seconds.
        """
        await self.fake.wait_until(lambda: self.callbacks, timeout, poll=None)
        return self.callbacks[0]

    async def reply(self, timeout: float = 5.0) -> Message:
        """The first filled-in message answering this interaction (after any defer)."""
        message: Message = await self.fake.wait_until(
            lambda: next(iter(self.replies()), None), timeout, poll=None
        )
        return message

    async def wait_replies(self, count: int, timeout: float = 5.0) -> list[Message]:
        """Wait until at least ``count`` filled-in messages answer this interaction."""
        await self.fake.wait_until(lambda: len(self.replies()) >= count, timeout, poll=None)
        return self.replies()

    async def choices(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """The autocomplete choices the bot offered."""
        callback = await self.response(timeout)
        assert callback.type == 8, f"expected an autocomplete result, got {callback.name}"
        return list(callback.data.get("choices", []))

    async def modal(self, timeout: float = 5.0) -> dict[str, Any]:
        """The modal the bot opened (its custom_id, title and components)."""
        callback = await self.response(timeout)
        assert callback.type == 9, f"expected a modal, got {callback.name}"
        return callback.data

    async def failed(self, timeout: float = 5.0) -> Request:
        """The first request answering this interaction that got an error status."""
        await self.fake.wait_until(lambda: self.failures, timeout, poll=None)
        return self.failures[0]

    def replies(self) -> list[Message]:
        """Messages (not deferred placeholders) made in answer, including an updated message."""
        return [m for m in self.messages if not m.is_loading and not m.deleted]


class Drivers(Gateway):
    """What users do: each action is an INTERACTION_CREATE sent to the bot."""

    async def slash(
        self,
        user: User,
        command: str,
        /,
        *,
        channel: Channel,
        options: list[dict[str, Any]] | None = None,
        validate: bool = True,
        opts: dict[str, Any] | None = None,
        **values: Any,
    ) -> InteractionHandle:
        """``user`` runs ``/command`` in ``channel`` with option ``values``.

        ``command`` may name a subcommand: ``"dots move"``. Values are Python values (str, int,
        float, bool, ``User``, ``Channel``, ``Role``); option names with hyphens can be given with
        underscores; options named like this method's keywords (``channel``, ``options``, ...)
        go in ``opts``. ``options`` sends a raw option list instead (for junk), and
        ``validate=False`` lets through what Discord's client would refuse (missing required
        options, values outside the choices, unknown options).
        """
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        values = {**(opts or {}), **values}
        if validate:
            root = self.find_command(command.split(maxsplit=1)[0], guild)
            check_command_offered(self, root, user, channel, guild)
        data = self._command_data(
            user, command, guild, options, validate=validate, values=values, focused=None
        )
        return await self._send(APPLICATION_COMMAND, user, channel, data)

    async def autocomplete(
        self,
        user: User,
        command: str,
        /,
        *,
        channel: Channel,
        focused: str,
        opts: dict[str, Any] | None = None,
        **values: Any,
    ) -> InteractionHandle:
        """``user`` is typing option ``focused`` of ``/command``; await ``handle.choices()``.

        ``values`` holds what is filled in so far, the focused option's text included.
        """
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        values = {**(opts or {}), **values}
        data = self._command_data(
            user, command, guild, None, validate=False, values=values, focused=focused
        )
        return await self._send(AUTOCOMPLETE, user, channel, data)

    async def click(self, user: User, message: Message, custom_id: str) -> InteractionHandle:
        """``user`` clicks the button ``custom_id`` on ``message``.

        Raises:
            ValueError: if the message has no such button or it is disabled (Discord's client
                would not let anyone click it).
        """
        for button in message.buttons():
            if button.get("custom_id") == custom_id:
                if button.get("disabled"):
                    raise ValueError(f"button {custom_id!r} is disabled")
                break
        else:
            raise ValueError(
                f"no button {custom_id!r} on message {message.id}: {message.custom_ids()}"
            )
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send(
            MESSAGE_COMPONENT, user, self.channels[message.channel_id], data, message=message
        )

    async def select(
        self, user: User, message: Message, custom_id: str, values: list[str]
    ) -> InteractionHandle:
        """``user`` picks ``values`` in the string select ``custom_id`` on ``message``."""
        if custom_id not in message.custom_ids():
            raise ValueError(f"no component {custom_id!r} on message {message.id}")
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return await self._send(
            MESSAGE_COMPONENT, user, self.channels[message.channel_id], data, message=message
        )

    async def submit_modal(
        self, user: User, opened_by: InteractionHandle, values: dict[str, str]
    ) -> InteractionHandle:
        """``user`` submits the modal the bot opened in answer to ``opened_by``."""
        modal = await opened_by.modal()
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": custom_id, "value": value}]}
            for custom_id, value in values.items()
        ]
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self._send(
            MODAL_SUBMIT, user, opened_by.channel, data, message=opened_by.message
        )

    async def send_interaction(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
    ) -> InteractionHandle:
        """Send an arbitrary interaction (for cases the other drivers do not cover)."""
        return await self._send(kind, user, channel, data, message=message)

    # ---- languages
    def set_locale(self, user: User, locale: str) -> None:
        """Set the language of ``user``'s client (``"pl"``, ``"ru"``, ``"en-US"``...): their
        interactions carry it as ``locale``."""
        user.locale = locale

    def set_guild_locale(self, guild: Guild, locale: str) -> None:
        """Set a server's primary language: interactions carry it as ``guild_locale``."""
        guild.locale = locale

    # ---- internals
    async def _send(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        *,
        message: Message | None = None,
    ) -> InteractionHandle:
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        if guild is not None and user.id not in guild.members:
            self.add_member(guild, user)
        handle = InteractionHandle(
            self, type=kind, user=user, channel=channel, guild=guild, data=data, message=message
        )
        payload: dict[str, Any] = {
            "id": str(handle.id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "channel": {**channel.payload(), "permissions": str(self._permissions(guild, user))},
            "token": handle.token,
            "version": 1,
            "app_permissions": str(self._permissions(guild, self.bot)),
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": self.upload_limit,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = guild.partial()
            payload["guild_locale"] = guild.locale
            payload["member"] = guild.members[user.id].payload(
                permissions=guild.permissions_of(user.id)
            )
        else:
            payload["user"] = user.payload()
        payload |= interaction_origin(self, user, channel, guild)
        if message is not None:
            payload["message"] = message.payload()
        self.interactions[handle.id] = handle
        self.interactions_by_token[handle.token] = handle
        self._awaiting_file.setdefault(channel.id, []).append(handle)
        handle.sent_at = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", payload)
        return handle

    def _permissions(self, guild: Guild | None, user: User) -> int:
        if guild is None:
            return (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16)
        return guild.permissions_of(user.id)

    def _command_data(
        self,
        user: User,
        command: str,
        guild: Guild | None,
        raw: list[dict[str, Any]] | None,
        *,
        validate: bool,
        values: dict[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        root_name, *path = command.split()
        root = self.find_command(root_name, guild)
        schema = root.get("options", [])
        wrappers: list[dict[str, Any]] = []
        for part in path:
            sub = next((o for o in schema if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise KeyError(f"/{root_name} has no subcommand {part!r}")
            wrappers.append({"type": sub["type"], "name": part})
            schema = sub.get("options", [])
        resolved: dict[str, dict[str, Any]] = {}
        if raw is not None:
            leaf = raw
        else:
            leaf = self._options(
                schema, values, guild, resolved, validate=validate, focused=focused
            )
        options = leaf
        for wrapper in reversed(wrappers):
            options = [{**wrapper, "options": options}]
        data: dict[str, Any] = {"id": root["id"], "name": root_name, "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        if root.get("guild_id"):
            data["guild_id"] = root["guild_id"]
        return data

    def _options(
        self,
        schema: list[dict[str, Any]],
        values: dict[str, Any],
        guild: Guild | None,
        resolved: dict[str, dict[str, Any]],
        *,
        validate: bool,
        focused: str | None,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        out: list[dict[str, Any]] = []
        for given, value in values.items():
            name = given if given in by_name else given.replace("_", "-")
            spec = by_name.get(name)
            if spec is None:
                if validate:
                    raise KeyError(f"no option {given!r}; the command has {sorted(by_name)}")
                out.append({"type": STRING, "name": given, "value": str(value)})
                continue
            kind = spec["type"]
            option: dict[str, Any] = {"type": kind, "name": name}
            if name == focused:
                option["focused"] = True
                option["value"] = value if isinstance(value, str) else str(value)
            else:
                option["value"] = self._option_value(kind, value, guild, resolved)
                choices = [c["value"] for c in spec.get("choices") or []]
                if validate and choices and option["value"] not in choices:
                    raise ValueError(f"{value!r} is not one of the choices of {name!r}: {choices}")
            out.append(option)
        if validate and focused is None:
            missing = [
                o["name"]
                for o in schema
                if o.get("required") and o["name"] not in {x["name"] for x in out}
            ]
            if missing:
                raise ValueError(f"missing required options {missing}")
        return out

    def _option_value(
        self,
        kind: int,
        value: Any,
        guild: Guild | None,
        resolved: dict[str, dict[str, Any]],
    ) -> Any:
        if kind == STRING:
            return value if isinstance(value, str) else str(value)
        if kind == INTEGER:
            return int(value)
        if kind == NUMBER:
            return float(value)
        if kind == BOOLEAN:
            return bool(value)
        if kind in (USER, MENTIONABLE) and isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if guild is not None and value.id in guild.members:
                member = guild.members[value.id].payload(permissions=guild.permissions_of(value.id))
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if kind == CHANNEL and isinstance(value, Channel):
            entry = value.payload()
            entry["permissions"] = str(self._permissions(guild, self.bot))
            resolved.setdefault("channels", {})[str(value.id)] = entry
            return str(value.id)
        if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        # Snowflake options given as raw ids (junk tests): send as is.
        return str(value)
