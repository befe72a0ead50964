"""Playing: /challenge with its buttons, /move, /end, /resign, /board and /games.

Buttons are dynamic items: their custom ids carry the challenge or game id, so a click works
after a restart and the state stays in the database, never in a view.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.common import (
    SeveralGames,
    announce,
    answer_error,
    bot_of,
    clock_option,
    display_name,
    in_game_channel,
    jump_url,
    mentions,
    picture_file,
    picture_names,
    refuse,
    resolve_game,
    send_to_game,
    size_option,
    status_text,
    suggest_points,
    thread_name,
)
from bot.games import (
    Challenge,
    GameOptions,
    GameOver,
    GameView,
    NotYourChallenge,
    NotYourGame,
    NotYourTurn,
)
from engine import NAMED_SIZES

if TYPE_CHECKING:
    from bot.app import DotsBot

log = logging.getLogger(__name__)

SIZE_CHOICES = [app_commands.Choice(name=name, value=name) for name in NAMED_SIZES]
RULES_CHOICES = [
    app_commands.Choice(name="standard: end and let the other play on", value="standard"),
    app_commands.Choice(name="grounding: a stop hands over ungrounded dots", value="grounding"),
]
START_CHOICES = [
    app_commands.Choice(name=name, value=name)
    for name in ("empty", "cross", "double-cross", "triple-cross", "four-crosses")
]
CLOCK_CHOICES = [
    app_commands.Choice(name=name, value=int(clock.total_seconds()))
    for name, clock in text.CLOCK_CHOICES.items()
]
COLOUR_CHOICES = [
    app_commands.Choice(name="random", value="random"),
    app_commands.Choice(name="pink (moves first)", value="pink"),
    app_commands.Choice(name="blue", value="blue"),
]
ACTIONS = ("move", "end", "resign", "board")

# The options of a new game, shared by /challenge and /play-computer.
OPTION_DESCRIPTIONS = {
    "size": "Board size (default 10x10)",
    "rules": "Standard (default) or grounding rules",
    "start": "Starting position (default: empty board)",
    "clock": "Time for each move (default: the server's default clock)",
    "colour": "Your colour (Pink moves first; default random)",
}
OPTION_CHOICES: dict[str, list[Any]] = {
    "size": SIZE_CHOICES,
    "rules": RULES_CHOICES,
    "start": START_CHOICES,
    "clock": CLOCK_CHOICES,
    "colour": COLOUR_CHOICES,
}


def game_options(
    size: str, rules: str, start: str, clock: int | None, colour: str, *, rated: bool
) -> GameOptions:
    """The GameOptions that a command's options ask for.

    Raises:
        Refusal: a size or clock out of range.
    """
    width, height = size_option(size)
    return GameOptions(
        width=width,
        height=height,
        rules=rules,
        start=start,
        clock=clock_option(clock),
        colour=colour,  # type: ignore[arg-type]
        rated=rated,
    )


# -- buttons and menus (dynamic items: they survive restarts) -------------------------------


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dots:challenge:(?P<action>accept|decline|cancel):(?P<id>[0-9]+)",
):
    """Accept, Decline (the challenged player) or Withdraw (the challenger) a challenge."""

    LABELS: ClassVar[dict[str, str]] = {
        "accept": "Accept",
        "decline": "Decline",
        "cancel": "Withdraw",
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }

    def __init__(self, action: str, challenge_id: int, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.LABELS[action],
                style=self.STYLES[action],
                custom_id=f"dots:challenge:{action}:{challenge_id}",
                disabled=disabled,
            )
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChallengeButton:
        """Rebuild the button from its custom id."""
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Accept, decline or withdraw; refusals are private."""
        try:
            if self.action == "accept":
                await accept_challenge(interaction, self.challenge_id)
            else:
                await close_challenge(interaction, self.challenge_id, self.action)
        except NotYourChallenge as refusal:
            await refuse(interaction, f"This is not your challenge: {refusal}")
        except Exception as error:
            await answer_error(interaction, error)


def challenge_view(challenge_id: int, *, disabled: bool = False) -> discord.ui.View:
    """The buttons under a challenge."""
    view = discord.ui.View(timeout=None)
    for action in ("accept", "decline", "cancel"):
        view.add_item(ChallengeButton(action, challenge_id, disabled=disabled))
    return view


class ConfirmButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"dots:confirm:(?P<action>end|resign|keep):(?P<id>[0-9]+)",
):
    """The buttons of the private end/resign confirmation."""

    def __init__(self, action: str, game_id: int, *, label: str = "") -> None:
        style = discord.ButtonStyle.secondary if action == "keep" else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=label or {"end": "End", "resign": "Resign", "keep": "Keep playing"}[action],
                style=style,
                custom_id=f"dots:confirm:{action}:{game_id}",
            )
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ConfirmButton:
        """Rebuild the button from its custom id."""
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """End or resign for the clicking user, or leave things as they are."""
        try:
            if self.action == "keep":
                await interaction.response.edit_message(
                    content="Nothing changed: play on.", view=None, attachments=[]
                )
                return
            service = bot_of(interaction).service
            act = service.end if self.action == "end" else service.resign
            outcome = await act(game_id=self.game_id, user_id=interaction.user.id)
            if self.action == "resign":
                done = "You resigned."
            elif outcome.view.game.rules == "grounding":
                done = "You stopped."
            else:
                done = "You ended."
            await interaction.response.edit_message(content=done, view=None, attachments=[])
            await announce(bot_of(interaction), outcome)
        except Exception as error:
            await answer_error(interaction, error)


class GamePicker(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"dots:pick:(?P<action>move|end|resign|board):(?P<arg>[A-Za-z0-9]{0,8})",
):
    """A menu that asks which game a command meant, for players with several games."""

    def __init__(self, action: str, arg: str, games: list[GameView] | None = None) -> None:
        options = [
            discord.SelectOption(label=f"Game #{view.game_id}", value=str(view.game_id))
            for view in (games or [])[:25]
        ] or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"dots:pick:{action}:{arg}",
                placeholder="Which game?",
                options=options,
            )
        )
        self.action = action
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GamePicker:
        """Rebuild the menu from its custom id."""
        return cls(match["action"], match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Run the command in the chosen game."""
        try:
            game_id = int(self.item.values[0])
            view = await bot_of(interaction).service.game(game_id)
            if view.guild_id != interaction.guild_id:
                raise NotYourGame("you are not playing in this game")
            await run_action(interaction, self.action, view, self.arg)
        except Exception as error:
            await answer_error(interaction, error)


async def ask_which_game(
    interaction: discord.Interaction[Any], action: str, arg: str, games: list[GameView]
) -> None:
    """Ask privately which of the user's games a command meant."""
    bot = bot_of(interaction)
    lines = ["You have several running games. Which one?"]
    for view in games[:25]:
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        turn = "your turn" if view.to_move_id == interaction.user.id else "their turn"
        name = await display_name(bot, opponent)
        lines.append(f"#{view.game_id} against {name} ({turn}): {jump_url(view)}")
    menu = discord.ui.View(timeout=None)
    picker = GamePicker(action, arg, games)
    for option, view in zip(picker.item.options, games, strict=False):
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        option.label = f"#{view.game_id} vs {await display_name(bot, opponent)}"[:100]
    menu.add_item(picker)
    await interaction.response.send_message(text.join_lines(lines), view=menu, ephemeral=True)


# -- the use-cases behind commands and buttons ---------------------------------------------


async def accept_challenge(interaction: discord.Interaction[Any], challenge_id: int) -> None:
    """The challenged player accepts: a thread, the first picture and a ping for Pink."""
    bot = bot_of(interaction)
    view = await bot.service.accept(challenge_id=challenge_id, user_id=interaction.user.id)
    pink, blue = mentions(view).values()
    # Answer first (names, thread and picture take further round trips to Discord).
    await interaction.response.edit_message(
        content=(
            f"{interaction.user.mention} accepted. Game #{view.game_id}: {pink} (Pink) "
            f"vs {blue} (Blue)."
        ),
        view=challenge_view(challenge_id, disabled=True),
    )
    names = await picture_names(bot, view)
    name = thread_name(view.game_id, *names.values())
    thread_id = await open_thread(bot, interaction, view, name)
    if thread_id is not None:
        await bot.service.set_game_thread(game_id=view.game_id, thread_id=thread_id)
        view = await bot.service.game(view.game_id)
    picture = await picture_file(bot, view)
    message = await send_to_game(
        bot,
        view,
        status_text(view, headline="The game starts. Play with `/move` (e.g. `/move E5`)."),
        files=[picture],
    )
    if message is not None:
        await bot.service.set_game_thread(game_id=view.game_id, message_id=message.id)


async def open_thread(
    bot: DotsBot, interaction: discord.Interaction[Any], view: GameView, name: str
) -> int | None:
    """A public thread for the game (in the server's game channel if one is set); None when
    threads are not allowed here, and the game is then played in the channel itself."""
    settings = await bot.service.guild_settings(guild_id=view.guild_id)
    try:
        if settings.game_channel_id and settings.game_channel_id != interaction.channel_id:
            channel = bot.get_partial_messageable(settings.game_channel_id, guild_id=view.guild_id)
            starter = await channel.send(f"Game #{view.game_id}: {jump_url(view)}")
            thread = await starter.create_thread(name=name)
        elif interaction.message is not None:
            thread = await interaction.message.create_thread(name=name)
        else:
            return None
    except discord.HTTPException:
        log.info("no thread for game %s; playing in the channel", view.game_id)
        return None
    return thread.id


async def close_challenge(
    interaction: discord.Interaction[Any], challenge_id: int, action: str
) -> None:
    """Decline (the challenged) or withdraw (the challenger) a challenge."""
    service = bot_of(interaction).service
    if action == "decline":
        challenge = await service.decline(challenge_id=challenge_id, user_id=interaction.user.id)
        content = f"<@{challenge.opponent_id}> declined the challenge."
    else:
        challenge = await service.cancel(challenge_id=challenge_id, user_id=interaction.user.id)
        content = f"<@{challenge.challenger_id}> withdrew the challenge."
    await interaction.response.edit_message(
        content=content, view=challenge_view(challenge_id, disabled=True)
    )


async def run_action(
    interaction: discord.Interaction[Any], action: str, view: GameView, arg: str = ""
) -> None:
    """Run ``action`` (move, end, resign, board) in the game ``view``."""
    if action == "move":
        await play_move(interaction, view, arg)
    elif action == "end":
        await confirm(interaction, view, "end")
    elif action == "resign":
        await confirm(interaction, view, "resign")
    else:
        await show_board(interaction, view)


async def play_move(interaction: discord.Interaction[Any], view: GameView, point: str) -> None:
    """Place a dot; the new picture goes to the game's thread."""
    bot = bot_of(interaction)
    outcome = await bot.service.place(
        game_id=view.game_id, user_id=interaction.user.id, point=point
    )
    here = in_game_channel(interaction, view)
    try:
        await interaction.response.defer(thinking=True, ephemeral=not here)
    except discord.NotFound:
        # The interaction expired (10062) but the move is stored: show it in the thread.
        log.warning(
            "interaction %s expired; move of game %s posted in its thread",
            interaction.id,
            view.game_id,
        )
        await announce(bot, outcome)
        return
    if here:
        await announce(bot, outcome, interaction=interaction)
    else:
        await announce(bot, outcome)
        placed = outcome.placement.point.name if outcome.placement else point
        await interaction.followup.send(
            f"Played {placed} in game #{view.game_id}: {jump_url(view)}", ephemeral=True
        )


def check_turn(interaction: discord.Interaction[Any], view: GameView) -> None:
    """Refuse early (before a confirmation is shown) what the service would refuse anyway.

    Raises:
        NotYourGame, GameOver, NotYourTurn.
    """
    colour = view.player_of(interaction.user.id)
    if colour is None:
        raise NotYourGame("you are not playing in this game")
    if not view.is_running:
        raise GameOver("this game is over")
    if view.to_move is not colour:
        raise NotYourTurn(
            f"it is not your turn: {view.to_move.label if view.to_move else ''} is to move"
        )


async def confirm(interaction: discord.Interaction[Any], view: GameView, action: str) -> None:
    """Ask privately to confirm ending or resigning; for a stop, show what it hands over."""
    bot = bot_of(interaction)
    game = view.game
    colour = view.player_of(interaction.user.id)
    if action == "resign":
        if colour is None:
            raise NotYourGame("you are not playing in this game")
        if not view.is_running:
            raise GameOver("this game is over")
        buttons = discord.ui.View(timeout=None)
        buttons.add_item(ConfirmButton("resign", view.game_id))
        buttons.add_item(ConfirmButton("keep", view.game_id))
        await interaction.response.send_message(
            f"Resign game #{view.game_id}? Your opponent wins, whatever the score.",
            view=buttons,
            ephemeral=True,
        )
        return
    check_turn(interaction, view)
    assert colour is not None
    preview = game.stop_preview(colour) if game.rules == "grounding" else None
    prompt = text.end_confirmation(game, colour, preview)
    if preview is not None and not preview.allowed:
        await refuse(interaction, prompt)
        return
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(ConfirmButton("end", view.game_id, label="Stop" if preview else "End"))
    buttons.add_item(ConfirmButton("keep", view.game_id))
    if preview is None:
        await interaction.response.send_message(prompt, view=buttons, ephemeral=True)
        return
    await interaction.response.defer(thinking=True, ephemeral=True)
    picture = await picture_file(bot, view, preview=preview)
    await interaction.followup.send(prompt, file=picture, view=buttons, ephemeral=True)


async def show_board(interaction: discord.Interaction[Any], view: GameView) -> None:
    """The current picture: public in the game's thread, private elsewhere."""
    here = in_game_channel(interaction, view)
    await interaction.response.defer(thinking=True, ephemeral=not here)
    picture = await picture_file(bot_of(interaction), view)
    await interaction.followup.send(status_text(view), file=picture, ephemeral=not here)


async def game_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The user's running games in this server for a ``game`` option, theirs to move first."""
    try:
        games = await bot_of(interaction).service.running_games(
            user_id=interaction.user.id, guild_id=interaction.guild_id
        )
    except Exception:
        return []
    games.sort(key=lambda view: view.to_move_id != interaction.user.id)
    choices = []
    for view in games:
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        turn = "your turn" if view.to_move_id == interaction.user.id else "their turn"
        label = f"#{view.game_id} vs {await display_name(bot_of(interaction), opponent)} ({turn})"
        if current.strip().lstrip("#") in str(view.game_id) or current.lower() in label.lower():
            choices.append(app_commands.Choice(name=label[:100], value=view.game_id))
    return choices[:25]


# -- the cog --------------------------------------------------------------------------------


class Play(commands.Cog):
    """Challenge, move, end, resign, board, games."""

    def __init__(self, bot: DotsBot) -> None:
        self.bot = bot

    async def _in_game(
        self, interaction: discord.Interaction[Any], action: str, arg: str, game: int | None
    ) -> None:
        try:
            view = await resolve_game(interaction, game)
        except SeveralGames as several:
            await ask_which_game(interaction, action, arg, several.games)
            return
        await run_action(interaction, action, view, arg)

    @app_commands.command(name="challenge", description="Challenge someone to a game of Dots")
    @app_commands.guild_only()
    @app_commands.describe(
        opponent="Who you want to play",
        rated="Whether the game counts for the leaderboard (default yes)",
        **OPTION_DESCRIPTIONS,
    )
    @app_commands.choices(**OPTION_CHOICES)
    async def challenge(  # noqa: PLR0917 (slash command options are positional)
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.User,
        size: str = "10x10",
        rules: str = "standard",
        start: str = "empty",
        clock: int | None = None,
        colour: str = "random",
        rated: bool = True,
    ) -> None:
        """Post a challenge with Accept and Decline buttons; naming the bot itself starts a
        game against the computer (medium, unrated) instead."""
        options = game_options(size, rules, start, clock, colour, rated=rated)
        if self.bot.user is not None and opponent.id == self.bot.user.id:
            computer: Any = self.bot.get_cog("Computer")
            if computer is not None:
                await computer.start_from_challenge(interaction, replace(options, rated=False))
                return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        challenge = await self.bot.service.challenge(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            options=options,
            opponent_is_bot=opponent.bot,
        )
        response = await interaction.response.send_message(
            challenge_text(challenge, await self._clock(challenge)),
            view=challenge_view(challenge.challenge_id),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[opponent]),
        )
        message_id = response.message_id
        if message_id is None:
            message_id = (await interaction.original_response()).id
        await self.bot.service.set_challenge_message(
            challenge_id=challenge.challenge_id, message_id=message_id
        )

    async def _clock(self, challenge: Challenge) -> str:
        clock = challenge.options.clock
        if clock is None:
            settings = await self.bot.service.guild_settings(guild_id=challenge.guild_id)
            clock = settings.default_clock
        return text.format_duration(clock)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="move", description="Place a dot, e.g. /move B7")
    @app_commands.guild_only()
    @app_commands.describe(
        point="Column letter and row number, e.g. B7 (row 1 is at the bottom)",
        game="Game number, if you play several (default: this thread's game)",
    )
    async def move(
        self, interaction: discord.Interaction[Any], point: str, game: int | None = None
    ) -> None:
        """Place a dot in this thread's game or your only running game."""
        await self._in_game(interaction, "move", point.replace(" ", "")[:8], game)

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
        except Exception:
            return []
        return [app_commands.Choice(name=p, value=p) for p in suggest_points(view, current)]

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="end", description="End: you make no more moves (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(game="Game number, if you play several")
    async def end(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Ask to confirm ending (a stop under grounding rules)."""
        await self._in_game(interaction, "end", "", game)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="resign", description="Resign a game (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(game="Game number, if you play several")
    async def resign(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Ask to confirm resigning."""
        await self._in_game(interaction, "resign", "", game)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="board", description="Show a game's current picture")
    @app_commands.guild_only()
    @app_commands.describe(game="Game number (default: this thread's game or your only game)")
    async def board(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Show the picture of a game."""
        await self._in_game(interaction, "board", "", game)

    @app_commands.command(name="games", description="Your running games and open challenges")
    @app_commands.guild_only()
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        """List the user's running games (with links) and open challenges."""
        service = self.bot.service
        user_id = interaction.user.id
        views = await service.running_games(user_id=user_id, guild_id=interaction.guild_id)
        challenges = await service.open_challenges(user_id=user_id, guild_id=interaction.guild_id)
        lines = []
        for view in views:
            colour = view.player_of(user_id)
            assert colour is not None
            turn = "your turn" if view.to_move is colour else "their turn"
            other = mentions(view)[colour.opponent]
            lines.append(
                f"#{view.game_id} vs {other}, you are {colour.label}, {turn}, "
                f"{text.scores_line(view.game)}: {jump_url(view)}"
            )
        for challenge in challenges:
            other_id = (
                challenge.opponent_id
                if challenge.challenger_id == user_id
                else challenge.challenger_id
            )
            lines.append(f"Open challenge #{challenge.challenge_id} with <@{other_id}>")
        if not lines:
            lines.append("No running games. Start one with `/challenge`.")
        await interaction.response.send_message(
            text.join_lines(lines), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


def challenge_text(challenge: Challenge, clock: str) -> str:
    """The public text of a challenge."""
    options = challenge.options
    colour = {"pink": "Pink (moves first)", "blue": "Blue", "random": "a random colour"}
    settings = text.describe_options(
        width=options.width,
        height=options.height,
        rules=options.rules,
        start=options.start,
        clock=options.clock,
        rated=options.rated,
    ).replace("server's default clock", f"{clock} a move")
    return (
        f"<@{challenge.opponent_id}>, <@{challenge.challenger_id}> challenges you to Dots "
        f"({settings}; the challenger plays {colour[options.colour]}). "
        f"The challenge expires in 10 minutes."
    )


DYNAMIC_ITEMS = (ChallengeButton, ConfirmButton, GamePicker)
