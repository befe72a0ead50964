"""Draws by agreement: /draw (or a card's Offer a draw) posts the offer in the game's thread
with Accept and Decline for the opponent; accepted, the game ends drawn (``EndReason.AGREEMENT``)
and is rated as a draw.

An offer changes nothing in the game, so it is not stored: its buttons' custom ids carry the
game, its number of actions when offered and who offered it. A click once a move was made
(the offer lapsed), by the player who offered, or by someone who does not play is refused
privately and changes nothing. The accepted draw's post goes through the outbox, as an end's.
"""

from __future__ import annotations

from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.client import GameBot, bot_of
from bot.cogs.in_game import Action, game_choices, handles, run_in_game
from bot.cogs.interactions import in_time, update_clicked
from bot.cogs.locales import user_locale
from bot.cogs.names import mention
from bot.cogs.outcomes import announce
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.posting import game_channel_id, in_game_channel, jump_url
from bot.cogs.posts import answer, edit, follow_up, send
from bot.games import (
    GameChanged,
    GameOver,
    GameView,
    NotYourGame,
    PostKind,
    Refusal,
    is_computer,
    owing_post,
)
from bot.i18n import N_, SOURCE, _, translate
from bot.outbox import delivering

LAPSED = N_("this offer of a draw lapsed: a move was made since")
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)

# -- words -----------------------------------------------------------------------------------


def offer_text(view: GameView, offered_by: int, locale: str = SOURCE) -> str:
    """The public offer, addressed to the opponent."""
    opponent = view.blue_id if offered_by == view.pink_id else view.pink_id
    offer = _(
        "{opponent}, {offerer} offers a draw in game #{game_id}. Accept or decline: the offer "
        "lapses with the next move.",
        opponent=mention(opponent, locale),
        offerer=mention(offered_by, locale),
        game_id=view.game_id,
    )
    return translate(locale, offer)


def answered_text(user_id: int, *, accepted: bool, locale: str = SOURCE) -> str:
    """What the offer's message says once answered by ``user_id``."""
    who = mention(user_id, locale)
    if accepted:
        return translate(locale, _("{who} accepted the draw.", who=who))
    return translate(locale, _("{who} declined the draw: play on.", who=who))


# -- the buttons -----------------------------------------------------------------------------


class DrawButton(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId(
        "dots:draw",
        ("accept", "decline"),
        fields=(("moves", "[0-9]{1,6}"), ("by", "[0-9]{1,20}")),
    ),
):
    """Accept or Decline an offer of a draw; the custom id carries the game, its number of
    actions when offered (the offer lapses with the next move) and the player who offered."""

    LABELS: ClassVar[dict[str, str]] = {"accept": N_("Accept draw"), "decline": N_("Decline")}

    def __init__(
        self, action: str, key: Any, /, *, moves: int = 0, by: int = 0, **options: Any
    ) -> None:
        self.moves = moves
        self.by = by
        super().__init__(action, key, **options)

    def component(self, *, locale: str = SOURCE, **options: Any) -> discord.ui.Button[Any]:
        """The button, in ``locale``."""
        return discord.ui.Button(
            label=translate(locale, self.LABELS[self.action]),
            style=(
                discord.ButtonStyle.success
                if self.action == "accept"
                else discord.ButtonStyle.secondary
            ),
            custom_id=self.made_id(moves=self.moves, by=self.by),
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Accept (the game ends drawn; its post goes to the thread) or decline (the offer's
        message says so) for the opponent of the player who offered."""
        bot = bot_of(interaction)
        view = await bot.service.game(self.key)
        check_answer(view, user_id=interaction.user.id, offered_by=self.by, moves=self.moves)
        locale = await bot.locales.of_place(view.guild_id, view.channel_id)
        if self.action == "decline":
            said = answered_text(interaction.user.id, accepted=False, locale=locale)
            await edit(interaction, said, view=None, allowed_mentions=MENTIONS)
            return
        # The end's post is stored with it (its transaction) and delivered inside
        # ``delivering``: a crash between the two leaves it for the next start.
        with bot.posts.pending(self.key), owing_post(self.key, token=None):
            try:
                outcome, deferred = await in_time(
                    interaction,
                    bot.service.agree_draw(
                        game_id=self.key,
                        user_id=interaction.user.id,
                        offered_by=self.by,
                        moves=self.moves,
                    ),
                    update=True,
                )
            except GameChanged:
                raise Refusal(LAPSED) from None
            said = answered_text(interaction.user.id, accepted=True, locale=locale)
            async with delivering(bot.outbox, PostKind.ACTION):
                await update_clicked(interaction, deferred, said, view=None)
                await announce(bot, outcome)


def check_answer(view: GameView, *, user_id: int, offered_by: int, moves: int) -> None:
    """Refuse, from the game's snapshot, an answer to an offer that ``user_id`` may not give:
    someone who does not play, the player who offered, a game over, an offer that lapsed.

    Raises:
        NotYourGame, GameOver, Refusal.
    """
    if view.player_of(user_id) is None:
        raise NotYourGame(N_("you are not playing in this game"))
    if user_id == offered_by:
        raise NotYourGame(N_("only your opponent can accept your offer of a draw"))
    if not view.is_running:
        raise GameOver(N_("this game is over"))
    if len(view.game.actions) != moves:
        raise Refusal(LAPSED)


def offer_view(view: GameView, offered_by: int, locale: str = SOURCE) -> discord.ui.View:
    """Accept and Decline under an offer of a draw, in ``locale``."""
    buttons = discord.ui.View(timeout=None)
    moves = len(view.game.actions)
    for action in ("accept", "decline"):
        buttons.add_item(
            DrawButton(action, view.game_id, moves=moves, by=offered_by, locale=locale)
        )
    return buttons


# -- the command -----------------------------------------------------------------------------


@handles(Action.DRAW)
async def offer_draw(interaction: discord.Interaction[Any], view: GameView, _arg: str) -> None:
    """The draw action: post the offer in the game's thread (as the answer when made
    there), for the opponent to accept or decline. The computer takes no draws."""
    if is_computer(view.pink_id) or is_computer(view.blue_id):
        raise Refusal(N_("the computer does not agree to draws: play on, end or resign"))
    bot = bot_of(interaction)
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    offer = offer_text(view, interaction.user.id, locale)
    buttons = offer_view(view, interaction.user.id, locale)
    if in_game_channel(interaction, view):
        await answer(interaction, offer, view=buttons, allowed_mentions=MENTIONS)
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel = bot.get_partial_messageable(game_channel_id(view), guild_id=view.guild_id)
    await send(channel, offer, view=buttons, allowed_mentions=MENTIONS)
    offered = _(
        "I offered your opponent a draw in the thread of game #{game_id}: {url}",
        game_id=view.game_id,
        url=jump_url(view),
    )
    await follow_up(interaction, translate(user_locale(interaction), offered), ephemeral=True)


class Draws(commands.Cog):
    """/draw: offer your opponent a draw."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="draw", description=N_("Offer your opponent a draw"))
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Game number, if you play several"))
    async def draw(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Post the offer with Accept/Decline buttons in the game's thread."""
        await run_in_game(interaction, Action.DRAW, game)
