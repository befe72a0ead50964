"""Persistent components: buttons and menus whose custom id says what they do and to what, so
that a click works after a restart and the state stays in the database, never in a view.

Each component's custom id has one format (``CustomId``), given once on its class: the
template discord.py matches clicks with and the ids the class makes both come from it.
Discord allows 100 characters (``bot.cogs.posts.CUSTOM_ID``); the formats are kept as they
were, so that buttons posted before an upgrade still work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

import discord

from bot.cogs.client import bot_of
from bot.cogs.interactions import RESTARTING, answer_error, is_id
from bot.games import Refusal
from bot.i18n import N_, SOURCE, translate

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


@dataclass(frozen=True)
class CustomId:
    """The format of a custom id: ``<prefix>:<action>:<key>``, then the numbers ``fields``
    (always there) and ``optional`` (all of them or none), each given as a name and the pattern
    of its digits. ``key`` is the key's pattern (digits: an id)."""

    prefix: str
    actions: tuple[str, ...]
    key: str = "[0-9]+"
    fields: tuple[tuple[str, str], ...] = ()
    optional: tuple[tuple[str, str], ...] = ()

    @property
    def template(self) -> str:
        """The regular expression discord.py matches the custom ids of clicks with."""
        actions = "|".join(self.actions)
        pattern = f"{self.prefix}:(?P<action>{actions}):(?P<key>{self.key})"
        pattern += "".join(f":(?P<{name}>{digits})" for name, digits in self.fields)
        if self.optional:
            tail = "".join(f":(?P<{name}>{digits})" for name, digits in self.optional)
            pattern += f"(?:{tail})?"
        return pattern

    def format(self, action: str, key: object, **numbers: int | None) -> str:
        """The custom id of ``action`` on ``key`` with these ``numbers`` (by field name; the
        optional ones are left out unless all are given)."""
        custom_id = f"{self.prefix}:{action}:{key}"
        custom_id += "".join(f":{numbers[name]}" for name, _ in self.fields)
        optional = [numbers.get(name) for name, _ in self.optional]
        if optional and all(value is not None for value in optional):
            custom_id += "".join(f":{value}" for value in optional)
        return custom_id


# discord.py asks every DynamicItem for a template; the base's matches nothing (it is never
# registered: ``bot.cogs.DYNAMIC_ITEMS`` lists its subclasses).
class PersistentItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A button or menu whose custom id (``ID``, given as the class keyword ``custom_id``)
    says what it does (``action``) and to what (``key``: an id, or the argument of a
    command); subclasses build the component in ``component`` and act in ``run``."""

    ID: ClassVar[CustomId]
    # The key of an item rebuilt from a forged custom id (see ``from_custom_id``).
    NO_KEY: ClassVar[Any] = 0

    def __init_subclass__(cls, *, custom_id: CustomId | None = None, **options: Any) -> None:
        """Take the template from the class's ``custom_id`` format."""
        if custom_id is not None:
            cls.ID = custom_id
            options["template"] = custom_id.template
        super().__init_subclass__(**options)

    def __init__(self, action: str, key: Any, /, **options: Any) -> None:
        self.action = action
        self.key = key
        self.forged = False
        super().__init__(self.component(**options))

    def made_id(self, **numbers: int | None) -> str:
        """This item's custom id (see ``CustomId.format``)."""
        return self.ID.format(self.action, self.key, **numbers)

    def component(self, **options: Any) -> ItemT:
        """The Discord component for ``self.action`` and ``self.key``."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """Rebuild the item from its custom id (never raising: discord.py would log it and
        leave the click unanswered): an item with a forged key is marked ``forged`` and its
        click refused. The template's other groups are numbers (e.g. the position a button
        was made for), passed to the constructor by name (None when the group is absent)."""
        key = cls.parse_key(match["key"])
        numbers = {
            name: None if value is None else int(value)
            for name, value in match.groupdict().items()
            if name not in {"action", "key"}
        }
        item = cls(match["action"], cls.NO_KEY if key is None else key, **numbers)
        item.forged = key is None
        return item

    @classmethod
    def parse_key(cls, key: str) -> Any:
        """The key a custom id carries (an id, by default); None when none of our components
        could carry it (a forged id out of range)."""
        value = int(key)  # the template's key is digits
        return value if is_id(value) else None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Run the action; any error is answered privately (see ``answer_error``)."""
        try:
            if not bot_of(interaction).admit():
                raise Refusal(RESTARTING)
            if self.forged:
                raise Refusal(N_("this button is not one I know: nothing changed"))
            await self.run(interaction)
        except Exception as error:
            await answer_error(interaction, error)

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Do what the click asks."""
        raise NotImplementedError


class ActionButton(PersistentItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A persistent button labelled and styled by its action (``LABELS``, ``STYLES``)."""

    LABELS: ClassVar[dict[str, str]]
    STYLES: ClassVar[dict[str, discord.ButtonStyle]]

    def component(
        self, *, disabled: bool = False, locale: str = SOURCE, **options: Any
    ) -> discord.ui.Button[Any]:
        """The button (its label in ``locale``); ``disabled`` once it no longer applies."""
        return discord.ui.Button(
            label=translate(locale, self.LABELS[self.action]),
            style=self.STYLES[self.action],
            custom_id=self.made_id(),
            disabled=disabled,
        )
