"""Discord's rate limit on creating threads, as the fake answers it.

Discord limits how fast a bot creates threads in a server (a shared limit it does not
publish); past it, it answers 429 with ``retry_after``, which discord.py waits out and
retries. The fake allows ``burst`` creations per server in any ``window`` seconds and answers
the next one as Discord does, so a bot that opens many threads at once must pace itself.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict, deque

from aiohttp import web

THREAD_BURST = 5
THREAD_WINDOW = 2.0


class ThreadLimit:
    """Thread creations per server in a sliding window; counts the 429s it answered."""

    def __init__(self, burst: int = THREAD_BURST, window: float = THREAD_WINDOW) -> None:
        self.burst = burst
        self.window = window
        self.limited = 0
        self._made: defaultdict[int, deque[float]] = defaultdict(deque)

    def wait(self, guild_id: int) -> float:
        """Seconds until a thread may be created in this server (0: now, and it counts)."""
        now = time.monotonic()
        made = self._made[guild_id]
        while made and made[0] <= now - self.window:
            made.popleft()
        if len(made) >= self.burst:
            self.limited += 1
            return made[0] + self.window - now
        made.append(now)
        return 0.0


def rate_limited(retry_after: float) -> web.Response:
    """Discord's 429 for a shared limit (with the Via header discord.py needs to retry)."""
    body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3),
            "global": False, "code": 0}  # fmt: skip
    headers = {
        "Content-Type": "application/json",
        "Retry-After": str(max(1, round(retry_after))),
        "X-RateLimit-Scope": "shared",
        "Via": "1.1 google",
    }
    return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
