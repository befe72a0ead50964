"""Turn clocks: one task per process claims the due timers of its shards and fires them.

Every deadline lives in the ``timers`` table (a game's reminder, then its time-out; a
challenge's expiry), written by the Store in the same transaction as the change that sets it.
The task reads the due timers of its shards, fires each through its kind's entry in
``bot.games.deadlines.TIMERS`` (a use-case of the service) inside
``claiming(timer)`` (``bot.storage.timers``): the service's write claims the timer row
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL), applies the time-out, moves or deletes the timer
and, with ``outbox``, stores the post that must follow, in one transaction. So a timer fires
exactly once however many processes race for it, and a crash before the commit leaves it to
fire again. Then the task sleeps until the next timer, woken early by a nearer deadline:
the service's ``ClockChange`` events in-process, and PostgreSQL's NOTIFY (``dots_timers``, a
trigger on ``timers``) from other processes. At start a deadline that passed while the bot was down
fires at once; a reminder whose deadline has passed is not sent. Time is injected (``now`` and
``sleep``) so tests move it without waiting.

Cost: one read of the due timers and one of the next one per wake-up, whatever the number of
running games (10,000 games are 10,000 rows, not 10,000 tasks).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.games import ClockChange, GameService, Refusal
from bot.games.convert import to_ts
from bot.games.deadlines import TIMERS
from bot.storage.rows import TimerRow
from bot.storage.timers import ALL_SHARDS, Shards, claiming

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]

# Timers fired per read; the rest on the next turn of the loop.
BATCH = 100
# The longest sleep: a NOTIFY lost with a dropped connection delays a timer at most this much.
MAX_NAP = 300.0
# The wait before reading again when due timers did nothing (refused, or failed: a bug).
STUCK_NAP = 1.0


class Clocks:
    """Fires the timers of a GameService's shards (time-outs, reminders, expiries).

    Usage: ``clocks = Clocks(service, shards=Shards.of(2, [0])); await clocks.start()`` ...
    ``await clocks.stop()``. ``now`` defaults to the service's clock; ``outbox`` stores the
    post of each fired timer (``bot.outbox``) for an adapter that deletes what it posted.
    """

    def __init__(
        self,
        service: GameService,
        *,
        now: Callable[[], datetime] | None = None,
        sleep: Sleep = asyncio.sleep,
        shards: Shards = ALL_SHARDS,
        outbox: bool = False,
    ) -> None:
        self.service = service
        self.timers = service.timers
        self.shards = shards
        self.outbox = outbox
        self._now = now or service.now
        self._sleep = sleep
        self._task: asyncio.Task[None] | None = None
        self._nap: asyncio.Task[bool] | None = None
        self._target: float | None = None  # when the loop wakes next (unix seconds)
        self._woken = False
        self._unlisten: Callable[[], Awaitable[None]] | None = None
        self.fired = 0  # timers whose change this process committed
        service.events.subscribe(self.arm, ClockChange)

    async def start(self) -> int:
        """Start firing this process's timers (those already due at once); how many there are."""
        await self.stop()
        self._unlisten = await self.timers.listen(self._notified)
        pending = len(await self.timers.timers(shards=self.shards))
        self._task = asyncio.get_running_loop().create_task(self._loop())
        return pending

    async def stop(self) -> None:
        """Stop firing (the timers stay in the database for the next start)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        unlisten, self._unlisten = self._unlisten, None
        if unlisten is not None:
            await unlisten()

    @property
    def running(self) -> bool:
        """Whether the task fires timers."""
        return self._task is not None and not self._task.done()

    async def pending(self) -> list[TimerRow]:
        """This process's timers, soonest first (from the database)."""
        return await self.timers.timers(shards=self.shards)

    def arm(self, change: ClockChange) -> None:
        """A deadline was set or moved in this process: wake the task if it is sooner than
        its next wake-up (the timer itself is in the database already)."""
        if change.due is None:
            return
        due = change.due if change.remind_at is None else min(change.due, change.remind_at)
        self.wake(to_ts(due))

    def wake(self, due: float | None = None) -> None:
        """Wake the task now, or only if ``due`` is sooner than its next wake-up."""
        if due is not None and self._target is not None and due >= self._target:
            return
        self._woken = True
        if self._nap is not None and not self._nap.done():
            self._nap.cancel()

    def _notified(self, payload: str) -> None:
        """A NOTIFY of the timers' trigger: ``"<guild id or nothing> <due>"``."""
        guild, _, due = payload.partition(" ")
        try:
            guild_id = int(guild) if guild else None
            when = float(due)
        except ValueError:
            log.warning("unreadable timer notification %r", payload)
            return
        if self.shards.owns(guild_id):
            self.wake(when)

    async def _loop(self) -> None:
        timers = self.timers
        while True:
            self._woken = False
            try:
                due = await timers.due_timers(to_ts(self._now()), shards=self.shards, limit=BATCH)
                fired = await asyncio.gather(*(self._fire(t) for t in due))
                if len(due) == BATCH and any(fired):
                    continue
                self._target = await timers.next_due(shards=self.shards)
                if due and not any(fired):
                    # Due timers that did nothing: do not spin on them.
                    self._target = to_ts(self._now()) + STUCK_NAP
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the clocks could not read their timers")
                self._target = to_ts(self._now()) + STUCK_NAP
            if not self._woken:
                await self._sleep_until(self._target)

    async def _sleep_until(self, when: float | None) -> None:
        # Loop: a real sleep may wake a little early, and a fake one whenever time moves.
        while not self._woken:
            self._nap = asyncio.get_running_loop().create_task(self._doze(when))
            try:
                await asyncio.wait({self._nap})
            finally:
                self._nap.cancel()
            if not self._nap.cancelled() and self._nap.result():
                return

    async def _doze(self, when: float | None) -> bool:
        """One nap towards ``when``; whether the loop should read its timers now.

        The time is read in the same step as falling asleep: read before the nap task
        starts, a clock that moved in between would be missed (a nap for a stale span)."""
        left = MAX_NAP if when is None else min(when - to_ts(self._now()), MAX_NAP)
        if left <= 0:
            return True
        await self._sleep(left)
        return when is None

    async def _fire(self, timer: TimerRow) -> bool:
        """Fire one due timer through the service; whether it changed anything here."""
        try:
            fire = TIMERS.get(timer.kind)
            firing = None if fire is None else await fire(self.service, timer, self._now())
            claim = None
            if firing is not None:
                with claiming(timer, post=firing.post if self.outbox else None) as claim:
                    await firing.run()
            if claim is not None and claim.won:
                self.fired += 1
                return True
            # Nothing fired: a move won the race (the timer moved with it), another process
            # fired it, or the timer is out of step with its row: set it from the row.
            return await self.timers.resync_timer(timer)
        except Refusal:
            return False  # another process fired it meanwhile (the claim found it gone)
        except Exception:
            log.exception("timer %s %s failed", timer.kind, timer.ref_id)
            return False
