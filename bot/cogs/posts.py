"""Discord's limits on what the bot sends, in one place: every post, answer, follow-up, menu
and thread name of the adapter is fitted here before it goes out.

Fitting never loses what matters most: a message keeps its first line (what it is about) and
its last lines (the result, the scores, whose turn); the longest lines in between are cut with
"…" first. A name is made safe to show as well as short: the controls that change the
direction of text (a right-to-left override in a display name) are removed, so nothing a user
calls themselves reverses the text after it.

Limits from Discord's developer documentation (Message, Components, Channel).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

log = logging.getLogger(__name__)

CONTENT = 2000
CUSTOM_ID = 100
THREAD_NAME = 100
BUTTON_LABEL = 80
OPTION_TEXT = 100  # a menu option's label, value and description
CHOICE_NAME = 100  # an autocomplete or slash-command choice's name
CHOICES = 25  # autocomplete choices, and options in one menu
ELLIPSIS = "…"
# Discord's code for a body it refuses field by field ("Invalid Form Body").
INVALID_FORM_BODY = 50035
PAYLOAD_TOO_LARGE = 413

# Marks and embeddings, overrides and isolates of direction (Unicode's bidi controls).
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plain_name(name: str) -> str:
    """A user's name without bidi controls and line breaks, so that it shows as typed wherever
    it is put (thread names, lists, pictures)."""
    cleaned = _BIDI.sub("", name)
    return " ".join(cleaned.split()) or "?"


def fit_line(line: str, limit: int) -> str:
    """``line`` cut to ``limit`` characters, with "…" at the cut."""
    if len(line) <= limit:
        return line
    return line[: max(limit - len(ELLIPSIS), 0)].rstrip() + ELLIPSIS


def fit_name(name: str, limit: int = THREAD_NAME) -> str:
    """A name (thread, label, choice) of at most ``limit`` characters."""
    return fit_line(name, limit)


def fit_content(content: str, limit: int = CONTENT) -> str:
    """Message text of at most ``limit`` characters: the longest lines are cut first; the
    first line and the last one are cut only when nothing else is left to cut."""
    if len(content) <= limit:
        return content
    lines = content.split("\n")
    middle = list(range(1, len(lines) - 1))
    while len("\n".join(lines)) > limit and middle:
        longest = max(middle, key=lambda i: len(lines[i]))
        excess = len("\n".join(lines)) - limit
        keep = len(lines[longest]) - excess
        if keep < len(ELLIPSIS) + 8:  # too little to say anything: drop the line
            del lines[longest]
            middle = list(range(1, len(lines) - 1))
        else:
            lines[longest] = fit_line(lines[longest], keep)
    text = "\n".join(lines)
    if len(text) > limit and len(lines) > 1:
        first = fit_line(lines[0], max(limit // 4, 1))
        text = first + "\n" + fit_line("\n".join(lines[1:]), limit - len(first) - 1)
    return fit_line(text, limit)


def fit_list(items: Sequence[str], budget: int, *, separator: str = ", ") -> str:
    """``items`` joined with ``separator`` in ``budget`` characters at most; what does not
    fit is summed up at the end, e.g. ``"A1, B2 … and 40 more"``."""
    kept: list[str] = []
    for count, item in enumerate(items):
        after = len(items) - count - 1
        tail = f" {ELLIPSIS} and {after} more" if after else ""
        if kept and len(separator.join([*kept, item])) + len(tail) > budget:
            return separator.join(kept) + f" {ELLIPSIS} and {len(items) - count} more"
        kept.append(item)
    return separator.join(kept)


def fit_view(view: discord.ui.View | None) -> discord.ui.View | None:
    """A view whose buttons' labels and menus' options fit (custom ids are checked: a custom
    id too long for Discord is a bug of ours, logged)."""
    if view is None:
        return None
    for item in view.children:
        custom_id = getattr(item, "custom_id", None)
        if isinstance(custom_id, str) and len(custom_id) > CUSTOM_ID:
            log.warning("custom id over %d characters: %r", CUSTOM_ID, custom_id[:40])
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = fit_name(item.label, BUTTON_LABEL)
        if isinstance(item, discord.ui.Select):
            options = item.options[:CHOICES]
            for option in options:
                option.label = fit_name(option.label, OPTION_TEXT)
                if option.description:
                    option.description = fit_name(option.description, OPTION_TEXT)
            item.options = options
    return view


def fit_message(content: str | None = None, **fields: Any) -> dict[str, Any]:
    """The keyword arguments of a send, an answer or a follow-up, fitted to Discord's
    limits: ``content`` and the ``view``'s components (other fields pass as they are)."""
    if content is not None:
        fields["content"] = fit_content(content)
    if "view" in fields:
        fields["view"] = fit_view(fields["view"])
    return fields


def is_refused_body(error: discord.HTTPException) -> bool:
    """Whether Discord refused a message for what it holds (a field over a limit, files too
    large), not for who sent it or where: the same post without its extras may pass."""
    return error.code == INVALID_FORM_BODY or error.status == PAYLOAD_TOO_LARGE
