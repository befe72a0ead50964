"""The fake refuses what Discord refuses of a Components V2 message."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest

from tests.fakediscord.components_v2 import IS_COMPONENTS_V2, check_components_v2, is_v2
from tests.fakediscord.limits import FormErrors, check_message
from tests.fakediscord.records import HTTPError
from tests.fakediscord.test_harness import World, fake_discord, world

__all__ = ["fake_discord", "world"]  # the fixtures are used by name


def button(custom_id: str, label: str = "x") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*ids: str) -> dict[str, Any]:
    return {"type": 1, "components": [button(i) for i in ids]}


def gallery(url: str = "attachment://card.png") -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": url}}]}


def refused(body: dict[str, Any], **options: Any) -> dict[str, Any]:
    """The ``errors`` tree of the 50035 Discord answers ``body`` with ({} when accepted)."""
    errors = FormErrors()
    v2 = check_components_v2(body, errors=errors, **options)
    try:
        check_message(body, errors=errors, v2=v2)
    except HTTPError as error:
        assert error.status == 400 and error.code == 50035
        return errors.tree
    return {}


def card(*extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "flags": IS_COMPONENTS_V2,
        "components": [{"type": 10, "content": "Game #1"}, gallery(), row("a", "b"), *extra],
    }


def test_a_card_with_its_picture_attached_and_seven_top_level_components_passes() -> None:
    body = card(row("c"), row("d"), row("e"), row("f"))
    assert refused(body, attached=["card.png"]) == {}


def test_content_or_embeds_on_a_v2_message_are_refused() -> None:
    assert "content" in refused({**card(), "content": "hi"}, attached=["card.png"])
    assert "embeds" in refused({**card(), "embeds": [{"title": "t"}]}, attached=["card.png"])


def test_more_than_forty_components_counting_nested_ones_are_refused() -> None:
    rows = [row(*(f"{r}-{c}" for c in range(5))) for r in range(6)]  # 36 components
    assert refused(card(*rows[:5]), attached=["card.png"]) == {}  # 3 + 3 + 30 = 36
    errors = refused(card(*rows), attached=["card.png"])  # 42
    assert errors["components"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


def test_a_row_of_six_buttons_a_long_custom_id_and_a_repeated_one_are_refused() -> None:
    errors = refused(card(row(*"uvwxyz")), attached=["card.png"])
    assert errors["components"]["3"]["components"]["_errors"]
    long_id = refused(card(row("k" * 101)), attached=["card.png"])
    assert long_id["components"]["3"]["components"]["0"]["custom_id"]
    twice = refused(card(row("a")), attached=["card.png"])
    code = twice["components"]["3"]["components"]["0"]["custom_id"]["_errors"][0]["code"]
    assert code == "COMPONENT_CUSTOM_ID_DUPLICATED"


def test_a_gallery_showing_a_file_not_attached_is_refused() -> None:
    assert refused(card(), attached=["other.png"])["components"]["1"]["items"]["0"]["media"]
    assert refused(card(), attached=[])
    assert refused({**card(), "components": [gallery("https://example.com/a.png")]}) == {}


def test_layout_components_without_the_flag_are_refused() -> None:
    body = card()
    del body["flags"]
    assert "components" in refused(body, attached=["card.png"])


def test_the_flag_cannot_be_taken_away_by_an_edit() -> None:
    errors = refused({"flags": 0, "content": "plain"}, before_flags=IS_COMPONENTS_V2)
    assert errors["flags"]["_errors"][0]["code"] == "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"
    # An edit that says nothing of the flags keeps them, and content stays refused.
    assert "content" in refused({"content": "plain"}, before_flags=IS_COMPONENTS_V2)


@pytest.mark.parametrize("texts", [[3999], [2000, 2001]])
def test_text_displays_share_four_thousand_characters(texts: list[int]) -> None:
    body = {
        "flags": IS_COMPONENTS_V2,
        "components": [{"type": 10, "content": "x" * n} for n in texts],
    }
    assert (refused(body) == {}) == (sum(texts) <= 4000)


async def test_the_fake_checks_v2_posts_and_edits_through_discord_py(world: World) -> None:
    channel = world.tiny.bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    picture = discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\n"), filename="card.png")
    layout = discord.ui.LayoutView()
    layout.add_item(discord.ui.TextDisplay("Game #1"))
    layout.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(picture)))
    message = await channel.send(view=layout, file=picture)
    stored = world.fake.messages[message.id]
    assert is_v2(stored.flags) and stored.content == "" and len(stored.attachments) == 1
    # An edit that keeps the attachment passes; one that drops the flag is refused.
    layout.add_item(discord.ui.TextDisplay("and more"))
    await message.edit(view=layout)
    with pytest.raises(discord.HTTPException) as caught:
        await raw_edit(world, message.id, {"flags": 0, "components": []})
    assert caught.value.code == 50035
    assert is_v2(world.fake.messages[message.id].flags)
    # A gallery showing a file the post does not attach is refused.
    missing = discord.ui.LayoutView()
    missing.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://gone.png")))
    with pytest.raises(discord.HTTPException) as refused_post:
        await channel.send(view=missing)
    assert refused_post.value.code == 50035


async def raw_edit(world: World, message_id: int, body: dict[str, Any]) -> None:
    route = discord.http.Route(
        "PATCH",
        "/channels/{channel_id}/messages/{message_id}",
        channel_id=world.general.id,
        message_id=message_id,
    )
    await world.tiny.bot.http.request(route, json=body)
