"""The fake gateway: HELLO, heartbeats, IDENTIFY/READY/GUILD_CREATE, RESUME with replay.

Sharding as on Discord: a session that IDENTIFYs with ``shard: [id, count]`` receives the
events of the servers on that shard (``(guild_id >> 22) % count == id``; direct messages on
shard 0), and only those servers in READY and GUILD_CREATE. A malformed or out-of-range shard
is closed with 4010 ("Invalid shard"), a session over ``max_guilds_per_session`` servers with
4011 ("Sharding required").
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.state import DM, Channel, Guild, shard_of
from tests.fakediscord.world import World

_log = logging.getLogger(__name__)

# Gateway opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 0, 1, 2, 6, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11

# Close codes for a bad shard.
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011

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

    @property
    def shard_key(self) -> tuple[int, int]:
        """(shard id, shard count); (0, 1) for an unsharded session."""
        return (self.shard[0], self.shard[1]) if self.shard else (0, 1)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session receives the events of server ``guild_id`` (None: DMs)."""
        shard_id, count = self.shard_key
        return shard_of(guild_id, count) == shard_id


def _valid_shard(shard: Any) -> bool:
    return (
        isinstance(shard, list)
        and len(shard) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
        and 0 <= shard[0] < shard[1]
    )


class Gateway(World):
    """The websocket side of the fake."""

    async def announce_guild(self, guild: Guild) -> None:
        """Send GUILD_CREATE for a guild made after the bot connected."""
        await self.dispatch("GUILD_CREATE", guild.payload())

    async def dispatch(self, event: str, data: Any) -> None:
        """Send a DISPATCH event to the session whose shard owns its server (buffered while
        that session is disconnected).

        Raises:
            RuntimeError: no session has that server's shard.
        """
        guild_id = self._guild_of(event, data)
        session = self.session_for(guild_id)
        if session is None:
            raise RuntimeError(f"no bot session on the fake gateway has server {guild_id}")
        await self._dispatch_to(session, event, data)

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session receiving server ``guild_id``'s events (None: DMs), if any: of the
        sessions whose shard owns it, the one that connected last."""
        found = None
        for session in self.shard_sessions.values():
            if session.owns(guild_id):
                found = session
        return found

    @staticmethod
    def _guild_of(event: str, data: Any) -> int | None:
        if not isinstance(data, dict):
            return None
        found = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
        return int(found) if found else None

    def _take_shard(self, session: Session) -> None:
        # The newest session of a shard receives its events (a restarted process's new one).
        self.shard_sessions.pop(session.shard_key, None)
        self.shard_sessions[session.shard_key] = session

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
            if self.shard_sessions.get(session.shard_key) is session:
                del self.shard_sessions[session.shard_key]
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
        shard = data.get("shard")
        if shard is not None and not _valid_shard(shard):
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard.")
            return None
        session = Session(id=secrets.token_hex(16), intents=data.get("intents", 0), shard=shard)
        # Only the servers the bot is in (a user's install reaches others without it).
        guilds = [
            g for g in self.guilds.values() if session.owns(g.id) and self.bot.id in g.members
        ]
        limit = self.max_guilds_per_session
        if limit is not None and len(guilds) > limit:
            await ws.close(code=SHARDING_REQUIRED, message=b"Sharding required.")
            return None
        session.ws = ws
        self.sessions[session.id] = session
        self.session = session
        self._take_shard(session)
        self.identifies += 1
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.bot.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self._dispatch_to(session, "READY", ready)
        for guild in guilds:
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
        self._take_shard(session)
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
        session = self.session_for(channel.guild_id)
        if session is None:
            return False
        bit = DM_MESSAGES_INTENT if channel.type == DM else GUILD_MESSAGES_INTENT
        return bool(session.intents & bit)
