"""Discord's limits by construction: ``bot.cogs.posts`` fits every message,
and no cog sends, answers, edits or opens a thread but through it."""

from __future__ import annotations

import ast
from pathlib import Path

import discord
import pytest

from bot.cogs import posts
from bot.cogs.posts import embed_size, fit_embed, fit_embeds, fit_message
from tests.bot.discord_inprocess import check_limits
from tests.fakediscord import limits

COGS = Path(posts.__file__).parent
# discord.py's methods that send or change a message or open a thread.
SENDING = {
    "send",
    "send_message",
    "edit_message",
    "edit_original_response",
    "create_thread",
    "edit",
    "reply",
}


def direct_calls(source: str) -> list[tuple[int, str]]:
    """The lines and names of calls of a method in ``SENDING`` (``x.send(...)``) in
    ``source``; a call of a plain function (``send(x, ...)``, the wrappers) is not one."""
    return [
        (node.lineno, node.func.attr)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in SENDING
    ]


def test_no_cog_sends_but_through_posts() -> None:
    found = {
        path.name: calls
        for path in sorted(COGS.glob("*.py"))
        if path.name != "posts.py" and (calls := direct_calls(path.read_text()))
    }
    assert found == {}, f"send through bot.cogs.posts (send, answer, follow_up, ...): {found}"


def test_the_check_finds_a_direct_call() -> None:
    source = (
        "async def f(interaction, channel):\n"
        "    await interaction.response.send_message('x')\n"
        "    await channel.send('y')\n"
        "    await posts.send(channel, 'z')\n"  # a module function called by attribute
        "    await follow_up(interaction, 'w')\n"
    )
    assert direct_calls(source) == [(2, "send_message"), (3, "send"), (4, "send")]


def test_posts_calls_are_only_the_wrappers() -> None:
    # posts.py itself makes the direct calls, each in one wrapper of the same purpose.
    tree = ast.parse(Path(posts.__file__).read_text())
    owners = {
        node.name: [
            n.func.attr
            for n in ast.walk(node)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
        ]
        for node in tree.body
        if isinstance(node, ast.AsyncFunctionDef)
    }
    calls = {name: [c for c in made if c in SENDING] for name, made in owners.items()}
    assert {name: made for name, made in calls.items() if made} == {
        "send": ["send"],
        "answer": ["send_message"],
        "follow_up": ["send"],
        "edit": ["edit_message"],
        "edit_original": ["edit_original_response"],
        "edit_placeholder": ["edit_message"],
        "edit_message": ["edit"],
        "create_thread": ["create_thread"],
    }


def huge_embed() -> discord.Embed:
    lines = ["First line: what it is about", *(f"line {n} " + "x" * 300 for n in range(40))]
    embed = discord.Embed(title="T" * 400, description="\n".join([*lines, "Last: the result"]))
    for n in range(30):
        embed.add_field(name=f"field {n} " + "n" * 300, value="v" * 2000, inline=False)
    embed.set_footer(text="f" * 3000)
    embed.set_author(name="a" * 400)
    return embed


def test_fit_embed_keeps_every_limit_and_the_first_and_last_lines() -> None:
    embed = huge_embed()
    with pytest.raises(limits.HTTPError):
        limits.check_message({"embeds": [embed.to_dict()]})
    fitted = fit_embed(embed)
    limits.check_message({"embeds": [fitted.to_dict()]})  # Discord's checks, all of them
    assert embed_size(fitted) <= posts.EMBED_TOTAL
    description = fitted.description or ""
    assert description.startswith("First line: what it is about\n")
    assert description.endswith("\nLast: the result")
    assert fitted.title and fitted.title.endswith("…") and len(fitted.title) == 256
    assert len(embed.fields) == 30  # the original is left as it was


def test_fit_embed_leaves_a_small_embed_alone() -> None:
    embed = discord.Embed(title="Dots leaderboard", description="1. <@1> **1520**")
    embed.add_field(name="Games", value="3")
    embed.set_footer(text="? = provisional rating")
    fitted = fit_embed(embed)
    assert fitted.to_dict() == embed.to_dict()


def test_fit_embed_drops_the_last_fields_when_the_total_is_over() -> None:
    embed = discord.Embed(title="Fields only")
    for n in range(20):
        embed.add_field(name=f"field {n}", value="v" * 1000)
    fitted = fit_embed(embed)
    assert embed_size(fitted) <= posts.EMBED_TOTAL
    assert [f.name for f in fitted.fields] == [f"field {n}" for n in range(len(fitted.fields))]
    assert 1 < len(fitted.fields) < 20


def test_several_embeds_share_the_6000_and_ten_at_most() -> None:
    embeds = [discord.Embed(title=f"#{n}", description="d" * 4000) for n in range(12)]
    fitted = fit_embeds(embeds)
    limits.check_message({"embeds": [e.to_dict() for e in fitted]})
    assert fitted[0].description == "d" * 4000  # the first is whole; the second gets the rest
    assert len(fitted) == 2 and len(fitted[1].description or "") > 1900
    small = [discord.Embed(title=f"#{n}", description="d" * 100) for n in range(12)]
    assert [e.title for e in fit_embeds(small)] == [f"#{n}" for n in range(posts.EMBEDS)]


def test_fit_message_fits_content_embed_embeds_and_leaves_the_rest() -> None:
    marker = object()
    fields = fit_message(
        "c" * 3000, embed=huge_embed(), embeds=[huge_embed(), huge_embed()], file=marker
    )
    assert len(fields["content"]) == 2000 and fields["file"] is marker
    limits.check_message({"embeds": [fields["embed"].to_dict()]})
    limits.check_message({"embeds": [e.to_dict() for e in fields["embeds"]]})
    assert fit_message(content="k" * 2500)["content"] == "k" * 1999 + "…"
    assert "content" not in fit_message(embed=None)


def test_the_in_process_fake_refuses_what_discord_refuses() -> None:
    over = {"embeds": [{"title": "t" * 257}]}
    for path, body in [
        ("/channels/1/messages", over),
        ("/webhooks/1/token", over),
        ("/interactions/1/token/callback", {"type": 4, "data": over}),
        ("/channels/1/messages/2/threads", {"name": "n" * 101}),
        ("/interactions/1/token/callback", {"type": 8, "data": {"choices": [{}] * 26}}),
        ("/channels/1/messages", {"content": "c" * 2001}),
    ]:
        with pytest.raises(discord.HTTPException) as refused:
            check_limits(path, body)
        assert refused.value.code == posts.INVALID_FORM_BODY, path
    check_limits("/channels/1/messages", {"content": "c" * 2000, "embeds": [{"title": "t" * 256}]})
