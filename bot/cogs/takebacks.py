"""Takebacks by consent: /takeback asks the opponent, who answers with the
Accept/Decline buttons posted in the game's thread.

The request lives in the database (``bot.games.takebacks``); the buttons' custom ids carry the
game and its number of actions when asked, so a click after a restart works, and a click after
the opponent moved (or the request expired) is refused privately and changes nothing.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.client import GameBot, bot_of
from bot.cogs.in_game import Action, game_choices, handles, run_in_game
from bot.cogs.interactions import in_time, update_clicked
from bot.cogs.locales import user_locale
from bot.cogs.names import mention
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.posting import (
    game_channel_id,
    in_game_channel,
    jump_url,
    picture_file,
    send_to_game,
    status_text,
)
from bot.cogs.posts import answer, edit_message, edit_placeholder, follow_up, send
from bot.games import (
    GameView,
    PostKind,
    TakebackAnswered,
    TakebackAsked,
    TakebackStatus,
    owing_ask,
    owing_takeback,
)
from bot.games.takebacks import TakebackRequest
from bot.i18n import N_, SOURCE, _, translate
from bot.outbox import delivering

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


# -- the buttons -----------------------------------------------------------------------------


class TakebackButton(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId(
        "dots:takeback",
        ("accept", "decline"),
        fields=(("moves", "[0-9]{1,6}"),),
        optional=(("asked", "[0-9]{1,12}"),),
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
            custom_id=self.made_id(moves=self.moves, asked=self.asked),
            disabled=disabled,
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the request for the clicking user; accepted, the new picture goes to the
        game's thread."""
        bot = bot_of(interaction)
        accept = self.action == "accept"
        # The answer's post is stored with it (in its transaction) and delivered inside
        # ``delivering``: a crash between the two leaves it for the next start.
        with bot.posts.pending(self.key), owing_takeback(self.key, token=interaction.token):
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
            async with delivering(bot.outbox, PostKind.TAKEBACK):
                locale = await bot.locales.of_place(done.view.guild_id, done.view.channel_id)
                await update_clicked(
                    interaction,
                    deferred,
                    answered_text(done.request, accepted=accept, locale=locale),
                    view=takeback_view(
                        self.key, self.moves, self.asked, disabled=True, locale=locale
                    ),
                )
                if done.taken is not None:
                    await post_taken_back(bot, done.request, done.view, locale)


async def post_taken_back(
    bot: GameBot, request: TakebackRequest, view: GameView, locale: str
) -> None:
    """The game's picture after an accepted takeback, in its thread."""
    picture = await picture_file(bot, view, locale=locale)
    headline = taken_back_headline(request, locale)
    content = status_text(view, headline=headline, locale=locale)
    await send_to_game(bot, view, content, files=[picture])


async def show_answer_again(
    bot: GameBot, request: TakebackRequest, view: GameView, token: str | None
) -> None:
    """Show a takeback's answer after a restart: in the placeholder of the click it answered
    (the request's message) while Discord still allows the click's token, else by editing the
    request's message (both edits: shown once however often they are done); accepted, the
    game's picture then goes to its thread (its nonce keeps it single)."""
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    accepted = request.status == TakebackStatus.ACCEPTED
    content = answered_text(request, accepted=accepted, locale=locale)
    buttons = takeback_view(
        view.game_id, request.moves, request.asked_key, disabled=True, locale=locale
    )
    shown = False
    if token is not None:
        try:
            await edit_placeholder(bot, token, content, view=buttons)
            shown = True
        except discord.HTTPException:
            log.info("game %s: the placeholder of its takeback answer is gone", view.game_id)
    if not shown and request.message_id is not None:
        channel = bot.get_partial_messageable(game_channel_id(view), guild_id=view.guild_id)
        message = channel.get_partial_message(request.message_id)
        with contextlib.suppress(discord.HTTPException):
            await edit_message(message, content=content, view=buttons)
    if accepted:
        await post_taken_back(bot, request, view, locale)


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

    @commands.Cog.listener()
    async def on_dots_takeback_answered(self, event: TakebackAnswered) -> None:
        """A takeback's answer whose post a crash left unsent (``bot.outbox``): shown now."""
        async with delivering(self.bot.outbox, PostKind.TAKEBACK):
            await show_answer_again(self.bot, event.request, event.view, event.token)

    @commands.Cog.listener()
    async def on_dots_takeback_asked(self, event: TakebackAsked) -> None:
        """A takeback request whose post a crash left unsent (``bot.outbox``): posted now."""
        async with delivering(self.bot.outbox, PostKind.ASKED):
            await ask_again(self.bot, event.request, event.view, event.token)

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
        await run_in_game(interaction, Action.TAKEBACK, game)


@handles(Action.TAKEBACK)
async def ask_takeback(interaction: discord.Interaction[Any], view: GameView, _arg: str) -> None:
    """The takeback action: post the request in the game's thread (as the answer when asked
    there), for the opponent to answer."""
    bot = bot_of(interaction)
    here = in_game_channel(interaction, view)
    # The request's post is stored with it (in its transaction) and delivered inside
    # ``delivering``: a crash between the two leaves it for the next start.
    with owing_ask(view.game_id, token=interaction.token):
        request, deferred = await in_time(
            interaction,
            bot.service.ask_takeback(game_id=view.game_id, user_id=interaction.user.id),
            ephemeral=not here,
        )
        async with delivering(bot.outbox, PostKind.ASKED):
            await post_request(interaction, view, request, deferred, here=here)


async def post_request(
    interaction: discord.Interaction[Any],
    view: GameView,
    request: TakebackRequest,
    deferred: bool | None,
    *,
    here: bool,
) -> None:
    """Post a takeback request (as the answer when asked in the game's thread) and remember
    its message."""
    bot = bot_of(interaction)
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    mine_locale = user_locale(interaction)
    buttons = takeback_view(view.game_id, request.moves, request.asked_key, locale=locale)
    question = request_text(request, locale)
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=True)
    message: discord.Message | None = None
    if here and deferred is None:
        await answer(interaction, question, view=buttons, allowed_mentions=mentions)
        message = await interaction.original_response()
    elif here and deferred:
        message = await follow_up(interaction, question, view=buttons, allowed_mentions=mentions)
    else:
        channel = bot.get_partial_messageable(game_channel_id(view), guild_id=view.guild_id)
        try:
            message = await send(channel, question, view=buttons, allowed_mentions=mentions)
        except discord.HTTPException:
            log.warning("could not post the takeback request of game %s", view.game_id)
        if deferred is None:
            await answer(interaction, asked_text(view, mine_locale), ephemeral=True)
        elif deferred:
            await follow_up(interaction, asked_text(view, mine_locale), ephemeral=True)
    if message is not None:
        await bot.service.set_takeback_message(game_id=view.game_id, message_id=message.id)


async def ask_again(
    bot: GameBot, request: TakebackRequest, view: GameView, token: str | None
) -> None:
    """Post a takeback request after a restart, in the game's thread (its nonce keeps it
    single), and tell the asker where in the placeholder of their /takeback while Discord
    still allows it."""
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    buttons = takeback_view(view.game_id, request.moves, request.asked_key, locale=locale)
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=True)
    channel = bot.get_partial_messageable(game_channel_id(view), guild_id=view.guild_id)
    message = await send(
        channel, request_text(request, locale), view=buttons, allowed_mentions=mentions
    )
    await bot.service.set_takeback_message(game_id=view.game_id, message_id=message.id)
    if token is not None:
        with contextlib.suppress(discord.HTTPException):
            await edit_placeholder(bot, token, asked_text(view, locale))
