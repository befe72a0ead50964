"""The longest replies fit Discord's limits in every language.

Each case runs in en, pl, ru and uk (the players' clients and the server in that language)
through the real bot and the strict fake Discord, which refuses anything over Discord's limits
with 400/50035: a long /games list, the computer playing on alone for a long run, /rules and
/help, /stats and /leaderboard with long names. Each checks that the fake accepted every
message, that no ERROR was logged, that the reply is in the expected language (the catalogue's
words for it, not the English ones) and that every message is within the limits.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ai import Decision
from bot.cogs.info import HELP
from bot.cogs.posts import ELLIPSIS
from bot.games import GameOptions, computer_name
from bot.i18n import N_, translate
from bot.text import RULES_SUMMARY
from engine import Point
from tests.e2e.helpers import Server, actions, bot_on, make_server, query, quiet
from tests.fakediscord import limits
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

LOCALES = ["en", "pl", "ru", "uk"]
# Discord's longest display names (32 characters).
LONG_NAMES = [f"{n:02d}_Very*Long~Name_of_a_Dots_Fan!" for n in range(12)]


@pytest.fixture(params=LOCALES)
def locale(request: pytest.FixtureRequest) -> str:
    """The language of the case: every player's client and the server's."""
    found: str = request.param
    return found


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path, locale: str) -> Server:
    """Dots Club with alice, bob, carol and an admin, all (and the server) in ``locale``."""
    s = make_server(fake_discord, tmp_path / "db.sqlite3")
    fake_discord.set_guild_locale(s.guild, locale)
    for user in (s.alice, s.bob, s.carol, s.admin):
        fake_discord.set_locale(user, locale)
    return s


def long_named(server: Server, locale: str, count: int) -> list[User]:
    """``count`` members with 32-character names, in ``locale``."""
    fake = server.fake
    users = []
    for name in LONG_NAMES[:count]:
        user = fake.create_user(name)
        assert len(name) == 32
        fake.add_member(server.guild, user)
        fake.set_locale(user, locale)
        users.append(user)
    return users


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """ERROR records (a bug, by the project's rule) and records with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def refused_by_discord(fake: FakeDiscord) -> list[str]:
    """Requests the strict fake refused for their body (400) or size (413)."""
    return [f"{r.method} {r.path} -> {r.status}" for r in fake.requests if r.status in (400, 413)]


def embed_total(embed: dict[str, Any]) -> int:
    """The characters Discord counts towards an embed's 6,000."""
    total = len(embed.get("title", "")) + len(embed.get("description", ""))
    total += sum(len(f.get("name", "")) + len(f.get("value", "")) for f in embed.get("fields", []))
    total += len((embed.get("footer") or {}).get("text", ""))
    return total + len((embed.get("author") or {}).get("name", ""))


def over_limits(message: Message) -> list[str]:
    """What in ``message`` breaks one of Discord's limits (nothing, for a message it took)."""
    found = []
    if len(message.content) > limits.CONTENT:
        found.append(f"content of {len(message.content)}")
    if len(message.embeds) > limits.EMBEDS:
        found.append(f"{len(message.embeds)} embeds")
    if sum(embed_total(e) for e in message.embeds) > limits.EMBED_TOTAL:
        found.append("embeds over 6,000 in all")
    for embed in message.embeds:
        if len(embed.get("title", "")) > limits.EMBED_TITLE:
            found.append("an embed title")
        if len(embed.get("description", "")) > limits.EMBED_DESCRIPTION:
            found.append("an embed description")
    found.extend(
        f"button label {b.get('label')!r}"
        for b in message.buttons()
        if len(b.get("label") or "") > limits.BUTTON_LABEL
    )
    return found


def assert_all_fit(fake: FakeDiscord, caplog: pytest.LogCaptureFixture) -> None:
    """Discord took every message (none over its limits) and the bot logged no error."""
    assert refused_by_discord(fake) == []
    assert {m.id: over_limits(m) for m in fake.messages.values() if over_limits(m)} == {}
    assert all(len(t.name) <= 100 for t in fake.threads())
    assert errors(caplog) == []


def words_of(locale: str, msgid: str) -> str:
    """The longest literal run of ``msgid``'s translation (its fields left out), to find it in
    a reply; for another language than English, checked to be a translation."""
    translated = translate(locale, msgid)
    if locale != "en":
        assert translated != msgid, f"no {locale} translation of {msgid!r}"
    return max(re.split(r"\{[^}]*\}|\*\*|`", translated), key=len).strip()


def in_language(shown: str, locale: str) -> bool:
    """Whether ``shown`` reads as ``locale`` by its letters (names and points are ASCII)."""
    letters = set(shown.lower())
    polish, cyrillic = set("ąćęłńóśźż"), {c for c in letters if "\u0400" <= c <= "\u04ff"}
    if locale == "pl":
        return bool(letters & polish) and not cyrillic
    if locale == "ru":
        return bool(letters & set("ыэъё")) and not letters & set("іїєґ")
    if locale == "uk":
        return bool(letters & set("іїєґ")) and not letters & set("ыэъё")
    return not cyrillic and not letters & polish


# -- (a) a long /games list: many running games and open challenges --------------------------


async def test_a_long_games_list_fits(
    server: Server, locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    rivals = long_named(server, locale, 12) + [fake.create_user(f"rival{n}") for n in range(8)]
    for rival in rivals[12:]:
        fake.add_member(server.guild, rival)
    async with bot_on(fake, db) as bot:
        # Set up through the service (20 challenges through Discord would only be slower).
        for rival in rivals:
            await bot.service.start_game(
                guild_id=server.guild.id,
                channel_id=server.general.id,
                pink_id=server.alice.id,
                blue_id=rival.id,
                options=GameOptions(clock=timedelta(days=1), width=39, height=32),
            )
        for opponent in (server.bob, server.carol, None):
            await bot.service.challenge(
                guild_id=server.guild.id,
                channel_id=server.general.id,
                challenger_id=server.alice.id,
                opponent_id=opponent.id if opponent else None,
            )
        reply = await (await fake.slash(server.alice, "games", channel=server.general)).reply()
    assert reply.is_ephemeral
    assert len(reply.content) > 1800  # the list at its longest, not a short refusal
    assert words_of(locale, "your turn") in reply.content
    assert words_of(locale, "…and {n} more.") in reply.content  # cut to fit, said so
    assert in_language(reply.content, locale)
    assert_all_fit(fake, caplog)


# -- (b) the computer playing on alone for a long run -----------------------------------------


class LongRun:
    """A stand-in for the computer's search that plays ``dots`` dots from the top row down
    (far from the player's A1), then ends: a long run alone, decided in microseconds."""

    def __init__(self, dots: int) -> None:
        self.points: Iterator[Point] = iter(
            [Point(x, y) for y in range(31, 0, -1) for x in range(39)][:dots]
        )

    async def choose(self, record: Any, level: str, seed: int, *, cheap: bool = False) -> Decision:
        """The next dot of the run, or the end after the last one."""
        point = next(self.points, None)
        return Decision("end") if point is None else Decision("dot", point)

    def close(self) -> None:
        """Nothing to stop."""


async def test_the_computer_playing_on_alone_fits(
    server: Server,
    locale: str,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake, db = server.fake, server.database
    (player,) = long_named(server, locale, 1)
    async with bot_on(fake, db) as bot:
        monkeypatch.setattr(bot.service, "thinker", LongRun(300))
        start = await fake.slash(
            player, "play-computer", channel=server.general, size="39x32", colour="pink"
        )
        await start.reply()
        await quiet(db)
        ((game_id, thread_id),) = query(db, "SELECT game_id, thread_id FROM games")
        thread = fake.channels[thread_id]
        await (await fake.slash(player, "move", channel=thread, point="A1")).reply()
        await fake.wait_until(lambda: query(db, "SELECT moves FROM games")[0][0] == 2)
        prompt = await (await fake.slash(player, "end", channel=thread)).reply()
        await fake.click(player, prompt, next(c for c in prompt.custom_ids() if ":end:" in c))
        await fake.wait_until(
            lambda: query(db, "SELECT status FROM games")[0][0] != "running", timeout=30
        )
        # The result (with its Rematch button) comes last, after the replay GIF of 600 dots on
        # 39x32 is rendered (seconds alone; it once took over 40 s on the loaded 2-core box).
        await fake.wait_until(
            lambda: (
                any("rematch" in c for m in fake.posted(thread) for c in m.custom_ids())
                or refused_by_discord(fake)
            ),
            timeout=120,
        )
        await quiet(db)
    # alice's dot and the computer's, alice ends, the computer's 299 dots alone, its end.
    assert len(actions(db, game_id)) == 2 + 1 + 299 + 1
    shown = "\n".join(m.text() for m in fake.posted(thread))
    assert words_of(locale, "{name} plays on alone: {dots}.") in shown
    assert "A31" in shown and f"{ELLIPSIS} " in shown  # the run is listed, cut to fit
    assert words_of(locale, "… and {n} more") in shown  # and summed up in the language
    assert in_language(shown, locale)
    # The computer is named in the server's language: in the thread's name and the posts.
    ((computer,),) = query(db, "SELECT blue_id FROM games")
    assert computer_name(computer, locale) in thread.name
    assert computer_name(computer, locale) in shown
    assert len(thread.name) <= 100
    assert_all_fit(fake, caplog)


# -- (c) /rules and /help ---------------------------------------------------------------------


async def test_rules_and_help_fit(
    server: Server, locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        rules = await (await fake.slash(server.alice, "rules", channel=server.general)).reply(
            timeout=30
        )
        help_ = await (await fake.slash(server.bob, "help", channel=server.general)).reply()
    assert rules.is_ephemeral and len(rules.attachments) == 3
    assert all(a.is_png for a in rules.attachments)
    assert words_of(locale, RULES_SUMMARY)[:40] in rules.content
    assert in_language(rules.content, locale)
    assert help_.is_ephemeral and "/challenge" in help_.content
    assert words_of(locale, "The bot's commands") not in help_.content  # the text, not the title
    assert in_language(help_.content, locale)
    assert words_of(locale, HELP)[:40] in help_.content
    assert_all_fit(fake, caplog)


# -- (d) /stats and /leaderboard with long names ---------------------------------------------


async def test_stats_and_leaderboard_with_long_names_fit(
    server: Server, locale: str, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    players = long_named(server, locale, 12)
    async with bot_on(fake, db) as bot:
        service = bot.service
        # Rated games through the service (a dot each, then the second player resigns).
        for winner, loser in zip(players[::2], players[1::2], strict=True):
            view = await service.start_game(
                guild_id=server.guild.id,
                channel_id=server.general.id,
                pink_id=winner.id,
                blue_id=loser.id,
                options=GameOptions(clock=timedelta(days=1)),
            )
            await service.place(game_id=view.game_id, user_id=winner.id, point="E5")
            await service.place(game_id=view.game_id, user_id=loser.id, point="F6")
            await service.resign(game_id=view.game_id, user_id=loser.id)
        await quiet(db)
        board = await (
            await fake.slash(server.carol, "leaderboard", channel=server.general)
        ).reply()
        month = await (
            await fake.slash(server.carol, "leaderboard", channel=server.general, period="month")
        ).reply()
        stats = await (
            await fake.slash(server.carol, "stats", channel=server.general, user=players[0])
        ).reply()
        await quiet(db)
    (table,) = board.embeds
    assert table["title"] == translate(locale, N_("Dots leaderboard"))
    assert len(table["description"].splitlines()) == 10  # the top ten of twelve
    assert in_language(board.text(), locale)
    (monthly,) = month.embeds
    assert len(monthly["description"].splitlines()) == 10
    assert in_language(month.text(), locale)
    (card,) = stats.embeds
    assert LONG_NAMES[0] in card["title"]  # the whole name, as typed
    assert in_language(stats.text(), locale)
    assert_all_fit(fake, caplog)
