"""The bot's languages: gettext catalogues (English source; Polish, Russian, Ukrainian).

The catalogues are the ``.po`` files in ``bot/locale/<lang>/LC_MESSAGES/dots.po``, compiled in
memory with Babel the first time a language is asked for (a few milliseconds): no compiled
``.mo`` file is kept in the repository, so a catalogue cannot drift from its source.

Three ways to write a sentence, all found by ``pybabel extract`` (see ``babel.cfg``):

- ``_("there is no game #{game_id}", game_id=12)``: a ``Message``, not yet translated. The
  service layer (``bot.games``), which knows no reader, returns these inside refusals and
  outcomes; the adapter renders them at the edge with ``translate(locale, message)``.
- ``ngettext("{n} dot", "{n} dots", n)``: a ``Message`` with plural forms; ``{n}`` is the count.
- ``N_("Pink")``: marks a constant for extraction and returns it unchanged; translate it later
  with ``translate(locale, constant)``.

Placeholders are ``str.format`` fields; a parameter that is itself a ``Message`` is rendered
in the same language. ``str(message)`` is the English text (logs, tests, the old callers).
"""

from __future__ import annotations

import functools
import gettext
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from babel.messages import mofile, pofile

from bot.option_words import REASONS, RULES
from renderer.words import Words

SOURCE = "en"
LOCALES = ("en", "pl", "ru", "uk")
TRANSLATED = LOCALES[1:]
DOMAIN = "dots"
# Discord's locale codes for the languages (its ``en-US``/``en-GB`` are both English).
DISCORD_LOCALES = {"pl": "pl", "ru": "ru", "uk": "uk"}
LANGUAGE_NAMES = {"en": "English", "pl": "polski", "ru": "русский", "uk": "українська"}


@dataclass(frozen=True, eq=True)
class Message:
    """A sentence to translate later: its English msgid (and plural), the count, the fields."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None
    context: str | None = None  # gettext's msgctxt: the same English, another sense

    def render(self, locale: str | None) -> str:
        """The sentence in ``locale`` (see ``translate``)."""
        return translate(locale, self)

    def __str__(self) -> str:
        return self.render(SOURCE)

    __hash__ = None  # type: ignore[assignment]  # params is a dict


Text = Message | str


def _(msgid: str, /, **params: Any) -> Message:
    """A sentence to translate at the edge, with its ``str.format`` fields."""
    return Message(msgid, params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """A counted sentence: the catalogue picks the plural form for ``n`` (``{n}`` is the count)."""
    return Message(singular, params, plural, n)


def pgettext(context: str, msgid: str, /, **params: Any) -> Message:
    """A sentence whose English reads like another's but whose sense differs (``context``)."""
    return Message(msgid, params, context=context)


def npgettext(context: str, singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """A counted ``pgettext``: the same English as another counted phrase in another sense
    (another grammatical case in some languages)."""
    return Message(singular, params, plural, n, context)


def N_(msgid: str, /) -> str:  # noqa: N802 (gettext's name for the marker)
    """Mark ``msgid`` for extraction; returned unchanged (translate it with ``translate``)."""
    return msgid


def normalize(locale: object | None) -> str:
    """One of ``LOCALES`` for a Discord locale (``"pl"``, ``"en-US"``, ``discord.Locale``),
    a POSIX one (``"ru_RU.UTF-8"``) or a language name; English for anything else."""
    if locale is None:
        return SOURCE
    value = str(getattr(locale, "value", locale)).strip().lower()
    language = value.replace("_", "-").split(".")[0].split("@")[0].split("-")[0]
    return language if language in LOCALES else SOURCE


def locale_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language as gettext looks it up: ``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` (the first one set; ``LANGUAGE`` may list several)."""
    environ = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return normalize(value.split(":")[0])
    return SOURCE


def po_text(locale: str) -> str:
    """The ``.po`` source of a translated language."""
    path = resources.files("bot") / "locale" / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    return path.read_text(encoding="utf-8")


@functools.cache
def catalogue(locale: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``locale`` (English: the source, no catalogue)."""
    locale = normalize(locale)
    if locale == SOURCE:
        return gettext.NullTranslations()
    parsed = pofile.read_po(io.StringIO(po_text(locale)), locale=locale, domain=DOMAIN)
    compiled = io.BytesIO()
    mofile.write_mo(compiled, parsed)  # fuzzy entries are left out: they are not translated
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def is_translated(locale: str, msgid: str) -> bool:
    """Whether ``locale``'s catalogue holds ``msgid`` (English: always)."""
    language = normalize(locale)
    if language == SOURCE:
        return True
    return msgid in getattr(catalogue(language), "_catalog", {})


def translate(locale: object | None, message: Text, /, **params: Any) -> str:
    """``message`` in ``locale``: a ``Message`` with its fields filled in, or a marked constant
    (filled in with ``params`` when given)."""
    language = normalize(locale)
    found = catalogue(language)
    if isinstance(message, str):
        text = found.gettext(message) if message else message
        return text.format(**_rendered(language, params)) if params else text
    if message.context is not None and message.plural is not None and message.n is not None:
        text = found.npgettext(message.context, message.msgid, message.plural, message.n)
        fields = {"n": message.n, **message.params}
    elif message.context is not None:
        text = found.pgettext(message.context, message.msgid)
        fields = dict(message.params)
    elif message.plural is not None and message.n is not None:
        text = found.ngettext(message.msgid, message.plural, message.n)
        fields = {"n": message.n, **message.params}
    else:
        text = found.gettext(message.msgid)
        fields = dict(message.params)
    return text.format(**_rendered(language, fields))


def _rendered(locale: str, params: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: translate(locale, value) if isinstance(value, Message) else value
        for key, value in params.items()
    }


def counted(locale: object | None, singular: str, plural: str, n: int) -> str:
    """``ngettext`` rendered at once: ``counted("pl", "{n} dot", "{n} dots", 5) == "5 kropek"``."""
    return translate(locale, ngettext(singular, plural, n))


def _handed_over(locale: str, n: int) -> str:
    """``"3 dots"`` as the object of "gets" in a stop's preview (another case in some languages)."""
    return translate(locale, npgettext("the dots a stop hands over", "{n} dot", "{n} dots", n))


def _ends(locale: str, n: int) -> str:
    """``"2 ends"`` (a replay's count of the ends played)."""
    return translate(locale, ngettext("{n} end", "{n} ends", n))


@functools.cache
def words(locale: str) -> Words:
    """The pictures' header words in ``locale``, for the renderer."""
    language = normalize(locale)

    def say(msgid: str) -> str:
        return translate(language, msgid)

    return Words(
        pink=say(N_("Pink")),
        blue=say(N_("Blue")),
        wins=say(N_("{winner} wins {won}–{lost} ({why})")),
        draw=say(N_("Draw {pink}–{blue} ({why})")),
        reasons={reason: say(entry.name) for reason, entry in REASONS.items()},
        to_move=say(N_("{mover} to move")),
        to_move_ended=say(N_("{mover} to move ({other} has ended)")),
        with_clock=say(N_("{line}, {clock}")),
        seconds=say(N_("{s} s")),
        preview_none=say(N_("Preview: if {player} stops now, no dot is handed over")),
        preview_gets=say(N_("Preview: if {player} stops now, {other} gets {dots}")),
        dots=functools.partial(_handed_over, language),
        replay_start=say(N_("Start: {played}, {rules}")),
        ends=functools.partial(_ends, language),
        rules={rules: say(entry.in_a_game) for rules, entry in RULES.items()},
        replay_move=say(N_("Dot {dot} of {total}")),
        ended_one=say(N_("{line} · {name} ended")),
        ended_both=say(N_("{line} · {first} and {second} ended")),
    )


# Descriptions of the commands defined in bot/cogs/{play,buttons,starts,computer}.py,
# marked here because those modules pass them to discord.py as plain strings.
COMMAND_TEXTS = (
    N_("Show a game's current picture"),
    N_("Game number (default: this thread's game or your only game)"),
    N_("Challenge someone to a game of Dots"),
    N_("Who you want to play"),
    N_("Whether the game counts for the leaderboard (default yes)"),
    N_("End: you make no more moves (asks first)"),
    N_("Game number, if you play several"),
    N_("Your running games and open challenges"),
    N_("Place a dot, e.g. /move B7"),
    N_("Column letter and row number, e.g. B7 (row 1 is at the bottom)"),
    N_("Game number, if you play several (default: this thread's game)"),
    N_("Play a game against the computer (unrated)"),
    N_("How strong the computer plays (default medium)"),
    N_("Resign a game (asks first)"),
    N_("Take back your last move and the computer's reply"),
    N_("A player's sticker book"),
    N_("Whose book (default: yours)"),
    N_("Ask your opponent to take back your last move"),
)


def dots(n: int) -> Message:
    """``"1 dot"``, ``"5 dots"`` (extracted once for every use)."""
    return ngettext("{n} dot", "{n} dots", n)


def moves(n: int) -> Message:
    """``"1 move"``, ``"5 moves"``."""
    return ngettext("{n} move", "{n} moves", n)
