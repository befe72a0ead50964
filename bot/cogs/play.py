"""Playing: /challenge, /move, /end, /resign, /board and /games (the cog).

The buttons these commands post, and the actions both run, are in ``bot.cogs.buttons``; the
options of a new game in ``bot.cogs.options``; the start of a game in ``bot.cogs.starts``.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.buttons import ask_which_game, challenge_view, run_action
from bot.cogs.common import (
    GameBot,
    SeveralGames,
    bot_of,
    display_name,
    in_time,
    jump_url,
    mentions,
    post_answer,
    public_locale,
    resolve_game,
    suggest_points,
    user_locale,
)
from bot.cogs.options import (
    OPTION_CHOICES,
    OPTION_DESCRIPTIONS,
    TAKEBACKS_DESCRIPTION,
    game_options,
)
from bot.cogs.posts import CHOICE_NAME, CHOICES, answer, fit_name
from bot.cogs.starts import start_against_computer
from bot.games import Challenge, Refusal
from bot.games.computer import DEFAULT_LEVEL
from bot.i18n import N_, SOURCE, _, translate
from bot.option_words import words_of
from engine import Colour

log = logging.getLogger(__name__)

MAX_TYPED_POINT = 40


async def game_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The user's running games in this server for a ``game`` option, theirs to move first."""
    games = await bot_of(interaction).service.running_games(
        user_id=interaction.user.id, guild_id=interaction.guild_id
    )
    games.sort(key=lambda view: view.to_move_id != interaction.user.id)
    choices = []
    for view in games:
        colour = view.player_of(interaction.user.id)
        opponent = view.user_of(colour.opponent) if colour else view.blue_id
        locale = user_locale(interaction)
        mine = view.to_move_id == interaction.user.id
        turn = translate(locale, N_("your turn") if mine else N_("their turn"))
        name = await display_name(bot_of(interaction), opponent, locale)
        label = translate(
            locale, _("#{game_id} vs {name} ({turn})", game_id=view.game_id, name=name, turn=turn)
        )
        if current.strip().lstrip("#") in str(view.game_id) or current.lower() in label.lower():
            choices.append(
                app_commands.Choice(name=fit_name(label, CHOICE_NAME), value=view.game_id)
            )
    return choices[:CHOICES]


# -- the cog --------------------------------------------------------------------------------


class Play(commands.Cog):
    """Challenge, move, end, resign, board, games."""

    def __init__(self, bot: GameBot) -> None:
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

    @app_commands.command(name="challenge", description=N_("Challenge someone to a game of Dots"))
    @app_commands.guild_only()
    @app_commands.describe(
        opponent=N_("Who you want to play (leave it out: anyone here may accept)"),
        rated=N_("Whether the game counts for the leaderboard (default yes)"),
        takebacks=TAKEBACKS_DESCRIPTION,
        **OPTION_DESCRIPTIONS,
    )
    @app_commands.choices(**OPTION_CHOICES)
    async def challenge(  # noqa: PLR0917 (slash command options are positional)
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.User | None = None,
        size: str = "10x10",
        rules: str = "standard",
        start: str = "empty",
        clock: int | None = None,
        colour: str = "random",
        rated: bool = True,
        time: str | None = None,
        takebacks: bool | None = None,
    ) -> None:
        """Post a challenge with Accept and Decline buttons; without an opponent, an open
        challenge that anyone here but the challenger may accept (no Decline); naming the bot
        itself starts a game against the computer (medium, unrated) instead."""
        options = game_options(
            size, rules, start, clock, colour, rated=rated, time=time, takebacks=takebacks
        )
        bot_user = self.bot.user
        if opponent is not None and bot_user is not None and opponent.id == bot_user.id:
            await start_against_computer(interaction, DEFAULT_LEVEL, replace(options, rated=False))
            return
        assert interaction.guild_id is not None and interaction.channel_id is not None
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        locale = await public_locale(interaction)

        async def open_challenge() -> tuple[Challenge, str]:
            challenge = await self.bot.service.challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=interaction.user.id,
                opponent_id=None if opponent is None else opponent.id,
                options=options,
                opponent_is_bot=opponent is not None and opponent.bot,
            )
            return challenge, await self._clock(challenge, locale)

        (challenge, clock), deferred = await in_time(interaction, open_challenge())
        message = await post_answer(
            interaction,
            deferred,
            challenge_text(challenge, clock, locale),
            view=challenge_view(
                challenge.challenge_id, open_to_anyone=opponent is None, locale=locale
            ),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[] if opponent is None else [opponent]
            ),
        )
        if message is not None:
            await self.bot.service.set_challenge_message(
                challenge_id=challenge.challenge_id, message_id=message.id
            )

    async def _clock(self, challenge: Challenge, locale: str = SOURCE) -> str:
        clock = challenge.options.clock
        if clock is None:
            settings = await self.bot.service.guild_settings(guild_id=challenge.guild_id)
            clock = settings.default_clock
        return text.format_duration(clock, locale=locale)

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
        await self._in_game(interaction, "move", point.strip()[:MAX_TYPED_POINT], game)

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
        await self._in_game(interaction, "end", "", game)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="resign", description="Resign a game (asks first)")
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Game number, if you play several"))
    async def resign(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Ask to confirm resigning."""
        await self._in_game(interaction, "resign", "", game)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(name="board", description="Show a game's current picture")
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Game number (default: this thread's game or your only game)"))
    async def board(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Show the picture of a game."""
        await self._in_game(interaction, "board", "", game)

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


def challenge_text(challenge: Challenge, clock: str, locale: str = SOURCE) -> str:
    """The public text of a challenge, in ``locale``."""
    options = challenge.options
    default = translate(locale, N_("server's default clock"))
    a_move = translate(locale, _("{clock} a move", clock=clock))
    settings = text.describe_game_options(options, locale).replace(default, a_move)
    colour = translate(locale, words_of(Colour(options.colour)).description)
    if challenge.opponent_id is None:
        message = _(
            "<@{challenger}> challenges anyone here to Dots ({settings}; the challenger plays "
            "{colour}). The first to accept plays. The challenge expires in 10 minutes.",
            challenger=challenge.challenger_id,
            settings=settings,
            colour=colour,
        )
    else:
        message = _(
            "<@{opponent}>, <@{challenger}> challenges you to Dots ({settings}; the challenger "
            "plays {colour}). The challenge expires in 10 minutes.",
            opponent=challenge.opponent_id,
            challenger=challenge.challenger_id,
            settings=settings,
            colour=colour,
        )
    return translate(locale, message)
