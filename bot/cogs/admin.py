"""Server admin commands (Manage Server): cancel a game, the game channel, the default clock
and the per-user limits, the channel of the puzzle of the day."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.client import GameBot
from bot.cogs.interactions import in_time, reply
from bot.cogs.locales import user_locale
from bot.cogs.options import CLOCK_CHOICES, clock_option
from bot.cogs.posting import send_to_game
from bot.games import GuildSettings
from bot.games.challenges import UserLimits
from bot.i18n import LANGUAGE_NAMES, LOCALES, N_, SOURCE, _, translate

Limit = app_commands.Range[int, 1, 1000]

# "server": follow the server's own language (Discord's "Server Primary Language").
FOLLOW_SERVER = "server"
LANGUAGE_CHOICES = [
    app_commands.Choice(name=N_("the server's own language"), value=FOLLOW_SERVER),
    *(app_commands.Choice(name=LANGUAGE_NAMES[locale], value=locale) for locale in LOCALES),
]


class NotAnAdmin(app_commands.CheckFailure):
    """The member lacks Manage Server."""


def is_server_admin(interaction: discord.Interaction[Any]) -> bool:
    """The runtime check behind the default permission (server admins can override that one).

    Raises:
        NotAnAdmin: the member lacks Manage Server.
    """
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise NotAnAdmin(N_("only members with Manage Server can use /dots-admin"))
    return True


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class Admin(
    commands.GroupCog,
    group_name="dots-admin",
    group_description=N_("Server settings and game moderation (Manage Server)"),
):
    """`/dots-admin cancel` and `/dots-admin settings`."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every admin command needs Manage Server, checked at run time too."""
        return is_server_admin(interaction)

    @app_commands.command(name="cancel", description=N_("Cancel a running game (no result)"))
    @app_commands.describe(game=N_("Game number"))
    async def cancel(self, interaction: discord.Interaction[Any], game: int) -> None:
        """Abort a running game of this server: no result, no rating change."""
        assert interaction.guild_id is not None
        view, deferred = await in_time(
            interaction,
            self.bot.service.admin_cancel(game_id=game, guild_id=interaction.guild_id),
            ephemeral=True,
        )
        cancelled = _("Game #{game_id} is cancelled.", game_id=game)
        await reply(
            interaction, deferred, translate(user_locale(interaction), cancelled), ephemeral=True
        )
        public = _(
            "Game #{game_id} was cancelled by {user}: no result, no rating change.",
            game_id=game,
            user=interaction.user.mention,
        )
        locale = await self.bot.locales.of_place(view.guild_id, view.channel_id)
        await send_to_game(self.bot, view, translate(locale, public))

    @app_commands.command(
        name="settings",
        description=N_("The channel for game threads, the clock, the limits, the language"),
    )
    @app_commands.describe(
        channel=N_("The channel where game threads are opened (default: where challenged)"),
        clock=N_("The default time for each move"),
        max_challenges=N_("Open challenges one member may have at once (default 10)"),
        max_games=N_("Running games one member may have at once (default 25)"),
        max_computer_games=N_("Running games against the computer per member (default 5)"),
        language=N_("The language of the bot's posts in games (default: the server's own)"),
    )
    @app_commands.choices(clock=CLOCK_CHOICES, language=LANGUAGE_CHOICES)
    async def settings(  # noqa: PLR0917 (slash command options are positional)
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel | None = None,
        clock: int | None = None,
        max_challenges: Limit | None = None,
        max_games: Limit | None = None,
        max_computer_games: Limit | None = None,
        language: str | None = None,
    ) -> None:
        """Show or change the server's game channel, default clock, per-user limits and the
        language of its public posts."""
        assert interaction.guild_id is not None
        service = self.bot.service
        guild_id = interaction.guild_id

        async def work() -> tuple[GuildSettings, UserLimits, str | None]:
            if language is not None:
                chosen = None if language == FOLLOW_SERVER else language
                await self.bot.locales.choose(guild_id, chosen)
            else:
                chosen = await self.bot.locales.chosen(guild_id)
            if channel is None and clock is None:
                current = await service.guild_settings(guild_id=guild_id)
            else:
                current = await service.set_guild_settings(
                    guild_id=guild_id,
                    game_channel_id=channel.id if channel else None,
                    default_clock=clock_option(clock),
                )
            if max_challenges is None and max_games is None and max_computer_games is None:
                limits = await service.user_limits(guild_id=guild_id)
            else:
                limits = await service.set_user_limits(
                    guild_id=guild_id,
                    challenges=max_challenges,
                    games=max_games,
                    computer=max_computer_games,
                )
            return current, limits, chosen

        (current, limits, chosen), deferred = await in_time(interaction, work(), ephemeral=True)
        locale = user_locale(interaction)
        if current.game_channel_id:
            where = f"<#{current.game_channel_id}>"
        else:
            where = translate(locale, N_("where challenged"))
        if chosen is None:
            posts = translate(locale, N_("the server's own language"))
        else:
            posts = LANGUAGE_NAMES[chosen]
        settings = _(
            "Game threads: {where}. Default clock: {clock} a move. {limits} "
            "Language of the posts in games: {language}.",
            where=where,
            clock=text.format_duration(current.default_clock, locale=locale),
            limits=describe_limits(limits, locale),
            language=posts,
        )
        await reply(interaction, deferred, translate(locale, settings), ephemeral=True)

    @app_commands.command(
        name="daily-puzzle", description=N_("A puzzle posted every day in a channel, or none")
    )
    @app_commands.describe(
        channel=N_("The channel for the puzzle of the day (the first is posted at once)"),
        off=N_("Post no more puzzles of the day"),
    )
    async def daily_puzzle(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel | None = None,
        off: bool = False,
    ) -> None:
        """Show, set or turn off the server's puzzle of the day."""
        assert interaction.guild_id is not None
        service, guild_id = self.bot.service, interaction.guild_id
        if off:
            work = service.set_daily_puzzle(guild_id=guild_id, channel_id=None)
        elif channel is not None:
            work = service.set_daily_puzzle(guild_id=guild_id, channel_id=channel.id)
        else:
            work = service.daily_puzzle(guild_id=guild_id)
        daily, deferred = await in_time(interaction, work, ephemeral=True)
        if daily is not None:
            due = daily.next_due or service.now().timestamp()
            said = _("The puzzle of the day is posted in <#{channel}>; the next one <t:{t}:R>.",
                     channel=daily.channel_id, t=int(due))  # fmt: skip
        elif off:
            said = N_("The puzzle of the day is off.")
        else:
            said = N_("There is no puzzle of the day in this server: choose its channel.")
        await reply(
            interaction, deferred, translate(user_locale(interaction), said), ephemeral=True
        )


def describe_limits(limits: UserLimits, locale: str = SOURCE) -> str:
    """The per-user limits in a sentence."""
    return translate(
        locale,
        _(
            "Each member may have at most {challenges} open challenges, {games} running games "
            "and {computer} games against the computer.",
            challenges=limits.challenges,
            games=limits.games,
            computer=limits.computer,
        ),
    )
