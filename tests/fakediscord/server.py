"""The fake Discord server: aiohttp REST under ``/api/v10`` and the gateway websocket on ``/``.

It speaks enough of Discord's protocol for the real discord.py client to log in, sync
commands, receive INTERACTION_CREATE events and answer them, post messages with files, open
threads and DMs, and resume a dropped gateway session. Every REST request is recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import re

from aiohttp import web

from tests.fakediscord.callbacks import Callbacks
from tests.fakediscord.drivers import Drivers
from tests.fakediscord.rest import Handler
from tests.fakediscord.world import API_PREFIX


class FakeDiscord(Callbacks, Drivers):
    """A local Discord: state, REST, gateway, recording, drivers and fault injection.

    Typical use is through ``tests.fakediscord.fixtures``; on its own::

        fake = FakeDiscord()
        await fake.start()
        ...  # patch discord.py (fixtures.patch_discord) and run a client against it
        await fake.stop()
    """

    def __init__(self, *, token: str = "fake-bot-token", bot_name: str = "DotsBot") -> None:
        super().__init__(token=token, bot_name=bot_name)
        self._runner: web.AppRunner | None = None
        self._add_routes()

    # ----------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port."""
        self._changed = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        app.router.add_get("/", self._gateway)
        # At the end of a test, requests still held (a killed client's, a response the test
        # held back) are not waited for: aiohttp would wait a minute for each handler.
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        """Close every websocket and stop listening."""
        for session in self.sessions.values():
            if session.ws is not None and not session.ws.closed:
                with contextlib.suppress(Exception):
                    await session.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

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
