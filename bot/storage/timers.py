"""Claims and shards of the timers table: what a process fires, and how it says so.

A process fires a due timer by calling the service's use-case (``time_out``, ``remind``,
``expire``) inside ``claiming(timer)``. The Store's write for that game or challenge then, in
its own transaction, first claims the timer row (``SELECT ... FOR UPDATE SKIP LOCKED`` on
PostgreSQL; SQLite's one writer needs no lock), applies the change, moves or deletes the timer
and (with ``post``) writes the outbox row of the post that must follow: all or nothing. If the
row is gone, moved or locked by another process the write raises ``StaleWriteError`` (nothing
is written), so a timer fires once however many processes race for it, and a crash before the
commit leaves the timer for the next claim.

The claim is task-local (a context variable) and used by the first write that matches its
subject; tasks started afterwards (the adapter's posts) inherit a used claim and see which
outbox row they post (``current_post``). ``owing(kind, ref_id, post=...)`` is a claim without
a timer: the first write of that game stores the post it owes (the computer's move).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from bot.storage.rows import TimerRow


class PostKind(enum.StrEnum):
    """What a row of ``outbox`` posts (``bot.games.deadlines`` publishes each again)."""

    TIME_OUT = "time_out"  # a game timed out (or was aborted by its clock)
    REMINDER = "reminder"  # the player to move is reminded
    EXPIRED = "expired"  # a challenge expired
    COMPUTER = "computer"  # the computer's move
    ACTION = "action"  # a player's move, end or resign (answering their interaction)
    TOURNAMENT = "tournament"  # a tournament's round paired (seq), its end, or its cancelling
    CLOSED = "closed"  # a challenge declined or withdrawn (answering the click)
    TAKEBACK = "takeback"  # a takeback request accepted or declined (answering the click)
    ASKED = "asked"  # a takeback request (answering /takeback)
    OFFERED = "offered"  # a rematch offer to a player (answering the Rematch click)
    DAILY = "daily"  # a server's puzzle of the day (seq: the day)


# Discord's shard of a server: (guild_id >> 22) % shard_count (its developer documentation).
SHARD_SHIFT = 22


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards a process runs, ``ids`` of ``count`` (default: all of one): it owns the
    games of their servers (Discord's formula, ``owns``), claims their timers, re-arms their
    computer's turns and resends their posts. ``bot.config.parse_shards`` reads them from
    ``DOTS_SHARD_COUNT`` and ``DOTS_SHARD_IDS``."""

    count: int = 1
    ids: frozenset[int] = field(default_factory=lambda: frozenset({0}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", frozenset(self.ids))  # any iterable of shard ids

    @classmethod
    def of(cls, count: int, ids: Iterable[int]) -> Shards:
        """``Shards.of(2, [1])``: shard 1 of 2.

        Raises:
            ValueError: a count below 1 or an id outside ``0..count-1``.
        """
        chosen = frozenset(ids)
        if count < 1 or not chosen or any(not 0 <= i < count for i in chosen):
            raise ValueError(f"shard ids {sorted(chosen)} are not within 0..{count - 1}")
        return cls(count, chosen)

    @property
    def is_all(self) -> bool:
        """Whether every shard is ours (no filter needed)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether a server's timers are ours (None, a DM or terminal game: shard 0)."""
        shard = 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % self.count
        return shard in self.ids


ALL_SHARDS = Shards()


@dataclass(slots=True)
class Claim:
    """A timer being fired by this task (or, ``timer`` None, a change that owes a post), and
    the post its change must be followed by."""

    kind: str
    ref_id: int
    timer: TimerRow | None
    post: str | None = None
    used: bool = False  # a write tried to claim it (so no later write of this task will)
    won: bool = False  # and found the timer as due, unclaimed: its change commits with it
    post_id: int | None = None
    token: str | None = field(default=None, repr=False)  # the interaction the post answers
    seq: int | None = None  # what the post's row keeps as ``seq``, when the change says so

    def matches(self, kind: str, ref_id: int) -> bool:
        """Whether a write of this subject is the one that fires the timer (once)."""
        return not self.used and (self.kind, self.ref_id) == (kind, ref_id)


_claim: ContextVar[Claim | None] = ContextVar("dots_timer_claim", default=None)


@contextmanager
def claiming(timer: TimerRow, *, post: str | None = None) -> Iterator[Claim]:
    """Fire ``timer`` with the writes made in the block (see the module's docstring); with
    ``post`` (an outbox kind), the write also stores that post."""
    claim = Claim(timer.kind, timer.ref_id, timer, post)
    token = _claim.set(claim)
    try:
        yield claim
    finally:
        _claim.reset(token)


@contextmanager
def owing(kind: str, ref_id: int, *, post: str | None, token: str | None = None) -> Iterator[Claim]:
    """The first write of ``kind`` ``ref_id`` (a "game") made in the block also stores the
    post ``post`` (an outbox kind; None: nothing is stored), with ``token``: the interaction
    the post answers, if any."""
    claim = Claim(kind, ref_id, None, post, token=token)
    token = _claim.set(claim)
    try:
        yield claim
    finally:
        _claim.reset(token)


def current_claim() -> Claim | None:
    """The claim of this task (or of the task that started it), if any."""
    return _claim.get()


def current_post() -> int | None:
    """The outbox row the current change stored (the adapter posts it, then deletes it)."""
    claim = _claim.get()
    return None if claim is None else claim.post_id
