"""Tournaments, their entrants and their pairings (migration 0010).

A tournament moves on in steps (``step``): registration closes and the first round is paired,
a round closes and the next is paired, the last round closes. Each step is one transaction:
it claims the tournament's timer (when a timer fires it, ``bot.storage.timers``), checks the
tournament is still where the step was computed from, writes the closing round's points, the
new round's pairings with their games (and the games' timers), moves the tournament's timer and
stores the post it owes (at the end, the winner's sticker too). So a step happens once, however
many processes race for it, and a kill before its commit leaves the timer for the next try: a
round is never paired twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import StrEnum

from sqlalchemy import (
    ColumnElement,
    Delete,
    Update,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database
from bot.storage.errors import OverLimitError, StaleWriteError
from bot.storage.rows import (
    EntrantRow,
    GameRow,
    PairingRow,
    StickerRow,
    TournamentRow,
    TournamentStatus,
)
from bot.storage.schema import (
    games,
    tournament_entrants,
    tournament_pairings,
    tournament_settings,
    tournaments,
)
from bot.storage.statements import RUNNING, columns_of, insert_game
from bot.storage.stickers import StickerRepository
from bot.storage.timer_repository import TimerKind, TimerRepository
from bot.storage.timers import current_claim
from bot.storage.upsert import upsert

_T_COLS = columns_of(tournaments, TournamentRow)
_E_COLS = columns_of(tournament_entrants, EntrantRow)
_P_COLS = columns_of(tournament_pairings, PairingRow)
_OPEN = tournaments.c.status.in_([TournamentStatus.REGISTERING, TournamentStatus.RUNNING])


class Entry(StrEnum):
    """What a request to join or leave a tournament found."""

    DONE = "done"
    ALREADY = "already"  # joining: already in; leaving: not in
    FULL = "full"
    CLOSED = "closed"  # registration is over (or the tournament is gone)


@dataclass(slots=True)
class Step:
    """One step of a tournament, as the service computed it from the tournament as read
    (``status``, ``round``): the closing round's decided boards, the seeds drawn at the start,
    the new round's boards and the games played for them (by board), the tournament's new
    standing, its timer (None: deleted) and whether it owes its post."""

    tournament_id: int
    guild_id: int
    status: TournamentStatus  # as read
    round: int  # as read
    new_status: TournamentStatus
    new_round: int
    round_deadline: float | None
    at: float
    timer_due: float | None
    rounds: int | None = None  # fixed at the start (None: unchanged)
    results: list[PairingRow] = field(default_factory=list)
    seeds: list[tuple[int, int, float]] = field(default_factory=list)  # user, seed, rating
    pairings: list[PairingRow] = field(default_factory=list)
    games: dict[int, GameRow] = field(default_factory=dict)
    stickers: list[StickerRow] = field(default_factory=list)  # the winner's, at the end


class TournamentRepository:
    """The ``tournaments``, ``tournament_entrants`` and ``tournament_pairings`` tables; a step
    also writes the games of a new round (``games``) and the timers."""

    def __init__(
        self, db: Database, *, timers: TimerRepository, stickers: StickerRepository
    ) -> None:
        self.db = db
        self.timers = timers
        self.stickers = stickers

    # -- a server's rule ---------------------------------------------------------------------

    async def settings(self, guild_id: int) -> tuple[bool, int | None] | None:
        """A server's (anyone may create, most open at once), or None if never set."""
        async with self.db.reading() as conn:
            found = (
                await conn.execute(
                    select(tournament_settings.c.anyone_creates, tournament_settings.c.max_open)
                    .where(tournament_settings.c.guild_id == guild_id)
                )
            ).first()  # fmt: skip
        return None if found is None else (bool(found[0]), found[1])

    async def set_settings(
        self, guild_id: int, *, anyone_creates: bool, max_open: int | None, at: float
    ) -> None:
        """Write a server's rule for tournaments."""
        values = {"guild_id": guild_id, "anyone_creates": anyone_creates,
                  "max_open": max_open, "updated": at}  # fmt: skip
        async with self.db.transaction() as conn:
            await conn.execute(
                upsert(self.db.dialect, tournament_settings, values, keys=["guild_id"])
            )

    # -- registration ------------------------------------------------------------------------

    async def create(self, row: TournamentRow, *, max_open: int) -> TournamentRow:
        """Insert a tournament (its id assigned) and its registration timer, counting the
        server's open tournaments in the same transaction.

        Raises:
            OverLimitError: the server has ``max_open`` open tournaments (nothing written).
        """
        values = {f.name: getattr(row, f.name) for f in fields(TournamentRow)[1:]}
        async with self.db.transaction() as conn:
            await self.db.serialise(conn, row.guild_id)
            count = await conn.scalar(
                select(func.count()).where(tournaments.c.guild_id == row.guild_id, _OPEN)
            )
            if int(count or 0) >= max_open:
                raise OverLimitError("tournaments", row.creator_id, max_open)
            found = await conn.execute(insert(tournaments).values(values).returning(*_T_COLS))
            stored = TournamentRow(*found.one())
            await self.timers.tournament_timer(
                conn,
                tournament_id=stored.tournament_id,
                guild_id=stored.guild_id,
                due=stored.registration_deadline,
            )
            return stored

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        """A tournament's row."""
        async with self.db.reading() as conn:
            return await _read(conn, tournament_id)

    async def of_guild(self, guild_id: int, *, open_only: bool = True) -> list[TournamentRow]:
        """A server's tournaments (only the open ones, by default), newest first."""
        stmt = select(*_T_COLS).where(tournaments.c.guild_id == guild_id)
        if open_only:
            stmt = stmt.where(_OPEN)
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt.order_by(tournaments.c.tournament_id.desc()))).all()
        return [TournamentRow(*r) for r in rows]

    async def set_messages(
        self, tournament_id: int, *, thread_id: int | None = None, message_id: int | None = None
    ) -> None:
        """Remember a tournament's thread and/or its announcement message."""
        values = {k: v for k, v in (("thread_id", thread_id), ("message_id", message_id)) if v}
        if not values:
            return
        async with self.db.transaction() as conn:
            await conn.execute(
                update(tournaments)
                .where(tournaments.c.tournament_id == tournament_id)
                .values(values)
            )

    async def join(self, tournament_id: int, user_id: int, *, at: float) -> Entry:
        """Add an entrant while registration is open and below the cap."""
        async with self.db.transaction() as conn:
            row = await _locked(conn, tournament_id, TournamentStatus.REGISTERING)
            if row is None:
                return Entry.CLOSED
            key = _entrant(tournament_id, user_id)
            if (await conn.execute(select(tournament_entrants.c.user_id).where(key))).first():
                return Entry.ALREADY
            count = await conn.scalar(
                select(func.count()).where(tournament_entrants.c.tournament_id == tournament_id)
            )
            if int(count or 0) >= row.max_players:
                return Entry.FULL
            await conn.execute(
                insert(tournament_entrants).values(
                    tournament_id=tournament_id, user_id=user_id, joined=at
                )
            )
            return Entry.DONE

    async def leave(self, tournament_id: int, user_id: int) -> Entry:
        """Remove an entrant while registration is open."""
        async with self.db.transaction() as conn:
            if await _locked(conn, tournament_id, TournamentStatus.REGISTERING) is None:
                return Entry.CLOSED
            gone = delete(tournament_entrants).where(_entrant(tournament_id, user_id))
            return Entry.DONE if await _changed(conn, gone) else Entry.ALREADY

    async def withdraw(
        self, tournament_id: int, user_id: int, *, forfeit: Callable[[PairingRow], PairingRow]
    ) -> tuple[Entry, list[PairingRow]]:
        """Mark a playing entrant withdrawn after the tournament's current round, and in the
        same transaction decide their boards of that round whose games still run, each as
        ``forfeit`` decides it (the service's rule); the boards so decided."""
        async with self.db.transaction() as conn:
            row = await _locked(conn, tournament_id, TournamentStatus.RUNNING)
            if row is None:
                return Entry.CLOSED, []
            marked = (
                update(tournament_entrants)
                .where(
                    _entrant(tournament_id, user_id),
                    tournament_entrants.c.withdrawn_after.is_(None),
                )
                .values(withdrawn_after=row.round)
            )
            if not await _changed(conn, marked):
                return Entry.ALREADY, []
            playing = select(*_P_COLS).where(
                tournament_pairings.c.tournament_id == tournament_id,
                tournament_pairings.c.round == row.round,
                tournament_pairings.c.pink_points.is_(None),
                or_(
                    tournament_pairings.c.pink_id == user_id,
                    tournament_pairings.c.blue_id == user_id,
                ),
                tournament_pairings.c.game_id.in_(select(games.c.game_id).where(RUNNING)),
            )
            decided = [forfeit(PairingRow(*r)) for r in (await conn.execute(playing)).all()]
            for board in decided:
                await conn.execute(
                    update(tournament_pairings).where(_board(board)).values(_decision(board))
                )
            return Entry.DONE, decided

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """A tournament's entrants, in the order they joined."""
        async with self.db.reading() as conn:
            rows = (
                await conn.execute(
                    select(*_E_COLS)
                    .where(tournament_entrants.c.tournament_id == tournament_id)
                    .order_by(tournament_entrants.c.joined, tournament_entrants.c.user_id)
                )
            ).all()
        return [EntrantRow(*r) for r in rows]

    async def move_timer(self, tournament_id: int, *, due: float) -> bool:
        """Bring a tournament's timer forward to ``due`` (its round's last game ended, or its
        creator starts it); False if it is no longer open."""
        async with self.db.transaction() as conn:
            row = await _read(conn, tournament_id)
            if row is None or not row.is_open:
                return False
            await self.timers.tournament_timer(
                conn, tournament_id=tournament_id, guild_id=row.guild_id, due=due
            )
            return True

    # -- rounds ------------------------------------------------------------------------------

    async def pairings(self, tournament_id: int, round_: int | None = None) -> list[PairingRow]:
        """A tournament's pairings (of one round, or all), by round and board."""
        stmt = select(*_P_COLS).where(tournament_pairings.c.tournament_id == tournament_id)
        if round_ is not None:
            stmt = stmt.where(tournament_pairings.c.round == round_)
        stmt = stmt.order_by(tournament_pairings.c.round, tournament_pairings.c.board)
        async with self.db.reading() as conn:
            return [PairingRow(*r) for r in (await conn.execute(stmt)).all()]

    async def pairing_of_game(self, game_id: int) -> PairingRow | None:
        """The pairing a game is played for, if it is a tournament's."""
        async with self.db.reading() as conn:
            found = (
                await conn.execute(select(*_P_COLS).where(tournament_pairings.c.game_id == game_id))
            ).first()
        return None if found is None else PairingRow(*found)

    async def running_ids(self, *, guild_ids: list[int] | None = None) -> list[int]:
        """The ids of the running tournaments (of some servers)."""
        stmt = select(tournaments.c.tournament_id).where(
            tournaments.c.status == TournamentStatus.RUNNING
        )
        if guild_ids is not None:
            stmt = stmt.where(tournaments.c.guild_id.in_(guild_ids))
        async with self.db.reading() as conn:
            return [int(r[0]) for r in (await conn.execute(stmt)).all()]

    async def step(self, step: Step) -> tuple[TournamentRow, list[GameRow]]:
        """Write one step of a tournament (see the module's docstring); the tournament and the
        new round's games as stored.

        Raises:
            StaleWriteError: the tournament moved on since it was read, or the timer was fired
                elsewhere (nothing is written).
        """
        async with self.db.transaction() as conn:
            claim = current_claim()
            if claim is not None and claim.matches(TimerKind.TOURNAMENT, step.tournament_id):
                await self.timers.claim(conn, claim, guild_id=step.guild_id, seq=step.new_round)
            moved = (
                await conn.execute(
                    update(tournaments)
                    .where(
                        tournaments.c.tournament_id == step.tournament_id,
                        tournaments.c.status == step.status,
                        tournaments.c.round == step.round,
                    )
                    .values(
                        status=step.new_status,
                        round=step.new_round,
                        round_deadline=step.round_deadline,
                        **_instants(step),
                        **({} if step.rounds is None else {"rounds": step.rounds}),
                    )
                    .returning(*_T_COLS)
                )
            ).first()
            if moved is None:
                raise StaleWriteError(f"tournament {step.tournament_id} moved on")
            for result in step.results:
                await conn.execute(
                    update(tournament_pairings).where(_board(result)).values(_decision(result))
                )
            for user_id, seed, rating in step.seeds:
                await conn.execute(
                    update(tournament_entrants)
                    .where(_entrant(step.tournament_id, user_id))
                    .values(seed=seed, rating=rating)
                )
            games: list[GameRow] = []
            for pairing in step.pairings:
                game_id = None
                planned = step.games.get(pairing.board)
                if planned is not None:
                    stored = await insert_game(conn, planned)
                    await self.timers.game_timer(conn, stored)
                    games.append(stored)
                    game_id = stored.game_id
                values = {f.name: getattr(pairing, f.name) for f in fields(PairingRow)}
                values["game_id"] = game_id
                await conn.execute(insert(tournament_pairings).values(values))
            if step.stickers:
                await self.stickers.insert(conn, step.stickers)
            await self.timers.tournament_timer(
                conn, tournament_id=step.tournament_id, guild_id=step.guild_id, due=step.timer_due
            )
            return TournamentRow(*moved), games


def _instants(step: Step) -> dict[str, float]:
    if step.status == TournamentStatus.REGISTERING and step.new_status == TournamentStatus.RUNNING:
        return {"started": step.at}
    if step.new_status in {TournamentStatus.OVER, TournamentStatus.CANCELLED}:
        return {"finished": step.at}
    return {}


def _entrant(tournament_id: int, user_id: int) -> ColumnElement[bool]:
    return and_(
        tournament_entrants.c.tournament_id == tournament_id,
        tournament_entrants.c.user_id == user_id,
    )


def _decision(row: PairingRow) -> dict[str, object]:
    """The columns of a board's result."""
    return {"pink_points": row.pink_points, "blue_points": row.blue_points, "outcome": row.outcome}


def _board(row: PairingRow) -> ColumnElement[bool]:
    return and_(
        tournament_pairings.c.tournament_id == row.tournament_id,
        tournament_pairings.c.round == row.round,
        tournament_pairings.c.board == row.board,
    )


async def _locked(
    conn: AsyncConnection, tournament_id: int, status: TournamentStatus
) -> TournamentRow | None:
    """The tournament, locked for this transaction, if it is in ``status``."""
    row = await _read(conn, tournament_id, lock=True)
    return row if row is not None and row.status == status else None


async def _changed(conn: AsyncConnection, statement: Update | Delete) -> bool:
    """Run a change of one entrant's row; whether there was such a row to change."""
    done = await conn.execute(statement.returning(tournament_entrants.c.user_id))
    return done.first() is not None


async def _read(
    conn: AsyncConnection, tournament_id: int, *, lock: bool = False
) -> TournamentRow | None:
    stmt = select(*_T_COLS).where(tournaments.c.tournament_id == tournament_id)
    if lock:
        # PostgreSQL: joins and steps take turns (SQLite has one writer anyway).
        stmt = stmt.with_for_update()
    found = (await conn.execute(stmt)).first()
    return None if found is None else TournamentRow(*found)
