"""What every cog shares: private refusals, finding the game a command means, pictures, posts.

The cogs stay thin: the service decides who may do what; this module turns its answers (game
snapshots, outcomes, refusals) into Discord messages.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from typing import Any, TypeVar

import discord
from discord.ext import commands

from bot import text
from bot.cogs.posts import (
    answer,
    edit,
    edit_message,
    edit_original,
    fit_name,
    follow_up,
    is_refused_body,
    plain_name,
    send,
)
from bot.games import (
    GameService,
    GameView,
    MoveOutcome,
    NoSuchGame,
    Refusal,
    computer_name,
    is_computer,
    utc_now,
)
from bot.games.stickers import new_sticker_line
from bot.i18n import N_, SOURCE, Text, _, normalize, translate, words
from bot.outbox import Outbox
from bot.pictures import PICTURES
from engine import DotsError, Player, Point, StopPreview

log = logging.getLogger(__name__)

T = TypeVar("T")

# Clocks this long or longer get direct messages on the player's turn: a shorter turn is
# over before a direct message would help.
DM_MIN_CLOCK_SECONDS = 3600
MAX_SUGGESTIONS = 25
# How long the computer's post waits for the post of the move it answers.
POST_ORDER_WAIT = 10.0
# Ids the database can hold (SQLite's and PostgreSQL's 64-bit integers); Discord's are smaller.
MAX_ID = 2**63 - 1
# Work that answers within this time is answered directly (a refusal then is private from the
# start); slower work gets a deferral first, well within Discord's 3 seconds.
ANSWER_BUDGET = 0.25
# More interactions than this handled at once and the bot is busy: each is deferred first,
# before any work, so that its first answer is not queued behind the others' work.
BUSY_HANDLERS = 8
# Discord's error code for an interaction whose 3 seconds (or 15 minutes) ran out.
UNKNOWN_INTERACTION = 10062
# How long closing waits for the interactions being handled (seconds); then they are cancelled.
HANDLER_WAIT = 5.0
# The refusal of an interaction that arrives while the bot is closing.
RESTARTING = N_("I am restarting: try again in a minute. Nothing changed.")
# ``interaction.extras`` key: a public "thinking..." deferral not yet filled in.
PUBLIC_DEFERRAL = "dots_public_deferral"


class PostOrder:
    """Keeps a game's posts in the order of its actions.

    The computer's reply is searched as soon as the player's move is committed, so it may be
    ready before the player's move is posted. A handler that acts in a game marks it
    ``pending`` from before it calls the service until its post is sent (or failed); the
    computer's post waits while a game is pending, for ``POST_ORDER_WAIT`` seconds at most,
    so a lost post delays nothing for long.
    """

    def __init__(self, *, wait: float = POST_ORDER_WAIT) -> None:
        self.wait = wait
        self._pending: Counter[int] = Counter()
        self._idle: dict[int, asyncio.Event] = {}

    @contextmanager
    def pending(self, game_id: int) -> Iterator[None]:
        """Mark the game as having a post on its way for the duration of the block."""
        self._pending[game_id] += 1
        self._idle.setdefault(game_id, asyncio.Event())
        try:
            yield
        finally:
            self._pending[game_id] -= 1
            if self._pending[game_id] <= 0:
                del self._pending[game_id]
                self._idle.pop(game_id).set()

    def others(self, game_id: int) -> bool:
        """Whether, besides the caller's, another handler has the game ``game_id`` pending (a
        double submit: two moves of one player at once)."""
        return self._pending[game_id] > 1

    async def idle(self, game_id: int) -> None:
        """Wait until no post of this game is on its way (``wait`` seconds at most)."""
        event = self._idle.get(game_id)
        if event is None:
            return
        try:
            await asyncio.wait_for(event.wait(), self.wait)
        except TimeoutError:
            log.info("game %s: posting the computer's move without waiting", game_id)


class GameBot(commands.Bot):
    """What the cogs use of the bot (``bot.app.DotsBot`` is the one they get): its game
    service, the display names it has seen and the order of each game's posts."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.names: dict[int, str] = {}
        self.posts = PostOrder()
        # The posts owed by committed changes (``bot.outbox``); None: none are kept.
        self.outbox: Outbox | None = None
        # Languages (issue 14): each server's own locale as interactions show it, the locale an
        # admin chose for it (None: none chosen; loaded once), each user's last seen one.
        self.guild_locales: dict[int, str] = {}
        self.chosen_locales: dict[int, str | None] = {}
        self.locale_loads: dict[int, asyncio.Future[str | None]] = {}
        self.user_locales: dict[int, str] = {}
        # The tasks handling interactions (see ``admit``); True once the bot is closing.
        self.closing = False
        self._handlers: set[asyncio.Task[Any]] = set()

    @property
    def service(self) -> GameService:
        """The game service."""
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        """Whether more than ``BUSY_HANDLERS`` interactions are being handled (see ``in_time``)."""
        return len(self._handlers) > BUSY_HANDLERS

    def admit(self) -> bool:
        """Whether the bot takes the interaction (or the start-up's repair) the current task
        handles: False once it is closing (the caller refuses it in words); else ``close``
        waits for the task before the database closes."""
        if self.closing:
            return False
        task = asyncio.current_task()
        if task is not None and task not in self._handlers:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        return True

    async def finish_handlers(self) -> None:
        """Let the interactions being handled finish (``HANDLER_WAIT`` seconds at most; those
        still going then are cancelled: their transaction rolls back, nothing half done)."""
        handlers = self._handlers - {asyncio.current_task()}
        if not handlers:
            return
        _, going = await asyncio.wait(handlers, timeout=HANDLER_WAIT)
        if going:
            log.warning("%d interactions still handled at close: cancelled", len(going))
            for task in going:
                task.cancel()
            await asyncio.wait(going)


class NoRunningGame(Refusal):
    """The user has no running game in this server (an adapter-side refusal)."""


class SeveralGames(Exception):  # noqa: N818 (a question to ask, not an error)
    """The user has several running games and did not say which one: ask with a menu."""

    def __init__(self, games: Sequence[GameView]) -> None:
        super().__init__("several running games")
        self.games = list(games)


def sentence(message: str, locale: str = SOURCE) -> str:
    """A refusal's message as a sentence: capital first letter, final full stop."""
    message = message.strip()
    if not message:
        return translate(locale, N_("That did not work."))
    message = message[0].upper() + message[1:]
    return message if message[-1] in ".!?" else message + "."


def bot_of(interaction: discord.Interaction[Any]) -> GameBot:
    """The bot handling ``interaction``."""
    return interaction.client  # type: ignore[no-any-return]


# -- languages (issue 14) -------------------------------------------------------------------


def user_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of a private answer: the user's client's."""
    return normalize(interaction.locale)


async def game_locale(bot: GameBot, guild_id: int | None) -> str:
    """The language of public posts in a server: the one an admin chose, else the server's
    own (as its interactions show it, or Discord's guild object)."""
    if guild_id is None:
        return SOURCE
    if guild_id not in bot.chosen_locales:
        # One read of the database for all who ask at once (a burst in a server not seen yet).
        load = bot.locale_loads.get(guild_id)
        if load is None:
            load = asyncio.ensure_future(bot.service.guild_locale(guild_id=guild_id))
            bot.locale_loads[guild_id] = load
            load.add_done_callback(lambda _: bot.locale_loads.pop(guild_id, None))
        stored = await asyncio.shield(load)
        bot.chosen_locales.setdefault(guild_id, stored)  # an admin's choice meanwhile wins
    chosen = bot.chosen_locales[guild_id]
    if chosen is not None:
        return chosen
    seen = bot.guild_locales.get(guild_id)
    if seen is None:
        guild = bot.get_guild(guild_id)
        seen = normalize(guild.preferred_locale) if guild is not None else SOURCE
    return seen


async def public_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of a public answer to ``interaction``: its server's (see ``game_locale``),
    the user's own outside a server."""
    if interaction.guild_id is None:
        return user_locale(interaction)
    return await game_locale(bot_of(interaction), interaction.guild_id)


async def dm_locale(bot: GameBot, user_id: int) -> str:
    """The language of a direct message to ``user_id``: the one their client last showed
    (seen since the bot started, else as stored); a newer one seen is stored now, so that it
    outlives a restart."""
    stored = await bot.service.player_locale(user_id=user_id)
    seen = bot.user_locales.get(user_id)
    if seen is None:
        return normalize(stored)
    if seen != stored:
        await bot.service.remember_locale(user_id=user_id, locale=seen)
    return seen


def note_locales(interaction: discord.Interaction[Any]) -> None:
    """Remember (in memory) the server's and the user's languages an interaction shows; the
    user's is stored when a direct message is written in it (``dm_locale``), so an interaction
    that is refused writes nothing."""
    bot = bot_of(interaction)
    if interaction.guild_id is not None and interaction.guild_locale is not None:
        bot.guild_locales[interaction.guild_id] = normalize(interaction.guild_locale)
    bot.user_locales[interaction.user.id] = user_locale(interaction)


def is_id(value: int) -> bool:
    """Whether ``value`` can be the id of a game or a challenge (a forged one may not)."""
    return 0 < value <= MAX_ID


async def defer(
    interaction: discord.Interaction[Any], *, ephemeral: bool = False, update: bool = False
) -> bool:
    """Acknowledge the interaction now, before any slow work, so Discord's 3 seconds never
    run out: "thinking..." (a command), or for ``update`` a silent deferral of a click that
    edits its message (then ``edit_original``). False when the 3 seconds had run out already
    (the work must still be shown)."""
    try:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    except discord.NotFound:
        log.warning("interaction %s expired before it was acknowledged", interaction.id)
        return False
    if not ephemeral and not update:
        interaction.extras[PUBLIC_DEFERRAL] = True
    return True


async def in_time(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    update: bool = False,
) -> tuple[T, bool | None]:
    """Run ``work`` (a service call that may wait in a queue), deferring the interaction (see
    ``defer``) if it is not done within ``ANSWER_BUDGET`` (at once when the bot is ``busy``).
    Its result, and None when it was done in time (nothing is sent yet: answer directly),
    True when the interaction was deferred, False when it expired (show the work elsewhere).

    Raises:
        whatever ``work`` raises: before any deferral, or after it (``refuse`` then clears a
        public deferral so the refusal stays private).
    """
    task = asyncio.ensure_future(work)
    budget = 0 if bot_of(interaction).busy else ANSWER_BUDGET
    done, _ = await asyncio.wait({task}, timeout=budget)
    if done:
        return task.result(), None
    deferred = await defer(interaction, ephemeral=ephemeral, update=update)
    return await task, deferred


async def deferred_if_slow(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    update: bool = False,
    contended: bool = False,
) -> tuple[T, bool]:
    """Run ``work`` for an answer that takes further slow work (pictures, threads), so its
    first answer is a deferral (see ``defer``): sent at once, while ``work`` runs (waiting
    for ``work`` first would queue the answer behind the database under a burst); but when
    ``contended`` (the game is being changed by another action right now, so ``work`` may well
    be refused) as ``in_time`` does, so that a quick refusal is private from the start. Its
    result, and whether the interaction is acknowledged (False: it expired, show the work
    elsewhere).

    Raises:
        whatever ``work`` raises (``refuse`` then clears a public deferral so the refusal
        stays private).
    """
    if contended:
        result, deferred = await in_time(interaction, work, ephemeral=ephemeral, update=update)
        if deferred is None:
            deferred = await defer(interaction, ephemeral=ephemeral, update=update)
        return result, deferred
    task = asyncio.ensure_future(work)
    try:
        deferred = await defer(interaction, ephemeral=ephemeral, update=update)
    except discord.HTTPException as error:
        # Discord refused the deferral (not only as expired): the work is shown elsewhere.
        log.warning("interaction %s: deferral refused (%s)", interaction.id, error.status)
        deferred = False
    except BaseException:
        # The handler is cancelled (closing): so is the work (its transaction rolls back).
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        raise
    return await task, deferred


async def update_clicked(
    interaction: discord.Interaction[Any], deferred: bool | None, content: str, **fields: Any
) -> None:
    """Edit the message whose button was clicked, as ``in_time`` left the interaction: the
    click's answer (None), an edit of the deferral (True) or of the message itself (False)."""
    if deferred is None:
        try:
            await edit(interaction, content, **fields)
            return
        except discord.NotFound:
            # Its 3 seconds ran out while the work was done: the message is edited directly.
            log.warning("interaction %s expired before it was answered", interaction.id)
    elif deferred:
        await edit_original(interaction, content, **fields)
        return
    if interaction.message is not None:
        await edit_message(interaction.message, content, **fields)


async def reply(
    interaction: discord.Interaction[Any],
    deferred: bool | None,
    content: str | None = None,
    **fields: Any,
) -> None:
    """Answer as ``in_time`` left the interaction: the first answer (None) or the deferral's
    follow-up (True); nothing when it expired (False: logged by ``defer``)."""
    if deferred is None:
        await answer(interaction, content, **fields)
    elif deferred:
        await follow_up(interaction, content, **fields)
        interaction.extras.pop(PUBLIC_DEFERRAL, None)


async def post_answer(
    interaction: discord.Interaction[Any], deferred: bool | None, content: str, **fields: Any
) -> discord.Message | discord.PartialMessage | None:
    """A public answer, as ``in_time`` left the interaction: the first answer (None), the
    deferral's follow-up (True) or, when the interaction expired (False), a post in its
    channel. The message (to open a thread from), when Discord says which."""
    if deferred is None:
        try:
            response = await answer(interaction, content, **fields)
        except discord.NotFound:
            # Its 3 seconds ran out while the work was done: the work is shown all the same.
            log.warning("interaction %s expired before it was answered", interaction.id)
            deferred = False
        else:
            resource = response.resource
            if isinstance(resource, discord.Message):
                return resource
            return await interaction.original_response()
    if interaction.channel_id is None:
        return None
    bot = bot_of(interaction)
    channel = bot.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
    if deferred:
        message = await follow_up(interaction, content, wait=True, **fields)
        interaction.extras.pop(PUBLIC_DEFERRAL, None)
        # A follow-up does not know its server: the same message, through its channel.
        return channel.get_partial_message(message.id)
    return await send(channel, content, **fields)  # type: ignore[no-any-return]


async def clear_deferral(interaction: discord.Interaction[Any]) -> None:
    """Take away a public "thinking..." deferral not filled in, so that the next follow-up can
    be private: Discord gives the first follow-up the deferral's visibility, so the deferral is
    filled first (an edit), then deleted."""
    if not interaction.extras.pop(PUBLIC_DEFERRAL, False):
        return
    try:
        await edit_original(interaction, "…")
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.info("could not clear the deferral of interaction %s", interaction.id)


async def refuse(interaction: discord.Interaction[Any], message: Text) -> None:
    """Answer privately (ephemeral) with ``message`` in the user's language, whether or not we
    responded already (after a public deferral too)."""
    locale = user_locale(interaction)
    content = sentence(translate(locale, message), locale)
    try:
        await clear_deferral(interaction)
        if interaction.response.is_done():
            await follow_up(interaction, content, ephemeral=True)
        else:
            await answer(interaction, content, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send a refusal for interaction %s", interaction.id)


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer privately for any error a handler raised: refusals and bad input get their own
    message, anything else a short apology (and a log entry with the traceback)."""
    if isinstance(error, SeveralGames):
        await refuse(interaction, N_("You have several running games: say which one with `game`."))
    elif isinstance(error, Refusal):
        await refuse(interaction, error.render(user_locale(interaction)))
    elif isinstance(error, DotsError):
        await refuse(interaction, text.error_message(error))
    elif isinstance(error, discord.Forbidden):
        await refuse(interaction, N_("I am not allowed to do that here (missing permissions)."))
    elif isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        # Discord's 3 seconds ran out (the bot was busy): no answer can be sent any more.
        log.warning("interaction %s expired before it was answered", interaction.id)
    else:
        log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
        await refuse(interaction, N_("Sorry, something went wrong on my side. It has been logged."))


def in_game_channel(interaction: discord.Interaction[Any], view: GameView) -> bool:
    """Whether the interaction happened where ``view``'s game is played."""
    return interaction.channel_id == game_channel_id(view)


def game_channel_id(view: GameView) -> int:
    """The channel (thread, or the channel itself) a game is played in."""
    return view.thread_id or view.channel_id


def jump_url(view: GameView) -> str:
    """A link to the game's thread (or channel)."""
    return f"https://discord.com/channels/{view.guild_id}/{game_channel_id(view)}"


def thread_name(game_id: int, pink: str, blue: str, locale: str = SOURCE) -> str:
    """The name of a game's thread; it carries the game id, so it is found after a restart."""
    name = _(
        "Dots #{game_id}: {pink} vs {blue}",
        game_id=game_id,
        pink=plain_name(pink),
        blue=plain_name(blue),
    )
    return fit_name(translate(locale, name))


async def game_here(interaction: discord.Interaction[Any]) -> GameView | None:
    """The game whose thread this interaction happened in, if any (over or not)."""
    channel = interaction.channel
    if not isinstance(channel, discord.Thread):
        return None
    return await bot_of(interaction).service.game_in_thread(thread_id=channel.id)


async def resolve_game(
    interaction: discord.Interaction[Any], game_id: int | None = None, *, running: bool = True
) -> GameView:
    """The game a command means: the ``game`` option, else this thread's game, else the
    user's only running game in this server.

    Raises:
        NoSuchGame: the ``game`` option names no game of this server.
        NoRunningGame: the user plays no running game here.
        SeveralGames: the user plays several and did not say which.
    """
    service = bot_of(interaction).service
    if game_id is not None:
        if not is_id(game_id):
            raise NoSuchGame(_("there is no game #{game_id} in this server", game_id=game_id))
        view = await service.game(game_id)
        if view.guild_id != interaction.guild_id:
            raise NoSuchGame(_("there is no game #{game_id} in this server", game_id=game_id))
        return view
    here = await game_here(interaction)
    if here is not None:
        return here
    games = await service.running_games(user_id=interaction.user.id, guild_id=interaction.guild_id)
    if not running and not games:
        raise NoRunningGame(N_("you have no running game here; name one with the `game` option"))
    if not games:
        raise NoRunningGame(N_("you have no running game here: challenge someone with /challenge"))
    local = [view for view in games if game_channel_id(view) == interaction.channel_id]
    if len(local) == 1:
        return local[0]
    if len(games) > 1:
        raise SeveralGames(games)
    return games[0]


async def display_name(bot: GameBot, user_id: int, locale: str = SOURCE) -> str:
    """A user's name for pictures and thread names (cached; no members intent needed); the
    computer's name in ``locale`` for its pseudo user ids."""
    if is_computer(user_id):
        return computer_name(user_id, locale)
    cached = bot.names.get(user_id)
    if cached is not None:
        return cached
    user = bot.get_user(user_id)
    name = user.display_name if user is not None else None
    if name is None:
        try:
            name = (await bot.fetch_user(user_id)).display_name
        except discord.HTTPException:
            name = translate(SOURCE, _("player {user_id}", user_id=user_id))
    name = plain_name(name)
    bot.names[user_id] = name
    return name


async def picture_names(bot: GameBot, view: GameView, locale: str = SOURCE) -> dict[Player, str]:
    """Both players' display names, by colour (the computer's in ``locale``)."""
    return {
        Player.PINK: await display_name(bot, view.pink_id, locale),
        Player.BLUE: await display_name(bot, view.blue_id, locale),
    }


def mention(user_id: int, locale: str = SOURCE) -> str:
    """A user as a mention in message text; the computer by its name in ``locale`` (it has
    no account)."""
    return computer_name(user_id, locale) if is_computer(user_id) else f"<@{user_id}>"


def mentions(view: GameView, locale: str = SOURCE) -> dict[Player, str]:
    """Both players as mentions, by colour (for message text in ``locale``)."""
    return {Player.PINK: mention(view.pink_id, locale), Player.BLUE: mention(view.blue_id, locale)}


def clock_left(view: GameView) -> timedelta | None:
    """The time left for the player to move, for the picture; None when the game is over."""
    if not view.is_running or view.deadline is None:
        return None
    return max(view.deadline - utc_now(), timedelta(0))


async def picture_file(
    bot: GameBot,
    view: GameView,
    *,
    marks: Iterable[Point] = (),
    name: str = "",
    preview: StopPreview | None = None,
    locale: str | None = None,
) -> discord.File:
    """The game's picture as a file to attach, rendered off the event loop (``preview``: what
    that stop would do, see ``bot.pictures.game_png``), its header in ``locale`` (default: the
    server's); in the picture worker processes."""
    if locale is None:
        locale = await game_locale(bot, view.guild_id)
    names = await picture_names(bot, view, locale)
    times = view.times_left(bot.service.now()) if view.is_running else None
    png = await PICTURES.png(
        view.game,
        names,
        clock=clock_left(view),
        marks=tuple(marks),
        preview=preview,
        words=words(locale),
        times=times,
    )
    filename = name or f"dots-{view.game_id}-{len(view.game.actions):03d}.png"
    return discord.File(io.BytesIO(png), filename=filename)


async def replay_file(bot: GameBot, view: GameView, locale: str = SOURCE) -> discord.File:
    """The game's animated replay as a file to attach, rendered in a picture worker."""
    names = await picture_names(bot, view, locale)
    gif = await PICTURES.gif(view.game, names, words=words(locale))
    return discord.File(io.BytesIO(gif), filename=f"dots-{view.game_id}.gif")


def status_text(view: GameView, *, headline: str = "", locale: str = SOURCE) -> str:
    """The message under a picture: what happened, scores, whose turn and the time left."""
    game = view.game
    names = mentions(view, locale)
    left = text.time_left(view.deadline, utc_now(), locale=locale) if view.is_running else ""
    lines = [translate(locale, _("**Game #{game_id}**", game_id=view.game_id))]
    if headline:
        lines.append(headline)
    lines.append(text.scores_line(game, locale=locale))
    if view.status == "aborted":
        lines.append(translate(locale, N_("The game was aborted: no result, no rating change.")))
    else:
        lines.append(text.turn_line(game, names, left=left, locale=locale))
    if view.game_clock is not None and view.clock_state is not None:
        lines.append(
            text.game_clock_line(view.game_clock, view.clock_state, utc_now(), locale=locale)
        )
    play_on = text.play_on_line(game, move_hint="`/move`", end_hint="`/end`", locale=locale)
    if play_on and not is_computer(view.to_move_id):  # the computer needs no instructions
        lines.append(play_on)
    return "\n".join(lines)


async def outcome_message(
    bot: GameBot, outcome: MoveOutcome, *, earlier: str = "", locale: str | None = None
) -> tuple[str, list[discord.File]]:
    """The text and files announcing an outcome: picture, and at the end ratings and replay;
    ``earlier`` says what happened before this action (moves not announced one by one). In
    ``locale``, by default the server's."""
    view = outcome.view
    if locale is None:
        locale = await game_locale(bot, view.guild_id)
    nobody = translate(locale, N_("Nobody moved in time."))
    if outcome.aborted:
        return status_text(view, headline=nobody, locale=locale), []
    headline = (
        text.action_line(view.game, mentions(view, locale), locale=locale) if outcome.action else ""
    )
    if earlier:
        headline = f"{earlier}\n{headline}" if headline else earlier
    content = status_text(view, headline=with_stickers(headline, outcome, locale), locale=locale)
    files = [await picture_file(bot, view, locale=locale)]
    if outcome.is_over:
        content += rating_line(outcome, locale)
        files.append(await replay_file(bot, view, locale))
    return content, files


def rating_line(outcome: MoveOutcome, locale: str = SOURCE) -> str:
    """The rating changes at the end of a rated game, on a line of their own (or nothing)."""
    changes = [
        (mention(change.user_id, locale), change.before, change.after, change.provisional)
        for change in outcome.rating_changes
    ]
    if not changes:
        return ""
    lines = "; ".join(text.rating_lines(changes, locale=locale))
    return "\n" + translate(locale, _("Ratings: {lines}", lines=lines))


def minimal_message(outcome: MoveOutcome, locale: str = SOURCE) -> str:
    """An outcome without its extras (what came before it, pictures): what is posted when
    Discord refuses the full post, so that the result is never lost with it."""
    view = outcome.view
    if outcome.aborted:
        nobody = translate(locale, N_("Nobody moved in time."))
        return status_text(view, headline=nobody, locale=locale)
    headline = (
        text.action_line(view.game, mentions(view, locale), locale=locale) if outcome.action else ""
    )
    headline = with_stickers(headline, outcome, locale)
    extra = rating_line(outcome, locale) if outcome.is_over else ""
    return status_text(view, headline=headline, locale=locale) + extra


def with_stickers(headline: str, outcome: MoveOutcome, locale: str = SOURCE) -> str:
    """``headline`` and a line for each sticker the action earned: ``"<@1>: New sticker!
    Trap"`` (the first of its kind for that player) or ``"<@1>: Sticker: Trap"``."""
    lines = [headline] if headline else []
    lines += [
        f"{mention(news.user_id, locale)}: "
        + new_sticker_line(news.sticker, first_ever=news.first_ever, locale=locale)
        for news in outcome.stickers
    ]
    return "\n".join(lines)


async def announce(
    bot: GameBot,
    outcome: MoveOutcome,
    *,
    interaction: discord.Interaction[Any] | None = None,
    earlier: str = "",
) -> None:
    """Post an outcome in the game's thread (as the interaction's answer when given), then
    direct-message the player to move if they asked for it on a long clock. (The computer's
    turn needs nothing from here: the service arms it when the move is committed.)

    The action is stored whatever Discord does with the post: a refused answer is shown
    another way (an edit of the deferral, a post in the thread, a post without extras)."""
    view = outcome.view
    locale = await game_locale(bot, view.guild_id)
    content, files = await outcome_message(bot, outcome, earlier=earlier, locale=locale)
    minimal = minimal_message(outcome, locale)
    buttons = result_buttons(view, locale) if outcome.is_over else None
    if interaction is None:
        await send_to_game(bot, view, content, files=files, minimal=minimal, buttons=buttons)
    else:
        try:
            await follow_up(interaction, content, files=files, **_with(buttons))
            interaction.extras.pop(PUBLIC_DEFERRAL, None)
        except discord.NotFound:
            # The interaction's token expired: the action stands, so post it in the thread
            # (with fresh files: the failed upload has read the first ones).
            content, files = await outcome_message(bot, outcome, earlier=earlier)
            await send_to_game(bot, view, content, files=files, minimal=minimal, buttons=buttons)
        except discord.HTTPException as error:
            log.warning(
                "game %s: the answer to interaction %s was refused (%s); shown another way",
                view.game_id,
                interaction.id,
                error.code or error.status,
            )
            await answer_instead(bot, interaction, outcome, earlier, minimal, error)
    if outcome.next_user_id is not None and not outcome.is_over:
        await notify_turn(bot, view, outcome.next_user_id)


async def answer_instead(  # noqa: PLR0917 (the pieces of one answer)
    bot: GameBot,
    interaction: discord.Interaction[Any],
    outcome: MoveOutcome,
    earlier: str,
    minimal: str,
    error: discord.HTTPException,
) -> None:
    """Show an outcome whose follow-up Discord refused: in the deferral itself (an edit, not
    a follow-up: the refused post is then not asked again), else in the game's thread."""
    view = outcome.view
    buttons = (
        result_buttons(view, await game_locale(bot, view.guild_id)) if outcome.is_over else None
    )
    try:
        if is_refused_body(error):
            await edit_original(interaction, minimal, attachments=[], **_with(buttons))
        else:
            content, files = await outcome_message(bot, outcome, earlier=earlier)
            await edit_original(interaction, content, attachments=files, **_with(buttons))
        interaction.extras.pop(PUBLIC_DEFERRAL, None)
        return
    except discord.HTTPException:
        await clear_deferral(interaction)
    content, files = await outcome_message(bot, outcome, earlier=earlier)
    await send_to_game(bot, view, content, files=files, minimal=minimal, buttons=buttons)


# -- the result post's buttons (issue 13 item 1) ---
# The Rematch button's custom id; ``bot.cogs.rematch.RematchButton`` (a dynamic item) answers
# its clicks. Built here, without that class, because every result is posted from here.
REMATCH_CUSTOM_ID = "dots:rematch:offer:{game_id}"


def result_buttons(view: GameView, locale: str = SOURCE) -> discord.ui.View | None:
    """The buttons under a game's result: Rematch, for a game that is over (not aborted)."""
    if view.status != "over":
        return None
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(
        discord.ui.Button(
            label=translate(locale, N_("Rematch")),
            style=discord.ButtonStyle.primary,
            custom_id=REMATCH_CUSTOM_ID.format(game_id=view.game_id),
        )
    )
    return buttons


def _with(buttons: discord.ui.View | None) -> dict[str, Any]:
    """``view=buttons`` for a post that has buttons, nothing for one that has none."""
    return {} if buttons is None else {"view": buttons}


async def send_to_game(
    bot: GameBot,
    view: GameView,
    content: str,
    *,
    files: Sequence[discord.File] = (),
    minimal: str = "",
    buttons: discord.ui.View | None = None,
) -> discord.Message | None:
    """Post in a game's thread (or channel), with ``buttons`` if given; None when Discord
    refuses. When it refuses the post for what it holds, ``minimal`` (the same news without
    extras) is posted instead."""
    channel = bot.get_partial_messageable(game_channel_id(view), guild_id=view.guild_id)
    try:
        return await send(  # type: ignore[no-any-return]
            channel, content, files=list(files), **_with(buttons)
        )
    except discord.HTTPException as error:
        if minimal and is_refused_body(error):
            log.warning(
                "game %s: post refused (%s); posting it without extras", view.game_id, error
            )
            try:
                return await send(channel, minimal, **_with(buttons))  # type: ignore[no-any-return]
            except discord.HTTPException:
                pass
        log.warning("could not post in the thread of game %s", view.game_id)
        return None


async def notify_turn(
    bot: GameBot,
    view: GameView,
    user_id: int,
    *,
    reminder: Callable[[str], str] | None = None,
) -> None:
    """DM ``user_id`` that it is their turn (long clocks, opted in), in the language their
    client last showed; in the thread (in the server's) when DMs fail. ``reminder`` writes
    another message in a given language. Never the computer (it has no account)."""
    if is_computer(user_id) or view.clock.total_seconds() < DM_MIN_CLOCK_SECONDS:
        return
    if not await bot.service.wants_notify(user_id=user_id):
        return

    def message(locale: str) -> str:
        if reminder is not None:
            return reminder(locale)
        left = text.time_left(view.deadline, utc_now(), locale=locale)
        turn = _(
            "Your turn in Dots game #{game_id} ({left} left): {url}",
            game_id=view.game_id,
            left=left,
            url=jump_url(view),
        )
        return translate(locale, turn)

    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await send(user, message(await dm_locale(bot, user_id)))
    except discord.HTTPException:
        # Closed DMs (Forbidden) or an unknown user: say it in the thread instead.
        there = message(await game_locale(bot, view.guild_id))
        await send_to_game(bot, view, f"<@{user_id}> {there}")


def suggest_points(view: GameView, typed: str) -> list[str]:
    """Up to 25 free points for autocomplete: near the last moves first, then the rest by
    distance from the centre, filtered by what was typed (case and spaces ignored)."""
    game = view.game
    board = game.board
    prefix = typed.replace(" ", "").upper()
    seen: set[Point] = set()
    ordered: list[Point] = []

    def consider(point: Point) -> None:
        if point not in seen and point.is_on(board.width, board.height):
            seen.add(point)
            if board.is_free(point):
                ordered.append(point)

    recent = [action.point for action in reversed(game.actions) if action.point is not None]
    for reach in (1, 2):
        for centre in recent[:6]:
            for dy in range(-reach, reach + 1):
                for dx in range(-reach, reach + 1):
                    consider(Point(centre.x + dx, centre.y + dy))
    cx, cy = (board.width - 1) / 2, (board.height - 1) / 2
    rest = sorted(
        (p for p in board.free_points() if p not in seen),
        key=lambda p: (abs(p.x - cx) + abs(p.y - cy), p.y, p.x),
    )
    names = [p.name for p in [*ordered, *rest]]
    return [name for name in names if name.startswith(prefix)][:MAX_SUGGESTIONS]
