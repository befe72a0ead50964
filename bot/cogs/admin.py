"""Server admin commands (Manage Server): cancel a game, the game channel, the default clock
and the per-user limits."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.common import GameBot, in_time, reply, send_to_game
from bot.cogs.options import CLOCK_CHOICES, clock_option
from bot.games import GuildSettings
from bot.games.challenges import UserLimits

Limit = app_commands.Range[int, 1, 1000]


class NotAnAdmin(app_commands.CheckFailure):
    """The member lacks Manage Server."""


def is_server_admin(interaction: discord.Interaction[Any]) -> bool:
    """The runtime check behind the default permission (server admins can override that one).

    Raises:
        NotAnAdmin: the member lacks Manage Server.
    """
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise NotAnAdmin("only members with Manage Server can use /dots-admin")
    return True


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class Admin(
    commands.GroupCog,
    group_name="dots-admin",
    group_description="Server settings and game moderation (Manage Server)",
):
    """`/dots-admin cancel` and `/dots-admin settings`."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Every admin command needs Manage Server, checked at run time too."""
        return is_server_admin(interaction)

    @app_commands.command(name="cancel", description="Cancel a running game (no result)")
    @app_commands.describe(game="Game number")
    async def cancel(self, interaction: discord.Interaction[Any], game: int) -> None:
        """Abort a running game of this server: no result, no rating change."""
        assert interaction.guild_id is not None
        view, deferred = await in_time(
            interaction,
            self.bot.service.admin_cancel(game_id=game, guild_id=interaction.guild_id),
            ephemeral=True,
        )
        await reply(interaction, deferred, f"Game #{game} is cancelled.", ephemeral=True)
        await send_to_game(
            self.bot,
            view,
            f"Game #{game} was cancelled by {interaction.user.mention}: no result, "
            "no rating change.",
        )

    @app_commands.command(
        name="settings", description="The channel for game threads, the clock, the limits"
    )
    @app_commands.describe(
        channel="The channel where game threads are opened (default: where challenged)",
        clock="The default time for each move",
        max_challenges="Open challenges one member may have at once (default 10)",
        max_games="Running games one member may have at once (default 25)",
        max_computer_games="Running games against the computer per member (default 5)",
    )
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def settings(  # noqa: PLR0917 (slash command options are positional)
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel | None = None,
        clock: int | None = None,
        max_challenges: Limit | None = None,
        max_games: Limit | None = None,
        max_computer_games: Limit | None = None,
    ) -> None:
        """Show or change the server's game channel, default clock and per-user limits."""
        assert interaction.guild_id is not None
        service = self.bot.service
        guild_id = interaction.guild_id

        async def work() -> tuple[GuildSettings, UserLimits]:
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
            return current, limits

        (current, limits), deferred = await in_time(interaction, work(), ephemeral=True)
        where = f"<#{current.game_channel_id}>" if current.game_channel_id else "where challenged"
        await reply(
            interaction,
            deferred,
            f"Game threads: {where}. Default clock: "
            f"{text.format_duration(current.default_clock)} a move. {describe_limits(limits)}",
            ephemeral=True,
        )


def describe_limits(limits: UserLimits) -> str:
    """The per-user limits in a sentence."""
    return (
        f"Each member may have at most {limits.challenges} open challenges, "
        f"{limits.games} running games and {limits.computer} games against the computer."
    )
