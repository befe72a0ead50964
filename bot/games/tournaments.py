"""Use-cases of tournaments: create, join, leave, start, withdraw, the server's rule for them,
and the reads (a tournament, a server's list, a round's pairings, the standings).

The rounds run themselves (``bot.games.tournament_rounds``): this module only registers, and
brings a start forward (the tournament's timer fires at once, and its step pairs round 1).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

from bot.games import convert
from bot.games.challenges import Challenges, board_columns, clock_and_takebacks, unposted
from bot.games.convert import to_ts
from bot.games.core import GameCore
from bot.games.errors import OptionOutOfRange, Refusal
from bot.games.models import ClockChange, GameOptions
from bot.games.pairing import Format
from bot.games.standings import Standing, standings
from bot.games.tournament_models import (
    Forfeit,
    Pairing,
    Tournament,
    pairing_value,
    tournament_value,
)
from bot.games.tournament_rounds import TournamentRounds, forfeited_by, seeded
from bot.i18n import N_, Message, _, ngettext
from bot.storage.errors import OverLimitError
from bot.storage.rows import TournamentRow, TournamentStatus
from bot.storage.tournaments import Entry

PLAYER_RANGE = range(2, 257)
"""How many players a tournament may be capped at."""
SWISS_ROUNDS = range(1, 16)
"""How many rounds a Swiss may have."""
OPEN_RANGE = range(1, 21)
"""How many open tournaments a server may allow at once."""
BYE_POINTS = (0.0, 0.5, 1.0)
ROUND_LENGTH = (timedelta(hours=1), timedelta(days=60))
REGISTRATION = (timedelta(hours=1), timedelta(days=30))


@dataclass(frozen=True, slots=True)
class TournamentRule:
    """A server's rule for tournaments: whether anyone may create one (else its admins) and
    how many may be open at once."""

    anyone_creates: bool = False
    max_open: int = 3


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """What ``/tournament create`` asks for: the format (a Swiss of ``rounds`` rounds, or a
    round robin played ``cycles`` times), the options of every game, the round length, the
    registration window (None: until its creator starts it), the player cap, a bye's points."""

    format: Format
    options: GameOptions
    round_length: timedelta
    registration: timedelta | None = None
    max_players: int = 16
    rounds: int = 3
    cycles: int = 1
    bye_points: float = 1.0


class TournamentRefused(Refusal):
    """A tournament request that cannot be granted (nothing was changed)."""


class NoSuchTournament(Refusal):
    """No tournament has that id in this server."""


def shortest_round(options: GameOptions) -> timedelta:
    """The shortest round a game with ``options`` fits in: both players' whole game clock, or
    one full turn of each player's move clock."""
    if options.game_clock is not None:
        return 2 * options.game_clock.total
    assert options.clock is not None
    return 2 * options.clock


class Tournaments:
    """Registration and reads of tournaments; ``rounds`` runs them."""

    def __init__(self, core: GameCore, challenges: Challenges) -> None:
        self.core = core
        self.settings = challenges.settings
        self.rounds = TournamentRounds(core, challenges.new_game_row)

    # -- the server's rule --------------------------------------------------------------------

    async def rule(self, *, guild_id: int) -> TournamentRule:
        """A server's rule for tournaments (the defaults if never set)."""
        found = await self.core.store.tournaments.settings(guild_id)
        if found is None:
            return TournamentRule()
        anyone, max_open = found
        return TournamentRule(anyone, TournamentRule.max_open if max_open is None else max_open)

    async def set_rule(
        self, *, guild_id: int, anyone_creates: bool | None = None, max_open: int | None = None
    ) -> TournamentRule:
        """Change a server's rule (None leaves a part as it is).

        Raises:
            OptionOutOfRange: a limit outside 1 to 20.
        """
        if max_open is not None and max_open not in OPEN_RANGE:
            raise OptionOutOfRange(
                _("open tournaments: from {low} to {high}", low=OPEN_RANGE[0], high=OPEN_RANGE[-1])
            )
        current = await self.rule(guild_id=guild_id)
        rule = TournamentRule(
            current.anyone_creates if anyone_creates is None else anyone_creates,
            current.max_open if max_open is None else max_open,
        )
        await self.core.store.tournaments.set_settings(
            guild_id, anyone_creates=rule.anyone_creates, max_open=rule.max_open,
            at=to_ts(self.core.now()),
        )  # fmt: skip
        return rule

    # -- registration -------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        is_admin: bool,
        plan: TournamentPlan,
    ) -> Tournament:
        """Create a tournament taking entrants (its creator does not join by creating it).

        Raises:
            TournamentRefused: not allowed to create, an option out of range, a round too
                short for the game clock, or the server's open tournaments at their limit;
            OptionOutOfRange: a game option out of range.
        """
        rule = await self.rule(guild_id=guild_id)
        if not (is_admin or rule.anyone_creates):
            raise TournamentRefused(N_("only the server's admins may create tournaments here"))
        _check_plan(plan)
        options = plan.options
        if options.clock is None and options.game_clock is None:
            clock = (await self.settings.guild_settings(guild_id=guild_id)).default_clock
            options = GameOptions(**{**_fields(options), "clock": clock})
        await asyncio.to_thread(convert.check_options, options)
        shortest = shortest_round(options)
        if plan.round_length < shortest:
            raise TournamentRefused(
                _(
                    "a round must last at least {shortest} with this clock",
                    shortest=_duration(shortest),
                )
            )
        now = to_ts(self.core.now())
        seconds = convert.clock_seconds(options.clock) if options.game_clock is None else 0
        if options.game_clock is not None:
            seconds = round(options.game_clock.total.total_seconds())
        row = TournamentRow(
            tournament_id=0,
            **unposted(guild_id=guild_id, channel_id=channel_id),
            creator_id=creator_id,
            format=plan.format,
            rounds=plan.rounds if plan.format == Format.SWISS else 0,
            cycles=plan.cycles if plan.format == Format.ROUND_ROBIN else 1,
            **board_columns(options),
            clock=seconds,
            rated=options.rated,
            takebacks=clock_and_takebacks(options)["takebacks"],
            gc_total_ms=clock_and_takebacks(options)["gc_total_ms"],
            gc_increment_ms=clock_and_takebacks(options)["gc_increment_ms"],
            round_seconds=round(plan.round_length.total_seconds()),
            registration_deadline=(
                None if plan.registration is None else now + plan.registration.total_seconds()
            ),
            max_players=plan.max_players,
            bye_points=plan.bye_points,
            status=TournamentStatus.REGISTERING,
            round=0,
            round_deadline=None,
            created=now,
            started=None,
            finished=None,
        )
        try:
            stored = await self.core.store.tournaments.create(row, max_open=rule.max_open)
        except OverLimitError as over:
            raise TournamentRefused(
                ngettext(
                    "this server already has {n} open tournament, the most allowed here",
                    "this server already has {n} open tournaments, the most allowed here",
                    over.limit,
                )
            ) from None
        if stored.registration_deadline is not None:
            due = convert.to_dt(stored.registration_deadline)
            await self.core.events.publish(ClockChange(None, None, due))
        return tournament_value(stored, [])

    async def join(self, *, tournament_id: int, guild_id: int, user_id: int) -> Tournament:
        """Join a tournament taking entrants.

        Raises:
            NoSuchTournament; TournamentRefused: already in, full, or registration over.
        """
        await self.tournament(tournament_id=tournament_id, guild_id=guild_id)
        found = await self.core.store.tournaments.join(
            tournament_id, user_id, at=to_ts(self.core.now())
        )
        if found == Entry.ALREADY:
            raise TournamentRefused(N_("you have already joined this tournament"))
        if found == Entry.FULL:
            raise TournamentRefused(N_("this tournament is full"))
        if found == Entry.CLOSED:
            raise TournamentRefused(N_("this tournament no longer takes entrants"))
        return await self.tournament(tournament_id=tournament_id, guild_id=guild_id)

    async def leave(self, *, tournament_id: int, guild_id: int, user_id: int) -> Tournament:
        """Leave a tournament before it starts.

        Raises:
            NoSuchTournament; TournamentRefused: not in it, or it has started (withdraw).
        """
        await self.tournament(tournament_id=tournament_id, guild_id=guild_id)
        found = await self.core.store.tournaments.leave(tournament_id, user_id)
        if found == Entry.ALREADY:
            raise TournamentRefused(N_("you are not in this tournament"))
        if found == Entry.CLOSED:
            raise TournamentRefused(N_("this tournament has started: to leave it now, withdraw"))
        return await self.tournament(tournament_id=tournament_id, guild_id=guild_id)

    async def start(
        self, *, tournament_id: int, guild_id: int, user_id: int, is_admin: bool
    ) -> Tournament:
        """Close registration now (its creator or an admin): round 1 is paired at once.

        Raises:
            NoSuchTournament; TournamentRefused: not theirs to start, already started, fewer
                than two entrants.
        """
        tournament = await self.tournament(tournament_id=tournament_id, guild_id=guild_id)
        if not is_admin and user_id != tournament.creator_id:
            raise TournamentRefused(N_("only its creator or an admin can start this tournament"))
        if not tournament.is_registering:
            raise TournamentRefused(N_("this tournament has already started"))
        if len(tournament.entrants) < 2:
            raise TournamentRefused(N_("a tournament needs at least two players to start"))
        await self.rounds.wake(tournament_id)
        return tournament

    async def withdraw(self, *, tournament_id: int, guild_id: int, user_id: int) -> list[Forfeit]:
        """Withdraw from a running tournament: their game of this round still running is a
        forfeit (decided with the withdrawal, then stopped, unrated), later rounds are not
        paired for them (a round robin forfeits them); the games played stand. The forfeits,
        to announce.

        Raises:
            NoSuchTournament; TournamentRefused: not in it, withdrawn already, or not running.
        """
        tournament = await self.tournament(tournament_id=tournament_id, guild_id=guild_id)
        if user_id not in tournament.entrants:
            raise TournamentRefused(N_("you are not in this tournament"))
        if tournament.status != TournamentStatus.RUNNING:
            raise TournamentRefused(N_("only a running tournament can be withdrawn from"))
        found, decided = await self.core.store.tournaments.withdraw(
            tournament_id, user_id, forfeit=lambda board: forfeited_by(board, user_id)
        )
        if found == Entry.ALREADY:
            raise TournamentRefused(N_("you have already withdrawn from this tournament"))
        if found == Entry.CLOSED:
            raise TournamentRefused(N_("only a running tournament can be withdrawn from"))
        stopped = []
        for board in decided:
            view = await self.rounds.stop(board)
            if view is not None:
                stopped.append(Forfeit(pairing_value(board), view, loser_id=user_id))
        if decided:
            await self.rounds.wake(tournament_id)  # that may have been the round's last game
        return stopped

    # -- reads --------------------------------------------------------------------------------

    async def tournament(self, *, tournament_id: int, guild_id: int | None = None) -> Tournament:
        """A tournament (of that server, when given).

        Raises:
            NoSuchTournament.
        """
        row = await self.core.store.tournaments.tournament(tournament_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise NoSuchTournament(
                _("there is no tournament #{id} in this server", id=tournament_id)
            )
        return tournament_value(row, await self.core.store.tournaments.entrants(tournament_id))

    async def tournaments(self, *, guild_id: int, open_only: bool = True) -> list[Tournament]:
        """A server's tournaments (the open ones by default), newest first."""
        store = self.core.store.tournaments
        return [
            tournament_value(row, await store.entrants(row.tournament_id))
            for row in await store.of_guild(guild_id, open_only=open_only)
        ]

    async def tournament_pairings(self, *, tournament_id: int, round_: int) -> list[Pairing]:
        """The boards of one round."""
        rows = await self.core.store.tournaments.pairings(tournament_id, round_)
        return [pairing_value(r) for r in rows]

    async def tournament_standings(self, *, tournament_id: int) -> list[Standing]:
        """The standings after the decided boards (before the start: none)."""
        store = self.core.store.tournaments
        row = await store.tournament(tournament_id)
        if row is None or row.round == 0:
            return []
        entrants = await store.entrants(tournament_id)
        return standings(Format(row.format), seeded(entrants), await store.pairings(tournament_id))

    async def is_tournament_game(self, *, game_id: int) -> bool:
        """Whether a game is played for a tournament's pairing."""
        return await self.core.store.tournaments.pairing_of_game(game_id) is not None

    async def set_tournament_messages(
        self, *, tournament_id: int, thread_id: int | None = None, message_id: int | None = None
    ) -> None:
        """Remember a tournament's thread and announcement message."""
        await self.core.store.tournaments.set_messages(
            tournament_id, thread_id=thread_id, message_id=message_id
        )


def _fields(options: GameOptions) -> dict[str, object]:
    return {name: getattr(options, name) for name in GameOptions.__dataclass_fields__}


def _duration(value: timedelta) -> Message:
    """A duration in whole hours or days, for a refusal."""
    hours = round(value.total_seconds() / 3600)
    if hours % 24 == 0:
        return ngettext("{n} day", "{n} days", hours // 24)
    return ngettext("{n} hour", "{n} hours", max(hours, 1))


def _check_plan(plan: TournamentPlan) -> None:
    """Refuse a plan out of range.

    Raises:
        TournamentRefused.
    """
    if plan.max_players not in PLAYER_RANGE:
        raise TournamentRefused(
            _(
                "a tournament takes from {low} to {high} players",
                low=PLAYER_RANGE[0],
                high=PLAYER_RANGE[-1],
            )
        )
    if plan.format == Format.SWISS and plan.rounds not in SWISS_ROUNDS:
        raise TournamentRefused(
            _(
                "a Swiss has from {low} to {high} rounds",
                low=SWISS_ROUNDS[0],
                high=SWISS_ROUNDS[-1],
            )
        )
    if plan.cycles not in (1, 2):
        raise TournamentRefused(N_("a round robin is played once or twice"))
    if plan.bye_points not in BYE_POINTS:
        raise TournamentRefused(N_("a bye is worth 0, ½ or 1 point"))
    low, high = ROUND_LENGTH
    if not low <= plan.round_length <= high:
        raise TournamentRefused(N_("a round lasts from 1 hour to 60 days"))
    if plan.registration is not None:
        low, high = REGISTRATION
        if not low <= plan.registration <= high:
            raise TournamentRefused(N_("registration lasts from 1 hour to 30 days"))
