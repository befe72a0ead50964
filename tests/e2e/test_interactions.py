"""How the bot answers interactions, through the real bot and the strict fake Discord: the
computer's run shown after an end, the "which game?" menu, the first answer before the slow work,
refusals that stay private, stale confirmations, forged payloads and a token-free debug log.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ai import Decision
from bot import main as entry
from bot.config import Settings
from bot.logs import RedactSecrets, unredact
from engine import Point
from tests.e2e.helpers import Server, actions, bot_on, make_server, query, quiet, start_game
from tests.fakediscord.drivers import MESSAGE_COMPONENT, InteractionHandle
from tests.fakediscord.faults import FOLLOWUP
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message

__all__ = ["fake_discord"]  # the fixture is used by name

APOLOGY = "something went wrong"


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """ERROR records (a bug, by the project's rule) and records with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def refused_by_discord(fake: FakeDiscord) -> list[str]:
    """Requests the strict fake refused for their body (400) or size (413)."""
    return [f"{r.method} {r.path} -> {r.status}" for r in fake.requests if r.status in (400, 413)]


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob (DMs closed), carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


# -- every message fits Discord's limits; a refused post never takes the result ------


class LongRun:
    """A stand-in for the computer's search that plays ``dots`` dots from the top row down
    (far from the player's A1), then ends: a long run alone, decided in microseconds."""

    def __init__(self, dots: int) -> None:
        self.points = iter([Point(x, y) for y in range(31, 0, -1) for x in range(39)][:dots])

    async def choose(self, record: Any, level: str, seed: int, *, cheap: bool = False) -> Decision:
        """The next dot of the run, or the end after the last one."""
        point = next(self.points, None)
        return Decision("end") if point is None else Decision("dot", point)

    def close(self) -> None:
        """Nothing to stop."""


async def test_the_computer_playing_on_alone_shows_its_run_and_the_result(
    server: Server, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The player ends after one dot; the computer plays on alone, 450 dots (listed, the
    post is over 2,000 characters). Its run, the result and the replay reach the thread."""
    fake, db = server.fake, server.database
    async with bot_on(fake, db) as bot:
        monkeypatch.setattr(bot.service, "thinker", LongRun(451))
        start = await fake.slash(
            server.alice, "play-computer", channel=server.general, size="39x32", colour="pink"
        )
        await start.reply()
        await quiet(db)
        ((game_id, thread_id),) = query(db, "SELECT game_id, thread_id FROM games")
        thread = fake.channels[thread_id]
        await (await fake.slash(server.alice, "move", channel=thread, point="A1")).reply()
        await fake.wait_until(lambda: query(db, "SELECT moves FROM games")[0][0] == 2)
        prompt = await (await fake.slash(server.alice, "end", channel=thread)).reply()
        await fake.click(server.alice, prompt, next(c for c in prompt.custom_ids() if ":end:" in c))
        await fake.wait_until(
            lambda: query(db, "SELECT status FROM games")[0][0] != "running", timeout=30
        )
        assert len(actions(db, game_id)) == 2 + 1 + 450 + 1  # two dots, ends, the run, end
        # The result and the replay come last (or the bot gave up on them).
        await fake.wait_until(
            lambda: (
                any(a.filename.endswith(".gif") for m in fake.posted(thread) for a in m.attachments)
                or refused_by_discord(fake)
            ),
            timeout=60,
        )
        shown = "\n".join(m.text() for m in fake.posted(thread))
        assert "plays on alone" in shown and "A31" in shown
    assert refused_by_discord(fake) == []
    assert [r for r in caplog.records if "could not post" in r.getMessage()] == []


# -- the "which game?" menu survives any typed point ---------------------------------


async def two_games(server: Server) -> None:
    """alice plays bob and carol: a /move outside the threads asks which game."""
    await start_game(server, server.alice, server.bob)
    await start_game(server, server.alice, server.carol)


async def pick_first_game(server: Server, point: str) -> InteractionHandle:
    """alice types ``/move point`` in #general, then picks the first game in the menu."""
    fake = server.fake
    ask = await fake.slash(server.alice, "move", channel=server.general, point=point)
    menu = await ask.reply()
    assert menu.is_ephemeral and "Which one?" in menu.content
    (custom_id,) = menu.custom_ids()
    first = menu.components[0]["components"][0]["options"][0]["value"]
    return await fake.select(server.alice, menu, custom_id, [first])


@pytest.mark.parametrize(
    "point",
    [
        pytest.param("B7", id="ascii"),
        pytest.param("é5", id="accent"),
        pytest.param("B-7", id="hyphen"),
        pytest.param("B\u200b7", id="zero-width-space"),
        pytest.param("Ｂ７", id="full-width"),
    ],
)
async def test_the_which_game_menu_answers_whatever_was_typed(
    server: Server, caplog: pytest.LogCaptureFixture, point: str
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        await two_games(server)
        pick = await pick_first_game(server, point)
        await pick.response(timeout=5)  # no answer at all is the bug
        said = (await pick.reply()).content
        assert all(m.is_ephemeral for m in pick.replies()) and APOLOGY not in said.lower()
        # Either a clear refusal that stores nothing, or the move (read as B7) played.
        ((stored,),) = query(db, "SELECT COUNT(*) FROM actions")
        assert ("Played B7" in said) if stored else ("B7" not in said), said
    assert errors(caplog) == []


# -- the first answer goes out before any slow work ----------------------------------


def slowed(method: Callable[..., Awaitable[Any]], seconds: float) -> Callable[..., Any]:
    """``method`` that first waits ``seconds`` (a busy service: its lock held by a burst)."""

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(seconds)
        return await method(*args, **kwargs)

    return slow


async def test_a_move_is_acknowledged_before_the_slow_work(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service takes longer than Discord's deadline to store a move (as under 1,000
    clocks running out at once); the bot's first answer still comes in time."""
    fake, db = server.fake, server.database
    fake.callback_deadline = 0.5  # Discord's 3 s, scaled down with the service's delay
    async with bot_on(fake, db) as bot:
        game = await start_game(server, server.alice, server.bob)
        monkeypatch.setattr(bot.service, "place", slowed(bot.service.place, 1.0))
        move = await fake.slash(server.alice, "move", channel=game.thread, point="E5")
        await fake.wait_until(lambda: move.callbacks or move.failures, timeout=5, poll=None)
        assert move.failures == [], "the first answer came after the deadline (10062)"
        first = move.callbacks[0]
        assert move.response_latency is not None and move.response_latency < 0.5
        assert first.name == "deferred message" and not first.is_ephemeral
        reply = await move.reply(timeout=5)
        assert "plays E5" in reply.content and reply.attachments
        assert move.failures == []
    assert actions(db, game.game_id) == [("dot", 1, "E5")]


async def test_a_late_refusal_after_the_defer_is_still_private(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slow service that then refuses (the point taken meanwhile): deferred in time, and
    the refusal reaches the player privately, not as the thread's public answer."""
    fake, db = server.fake, server.database
    fake.callback_deadline = 0.5
    async with bot_on(fake, db) as bot:
        game = await start_game(server, server.alice, server.bob)
        await (await fake.slash(server.alice, "move", channel=game.thread, point="E5")).reply()
        monkeypatch.setattr(bot.service, "place", slowed(bot.service.place, 1.0))
        move = await fake.slash(server.bob, "move", channel=game.thread, point="E5")
        await fake.wait_until(lambda: move.callbacks or move.failures, timeout=5, poll=None)
        assert move.failures == [], "the first answer came after the deadline (10062)"
        assert move.response_latency is not None and move.response_latency < 0.5
        await fake.wait_until(move.replies, timeout=5, poll=None)
        assert all(m.is_ephemeral for m in move.replies()), [m.content for m in move.replies()]
        assert "taken" in move.replies()[0].content.lower()
    assert actions(db, game.game_id) == [("dot", 1, "E5")]


async def one_private_answer(handle: InteractionHandle, says: str) -> None:
    """The interaction's one answer is a private message saying ``says``: no public
    "thinking..." first, filled in, deleted or edited after."""
    reply = await handle.reply()
    await asyncio.sleep(0.2)  # anything else the bot does about it
    assert [c.name for c in handle.callbacks] == ["message"]
    assert handle.callbacks[0].is_ephemeral and reply.is_ephemeral
    assert says in reply.content.lower(), reply.content
    assert handle.edited == [] and handle.deleted == []
    assert len(handle.messages) == 1


async def test_a_strangers_undo_and_move_are_refused_privately_from_the_start(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """carol, who plays neither game, tries /undo in alice's game against the computer and
    /move in alice's game with bob; bob moves out of turn. One private answer each."""
    fake, db = server.fake, server.database
    async with bot_on(fake, db) as bot:
        monkeypatch.setattr(bot.service, "thinker", LongRun(10))
        start = await fake.slash(
            server.alice, "play-computer", channel=server.general, size="39x32", colour="pink"
        )
        await start.reply()
        await quiet(db)
        ((computer_game, thread_id),) = query(db, "SELECT game_id, thread_id FROM games")
        computer_thread = fake.channels[thread_id]
        await (await fake.slash(server.alice, "move", channel=computer_thread, point="A1")).reply()
        await fake.wait_until(lambda: len(actions(db, computer_game)) == 2)
        game = await start_game(server, server.alice, server.bob)

        undo = await fake.slash(server.carol, "undo", channel=computer_thread)
        await one_private_answer(undo, says="not playing")
        move = await fake.slash(server.carol, "move", channel=game.thread, point="E5")
        await one_private_answer(move, says="not playing")
        early = await fake.slash(server.bob, "move", channel=game.thread, point="E5")
        await one_private_answer(early, says="not your turn")
        takeback = await fake.slash(server.carol, "takeback", channel=game.thread)
        await one_private_answer(takeback, says="not playing")
        # The players' own actions still go through.
        undone = await fake.slash(server.alice, "undo", channel=computer_thread)
        assert "takes back" in (await undone.reply()).content
    assert actions(db, game.game_id) == []
    assert actions(db, computer_game) == []


# -- a stored move is always shown; an apology is always private ---------------------


async def test_a_failed_answer_after_a_public_defer_stays_private(
    server: Server,
) -> None:
    """The move's public answer is refused (403 on the follow-up that fills the deferral):
    the stored move is still shown in its thread, and no apology is public."""
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game = await start_game(server, server.alice, server.bob)
        fake.fail_next("POST", FOLLOWUP, status=403, code=50013)
        move = await fake.slash(server.alice, "move", channel=game.thread, point="E5")
        await move.reply()  # the deferral filled in, with whatever
        await asyncio.sleep(0.3)  # anything else the bot posts about it
        public = [m.content for m in fake.posted(game.thread)]
        assert any("plays E5" in c for c in public), public
        assert not any("sorry" in c.lower() or "not allowed" in c.lower() for c in public)
    assert actions(db, game.game_id) == [("dot", 1, "E5")]


# -- a confirmation is for the position it was shown for ----------------------------


async def test_a_stale_end_confirmation_is_refused_with_a_fresh_one(
    server: Server,
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game = await start_game(server, server.alice, server.bob)
        thread = game.thread
        await (await fake.slash(server.alice, "move", channel=thread, point="E5")).reply()
        await (await fake.slash(server.bob, "move", channel=thread, point="F5")).reply()
        prompt = await (await fake.slash(server.alice, "end", channel=thread)).reply()
        assert prompt.is_ephemeral
        end_id = next(c for c in prompt.custom_ids() if ":end:" in c)
        # The game moves on while the confirmation waits.
        await (await fake.slash(server.alice, "move", channel=thread, point="E6")).reply()
        await (await fake.slash(server.bob, "move", channel=thread, point="F6")).reply()
        click = await fake.click(server.alice, prompt, end_id)
        answer = await click.reply()
        assert [kind for kind, _, _ in actions(db, game.game_id)] == ["dot"] * 4  # no end
        assert answer.is_ephemeral
        assert answer.custom_ids(), "no fresh confirmation for the new position"
        assert answer.custom_ids() != prompt.custom_ids()


# -- forged payloads are refused cleanly -------------------------------------------


FORGED_ID = 2**63  # beyond SQLite's integers (and Discord's snowflakes)


async def forged_click(
    server: Server, custom_id: str, *, values: list[str] | None = None, where: Channel
) -> InteractionHandle:
    """A click (or, with ``values``, a menu pick) on a component the bot never made: a
    made-up custom id, or values that were never among the options."""
    fake = server.fake
    if values is None:
        component: dict[str, Any] = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    else:
        option = {"label": "x", "value": "1"}
        component = {"type": 3, "custom_id": custom_id, "options": [option]}
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
    carrier = Message(
        id=fake.snowflakes.next(),
        channel_id=where.id,
        guild_id=where.guild_id,
        author=fake.bot,
        content="forged",
        components=[{"type": 1, "components": [component]}],
    )
    fake.messages[carrier.id] = carrier
    where.messages.append(carrier)
    return await fake.send_interaction(
        MESSAGE_COMPONENT, server.alice, where, data, message=carrier
    )


def forged(kind: str, what: str, payload: Any) -> Any:
    """One forged payload as a test case."""
    return pytest.param(kind, what, payload, id=f"{kind}-{what}-{payload}"[:60])


FORGERIES = [
    forged("slash", "move", {"point": "E5", "game": FORGED_ID}),
    forged("slash", "board", {"game": FORGED_ID}),
    forged("slash", "end", {"game": -FORGED_ID - 1}),
    forged("click", f"dots:confirm:end:{FORGED_ID}", None),
    forged("click", f"dots:challenge:accept:{FORGED_ID * 10}", None),
    forged("select", "dots:pick:move:E5", ["abc"]),
    forged("select", "dots:pick:board:", []),
    forged("select", "dots:pick:end:", [str(FORGED_ID)]),
    forged("dm", "move", {"point": "E5"}),
    forged("dm", "games", {}),
]


@pytest.mark.parametrize(("kind", "what", "payload"), FORGERIES)
async def test_forged_payloads_are_refused_cleanly(
    server: Server, caplog: pytest.LogCaptureFixture, kind: str, what: str, payload: Any
) -> None:
    """A private refusal, not the generic apology, and no ERROR (an ERROR is a bug)."""
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game = await start_game(server, server.alice, server.bob)
        if kind == "slash":
            handle = await fake.slash(
                server.alice, what, channel=server.general, validate=False, **payload
            )
        elif kind == "dm":
            options = {**payload}
            dm = fake.open_dm(server.alice)
            # Forged: Discord's client offers these commands in servers only.
            handle = await fake.slash(server.alice, what, channel=dm, validate=False, **options)
        else:
            handle = await forged_click(
                server, what, values=payload if kind == "select" else None, where=game.thread
            )
        reply = await handle.reply()
        assert reply.is_ephemeral
        assert APOLOGY not in reply.content.lower(), reply.content
        assert actions(db, game.game_id) == []
    assert errors(caplog) == []


# -- no token in the log at DEBUG --------------------------------------------------


@pytest.fixture
def root_logging() -> Iterator[None]:
    """setup_logging puts a handler on the root logger: take it off after."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for handler in handlers:  # pytest's own handlers outlive the test
        unredact(handler)


async def test_debug_logging_shows_no_token(server: Server, root_logging: None) -> None:
    """The real client at DEBUG through a game: interaction tokens sit in the events it
    logs and the URLs it calls; none reaches the log the bot sets up, nor the bot token."""
    fake, db = server.fake, server.database
    entry.setup_logging(Settings(token=fake.token, database=db, log_level="DEBUG"))
    captured = io.StringIO()
    # discord.py's own handler (pytest's capture handlers are subclasses).
    (handler,) = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert any(isinstance(f, RedactSecrets) for f in handler.filters)
    handler.setStream(captured)
    # discord.py's records before they reach the root's handlers: the tokens are there.
    unfiltered = io.StringIO()
    raw_handler = logging.StreamHandler(unfiltered)
    logging.getLogger("discord").addHandler(raw_handler)
    try:
        async with bot_on(fake, db):
            game = await start_game(server, server.alice, server.bob)
            await (await fake.slash(server.alice, "move", channel=game.thread, point="E5")).reply()
            await (await fake.slash(server.alice, "games", channel=server.general)).reply()
    finally:
        logging.getLogger("discord").removeHandler(raw_handler)
    log_text, raw_text = captured.getvalue(), unfiltered.getvalue()
    tokens = [h.token for h in fake.handles()]
    assert len(tokens) >= 4
    assert all(t in raw_text for t in tokens), "the client no longer logs tokens: weak test"
    assert [t for t in tokens if t in log_text] == []
    assert fake.token not in log_text
    assert f"/interactions/{fake.handles()[0].id}/[redacted]/callback" in log_text
    assert f"/webhooks/{fake.application_id}/[redacted] " in log_text
    assert "'token': '[redacted]'" in log_text
    assert "[redacted]]" not in log_text  # redacted once, however many handlers


@pytest.mark.parametrize("game_id", [FORGED_ID, -FORGED_ID - 1], ids=["above", "below"])
@pytest.mark.parametrize("command", ["export", "dots-admin cancel", "board", "move"])
async def test_a_game_number_no_database_can_hold_is_no_such_game_in_every_command(
    server: Server, caplog: pytest.LogCaptureFixture, command: str, game_id: int
) -> None:
    """Whichever command takes a game number, one beyond 64-bit integers is "no such game",
    privately, from the start (no deferral), with no ERROR in the log."""
    fake, db = server.fake, server.database
    options: dict[str, Any] = {"game": game_id}
    if command == "move":
        options["point"] = "E5"
    async with bot_on(fake, db):
        game = await start_game(server, server.alice, server.bob)
        handle = await fake.slash(
            server.admin, command, channel=server.general, validate=False, **options
        )
        reply = await handle.reply()
        assert (await handle.response()).name == "message"
        assert reply.is_ephemeral
        assert "no game" in reply.content.lower(), reply.content
        assert actions(db, game.game_id) == []
    assert errors(caplog) == []
