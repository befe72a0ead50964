"""End to end: the real bot logs in to the fake Discord, syncs its commands (checked against
the reviewed golden schema), and two players play a whole game through slash commands and
buttons; every picture is a valid PNG and every refusal is private and changes nothing.

Regenerate the golden schema on purpose (after changing a command) with
``DOTS_UPDATE_GOLDEN=1 python -m pytest tests/e2e/test_game.py -k golden`` and review the diff
of ``tests/e2e/golden/commands.json`` like code: it is what Discord users will see.
"""

from __future__ import annotations

import json
import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.config import Settings
from bot.games import GameOptions
from tests.e2e.helpers import (
    actions,
    bot_on,
    decode_png,
    make_server,
    query,
    quiet,
    snapshot,
    start_game,
)
from tests.fakediscord.drivers import InteractionHandle
from tests.fakediscord.fixtures import fake_discord, run_bot
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name

GOLDEN = Path(__file__).parent / "golden" / "commands.json"


def check_golden(schema: list[dict[str, Any]]) -> None:
    """Compare the synced schema with the golden file (or rewrite it when asked to)."""
    text = json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("DOTS_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(text, encoding="utf-8")
        pytest.skip("golden command schema rewritten: review the diff and commit it")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert schema == golden, (
        "the synced slash commands differ from tests/e2e/golden/commands.json; if the change "
        "is meant, run DOTS_UPDATE_GOLDEN=1 python -m pytest tests/e2e/test_game.py -k golden "
        "and review the diff"
    )


async def test_login_and_global_sync_match_the_golden_schema(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    make_server(fake, tmp_path / "db.sqlite3")
    async with bot_on(fake, tmp_path / "db.sqlite3") as bot:
        first = [(r.method, r.path) for r in fake.requests[:3]]
        app = fake.application_id
        assert first == [
            ("GET", "/users/@me"),
            ("GET", "/oauth2/applications/@me"),
            ("PUT", f"/applications/{app}/commands"),
        ]
        assert fake.identifies == 1 and len(fake.command_syncs) == 1
        assert bot.user is not None and bot.user.id == fake.bot.id
        assert fake.guild_commands == {}
        check_golden(fake.command_schema())
    assert fake.unrouted == []


def discord_limits(command: dict[str, Any], path: str = "") -> list[str]:
    """What Discord would refuse in a synced command (the fake accepts anything): names of
    1-32 lowercase characters, descriptions of 1-100, at most 25 options and 25 choices,
    required options first."""
    name = f"{path}/{command['name']}"
    problems = []
    if not re.fullmatch(r"[-_a-z0-9]{1,32}", command["name"]):
        problems.append(f"{name}: name")
    if not 1 <= len(command.get("description", "")) <= 100:
        problems.append(f"{name}: description of {len(command.get('description', ''))}")
    options = command.get("options") or []
    choices = command.get("choices") or []
    if len(options) > 25 or len(choices) > 25:
        problems.append(f"{name}: too many options or choices")
    problems += [f"{name}: choice {c['name']!r}" for c in choices if not 1 <= len(c["name"]) <= 100]
    required = [bool(o.get("required")) for o in options]
    if required != sorted(required, reverse=True):
        problems.append(f"{name}: an optional option before a required one")
    for option in options:
        problems += discord_limits(option, name)
    return problems


def test_the_golden_schema_is_one_discord_accepts() -> None:
    schema = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert [p for command in schema for p in discord_limits(command)] == []
    assert len(schema) <= 100  # global slash commands per application


async def test_a_development_server_gets_the_same_commands_instantly(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    server = make_server(fake, tmp_path / "db.sqlite3")
    settings = Settings(
        token=fake.token, database=tmp_path / "db.sqlite3", dev_guild=server.guild.id
    )
    async with run_bot(fake, create_bot(settings)):
        assert fake.global_commands == []
        assert fake.command_syncs[0].path.endswith(f"/guilds/{server.guild.id}/commands")
        check_golden(fake.command_schema(server.guild))


def is_clear(text: str) -> bool:
    """A refusal a player can read: one or a few sentences, no traceback, no apology for a
    crash, within Discord's 2,000 characters."""
    return (
        bool(text)
        and (text[0].isupper() or text[0] == "`")  # a sentence, or one naming what was typed
        and text.rstrip()[-1] in ".!?"
        and "Traceback" not in text
        and "something went wrong" not in text
        and len(text) <= 2000
    )


async def refused(handle: InteractionHandle, *, says: str = "") -> str:
    """The private refusal answering ``handle`` (asserting it is private and clear)."""
    reply = await handle.reply()
    assert reply.is_ephemeral, f"refusal was public: {reply.content!r}"
    assert is_clear(reply.content), reply.content
    assert says.lower() in reply.content.lower(), reply.content
    return reply.content


async def test_a_whole_game_from_challenge_to_leaderboard(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        # The challenge: public, pings bob, buttons only bob may use.
        handle = await fake.slash(
            s.alice, "challenge", channel=s.general, opponent=s.bob, colour="pink"
        )
        challenge = await handle.reply()
        await quiet(db)  # the bot notes the challenge's message id just after answering
        assert not challenge.is_ephemeral and s.bob.mention in challenge.content
        assert challenge.custom_ids() == [
            "dots:challenge:accept:1",
            "dots:challenge:decline:1",
            "dots:challenge:cancel:1",
        ]
        before = snapshot(db)
        await refused(
            await fake.click(s.carol, challenge, "dots:challenge:accept:1"),
            says="not your challenge",
        )
        await refused(
            await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.bob),
            says="already an open challenge",
        )
        await refused(
            await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.alice),
            says="yourself",
        )
        robot = fake.create_user("robot", bot=True)  # another app's bot, not ours
        await refused(
            await fake.slash(s.alice, "challenge", channel=s.general, opponent=robot),
            says="bot",
        )
        await refused(
            await fake.slash(s.carol, "move", channel=s.general, point="E5"),
            says="no running game",
        )
        assert snapshot(db) == before

        # Accept: the challenge message says so with its buttons disabled; a thread opens.
        accept = await fake.click(s.bob, challenge, "dots:challenge:accept:1")
        assert (await accept.response()).name in {"update message", "deferred update"}
        await fake.wait_until(lambda: all(b["disabled"] for b in challenge.buttons()), poll=None)
        thread = await fake.wait_until(lambda: next(iter(fake.threads()), None), poll=None)
        assert thread.name == "Dots #1: alice vs bob" and thread.parent_id == s.general.id
        await fake.wait_until(lambda: fake.posted(thread), poll=None)
        opening = fake.posted(thread)[0]
        assert s.alice.mention in opening.content and "Pink to move" in opening.content

        # Moves with a capture, refusals in between.
        moves = [
            (s.alice, "E6"),
            (s.bob, "E5"),
            (s.alice, "D5"),
            (s.bob, "A1"),
            (s.alice, "F5"),
            (s.bob, "A2"),
            (s.alice, "E4"),
        ]
        for n, (player, point) in enumerate(moves):
            if n == 2:
                before = snapshot(db)
                await refused(
                    await fake.slash(s.bob, "move", channel=thread, point="C3"),
                    says="not your turn",
                )
                await refused(
                    await fake.slash(s.alice, "move", channel=thread, point="E6"),
                    says="E6",
                )
                for junk in ("Z99", "K11", "A0", "hello", "E"):
                    await refused(await fake.slash(s.alice, "move", channel=thread, point=junk))
                await refused(
                    await fake.slash(s.carol, "move", channel=thread, point="C3"),
                    says="not playing",
                )
                await refused(await fake.slash(s.bob, "end", channel=thread), says="not your turn")
                await refused(await fake.slash(s.carol, "end", channel=thread), says="not playing")
                await refused(
                    await fake.slash(s.carol, "dots-admin cancel", channel=thread, game=1),
                    says="Manage Server",
                )
                assert snapshot(db) == before
            if n == 4:
                typing = await fake.autocomplete(
                    s.bob, "move", channel=thread, focused="point", point="e"
                )
                offered = [c["value"] for c in await typing.choices()]
                assert offered and len(offered) <= 25
                assert all(p.startswith("E") for p in offered)
                assert not {"E5", "E6"} & set(offered)  # taken points are never offered
            move = await fake.slash(player, "move", channel=thread, point=point)
            reply = await move.reply()
            assert not reply.is_ephemeral and f"plays {point}" in reply.content
            assert (await move.response()).name == "deferred message"
            assert [a.filename for a in reply.attachments] == [f"dots-1-{n + 1:03d}.png"]
        assert "Pink captures 1" in reply.content and "Pink 1 · Blue 0" in reply.content
        assert s.bob.mention in reply.content  # the player to move is pinged

        # /end by both: a private confirmation, then the announcement in the thread.
        for n, player in enumerate((s.bob, s.alice)):
            ask = await fake.slash(player, "end", channel=thread)
            prompt = await ask.reply()
            # Each button also carries the position it was shown for (moves:instant).
            assert prompt.is_ephemeral and [c.rsplit(":", 2)[0] for c in prompt.custom_ids()] == [
                "dots:confirm:end:1",
                "dots:confirm:keep:1",
            ]
            done = await fake.click(player, prompt, prompt.custom_ids()[0])
            assert (await done.reply()).content == "You ended."

            def announced(posts: int = 9 + n) -> bool:  # opening, seven moves, one per end
                return len(fake.posted(thread)) == posts

            await fake.wait_until(announced, poll=None)
        plays_on = fake.posted(thread)[-2]
        assert "Pink may play on alone" in plays_on.content
        final = fake.posted(thread)[-1]
        assert "Pink wins 1–0 (both ended)" in final.content
        assert "Ratings:" in final.content
        assert [a.filename for a in final.attachments] == ["dots-1-009.png", "dots-1.gif"]
        assert final.attachments[1].data.startswith(b"GIF89a")

        # Stored: the actions in order and the result.
        assert actions(db, 1) == [
            ("dot", 1, "E6"),
            ("dot", 2, "E5"),
            ("dot", 1, "D5"),
            ("dot", 2, "A1"),
            ("dot", 1, "F5"),
            ("dot", 2, "A2"),
            ("dot", 1, "E4"),
            ("end", 2, None),
            ("end", 1, None),
        ]
        assert query(db, "SELECT status, winner, pink_score, blue_score, reason FROM games") == [
            ("over", 1, 1, 0, "ended")
        ]

        # Over: moves are refused; the leaderboard and stats show the result.
        before = snapshot(db)
        await refused(await fake.slash(s.alice, "move", channel=thread, point="C3"), says="over")
        await refused(await fake.slash(s.bob, "end", channel=thread), says="over")
        await refused(await fake.slash(s.bob, "resign", channel=thread), says="over")
        assert snapshot(db) == before
        board = await (await fake.slash(s.carol, "leaderboard", channel=s.general)).reply()
        assert not board.is_ephemeral
        lines = board.embeds[0]["description"].splitlines()
        assert lines[0].startswith(f"1. {s.alice.mention}") and "1 won, 0 lost" in lines[0]
        assert lines[1].startswith(f"2. {s.bob.mention}") and "0 won, 1 lost" in lines[1]
        stats = await (await fake.slash(s.bob, "stats", channel=s.general)).reply()
        assert "1 game: 0 won, 1 lost" in stats.text()
        history = await (await fake.slash(s.alice, "history", channel=s.general)).reply()
        assert "#1 " in history.text() and "1–0" in history.text()

        # Every picture posted anywhere decodes as a PNG.
        pngs = [
            a for m in fake.messages.values() for a in m.attachments if a.filename.endswith(".png")
        ]
        assert len(pngs) >= 10
        for attachment in pngs:
            assert attachment.is_png
            assert decode_png(attachment.data)[0] > 100
    assert fake.unrouted == []


async def test_every_refusal_in_the_game_was_private(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Beyond the scripted refusals: a player's private answers are exactly the refusals and
    confirmations; everything public went to the thread or the challenge channel."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game = await start_game(s, s.alice, s.bob)
        await (await fake.slash(s.alice, "move", channel=game.thread, point="C3")).reply()
        wrong = [
            await fake.slash(s.alice, "move", channel=game.thread, point="D4"),
            await fake.slash(s.bob, "move", channel=game.thread, point="C3"),
            await fake.slash(s.bob, "board", channel=s.general, opts={"game": 99}),
            await fake.slash(s.bob, "export", channel=s.general, game=42),
            await fake.slash(s.carol, "resign", channel=s.general),
            await fake.slash(s.carol, "board", channel=s.general),
        ]
        for handle in wrong:
            await refused(handle)
        # /board and /games elsewhere are private too; in the thread /board is public.
        games = await (await fake.slash(s.alice, "games", channel=s.general)).reply()
        assert games.is_ephemeral and "#1 vs" in games.content
        private = await (await fake.slash(s.bob, "board", channel=s.general)).reply()
        assert private.is_ephemeral and private.attachments[0].is_png
        public = await (await fake.slash(s.bob, "board", channel=game.thread)).reply()
        assert not public.is_ephemeral and decode_png(public.attachments[0].data)
        assert actions(db, game.game_id) == [("dot", 1, "C3")]


async def test_turn_messages_go_by_dm_or_to_the_thread_when_dms_are_closed(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """On a clock of an hour or more, a player who asked for it gets a DM on their turn; bob
    has closed his DMs, so his turn is announced in the thread instead."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        for player in (s.alice, s.bob):
            answer = await (
                await fake.slash(player, "notify", channel=s.general, setting="on")
            ).reply()
            assert answer.is_ephemeral and "DM" in answer.content
        game = await start_game(s, s.alice, s.bob, clock=3600)
        await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        await fake.wait_until(
            lambda: any(
                m.content.startswith(s.bob.mention) and "Your turn" in m.content
                for m in fake.posted(game.thread)
            ),
            poll=None,
        )
        assert fake.requests_to("POST", r"^/channels/\d+/messages$")[-1].status == 200
        await (await fake.slash(s.bob, "move", channel=game.thread, point="F5")).reply()
        dm = await fake.wait_until(lambda: fake.dm_channel(s.alice), poll=None)
        await fake.wait_until(lambda: fake.posted(dm), poll=None)
        assert f"Your turn in Dots game #{game.game_id}" in fake.posted(dm)[0].content
        closed = fake.dm_channel(s.bob)
        assert closed is not None and fake.posted(closed) == []  # tried, refused (403/50007)


async def test_server_settings_threads_and_an_admin_cancel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Where threads are not allowed the game is played in the channel itself; an admin can
    send game threads to a channel of their choice, and cancel a game (no result, no rating)."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    closed = fake.create_channel(s.guild, "no-threads", threads_allowed=False)
    arena = fake.create_channel(s.guild, "arena")
    async with bot_on(fake, db):
        # No threads here: the game lives in the channel.
        handle = await fake.slash(
            s.alice, "challenge", channel=closed, opponent=s.bob, colour="pink"
        )
        challenge = await handle.reply()
        await fake.click(s.bob, challenge, challenge.custom_ids()[0])
        await fake.wait_until(lambda: any(m.attachments for m in fake.posted(closed)), poll=None)
        assert fake.threads() == []
        move = await (await fake.slash(s.alice, "move", channel=closed, point="E5")).reply()
        assert not move.is_ephemeral and move.channel_id == closed.id
        # The admin sends game threads to #arena.
        await refused(
            await fake.slash(
                s.carol, "dots-admin settings", channel=s.general, opts={"channel": arena}
            ),
            says="Manage Server",
        )
        done = await (
            await fake.slash(
                s.admin, "dots-admin settings", channel=s.general, opts={"channel": arena}
            )
        ).reply()
        assert done.is_ephemeral and f"<#{arena.id}>" in done.content
        handle = await fake.slash(s.carol, "challenge", channel=s.general, opponent=s.admin)
        challenge = await handle.reply()
        await fake.click(s.admin, challenge, challenge.custom_ids()[0])
        thread = await fake.wait_until(lambda: next(iter(fake.threads()), None), poll=None)
        assert thread.parent_id == arena.id
        await fake.wait_until(lambda: fake.posted(thread), poll=None)
        # The admin cancels the first game: aborted, said in its channel, no rating change.
        cancel = await (
            await fake.slash(s.admin, "dots-admin cancel", channel=s.general, game=1)
        ).reply()
        assert cancel.is_ephemeral and "cancelled" in cancel.content
        await fake.wait_until(
            lambda: any("was cancelled" in m.content for m in fake.posted(closed)), poll=None
        )
        assert query(db, "SELECT status, winner FROM games WHERE game_id = 1") == [
            ("aborted", None)
        ]
        assert query(db, "SELECT COUNT(*) FROM ratings") == [(0,)]
        await refused(
            await fake.slash(s.alice, "move", channel=closed, point="F5"), says="no running game"
        )


async def test_decline_and_withdraw_close_a_challenge_and_disable_its_buttons(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        for by, opponent, action, says in (
            ("opponent", s.bob, "decline", "declined"),
            ("challenger", s.carol, "cancel", "withdrew"),
        ):
            handle = await fake.slash(s.alice, "challenge", channel=s.general, opponent=opponent)
            challenge = await handle.reply()
            custom_id = next(c for c in challenge.custom_ids() if f":{action}:" in c)
            # Only the right player may do it.
            wrong = s.alice if by == "opponent" else opponent
            await refused(await fake.click(wrong, challenge, custom_id), says="not your challenge")
            right = opponent if by == "opponent" else s.alice
            click = await fake.click(right, challenge, custom_id)
            assert (await click.response()).name in {"update message", "deferred update"}
            await fake.wait_until(
                lambda shown=challenge, closed=says: (
                    closed in shown.content and all(b["disabled"] for b in shown.buttons())
                ),
                poll=None,
            )
        assert query(db, "SELECT status FROM challenges ORDER BY challenge_id") == [
            ("declined",),
            ("cancelled",),
        ]
        assert query(db, "SELECT COUNT(*) FROM games") == [(0,)]


async def test_a_grounding_stop_shows_what_it_hands_over(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Grounding rules: /end is a stop. Too early it is refused; then the private confirmation
    carries the picture with crosses and warns that the stop loses; the stop ends the game."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game = await start_game(s, s.alice, s.bob, rules="grounding")
        script = ["E5", "A1", "F5", "A2", "G5", "A3", "E6", "A4"]
        for n, point in enumerate(script):
            player = s.alice if n % 2 == 0 else s.bob
            await (await fake.slash(player, "move", channel=game.thread, point=point)).reply()
        before = snapshot(db)
        await refused(await fake.slash(s.alice, "end", channel=game.thread), says="cannot stop yet")
        assert snapshot(db) == before
        await (await fake.slash(s.alice, "move", channel=game.thread, point="F6")).reply()
        await (await fake.slash(s.bob, "move", channel=game.thread, point="A5")).reply()
        ask = await fake.slash(s.alice, "end", channel=game.thread)
        prompt = await ask.reply()
        assert (await ask.response()).name == "deferred message"
        assert prompt.is_ephemeral
        assert "5 of your dots are not grounded" in prompt.content
        assert "you would lose" in prompt.content
        assert prompt.attachments and decode_png(prompt.attachments[0].data)
        stop = prompt.custom_ids()[0]
        assert (
            stop.startswith(f"dots:confirm:end:{game.game_id}:")
            and prompt.buttons()[0]["label"] == "Stop"
        )
        await (await fake.click(s.alice, prompt, stop)).reply()
        await fake.wait_until(
            lambda: any("Blue wins" in m.content for m in fake.posted(game.thread)),
            poll=None,
        )
        assert query(db, "SELECT status, winner, pink_score, blue_score FROM games") == [
            ("over", 2, 0, 5)
        ]


@pytest.mark.parametrize(("command", "options"), [("games", {}), ("move", {"point": "E5"})])
async def test_answers_fit_in_a_message_for_a_player_with_many_games(
    fake_discord: FakeDiscord, tmp_path: Path, command: str, options: dict[str, Any]
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    rivals = [fake.create_user(f"rival{n}") for n in range(20)]
    for rival in rivals:
        fake.add_member(s.guild, rival)
    async with bot_on(fake, db) as bot:
        # Set up through the service (20 challenges through Discord would only be slower).
        for rival in rivals:
            await bot.service.start_game(
                guild_id=s.guild.id,
                channel_id=s.general.id,
                pink_id=s.alice.id,
                blue_id=rival.id,
                options=GameOptions(clock=timedelta(days=1)),
            )
        reply = await (await fake.slash(s.alice, command, channel=s.general, **options)).reply()
        assert reply.is_ephemeral
        assert len(reply.content) <= 2000, len(reply.content)
