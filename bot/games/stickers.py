"""Stickers: goals a move or a game can reach, read from the engine's results.

A sticker is earned from what the engine says an action did (a ``Placement``'s bases and gains,
the bases standing before it, the ``Result`` and the last action), never from the picture. Each
sticker is earned at most once per game per player, at the first action that reaches it.

What it costs: ``stickers_of_game`` replays the game's record once on a fresh ``Game`` (the
game passed in is not touched), so what the moves cost to play (``bench/render.py`` prints it
for a full 39x32 game). After a move, ``stickers_of_last_action`` given the stickers the game
earned before reads only the last ``Placement``; it replays only once the game is over (a
comeback needs the scores along the way).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from bot.i18n import N_, SOURCE, _, translate
from engine.board import Placement
from engine.game import ActionKind, Game
from engine.options import EndReason
from engine.point import Player

BIG_CAPTURE = 5  # "a capture of 5 or more dots at once" (the stickers' words say 5)
FULL_PAGE = (39, 32)  # the biggest board (rule 1.1), the online game's full page


class Sticker(enum.StrEnum):
    """A sticker; the values are stable ids (they are stored), never shown to players."""

    FIRST_CAPTURE = "first_capture"
    BIG_CAPTURE = "big_capture"
    DOUBLE_BASE = "double_base"
    BIGGER_RING = "bigger_ring"
    EMPTY_RING_TRAP = "empty_ring_trap"
    COMEBACK = "comeback"
    WIN_AFTER_STOP = "win_after_stop"
    FULL_PAGE = "full_page"
    TOURNAMENT_WIN = "tournament_win"  # earned by the tournament's step, not by a move

    @property
    def label(self) -> str:
        """The sticker's name as players read it: ``"First capture"``."""
        return _WORDS[self][0]

    @property
    def description(self) -> str:
        """What earns the sticker, in a sentence for players."""
        return _WORDS[self][1]

    @classmethod
    def parse(cls, text: str) -> Sticker:
        """The sticker of a stored id.

        Raises:
            ValueError: an id that is no sticker.
        """
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise ValueError(f"{text!r} is not a sticker") from None


# Every word a player reads about a sticker, in one place: (name, what earns it).
_WORDS: dict[Sticker, tuple[str, str]] = {
    Sticker.FIRST_CAPTURE: (N_("First capture"), N_("Capture a dot for the first time in a game.")),
    Sticker.BIG_CAPTURE: (N_("Big catch"), N_("Capture 5 or more dots with one dot.")),
    Sticker.DOUBLE_BASE: (N_("Two at once"), N_("Close two bases with one dot.")),
    Sticker.BIGGER_RING: (
        N_("Bigger ring"),
        N_("Surround a base of your opponent with a bigger ring and take it all back."),
    ),
    Sticker.EMPTY_RING_TRAP: (
        N_("Trap"),
        N_("Your opponent places a dot inside your empty ring and it is captured at once."),
    ),
    Sticker.COMEBACK: (N_("Comeback"), N_("Win a game in which you were behind.")),
    Sticker.WIN_AFTER_STOP: (N_("Stopped short"), N_("Win after your opponent's stop.")),
    Sticker.FULL_PAGE: (N_("Full page"), N_("Play a game to its end on the full 39x32 page.")),
    Sticker.TOURNAMENT_WIN: (N_("Champion"), N_("Win a tournament.")),
}


class Earned(NamedTuple):
    """A sticker ``player`` earned, at ``action`` (an index into ``Game.actions``)."""

    player: Player
    sticker: Sticker
    action: int


class StickerNews(NamedTuple):
    """A sticker an action earned, for its post: who (a user id), which, and whether it is
    the first of its kind that player ever earned (``"New sticker!"``)."""

    user_id: int
    sticker: Sticker
    first_ever: bool


def new_sticker_line(sticker: Sticker, *, first_ever: bool, locale: str = SOURCE) -> str:
    """The line a move's post carries for a sticker it earned: ``"New sticker! Trap"`` the
    first time ever for that player, ``"Sticker: Trap"`` after (in ``locale``)."""
    name = translate(locale, sticker.label)
    if first_ever:
        return translate(locale, _("New sticker! {name}", name=name))
    return translate(locale, _("Sticker: {name}", name=name))


def book_entries(counts: Mapping[Sticker, int]) -> list[tuple[str, str, int]]:
    """Every sticker in book order as ``(id, name, count)`` for ``render_sticker_book``
    (0 for the ones not earned yet)."""
    return [(str(sticker), sticker.label, counts.get(sticker, 0)) for sticker in Sticker]


@dataclass(slots=True)
class _Progress:
    earned: list[Earned]
    players: frozenset[Player]
    behind: set[Player]

    def earn(self, player: Player, sticker: Sticker, action: int) -> None:
        if player not in self.players:
            return
        if any(e.player is player and e.sticker is sticker for e in self.earned):
            return
        self.earned.append(Earned(player, sticker, action))


def _placement_stickers(progress: _Progress, placement: Placement, index: int) -> None:
    mover = placement.player
    for player in Player:
        own = [base for base in placement.bases if base.owner is player]
        if not own:
            continue
        gain = placement.gain(player)
        if gain > 0:
            progress.earn(player, Sticker.FIRST_CAPTURE, index)
        if gain >= BIG_CAPTURE:
            progress.earn(player, Sticker.BIG_CAPTURE, index)
        if player is mover and len(own) >= 2:
            progress.earn(player, Sticker.DOUBLE_BASE, index)
        if placement.gain(player.opponent) < 0:
            # Rules 4.5 and 5.2: the opponent's score falls only when a base of theirs (which
            # always holds a dot of ``player``'s) ends up inside a new base of ``player``.
            progress.earn(player, Sticker.BIGGER_RING, index)
        if player is not mover:
            # Rule 4.4: the mover's dot made no base of the mover, so the ring it was played
            # into became a base of the ring's owner and took it.
            progress.earn(player, Sticker.EMPTY_RING_TRAP, index)


def _end_stickers(progress: _Progress, game: Game, index: int) -> None:
    result = game.result
    assert result is not None
    winner = result.winner
    # A comeback is a win by the score: a resignation while ahead gives none.
    if (
        winner is not None
        and winner in progress.behind
        and result.score(winner) > result.score(winner.opponent)
    ):
        progress.earn(winner, Sticker.COMEBACK, index)
    last = game.actions[-1]
    if winner is not None and result.reason is EndReason.STOP and last.player is not winner:
        progress.earn(winner, Sticker.WIN_AFTER_STOP, index)
    if (game.width, game.height) == FULL_PAGE:
        for player in Player:
            if game.dots_placed(player) > 0:
                progress.earn(player, Sticker.FULL_PAGE, index)


def stickers_of_game(game: Game, players: Collection[Player] = tuple(Player)) -> list[Earned]:
    """The stickers each of ``players`` earned in ``game``, in the order they were earned,
    each at most once per player.

    Against the computer pass only the person's colour, so the computer collects nothing; in
    a game between friends both collect. A trap (rule 4.4) is earned by the ring's owner on
    the opponent's dot; every other sticker on the collector's own dot or at the game's end.
    """
    replay = Game.at_start(game.record)
    progress = _Progress([], frozenset(players), set())
    for index, action in enumerate(game.actions):
        placement = replay.apply(action)
        if placement is not None and placement.bases:
            _placement_stickers(progress, placement, index)
        for player in Player:
            if replay.score(player) < replay.score(player.opponent):
                progress.behind.add(player)
        if replay.is_over:
            _end_stickers(progress, replay, index)
    return progress.earned


def stickers_of_last_action(
    game: Game,
    players: Collection[Player] = tuple(Player),
    earlier: Collection[Earned] | None = None,
) -> list[Earned]:
    """The stickers the game's last action earned (what its post announces).

    ``earlier`` are the stickers this game earned before (as stored); with them a move costs
    no replay until the game is over. Without them the game is replayed.
    """
    last = len(game.actions) - 1
    if earlier is None or game.is_over:
        return [earned for earned in stickers_of_game(game, players) if earned.action == last]
    progress = _Progress(list(earlier), frozenset(players), set())
    placement = game.last_placement
    if game.actions and game.actions[-1].kind == ActionKind.DOT and placement and placement.bases:
        _placement_stickers(progress, placement, last)
    return progress.earned[len(earlier) :]


def counts_of(earned: Collection[Earned], player: Player) -> dict[Sticker, int]:
    """How many of each sticker ``player`` has among ``earned`` (one game's, or many)."""
    counts: dict[Sticker, int] = {}
    for item in earned:
        if item.player is player:
            counts[item.sticker] = counts.get(item.sticker, 0) + 1
    return counts


__all__ = [
    "BIG_CAPTURE",
    "FULL_PAGE",
    "Earned",
    "Sticker",
    "StickerNews",
    "book_entries",
    "counts_of",
    "new_sticker_line",
    "stickers_of_game",
    "stickers_of_last_action",
]
