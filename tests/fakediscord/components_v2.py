"""Components V2 checked the way Discord checks them.

A message flagged ``IS_COMPONENTS_V2`` (1 << 15) is made of layout components (containers,
sections, text displays, media galleries, separators, files) as well as action rows. Discord
then refuses, with 400 / 50035 "Invalid Form Body" naming the field:

- ``content`` or ``embeds`` on such a message (they are replaced by text displays);
- more than 40 components in all, nested ones counted (an action row and each of its
  buttons are components; so are a section's accessory and a container's children);
- an action row of more than 5 buttons, a custom id over 100 characters or used twice in a
  message, a button label over 80, more than 4,000 characters of text displays in all;
- a media gallery of no item or more than 10, or one that shows ``attachment://name`` when
  no file of that name is attached (uploaded with this request or kept from before);
- a layout component in a message without the flag; and an edit that takes the flag away
  (once set, it stays: 50035 on ``flags``).

From Discord's developer documentation (Components: Using Message Components, Component
Reference; Message Resource: Message Flags).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.fakediscord.limits import BUTTON_LABEL, CUSTOM_ID, FormErrors, Path

IS_COMPONENTS_V2 = 1 << 15
TOTAL_COMPONENTS = 40
ROW_BUTTONS = 5
TEXT_TOTAL = 4000
GALLERY_ITEMS = 10

ACTION_ROW, BUTTON, SELECT = 1, 2, 3
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
LAYOUT = frozenset({SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
ATTACHMENT = "attachment://"


def is_v2(flags: Any) -> bool:
    """Whether message ``flags`` carry ``IS_COMPONENTS_V2``."""
    return isinstance(flags, int) and bool(flags & IS_COMPONENTS_V2)


def check_components_v2(
    body: dict[str, Any],
    *,
    at: Path = (),
    errors: FormErrors,
    attached: Iterable[str] = (),
    before_flags: int | None = None,
) -> bool:
    """Note in ``errors`` what Discord refuses of ``body`` as a Components V2 message (see the
    module's docstring); ``attached``: the names of the files the message will have;
    ``before_flags``: an edited message's flags. Whether the message is a V2 one (then the
    legacy checks of its components do not apply)."""
    flags = body.get("flags")
    was_v2 = is_v2(before_flags)
    if was_v2 and isinstance(flags, int) and not is_v2(flags):
        errors.add(
            (*at, "flags"),
            "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
            "The IS_COMPONENTS_V2 flag cannot be removed from a message.",
        )
    v2 = is_v2(flags) or was_v2
    components = body.get("components")
    if not v2:
        if isinstance(components, list) and any(kind in LAYOUT for kind in _kinds(components)):
            errors.add(
                (*at, "components"),
                "COMPONENT_LAYOUT_REQUIRES_FLAG",
                "Layout components require the IS_COMPONENTS_V2 flag.",
            )
        return False
    for field in ("content", "embeds"):
        if body.get(field):
            errors.add(
                (*at, field),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used with IS_COMPONENTS_V2.",
            )
    if not isinstance(components, list):
        return True
    walk = _Walk(errors, set(attached))
    walk.items((*at, "components"), components)
    if walk.count > TOTAL_COMPONENTS:
        errors.add(
            (*at, "components"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {TOTAL_COMPONENTS} or fewer in length (nested components counted).",
        )
    if walk.text > TEXT_TOTAL:
        errors.add(
            (*at, "components"),
            "MESSAGE_TEXT_DISPLAY_TOO_LONG",
            f"The text displays of a message must be {TEXT_TOTAL} or fewer in length.",
        )
    return True


def _kinds(items: list[Any]) -> Iterable[Any]:
    for item in items:
        if isinstance(item, dict):
            yield item.get("type")
            yield from _kinds(item.get("components") or [])
            if isinstance(item.get("accessory"), dict):
                yield item["accessory"].get("type")


class _Walk:
    """One pass over a V2 message's components: counts, text and each component's rules."""

    def __init__(self, errors: FormErrors, attached: set[str]) -> None:
        self.errors = errors
        self.attached = attached
        self.count = 0
        self.text = 0
        self.ids: set[str] = set()

    def items(self, at: Path, items: list[Any]) -> None:
        for index, item in enumerate(items):
            if isinstance(item, dict):
                self.item((*at, str(index)), item)

    def item(self, at: Path, item: dict[str, Any]) -> None:
        self.count += 1
        kind = item.get("type")
        custom_id = item.get("custom_id")
        if isinstance(custom_id, str):
            self.errors.too_long((*at, "custom_id"), custom_id, CUSTOM_ID)
            if custom_id in self.ids:
                self.errors.add(
                    (*at, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            self.ids.add(custom_id)
        if kind == BUTTON:
            self.errors.too_long((*at, "label"), item.get("label"), BUTTON_LABEL)
        elif kind == ACTION_ROW:
            children = item.get("components") or []
            buttons = [c for c in children if isinstance(c, dict) and c.get("type") == BUTTON]
            self.errors.too_long((*at, "components"), buttons, ROW_BUTTONS)
        elif kind == TEXT_DISPLAY:
            content = item.get("content")
            self.text += len(content) if isinstance(content, str) else 0
        elif kind == MEDIA_GALLERY:
            self.gallery(at, item.get("items") or [])
        elif kind == THUMBNAIL:
            self.media((*at, "media"), item.get("media"))
        self.items((*at, "components"), item.get("components") or [])
        if isinstance(item.get("accessory"), dict):
            self.item((*at, "accessory"), item["accessory"])

    def gallery(self, at: Path, items: list[Any]) -> None:
        if not 1 <= len(items) <= GALLERY_ITEMS:
            self.errors.add(
                (*at, "items"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {GALLERY_ITEMS} in length.",
            )
        for index, entry in enumerate(items):
            if isinstance(entry, dict):
                self.media((*at, "items", str(index), "media"), entry.get("media"))

    def media(self, at: Path, media: Any) -> None:
        url = media.get("url") if isinstance(media, dict) else None
        if not isinstance(url, str) or not url:
            self.errors.add((*at, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        elif url.startswith(ATTACHMENT) and url[len(ATTACHMENT) :] not in self.attached:
            self.errors.add(
                (*at, "url"),
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                f"No attachment named {url[len(ATTACHMENT) :]!r} in this message.",
            )


def attached_names(record: Any, body: dict[str, Any], message: Any = None) -> list[str]:
    """The names of the files a message will have once ``body`` (with ``record``'s uploads)
    is applied: those uploaded now, and of an edited ``message``'s, those it keeps (all of
    them unless the body lists the ones to keep)."""
    names = [upload.filename for upload in record.files]
    names += [
        meta["filename"]
        for meta in body.get("attachments") or []
        if isinstance(meta, dict) and isinstance(meta.get("filename"), str)
    ]
    if message is not None:
        listed = body.get("attachments")
        keep = (
            None
            if listed is None
            else {str(meta.get("id")) for meta in listed if isinstance(meta, dict)}
        )
        names += [a.filename for a in message.attachments if keep is None or str(a.id) in keep]
    return names
