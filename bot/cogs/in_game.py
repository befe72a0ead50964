"""In-game actions: the one table of what a command can do in a game (``ACTIONS``), finding
the game a command means, and the "which game?" menu for a player with several.

Each feature module registers what its actions do (``@handles(Action.MOVE)``); the slash
commands run them through ``run_in_game``, and the menu's custom id lists the actions that
ask which game was meant. Adding an action is one entry here and its handler.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord
from discord import app_commands

from bot import text
from bot.cogs.client import bot_of
from bot.cogs.interactions import NoRunningGame, SeveralGames
from bot.cogs.locales import user_locale
from bot.cogs.names import display_name
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.posting import game_channel_id, jump_url
from bot.cogs.posts import CHOICE_NAME, CHOICES, answer, fit_name
from bot.games import (
    GameOver,
    GameView,
    NoSuchGame,
    NotYourGame,
    NotYourTurn,
    Refusal,
    is_computer,
)
from bot.i18n import N_, SOURCE, _, translate
from engine import InvalidPointError, Point

Handler = Callable[[discord.Interaction[Any], GameView, str], Awaitable[None]]
"""What an action does in the game the command means (with the command's argument)."""
Chooser = Callable[[GameView, int], bool]
"""Whether a running game of a user (by id) is one the action can mean."""

SEVERAL = N_("you have several running games: say which one with the `game` option")


class Action(StrEnum):
    """What a command can do in one game."""

    MOVE = "move"
    END = "end"
    RESIGN = "resign"
    BOARD = "board"
    UNDO = "undo"
    TAKEBACK = "takeback"
    DRAW = "draw"


def is_against_computer(view: GameView, user_id: int) -> bool:
    """Whether one of the game's players is the computer."""
    return is_computer(view.pink_id) or is_computer(view.blue_id)


def has_moved_last(view: GameView, user_id: int) -> bool:
    """Whether ``user_id`` made the game's last action and the opponent is to move."""
    return bool(
        view.to_move_id not in {None, user_id}
        and view.game.actions
        and view.game.actions[-1].player == view.player_of(user_id)
    )


class Who(StrEnum):
    """Who may take an action in a game: what its snapshot refuses before any answer."""

    ANYONE = "anyone"
    PLAYERS = "players"  # the players of a running game
    TO_MOVE = "to move"  # the player to move in a running game


@dataclass
class InGameAction:
    """An entry of ``ACTIONS``: what the action does (``run``, registered by its feature
    module), who may take it (``who``: checked on the game's snapshot before anything is
    sent, so that a refusal is private from the start) and, for a player with several
    running games who named none, how the game is found: ``choose`` picks the one game it
    can mean (else the command is refused), or, when None, a menu asks which."""

    who: Who
    choose: Chooser | None = None
    run: Handler | None = None


ACTIONS: dict[Action, InGameAction] = {
    Action.MOVE: InGameAction(Who.TO_MOVE),
    Action.END: InGameAction(Who.TO_MOVE),
    Action.RESIGN: InGameAction(Who.PLAYERS),
    Action.BOARD: InGameAction(Who.ANYONE),
    Action.UNDO: InGameAction(Who.TO_MOVE, choose=is_against_computer),
    Action.TAKEBACK: InGameAction(Who.PLAYERS, choose=has_moved_last),
    Action.DRAW: InGameAction(Who.PLAYERS),
}


def admit(interaction: discord.Interaction[Any], action: Action, view: GameView) -> None:
    """Refuse, from the game's snapshot in memory, a user the action is not for (see
    ``Who``), before the handler answers anything; the service checks again.

    Raises:
        NotYourGame, GameOver, NotYourTurn.
    """
    who = ACTIONS[action].who
    if who is Who.ANYONE:
        return
    if who is Who.TO_MOVE:
        check_turn(interaction, view)
        return
    if view.player_of(interaction.user.id) is None:
        raise NotYourGame(N_("you are not playing in this game"))
    if not view.is_running:
        raise GameOver(N_("this game is over"))


def check_turn(interaction: discord.Interaction[Any], view: GameView) -> None:
    """Refuse early (before anything is sent) what the service would refuse anyway: a user
    who does not play the game, a game that is over, a player whose turn it is not.

    Raises:
        NotYourGame, GameOver, NotYourTurn.
    """
    colour = view.player_of(interaction.user.id)
    if colour is None:
        raise NotYourGame(N_("you are not playing in this game"))
    if not view.is_running:
        raise GameOver(N_("this game is over"))
    if view.to_move is not colour:
        raise NotYourTurn(
            _(
                "it is not your turn: {colour} is to move",
                colour=text.label(view.to_move, user_locale(interaction)) if view.to_move else "",
            )
        )


def handles(action: Action) -> Callable[[Handler], Handler]:
    """Register the decorated function as what ``action`` does."""

    def register(run: Handler) -> Handler:
        ACTIONS[action].run = run
        return run

    return register


def handler(action: Action) -> Handler:
    """What ``action`` does.

    Raises:
        LookupError: no feature module registered it (a programming error).
    """
    run = ACTIONS[action].run
    if run is None:
        raise LookupError(f"no handler registered for the in-game action {action}")
    return run


async def run_in_game(
    interaction: discord.Interaction[Any], action: Action, game: int | None, arg: str = ""
) -> None:
    """Run ``action`` in the game the command means (see ``resolve_game``); for a player with
    several running games who named none, in the one its entry chooses, or ask with a menu.

    Raises:
        Refusal: no such game, or several and none the action can mean.
    """
    entry = ACTIONS[action]
    try:
        view = await resolve_game(interaction, game)
    except SeveralGames as several:
        if entry.choose is None:
            await ask_which_game(interaction, action, arg, several.games)
            return
        user_id = interaction.user.id
        mine = [view for view in several.games if entry.choose(view, user_id)]
        if len(mine) != 1:
            raise Refusal(SEVERAL) from None
        view = mine[0]
    admit(interaction, action, view)
    await handler(action)(interaction, view, arg)


# -- finding the game a command means -------------------------------------------------------


async def game_here(interaction: discord.Interaction[Any]) -> GameView | None:
    """The game whose thread this interaction happened in, if any (over or not)."""
    channel = interaction.channel
    if not isinstance(channel, discord.Thread):
        return None
    return await bot_of(interaction).service.game_in_thread(thread_id=channel.id)


async def resolve_game(
    interaction: discord.Interaction[Any], game_id: int | None = None, *, running: bool = True
) -> GameView:
    """The game a command means: the ``game`` option, else this thread's game, else the
    user's only running game in this server.

    Raises:
        NoSuchGame: the ``game`` option names no game of this server.
        NoRunningGame: the user plays no running game here.
        SeveralGames: the user plays several and did not say which.
    """
    service = bot_of(interaction).service
    if game_id is not None:
        view = await service.game(game_id)  # a number no database holds is no such game
        if view.guild_id != interaction.guild_id:
            raise NoSuchGame(_("there is no game #{game_id} in this server", game_id=game_id))
        return view
    here = await game_here(interaction)
    if here is not None:
        return here
    games = await service.running_games(user_id=interaction.user.id, guild_id=interaction.guild_id)
    if not running and not games:
        raise NoRunningGame(N_("you have no running game here; name one with the `game` option"))
    if not games:
        raise NoRunningGame(N_("you have no running game here: challenge someone with /challenge"))
    local = [view for view in games if game_channel_id(view) == interaction.channel_id]
    if len(local) == 1:
        return local[0]
    if len(games) > 1:
        raise SeveralGames(games)
    return games[0]


async def game_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The user's running games in this server for a ``game`` option, theirs to move first."""
    games = await bot_of(interaction).service.running_games(
        user_id=interaction.user.id, guild_id=interaction.guild_id
    )
    games.sort(key=lambda view: view.to_move_id != interaction.user.id)
    choices = []
    for view in games:
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        locale = user_locale(interaction)
        mine = view.to_move_id == interaction.user.id
        turn = translate(locale, N_("your turn") if mine else N_("their turn"))
        name = await display_name(bot_of(interaction), opponent, locale)
        label = translate(
            locale, _("#{game_id} vs {name} ({turn})", game_id=view.game_id, name=name, turn=turn)
        )
        if current.strip().lstrip("#") in str(view.game_id) or current.lower() in label.lower():
            choices.append(
                app_commands.Choice(name=fit_name(label, CHOICE_NAME), value=view.game_id)
            )
    return choices[:CHOICES]


# -- the "which game?" menu ------------------------------------------------------------------


# The custom id's key of a picker: a point name as it is (A-Z, 0-9), anything else typed
# base64url-encoded after a "_" (which no point name starts with), cut to fit the custom id.
# 80 characters, the template's bound: "dots:pick:resign:" and 80 make 97, within Discord's
# 100 (posts.CUSTOM_ID).
_KEY_ROOM = 80


class GamePicker(
    PersistentItem[discord.ui.Select[Any]],
    custom_id=CustomId(
        "dots:pick",
        tuple(action for action, entry in ACTIONS.items() if entry.choose is None),
        key=rf"[A-Za-z0-9_-]{{0,{_KEY_ROOM}}}",
    ),
):
    """A menu that asks which game a command meant, for players with several games; its key
    is the command's argument (the point of a move, see ``point_key``); its actions are those
    of ``ACTIONS`` that ask which game."""

    NO_KEY = ""

    @classmethod
    def parse_key(cls, key: str) -> str | None:
        """The typed point the key carries; None for a key none of our menus made."""
        return typed_of_key(key)

    def component(
        self, *, games: list[GameView] | None = None, **options: Any
    ) -> discord.ui.Select[Any]:
        """The menu of ``games`` (a placeholder option when rebuilt from a click)."""
        choices = [
            discord.SelectOption(label=f"Game #{view.game_id}", value=str(view.game_id))
            for view in (games or [])[:25]
        ] or [discord.SelectOption(label="-", value="0")]
        return discord.ui.Select(
            custom_id=self.ID.format(self.action, point_key(self.key or "")),
            placeholder=translate(SOURCE, N_("Which game?")),
            options=choices,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Run the command in the chosen game.

        Raises:
            Refusal: the pick is not a game id (a forged menu).
        """
        values = self.item.values
        if len(values) != 1 or not re.fullmatch(r"[0-9]{1,19}", values[0], re.ASCII):
            raise Refusal(N_("that is not one of your games: run the command again"))
        view = await bot_of(interaction).service.game(int(values[0]))
        if view.guild_id != interaction.guild_id:
            raise NotYourGame(N_("you are not playing in this game"))
        admit(interaction, Action(self.action), view)
        await handler(Action(self.action))(interaction, view, self.key)


def point_key(typed: str) -> str:
    """``typed`` (a command's argument) as a picker's key: the point's name when it is one,
    else a safe encoding of as much of the text as fits in a custom id (nothing for nothing)."""
    if not typed:
        return ""
    try:
        return Point.parse(typed).name
    except InvalidPointError:
        pass
    while True:
        key = "_" + base64.urlsafe_b64encode(typed.encode()).decode().rstrip("=")
        if len(key) <= _KEY_ROOM:
            return key
        typed = typed[:-1]


def typed_of_key(key: str) -> str | None:
    """The text a picker's key carries (see ``point_key``); None when no menu of ours made it."""
    if not key.startswith("_"):
        return key
    try:
        padded = key[1:] + "=" * (-len(key[1:]) % 4)
        return base64.b64decode(padded, altchars=b"-_", validate=True).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


async def ask_which_game(
    interaction: discord.Interaction[Any], action: str, arg: str, games: list[GameView]
) -> None:
    """Ask privately which of the user's games a command meant."""
    bot = bot_of(interaction)
    locale = user_locale(interaction)
    lines = [translate(locale, N_("You have several running games. Which one?"))]
    for view in games[:25]:
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        mine = view.to_move_id == interaction.user.id
        turn = translate(locale, N_("your turn") if mine else N_("their turn"))
        name = await display_name(bot, opponent, locale)
        line = _(
            "#{game_id} against {name} ({turn}): {url}",
            game_id=view.game_id,
            name=name,
            turn=turn,
            url=jump_url(view),
        )
        lines.append(translate(locale, line))
    menu = discord.ui.View(timeout=None)
    picker = GamePicker(action, arg, games=games)
    for option, view in zip(picker.item.options, games, strict=False):
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        versus = _(
            "#{game_id} vs {name}",
            game_id=view.game_id,
            name=await display_name(bot, opponent, locale),
        )
        option.label = fit_name(translate(locale, versus))
    picker.item.placeholder = translate(locale, N_("Which game?"))
    menu.add_item(picker)
    await answer(interaction, text.join_lines(lines, locale=locale), view=menu, ephemeral=True)
