"""The fake's interaction endpoints: callbacks, follow-ups and edits of responses."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakediscord.limits import check_choices, check_modal
from tests.fakediscord.records import HTTPError, Request
from tests.fakediscord.rest import Rest
from tests.fakediscord.state import EPHEMERAL, LOADING, Message

if TYPE_CHECKING:
    from tests.fakediscord.drivers import InteractionHandle


class Callbacks(Rest):
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{app}/{token}/...``."""

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
        if kind in (4, 7):
            edited = handle.message if kind == 7 else None
            self.check_sent(record, data, at=("data",), message=edited)
        elif kind == 8:
            check_choices(data)
        elif kind == 9:
            check_modal(data)
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
        self.check_sent(record, body)
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
        self.check_sent(record, record.json or {}, message=message)
        self._apply_edit(message, record)
        handle.edited.append(message.id)
        if message not in handle.messages:
            handle.messages.append(message)
        handle.note_followup(record.at)
        return message.payload()

    async def _delete_webhook_message(
        self, request: web.Request, match: re.Match[str], record: Request
    ) -> Any:
        handle = self._handle(match["token"])
        message = self._webhook_target(handle, match["message"])
        message.deleted = True
        handle.deleted.append(message.id)
        return web.Response(status=204)
