"""Takebacks by consent (issue 13 item 3): /takeback asks the opponent, who answers with the
Accept/Decline buttons posted in the game's thread.

The request lives in the database (``bot.games.takebacks``); the buttons' custom ids carry the
game and its number of actions when asked, so a click after a restart works, and a click after
the opponent moved (or the request expired) is refused privately and changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.buttons import PersistentItem
from bot.cogs.common import (
    GameBot,
    SeveralGames,
    bot_of,
    game_channel_id,
    game_locale,
    in_game_channel,
    in_time,
    jump_url,
    mention,
    picture_file,
    resolve_game,
    send_to_game,
    status_text,
    update_clicked,
    user_locale,
)
from bot.cogs.play import game_choices
from bot.cogs.posts import answer, follow_up, send
from bot.games import GameView, Refusal
from bot.games.takebacks import TakebackRequest
from bot.i18n import N_, SOURCE, _, translate

log = logging.getLogger(__name__)

# -- words (one place for the translations to come) ------------------------------------------


def request_text(request: TakebackRequest, locale: str = SOURCE) -> str:
    """The public question of a takeback request."""
    question = _(
        "{opponent}, {asker} asks to take back {point} in game #{game_id}. Accept or decline: "
        "the request ends with your move or in 5 minutes.",
        opponent=mention(request.opponent_id, locale),
        asker=mention(request.asker_id, locale),
        point=request.point,
        game_id=request.game_id,
    )
    return translate(locale, question)


def asked_text(view: GameView, locale: str = SOURCE) -> str:
    """The asker's private answer when the question is posted in the game's thread."""
    asked = _(
        "I asked your opponent in the thread of game #{game_id}: {url}",
        game_id=view.game_id,
        url=jump_url(view),
    )
    return translate(locale, asked)


def answered_text(request: TakebackRequest, *, accepted: bool, locale: str = SOURCE) -> str:
    """What the request's message says once answered."""
    asker, opponent = mention(request.asker_id, locale), mention(request.opponent_id, locale)
    if accepted:
        said = _(
            "{opponent} accepted: {asker} takes back {point}.",
            opponent=opponent,
            asker=asker,
            point=request.point,
        )
    else:
        said = _(
            "{opponent} declined to take back {point}: play on.",
            opponent=opponent,
            point=request.point,
        )
    return translate(locale, said)


def taken_back_headline(request: TakebackRequest, locale: str = SOURCE) -> str:
    """The headline of the picture after an accepted takeback."""
    took = _(
        "{asker} took back {point} (accepted by {opponent}); their clock starts again.",
        asker=mention(request.asker_id, locale),
        point=request.point,
        opponent=mention(request.opponent_id, locale),
    )
    return translate(locale, took)


SEVERAL = N_("you have several running games: say which one with the `game` option")
NOT_YOUR_REQUEST = "This request is not yours to answer: "


# -- the buttons -----------------------------------------------------------------------------


class TakebackButton(
    PersistentItem[discord.ui.Button[Any]],
    template=(
        r"dots:takeback:(?P<action>accept|decline):(?P<key>[0-9]+):(?P<moves>[0-9]{1,6})"
        r"(?::(?P<asked>[0-9]{1,12}))?"
    ),
):
    """Accept or Decline a takeback request; the custom id carries the game, its number of
    actions when asked (a click once the game moved on is refused) and when it was asked
    (unix seconds: an older request's buttons never answer a newer one)."""

    LABELS: ClassVar[dict[str, str]] = {"accept": N_("Accept takeback"), "decline": N_("Decline")}

    def __init__(
        self,
        action: str,
        key: Any,
        /,
        *,
        moves: int = 0,
        asked: int | None = None,
        **options: Any,
    ) -> None:
        self.moves = moves
        self.asked = asked
        super().__init__(action, key, **options)

    def component(
        self, *, disabled: bool = False, locale: str = SOURCE, **options: Any
    ) -> discord.ui.Button[Any]:
        """The button, in ``locale``; ``disabled`` once the request is answered."""
        return discord.ui.Button(
            label=translate(locale, self.LABELS[self.action]),
            style=(
                discord.ButtonStyle.success
                if self.action == "accept"
                else discord.ButtonStyle.danger
            ),
            custom_id=f"dots:takeback:{self.action}:{self.key}:{self.moves}"
            + ("" if self.asked is None else f":{self.asked}"),
            disabled=disabled,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the request for the clicking user; accepted, the new picture goes to the
        game's thread."""
        bot = bot_of(interaction)
        accept = self.action == "accept"
        with bot.posts.pending(self.key):
            done, deferred = await in_time(
                interaction,
                bot.service.answer_takeback(
                    game_id=self.key,
                    user_id=interaction.user.id,
                    moves=self.moves,
                    accept=accept,
                    asked=self.asked,
                ),
                update=True,
            )
            locale = await game_locale(bot, done.view.guild_id)
            await update_clicked(
                interaction,
                deferred,
                answered_text(done.request, accepted=accept, locale=locale),
                view=takeback_view(self.key, self.moves, self.asked, disabled=True, locale=locale),
            )
            if done.taken is not None:
                picture = await picture_file(bot, done.view, locale=locale)
                headline = taken_back_headline(done.request, locale)
                content = status_text(done.view, headline=headline, locale=locale)
                await send_to_game(bot, done.view, content, files=[picture])


def takeback_view(
    game_id: int, moves: int, asked: int | None, *, disabled: bool = False, locale: str = SOURCE
) -> discord.ui.View:
    """The buttons under a takeback request, in ``locale``."""
    view = discord.ui.View(timeout=None)
    for action in ("accept", "decline"):
        view.add_item(
            TakebackButton(
                action, game_id, moves=moves, asked=asked, disabled=disabled, locale=locale
            )
        )
    return view


# -- the command -----------------------------------------------------------------------------


class Takebacks(commands.Cog):
    """/takeback: ask the opponent to take back your last move."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(
        name="takeback", description="Ask your opponent to take back your last move"
    )
    @app_commands.guild_only()
    @app_commands.describe(game="Game number, if you play several")
    async def takeback(
        self, interaction: discord.Interaction[Any], game: int | None = None
    ) -> None:
        """Post the request with Accept/Decline buttons in the game's thread (as the answer
        when asked there), for the opponent to answer."""
        try:
            view = await resolve_game(interaction, game)
        except SeveralGames as several:
            mine = [
                v
                for v in several.games
                if v.to_move_id not in {None, interaction.user.id}
                and v.game.actions
                and v.game.actions[-1].player == v.player_of(interaction.user.id)
            ]
            if len(mine) != 1:
                raise Refusal(SEVERAL) from None
            view = mine[0]
        here = in_game_channel(interaction, view)
        request, deferred = await in_time(
            interaction,
            self.bot.service.ask_takeback(game_id=view.game_id, user_id=interaction.user.id),
            ephemeral=not here,
        )
        locale = await game_locale(self.bot, view.guild_id)
        mine_locale = user_locale(interaction)
        buttons = takeback_view(view.game_id, request.moves, request.asked_key, locale=locale)
        question = request_text(request, locale)
        mentions = discord.AllowedMentions(everyone=False, roles=False, users=True)
        message: discord.Message | None = None
        if here and deferred is None:
            await answer(interaction, question, view=buttons, allowed_mentions=mentions)
            message = await interaction.original_response()
        elif here and deferred:
            message = await follow_up(
                interaction, question, view=buttons, allowed_mentions=mentions
            )
        else:
            channel = self.bot.get_partial_messageable(
                game_channel_id(view), guild_id=view.guild_id
            )
            try:
                message = await send(channel, question, view=buttons, allowed_mentions=mentions)
            except discord.HTTPException:
                log.warning("could not post the takeback request of game %s", view.game_id)
            if deferred is None:
                await answer(interaction, asked_text(view, mine_locale), ephemeral=True)
            elif deferred:
                await follow_up(interaction, asked_text(view, mine_locale), ephemeral=True)
        if message is not None:
            await self.bot.service.set_takeback_message(game_id=view.game_id, message_id=message.id)


DYNAMIC_ITEMS = (TakebackButton,)
