"""Junk through the real bot: thousands of random strings and option combinations through
every command, autocomplete and random button and menu ids. Nothing escapes a handler (no
ERROR in the logs, nothing unhandled), every answer is a clear message within Discord's
limits, and every private refusal leaves the database exactly as it was.

The inputs keep the shapes Discord itself guarantees (a string for a string option, an
integer within +-2**53 for an integer option, a resolved user for a user option, one of the
choices where there are choices, a custom id that is on the clicked message); what a player
can type or pick within those shapes is random. ``test_impossible_payloads`` covers shapes
Discord would never send. Seeded: ``DOTS_FUZZ_SEED`` and ``DOTS_FUZZ_COUNT`` change the run.
"""

from __future__ import annotations

import logging
import os
import random
import string
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import Server, bot_on, make_server, query, quiet, snapshot, start_game
from tests.fakediscord.drivers import MESSAGE_COMPONENT, InteractionHandle
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

SEED = int(os.environ.get("DOTS_FUZZ_SEED", "20261130"))
COUNT = int(os.environ.get("DOTS_FUZZ_COUNT", "2000"))
MAX_SNOWFLAKE_INT = 2**53  # Discord's integer options lie within +-2**53

# Private answers that do write (everything else answered privately must change nothing).
PRIVATE_WRITES = ("I will DM you", "No more DMs", "Game threads:", " is cancelled.")
# Our own dynamic items; other custom ids are not ours and get no answer (as on Discord).
OUR_PREFIXES = ("dots:challenge:", "dots:confirm:", "dots:pick:")

SQLISH = [
    "'; DROP TABLE games; --",
    "B7'); DELETE FROM actions; --",
    '" OR ""="',
    "1 OR 1=1",
    "B7; UPDATE ratings SET rating = 9999",
    "%s%s%s%n",
    "{0}{1}{__class__}",
    "${jndi:ldap://x}",
    "../../etc/passwd",
    "\x00",
    "\u202eB7",
    "B7\u200b",
    "```B7```",
    "||B7||",
    "@everyone",
    "@here B7",
    "<@&1234567890>",
    "<#1234567890>",
    ":skull:",
    "🟣🔵",
    "Ｂ７",
    "B٧",
    "ß7",
    "B-1",
    "B0",
    "Z99",
    "AA1",
    "A" * 8 + "1",
    "b 7",
    " c3 ",
    "B07",
    "B7 C8",
]

# Unicode ranges to draw from (no lone surrogates: Discord carries UTF-8 only).
RANGES = [
    (0x20, 0x7E),
    (0xA0, 0x24F),
    (0x370, 0x3FF),
    (0x400, 0x4FF),
    (0x590, 0x6FF),
    (0x900, 0x97F),
    (0x3040, 0x30FF),
    (0x4E00, 0x4FFF),
    (0xFF00, 0xFFEF),
    (0x1F300, 0x1F6FF),
    (0x200B, 0x200F),
    (0x2028, 0x202E),
    (0x0, 0x1F),
]


def junk_text(rng: random.Random) -> str:
    """A random string a player might type or paste: short, huge, SQL-ish, mentions, near
    misses of a point name, or random unicode."""
    kind = rng.random()
    if kind < 0.2:
        return rng.choice(SQLISH)
    if kind < 0.45:
        column = rng.choice(string.ascii_letters + "ÄЖ")
        return f"{column}{rng.randint(-3, 60)}"
    if kind < 0.5:
        return "".join(rng.choice(string.printable) for _ in range(rng.randint(1000, 6000)))
    if kind < 0.55:
        return f"<@{rng.randint(1, MAX_SNOWFLAKE_INT)}>"
    length = rng.randint(1, 40)
    chars = []
    for _ in range(length):
        low, high = rng.choice(RANGES)
        chars.append(chr(rng.randint(low, high)))
    return "".join(chars)


def junk_int(rng: random.Random, real: list[int]) -> int:
    """A random integer option: a real id, a small number, or anything within +-2**53."""
    kind = rng.random()
    if kind < 0.3 and real:
        return rng.choice(real)
    if kind < 0.6:
        return rng.randint(-3, 12)
    return rng.randint(-MAX_SNOWFLAKE_INT, MAX_SNOWFLAKE_INT)


def is_clear(text: str) -> bool:
    """An answer a player can read: not empty, no traceback or crash apology, within
    Discord's 2,000 characters."""
    return (
        bool(text.strip())
        and len(text) <= 2000
        and "Traceback" not in text
        and "something went wrong" not in text
    )


@dataclass
class Step:
    """One junk interaction: how to send it and whether the bot owes an answer."""

    describe: str
    send: Callable[[], Awaitable[InteractionHandle]]
    answered: bool = True


class Junk:
    """Builds random interactions against a server with running games."""

    def __init__(self, fake: FakeDiscord, server: Server, rng: random.Random) -> None:
        self.fake = fake
        self.s = server
        self.rng = rng
        self.users = [server.alice, server.bob, server.carol, server.admin]
        self.robot = fake.create_user("robot", bot=True)
        self.threads: list[Channel] = []
        self.game_ids: list[int] = []
        self.challenge_ids: list[int] = []
        self.running: list[tuple[Any, ...]] = []

    def learn(self, database: Path) -> None:
        """New challenges, games and threads become targets of later junk."""
        self.challenge_ids = [
            int(r[0]) for r in query(database, "SELECT challenge_id FROM challenges")
        ]
        self.game_ids = [int(r[0]) for r in query(database, "SELECT game_id FROM games")]
        self.threads = self.fake.threads()
        self.running = query(
            database,
            "SELECT pink_id, blue_id, COALESCE(thread_id, channel_id) FROM games"
            " WHERE status = 'running'",
        )

    def user(self) -> User:
        return self.rng.choice(self.users)

    def channel(self) -> Channel:
        return self.rng.choice([self.s.general, *self.threads])

    def step(self) -> Step:
        rng, fake = self.rng, self.fake
        roll = rng.random()
        user, channel = self.user(), self.channel()
        if roll < 0.15 and self.running:
            # A player of a running game, in its thread, typing something close to a point:
            # plays (when legal and their turn) or is refused (occupied, not their turn, ...).
            pink_id, blue_id, where = rng.choice(self.running)
            # (A player who is not a Discord user would be the computer: none here.)
            player = self.fake.users[rng.choice([pink_id, blue_id])]
            point = f"{rng.choice('ABCDEFGHIJKLMNOPQ')}{rng.randint(0, 17)}"
            point = rng.choice([point, point.lower(), f" {point[0]} {point[1:]} "])
            return Step(
                f"/move {point!r} by player {player.name}",
                lambda: fake.slash(player, "move", channel=fake.channels[where], point=point),
            )
        if roll < 0.35:
            point = junk_text(rng)
            options: dict[str, Any] = {"point": point}
            if rng.random() < 0.3:
                options["game"] = junk_int(rng, self.game_ids)
            return Step(
                f"/move {options!r} by {user.name}",
                lambda: fake.slash(user, "move", channel=channel, **options),
            )
        if roll < 0.45:
            focused = rng.choice(["point", "game"])
            values: dict[str, Any] = {"point": junk_text(rng)}
            if focused == "game" or rng.random() < 0.3:
                # The focused option comes as typed; the others as their type.
                number = junk_int(rng, self.game_ids)
                values["game"] = (
                    rng.choice([junk_text(rng), str(number)]) if focused == "game" else number
                )
            return Step(
                f"autocomplete /move {focused} {values!r}",
                lambda: fake.autocomplete(user, "move", channel=channel, focused=focused, **values),
            )
        if roll < 0.6:
            name = rng.choice(["end", "resign", "board", "export", "stats", "history"])
            options = {}
            if name in ("end", "resign", "board") and rng.random() < 0.5:
                options["game"] = junk_int(rng, self.game_ids)
            if name == "export":
                options["game"] = junk_int(rng, self.game_ids)
            if name in ("stats", "history") and rng.random() < 0.5:
                options["user"] = self.user()
            return Step(
                f"/{name} {options!r} by {user.name}",
                lambda: fake.slash(user, name, channel=channel, **options),
            )
        if roll < 0.68:
            # Another app's bot, not ours: a challenge to ours starts a game against the
            # computer, whose moves land after the answer (not junk, and not fuzzed here).
            options = {"opponent": rng.choice([*self.users, self.robot])}
            for option, choices in (
                ("size", ["10x10", "16x16", "20x20"]),
                ("rules", ["standard", "grounding"]),
                ("start", ["empty", "cross", "double-cross", "triple-cross", "four-crosses"]),
                ("clock", [30, 60, 300, 3600, 604800]),
                ("colour", ["random", "pink", "blue"]),
                ("rated", [True, False]),
            ):
                if rng.random() < 0.4:
                    options[option] = rng.choice(choices)
            return Step(
                f"/challenge {options!r} by {user.name}",
                lambda: fake.slash(user, "challenge", channel=self.s.general, **options),
            )
        if roll < 0.74:
            # Admin commands: by members without Manage Server, or on games that do not exist.
            if rng.random() < 0.5:
                who = rng.choice(self.users[:3])
                game = junk_int(rng, self.game_ids)
            else:
                who = self.s.admin
                game = rng.choice([-1, 0, rng.randint(10_000, MAX_SNOWFLAKE_INT)])
            return Step(
                f"/dots-admin cancel {game} by {who.name}",
                lambda: fake.slash(who, "dots-admin cancel", channel=channel, game=game),
            )
        if roll < 0.77:
            who = rng.choice(self.users[:3])
            return Step(
                f"/dots-admin settings by {who.name}",
                lambda: fake.slash(
                    who, "dots-admin settings", channel=channel, clock=rng.choice([30, 3600])
                ),
            )
        if roll < 0.8:
            name = rng.choice(["games", "leaderboard", "help", "rules", "notify"])
            options = {"setting": rng.choice(["on", "off"])} if name == "notify" else {}
            return Step(
                f"/{name} {options!r} by {user.name}",
                lambda: fake.slash(user, name, channel=channel, **options),
            )
        return self.click(user, channel)

    def click(self, user: User, channel: Channel) -> Step:
        """A click on a random custom id, carried by a message as Discord requires."""
        rng = self.rng
        roll = rng.random()
        any_id = junk_int(rng, self.game_ids + self.challenge_ids)
        select = False
        if roll < 0.25:
            action = rng.choice(["accept", "decline", "cancel"])
            custom_id = f"dots:challenge:{action}:{abs(any_id)}"
        elif roll < 0.5:
            action = rng.choice(["end", "resign", "keep"])
            if action != "keep" and abs(any_id) in self.game_ids:
                # A player's real confirmation would rightly end their game: keep games going.
                user = rng.choice([self.s.carol, self.s.admin])
            custom_id = f"dots:confirm:{action}:{abs(any_id)}"
        elif roll < 0.7:
            action = rng.choice(["move", "end", "resign", "board"])
            arg = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(8))
            custom_id = f"dots:pick:{action}:{arg[: rng.randint(0, 8)]}"
            select = True
        else:
            custom_id = junk_text(rng)[:100]
        ours = custom_id.startswith(OUR_PREFIXES)
        message = self.carrier(channel, custom_id, select=select)
        if select:
            value = str(abs(any_id))
            data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        else:
            data = {"custom_id": custom_id, "component_type": 2}
        return Step(
            f"click {data!r} by {user.name}",
            lambda: self.fake.send_interaction(
                MESSAGE_COMPONENT, user, channel, data, message=message
            ),
            answered=ours and bool(custom_id.split(":")[-1] or select),
        )

    def carrier(self, channel: Channel, custom_id: str, *, select: bool) -> Message:
        """A bot message in ``channel`` carrying a button (or menu) with ``custom_id``."""
        if select:
            component: dict[str, Any] = {
                "type": 3,
                "custom_id": custom_id,
                "options": [{"label": "x", "value": "x"}],
            }
        else:
            component = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
        message = Message(
            id=self.fake.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.fake.bot,
            content="junk carrier",
            components=[{"type": 1, "components": [component]}],
        )
        self.fake.messages[message.id] = message
        channel.messages.append(message)
        return message


async def settle(
    fake: FakeDiscord, handle: InteractionHandle, *, answered: bool, barrier: User, where: Channel
) -> None:
    """Wait until the bot is done with ``handle``: answered (and the deferred reply filled
    in), or, for an interaction that gets no answer, until a later one was answered (the
    gateway delivers in order, so the bot has seen and dropped it by then)."""
    if not answered:
        probe = await fake.slash(barrier, "help", channel=where)
        await probe.reply()
        if not handle.callbacks:
            return
    first = await handle.response(timeout=5)
    if first.type == 5:
        await handle.reply(timeout=5)


async def test_thousands_of_junk_interactions_are_refused_cleanly(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    rng = random.Random(SEED)
    junk = Junk(fake, s, rng)
    caplog.set_level(logging.INFO)
    problems: list[str] = []
    # Time stands still for the service: no clock runs out and no challenge expires during
    # the run, so every write to the database comes from the interaction being checked.
    frozen = datetime.now(UTC)
    async with bot_on(fake, db, now=lambda: frozen):
        for pink, blue in ((s.alice, s.bob), (s.bob, s.carol)):
            await start_game(s, pink, blue, size="16x16")
        junk.learn(db)
        refusals = answered = 0
        for n in range(COUNT):
            step = junk.step()
            what = f"#{n} {step.describe[:300]}"
            before = snapshot(db)
            logged = len(caplog.records)
            handle = await step.send()
            try:
                await settle(fake, handle, answered=step.answered, barrier=s.carol, where=s.general)
                await quiet(db)
            except TimeoutError:
                problems.append(f"{what}: no answer")
                continue
            if step.answered and not handle.callbacks:
                problems.append(f"{what}: no answer")
            bad = [r for r in caplog.records[logged:] if r.levelno >= logging.ERROR or r.exc_info]
            if bad:
                problems.append(f"{what}: logged {bad[0].getMessage()[:300]}")
            if handle.failures:
                problems.append(f"{what}: Discord refused {handle.failures}")
            for reply in handle.replies():
                if not is_clear(reply.content) and not reply.embeds and not reply.attachments:
                    problems.append(f"{what}: unclear answer {reply.content[:200]!r}")
            first = handle.callbacks[0] if handle.callbacks else None
            answered += first is not None
            if first is not None and first.type == 4 and first.is_ephemeral:
                text = str(first.data.get("content", ""))
                if not any(marker in text for marker in PRIVATE_WRITES):
                    refusals += 1
                    after = snapshot(db)
                    changed = [t for t in after if after[t] != before.get(t)]
                    if changed:
                        problems.append(f"{what}: refused ({text[:100]!r}) but changed {changed}")
            junk.learn(db)
            if len(problems) >= 20:
                break
        print(
            f"fuzz: {COUNT} interactions (seed {SEED}), {answered} answered, {refusals} "
            f"refused privately; stored: {query(db, 'SELECT COUNT(*) FROM actions')[0][0]} "
            f"actions, {query(db, 'SELECT COUNT(*) FROM games')[0][0]} games, "
            f"{query(db, 'SELECT COUNT(*) FROM challenges')[0][0]} challenges, "
            f"{query(db, 'SELECT status, reason, moves FROM games')}"
        )
        assert not problems, "\n".join(problems)
        # The run reached the handlers: most of it was answered, much of it refused.
        assert answered > COUNT * 0.6 and refusals > COUNT * 0.3, (answered, refusals)
    assert fake.unrouted == []


@pytest.mark.parametrize(
    ("who", "command", "options"),
    [
        ("alice", "challenge", {"rules": "chess"}),
        ("alice", "challenge", {"start": "middle"}),
        ("alice", "challenge", {"colour": "purple"}),
        ("alice", "challenge", {"clock": -5}),
        ("alice", "challenge", {"clock": 0}),
        ("alice", "challenge", {"size": "3x3"}),
        ("alice", "challenge", {"clock": MAX_SNOWFLAKE_INT}),
        ("admin", "dots-admin settings", {"clock": 10**15}),
        ("alice", "move", {}),
        ("alice", "export", {}),
    ],
    ids=lambda v: (
        ",".join(f"{k}={x}" for k, x in v.items()) or "missing" if isinstance(v, dict) else v
    ),
)
async def test_values_outside_the_schema_are_refused_clearly(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    *,
    who: str,
    command: str,
    options: dict[str, Any],
) -> None:
    """Shapes Discord's own client never sends (values outside the choices, a required option
    missing): a private, clear refusal, nothing logged as an error, nothing written."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    user = {"alice": s.alice, "admin": s.admin}[who]
    if command == "challenge":
        options = {"opponent": s.bob, **options}
    async with bot_on(fake, db):
        before = snapshot(db)
        handle = await fake.slash(user, command, channel=s.general, validate=False, **options)
        reply = await handle.reply()
        assert reply.is_ephemeral and is_clear(reply.content), reply.content
        assert snapshot(db) == before
        # Still at work.
        assert (await (await fake.slash(s.carol, "help", channel=s.general)).reply()).content
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
