"""The values of tournaments the adapters see: a tournament, its boards, and the news it
publishes (a round paired, the tournament over or cancelled)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.games.convert import carried, stored_game_clock, to_dt
from bot.games.models import GameOptions, GameView
from bot.games.pairing import Format
from bot.games.standings import Outcome, Standing
from bot.storage.rows import EntrantRow, PairingRow, TournamentRow, TournamentStatus
from engine.options import Rules, Start


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament as stored, with its entrants in the order they joined (``withdrawn``:
    those who withdrew)."""

    tournament_id: int
    creator_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    format: Format
    rounds: int
    cycles: int
    options: GameOptions
    round_length: timedelta
    registration_deadline: datetime | None
    max_players: int
    bye_points: float
    status: TournamentStatus
    round: int
    round_deadline: datetime | None
    entrants: tuple[int, ...]
    withdrawn: frozenset[int]

    @property
    def is_open(self) -> bool:
        """Whether it still takes entrants or plays rounds."""
        return self.status in {TournamentStatus.REGISTERING, TournamentStatus.RUNNING}

    @property
    def is_registering(self) -> bool:
        """Whether it takes entrants."""
        return self.status == TournamentStatus.REGISTERING


def tournament_value(row: TournamentRow, entrants: list[EntrantRow]) -> Tournament:
    """The service's value of a tournament row and its entrants."""
    options = GameOptions(
        width=row.width,
        height=row.height,
        rules=Rules(row.rules),
        start=Start(row.start),
        clock=timedelta(seconds=row.clock),
        rated=row.rated,
        game_clock=stored_game_clock(row.gc_total_ms, row.gc_increment_ms),
        takebacks=row.takebacks,
    )
    return Tournament(
        **carried(
            row,
            Tournament,
            format=Format(row.format),
            options=options,
            round_length=timedelta(seconds=row.round_seconds),
            registration_deadline=(
                None if row.registration_deadline is None else to_dt(row.registration_deadline)
            ),
            round_deadline=None if row.round_deadline is None else to_dt(row.round_deadline),
            entrants=tuple(e.user_id for e in entrants),
            withdrawn=frozenset(e.user_id for e in entrants if e.withdrawn_after is not None),
        )
    )


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: Pink and Blue (None: Pink's bye), the game played for it, and
    once decided the points and how."""

    round: int
    board: int
    pink_id: int
    blue_id: int | None
    game_id: int | None
    pink_points: float | None
    blue_points: float | None
    outcome: Outcome | None

    @property
    def is_bye(self) -> bool:
        """Whether this board is a bye."""
        return self.blue_id is None


def pairing_value(row: PairingRow) -> Pairing:
    """The service's value of a pairing row."""
    outcome = None if row.outcome is None else Outcome(row.outcome)
    return Pairing(**carried(row, Pairing, outcome=outcome))


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A game a withdrawal forfeited: its board (decided), the game as stopped, who withdrew."""

    pairing: Pairing
    view: GameView
    loser_id: int

    @property
    def winner_id(self) -> int:
        """The player who wins the board by forfeit."""
        pink, blue = self.pairing.pink_id, self.pairing.blue_id
        assert blue is not None
        return blue if pink == self.loser_id else pink


@dataclass(frozen=True, slots=True)
class TournamentNews:
    """What a tournament's step announces, in its thread: the round just closed (its boards
    and the standings after it; ``closed`` 0 when none), the round just paired (its boards;
    ``paired`` 0 when none: the tournament is over or was cancelled)."""

    tournament: Tournament
    closed: int
    closed_boards: tuple[Pairing, ...]
    standings: tuple[Standing, ...]
    paired: int
    boards: tuple[Pairing, ...]

    @property
    def is_over(self) -> bool:
        """Whether this is the tournament's final post."""
        return self.tournament.status == TournamentStatus.OVER

    @property
    def is_cancelled(self) -> bool:
        """Whether registration closed with too few players."""
        return self.tournament.status == TournamentStatus.CANCELLED
