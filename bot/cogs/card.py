"""The game card: one Components V2 message per position, in the game's thread, with the
picture, the status (what happened, the score, who is to move and the time left) and the
actions that apply now as buttons (Place a dot, End or Stop, Resign, Take back or Undo, Board,
Offer a draw: those of ``bot.cogs.in_game.ACTIONS`` that have a card label).

The newest card's message id is the game's ``message_id``; when a new card is posted, the
previous one loses its buttons (the thread keeps it as the game's history). A button of an
old card (one that kept its buttons through a restart, say) is refused privately, with a link
to the newest card. A card's buttons carry the position they were made for (the game's number
of actions), so a click that races a move is refused too.

Cards are on when the bot is built with ``cards=True`` (``bot.app.create_bot``): each post of
a position (a post with the game's picture, ``bot.cogs.posting.send_to_game``) is then a card.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.cogs.client import GameBot, bot_of
from bot.cogs.in_game import ACTIONS, Action, admit, handler
from bot.cogs.interactions import refuse
from bot.cogs.on_card import lives_on_card, note_interaction, post_on_card, retire_posted
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.picker import open_picker
from bot.cogs.posting import game_channel_id, jump_url, picture_file, status_text
from bot.cogs.posts import edit_message, fit_content, is_refused_body, send
from bot.games import GameView, NotYourGame, is_computer
from bot.i18n import N_, SOURCE, _, translate
from engine import Rules
from renderer.zoom import window_around, zoom_png

log = logging.getLogger(__name__)

# Boards wider than this get, on their card, a zoomed view around the last dot as well.
WIDE = 20
AROUND_FILE = "around.png"

# Discord's limit on the text displays of one Components V2 message, all together.
CARD_TEXT = 4000

# The card's label of each in-game action it offers (an action without one is not on cards).
CARD_LABELS: dict[Action, str] = {
    Action.MOVE: N_("Place a dot"),
    Action.END: N_("End"),
    Action.RESIGN: N_("Resign"),
    Action.TAKEBACK: N_("Take back"),
    Action.UNDO: N_("Undo"),
    Action.BOARD: N_("Board"),
    Action.DRAW: N_("Offer a draw"),
}


def card_actions(view: GameView) -> list[Action]:
    """The actions of ``ACTIONS`` a card of ``view`` offers: none once the game is over; the
    board always; the rest while a person is to move (Undo against the computer, Take back
    between people when the game allows takebacks)."""
    if not view.is_running:
        return []
    computer = is_computer(view.pink_id) or is_computer(view.blue_id)
    offered = []
    for action in ACTIONS:
        if action not in CARD_LABELS:
            continue
        if action is Action.UNDO and not computer:
            continue
        if action is Action.DRAW and computer:  # the computer takes no draws
            continue
        if action is Action.TAKEBACK and (computer or not view.options.allows_takebacks):
            continue
        if action in {Action.MOVE, Action.END} and is_computer(view.to_move_id):
            continue
        offered.append(action)
    return offered


def card_url(view: GameView, message_id: int | None) -> str:
    """A link to a game's card (to its thread when the card is not known)."""
    where = jump_url(view)
    return f"{where}/{message_id}" if message_id else where


class CardButton(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId(
        "dots:card",
        tuple(action.value for action in CARD_LABELS),
        fields=(("moves", "[0-9]{1,6}"),),
    ),
):
    """A button of a game card: the action (``ACTIONS``' key), the game and the position it
    was made for (the game's number of actions)."""

    def __init__(self, action: str, key: Any, /, *, moves: int = 0, **options: Any) -> None:
        self.moves = moves
        super().__init__(action, key, **options)

    def component(
        self, *, locale: str = SOURCE, grounding: bool = False, **options: Any
    ) -> discord.ui.Button[Any]:
        """The button, labelled in ``locale`` (End reads Stop under grounding rules)."""
        action = Action(self.action)
        label = N_("Stop") if action is Action.END and grounding else CARD_LABELS[action]
        style = {
            Action.MOVE: discord.ButtonStyle.primary,
            Action.RESIGN: discord.ButtonStyle.danger,
        }.get(action, discord.ButtonStyle.secondary)
        return discord.ui.Button(
            label=translate(locale, label), style=style, custom_id=self.made_id(moves=self.moves)
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Do the action in the game as it is, unless the card is no longer the newest."""
        bot = bot_of(interaction)
        view = await bot.service.game(self.key)
        clicked = interaction.message.id if interaction.message is not None else None
        if lives_on_card(view):
            # Seen by whoever is in the channel, but its buttons are the players' alone.
            if view.player_of(interaction.user.id) is None:
                raise NotYourGame(N_("you are not playing in this game"))
            note_interaction(bot, view.game_id, interaction)
            if self.moves != len(view.game.actions) or clicked != view.message_id:
                # The game went on where the bot could not post (a time-out, say): this click
                # brings its card.
                newer = _(
                    "This card is old: here is the newest card of game #{game_id}.",
                    game_id=view.game_id,
                )
                await refuse(interaction, newer)
                await show_card(bot, view)
                return
        if self.moves != len(view.game.actions) or clicked != view.message_id:
            newest = _(
                "This card is old: the newest card of game #{game_id} is here: {url}",
                game_id=view.game_id,
                url=card_url(view, view.message_id),
            )
            await refuse(interaction, newest)
            return
        action = Action(self.action)
        admit(interaction, action, view)  # who may take it, as for its slash command
        if action is Action.MOVE:
            await open_picker(interaction, view)
            return
        await handler(action)(interaction, view, "")


def card_layout(
    view: GameView, content: str, files: Sequence[discord.File], *, locale: str, extra: Any = None
) -> discord.ui.LayoutView:
    """The card of ``view``: ``content`` (its status), ``files`` in a gallery, the buttons of
    ``card_actions`` and those of ``extra`` (a view, e.g. the Rematch button)."""
    layout = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[Any] = discord.ui.Container()
    container.add_item(discord.ui.TextDisplay(fit_content(content, CARD_TEXT)))
    if files:
        gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery()
        for file in files[:10]:
            gallery.add_item(media=file)
        container.add_item(gallery)
    grounding = view.game.rules == Rules.GROUNDING
    moves = len(view.game.actions)
    buttons: list[discord.ui.Item[Any]] = [
        CardButton(action.value, view.game_id, moves=moves, locale=locale, grounding=grounding)
        for action in card_actions(view)
    ]
    if extra is not None:
        buttons += list(extra.children)
    for start in range(0, len(buttons), 5):
        container.add_item(discord.ui.ActionRow(*buttons[start : start + 5]))
    layout.add_item(container)
    return layout


async def post_card(
    bot: GameBot,
    view: GameView,
    content: str,
    files: Sequence[discord.File],
    buttons: discord.ui.View | None,
) -> discord.Message | None:
    """Post ``view``'s card in its thread (without its pictures when Discord refuses them),
    make it the game's card and take the buttons off the previous one. None when Discord
    refuses the post. A game that lives on its card (``bot.cogs.on_card``) gets it as a
    follow-up of a player's interaction."""
    if lives_on_card(view):
        return await post_card_on_answer(bot, view, content, files, buttons)
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    channel = bot.get_partial_messageable(game_channel_id(view), guild_id=view.guild_id)
    files = [*files, *await around_last(view, files)]
    try:
        layout = card_layout(view, content, files, locale=locale, extra=buttons)
        posted: discord.Message = await send(channel, view=layout, files=list(files))
    except discord.HTTPException as error:
        if not is_refused_body(error):
            log.warning("could not post the card of game %s", view.game_id)
            return None
        log.warning("game %s: card refused (%s); posting it without pictures", view.game_id, error)
        try:
            posted = await send(channel, view=card_layout(view, content, [], locale=locale))
        except discord.HTTPException:
            return None
    # Read now, not from ``view``: a move committed before the last card was posted (the
    # computer's reply) carries the card before that one.
    previous = (await bot.service.game(view.game_id)).message_id
    await bot.service.set_game_thread(game_id=view.game_id, message_id=posted.id)
    if previous is not None and previous != posted.id:
        await retire_card(channel, previous)
    return posted


async def post_card_on_answer(
    bot: GameBot,
    view: GameView,
    content: str,
    files: Sequence[discord.File],
    buttons: discord.ui.View | None = None,
) -> discord.Message | None:
    """``post_card`` for a game that lives on its card: its card (with ``buttons``, e.g. the
    result's) as a follow-up of the newest interaction there (the previous card loses its
    buttons while its own token answers); without one, the news in the players' DMs."""
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    files = [*files, *await around_last(view, files)]
    layout = card_layout(view, content, files, locale=locale, extra=buttons)
    posted = await post_on_card(bot, view, content, files=files, view=layout)
    if posted is None:
        return None
    previous = (await bot.service.game(view.game_id)).message_id
    await bot.service.set_game_thread(game_id=view.game_id, message_id=posted.id)
    if previous is not None and previous != posted.id:
        await retire_posted(bot, previous, strip)
    return posted


async def show_card(bot: GameBot, view: GameView) -> None:
    """Post the card of ``view`` as it is (no news: its status, its picture)."""
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    picture = await picture_file(bot, view, locale=locale)
    await post_card(bot, view, status_text(view, locale=locale), [picture], None)


async def around_last(view: GameView, files: Sequence[discord.File]) -> list[discord.File]:
    """For a board wider than ``WIDE``: a zoomed view of the picture (the first of ``files``)
    around the last dot, in which coordinates are readable on a phone; else nothing."""
    board = view.game.board
    last = next((a.point for a in reversed(view.game.actions) if a.point is not None), None)
    if board.width <= WIDE or last is None or not files:
        return []
    picture = files[0].fp.read()
    files[0].reset()
    window = window_around(last, board.width, board.height)
    png = await asyncio.to_thread(zoom_png, picture, board.width, board.height, window)
    return [discord.File(io.BytesIO(png), filename=AROUND_FILE)]


async def retire_card(channel: discord.PartialMessageable, message_id: int) -> None:
    """Take the buttons off an earlier card (its text and pictures stay, as history)."""
    try:
        message = await channel.fetch_message(message_id)
        if not message.flags.components_v2:
            return  # the game's first picture, from before cards: nothing to take off
        layout = discord.ui.LayoutView.from_message(message, timeout=None)
        strip(layout)
        await edit_message(message, view=layout)
    except discord.HTTPException:
        log.info("could not take the buttons off card %s", message_id)


def strip(parent: Any) -> None:
    """Remove every action row under ``parent`` (a layout view or a container)."""
    for child in list(parent.children):
        if isinstance(child, discord.ui.ActionRow):
            parent.remove_item(child)
        elif isinstance(child, discord.ui.Container):
            strip(child)
