"""What the storage refuses: each error says why nothing (or nothing more) was written."""

from __future__ import annotations

from bot.storage.rows import ChallengeRow


class UnusableDatabaseError(RuntimeError):
    """The database cannot be used at all (not a SQLite file, or the server refuses us)."""


class UnreachableDatabaseError(RuntimeError):
    """The PostgreSQL server cannot be reached (down, a wrong host or port, the network, a
    refused TLS handshake); the message is the driver's."""


class StaleWriteError(RuntimeError):
    """The game row changed under a write (another writer won); the transaction rolled back."""


class RematchExistsError(RuntimeError):
    """A finished game has its rematch offer already (``existing``); nothing was written."""

    def __init__(self, existing: ChallengeRow) -> None:
        super().__init__(f"game {existing.rematch_of} has rematch {existing.challenge_id}")
        self.existing = existing


class OverLimitError(RuntimeError):
    """A per-user limit would be passed; nothing was written. ``kind`` is ``"challenges"``
    (open challenges), ``"games"`` (running games) or ``"computer"`` (running games against
    the computer); ``user_id`` is whose limit, ``limit`` its value."""

    def __init__(self, kind: str, user_id: int, limit: int) -> None:
        super().__init__(f"user {user_id} is at the limit of {limit} {kind}")
        self.kind, self.user_id, self.limit = kind, user_id, limit


class RollBack(Exception):  # noqa: N818 (a signal inside the storage, never raised out of it)
    """Raised inside a transaction to undo it."""
