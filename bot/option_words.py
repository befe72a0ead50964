"""What a player reads for each of the engine's options, one entry per enum member.

The engine's enums (``engine.options``: ``Rules``, ``Start``, ``Colour``, ``Level``,
``EndReason``) are the only keys: their values are what is stored and typed. This table holds
each member's catalogue entries (``N_``: translated at the edge with ``bot.i18n.translate``):

- ``name``: the member as a choice shows it (a slash-command choice, an argparse choice's
  help, a computer's level, a start in a game's description), e.g. ``"pink (moves first)"``;
- ``description``: what it means, e.g. ``"end and let the other play on"``; the engine's own
  English ``member.description`` reads the same (tests/bot/test_option_words.py checks it);
- ``phrase``: how a game's description names it when that differs from the name
  (``"grounding rules"``).

The slash-command choices (``bot.cogs.options``), the terminal's ``--help`` (``bot.local``),
the sentences of ``bot.text`` and the pictures' words (``bot.i18n.words``) all read it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from engine import Colour, EndReason, Level, Rules, Start

Option = Rules | Start | Colour | Level | EndReason


def N_(msgid: str, /) -> str:  # noqa: N802 (gettext's name for the marker)
    """Mark ``msgid`` for extraction, as ``bot.i18n.N_`` does (``bot.i18n`` reads this table
    for the pictures' words, so this module cannot import it)."""
    return msgid


@dataclass(frozen=True, slots=True)
class OptionWords:
    """One option's catalogue entries (msgids, English): its name, what it means, and how a
    game's description says it (the name when not given)."""

    name: str
    description: str
    phrase: str = ""

    @property
    def in_a_game(self) -> str:
        """How a game's description names the option: ``"grounding rules"``, ``"cross"``."""
        return self.phrase or self.name


RULES: Mapping[Rules, OptionWords] = {
    Rules.STANDARD: OptionWords(
        N_("standard"), N_("end and let the other play on"), N_("standard rules")
    ),
    Rules.GROUNDING: OptionWords(
        N_("grounding"), N_("a stop hands over ungrounded dots"), N_("grounding rules")
    ),
}
STARTS: Mapping[Start, OptionWords] = {
    Start.EMPTY: OptionWords(N_("empty"), N_("an empty board")),
    Start.CROSS: OptionWords(N_("cross"), N_("one cross in the centre")),
    Start.DOUBLE_CROSS: OptionWords(
        N_("double-cross"), N_("two crosses side by side in the centre")
    ),
    Start.TRIPLE_CROSS: OptionWords(N_("triple-cross"), N_("three crosses in the centre")),
    Start.FOUR_CROSSES: OptionWords(
        N_("four-crosses"), N_("four crosses at random in the central half")
    ),
}
COLOURS: Mapping[Colour, OptionWords] = {
    Colour.PINK: OptionWords(N_("pink (moves first)"), N_("Pink (moves first)")),
    Colour.BLUE: OptionWords(N_("blue"), N_("Blue")),
    Colour.RANDOM: OptionWords(N_("random"), N_("a random colour")),
}
LEVELS: Mapping[Level, OptionWords] = {
    Level.EASY: OptionWords(N_("easy"), N_("takes what it is given")),
    Level.MEDIUM: OptionWords(N_("medium"), N_("sees your threats coming")),
    Level.HARD: OptionWords(N_("hard"), N_("thinks longer")),
}
# An end reason is only ever said as a result says it: "Pink wins 5–3 (both ended)".
REASONS: Mapping[EndReason, OptionWords] = {
    EndReason.ENDED: OptionWords(N_("both ended"), N_("both ended")),
    EndReason.RESIGNED: OptionWords(N_("resignation"), N_("resignation")),
    EndReason.TIME: OptionWords(N_("time ran out"), N_("time ran out")),
    EndReason.BOARD_FULL: OptionWords(N_("the board is full"), N_("the board is full")),
    EndReason.STOP: OptionWords(N_("a stop"), N_("a stop")),
    EndReason.AGREEMENT: OptionWords(N_("by agreement"), N_("by agreement")),
}

TABLES: Mapping[type[enum.StrEnum], Mapping[Option, OptionWords]] = {
    Rules: RULES,  # type: ignore[dict-item]
    Start: STARTS,  # type: ignore[dict-item]
    Colour: COLOURS,  # type: ignore[dict-item]
    Level: LEVELS,  # type: ignore[dict-item]
    EndReason: REASONS,  # type: ignore[dict-item]
}


def words_of(option: Option) -> OptionWords:
    """The catalogue entries of ``option`` (a member of one of the engine's option enums)."""
    return TABLES[type(option)][option]


def name_of(option: Option | str, kind: type[Option]) -> str:
    """The catalogue entry naming ``option`` of ``kind`` (a stored value such as ``"cross"``
    is read as the member); text that names no member is returned as it is."""
    try:
        member = kind(option)
    except ValueError:
        return str(option)
    return words_of(member).in_a_game


def described(option: type[Option]) -> list[tuple[Option, OptionWords]]:
    """Every member of ``option`` with its entries, in the enum's order."""
    return [(member, words_of(member)) for member in option]
