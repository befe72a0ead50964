"""Use-cases of stickers: what each action earns, stored with it, and the sticker book.

Before every action is committed, a commit hook (``Stickers.earn``) finds what it earned: the
rows go into the action's own transaction (``Store.record_action``), so a sticker is
never lost to a crash nor written for an action that was not stored; the news goes into the
``MoveOutcome`` for the move's post. Against the computer only the person collects.

What it costs: a move reads only its own ``Placement`` (``stickers_of_last_action``), given the
stickers the game earned before, kept per cached game (read from the database once after a
restart, an undo or a take-back); one more read only when the move earned something (was it the
player's first of its kind?). At the end the game is replayed once (``stickers_of_game``, in a
thread): what the game earned and is not stored yet is written then, so a game begun before
stickers existed still gets its game-level stickers.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games import convert
from bot.games.computer import is_computer
from bot.games.core import Commit, GameCore
from bot.games.stickers import (
    Earned,
    Sticker,
    StickerNews,
    stickers_of_game,
    stickers_of_last_action,
)
from bot.storage.rows import GameRow, StickerRow
from engine import Game, Player


@dataclass(slots=True)
class _Known:
    """What a cached game earned in its first ``covered`` actions (valid for that ``game``
    object only: a game rebuilt from the database is read again)."""

    game: Game
    covered: int
    earned: list[Earned]


def collectors(row: GameRow) -> tuple[Player, ...]:
    """The colours that collect stickers in a game: both, but never the computer."""
    return tuple(
        colour
        for colour, user_id in ((Player.PINK, row.pink_id), (Player.BLUE, row.blue_id))
        if not is_computer(user_id)
    )


def _as_earned(row: GameRow, stored: Sequence[StickerRow], before: int) -> list[Earned]:
    """The stored stickers of a game earned before action ``before``, as the engine-side
    values (ids of stickers this version does not know are left out)."""
    out = []
    for item in stored:
        if item.seq >= before or item.user_id not in (row.pink_id, row.blue_id):
            continue
        try:
            sticker = Sticker.parse(item.sticker)
        except ValueError:
            continue
        player = Player.PINK if item.user_id == row.pink_id else Player.BLUE
        out.append(Earned(player, sticker, item.seq))
    return out


class Stickers:
    """Stickers earned by actions, stored with them, and each player's sticker book."""

    def __init__(self, core: GameCore) -> None:
        self.core = core
        # By game id, least recently used first; bounded like the cache of running games.
        self._known: OrderedDict[int, _Known] = OrderedDict()

    def _know(self, game_id: int, known: _Known) -> None:
        self._known[game_id] = known
        self._known.move_to_end(game_id)
        while len(self._known) > self.core.max_cached:
            self._known.popitem(last=False)

    async def earn(self, commit: Commit) -> None:
        """Commit hook, before the write: what the cached game's last action earned, the rows
        to store with it (``commit.stickers``) and the news for its post (``commit.news``)."""
        live, at = commit.live, commit.at
        row, game = live.row, live.game
        last = len(game.actions) - 1
        players = collectors(row)
        if last < 0 or not players:
            return
        known = self._known.get(row.game_id)
        # At the end the database is the truth (once a game): what is missing there is added.
        is_known = known is not None and known.game is game and known.covered == last
        if not game.is_over and last == 0:
            earlier = []  # a first action: nothing was earned before it, no read needed
        elif not game.is_over and known is not None and is_known:
            earlier = known.earned
        else:
            earlier = _as_earned(
                row, await self.core.store.stickers.game_stickers(row.game_id), last
            )
        if game.is_over:
            have = {(e.player, e.sticker) for e in earlier}
            # A replay (bench/render.py: ~100 ms of CPU for a full 39x32 game): in a thread, so
            # other games' moves are not held up; the game is not changed under its lock.
            every = await asyncio.to_thread(stickers_of_game, game, players)
            new = [e for e in every if (e.player, e.sticker) not in have]
            self._known.pop(row.game_id, None)
        else:
            new = stickers_of_last_action(game, players, earlier)
            self._know(row.game_id, _Known(game, last + 1, [*earlier, *new]))
        if not new:
            return
        rows = [
            StickerRow(convert.user_of(row, e.player), str(e.sticker), row.game_id, row.guild_id,
                       e.action, at)
            for e in new
        ]  # fmt: skip
        announced = [(convert.user_of(row, e.player), e.sticker) for e in new if e.action == last]
        owned = await self.core.store.stickers.stickers_owned(
            [(user_id, str(sticker)) for user_id, sticker in announced], besides=row.game_id
        )
        news = tuple(
            StickerNews(user_id, sticker, (user_id, str(sticker)) not in owned)
            for user_id, sticker in announced
        )
        commit.stickers, commit.news = rows, news

    async def sticker_book(self, *, user_id: int) -> dict[Sticker, int]:
        """In how many games ``user_id`` earned each sticker, in every server (stickers not
        earned yet are missing)."""
        counts: dict[Sticker, int] = {}
        for sticker_id, count in (await self.core.store.stickers.sticker_counts(user_id)).items():
            try:
                counts[Sticker.parse(sticker_id)] = count
            except ValueError:
                continue  # a sticker of a newer version of the bot
        return counts

    async def game_stickers(self, *, game_id: int) -> list[tuple[int, Sticker, int]]:
        """The stickers earned in a game as (user id, sticker, action index), in the order of
        its actions."""
        out = []
        for item in await self.core.store.stickers.game_stickers(game_id):
            try:
                out.append((item.user_id, Sticker.parse(item.sticker), item.seq))
            except ValueError:
                continue
        return out
