"""Use-cases of challenges and of starting games: challenge, accept, decline, cancel, expire;
and the per-user limits of each server (open challenges, running games, computer games),
counted in the transaction that would pass them, so a burst of requests cannot."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.games import convert
from bot.games.computer import LEVEL_OF, is_computer
from bot.games.convert import to_dt, to_ts
from bot.games.core import GameCore
from bot.games.errors import (
    CannotChallengeBot,
    CannotChallengeSelf,
    ChallengeClosed,
    ChallengeExists,
    NoSuchChallenge,
    NotYourChallenge,
    OptionOutOfRange,
    Refusal,
)
from bot.games.game_clock import ClockState, reminder_clock
from bot.games.models import (
    CHALLENGE_TTL,
    DEFAULT_CLOCK,
    Challenge,
    ChallengeExpired,
    GameOptions,
    GameView,
)
from bot.games.settings import Settings
from bot.i18n import N_, Message, _, ngettext
from bot.storage.errors import OverLimitError
from bot.storage.rows import ANYONE, ChallengeRow, ChallengeStatus, GameRow, GameStatus
from engine.options import Start
from engine.starts import start_dots

LIMIT_RANGE = range(1, 1001)
"""The values a server may set for each per-user limit."""


@dataclass(frozen=True, slots=True)
class UserLimits:
    """What one member may have at once in a server: open challenges (made by them), running
    games, and running games against the computer (among those)."""

    challenges: int = 10
    games: int = 25
    computer: int = 5


class LimitReached(Refusal):
    """A member is at one of the server's per-user limits (``UserLimits``)."""


def limit_message(over: OverLimitError, user_id: int) -> Message:
    """The refusal for ``user_id`` when ``over`` is passed (theirs or their opponent's)."""
    if over.kind == "challenges":
        return ngettext(
            "you already have {n} open challenge in this server, the most allowed here: wait "
            "for answers, or withdraw one",
            "you already have {n} open challenges in this server, the most allowed here: wait "
            "for answers, or withdraw one",
            over.limit,
        )
    if over.kind == "computer":
        return ngettext(
            "you already have {n} game against the computer running in this server, the most "
            "allowed here: finish or resign one first",
            "you already have {n} games against the computer running in this server, the most "
            "allowed here: finish or resign one first",
            over.limit,
        )
    if over.user_id == user_id:
        return ngettext(
            "you already have {n} running game in this server, the most allowed here: finish "
            "one first",
            "you already have {n} running games in this server, the most allowed here: finish "
            "one first",
            over.limit,
        )
    return ngettext(
        "<@{who}> already has {n} running game in this server, the most allowed here: finish "
        "one first",
        "<@{who}> already has {n} running games in this server, the most allowed here: finish "
        "one first",
        over.limit,
        who=over.user_id,
    )


class Challenges:
    """Challenges, starting games (with or without one) and the per-user limits."""

    def __init__(self, core: GameCore, settings: Settings) -> None:
        self.core = core
        self.settings = settings

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int | None,
        options: GameOptions | None = None,
        opponent_is_bot: bool = False,
    ) -> Challenge:
        """Challenge ``opponent_id`` to a game, or with None anyone in the server (an open
        challenge: the first to accept plays); it expires unanswered after 10 minutes.

        A clock of None in the options becomes the server's default move clock now.

        Raises:
            CannotChallengeSelf, CannotChallengeBot, ChallengeExists, OptionOutOfRange,
            LimitReached (the challenger's open challenges or running games).
        """
        options = options or GameOptions()
        if opponent_id == challenger_id:
            raise CannotChallengeSelf(N_("you cannot challenge yourself"))
        if opponent_is_bot:
            raise CannotChallengeBot(
                N_("you cannot challenge a bot; to play the computer, use /play-computer")
            )
        await asyncio.to_thread(convert.check_options, options)
        clock = options.clock
        if clock is None and options.game_clock is None:
            clock = (await self.settings.guild_settings(guild_id=guild_id)).default_clock
        seconds = _move_clock(options, clock)
        now = self.core.now()
        row = ChallengeRow(
            challenge_id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            message_id=None,
            challenger_id=challenger_id,
            opponent_id=ANYONE if opponent_id is None else opponent_id,
            **board_columns(options),
            clock=seconds,
            colour=options.colour,
            rated=options.rated,
            status=ChallengeStatus.OPEN,
            created=to_ts(now),
            expires=to_ts(now + CHALLENGE_TTL),
            game_id=None,
            **clock_and_takebacks(options),
        )
        limits = await self.user_limits(guild_id=guild_id)
        try:
            stored = await self.core.store.challenges.create_challenge_within(
                row, now=to_ts(now), max_challenges=limits.challenges, max_games=limits.games
            )
        except OverLimitError as over:
            raise LimitReached(limit_message(over, challenger_id)) from None
        if stored is None and opponent_id is None:
            raise ChallengeExists(
                "you already have an open challenge to anyone in this server: wait for "
                "someone to take it, or withdraw it"
            )
        if stored is None:
            raise ChallengeExists(N_("there is already an open challenge between you two"))
        await self.core.challenge_clock(stored.challenge_id, stored.expires)
        return convert.challenge_value(stored)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id.

        Raises:
            NoSuchChallenge.
        """
        return convert.challenge_value(await self._challenge_row(challenge_id))

    async def _challenge_row(self, challenge_id: int) -> ChallengeRow:
        row = await self.core.store.challenges.challenge(challenge_id)
        if row is None:
            raise NoSuchChallenge(
                _("there is no challenge #{challenge_id}", challenge_id=challenge_id)
            )
        return row

    async def accept(self, *, challenge_id: int, user_id: int) -> GameView:
        """The challenged player accepts (anyone but the challenger, for an open challenge:
        the first accept stored wins): the game starts and Pink's clock runs.

        Raises:
            NoSuchChallenge, NotYourChallenge, CannotChallengeSelf (one's own open
            challenge), ChallengeClosed (also when it has expired, or another took it),
            LimitReached (either player's running games).
        """
        ch = await self._challenge_row(challenge_id)
        if ch.opponent_id == ANYONE and user_id == ch.challenger_id:
            raise CannotChallengeSelf(
                N_(
                    "you cannot accept your own challenge: wait for someone to take it, or "
                    "withdraw it"
                )
            )
        now = self.core.now()
        if ch.status == ChallengeStatus.ACCEPTED and user_id != ch.challenger_id:
            # Taken already: the taker is stored as its opponent, so a second taker of an open
            # challenge who reads it only now is told who took it (not that it is not theirs).
            raise ChallengeClosed(_closed_message(ch, now))
        if ch.opponent_id not in {ANYONE, user_id}:
            raise NotYourChallenge(N_("only the challenged player can accept this challenge"))
        if ch.status != ChallengeStatus.OPEN or ch.expires <= to_ts(now):
            raise ChallengeClosed(_closed_message(ch, now))
        challenger_pink = ch.colour == "pink" or (
            ch.colour == "random" and self.core.rng.random() < 0.5
        )
        pink, blue = (ch.challenger_id, user_id) if challenger_pink else (user_id, ch.challenger_id)
        options = convert.challenge_value(ch).options
        row = await self.game_row_of(
            ch, pink_id=pink, blue_id=blue, options=options, now=to_ts(now)
        )
        limits = await self.user_limits(guild_id=ch.guild_id)
        try:
            stored = await self.core.store.challenges.accept_challenge_within(
                challenge_id, row, now=to_ts(now), max_games=limits.games, taker=user_id
            )
        except OverLimitError as over:
            raise LimitReached(limit_message(over, user_id)) from None
        if stored is None:
            raise ChallengeClosed(_closed_message(await self._challenge_row(challenge_id), now))
        await self.core.challenge_clock(challenge_id, None)
        return await self.core.started(stored)

    async def start_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        pink_id: int,
        blue_id: int,
        options: GameOptions | None = None,
    ) -> GameView:
        """Start a game between two players directly, without a challenge (the terminal mode,
        imports, the computer player). Against the computer the player's limits apply.

        Raises:
            CannotChallengeSelf, OptionOutOfRange, LimitReached (against the computer).
        """
        options = options or GameOptions()
        if pink_id == blue_id:
            raise CannotChallengeSelf(N_("you cannot play against yourself"))
        await asyncio.to_thread(convert.check_options, options)
        seconds = _move_clock(options, options.clock or DEFAULT_CLOCK)
        now = to_ts(self.core.now())
        row = await self.new_game_row(
            guild_id=guild_id,
            channel_id=channel_id,
            challenge_id=None,
            pink_id=pink_id,
            blue_id=blue_id,
            options=options,
            clock=seconds,
            created=now,
            now=now,
        )
        if is_computer(pink_id) or is_computer(blue_id):
            user_id = blue_id if is_computer(pink_id) else pink_id
            limits = await self.user_limits(guild_id=guild_id)
            try:
                stored = await self.core.store.games.create_game_within(
                    row,
                    user_id=user_id,
                    max_games=limits.games,
                    max_computer=limits.computer,
                    computer_ids=tuple(LEVEL_OF),
                )
            except OverLimitError as over:
                raise LimitReached(limit_message(over, user_id)) from None
        else:
            stored = await self.core.store.games.create_game(row)
        return await self.core.started(stored)

    async def game_row_of(
        self, ch: ChallengeRow, *, pink_id: int, blue_id: int, options: GameOptions, now: float
    ) -> GameRow:
        """The row of the game challenge ``ch`` starts now (``new_game_row``): its server,
        channel, clock and creation; its id, unless not stored yet (0: a rematch against the
        computer, stored with its game)."""
        return await self.new_game_row(
            guild_id=ch.guild_id,
            channel_id=ch.channel_id,
            challenge_id=ch.challenge_id or None,
            pink_id=pink_id,
            blue_id=blue_id,
            options=options,
            clock=ch.clock or round(DEFAULT_CLOCK.total_seconds()),
            created=ch.created,
            now=now,
        )

    async def new_game_row(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenge_id: int | None,
        pink_id: int,
        blue_id: int,
        options: GameOptions,
        clock: int,
        created: float,
        now: float,
    ) -> GameRow:
        """The row of a game starting now, Pink's clock running; draws four crosses if asked
        (off the event loop: the engine's draw can take a moment on a tight board)."""
        seed = self.core.rng.randrange(2**31) if Start(options.start).is_random else None
        dots = await asyncio.to_thread(
            start_dots, options.start, options.width, options.height, seed
        )
        row = GameRow(
            game_id=0,
            **unposted(guild_id=guild_id, channel_id=channel_id),
            challenge_id=challenge_id,
            pink_id=pink_id,
            blue_id=blue_id,
            **board_columns(options),
            start_dots=convert.encode_start_dots(dots),
            seed=seed,
            clock=clock,
            rated=options.rated,
            status=GameStatus.RUNNING,
            winner=None,
            pink_score=None,
            blue_score=None,
            reason=None,
            moves=0,
            created=created,
            started=now,
            finished=None,
            deadline=now + clock,
            reminder_sent=False,
            **clock_and_takebacks(options),
        )
        if options.game_clock is not None:
            # Pink's game clock runs from the start; the deadline is when it runs out.
            state = ClockState.start(options.game_clock, to_dt(now))
            deadline = state.deadline()
            assert deadline is not None
            for name, value in (convert.clock_columns(state) or {}).items():
                setattr(row, name, value)
            row.deadline = to_ts(deadline)
        return row

    async def decline(self, *, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed.
        """
        ch = await self._challenge_row(challenge_id)
        if user_id != ch.opponent_id:
            raise NotYourChallenge(N_("only the challenged player can decline this challenge"))
        return await self._close_challenge(ch, ChallengeStatus.DECLINED)

    async def cancel(self, *, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed.
        """
        ch = await self._challenge_row(challenge_id)
        if user_id != ch.challenger_id:
            raise NotYourChallenge(N_("only the challenger can cancel this challenge"))
        return await self._close_challenge(ch, ChallengeStatus.CANCELLED)

    async def _close_challenge(self, ch: ChallengeRow, status: str) -> Challenge:
        now = self.core.now()
        if ch.status == ChallengeStatus.OPEN and ch.expires <= to_ts(now):
            await self.expire(challenge_id=ch.challenge_id)
            raise ChallengeClosed(N_("this challenge has expired"))
        closed = await self.core.store.challenges.close_challenge(
            ch.challenge_id, status=status, now=to_ts(now)
        )
        if closed is None:
            raise ChallengeClosed(_closed_message(await self._challenge_row(ch.challenge_id), now))
        await self.core.challenge_clock(ch.challenge_id, None)
        return convert.challenge_value(closed)

    async def expire(self, *, challenge_id: int) -> Challenge | None:
        """Expire the challenge if it is still open and its time has come; else None.

        Publishes ChallengeExpired when it expires.
        """
        closed = await self.core.store.challenges.close_challenge(
            challenge_id, status=ChallengeStatus.EXPIRED, now=to_ts(self.core.now()), due_only=True
        )
        if closed is None:
            return None
        await self.core.challenge_clock(challenge_id, None)
        challenge = convert.challenge_value(closed)
        await self.core.events.publish(ChallengeExpired(challenge))
        return challenge

    # -- starts a kill interrupted ------------------------------------------------------

    async def unshown_accepts(self) -> list[Challenge]:
        """The accepted challenges whose message does not say so yet, oldest first."""
        return [
            convert.challenge_value(r)
            for r in await self.core.store.challenges.unshown_accepts()
            if self.core.owns(r.guild_id)
        ]

    async def unrecorded_challenges(self) -> list[Challenge]:
        """The open challenges whose message id was never recorded (the bot was stopped just
        after posting them), oldest first."""
        found = []
        for (
            challenge_id,
            _expires,
            guild_id,
        ) in await self.core.store.challenges.challenge_expiries():
            if not self.core.owns(guild_id):
                continue
            row = await self.core.store.challenges.challenge(challenge_id)
            if row is not None and row.status == ChallengeStatus.OPEN and row.message_id is None:
                found.append(convert.challenge_value(row))
        return sorted(found, key=lambda c: c.challenge_id)

    async def mark_answer_shown(self, *, challenge_id: int, message_id: int | None) -> None:
        """Note that an accepted challenge's message says so (and which message it is).

        Raises:
            NoSuchChallenge.
        """
        if not await self.core.store.challenges.mark_answer_shown(
            challenge_id, message_id=message_id
        ):
            raise NoSuchChallenge(
                _("there is no challenge #{challenge_id}", challenge_id=challenge_id)
            )

    async def user_limits(self, *, guild_id: int) -> UserLimits:
        """A server's per-user limits (the defaults where never set)."""
        challenges, games, computer = await self.core.store.settings.limits(guild_id)
        default = UserLimits()
        return UserLimits(
            challenges or default.challenges, games or default.games, computer or default.computer
        )

    async def set_user_limits(
        self,
        *,
        guild_id: int,
        challenges: int | None = None,
        games: int | None = None,
        computer: int | None = None,
    ) -> UserLimits:
        """Change a server's per-user limits (None leaves one as it is).

        Raises:
            OptionOutOfRange: a limit outside 1 to 1,000.
        """
        for name, value in (("challenges", challenges), ("games", games), ("computer", computer)):
            if value is not None and value not in LIMIT_RANGE:
                raise OptionOutOfRange(
                    _("the limit of {name} must be between 1 and 1000", name=name)
                )
        current = await self.user_limits(guild_id=guild_id)
        limits = UserLimits(
            challenges or current.challenges, games or current.games, computer or current.computer
        )
        await self.core.store.settings.set_limits(
            guild_id,
            challenges=limits.challenges,
            games=limits.games,
            computer=limits.computer,
            at=to_ts(self.core.now()),
        )
        return limits

    async def set_challenge_message(self, *, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge (for the adapter to edit it later).

        Raises:
            NoSuchChallenge.
        """
        if not await self.core.store.challenges.set_challenge_message(challenge_id, message_id):
            raise NoSuchChallenge(
                _("there is no challenge #{challenge_id}", challenge_id=challenge_id)
            )

    async def open_challenges(
        self, *, user_id: int, guild_id: int | None = None
    ) -> list[Challenge]:
        """The open challenges made by or to ``user_id`` (in one server if given)."""
        rows = await self.core.store.challenges.open_challenges(user_id, guild_id)
        return [convert.challenge_value(r) for r in rows]


# -- takebacks and game clocks ---


def _move_clock(options: GameOptions, clock: timedelta | None) -> int:
    """The per-move clock (seconds) stored with a challenge or game: ``clock`` checked, or
    for a game on a game clock the reminder's clock (``reminder_clock``).

    Raises:
        OptionOutOfRange: a move clock out of range.
    """
    if options.game_clock is not None:
        return reminder_clock(options.game_clock)
    assert clock is not None
    return convert.clock_seconds(clock)


def unposted(*, guild_id: int, channel_id: int) -> dict[str, int | None]:
    """The place columns of a new game or tournament row: its server and channel, and no
    thread or message yet (its adapter posts them, then stores them)."""
    return {"guild_id": guild_id, "channel_id": channel_id, "thread_id": None, "message_id": None}


def board_columns(options: GameOptions) -> dict[str, Any]:
    """The board columns of a challenge or game row: its size, rules and start."""
    return {
        "width": options.width,
        "height": options.height,
        "rules": options.rules,
        "start": options.start,
    }


def clock_and_takebacks(options: GameOptions) -> dict[str, Any]:
    """The takeback and game clock columns of a challenge or game row."""
    total, increment = options.game_clock.to_ms() if options.game_clock else (None, None)
    return {
        "takebacks": options.allows_takebacks,
        "gc_total_ms": total,
        "gc_increment_ms": increment,
    }


def _closed_message(ch: ChallengeRow, now: datetime) -> Message:
    if ch.status == ChallengeStatus.OPEN and ch.expires <= to_ts(now):
        return _("this challenge has expired")
    if ch.status == ChallengeStatus.ACCEPTED and ch.opponent_id != ANYONE:
        return _("this challenge was already accepted, by <@{opponent}>", opponent=ch.opponent_id)
    return CLOSED.get(ch.status) or _("this challenge is closed")


# Why a challenge no longer takes an answer, by its status.
CLOSED = {
    ChallengeStatus.ACCEPTED: _("this challenge was already accepted"),
    ChallengeStatus.DECLINED: _("this challenge was already declined"),
    ChallengeStatus.CANCELLED: _("this challenge was already cancelled"),
    ChallengeStatus.EXPIRED: _("this challenge was already expired"),
}
