"""A tournament's rounds running themselves: registration closed, each round paired (by
``bot.games.pairing``), its games started, closed when its last game ends or at its
deadline, the next round paired at once, the last one closing the tournament.

Every step is fired by the tournament's timer (``TimerKind.TOURNAMENT``) through
``advance``, and written in one transaction that claims that timer (``TournamentRepository
.step``): a step happens once across restarts and processes. A game's end brings the timer
forward to now (``game_ended``); the deadline's step first stops the round's unfinished games
(each in its own transaction, under its lock: repeated harmlessly after a kill), then decides
every board from the games as stored (``bot.games.standings.decide``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.games import convert
from bot.games.convert import to_ts
from bot.games.core import Commit, GameCore
from bot.games.errors import GameOver, NoSuchGame
from bot.games.models import ClockChange, GameAborted, GameOptions, GameView
from bot.games.pairing import (
    Board,
    Format,
    Pairer,
    PairingFailed,
    Seeded,
    round_robin_rounds,
)
from bot.games.standings import Decision, Outcome, decide, standings
from bot.games.stickers import Sticker
from bot.games.tournament_models import (
    TournamentNews,
    pairing_value,
    tournament_value,
)
from bot.storage.errors import StaleWriteError
from bot.storage.rows import (
    EntrantRow,
    Finish,
    GameRow,
    GameStatus,
    PairingRow,
    StickerRow,
    TournamentRow,
    TournamentStatus,
)
from bot.storage.tournaments import Step
from engine import ActionKind, Player

log = logging.getLogger(__name__)

DEFAULT_RATING = 1500.0

NewGameRow = Callable[..., Coroutine[Any, Any, GameRow]]


def seeded(entrants: list[EntrantRow]) -> list[Seeded]:
    """The entrants as the pairing and the standings see them (after the start)."""
    return [
        Seeded(
            e.user_id,
            e.seed or 0,
            DEFAULT_RATING if e.rating is None else e.rating,
            e.withdrawn_after is not None,
        )
        for e in entrants
    ]


def _is_out(player: Seeded, entrants: dict[int, EntrantRow], round_: int) -> bool:
    """Whether ``player`` withdrew before round ``round_`` was played."""
    after = entrants[player.user_id].withdrawn_after
    return after is not None and after < round_


class TournamentRounds:
    """Closing and pairing a tournament's rounds (see the module's docstring)."""

    def __init__(self, core: GameCore, new_game_row: NewGameRow) -> None:
        self.core = core
        self.new_game_row = new_game_row
        self.pairer = Pairer()

    # -- what moves the timer -----------------------------------------------------------------

    async def game_ended(self, commit: Commit) -> None:
        """Commit hook: a tournament's game ended, so its round may be over: its timer fires
        now (the step checks)."""
        outcome = commit.outcome
        if outcome is not None and outcome.is_over:
            await self.wake_for_game(commit.live.row.game_id)

    async def on_aborted(self, event: GameAborted) -> None:
        """A game ended without a result (an abort, its clock with no move, an admin's
        cancel) and without a commit: the same as above; ``decide`` scores its board by the
        rule for a game stopped unfinished (no dot at all: a double loss; one player's dots
        only: a forfeit; else the higher score)."""
        await self.wake_for_game(event.view.game_id)

    async def wake_for_game(self, game_id: int) -> None:
        """Bring forward the timer of the tournament a game belongs to, if any."""
        pairing = await self.core.store.tournaments.pairing_of_game(game_id)
        if pairing is not None:
            await self.wake(pairing.tournament_id)

    async def wake(self, tournament_id: int) -> None:
        """The tournament's timer fires now."""
        now = self.core.now()
        if await self.core.store.tournaments.move_timer(tournament_id, due=to_ts(now)):
            await self.core.events.publish(ClockChange(None, None, now))

    async def repair(self) -> int:
        """At start-up: the running tournaments whose round's games all ended (a kill came
        between a game's end and its tournament's timer) fire now; how many."""
        count = 0
        store = self.core.store.tournaments
        for tournament_id in await store.running_ids():
            row = await store.tournament(tournament_id)
            if row is None or not self.core.owns(row.guild_id):
                continue
            boards = await store.pairings(tournament_id, row.round)
            if all([await self._is_over(b) for b in boards]):
                await self.wake(tournament_id)
                count += 1
        return count

    async def _is_over(self, board: PairingRow) -> bool:
        if board.game_id is None or board.pink_points is not None:
            return True
        game = await self.core.store.games.game(board.game_id)
        return game is None or game.status != GameStatus.RUNNING

    # -- the step -----------------------------------------------------------------------------

    async def advance(self, *, tournament_id: int) -> TournamentNews | None:
        """The tournament's next step, if due: close registration (start, or cancel with
        fewer than two entrants), or close the round (once its games all ended, or at its
        deadline) and pair the next; None when nothing is due, or another process made
        this step meanwhile. Publishes the news."""
        store = self.core.store.tournaments
        row = await store.tournament(tournament_id)
        if row is None or not row.is_open:
            return None
        entrants = await store.entrants(tournament_id)
        now = self.core.now()
        if row.status == TournamentStatus.REGISTERING:
            step = await self._start(row, entrants)
        else:
            boards = await store.pairings(tournament_id, row.round)
            running = [b for b in boards if not await self._is_over(b)]
            past = row.round_deadline is not None and to_ts(now) >= row.round_deadline - 0.001
            if running and not past:
                return None
            # The unfinished games, and any forfeited by a withdrawal whose stop a kill cut off.
            forfeited = [b for b in boards if b.game_id is not None and b.pink_points is not None]
            for board in running + forfeited:
                await self.stop(board)
            step = await self._close(row, entrants, boards)
        try:
            _stored, games = await store.step(step)
        except StaleWriteError:
            return None  # another process made this step (or the timer moved meanwhile)
        for game in games:
            await self.core.clock_changed(game)
        if step.timer_due is not None:
            await self.core.events.publish(ClockChange(None, None, convert.to_dt(step.timer_due)))
        news = await self.news(tournament_id, closed=step.round, paired=step.new_round)
        await self.core.events.publish(news)
        return news

    async def news(self, tournament_id: int, *, closed: int, paired: int) -> TournamentNews:
        """What a step announces, read back from the database (its post after a restart too):
        round ``closed`` with the standings after it, and the boards of round ``paired``."""
        store = self.core.store.tournaments
        row = await store.tournament(tournament_id)
        assert row is not None
        entrants = await store.entrants(tournament_id)
        tournament = tournament_value(row, entrants)
        everything = await store.pairings(tournament_id)
        upto = [p for p in everything if p.round <= closed]
        paired_rows = [p for p in everything if p.round == paired] if paired > closed else []
        lines = standings(tournament.format, seeded(entrants), upto) if closed else []
        return TournamentNews(
            tournament=tournament,
            closed=closed,
            closed_boards=tuple(pairing_value(p) for p in upto if p.round == closed),
            standings=tuple(lines),
            paired=paired if paired_rows else 0,
            boards=tuple(pairing_value(p) for p in paired_rows),
        )

    async def _start(self, row: TournamentRow, entrants: list[EntrantRow]) -> Step:
        """Registration closes: seeds drawn (by rating, then who joined first) and round 1
        paired; fewer than two entrants cancel the tournament."""
        now = to_ts(self.core.now())
        base = _step(row, TournamentStatus.CANCELLED, at=now)
        if len(entrants) < 2:
            return base
        rated = []
        for order, entrant in enumerate(entrants):
            found = await self.core.store.ratings.rating(row.guild_id, entrant.user_id)
            rating = DEFAULT_RATING if found is None else found[0].rating
            rated.append((-rating, order, entrant.user_id, rating))
        rated.sort()
        base.seeds = [(user_id, seed, rating) for seed, (_r, _o, user_id, rating) in
                      enumerate(rated, 1)]  # fmt: skip
        players = [Seeded(user_id, seed, rating) for user_id, seed, rating in base.seeds]
        # The number of rounds is fixed now: a round robin's by its table; a Swiss plays at
        # most one round fewer than its players (more would pair someone twice).
        if row.format == Format.ROUND_ROBIN:
            base.rounds = round_robin_rounds(len(players), row.cycles)
        else:
            base.rounds = max(1, min(row.rounds, len(players) - 1))
        row.rounds = base.rounds
        return await self._pair(row, players, {}, [], base, round_=1)

    async def _close(
        self, row: TournamentRow, entrants: list[EntrantRow], boards: list[PairingRow]
    ) -> Step:
        """Decide the round's boards and pair the next round (or end the tournament)."""
        step = _step(row, TournamentStatus.OVER, at=to_ts(self.core.now()))
        for board in boards:
            if board.pink_points is not None:
                continue
            decision = await self._decide(board, row.bye_points)
            step.results.append(_with(board, decision))
        history = await self.core.store.tournaments.pairings(row.tournament_id)
        decided = {(r.round, r.board): r for r in step.results}
        history = [decided.get((h.round, h.board), h) for h in history]
        by_user = {e.user_id: e for e in entrants}
        players = seeded(entrants)
        active = [p for p in players if not _is_out(p, by_user, row.round + 1)]
        last = row.round >= row.rounds
        if not (last or (row.format == Format.SWISS and len(active) < 2)):
            step = await self._pair(row, players, by_user, history, step, round_=row.round + 1)
        if step.new_status == TournamentStatus.OVER:
            await self._crown(row, players, history, step)
        return step

    async def _crown(
        self, row: TournamentRow, players: list[Seeded], history: list[PairingRow], step: Step
    ) -> None:
        """The winner's sticker, stored with the tournament's last step: on their last game
        of it (a sticker belongs to a game), none if they played no game."""
        lines = standings(Format(row.format), players, history)
        if not lines:
            return
        winner = lines[0].user_id
        played = [h for h in history if h.game_id is not None and winner in (h.pink_id, h.blue_id)]
        if not played:
            return
        last = max(played, key=lambda h: (h.round, h.board))
        assert last.game_id is not None
        game = await self.core.store.games.game(last.game_id)
        seq = 0 if game is None else game.moves
        step.stickers.append(
            StickerRow(winner, Sticker.TOURNAMENT_WIN, last.game_id, row.guild_id, seq, step.at)
        )

    async def _pair(
        self,
        row: TournamentRow,
        players: list[Seeded],
        by_user: dict[int, EntrantRow],
        history: list[PairingRow],
        step: Step,
        *,
        round_: int,
    ) -> Step:
        """Add round ``round_``'s boards and their games to ``step``."""
        fmt = Format(row.format)
        marked = [
            Seeded(p.user_id, p.seed, p.rating, bool(by_user) and _is_out(p, by_user, round_))
            for p in players
        ]
        try:
            boards = await self.pairer.pair(
                fmt,
                marked,
                history,
                round_=round_,
                rounds=row.rounds,
                cycles=row.cycles,
                bye_points=row.bye_points,
            )
        except PairingFailed as error:
            log.warning("tournament %s ends early: %s", row.tournament_id, error)
            return step
        out = {p.user_id for p in marked if p.withdrawn}
        deadline = step.at + row.round_seconds
        step.new_status = TournamentStatus.RUNNING
        step.new_round = round_
        step.round_deadline = deadline
        step.timer_due = deadline
        options = _options(row)
        for number, board in enumerate(boards, 1):
            pairing = PairingRow(
                row.tournament_id, round_, number, board.pink_id, board.blue_id, None
            )
            step.pairings.append(_forfeit_or_bye(pairing, board, out, row.bye_points))
            if step.pairings[-1].outcome is None:
                assert board.blue_id is not None
                step.games[number] = await self.new_game_row(
                    guild_id=row.guild_id,
                    channel_id=row.channel_id,
                    challenge_id=None,
                    pink_id=board.pink_id,
                    blue_id=board.blue_id,
                    options=options,
                    clock=row.clock,
                    created=step.at,
                    now=step.at,
                )
        return step

    async def stop(self, board: PairingRow) -> GameView | None:
        """Stop a board's game still running (at its round's deadline, or forfeited by a
        withdrawal): no result, no rating (the board is decided by its pairing row); the game
        as stopped, None if it was not running."""
        assert board.game_id is not None
        game_id = board.game_id
        async with self.core.lock(game_id):
            try:
                live = await self.core.running(game_id)
            except (NoSuchGame, GameOver):
                return None
            stored = await self.core.store.games.finish_game(
                game_id, Finish(GameStatus.ABORTED), at=to_ts(self.core.now())
            )
            self.core.forget(game_id)
            if stored is None:
                return None
            await self.core.clock_changed(stored)
            return convert.game_view(stored, live.game)

    async def _decide(self, board: PairingRow, bye_points: float) -> Decision:
        """A board's result from its game as stored."""
        if board.blue_id is None:
            return Decision(bye_points, 0.0, Outcome.BYE)
        if board.game_id is None:
            return Decision(0.0, 0.0, Outcome.DOUBLE_LOSS)
        loaded = await self.core.store.games.game_with_actions(board.game_id)
        if loaded is None:
            return Decision(0.0, 0.0, Outcome.DOUBLE_LOSS)
        game_row, actions = loaded
        dots = tuple(
            sum(1 for a in actions if a.kind == ActionKind.DOT and a.player == int(player))
            for player in (Player.PINK, Player.BLUE)
        )
        pink_dots, blue_dots = dots
        if game_row.status == GameStatus.OVER:
            return decide(
                finished=True, winner=game_row.winner, dots=(pink_dots, blue_dots), scores=(0, 0)
            )
        game = convert.rebuild(game_row, actions)
        scores = (game.score(Player.PINK), game.score(Player.BLUE))
        return decide(finished=False, winner=None, dots=(pink_dots, blue_dots), scores=scores)


def _step(row: TournamentRow, new_status: TournamentStatus, *, at: float) -> Step:
    """A step from where the tournament stands to ``new_status`` at ``at``, in the same round
    (pairing a round moves it on, and sets its deadline and timer)."""
    return Step(
        tournament_id=row.tournament_id,
        guild_id=row.guild_id,
        status=row.status,
        round=row.round,
        new_status=new_status,
        new_round=row.round,
        round_deadline=None,
        at=at,
        timer_due=None,
    )


def _with(board: PairingRow, decision: Decision) -> PairingRow:
    return PairingRow(
        board.tournament_id,
        board.round,
        board.board,
        board.pink_id,
        board.blue_id,
        board.game_id,
        decision.pink,
        decision.blue,
        decision.outcome,
    )


def _forfeit_or_bye(
    pairing: PairingRow, board: Board, out: set[int], bye_points: float
) -> PairingRow:
    """A board decided as it is paired: a bye, or (a round robin) a board with a withdrawn
    player, forfeited by them."""
    if board.blue_id is None:
        return _with(pairing, Decision(bye_points, 0.0, Outcome.BYE))
    pink_out, blue_out = board.pink_id in out, board.blue_id in out
    if pink_out or blue_out:
        pink = 0.0 if pink_out else 1.0
        blue = 0.0 if blue_out else 1.0
        outcome = Outcome.DOUBLE_LOSS if pink_out and blue_out else Outcome.FORFEIT
        return _with(pairing, Decision(pink, blue, outcome))
    return pairing


def forfeited_by(board: PairingRow, user_id: int) -> PairingRow:
    """A board lost by forfeit by ``user_id`` (who withdrew), won by the other player."""
    pink_lost = board.pink_id == user_id
    return _with(board, Decision(float(not pink_lost), float(pink_lost), Outcome.FORFEIT))


def _options(row: TournamentRow) -> GameOptions:
    """The options every game of the tournament uses."""
    return tournament_value(row, []).options
