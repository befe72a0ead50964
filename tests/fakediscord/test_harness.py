"""The fake Discord against the real discord.py client, with a tiny bot defined here."""

from __future__ import annotations

import asyncio
import io
import json as jsonlib
import math
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord.faults import CALLBACK, CHANNEL_MESSAGES, FOLLOWUP
from tests.fakediscord.fixtures import fake_discord, run_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Guild, User
from tests.fakediscord.timings import percentile, summarise

__all__ = ["fake_discord"]  # the fixture is used by name

COMMANDS = ["ask", "dots", "export", "hello", "pick", "picture", "ping", "post", "think"]


def png_bytes() -> bytes:
    """A real 4x4 PNG."""
    out = io.BytesIO()
    Image.new("RGB", (4, 4), (255, 0, 128)).save(out, format="PNG")
    return out.getvalue()


class PokeView(discord.ui.View):
    """A persistent view with one button; clicking it disables the button."""

    def __init__(self, clicks: list[int]) -> None:
        super().__init__(timeout=None)
        self.clicks = clicks

    @discord.ui.button(label="Poke", custom_id="tiny:poke", style=discord.ButtonStyle.primary)
    async def poke(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        """Count the click and disable the button."""
        self.clicks.append(interaction.user.id)
        button.disabled = True
        await interaction.response.edit_message(content="poked", view=self)


class AskModal(discord.ui.Modal, title="Ask"):
    """A modal with one text input."""

    question: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Question", custom_id="q")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Echo the question privately."""
        await interaction.response.send_message(f"asked: {self.question.value}", ephemeral=True)


@dataclass
class TinyBot:
    """The bot under test and what it observed."""

    bot: commands.Bot | commands.AutoShardedBot
    errors: list[BaseException] = field(default_factory=list)
    clicks: list[int] = field(default_factory=list)


def make_tiny_bot(*, sharded: bool = False) -> TinyBot:
    """A commands.Bot with a handful of slash commands exercising each reply path."""
    cls = commands.AutoShardedBot if sharded else commands.Bot
    bot = cls(command_prefix="!", intents=discord.Intents.default())
    tiny = TinyBot(bot=bot)

    async def setup_hook() -> None:
        bot.add_view(PokeView(tiny.clicks))

    bot.setup_hook = setup_hook  # type: ignore[method-assign]

    async def on_error(
        interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        tiny.errors.append(getattr(error, "original", error))

    bot.tree.on_error = on_error  # type: ignore[method-assign]

    @bot.tree.command(description="Say hello privately")
    @app_commands.describe(name="Who to greet")
    async def hello(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"hello {name}", ephemeral=True)

    @bot.tree.command(description="Draw a picture")
    async def picture(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        file = discord.File(io.BytesIO(png_bytes()), filename="board.png")
        await interaction.followup.send("the board", file=file, view=PokeView(tiny.clicks))

    @bot.tree.command(description="Post in the channel and open a thread")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        message = await interaction.channel.send("a new game")
        thread = await message.create_thread(name="game 1")
        await thread.send("first move", file=discord.File(io.BytesIO(png_bytes()), "move.png"))
        await interaction.followup.send(f"opened {thread.mention}", ephemeral=True)

    @bot.tree.command(description="DM a user")
    async def ping(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("your turn")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"DMs closed ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @bot.tree.command(description="Export a file")
    async def export(interaction: discord.Interaction) -> None:
        sgf = discord.File(io.BytesIO(b"(;GM[40])"), filename="game.sgf")
        await interaction.response.send_message("the record", file=sgf)
        await interaction.followup.send("only you see this", ephemeral=True)

    @bot.tree.command(description="Think in public, then answer")
    async def think(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("done thinking", ephemeral=True)

    @bot.tree.command(description="Pick a game from a menu")
    async def pick(interaction: discord.Interaction) -> None:
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id="tiny:pick",
            options=[discord.SelectOption(label=f"Game {n}", value=str(n)) for n in (1, 2)],
        )

        async def chosen(choice: discord.Interaction) -> None:
            await choice.response.send_message(f"picked {menu.values[0]}", ephemeral=True)

        menu.callback = chosen  # type: ignore[method-assign, assignment]
        view = discord.ui.View()
        view.add_item(menu)
        await interaction.response.send_message("which game?", view=view, ephemeral=True)

    @bot.tree.command(description="Ask a question")
    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(AskModal())

    group = app_commands.Group(name="dots", description="Play dots")

    @group.command(name="move", description="Place a dot")
    @app_commands.describe(point="A point such as B7", colour="Your colour")
    @app_commands.choices(
        colour=[
            app_commands.Choice(name="Pink", value="pink"),
            app_commands.Choice(name="Blue", value="blue"),
        ]
    )
    async def move(
        interaction: discord.Interaction, point: str, colour: app_commands.Choice[str] | None = None
    ) -> None:
        chosen = colour.value if colour else "any"
        await interaction.response.send_message(f"placed {point} as {chosen}")

    @move.autocomplete("point")
    async def move_points(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        points = [f"{c}{r}" for c in "ABC" for r in range(1, 4)]
        return [
            app_commands.Choice(name=p, value=p) for p in points if p.startswith(current.upper())
        ]

    bot.tree.add_command(group)
    return tiny


@dataclass
class World:
    """A running fake with a guild, two players and the tiny bot connected and synced."""

    fake: FakeDiscord
    guild: Guild
    general: Channel
    alice: User
    bob: User
    tiny: TinyBot


@pytest_asyncio.fixture
async def world(fake_discord: FakeDiscord) -> AsyncIterator[World]:
    """The tiny bot logged in to the fake with its commands synced globally."""
    guild = fake_discord.create_guild("Dots Club")
    alice = fake_discord.create_user("alice")
    bob = fake_discord.create_user("bob")
    fake_discord.add_member(guild, alice)
    fake_discord.add_member(guild, bob)
    tiny = make_tiny_bot()
    async with run_bot(fake_discord, tiny.bot):
        await tiny.bot.tree.sync()
        yield World(fake_discord, guild, fake_discord.channel_named("general"), alice, bob, tiny)


async def test_login_and_command_sync_are_recorded(world: World) -> None:
    fake = world.fake
    first = [(r.method, r.path) for r in fake.requests[:2]]
    assert first == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
    assert fake.identifies == 1
    assert world.tiny.bot.user is not None and world.tiny.bot.user.id == fake.bot.id
    assert world.tiny.bot.get_guild(world.guild.id) is not None
    (sync,) = fake.requests_to("PUT", rf"^/applications/{fake.application_id}/commands$")
    assert sorted(c["name"] for c in sync.json) == COMMANDS
    dots = fake.find_command("dots")
    (move,) = dots["options"]
    assert (move["name"], move["type"]) == ("move", 1)
    assert [o["name"] for o in move["options"]] == ["point", "colour"]


async def test_guild_sync_goes_to_the_guild_route(world: World) -> None:
    tree = world.tiny.bot.tree
    tree.copy_global_to(guild=discord.Object(world.guild.id))
    synced = await tree.sync(guild=discord.Object(world.guild.id))
    assert {c.name for c in synced} == set(COMMANDS)
    assert world.fake.requests_to("PUT", rf"/guilds/{world.guild.id}/commands$")
    handle = await world.fake.slash(world.alice, "hello", channel=world.general, name="guild")
    assert handle.data["guild_id"] == str(world.guild.id)
    assert (await handle.reply()).content == "hello guild"


async def test_slash_command_gets_an_ephemeral_reply(world: World) -> None:
    handle = await world.fake.slash(world.alice, "hello", channel=world.general, name="Bob")
    callback = await handle.response()
    reply = await handle.reply()
    assert (callback.type, callback.is_ephemeral) == (4, True)
    assert reply.content == "hello Bob"
    assert reply.is_ephemeral
    assert world.fake.posted(world.general) == []
    assert handle.response_latency is not None and 0 <= handle.response_latency < 3


async def test_deferred_followup_carries_a_png_and_a_button(world: World) -> None:
    handle = await world.fake.slash(world.alice, "picture", channel=world.general)
    assert (await handle.response()).type == 5
    reply = await handle.reply()
    assert reply is handle.original and not reply.is_loading
    assert reply.content == "the board"
    (attachment,) = reply.attachments
    assert attachment.filename == "board.png" and attachment.is_png
    assert Image.open(io.BytesIO(attachment.data)).size == (4, 4)
    assert [b["custom_id"] for b in reply.buttons()] == ["tiny:poke"]
    (upload,) = world.fake.requests_to("POST", FOLLOWUP)
    assert upload.query.get("wait") in ("1", "true") and upload.files[0].is_png
    assert handle.response_latency is not None and handle.file_latency is not None
    assert handle.file_latency >= handle.response_latency
    assert world.fake.posted(world.general) == [reply]


async def test_button_click_reaches_the_view_and_disables_the_button(world: World) -> None:
    handle = await world.fake.slash(world.alice, "picture", channel=world.general)
    board = await handle.reply()
    click = await world.fake.click(world.bob, board, "tiny:poke")
    assert (await click.response()).type == 7
    assert world.tiny.clicks == [world.bob.id]
    assert board.content == "poked"
    assert [b["disabled"] for b in board.buttons()] == [True]
    with pytest.raises(ValueError, match="disabled"):
        await world.fake.click(world.bob, board, "tiny:poke")


async def test_subcommand_options_choices_and_autocomplete(world: World) -> None:
    fake = world.fake
    handle = await fake.slash(
        world.alice, "dots move", channel=world.general, point="B2", colour="blue"
    )
    assert (await handle.reply()).content == "placed B2 as blue"
    typing = await fake.autocomplete(
        world.alice, "dots move", channel=world.general, focused="point", point="b"
    )
    assert [c["value"] for c in await typing.choices()] == ["B1", "B2", "B3"]
    with pytest.raises(ValueError, match="choices"):
        await fake.slash(
            world.alice, "dots move", channel=world.general, point="B2", colour="green"
        )
    with pytest.raises(ValueError, match="required"):
        await fake.slash(world.alice, "dots move", channel=world.general)


async def test_thread_and_dm_paths(world: World) -> None:
    fake = world.fake
    handle = await fake.slash(world.alice, "post", channel=world.general)
    assert (await handle.reply()).is_ephemeral
    (thread,) = fake.threads(world.general)
    assert thread.name == "game 1"
    (starter,) = fake.posted(world.general)
    assert starter.thread_id == thread.id
    (first,) = fake.posted(thread)
    assert first.attachments[0].is_png
    assert world.tiny.bot.get_channel(thread.id) is not None  # THREAD_CREATE reached the cache

    open_dm = await fake.slash(world.alice, "ping", channel=world.general, user=world.bob)
    assert (await open_dm.reply()).content == "sent"
    dm = fake.dm_channel(world.bob)
    assert dm is not None and [m.content for m in fake.posted(dm)] == ["your turn"]
    world.bob.dms_closed = True
    closed = await fake.slash(world.alice, "ping", channel=world.general, user=world.bob)
    assert (await closed.reply()).content == "DMs closed (50007)"


async def test_select_menu_choice_reaches_its_callback(world: World) -> None:
    menu = await (await world.fake.slash(world.alice, "pick", channel=world.general)).reply()
    assert menu.is_ephemeral and menu.custom_ids() == ["tiny:pick"]
    choice = await world.fake.select(world.alice, menu, "tiny:pick", ["2"])
    assert (await choice.reply()).content == "picked 2"


async def test_modal_is_opened_and_submitted(world: World) -> None:
    opened = await world.fake.slash(world.alice, "ask", channel=world.general)
    modal = await opened.modal()
    assert modal["title"] == "Ask"
    submitted = await world.fake.submit_modal(world.alice, opened, {"q": "why?"})
    assert (await submitted.reply()).content == "asked: why?"


async def test_rate_limit_with_via_is_retried_once(world: World) -> None:
    fake = world.fake
    fault = fake.faults.fail_next("POST", FOLLOWUP, status=429, retry_after=0.05)
    handle = await fake.slash(world.alice, "picture", channel=world.general)
    reply = await handle.reply()
    assert reply.attachments[0].is_png
    statuses = [r.status for r in fake.requests_to("POST", FOLLOWUP)]
    assert statuses == [429, 200]
    assert fault.fired == 1
    assert fake.posted(world.general) == [reply]
    assert world.tiny.errors == []


async def test_rate_limit_without_via_is_an_error_the_bot_sees(world: World) -> None:
    fake = world.fake
    fake.fail_next("POST", CALLBACK, status=429, via=False)
    handle = await fake.slash(world.alice, "hello", channel=world.general, name="x")
    await fake.wait_until(lambda: world.tiny.errors)
    assert isinstance(world.tiny.errors[0], discord.HTTPException)
    assert world.tiny.errors[0].status == 429
    assert handle.callbacks == [] and [r.status for r in handle.failures] == [429]


async def test_server_error_is_retried(world: World) -> None:
    fake = world.fake
    fake.faults.fail_next("POST", CHANNEL_MESSAGES, status=500)
    handle = await fake.slash(world.alice, "post", channel=world.general)
    await handle.reply(timeout=8)
    posts = fake.requests_to("POST", rf"^/channels/{world.general.id}/messages$")
    assert [r.status for r in posts] == [500, 200]
    assert [m.content for m in fake.posted(world.general)] == ["a new game"]


async def test_gateway_drop_resumes_and_replays_missed_events(world: World) -> None:
    fake = world.fake
    await fake.drop_gateway()
    # Sent while the bot is disconnected: it must arrive through the RESUME replay.
    missed = await fake.slash(world.alice, "hello", channel=world.general, name="missed")
    await fake.wait_until(lambda: fake.resumes == 1)
    assert (await missed.reply()).content == "hello missed"
    after = await fake.slash(world.alice, "hello", channel=world.general, name="after")
    assert (await after.reply()).content == "hello after"
    assert fake.identifies == 1


async def test_unresumable_drop_makes_the_client_identify_again(world: World) -> None:
    fake = world.fake
    await fake.drop_gateway(resumable=False)
    await fake.wait_until(lambda: fake.identifies == 2)
    assert fake.resumes == 0
    handle = await fake.slash(world.alice, "hello", channel=world.general, name="fresh")
    assert (await handle.reply()).content == "hello fresh"


async def test_expired_interaction_is_an_error_not_a_hang(world: World) -> None:
    fake = world.fake
    fake.faults.fail_next("POST", CALLBACK, status=404, code=10062)
    handle = await fake.slash(world.alice, "hello", channel=world.general, name="late")
    failure = await handle.failed()
    assert failure.status == 404
    await fake.wait_until(lambda: world.tiny.errors)
    (error,) = world.tiny.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    again = await fake.slash(world.alice, "hello", channel=world.general, name="again")
    assert (await again.reply()).content == "hello again"


async def test_callback_deadline_expires_slow_answers(world: World) -> None:
    world.fake.callback_deadline = 0.0
    await world.fake.slash(world.alice, "hello", channel=world.general, name="slow")
    await world.fake.wait_until(lambda: world.tiny.errors)
    assert getattr(world.tiny.errors[0], "code", None) == 10062


async def test_restarted_bot_handles_buttons_of_the_old_process(world: World) -> None:
    fake = world.fake
    board = await (await fake.slash(world.alice, "picture", channel=world.general)).reply()
    await world.tiny.bot.close()
    second = make_tiny_bot()
    async with run_bot(fake, second.bot):
        assert fake.identifies == 2
        click = await fake.click(world.bob, board, "tiny:poke")
        await click.response()
        assert second.clicks == [world.bob.id]
        assert world.tiny.clicks == []


async def test_sharded_client_logs_in(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.create_guild()
    tiny = make_tiny_bot(sharded=True)
    async with run_bot(fake_discord, tiny.bot):
        assert fake_discord.requests_to("GET", r"^/gateway/bot$")
        assert tiny.bot.get_guild(guild.id) is not None
        assert fake_discord.session is not None and fake_discord.session.shard == [0, 1]


async def test_unknown_route_answers_404_and_is_recorded(fake_discord: FakeDiscord) -> None:
    tiny = make_tiny_bot()
    async with run_bot(fake_discord, tiny.bot):
        with pytest.raises(discord.NotFound):
            await tiny.bot.http.request(discord.http.Route("GET", "/nothing/here"))
    assert [r.status for r in fake_discord.requests if re.search("nothing", r.path)] == [404]
    assert [r.path for r in fake_discord.unrouted] == ["/nothing/here"]


async def test_run_bot_raises_when_the_token_is_wrong(fake_discord: FakeDiscord) -> None:
    bot = make_tiny_bot().bot
    with pytest.raises(discord.LoginFailure):
        async with run_bot(fake_discord, bot, token="not-the-token"):
            pass
    assert [r.status for r in fake_discord.requests] == [401]


async def test_concurrent_commands_are_all_answered_and_timed(world: World) -> None:
    fake = world.fake
    players = [fake.create_user(f"p{i}") for i in range(40)]
    handles = await asyncio.gather(
        *(fake.slash(p, "picture", channel=world.general) for p in players)
    )
    replies = await asyncio.gather(*(h.reply() for h in handles))
    assert len({r.id for r in replies}) == 40
    summary = summarise(handles)
    assert (summary.count, summary.answered, summary.failures) == (40, 40, 0)
    assert 0 < summary.response_ms[0] <= summary.response_ms[2] <= summary.file_ms[2]
    assert "40 interactions, 40 answered" in summary.describe()


def test_percentile_uses_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert [percentile(values, q) for q in (50, 95, 99, 100)] == [50.0, 95.0, 99.0, 100.0]
    assert percentile([7.0], 99) == 7.0
    assert math.isnan(percentile([], 50))


async def test_command_schema_is_stable_for_a_golden_file(world: World) -> None:
    first = world.fake.command_schema()
    await world.tiny.bot.tree.sync()
    assert world.fake.command_schema() == first
    assert [c["name"] for c in first] == COMMANDS
    assert all("id" not in c and "version" not in c for c in first)


async def test_initial_response_with_a_file_then_a_private_followup(world: World) -> None:
    handle = await world.fake.slash(world.alice, "export", channel=world.general)
    first, second = await handle.wait_replies(2)
    assert first is handle.original and not first.is_ephemeral
    assert [(a.filename, a.data) for a in first.attachments] == [("game.sgf", b"(;GM[40])")]
    assert second.content == "only you see this" and second.is_ephemeral
    assert world.fake.posted(world.general) == [first]


async def test_a_followup_cannot_make_a_public_defer_private(world: World) -> None:
    handle = await world.fake.slash(world.alice, "think", channel=world.general)
    reply = await handle.reply()
    assert reply.content == "done thinking" and not reply.is_ephemeral


async def test_slash_command_in_a_dm(world: World) -> None:
    dm = world.fake.open_dm(world.alice)
    handle = await world.fake.slash(world.alice, "hello", channel=dm, name="dm")
    reply = await handle.reply()
    assert reply.content == "hello dm" and reply.channel_id == dm.id
    assert "member" not in handle.data and handle.guild is None


# --------------------------------------------------------------------- Discord's limits
#
# The fake refuses what Discord refuses, with Discord's status, code and error body; these
# send raw requests (as any client could) so that no client-side check hides the fake's.

TOO_LONG = "BASE_TYPE_MAX_LENGTH"


async def raw(
    fake: FakeDiscord,
    method: str,
    path: str,
    *,
    json: Any = None,
    files: list[tuple[str, bytes]] | None = None,
) -> tuple[int, Any]:
    """Send one request to the fake's REST API as the bot; its status and JSON body."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session:
        data: Any = None
        if files is not None:
            form = aiohttp.FormData()
            form.add_field(
                "payload_json", jsonlib.dumps(json or {}), content_type="application/json"
            )
            for index, (name, content) in enumerate(files):
                form.add_field(f"files[{index}]", content, filename=name)
            data, json = form, None
        async with session.request(
            method, fake.base_url + path, json=json, data=data, headers=headers
        ) as answer:
            body = await answer.json() if answer.content_type == "application/json" else None
            return answer.status, body


def leaf(body: dict[str, Any], *path: str) -> list[dict[str, Any]]:
    """The ``_errors`` list at ``path`` in a 50035 body (KeyError if that field is not named)."""
    node = body["errors"]
    for key in path:
        node = node[key]
    errors: list[dict[str, Any]] = node["_errors"]
    return errors


def button(**fields: Any) -> dict[str, Any]:
    """One action row holding one button."""
    return {"type": 1, "components": [{"type": 2, "style": 1, **fields}]}


def select(options: list[dict[str, Any]], custom_id: str = "s") -> dict[str, Any]:
    """One action row holding one string select."""
    return {"type": 1, "components": [{"type": 3, "custom_id": custom_id, "options": options}]}


def embed_over(key: str, length: int) -> dict[str, Any]:
    """An embed whose ``key`` (``footer.text``-style for nested ones) is ``length`` long."""
    if "." in key:
        outer, inner = key.split(".")
        return {"title": "t", outer: {inner: "x" * length}}
    return {key: "x" * length}


OVER_THE_LIMITS: list[tuple[str, dict[str, Any], tuple[str, ...], str]] = [
    ("content", {"content": "x" * 2001}, ("content",), "Must be 2000 or fewer in length."),
    ("embed title", {"embeds": [embed_over("title", 257)]}, ("embeds", "0", "title"), "256"),
    (
        "embed description",
        {"embeds": [embed_over("description", 4097)]},
        ("embeds", "0", "description"),
        "4096",
    ),
    (
        "embed fields",
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        ("embeds", "0", "fields"),
        "25",
    ),
    (
        "field name",
        {"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]},
        ("embeds", "0", "fields", "0", "name"),
        "256",
    ),
    (
        "field value",
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
        ("embeds", "0", "fields", "0", "value"),
        "1024",
    ),
    (
        "footer",
        {"embeds": [embed_over("footer.text", 2049)]},
        ("embeds", "0", "footer", "text"),
        "2048",
    ),
    (
        "author",
        {"embeds": [embed_over("author.name", 257)]},
        ("embeds", "0", "author", "name"),
        "256",
    ),
    ("ten embeds", {"embeds": [{"title": "t"}] * 11}, ("embeds",), "10"),
    (
        "custom id",
        {"components": [button(label="b", custom_id="c" * 101)]},
        ("components", "0", "components", "0", "custom_id"),
        "100",
    ),
    (
        "button label",
        {"components": [button(label="b" * 81, custom_id="c")]},
        ("components", "0", "components", "0", "label"),
        "80",
    ),
    (
        "select options",
        {"components": [select([{"label": f"{n}", "value": f"{n}"} for n in range(26)])]},
        ("components", "0", "components", "0", "options"),
        "25",
    ),
    (
        "option label",
        {"components": [select([{"label": "l" * 101, "value": "v"}])]},
        ("components", "0", "components", "0", "options", "0", "label"),
        "100",
    ),
    (
        "option value",
        {"components": [select([{"label": "l", "value": "v" * 101}])]},
        ("components", "0", "components", "0", "options", "0", "value"),
        "100",
    ),
    (
        "option description",
        {"components": [select([{"label": "l", "value": "v", "description": "d" * 101}])]},
        ("components", "0", "components", "0", "options", "0", "description"),
        "100",
    ),
]


@pytest.mark.parametrize(
    ("body", "path", "says"),
    [case[1:] for case in OVER_THE_LIMITS],
    ids=[case[0] for case in OVER_THE_LIMITS],
)
async def test_a_post_over_a_limit_gets_invalid_form_body(
    world: World, body: dict[str, Any], path: tuple[str, ...], says: str
) -> None:
    fake = world.fake
    status, answer = await raw(fake, "POST", f"/channels/{world.general.id}/messages", json=body)
    assert (status, answer["code"], answer["message"]) == (400, 50035, "Invalid Form Body")
    (error,) = leaf(answer, *path)
    assert error["code"] == TOO_LONG and says in error["message"]
    assert fake.posted(world.general) == []


async def test_posts_at_the_limits_are_accepted(world: World) -> None:
    fake = world.fake
    at_limits = {
        "content": "x" * 2000,
        "embeds": [{"title": "t" * 256, "description": "d" * 4096, "footer": {"text": "f" * 1648}}],
        "components": [
            button(label="b" * 80, custom_id="c" * 100),
            select([{"label": "l" * 100, "value": f"{n:0100}"} for n in range(25)]),
        ],
    }
    status, answer = await raw(
        fake, "POST", f"/channels/{world.general.id}/messages", json=at_limits
    )
    assert status == 200, answer
    (message,) = fake.posted(world.general)
    assert len(message.content) == 2000 and len(message.custom_ids()) == 2


async def test_embeds_over_6000_characters_together_are_refused(world: World) -> None:
    # Each embed is within its own limits; together they are 6,001 characters.
    embeds = [{"description": "d" * 3000}, {"description": "d" * 3000, "title": "t"}]
    status, answer = await raw(
        world.fake, "POST", f"/channels/{world.general.id}/messages", json={"embeds": embeds}
    )
    assert (status, answer["code"]) == (400, 50035)
    assert leaf(answer, "embeds") == [
        {"code": "MAX_EMBED_SIZE_EXCEEDED", "message": "Embed size exceeds maximum size of 6000"}
    ]


async def test_discord_py_reports_the_refused_field(world: World) -> None:
    channel = world.tiny.bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    assert "In content: Must be 2000 or fewer in length." in str(caught.value)
    message = await channel.send("x" * 2000)
    with pytest.raises(discord.HTTPException) as edited:
        await message.edit(content="y" * 2001)
    assert edited.value.code == 50035
    assert world.fake.messages[message.id].content == "x" * 2000


async def test_eleven_files_or_one_too_big_are_refused(world: World) -> None:
    fake = world.fake
    path = f"/channels/{world.general.id}/messages"
    status, answer = await raw(fake, "POST", path, json={}, files=[("a.txt", b"a")] * 11)
    assert (status, answer["code"]) == (400, 50035)
    assert leaf(answer, "attachments")[0]["message"] == "Must be 10 or fewer in length."
    fake.upload_limit = 1000
    status, answer = await raw(fake, "POST", path, json={}, files=[("big.png", b"x" * 1001)])
    assert (status, answer) == (413, {"code": 40005, "message": "Request entity too large"})
    status, _ = await raw(fake, "POST", path, json={}, files=[("a.png", b"x" * 1000)])
    assert status == 200
    assert [len(m.attachments) for m in fake.posted(world.general)] == [1]


async def test_thread_names_and_threads_inside_threads(world: World) -> None:
    fake = world.fake
    path = f"/channels/{world.general.id}/threads"
    status, answer = await raw(fake, "POST", path, json={"name": "n" * 101, "type": 11})
    assert (status, answer["code"]) == (400, 50035)
    assert leaf(answer, "name")[0]["code"] == TOO_LONG
    assert fake.threads() == []
    status, thread = await raw(fake, "POST", path, json={"name": "n" * 100, "type": 11})
    assert status == 200
    status, answer = await raw(
        fake, "POST", f"/channels/{thread['id']}/threads", json={"name": "inner", "type": 11}
    )
    assert (status, answer) == (
        400,
        {"code": 50024, "message": "Cannot execute action on this channel type"},
    )
    status, answer = await raw(fake, "PATCH", f"/channels/{thread['id']}", json={"name": "r" * 101})
    assert (status, answer["code"]) == (400, 50035)
    assert [t.name for t in fake.threads()] == ["n" * 100]


async def unanswered(world: World) -> Any:
    """An interaction the tiny bot does not answer (a click on a button it does not know)."""
    data = {"custom_id": "nobody:home", "component_type": 2}
    return await world.fake.send_interaction(3, world.alice, world.general, data)


async def test_a_callback_over_the_limits_names_the_field_under_data(world: World) -> None:
    fake = world.fake
    handle = await unanswered(world)
    path = f"/interactions/{handle.id}/{handle.token}/callback"
    status, answer = await raw(
        fake, "POST", path, json={"type": 4, "data": {"content": "x" * 2001}}
    )
    assert (status, answer["code"]) == (400, 50035)
    assert leaf(answer, "data", "content")[0]["code"] == TOO_LONG
    assert handle.callbacks == [] and [f.status for f in handle.failures] == [400]
    # A refused callback does not acknowledge: a correct one may still follow.
    status, _ = await raw(fake, "POST", path, json={"type": 4, "data": {"content": "ok"}})
    assert status == 200 and (await handle.reply()).content == "ok"


async def test_a_second_callback_is_already_acknowledged(world: World) -> None:
    fake = world.fake
    handle = await unanswered(world)
    path = f"/interactions/{handle.id}/{handle.token}/callback"
    assert (await raw(fake, "POST", path, json={"type": 6}))[0] == 200
    status, answer = await raw(fake, "POST", path, json={"type": 4, "data": {"content": "again"}})
    assert (status, answer) == (
        400,
        {"code": 40060, "message": "Interaction has already been acknowledged"},
    )
    assert [c.type for c in handle.callbacks] == [6]


async def test_a_callback_after_three_seconds_is_an_unknown_interaction(world: World) -> None:
    fake = world.fake
    fake.callback_deadline = 0.05
    handle = await unanswered(world)
    await asyncio.sleep(0.1)
    path = f"/interactions/{handle.id}/{handle.token}/callback"
    status, answer = await raw(fake, "POST", path, json={"type": 5})
    assert (status, answer) == (404, {"code": 10062, "message": "Unknown interaction"})
    assert handle.callbacks == []
    assert world.fake.callback_deadline == 0.05 and FakeDiscord().callback_deadline == 3.0


async def test_autocomplete_and_modal_limits(world: World) -> None:
    fake = world.fake
    handle = await unanswered(world)
    path = f"/interactions/{handle.id}/{handle.token}/callback"
    choices = [{"name": f"{n}", "value": f"{n}"} for n in range(26)]
    status, answer = await raw(fake, "POST", path, json={"type": 8, "data": {"choices": choices}})
    assert (status, answer["code"]) == (400, 50035)
    assert leaf(answer, "data", "choices")[0]["message"] == "Must be 25 or fewer in length."
    long_name = [{"name": "n" * 101, "value": "v"}]
    status, answer = await raw(fake, "POST", path, json={"type": 8, "data": {"choices": long_name}})
    assert leaf(answer, "data", "choices", "0", "name")[0]["code"] == TOO_LONG
    modal = {"title": "t" * 46, "custom_id": "m", "components": []}
    status, answer = await raw(fake, "POST", path, json={"type": 9, "data": modal})
    assert leaf(answer, "data", "title")[0]["message"] == "Must be 45 or fewer in length."
    assert handle.callbacks == []


async def test_followups_and_edits_over_the_limits_are_refused(world: World) -> None:
    fake = world.fake
    handle = await unanswered(world)
    await raw(fake, "POST", f"/interactions/{handle.id}/{handle.token}/callback", json={"type": 5})
    webhook = f"/webhooks/{fake.application_id}/{handle.token}"
    status, answer = await raw(fake, "POST", webhook, json={"content": "x" * 2001})
    assert (status, answer["code"]) == (400, 50035) and leaf(answer, "content")
    assert handle.replies() == []
    status, answer = await raw(
        fake, "PATCH", webhook + "/messages/@original", json={"embeds": [{"title": "t" * 257}]}
    )
    assert leaf(answer, "embeds", "0", "title")[0]["code"] == TOO_LONG
    assert handle.replies() == []


async def test_an_interaction_token_answers_for_fifteen_minutes(world: World) -> None:
    fake = world.fake
    assert fake.webhook_token_lifetime == 15 * 60
    handle = await unanswered(world)
    await raw(fake, "POST", f"/interactions/{handle.id}/{handle.token}/callback", json={"type": 5})
    webhook = f"/webhooks/{fake.application_id}/{handle.token}"
    assert (await raw(fake, "POST", webhook, json={"content": "in time"}))[0] == 204
    fake.webhook_token_lifetime = 0.0  # as if 15 minutes had passed
    status, answer = await raw(fake, "POST", webhook, json={"content": "too late"})
    assert (status, answer) == (401, {"code": 50027, "message": "Invalid Webhook Token"})
    status, _ = await raw(fake, "PATCH", webhook + "/messages/@original", json={"content": "x"})
    assert status == 401
    assert [m.content for m in handle.replies()] == ["in time"]
