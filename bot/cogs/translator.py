"""Slash commands in the players' languages: discord.py's ``app_commands.Translator`` over the
gettext catalogues (``bot.i18n``).

discord.py wraps every plain name and description of a command in a ``locale_str`` and asks
the tree's translator for each of Discord's locales when it syncs; what it answers becomes
the command's ``name_localizations``/``description_localizations`` (and each choice's
``name_localizations``). Descriptions and choices are translated; the command and option
names stay English in every language (README "Languages": a shared server's players, whatever
their client's language, then read and type the same `/move B7` that the bot's messages and
other players name).
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import DISCORD_LOCALES, LANGUAGE_NAMES, is_translated, translate

# Where a translation is given (names stay English: see the module's docstring).
TRANSLATED_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    }
)


_SIZE = re.compile(r"\d+x\d+")


def is_language_neutral(message: str) -> bool:
    """Whether a choice reads the same in every language (a board size, a language's own
    name): it needs no translation."""
    return bool(_SIZE.fullmatch(message)) or message in LANGUAGE_NAMES.values()


def command_text(locale: str, message: str) -> str | None:
    """``message`` (a description or a choice's name) in ``locale``; a choice written as
    ``"name: description"`` is translated part by part. None when the catalogue lacks it."""
    if is_translated(locale, message):
        return translate(locale, message)
    if ": " in message:
        head, tail = message.split(": ", 1)
        if is_translated(locale, head) and is_translated(locale, tail):
            return f"{translate(locale, head)}: {translate(locale, tail)}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalogues, for Polish, Russian and Ukrainian."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The text in ``locale``, or None (Discord then shows the English one)."""
        language = DISCORD_LOCALES.get(locale.value)
        if language is None or context.location not in TRANSLATED_LOCATIONS:
            return None
        return command_text(language, string.message)
