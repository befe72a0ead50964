"""The fake gateway: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME with replay."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.state import DM, Channel, Guild
from tests.fakediscord.world import World

_log = logging.getLogger(__name__)

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 0, 1, 2, 6, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11

# Intent bits that decide whether the bot hears about messages.
GUILD_MESSAGES_INTENT = 1 << 9
DM_MESSAGES_INTENT = 1 << 12


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


class Gateway(World):
    """The websocket side of the fake."""

    async def announce_guild(self, guild: Guild) -> None:
        """Send GUILD_CREATE for a guild made after the bot connected."""
        await self.dispatch("GUILD_CREATE", guild.payload())

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

    async def drop_gateway(self, *, code: int = 4000, resumable: bool = True) -> None:
        """Close the bot's websocket (with a close code the client reconnects after).

        The client then sends RESUME. With ``resumable=False`` the fake forgets the session
        first, so the RESUME gets INVALID_SESSION and the client IDENTIFYs afresh; events
        sent meanwhile are lost, as on Discord.
        """
        session = self.session
        if session is None or session.ws is None:
            raise RuntimeError("no connected gateway session to drop")
        ws, session.ws = session.ws, None
        if not resumable:
            del self.sessions[session.id]
            self.session = None
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
        if self.gateway_refuses_token or data.get("token") != self.token:
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
