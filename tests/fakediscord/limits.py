"""Discord's limits on what a bot sends, checked the way Discord checks them.

A body over a limit is refused with 400 and code 50035 "Invalid Form Body", whose ``errors``
object mirrors the body's shape down to the offending field::

    {"code": 50035, "message": "Invalid Form Body",
     "errors": {"embeds": {"0": {"title": {"_errors": [
         {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}]}}}}}

In an interaction callback the message sits under ``data``, so the paths start with ``data``
(discord.py then says "In data.content: Must be 2000 or fewer in length."). Limits from
Discord's developer documentation (Message, Embed Limits, Components, Interactions).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from tests.fakediscord.records import HTTPError, UploadedFile

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER_TEXT = 2048
AUTHOR_NAME = 256
EMBED_TOTAL = 6000  # title, description, field names and values, footer and author, all embeds
ACTION_ROWS = 5
ROW_ITEMS = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
OPTION_TEXT = 100  # a select option's label, value and description
PLACEHOLDER = 150
CHOICES = 25  # autocomplete choices
CHOICE_NAME = 100
CHOICE_VALUE = 100
MODAL_TITLE = 45
TEXT_INPUT_LABEL = 45
THREAD_NAME = 100
ATTACHMENTS = 10

Path = tuple[str, ...]


class FormErrors:
    """The ``errors`` object of a 50035 answer, built one offending field at a time."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        """Note that the field at ``path`` breaks a rule."""
        node = self.tree
        for key in path:
            node = node.setdefault(key, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def too_long(self, path: Path, value: Any, limit: int) -> None:
        """Note ``path`` if ``value`` (a string or a list) is longer than ``limit``."""
        if isinstance(value, str | list) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_any(self) -> None:
        """Raise the 50035 error if any field broke a rule.

        Raises:
            HTTPError: 400 / 50035 "Invalid Form Body" with the ``errors`` object.
        """
        if self.tree:
            raise HTTPError(400, 50035, "Invalid Form Body", errors=self.tree)


def check_message(
    body: dict[str, Any], *, at: Path = (), errors: FormErrors | None = None, v2: bool = False
) -> None:
    """Check a message body (a post, an edit, a follow-up or a callback's ``data``).

    Only the fields present are checked, as for a PATCH. The components of a Components V2
    message (``v2``) are checked by ``components_v2`` instead.

    Raises:
        HTTPError: 400 / 50035 naming every field over its limit.
    """
    errors = errors if errors is not None else FormErrors()
    errors.too_long((*at, "content"), body.get("content"), CONTENT)
    embeds = body.get("embeds")
    if isinstance(embeds, list):
        _check_embeds(errors, at, embeds)
    components = body.get("components")
    if isinstance(components, list) and not v2:
        _check_components(errors, (*at, "components"), components)
    attachments = body.get("attachments")
    errors.too_long((*at, "attachments"), attachments, ATTACHMENTS)
    errors.raise_any()


def _check_embeds(errors: FormErrors, at: Path, embeds: list[Any]) -> None:
    errors.too_long((*at, "embeds"), embeds, EMBEDS)
    total = 0
    for index, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        here = (*at, "embeds", str(index))
        for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
            errors.too_long((*here, key), embed.get(key), limit)
            total += _length(embed.get(key))
        fields = embed.get("fields") or []
        errors.too_long((*here, "fields"), fields, EMBED_FIELDS)
        for number, item in enumerate(fields):
            if not isinstance(item, dict):
                continue
            errors.too_long((*here, "fields", str(number), "name"), item.get("name"), FIELD_NAME)
            errors.too_long((*here, "fields", str(number), "value"), item.get("value"), FIELD_VALUE)
            total += _length(item.get("name")) + _length(item.get("value"))
        for part, key, limit in (("footer", "text", FOOTER_TEXT), ("author", "name", AUTHOR_NAME)):
            value = embed.get(part)
            if isinstance(value, dict):
                errors.too_long((*here, part, key), value.get(key), limit)
                total += _length(value.get(key))
    if total > EMBED_TOTAL:
        errors.add(
            (*at, "embeds"),
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {EMBED_TOTAL}",
        )


def _check_components(errors: FormErrors, at: Path, rows: list[Any]) -> None:
    errors.too_long(at, rows, ACTION_ROWS)
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        here = (*at, str(index))
        if row.get("type") == 1:
            items = row.get("components") or []
            errors.too_long((*here, "components"), items, ROW_ITEMS)
            for number, item in enumerate(items):
                if isinstance(item, dict):
                    _check_component(errors, (*here, "components", str(number)), item)
        else:
            _check_component(errors, here, row)


def _check_component(errors: FormErrors, at: Path, item: dict[str, Any]) -> None:
    errors.too_long((*at, "custom_id"), item.get("custom_id"), CUSTOM_ID)
    kind = item.get("type")
    if kind == 2:
        errors.too_long((*at, "label"), item.get("label"), BUTTON_LABEL)
    elif kind == 3:
        errors.too_long((*at, "placeholder"), item.get("placeholder"), PLACEHOLDER)
        options = item.get("options") or []
        errors.too_long((*at, "options"), options, SELECT_OPTIONS)
        for number, option in enumerate(options):
            if not isinstance(option, dict):
                continue
            for key in ("label", "value", "description"):
                errors.too_long((*at, "options", str(number), key), option.get(key), OPTION_TEXT)
    elif kind == 4:
        errors.too_long((*at, "label"), item.get("label"), TEXT_INPUT_LABEL)


def check_choices(data: dict[str, Any]) -> None:
    """Check an autocomplete result (callback type 8).

    Raises:
        HTTPError: 400 / 50035 for more than 25 choices or a name or value over 100.
    """
    errors = FormErrors()
    choices = data.get("choices") or []
    errors.too_long(("data", "choices"), choices, CHOICES)
    for index, choice in enumerate(choices):
        if isinstance(choice, dict):
            here = ("data", "choices", str(index))
            errors.too_long((*here, "name"), choice.get("name"), CHOICE_NAME)
            errors.too_long((*here, "value"), choice.get("value"), CHOICE_VALUE)
    errors.raise_any()


def check_modal(data: dict[str, Any]) -> None:
    """Check a modal (callback type 9): its title, custom id and text inputs.

    Raises:
        HTTPError: 400 / 50035 naming the fields over their limits.
    """
    errors = FormErrors()
    errors.too_long(("data", "title"), data.get("title"), MODAL_TITLE)
    errors.too_long(("data", "custom_id"), data.get("custom_id"), CUSTOM_ID)
    rows = data.get("components")
    if isinstance(rows, list):
        _check_components(errors, ("data", "components"), rows)
    errors.raise_any()


def check_thread_name(name: Any) -> None:
    """Check the name of a new or renamed thread.

    Raises:
        HTTPError: 400 / 50035 for a name over 100 characters.
    """
    errors = FormErrors()
    errors.too_long(("name",), name, THREAD_NAME)
    errors.raise_any()


def check_files(files: Sequence[UploadedFile], *, size_limit: int) -> None:
    """Check the files of a multipart request.

    Raises:
        HTTPError: 400 / 50035 for more than 10 files; 413 / 40005 "Request entity too
            large" for a file (or all of them together) over ``size_limit`` bytes.
    """
    errors = FormErrors()
    errors.too_long(("attachments",), list(files), ATTACHMENTS)
    errors.raise_any()
    if any(len(f.data) > size_limit for f in files) or _total(files) > size_limit:
        raise HTTPError(413, 40005, "Request entity too large")


def _total(files: Iterable[UploadedFile]) -> int:
    return sum(len(f.data) for f in files)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


# -- application commands (a sync: PUT .../commands) ------------------------------------------

COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
# Discord's locales (Reference, Locales): the keys a localisation may have.
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


def is_command_name(name: Any) -> bool:
    """Discord's rule for a command's or option's name (and each of its localisations): 1 to
    32 characters, letters and digits of any script, ``-`` and ``_``; lowercase where the
    letter has a lowercase form."""
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME:
        return False
    return all((c.isalnum() or c in "-_") and c == c.lower() for c in name)


def check_commands(commands: Any) -> None:
    """Check a bulk overwrite of application commands: names, descriptions, options, choices
    and every localisation of them.

    Raises:
        HTTPError: 400 / 50035 naming every offending field.
    """
    errors = FormErrors()
    for index, command in enumerate(commands or []):
        if isinstance(command, dict):
            _check_command(errors, (str(index),), command, chat_input=command.get("type", 1) == 1)
    errors.raise_any()


def _check_command(errors: FormErrors, at: Path, item: dict[str, Any], *, chat_input: bool) -> None:
    name = item.get("name")
    if chat_input and not is_command_name(name):
        errors.add((*at, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = item.get("description") or ""
    if chat_input and not 1 <= len(description) <= COMMAND_DESCRIPTION:
        errors.add(
            (*at, "description"),
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between 1 and {COMMAND_DESCRIPTION} in length.",
        )
    _check_localizations(errors, at, item, chat_input=chat_input)
    options = item.get("options") or []
    errors.too_long((*at, "options"), options, COMMAND_OPTIONS)
    for number, option in enumerate(options):
        if isinstance(option, dict):
            _check_command(errors, (*at, "options", str(number)), option, chat_input=True)
    choices = item.get("choices") or []
    errors.too_long((*at, "choices"), choices, CHOICES)
    for number, choice in enumerate(choices):
        if isinstance(choice, dict):
            here = (*at, "choices", str(number))
            errors.too_long((*here, "name"), choice.get("name"), CHOICE_NAME)
            for locale, text in (choice.get("name_localizations") or {}).items():
                _check_locale(errors, (*here, "name_localizations"), locale)
                if not isinstance(text, str) or not 1 <= len(text) <= CHOICE_NAME:
                    errors.add(
                        (*here, "name_localizations", locale),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {CHOICE_NAME} in length.",
                    )


def _check_localizations(
    errors: FormErrors, at: Path, item: dict[str, Any], *, chat_input: bool
) -> None:
    for locale, name in (item.get("name_localizations") or {}).items():
        _check_locale(errors, (*at, "name_localizations"), locale)
        if chat_input and not is_command_name(name):
            errors.add(
                (*at, "name_localizations", locale),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            )
    for locale, text in (item.get("description_localizations") or {}).items():
        _check_locale(errors, (*at, "description_localizations"), locale)
        if not isinstance(text, str) or not 1 <= len(text) <= COMMAND_DESCRIPTION:
            errors.add(
                (*at, "description_localizations", locale),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {COMMAND_DESCRIPTION} in length.",
            )


def _check_locale(errors: FormErrors, at: Path, locale: Any) -> None:
    if locale not in DISCORD_LOCALES:
        errors.add((*at, str(locale)), "LOCALE_INVALID", f"{locale!r} is not a valid locale")
