"""The persistent buttons (challenge, confirmation, game picker) and the actions they run,
which the slash commands run too.

Buttons are dynamic items: their custom ids carry the challenge or game id, so a click works
after a restart and the state stays in the database, never in a view. ``PersistentItem``
rebuilds each from its custom id and answers every error privately.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from typing import Any, ClassVar, Self, TypeVar

import discord

from bot import text
from bot.cogs.common import (
    announce,
    answer_error,
    bot_of,
    deferred_if_slow,
    display_name,
    in_game_channel,
    in_time,
    is_id,
    jump_url,
    mentions,
    picture_file,
    refuse,
    status_text,
    suggest_points,
    update_clicked,
)
from bot.cogs.posts import answer, edit, fit_content, fit_name, follow_up
from bot.cogs.starts import post_game_start
from bot.games import GameOver, GameView, NotYourChallenge, NotYourGame, NotYourTurn, Refusal
from engine import InvalidPointError, Point, describe_board

log = logging.getLogger(__name__)

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


# discord.py asks every DynamicItem for a template; the base's matches nothing (it is never
# registered: ``DYNAMIC_ITEMS`` lists the three below).
class PersistentItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A button or menu whose custom id ``dots:<kind>:<action>:<key>`` says what it does
    (``action``) and to what (``key``: an id, or the argument of a command); subclasses give
    the ``template`` (with groups ``action`` and ``key``), build the component in
    ``component`` and act in ``run``."""

    # The key of an item rebuilt from a forged custom id (see ``from_custom_id``).
    NO_KEY: ClassVar[Any] = 0

    def __init__(self, action: str, key: Any, /, **options: Any) -> None:
        self.action = action
        self.key = key
        self.forged = False
        super().__init__(self.component(**options))

    def component(self, **options: Any) -> ItemT:
        """The Discord component for ``self.action`` and ``self.key``."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """Rebuild the item from its custom id (never raising: discord.py would log it and
        leave the click unanswered): an item with a forged key is marked ``forged`` and its
        click refused."""
        key = cls.parse_key(match["key"])
        item = cls(match["action"], cls.NO_KEY if key is None else key)
        item.forged = key is None
        return item

    @classmethod
    def parse_key(cls, key: str) -> Any:
        """The key a custom id carries (an id, by default); None when none of our components
        could carry it (a forged id out of range)."""
        value = int(key)  # the template's key is digits
        return value if is_id(value) else None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Run the action; any error is answered privately (see ``answer_error``)."""
        try:
            if self.forged:
                raise Refusal("this button is not one I know: nothing changed")
            await self.run(interaction)
        except Exception as error:
            await answer_error(interaction, error)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Do what the click asks."""
        raise NotImplementedError


class ChallengeButton(
    PersistentItem[discord.ui.Button[Any]],
    template=r"dots:challenge:(?P<action>accept|decline|cancel):(?P<key>[0-9]+)",
):
    """Accept, Decline (the challenged player) or Withdraw (the challenger) a challenge."""

    LABELS: ClassVar[dict[str, str]] = {
        "accept": "Accept",
        "decline": "Decline",
        "cancel": "Withdraw",
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }

    def component(self, *, disabled: bool = False, **options: Any) -> discord.ui.Button[Any]:
        """The button; ``disabled`` once the challenge is closed."""
        return discord.ui.Button(
            label=self.LABELS[self.action],
            style=self.STYLES[self.action],
            custom_id=f"dots:challenge:{self.action}:{self.key}",
            disabled=disabled,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Accept, decline or withdraw."""
        try:
            if self.action == "accept":
                await accept_challenge(interaction, self.key)
            else:
                await close_challenge(interaction, self.key, self.action)
        except NotYourChallenge as refusal:
            raise Refusal(f"This is not your challenge: {refusal}") from None


class ConfirmButton(
    PersistentItem[discord.ui.Button[Any]],
    template=r"dots:confirm:(?P<action>end|resign|keep):(?P<key>[0-9]+)",
):
    """The buttons of the private end/resign confirmation."""

    def component(self, *, label: str = "", **options: Any) -> discord.ui.Button[Any]:
        """The button (``label`` replaces the default one, e.g. "Stop")."""
        style = (
            discord.ButtonStyle.secondary if self.action == "keep" else discord.ButtonStyle.danger
        )
        return discord.ui.Button(
            label=label or {"end": "End", "resign": "Resign", "keep": "Keep playing"}[self.action],
            style=style,
            custom_id=f"dots:confirm:{self.action}:{self.key}",
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """End or resign for the clicking user, or leave things as they are."""
        if self.action == "keep":
            await edit(interaction, "Nothing changed: play on.", view=None, attachments=[])
            return
        bot = bot_of(interaction)
        act = bot.service.end if self.action == "end" else bot.service.resign
        with bot.posts.pending(self.key):
            outcome, deferred = await in_time(
                interaction, act(game_id=self.key, user_id=interaction.user.id), update=True
            )
            if self.action == "resign":
                done = "You resigned."
            elif outcome.view.game.rules == "grounding":
                done = "You stopped."
            else:
                done = "You ended."
            await update_clicked(interaction, deferred, done, view=None, attachments=[])
            await announce(bot, outcome)


class GamePicker(
    PersistentItem[discord.ui.Select[Any]],
    template=r"dots:pick:(?P<action>move|end|resign|board):(?P<key>[A-Za-z0-9_-]{0,80})",
):
    """A menu that asks which game a command meant, for players with several games; its key
    is the command's argument (the point of a move, see ``point_key``)."""

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
            custom_id=f"dots:pick:{self.action}:{point_key(self.key or '')}",
            placeholder="Which game?",
            options=choices,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Run the command in the chosen game.

        Raises:
            Refusal: the pick is not a game id (a forged menu).
        """
        values = self.item.values
        if len(values) != 1 or not re.fullmatch(r"[0-9]{1,19}", values[0], re.ASCII):
            raise Refusal("that is not one of your games: run the command again")
        game_id = int(values[0])
        if not is_id(game_id):
            raise Refusal("that is not one of your games: run the command again")
        view = await bot_of(interaction).service.game(game_id)
        if view.guild_id != interaction.guild_id:
            raise NotYourGame("you are not playing in this game")
        await run_action(interaction, self.action, view, self.key)


# The custom id's key of a picker: a point name as it is (A-Z, 0-9), anything else typed
# base64url-encoded after a "_" (which no point name starts with), cut to fit the custom id.
# 80 characters, the template's bound: "dots:pick:resign:" and 80 make 97, within Discord's
# 100 (posts.CUSTOM_ID).
_KEY_ROOM = 80


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


def challenge_view(challenge_id: int, *, disabled: bool = False) -> discord.ui.View:
    """The buttons under a challenge."""
    view = discord.ui.View(timeout=None)
    for action in ("accept", "decline", "cancel"):
        view.add_item(ChallengeButton(action, challenge_id, disabled=disabled))
    return view


async def ask_which_game(
    interaction: discord.Interaction[Any], action: str, arg: str, games: list[GameView]
) -> None:
    """Ask privately which of the user's games a command meant."""
    bot = bot_of(interaction)
    lines = ["You have several running games. Which one?"]
    for view in games[:25]:
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        turn = "your turn" if view.to_move_id == interaction.user.id else "their turn"
        name = await display_name(bot, opponent)
        lines.append(f"#{view.game_id} against {name} ({turn}): {jump_url(view)}")
    menu = discord.ui.View(timeout=None)
    picker = GamePicker(action, arg, games=games)
    for option, view in zip(picker.item.options, games, strict=False):
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        option.label = fit_name(f"#{view.game_id} vs {await display_name(bot, opponent)}")
    menu.add_item(picker)
    await answer(interaction, text.join_lines(lines), view=menu, ephemeral=True)


# -- the actions behind buttons and commands -------------------------------------------------


async def accept_challenge(interaction: discord.Interaction[Any], challenge_id: int) -> None:
    """The challenged player accepts: a thread, the first picture and a ping for Pink."""
    bot = bot_of(interaction)
    view, deferred = await in_time(
        interaction,
        bot.service.accept(challenge_id=challenge_id, user_id=interaction.user.id),
        update=True,
    )
    pink, blue = mentions(view).values()
    # Answer first (names, thread and picture take further round trips to Discord).
    await update_clicked(
        interaction,
        deferred,
        f"{interaction.user.mention} accepted. Game #{view.game_id}: {pink} (Pink) "
        f"vs {blue} (Blue).",
        view=challenge_view(challenge_id, disabled=True),
    )
    await post_game_start(bot, interaction, view, interaction.message)


async def close_challenge(
    interaction: discord.Interaction[Any], challenge_id: int, action: str
) -> None:
    """Decline (the challenged) or withdraw (the challenger) a challenge."""
    service = bot_of(interaction).service
    close = service.decline if action == "decline" else service.cancel
    challenge, deferred = await in_time(
        interaction, close(challenge_id=challenge_id, user_id=interaction.user.id), update=True
    )
    if action == "decline":
        content = f"<@{challenge.opponent_id}> declined the challenge."
    else:
        content = f"<@{challenge.challenger_id}> withdrew the challenge."
    await update_clicked(
        interaction, deferred, content, view=challenge_view(challenge_id, disabled=True)
    )


async def run_action(
    interaction: discord.Interaction[Any], action: str, view: GameView, arg: str = ""
) -> None:
    """Run ``action`` (move, end, resign, board) in the game ``view``."""
    if action == "move":
        await play_move(interaction, view, arg)
    elif action == "end":
        await confirm(interaction, view, "end")
    elif action == "resign":
        await confirm(interaction, view, "resign")
    else:
        await show_board(interaction, view)


async def play_move(interaction: discord.Interaction[Any], view: GameView, point: str) -> None:
    """Place a dot; the new picture goes to the game's thread.

    What this game's snapshot already refuses is refused at once, privately; the service's
    answer is awaited only briefly before the interaction is acknowledged (its queue can be
    long under a burst), and a refusal that comes only then is still private (see
    ``deferred_if_slow``)."""
    bot = bot_of(interaction)
    check_move(interaction, view, point)
    here = in_game_channel(interaction, view)
    with bot.posts.pending(view.game_id):
        outcome, acknowledged = await deferred_if_slow(
            interaction,
            bot.service.place(game_id=view.game_id, user_id=interaction.user.id, point=point),
            ephemeral=not here,
        )
        if not acknowledged:
            # The interaction expired (10062) but the move is stored: show it in the thread.
            log.warning("move of game %s posted in its thread, unanswered", view.game_id)
            await announce(bot, outcome)
        elif here:
            await announce(bot, outcome, interaction=interaction)
        else:
            await announce(bot, outcome)
            placed = outcome.placement.point.name if outcome.placement else point
            await follow_up(
                interaction,
                f"Played {placed} in game #{view.game_id}: {jump_url(view)}",
                ephemeral=True,
            )


def check_move(interaction: discord.Interaction[Any], view: GameView, point: str) -> None:
    """Refuse what this snapshot of the game already refuses (not your turn, not a point,
    off the board, taken, inside a base), before anything slow; the service checks again.

    Raises:
        NotYourGame, GameOver, NotYourTurn, Refusal (not a point), DotsError (the engine's
        refusal of the dot).
    """
    check_turn(interaction, view)
    board = view.game.board
    try:
        Point.parse(point)
    except InvalidPointError:
        example = next(iter(suggest_points(view, "")), "E5")
        shown = fit_content(" ".join(point.split()), 20) or "An empty name"
        raise Refusal(
            f"`{shown}` is not a point: a point is a column letter and a row number, like "
            f"{example} ({describe_board(board.width, board.height)})"
        ) from None
    board.copy().place(point, view.game.to_move)  # type: ignore[arg-type]


def check_turn(interaction: discord.Interaction[Any], view: GameView) -> None:
    """Refuse early (before a confirmation is shown) what the service would refuse anyway.

    Raises:
        NotYourGame, GameOver, NotYourTurn.
    """
    colour = view.player_of(interaction.user.id)
    if colour is None:
        raise NotYourGame("you are not playing in this game")
    if not view.is_running:
        raise GameOver("this game is over")
    if view.to_move is not colour:
        raise NotYourTurn(
            f"it is not your turn: {view.to_move.label if view.to_move else ''} is to move"
        )


async def confirm(interaction: discord.Interaction[Any], view: GameView, action: str) -> None:
    """Ask privately to confirm ending or resigning; for a stop, show what it hands over."""
    bot = bot_of(interaction)
    game = view.game
    colour = view.player_of(interaction.user.id)
    if action == "resign":
        if colour is None:
            raise NotYourGame("you are not playing in this game")
        if not view.is_running:
            raise GameOver("this game is over")
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(ConfirmButton("resign", view.game_id))
        buttons.add_item(ConfirmButton("keep", view.game_id))
        await answer(
            interaction,
            f"Resign game #{view.game_id}? Your opponent wins, whatever the score.",
            view=buttons,
            ephemeral=True,
        )
        return
    check_turn(interaction, view)
    assert colour is not None
    preview = game.stop_preview(colour) if game.rules == "grounding" else None
    prompt = text.end_confirmation(game, colour, preview)
    if preview is not None and not preview.allowed:
        await refuse(interaction, prompt)
        return
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(ConfirmButton("end", view.game_id, label="Stop" if preview else "End"))
    buttons.add_item(ConfirmButton("keep", view.game_id))
    if preview is None:
        await answer(interaction, prompt, view=buttons, ephemeral=True)
        return
    await interaction.response.defer(thinking=True, ephemeral=True)
    picture = await picture_file(bot, view, preview=preview)
    await follow_up(interaction, prompt, file=picture, view=buttons, ephemeral=True)


async def show_board(interaction: discord.Interaction[Any], view: GameView) -> None:
    """The current picture: public in the game's thread, private elsewhere."""
    here = in_game_channel(interaction, view)
    await interaction.response.defer(thinking=True, ephemeral=not here)
    picture = await picture_file(bot_of(interaction), view)
    await follow_up(interaction, status_text(view), file=picture, ephemeral=not here)


DYNAMIC_ITEMS = (ChallengeButton, ConfirmButton, GamePicker)
