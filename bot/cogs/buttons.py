"""The persistent buttons (challenge, confirmation, game picker) and the actions they run,
which the slash commands run too; and ``Starts``, which finishes at start-up the accepts a
kill interrupted.

Buttons are dynamic items: their custom ids carry the challenge or game id, so a click works
after a restart and the state stays in the database, never in a view. ``PersistentItem``
rebuilds each from its custom id and answers every error privately.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from datetime import datetime
from typing import Any, ClassVar, Self, TypeVar

import discord
from discord.ext import commands

from bot import text
from bot.cogs.common import (
    RESTARTING,
    GameBot,
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
    public_locale,
    refuse,
    status_text,
    suggest_points,
    update_clicked,
    user_locale,
)
from bot.cogs.posts import (
    answer,
    edit,
    edit_message,
    fit_content,
    fit_name,
    follow_up,
    respond,
)
from bot.cogs.starts import post_game_start
from bot.error_words import board_message
from bot.games import (
    Challenge,
    GameChanged,
    GameOver,
    GameView,
    NotYourChallenge,
    NotYourGame,
    NotYourTurn,
    Refusal,
)
from bot.i18n import N_, SOURCE, _, translate
from engine import InvalidPointError, Point

log = logging.getLogger(__name__)

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])

CONFIRM_TTL_SECONDS = 10 * 60
"""How long an end/resign confirmation can be clicked."""


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
        click refused. The template's other groups are numbers (e.g. the position a button
        was made for), passed to the constructor by name (None when the group is absent)."""
        key = cls.parse_key(match["key"])
        numbers = {
            name: None if value is None else int(value)
            for name, value in match.groupdict().items()
            if name not in {"action", "key"}
        }
        item = cls(match["action"], cls.NO_KEY if key is None else key, **numbers)
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
            if not bot_of(interaction).admit():
                raise Refusal(RESTARTING)
            if self.forged:
                raise Refusal(N_("this button is not one I know: nothing changed"))
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
        "accept": N_("Accept"),
        "decline": N_("Decline"),
        "cancel": N_("Withdraw"),
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }

    def component(
        self, *, disabled: bool = False, locale: str = SOURCE, **options: Any
    ) -> discord.ui.Button[Any]:
        """The button (its label in ``locale``); ``disabled`` once the challenge is closed."""
        return discord.ui.Button(
            label=translate(locale, self.LABELS[self.action]),
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
            raise Refusal(
                _(
                    "This is not your challenge: {reason}",
                    reason=refusal.render(user_locale(interaction)),
                )
            ) from None


class ConfirmButton(
    PersistentItem[discord.ui.Button[Any]],
    template=(
        r"dots:confirm:(?P<action>end|resign|keep):(?P<key>[0-9]+)"
        r"(?::(?P<moves>[0-9]+):(?P<shown>[0-9]+))?"
    ),
):
    """The buttons of the private end/resign confirmation. The custom id also carries the
    position it was shown for (the game's number of actions) and when (unix seconds): a click
    after the game moved on, or after ``CONFIRM_TTL``, is refused with a fresh confirmation
    (as is a button made before these were recorded)."""

    def __init__(
        self,
        action: str,
        key: Any,
        /,
        *,
        moves: int | None = None,
        shown: int | None = None,
        **options: Any,
    ) -> None:
        self.moves = moves
        self.shown = shown
        super().__init__(action, key, **options)

    def component(
        self, *, label: str = "", locale: str = SOURCE, **options: Any
    ) -> discord.ui.Button[Any]:
        """The button, in ``locale`` (``label`` replaces the default one, e.g. "Stop")."""
        style = (
            discord.ButtonStyle.secondary if self.action == "keep" else discord.ButtonStyle.danger
        )
        custom_id = f"dots:confirm:{self.action}:{self.key}"
        if self.moves is not None and self.shown is not None:
            custom_id += f":{self.moves}:{self.shown}"
        return discord.ui.Button(
            label=label
            or translate(
                locale,
                {"end": N_("End"), "resign": N_("Resign"), "keep": N_("Keep playing")}[self.action],
            ),
            style=style,
            custom_id=custom_id,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """End or resign for the clicking user, or leave things as they are; a stale or
        expired confirmation is answered with a fresh one."""
        locale = user_locale(interaction)
        if self.action == "keep":
            nothing = translate(locale, N_("Nothing changed: play on."))
            await edit(interaction, nothing, view=None, attachments=[])
            return
        bot = bot_of(interaction)
        now = bot.service.now().timestamp()
        if self.moves is None or self.shown is None or now - self.shown > CONFIRM_TTL_SECONDS:
            await self.ask_again(
                interaction, translate(locale, N_("This confirmation has expired."))
            )
            return
        act = bot.service.end if self.action == "end" else bot.service.resign
        with bot.posts.pending(self.key):
            try:
                outcome, deferred = await in_time(
                    interaction,
                    act(game_id=self.key, user_id=interaction.user.id, moves=self.moves),
                    update=True,
                )
            except GameChanged:
                moved = translate(locale, N_("The game moved on since you were asked."))
                await self.ask_again(interaction, moved)
                return
            if self.action == "resign":
                done = translate(locale, N_("You resigned."))
            elif outcome.view.game.rules == "grounding":
                done = translate(locale, N_("You stopped."))
            else:
                done = translate(locale, N_("You ended."))
            await update_clicked(interaction, deferred, done, view=None, attachments=[])
            await announce(bot, outcome)

    async def ask_again(self, interaction: discord.Interaction[Any], why: str) -> None:
        """Nothing done: a fresh confirmation for the game as it is now (or the refusal)."""
        view = await bot_of(interaction).service.game(self.key)
        nothing = translate(user_locale(interaction), _("{why} Nothing changed.", why=why))
        await confirm(interaction, view, self.action, note=nothing)


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
        game_id = int(values[0])
        if not is_id(game_id):
            raise Refusal(N_("that is not one of your games: run the command again"))
        view = await bot_of(interaction).service.game(game_id)
        if view.guild_id != interaction.guild_id:
            raise NotYourGame(N_("you are not playing in this game"))
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


def challenge_view(
    challenge_id: int,
    *,
    disabled: bool = False,
    open_to_anyone: bool = False,
    locale: str = SOURCE,
) -> discord.ui.View:
    """The buttons under a challenge (an open one, to anyone, has no Decline), in ``locale``."""
    view = discord.ui.View(timeout=None)
    actions = ("accept", "cancel") if open_to_anyone else ("accept", "decline", "cancel")
    for action in actions:
        view.add_item(ChallengeButton(action, challenge_id, disabled=disabled, locale=locale))
    return view


def expired_text(challenge: Challenge, locale: str = SOURCE) -> str:
    """What a challenge's message says once it expired unanswered."""
    if challenge.opponent_id is None:
        message = _(
            "The open challenge of <@{challenger}> expired: nobody took it.",
            challenger=challenge.challenger_id,
        )
    elif challenge.rematch_of is not None:
        message = _(
            "The rematch offer of <@{challenger}> to <@{opponent}> (game #{game_id}) expired "
            "unanswered.",
            challenger=challenge.challenger_id,
            opponent=challenge.opponent_id,
            game_id=challenge.rematch_of,
        )
    else:
        message = _(
            "The challenge of <@{challenger}> to <@{opponent}> expired unanswered.",
            challenger=challenge.challenger_id,
            opponent=challenge.opponent_id,
        )
    return translate(locale, message)


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


# -- the actions behind buttons and commands -------------------------------------------------


async def accept_challenge(interaction: discord.Interaction[Any], challenge_id: int) -> None:
    """The challenged player accepts: a thread, the first picture and a ping for Pink."""
    bot = bot_of(interaction)

    async def accept() -> tuple[GameView, Challenge]:
        view = await bot.service.accept(challenge_id=challenge_id, user_id=interaction.user.id)
        return view, await bot.service.get_challenge(challenge_id)

    (view, challenge), deferred = await in_time(interaction, accept(), update=True)
    locale = await public_locale(interaction)
    # Answer first (names, thread and picture take further round trips to Discord).
    await update_clicked(
        interaction,
        deferred,
        accepted_text(challenge, view, locale),
        view=challenge_view(challenge_id, disabled=True, locale=locale),
    )
    message = interaction.message
    await bot.service.mark_answer_shown(
        challenge_id=challenge_id, message_id=None if message is None else message.id
    )
    await post_game_start(bot, interaction, view, message)


async def close_challenge(
    interaction: discord.Interaction[Any], challenge_id: int, action: str
) -> None:
    """Decline (the challenged) or withdraw (the challenger) a challenge."""
    service = bot_of(interaction).service
    close = service.decline if action == "decline" else service.cancel
    challenge, deferred = await in_time(
        interaction, close(challenge_id=challenge_id, user_id=interaction.user.id), update=True
    )
    locale = await public_locale(interaction)
    if action == "decline":
        message = _("<@{user}> declined the challenge.", user=challenge.opponent_id)
    else:
        message = _("<@{user}> withdrew the challenge.", user=challenge.challenger_id)
    await update_clicked(
        interaction,
        deferred,
        translate(locale, message),
        view=challenge_view(challenge_id, disabled=True, locale=locale),
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

    What this game's snapshot already refuses is refused at once, privately; then the
    interaction is deferred while the service places the dot (its queue can be long under a
    burst), unless another action in this game is under way (a double submit: then the
    refusal is awaited briefly, to be private from the start; see ``deferred_if_slow``)."""
    bot = bot_of(interaction)
    check_move(interaction, view, point)
    here = in_game_channel(interaction, view)
    with bot.posts.pending(view.game_id):
        outcome, acknowledged = await deferred_if_slow(
            interaction,
            bot.service.place(game_id=view.game_id, user_id=interaction.user.id, point=point),
            ephemeral=not here,
            contended=bot.posts.others(view.game_id),
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
            played = _(
                "Played {point} in game #{game_id}: {url}",
                point=placed,
                game_id=view.game_id,
                url=jump_url(view),
            )
            locale = user_locale(interaction)
            await follow_up(interaction, translate(locale, played), ephemeral=True)


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
        shown = fit_content(" ".join(point.split()), 20)
        raise Refusal(
            _(
                "{shown} is not a point: a point is a column letter and a row number, like "
                "{example} ({board})",
                shown=f"`{shown}`" if shown else N_("An empty name"),
                example=example,
                board=board_message(board.width, board.height),
            )
        ) from None
    board.copy().place(point, view.game.to_move)  # type: ignore[arg-type]


def check_turn(interaction: discord.Interaction[Any], view: GameView) -> None:
    """Refuse early (before a confirmation is shown) what the service would refuse anyway.

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


async def confirm(
    interaction: discord.Interaction[Any], view: GameView, action: str, *, note: str = ""
) -> None:
    """Ask privately to confirm ending or resigning; for a stop, show what it hands over.
    The buttons are for this position only (see ``ConfirmButton``); ``note`` comes first."""
    bot = bot_of(interaction)
    game = view.game
    colour = view.player_of(interaction.user.id)
    shown = {"moves": len(game.actions), "shown": int(bot.service.now().timestamp())}
    locale = user_locale(interaction)
    lead = f"{note}\n" if note else ""
    if action == "resign":
        if colour is None:
            raise NotYourGame(N_("you are not playing in this game"))
        if not view.is_running:
            raise GameOver(N_("this game is over"))
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(ConfirmButton("resign", view.game_id, locale=locale, **shown))
        buttons.add_item(ConfirmButton("keep", view.game_id, locale=locale, **shown))
        ask = _(
            "Resign game #{game_id}? Your opponent wins, whatever the score.",
            game_id=view.game_id,
        )
        # ``respond``: a fresh confirmation may answer a click deferred already (ask_again).
        await respond(interaction, lead + translate(locale, ask), view=buttons, ephemeral=True)
        return
    check_turn(interaction, view)
    assert colour is not None
    preview = game.stop_preview(colour) if game.rules == "grounding" else None
    prompt = lead + text.end_confirmation(game, colour, preview, locale=locale)
    if preview is not None and not preview.allowed:
        await refuse(interaction, prompt)
        return
    buttons = discord.ui.View(timeout=None)
    label = translate(locale, N_("Stop") if preview else N_("End"))
    buttons.add_item(ConfirmButton("end", view.game_id, label=label, locale=locale, **shown))
    buttons.add_item(ConfirmButton("keep", view.game_id, locale=locale, **shown))
    if preview is None:
        await respond(interaction, prompt, view=buttons, ephemeral=True)
        return
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=True)
    picture = await picture_file(bot, view, preview=preview, locale=locale)
    await follow_up(interaction, prompt, file=picture, view=buttons, ephemeral=True)


async def show_board(interaction: discord.Interaction[Any], view: GameView) -> None:
    """The current picture: public in the game's thread, private elsewhere."""
    here = in_game_channel(interaction, view)
    await interaction.response.defer(thinking=True, ephemeral=not here)
    locale = await public_locale(interaction) if here else user_locale(interaction)
    picture = await picture_file(bot_of(interaction), view, locale=locale)
    await follow_up(interaction, status_text(view, locale=locale), file=picture, ephemeral=not here)


# -- finishing the starts a kill interrupted (issue 10 item 3) -------------------------------
#
# What a start has done is in the database: the game's thread id, its first picture's message
# id, and whether the challenge's message says it was accepted. Each step is recorded as it
# is done, so finishing is idempotent (a kill in the middle of a step may repeat that step).


def accepted_text(challenge: Challenge, view: GameView, locale: str = SOURCE) -> str:
    """What a challenge's message says once accepted."""
    pink, blue = mentions(view, locale).values()
    accepted = _(
        "<@{user}> accepted. Game #{game_id}: {pink} (Pink) vs {blue} (Blue).",
        user=challenge.opponent_id,
        game_id=view.game_id,
        pink=pink,
        blue=blue,
    )
    return translate(locale, accepted)


async def challenge_message(bot: GameBot, challenge: Challenge) -> discord.PartialMessage | None:
    """The message showing ``challenge``: by its recorded id, else found among the channel's
    last 50 messages by its Accept button (a kill can come before the id was recorded)."""
    channel = bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id)
    if challenge.message_id is not None:
        return channel.get_partial_message(challenge.message_id)
    accept = f"dots:challenge:accept:{challenge.challenge_id}"
    try:
        async for message in channel.history(limit=50):
            if message.author.id == getattr(bot.user, "id", None) and any(
                getattr(child, "custom_id", None) == accept
                for row in message.components
                for child in getattr(row, "children", [])
            ):
                return channel.get_partial_message(message.id)
    except discord.HTTPException:
        log.info("could not read the channel of challenge %s", challenge.challenge_id)
    return None


async def finish_starts(bot: GameBot, *, before: datetime) -> int:
    """Finish the starts a kill interrupted (see the comment above); how many steps. Only
    what was made ``before`` (the start of this process): a start under way is left alone."""
    service = bot.service
    done = 0
    shown: dict[int, discord.PartialMessage] = {}
    for challenge in await service.unshown_accepts():
        if challenge.game_id is None:
            continue
        view = await service.game(challenge.game_id)
        if view.started >= before:
            continue
        message = await challenge_message(bot, challenge)
        if message is not None:
            try:
                await edit_message(
                    message,
                    content=accepted_text(challenge, view),
                    view=challenge_view(challenge.challenge_id, disabled=True),
                )
            except discord.HTTPException:
                log.info("could not edit the message of challenge %s", challenge.challenge_id)
            shown[challenge.game_id] = message
        await service.mark_answer_shown(
            challenge_id=challenge.challenge_id,
            message_id=None if message is None else message.id,
        )
        done += 1
    for challenge in await service.unrecorded_challenges():
        if challenge.created >= before:
            continue
        message = await challenge_message(bot, challenge)
        if message is not None:
            await service.set_challenge_message(
                challenge_id=challenge.challenge_id, message_id=message.id
            )
            done += 1
    for view in await service.unstarted_games():
        if view.started >= before:
            continue
        message = shown.get(view.game_id)
        if message is None and view.challenge_id is not None:
            challenge = await service.get_challenge(view.challenge_id)
            message = await challenge_message(bot, challenge)
        with bot.posts.pending(view.game_id):
            await post_game_start(bot, None, view, message)
        done += 1
    return done


class Starts(commands.Cog):
    """Finishes, once connected after a start-up, the game starts a kill interrupted."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._finished = False
        self._since = bot.service.now()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process (``on_ready`` also follows a reconnect): finish the starts. Admitted
        like an interaction's handler, so a close under way waits for it before the database
        closes (what it leaves undone, the next start-up finishes)."""
        if self._finished or not self.bot.admit():
            return
        self._finished = True
        try:
            done = await finish_starts(self.bot, before=self._since)
        except Exception:
            log.exception("could not finish the interrupted starts")
            return
        if done:
            log.info("interrupted starts finished: %d steps", done)


DYNAMIC_ITEMS = (ChallengeButton, ConfirmButton, GamePicker)
