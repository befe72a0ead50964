"""Playing a game: /move, /end, /resign, /board and /games, the private end and resign
confirmations (their buttons are for the position they were shown for), and what the move,
end, resign and board actions do (``bot.cogs.in_game`` finds the game a command means).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.client import GameBot, bot_of
from bot.cogs.in_game import (
    Action,
    check_turn,
    game_choices,
    handles,
    resolve_game,
    run_in_game,
)
from bot.cogs.interactions import (
    SeveralGames,
    deferred_if_slow,
    in_time,
    public_locale,
    refuse,
    update_clicked,
)
from bot.cogs.locales import user_locale
from bot.cogs.names import mentions
from bot.cogs.outcomes import announce, outcome_message
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.posting import (
    buttons_field,
    game_channel_id,
    in_game_channel,
    jump_url,
    picture_file,
    status_text,
)
from bot.cogs.posts import (
    answer,
    edit,
    edit_placeholder,
    fetch_placeholder,
    fit_content,
    follow_up,
    respond,
)
from bot.cogs.rematch import result_buttons
from bot.error_words import board_message
from bot.games import (
    ActionTaken,
    GameChanged,
    GameOver,
    GameView,
    MoveOutcome,
    NotYourGame,
    PostKind,
    Refusal,
    owing_post,
)
from bot.i18n import N_, SOURCE, _, translate
from bot.outbox import delivering
from engine import InvalidPointError, OffBoardError, Point, PointMistake, Rules
from engine.point import normalise_point
from renderer.zoom import window_around, zoom_png

log = logging.getLogger(__name__)

MAX_TYPED_POINT = 40

MAX_SUGGESTIONS = 25

CONFIRM_TTL_SECONDS = 10 * 60


class ConfirmButton(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId(
        "dots:confirm",
        ("end", "resign", "keep"),
        optional=(("moves", "[0-9]+"), ("shown", "[0-9]+")),
    ),
):
    """The buttons of the private end/resign confirmation. The custom id also carries the
    position it was shown for (the game's number of actions) and when (unix seconds): a click
    after the game moved on, or after ``CONFIRM_TTL_SECONDS``, is refused with a fresh
    confirmation (as is a button made before these were recorded)."""

    def __init__(
        self,
        action: str,
        key: Any,
        /,
        *,
        moves: int | None = None,
        shown: int | None = None,
        **options: Any,
    ) -> None:
        self.moves = moves
        self.shown = shown
        super().__init__(action, key, **options)

    def component(
        self, *, label: str = "", locale: str = SOURCE, **options: Any
    ) -> discord.ui.Button[Any]:
        """The button, in ``locale`` (``label`` replaces the default one, e.g. "Stop")."""
        style = (
            discord.ButtonStyle.secondary if self.action == "keep" else discord.ButtonStyle.danger
        )
        return discord.ui.Button(
            label=label
            or translate(
                locale,
                {"end": N_("End"), "resign": N_("Resign"), "keep": N_("Keep playing")}[self.action],
            ),
            style=style,
            custom_id=self.made_id(moves=self.moves, shown=self.shown),
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """End or resign for the clicking user, or leave things as they are; a stale or
        expired confirmation is answered with a fresh one."""
        locale = user_locale(interaction)
        if self.action == "keep":
            nothing = translate(locale, N_("Nothing changed: play on."))
            await edit(interaction, nothing, view=None, attachments=[])
            return
        bot = bot_of(interaction)
        now = bot.service.now().timestamp()
        if self.moves is None or self.shown is None or now - self.shown > CONFIRM_TTL_SECONDS:
            await self.ask_again(
                interaction, translate(locale, N_("This confirmation has expired."))
            )
            return
        act = bot.service.end if self.action == "end" else bot.service.resign
        # The result's post is stored with the end (its transaction) and delivered inside
        # ``delivering``; the confirmation is private, so there is no placeholder to resend.
        with bot.posts.pending(self.key), owing_post(self.key, token=None):
            try:
                outcome, deferred = await in_time(
                    interaction,
                    act(game_id=self.key, user_id=interaction.user.id, moves=self.moves),
                    update=True,
                )
            except GameChanged:
                moved = translate(locale, N_("The game moved on since you were asked."))
                await self.ask_again(interaction, moved)
                return
            if self.action == "resign":
                done = translate(locale, N_("You resigned."))
            elif outcome.view.game.rules == Rules.GROUNDING:
                done = translate(locale, N_("You stopped."))
            else:
                done = translate(locale, N_("You ended."))
            async with delivering(bot.outbox, PostKind.ACTION):
                await update_clicked(interaction, deferred, done, view=None, attachments=[])
                await announce(bot, outcome)

    async def ask_again(self, interaction: discord.Interaction[Any], why: str) -> None:
        """Nothing done: a fresh confirmation for the game as it is now (or the refusal)."""
        view = await bot_of(interaction).service.game(self.key)
        nothing = translate(user_locale(interaction), _("{why} Nothing changed.", why=why))
        await confirm(interaction, view, self.action, note=nothing)


# -- what the actions do ---------------------------------------------------------------------


@handles(Action.MOVE)
async def move_in(interaction: discord.Interaction[Any], view: GameView, point: str) -> None:
    """The move action: place a dot (see ``play_move``)."""
    await play_move(interaction, view, point)


@handles(Action.END)
async def end_in(interaction: discord.Interaction[Any], view: GameView, _arg: str) -> None:
    """The end action: ask to confirm ending (a stop under grounding rules)."""
    await confirm(interaction, view, "end")


@handles(Action.RESIGN)
async def resign_in(interaction: discord.Interaction[Any], view: GameView, _arg: str) -> None:
    """The resign action: ask to confirm resigning."""
    await confirm(interaction, view, "resign")


@handles(Action.BOARD)
async def board_in(interaction: discord.Interaction[Any], view: GameView, around: str) -> None:
    """The board action: show the game's picture, or a zoomed view ``around`` a point (see
    ``show_board``)."""
    await show_board(interaction, view, around=around)


async def play_move(interaction: discord.Interaction[Any], view: GameView, point: str) -> None:
    """Place a dot; the new picture goes to the game's thread.

    What this game's snapshot already refuses is refused at once, privately; then the
    interaction is deferred while the service places the dot (its queue can be long under a
    burst), unless another action in this game is under way (a double submit: then the
    refusal is awaited briefly, to be private from the start; see ``deferred_if_slow``)."""
    bot = bot_of(interaction)
    check_move(interaction, view, point)
    # With game cards the new card is posted in the thread, not as this command's answer.
    here = in_game_channel(interaction, view) and bot.post_card is None
    # The move's post is stored with it (in its transaction) and delivered inside
    # ``delivering``: a crash between the two leaves it for the next start.
    with bot.posts.pending(view.game_id), owing_post(view.game_id, token=interaction.token):
        outcome, acknowledged = await deferred_if_slow(
            interaction,
            bot.service.place(game_id=view.game_id, user_id=interaction.user.id, point=point),
            ephemeral=not here,
            contended=bot.posts.others(view.game_id),
        )
        async with delivering(bot.outbox, PostKind.ACTION):
            if not acknowledged:
                # The interaction expired (10062) but the move is stored: show it in the thread.
                log.warning("move of game %s posted in its thread, unanswered", view.game_id)
                await announce(bot, outcome)
            elif here:
                await announce(bot, outcome, interaction=interaction)
            else:
                await announce(bot, outcome)
                placed = outcome.placement.point.name if outcome.placement else point
                played = _(
                    "Played {point} in game #{game_id}: {url}",
                    point=placed,
                    game_id=view.game_id,
                    url=jump_url(view),
                )
                locale = user_locale(interaction)
                await follow_up(interaction, translate(locale, played), ephemeral=True)


async def show_again(bot: GameBot, outcome: MoveOutcome, token: str | None) -> None:
    """Show an action after a restart: in the public placeholder of the interaction it
    answered (an edit: shown once however often it is done) while Discord still allows it,
    else in the game's thread (its nonce keeps it single); a private placeholder (the move was
    played from elsewhere) then gets the link."""
    view = outcome.view
    placeholder = None
    if token is not None:
        try:
            placeholder = await fetch_placeholder(bot, token)
        except discord.HTTPException:
            log.info("game %s: the placeholder of its action is gone", view.game_id)
    public_here = (
        placeholder is not None
        and not placeholder.flags.ephemeral
        and placeholder.channel.id == game_channel_id(view)
    )
    if token is not None and public_here:
        locale = await bot.locales.of_place(view.guild_id, view.channel_id)
        content, files = await outcome_message(bot, outcome, locale=locale)
        buttons = result_buttons(view, locale) if outcome.is_over else None
        try:
            await edit_placeholder(bot, token, content, attachments=files, **buttons_field(buttons))
            return
        except discord.HTTPException:
            log.info("game %s: its placeholder could not be filled", view.game_id)
    await announce(bot, outcome)
    if token is not None and placeholder is not None and not public_here:
        action = outcome.action
        played = _(
            "Played {point} in game #{game_id}: {url}",
            point=action.point.name if action and action.point else "",
            game_id=view.game_id,
            url=jump_url(view),
        )
        locale = await bot.locales.of_place(view.guild_id, view.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await edit_placeholder(bot, token, translate(locale, played))


def check_move(interaction: discord.Interaction[Any], view: GameView, point: str) -> None:
    """Refuse what this snapshot of the game already refuses (not your turn, not a point,
    off the board, taken, inside a base), before anything slow; the service checks again.

    Raises:
        NotYourGame, GameOver, NotYourTurn, Refusal (not a point), DotsError (the engine's
        refusal of the dot).
    """
    check_turn(interaction, view)
    board = view.game.board
    try:
        Point.parse(point)
    except InvalidPointError as error:
        if error.mistake is PointMistake.LATIN_LETTERS:  # worded by bot.error_words
            raise InvalidPointError(error.text, error.mistake, board.width, board.height) from None
        example = next(iter(suggest_points(view, "")), "E5")
        shown = fit_content(" ".join(point.split()), 20)
        raise Refusal(
            _(
                "{shown} is not a point: a point is a column letter and a row number, like "
                "{example} ({board})",
                shown=f"`{shown}`" if shown else N_("An empty name"),
                example=example,
                board=board_message(board.width, board.height),
            )
        ) from None
    board.copy().place(point, view.game.to_move)  # type: ignore[arg-type]


async def confirm(
    interaction: discord.Interaction[Any], view: GameView, action: str, *, note: str = ""
) -> None:
    """Ask privately to confirm ending or resigning; for a stop, show what it hands over.
    The buttons are for this position only (see ``ConfirmButton``); ``note`` comes first."""
    bot = bot_of(interaction)
    game = view.game
    colour = view.player_of(interaction.user.id)
    shown = {"moves": len(game.actions), "shown": int(bot.service.now().timestamp())}
    locale = user_locale(interaction)
    lead = f"{note}\n" if note else ""
    if action == "resign":
        if colour is None:
            raise NotYourGame(N_("you are not playing in this game"))
        if not view.is_running:
            raise GameOver(N_("this game is over"))
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(ConfirmButton("resign", view.game_id, locale=locale, **shown))
        buttons.add_item(ConfirmButton("keep", view.game_id, locale=locale, **shown))
        ask = _(
            "Resign game #{game_id}? Your opponent wins, whatever the score.",
            game_id=view.game_id,
        )
        # ``respond``: a fresh confirmation may answer a click deferred already (ask_again).
        await respond(interaction, lead + translate(locale, ask), view=buttons, ephemeral=True)
        return
    check_turn(interaction, view)
    assert colour is not None
    preview = game.stop_preview(colour) if game.rules == Rules.GROUNDING else None
    prompt = lead + text.end_confirmation(game, colour, preview, locale=locale)
    if preview is not None and not preview.allowed:
        await refuse(interaction, prompt)
        return
    buttons = discord.ui.View(timeout=None)
    label = translate(locale, N_("Stop") if preview else N_("End"))
    buttons.add_item(ConfirmButton("end", view.game_id, label=label, locale=locale, **shown))
    buttons.add_item(ConfirmButton("keep", view.game_id, locale=locale, **shown))
    if preview is None:
        await respond(interaction, prompt, view=buttons, ephemeral=True)
        return
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=True)
    picture = await picture_file(bot, view, preview=preview, locale=locale)
    await follow_up(interaction, prompt, file=picture, view=buttons, ephemeral=True)


async def show_board(
    interaction: discord.Interaction[Any], view: GameView, *, around: str = ""
) -> None:
    """The current picture: public in the game's thread, private elsewhere; with ``around``
    (a point's name), a zoomed view of the points around it, readable on a phone.

    Raises:
        InvalidPointError: ``around`` is not a point of this board (before any answer).
    """
    board = view.game.board
    centre = None
    if around:
        centre = Point.parse(around)
        if not centre.is_on(board.width, board.height):
            raise OffBoardError(centre, board.width, board.height)
    here = in_game_channel(interaction, view)
    await interaction.response.defer(thinking=True, ephemeral=not here)
    locale = await public_locale(interaction) if here else user_locale(interaction)
    picture = await picture_file(bot_of(interaction), view, locale=locale)
    if centre is not None:
        window = window_around(centre, board.width, board.height)
        png = await asyncio.to_thread(
            zoom_png, picture.fp.read(), board.width, board.height, window
        )
        name = f"dots-{view.game_id}-around-{centre.name}.png"
        picture = discord.File(io.BytesIO(png), filename=name)
    await follow_up(interaction, status_text(view, locale=locale), file=picture, ephemeral=not here)


def suggest_points(view: GameView, typed: str) -> list[str]:
    """Up to 25 free points for autocomplete: near the last moves first, then the rest by
    distance from the centre, filtered by what was typed (case and spaces ignored)."""
    game = view.game
    board = game.board
    prefix = normalise_point(typed).replace(" ", "").upper()
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


# -- the cog --------------------------------------------------------------------------------


class Play(commands.Cog):
    """Move, end, resign, board, games."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_dots_action_taken(self, event: ActionTaken) -> None:
        """A move, end or resign whose post a crash left unsent (``bot.outbox``): posted now,
        with the nonces of its outbox row."""
        async with delivering(self.bot.outbox, PostKind.ACTION):
            await show_again(self.bot, event.outcome, event.token)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="move", description=N_("Place a dot, e.g. /move B7"))
    @app_commands.guild_only()
    @app_commands.describe(
        point=N_("Column letter and row number, e.g. B7 (row 1 is at the bottom)"),
        game=N_("Game number, if you play several (default: this thread's game)"),
    )
    async def move(
        self, interaction: discord.Interaction[Any], point: str, game: int | None = None
    ) -> None:
        """Place a dot in this thread's game or your only running game."""
        # Long enough for any point name typed with spaces or invisible characters; the engine
        # reads it (``Point.parse``), and a picker's custom id carries it encoded.
        await run_in_game(interaction, Action.MOVE, game, point.strip()[:MAX_TYPED_POINT])

    @move.autocomplete("point")
    async def move_point(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Free points near the last moves first, filtered by what was typed."""
        namespace = interaction.namespace
        try:
            view = await resolve_game(interaction, getattr(namespace, "game", None))
        except SeveralGames as several:
            mine = [v for v in several.games if v.to_move_id == interaction.user.id]
            view = (mine or several.games)[0]
        except Refusal:
            return []  # no game here (yet): nothing to suggest
        return [app_commands.Choice(name=p, value=p) for p in suggest_points(view, current)]

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="end", description="End: you make no more moves (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Game number, if you play several"))
    async def end(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Ask to confirm ending (a stop under grounding rules)."""
        await run_in_game(interaction, Action.END, game)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="resign", description="Resign a game (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Game number, if you play several"))
    async def resign(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Ask to confirm resigning."""
        await run_in_game(interaction, Action.RESIGN, game)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="board", description="Show a game's current picture")
    @app_commands.guild_only()
    @app_commands.describe(
        game=N_("Game number (default: this thread's game or your only game)"),
        around=N_("Zoom in around a point, e.g. E5 (readable on a phone)"),
    )
    async def board(
        self, interaction: discord.Interaction[Any], game: int | None = None, around: str = ""
    ) -> None:
        """Show the picture of a game (zoomed in ``around`` a point)."""
        await run_in_game(interaction, Action.BOARD, game, around.strip()[:MAX_TYPED_POINT])

    @app_commands.command(name="games", description=N_("Your running games and open challenges"))
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        """List the user's running games (with links) and open challenges."""
        service = self.bot.service
        user_id = interaction.user.id
        views = await service.running_games(user_id=user_id, guild_id=interaction.guild_id)
        challenges = await service.open_challenges(user_id=user_id, guild_id=interaction.guild_id)
        locale = user_locale(interaction)
        lines = []
        for view in views:
            colour = view.player_of(user_id)
            assert colour is not None
            turn = translate(
                locale, N_("your turn") if view.to_move is colour else N_("their turn")
            )
            other = mentions(view, locale)[colour.opponent]
            line = _(
                "#{game_id} vs {other}, you are {colour}, {turn}, {scores}: {url}",
                game_id=view.game_id,
                other=other,
                colour=text.label(colour, locale),
                turn=turn,
                scores=text.scores_line(view.game, locale=locale),
                url=jump_url(view),
            )
            lines.append(translate(locale, line))
        for challenge in challenges:
            other_id = (
                challenge.opponent_id
                if challenge.challenger_id == user_id
                else challenge.challenger_id
            )
            if other_id is None:
                other = translate(locale, N_("anyone (an open challenge)"))
            else:
                other = f"<@{other_id}>"
            opened = _(
                "Open challenge #{challenge_id} with {other}",
                challenge_id=challenge.challenge_id,
                other=other,
            )
            lines.append(translate(locale, opened))
        if not lines:
            lines.append(translate(locale, N_("No running games. Start one with `/challenge`.")))
        await answer(
            interaction,
            text.join_lines(lines, locale=locale),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
