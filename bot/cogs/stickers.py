"""/stickers: a player's sticker book as a picture."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.client import GameBot
from bot.cogs.interactions import deferred_if_slow, public_locale, reply
from bot.cogs.posts import plain_name
from bot.games import Refusal
from bot.games.stickers import Sticker, book_entries
from bot.i18n import N_, SOURCE, _, translate
from renderer.stickers import render_sticker_book


class NoStickersForBots(Refusal):
    """The book of a bot was asked for: bots play no games of their own here."""


# Every word of /stickers, in one place.
NOT_FOR_BOTS = N_("bots collect no stickers: ask for a member's book")
# In the picture: how many kinds are earned ("3 of 8"), and under a sticker not earned yet.
TALLY = N_("{have} of {total}")
MISSING = N_("not yet")


def book_title(name: str, locale: str = SOURCE) -> str:
    """The line at the top of the picture."""
    return translate(locale, _("Sticker book of {name}", name=plain_name(name)))


def book_text(name: str, counts: dict[Sticker, int], locale: str = SOURCE) -> str:
    """The message under the picture: how many kinds are collected, and what earns one still
    missing."""
    have = sum(1 for sticker in Sticker if counts.get(sticker, 0) > 0)
    line = translate(
        locale,
        _(
            "**{name}** has {have} of {total} stickers (from every server).",
            name=plain_name(name),
            have=have,
            total=len(Sticker),
        ),
    )
    missing = [sticker for sticker in Sticker if counts.get(sticker, 0) == 0]
    if missing:
        nxt = _(
            "Next to collect, **{name}**: {description}",
            name=translate(locale, missing[0].label),
            description=translate(locale, missing[0].description),
        )
        line += "\n" + translate(locale, nxt)
    return line


class Stickers(commands.Cog):
    """The sticker book."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="stickers", description="A player's sticker book")
    @app_commands.describe(user="Whose book (default: yours)")
    async def stickers(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        """The player's sticker book as a picture: earned stickers in colour with a count,
        missing ones as grey outlines."""
        who = user or interaction.user
        if who.bot:
            raise NoStickersForBots(NOT_FOR_BOTS)
        counts, deferred = await deferred_if_slow(
            interaction, self.bot.service.sticker_book(user_id=who.id)
        )
        if not deferred:
            return  # the interaction expired: nothing was asked of anyone else
        # About 30 ms of CPU (bench/render.py): off the event loop.
        locale = await public_locale(interaction)
        entries = [
            (sticker_id, translate(locale, name), count)
            for sticker_id, name, count in book_entries(counts)
        ]
        png = await asyncio.to_thread(
            render_sticker_book,
            entries,
            book_title(who.display_name, locale),
            tally=translate(locale, TALLY),
            missing=translate(locale, MISSING),
        )
        file = discord.File(io.BytesIO(png), filename=f"stickers-{who.id}.png")
        text = book_text(who.display_name, counts, locale)
        await reply(interaction, deferred, text, files=[file])
