"""Fault injection: make the next matching REST requests fail the way Discord fails."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

# Path patterns for ``fail_next`` (searched in the path after /api/v10).
CALLBACK = r"^/interactions/\d+/[^/]+/callback$"  # the first answer to an interaction
FOLLOWUP = r"^/webhooks/\d+/[^/]+$"  # follow-ups (and the reply after a defer)
ORIGINAL = r"^/webhooks/\d+/[^/]+/messages/@original$"  # edits of the first answer
CHANNEL_MESSAGES = r"^/channels/\d+/messages$"  # channel.send, in channels and threads
THREADS = r"^/channels/\d+/(messages/\d+/)?threads$"  # opening a thread

# Discord's own wording for the error codes the bot is likely to meet.
ERROR_MESSAGES = {
    0: "General error",
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    40005: "Request entity too large",
    40060: "Interaction has already been acknowledged",
    50001: "Missing Access",
    50007: "Cannot send messages to this user",
    50013: "Missing Permissions",
    50024: "Cannot execute action on this channel type",
    50027: "Invalid Webhook Token",
    50035: "Invalid Form Body",
}


def error_body(
    code: int, message: str | None = None, errors: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Discord's JSON error body for an error code (with ``errors`` for 50035)."""
    body: dict[str, Any] = {"code": code, "message": message or ERROR_MESSAGES.get(code, "Error")}
    if errors is not None:
        body["errors"] = errors
    return body


@dataclass
class Fault:
    """One armed fault: requests matching ``method`` and ``path`` fail ``times`` more times."""

    method: str
    path: re.Pattern[str]
    status: int
    code: int
    times: int
    retry_after: float
    via: bool
    is_global: bool
    fired: int = 0

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault applies to a request (the path is matched with ``search``)."""
        return self.times > 0 and self.method in ("*", method) and bool(self.path.search(path))

    def response(self) -> tuple[int, dict[str, str], bytes]:
        """Status, headers and body of the failure; consumes one use."""
        self.times -= 1
        self.fired += 1
        headers = {"Content-Type": "application/json"}
        if self.status == 429:
            body: dict[str, Any] = {
                "message": "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
                "code": self.code,
            }
            if self.via:
                # Without Via discord.py takes a 429 for a Cloudflare ban and gives up.
                headers["Via"] = "1.1 google"
            headers["Retry-After"] = str(self.retry_after)
            headers["X-RateLimit-Scope"] = "global" if self.is_global else "user"
        else:
            body = error_body(self.code)
        return self.status, headers, json.dumps(body).encode()


class Faults:
    """The armed faults of one fake server, checked in the order they were armed."""

    def __init__(self) -> None:
        self.armed: list[Fault] = []
        # (method, path regex, seconds): requests that Discord answers only after a while.
        self.delays: list[tuple[str, re.Pattern[str], float]] = []

    def slow(self, method: str, path_regex: str, seconds: float) -> None:
        """Answer every request matching ``method`` (or ``"*"``) and ``path_regex`` only after
        ``seconds`` (a lagging Discord), until ``clear``."""
        self.delays.append((method.upper(), re.compile(path_regex), seconds))

    def delay(self, method: str, path: str) -> float:
        """How long to wait before answering this request (0: at once)."""
        return max(
            (s for m, p, s in self.delays if m in ("*", method) and p.search(path)), default=0.0
        )

    def fail_next(
        self,
        method: str,
        path_regex: str,
        *,
        status: int = 500,
        code: int = 0,
        times: int = 1,
        retry_after: float = 0.05,
        via: bool = True,
        is_global: bool = False,
    ) -> Fault:
        """Arm a fault: the next ``times`` requests matching it get ``status`` (code ``code``).

        ``method`` is an HTTP method or ``"*"``; ``path_regex`` is searched in the path after
        ``/api/v10`` (e.g. ``r"/interactions/\\d+/[^/]+/callback"``). For a 429 the body carries
        ``retry_after`` and, unless ``via=False``, the ``Via`` header discord.py needs to retry.
        """
        fault = Fault(
            method=method.upper(),
            path=re.compile(path_regex),
            status=status,
            code=code,
            times=times,
            retry_after=retry_after,
            via=via,
            is_global=is_global,
        )
        self.armed.append(fault)
        return fault

    def take(self, method: str, path: str) -> Fault | None:
        """The first armed fault matching a request, if any."""
        for fault in self.armed:
            if fault.matches(method, path):
                return fault
        return None

    def clear(self) -> None:
        """Disarm every fault and delay."""
        self.armed.clear()
        self.delays.clear()
