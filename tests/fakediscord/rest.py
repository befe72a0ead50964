"""The fake REST API: routing, recording, faults, and the endpoints a game bot uses."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakediscord.components_v2 import attached_names, check_components_v2
from tests.fakediscord.faults import error_body
from tests.fakediscord.gateway import Gateway
from tests.fakediscord.installs import check_bot_may_post, check_bot_may_read
from tests.fakediscord.limits import (
    FormErrors,
    check_commands,
    check_files,
    check_message,
    check_thread_name,
)
from tests.fakediscord.rate_limits import rate_limited
from tests.fakediscord.records import HTTPError, Request, UploadedFile, json_response
from tests.fakediscord.state import (
    DM,
    EPHEMERAL,
    GUILD_TEXT,
    LOADING,
    PUBLIC_THREAD,
    Attachment,
    Channel,
    Message,
    User,
)

if TYPE_CHECKING:
    from tests.fakediscord.drivers import InteractionHandle

_log = logging.getLogger(__name__)

Handler = Callable[[web.Request, re.Match[str], Request], Awaitable[Any]]

# How long Discord remembers a message's nonce for ``enforce_nonce`` ("a few minutes", its
# developer documentation of Create Message); and the longest nonce it takes.
NONCE_WINDOW = 180.0
NONCE_MAX = 25


class Rest(Gateway):
    """REST plumbing and the channel, message, thread, DM and command endpoints."""

    _routes: list[tuple[str, re.Pattern[str], Handler]]

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
        delay = self.faults.delay(record.method, path)
        if delay:
            await asyncio.sleep(delay)
            if request.transport is None or request.transport.is_closing():
                # The client went away meanwhile (its process was killed): as on a real
                # server, a request whose connection died before it was handled did nothing.
                record.status = 499
                return web.Response(status=499)
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
                return json_response(
                    error_body(exc.code, exc.message, exc.errors), status=exc.status
                )
            if isinstance(result, web.Response):
                record.status = result.status
                return result
            record.status = 200
            return json_response(result)
        record.status = 404
        self.unrouted.append(record)
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
        if time.perf_counter() - handle.sent_at > self.webhook_token_lifetime:
            raise HTTPError(401, 50027)  # an interaction's token answers for 15 minutes
        return handle

    def check_sent(
        self,
        record: Request,
        body: dict[str, Any],
        *,
        at: tuple[str, ...] = (),
        message: Message | None = None,
    ) -> None:
        """Refuse, as Discord does, a message body or upload over Discord's limits (and the
        rules of Components V2, see ``components_v2``); ``message``: the message edited.

        Raises:
            HTTPError: 400 / 50035 for a field over its limit or too many files; 413 / 40005
                for a file over the upload limit.
        """
        errors = FormErrors()
        v2 = check_components_v2(
            body,
            at=at,
            errors=errors,
            attached=attached_names(record, body, message),
            before_flags=None if message is None else message.flags,
        )
        check_message(body, at=at, errors=errors, v2=v2)
        check_files(record.files, size_limit=self.upload_limit)

    # ----------------------------------------------------------------- simple endpoints

    async def _get_gateway(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        return {
            "url": self.gateway_url,
            "shards": self.recommended_shards,
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
        check_commands(record.json)  # Discord's 50035 for a bad name or localisation
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
        channel = self._channel(match)
        check_bot_may_read(self, channel)
        return channel.payload()

    async def _edit_channel(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        channel = self._channel(match)
        body = record.json or {}
        if "name" in body:
            check_thread_name(body["name"])
        channel.name = body.get("name", channel.name)
        channel.archived = body.get("archived", channel.archived)
        channel.locked = body.get("locked", channel.locked)
        if channel.is_thread and channel.guild_id is not None:
            await self._dispatch_quietly("THREAD_UPDATE", channel.payload())
        return channel.payload()

    async def _history(self, request: web.Request, match: re.Match[str], record: Request) -> Any:
        channel = self._channel(match)
        check_bot_may_read(self, channel)
        limit = int(record.query.get("limit", 50))
        visible = channel.visible_messages()
        return [m.payload() for m in reversed(visible)][:limit]

    async def _get_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        channel = self._channel(match)
        check_bot_may_read(self, channel)
        return self._message(channel, int(match["message"])).payload()

    async def _post_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        channel = self._channel(match)
        check_bot_may_post(self, channel)
        if channel.type == DM and channel.recipient is not None and channel.recipient.dms_closed:
            raise HTTPError(403, 50007)
        if channel.is_thread and (channel.archived or channel.locked):
            # An archived thread is reopened by a post; a locked one refuses the bot too.
            if channel.locked:
                raise HTTPError(403, 50083, "Thread is archived")
            channel.archived = False
        self.check_sent(record, record.json or {})
        body = record.json or {}
        nonce = _check_nonce(body)
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self._nonced(channel.id, nonce)
            if earlier is not None:
                # Discord: the message already created with this nonce, not a second one.
                return earlier.payload() | {"nonce": nonce}
        message = self._new_message(channel, self.bot, record)
        ref = body.get("message_reference")
        if ref:
            message.message_reference = {**ref, "channel_id": str(channel.id)}
        if nonce is not None:
            self._nonces()[channel.id, nonce] = (message.id, time.monotonic())
        await self._announce(message)
        return message.payload() | ({"nonce": nonce} if nonce is not None else {})

    def _nonces(self) -> dict[tuple[int, str], tuple[int, float]]:
        """(channel id, nonce) -> (message id, when posted) of the bot's posts with a nonce."""
        found: dict[tuple[int, str], tuple[int, float]] = self.__dict__.setdefault("_nonce_of", {})
        return found

    def _nonced(self, channel_id: int, nonce: str) -> Message | None:
        """The message posted in this channel with ``nonce`` within Discord's window, if any."""
        found = self._nonces().get((channel_id, nonce))
        if found is None or time.monotonic() - found[1] > NONCE_WINDOW:
            return None
        message = self.messages.get(found[0])
        return None if message is None or message.deleted else message

    async def _edit_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        channel = self._channel(match)
        check_bot_may_post(self, channel)  # the bot edits through an interaction there
        message = self._message(channel, int(match["message"]))
        self.check_sent(record, record.json or {}, message=message)
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
        check_bot_may_post(self, parent)
        if parent.is_thread:
            raise HTTPError(400, 50024)  # Discord has no thread inside a thread
        if parent.type != GUILD_TEXT or not parent.threads_allowed:
            raise HTTPError(403, 50013)
        body = record.json or {}
        check_thread_name(body.get("name"))
        assert parent.guild_id is not None
        wait = self.thread_limit.wait(parent.guild_id)
        if wait > 0:
            return rate_limited(wait)
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
        return self.open_dm(user).payload()

    async def _dispatch_quietly(self, event: str, data: Any) -> None:
        if self.session_for(self._guild_of(event, data)) is not None:
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
            allowed_mentions=body.get("allowed_mentions"),
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


def _check_nonce(body: dict[str, Any]) -> str | None:
    """A message body's nonce as a string (None without one: ``enforce_nonce`` alone does
    nothing), as Discord reads it.

    Raises:
        HTTPError: 400 / 50035 for a nonce that is not an integer or a string of at most 25
            characters.
    """
    nonce = body.get("nonce")
    if nonce is None:
        return None
    if isinstance(nonce, bool) or not isinstance(nonce, int | str) or len(str(nonce)) > NONCE_MAX:
        raise HTTPError(
            400, 50035, "Invalid Form Body",
            errors={"nonce": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH",
                                            "message": "Must be 25 or fewer in length."}]}},
        )  # fmt: skip
    return str(nonce)
