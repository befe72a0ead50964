"""Discord's limits on what the bot sends, in one place: every post, answer, follow-up, menu
and thread name of the adapter is fitted here before it goes out.

Fitting never loses what matters most: a message keeps its first line (what it is about) and
its last lines (the result, the scores, whose turn); the longest lines in between are cut with
"…" first. A name is made safe to show as well as short: the controls that change the
direction of text (a right-to-left override in a display name) are removed, so nothing a user
calls themselves reverses the text after it.

The cogs never call discord.py's send, answer, edit or thread methods themselves: they call
``send``, ``answer``, ``follow_up``, ``edit``, ``edit_original``, ``edit_message`` and
``create_thread`` here, which fit what they are given (a test of the suite fails on a direct
call anywhere else in ``bot/cogs``).

Limits from Discord's developer documentation (Message, Embed Limits, Components, Channel).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.i18n import SOURCE, ngettext, translate
from bot.outbox import next_nonce

log = logging.getLogger(__name__)

CONTENT = 2000
CUSTOM_ID = 100
THREAD_NAME = 100
BUTTON_LABEL = 80
OPTION_TEXT = 100  # a menu option's label, value and description
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
EMBED_TOTAL = 6000  # titles, descriptions, fields, footers and authors of a message's embeds
MIN_EMBED = 40  # an embed cut to fewer characters than this says nothing: it is left out
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


def fit_list(
    items: Sequence[str], budget: int, *, separator: str = ", ", locale: str = SOURCE
) -> str:
    """``items`` joined with ``separator`` in ``budget`` characters at most; what does not
    fit is summed up at the end in ``locale``, e.g. ``"A1, B2 … and 40 more"``."""

    def more(n: int) -> str:
        return " " + translate(locale, ngettext("… and {n} more", "… and {n} more", n))

    kept: list[str] = []
    for count, item in enumerate(items):
        after = len(items) - count - 1
        tail = more(after) if after else ""
        if kept and len(separator.join([*kept, item])) + len(tail) > budget:
            return separator.join(kept) + more(len(items) - count)
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


def embed_size(embed: discord.Embed) -> int:
    """The characters of ``embed`` that count towards Discord's total of 6,000."""
    data = embed.to_dict()
    size = len(data.get("title", "")) + len(data.get("description", ""))
    size += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in data.get("fields", []))
    size += len(data.get("footer", {}).get("text", "")) + len(
        data.get("author", {}).get("name", "")
    )
    return size


def fit_embed(embed: discord.Embed, budget: int = EMBED_TOTAL) -> discord.Embed:
    """A copy of ``embed`` within Discord's limits for each of its parts, and ``budget``
    characters in all: over the budget, the last fields are dropped first, then the
    description is cut (its longest lines, see ``fit_content``), then the footer, the author
    and the title."""
    data: dict[str, Any] = dict(embed.to_dict())
    if "title" in data:
        data["title"] = fit_line(data["title"], EMBED_TITLE)
    if "description" in data:
        data["description"] = fit_content(data["description"], EMBED_DESCRIPTION)
    fields = [dict(field) for field in data.get("fields", [])[:EMBED_FIELDS]]
    for field in fields:
        field["name"] = fit_line(field.get("name", ""), FIELD_NAME)
        field["value"] = fit_content(field.get("value", ""), FIELD_VALUE)
    if fields:
        data["fields"] = fields
    for part, key, limit in (("footer", "text", FOOTER_TEXT), ("author", "name", AUTHOR_NAME)):
        if key in data.get(part, {}):
            data[part] = dict(data[part], **{key: fit_line(data[part][key], limit)})
    fitted = discord.Embed.from_dict(data)
    while (over := embed_size(fitted) - budget) > 0 and data.get("fields"):
        data["fields"] = data["fields"][:-1]
        fitted = discord.Embed.from_dict(data)
    if over > 0 and data.get("description"):
        keep = max(len(data["description"]) - over, 1)
        data["description"] = fit_content(data["description"], keep)
        fitted = discord.Embed.from_dict(data)
        over = embed_size(fitted) - budget
    for part, key in (("footer", "text"), ("author", "name"), ("title", "")):
        if over <= 0:
            break
        text = data.get(part, {}).get(key, "") if key else data.get(part, "")
        if text:
            cut = fit_line(text, max(len(text) - over, 1))
            data[part] = dict(data[part], **{key: cut}) if key else cut
            fitted = discord.Embed.from_dict(data)
            over = embed_size(fitted) - budget
    return fitted


def fit_embeds(embeds: Iterable[discord.Embed]) -> list[discord.Embed]:
    """At most ten embeds, fitted one by one in what the earlier ones left of the 6,000 (an
    embed for which too little is left is dropped, with the ones after it)."""
    fitted: list[discord.Embed] = []
    left = EMBED_TOTAL
    for embed in list(embeds)[:EMBEDS]:
        small = fit_embed(embed, left)
        if embed_size(small) > left or (embed_size(small) < MIN_EMBED < embed_size(embed)):
            break
        fitted.append(small)
        left -= embed_size(small)
    return fitted


def fit_message(content: str | None = None, **fields: Any) -> dict[str, Any]:
    """The keyword arguments of a send, an answer, an edit or a follow-up, fitted to
    Discord's limits: ``content``, the embeds and the ``view``'s components (other fields
    pass as they are)."""
    if content is not None:
        fields["content"] = fit_content(content)
    elif isinstance(fields.get("content"), str):
        fields["content"] = fit_content(fields["content"])
    if fields.get("embed") is not None:
        fields["embed"] = fit_embed(fields["embed"])
    if fields.get("embeds") is not None:
        fields["embeds"] = fit_embeds(fields["embeds"])
    if "view" in fields:
        fields["view"] = fit_view(fields["view"])
    return fields


# -- the only calls of the adapter that send or change a message ------------------------------


async def send(target: Any, content: str | None = None, **fields: Any) -> Any:
    """``target.send`` (a channel, a thread, a user), fitted; the message sent. Delivering an
    outbox row (``bot.outbox.delivering``), it carries the row's next nonce: discord.py then
    sets ``enforce_nonce``, and Discord returns the message a retry would have doubled."""
    nonce = next_nonce()
    if nonce is not None:
        fields.setdefault("nonce", nonce)
    return await target.send(**fit_message(content, **fields))


async def answer(
    interaction: discord.Interaction[Any], content: str | None = None, **fields: Any
) -> Any:
    """The interaction's first answer (``response.send_message``), fitted."""
    return await interaction.response.send_message(**fit_message(content, **fields))


async def respond(
    interaction: discord.Interaction[Any], content: str | None = None, **fields: Any
) -> Any:
    """The first answer, or a follow-up when the interaction is acknowledged already."""
    if interaction.response.is_done():
        return await follow_up(interaction, content, **fields)
    return await answer(interaction, content, **fields)


async def follow_up(
    interaction: discord.Interaction[Any], content: str | None = None, **fields: Any
) -> Any:
    """A follow-up of an acknowledged interaction (``followup.send``), fitted."""
    return await interaction.followup.send(**fit_message(content, **fields))


async def edit(
    interaction: discord.Interaction[Any], content: str | None = None, **fields: Any
) -> Any:
    """The first answer to a click that edits the clicked message (``response.edit_message``),
    fitted."""
    return await interaction.response.edit_message(**fit_message(content, **fields))


async def edit_original(
    interaction: discord.Interaction[Any], content: str | None = None, **fields: Any
) -> Any:
    """An edit of the interaction's answer or deferral (``edit_original_response``), fitted."""
    return await interaction.edit_original_response(**fit_message(content, **fields))


async def fetch_placeholder(client: discord.Client, token: str) -> discord.WebhookMessage:
    """The answer (or "thinking..." deferral) of the interaction whose token is ``token``.

    Raises:
        discord.NotFound: the token expired, or the interaction was never answered.
    """
    assert client.application_id is not None
    hook = discord.Webhook.partial(client.application_id, token, client=client)
    original: Any = "@original"  # the route's name of an interaction's own answer
    return await hook.fetch_message(original)


async def edit_placeholder(
    client: discord.Client, token: str, content: str | None = None, **fields: Any
) -> Any:
    """An edit of the answer (or "thinking..." deferral) of the interaction whose token is
    ``token``, fitted: what an ``edit_original`` does, for an interaction known only by its
    token (after a restart; Discord accepts it for 15 minutes).

    Raises:
        discord.NotFound: the token expired, or the interaction was never answered.
    """
    assert client.application_id is not None
    hook = discord.Webhook.partial(client.application_id, token, client=client)
    original: Any = "@original"  # the route's name of an interaction's own answer
    return await hook.edit_message(original, **fit_message(content, **fields))


async def edit_message(message: Any, content: str | None = None, **fields: Any) -> Any:
    """An edit of a message of the bot (``message.edit``), fitted."""
    return await message.edit(**fit_message(content, **fields))


async def create_thread(message: Any, *, name: str, **fields: Any) -> Any:
    """A thread from ``message`` (``message.create_thread``), its name fitted."""
    return await message.create_thread(name=fit_name(name, THREAD_NAME), **fields)


def is_refused_body(error: discord.HTTPException) -> bool:
    """Whether Discord refused a message for what it holds (a field over a limit, files too
    large), not for who sent it or where: the same post without its extras may pass."""
    return error.code == INVALID_FORM_BODY or error.status == PAYLOAD_TOO_LARGE
