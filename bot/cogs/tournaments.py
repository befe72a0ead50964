"""Tournaments: ``/tournament create|join|leave|start|withdraw|standings|pairings|list|
settings``, the Join and Leave buttons under an announcement, and the posts of each step
(``bot.cogs.tournament_posts``). A tournament lives in the database (``bot.games``): its
buttons work after a restart, and its rounds run without anyone typing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import (
    defer,
    in_time,
    post_answer,
    public_locale,
    reply,
    update_clicked,
)
from bot.cogs.locales import user_locale
from bot.cogs.options import (
    OPTION_CHOICES,
    OPTION_DESCRIPTIONS,
    TAKEBACKS_DESCRIPTION,
    game_options,
)
from bot.cogs.persistent import ActionButton, CustomId
from bot.cogs.posting import send_to_game
from bot.cogs.posts import create_thread, edit_message, fit_list
from bot.cogs.tournament_posts import (
    ThreadPacer,
    announcement_text,
    chunks,
    deliver,
    format_words,
    open_round_threads,
    result_words,
    standings_post,
)
from bot.games import PostKind, Refusal
from bot.games.pairing import Format
from bot.games.tournament_models import Forfeit, Tournament, TournamentNews
from bot.games.tournaments import TournamentPlan
from bot.i18n import N_, SOURCE, _, translate
from bot.outbox import delivering

log = logging.getLogger(__name__)

T = TypeVar("T")

FORMAT_CHOICES = [
    app_commands.Choice(name=N_("Swiss"), value=Format.SWISS.value),
    app_commands.Choice(name=N_("round robin"), value=Format.ROUND_ROBIN.value),
]
BYE_CHOICES = [
    app_commands.Choice(name=N_("a win: 1 point"), value="1"),
    app_commands.Choice(name=N_("a draw: ½ point"), value="0.5"),
    app_commands.Choice(name=N_("nothing: 0 points"), value="0"),
]
GROUP = N_("Swiss and round-robin tournaments that run themselves")
WHICH = N_("The tournament's number (default: the open one)")


async def announce_forfeit(bot: GameBot, forfeit: Forfeit) -> None:
    """In the forfeited game's thread: who withdrew, and that the other wins by forfeit."""
    locale = await bot.locales.of_place(forfeit.view.guild_id, forfeit.view.channel_id)
    said = _(
        "<@{loser}> withdrew from the tournament: <@{winner}> wins this game by forfeit.",
        loser=forfeit.loser_id,
        winner=forfeit.winner_id,
    )
    await send_to_game(bot, forfeit.view, translate(locale, said))


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may manage the server (and so every tournament in it)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


@app_commands.guild_only()
class Tournaments(commands.GroupCog, group_name="tournament", group_description=GROUP):
    """``/tournament``, and the posts of the tournaments' steps."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.pacer = ThreadPacer()
        super().__init__()

    async def cog_load(self) -> None:
        """A kill between a game's end and its tournament's timer: fire the timer now."""
        repaired = await self.bot.service.repair_tournaments()
        if repaired:
            log.info("tournaments whose round had ended: %d", repaired)

    @commands.Cog.listener()
    async def on_dots_tournament_news(self, news: TournamentNews) -> None:
        """Post a step's news (with the nonces of its outbox row)."""
        if news.boards:
            await open_round_threads(self.bot, news.boards, self.pacer)
        async with delivering(self.bot.outbox, PostKind.TOURNAMENT):
            await deliver(self.bot, news)
            if news.paired == 1 or news.is_cancelled:
                await self._refresh_announcement(news.tournament)

    async def _refresh_announcement(self, tournament: Tournament) -> None:
        if tournament.message_id is None:
            return
        locale = await self.bot.locales.of_guild(tournament.guild_id)
        channel = self.bot.get_partial_messageable(
            tournament.channel_id, guild_id=tournament.guild_id
        )
        try:
            await edit_message(
                channel.get_partial_message(tournament.message_id),
                announcement_text(tournament, locale),
                view=entry_view(tournament.tournament_id, locale=locale, disabled=True),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not edit the announcement of tournament %s", tournament.tournament_id)

    @app_commands.command(name="create", description=N_("Create a tournament in this channel"))
    @app_commands.describe(
        # The tournament's shape, then what every game of it is played with, then its rounds.
        format=N_("Swiss (paired by score) or round robin (everyone plays everyone)"),
        rounds=N_("Swiss: how many rounds (default 3)"),
        double=N_("Round robin: play everyone twice, colours swapped (default no)"),
        rated=N_("Whether the games count for the leaderboard (default yes)"),
        takebacks=TAKEBACKS_DESCRIPTION,
        **{k: v for k, v in OPTION_DESCRIPTIONS.items() if k != "colour"},
        round_hours=N_("Hours each round lasts: its games must end by then (default 48)"),
        registration_hours=N_("Hours registration stays open (default: until you start it)"),
        players=N_("The most players it takes (default 16)"),
        bye=N_("Points for a bye (default 1)"),
    )
    @app_commands.choices(
        format=FORMAT_CHOICES,
        bye=BYE_CHOICES,
        **{k: v for k, v in OPTION_CHOICES.items() if k != "colour"},
    )
    async def create(  # noqa: PLR0917 (slash command options are positional)
        self,
        interaction: discord.Interaction[Any],
        format: str,
        rounds: int = 3,
        double: bool = False,
        round_hours: int = 48,
        registration_hours: int | None = None,
        players: int = 16,
        bye: str = "1",
        size: str = "10x10",
        rules: str = "standard",
        start: str = "empty",
        clock: int | None = None,
        time: str | None = None,
        rated: bool = True,
        takebacks: bool | None = None,
    ) -> None:
        """Announce a tournament with Join and Leave buttons, and open its thread."""
        options = game_options(
            size, rules, start, clock, "random", rated=rated, time=time, takebacks=takebacks
        )
        if not 1 <= round_hours <= 24 * 60:
            raise Refusal(N_("a round lasts from 1 hour to 60 days"))
        if registration_hours is not None and not 1 <= registration_hours <= 24 * 30:
            raise Refusal(N_("registration lasts from 1 hour to 30 days"))
        plan = TournamentPlan(
            format=Format(format),
            options=options,
            round_length=timedelta(hours=round_hours),
            registration=None
            if registration_hours is None
            else timedelta(hours=registration_hours),
            max_players=players,
            rounds=rounds,
            cycles=2 if double else 1,
            bye_points=float(bye),
        )
        assert interaction.guild_id is not None and interaction.channel_id is not None
        tournament, deferred = await in_time(
            interaction,
            self.bot.service.create_tournament(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                creator_id=interaction.user.id,
                is_admin=is_admin(interaction),
                plan=plan,
            ),
        )
        locale = await public_locale(interaction)
        message = await post_answer(
            interaction,
            deferred,
            announcement_text(tournament, locale),
            view=entry_view(tournament.tournament_id, locale=locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if message is None:
            return
        thread_id = None
        try:
            name = translate(locale, _("Tournament #{id}", id=tournament.tournament_id))
            thread = await create_thread(
                message, name=f"{name}: {format_words(tournament, locale)}"
            )
            thread_id = thread.id
        except discord.HTTPException:
            log.info(
                "no thread for tournament %s: posting in its channel", tournament.tournament_id
            )
        await self.bot.service.set_tournament_messages(
            tournament_id=tournament.tournament_id, thread_id=thread_id, message_id=message.id
        )

    async def _which(self, interaction: discord.Interaction[Any], tournament: int | None) -> int:
        """The tournament a command names, or the server's only open one.

        Raises:
            Refusal: none named and not exactly one open.
        """
        if tournament is not None:
            return tournament
        assert interaction.guild_id is not None
        found = await self.bot.service.list_tournaments(guild_id=interaction.guild_id)
        if len(found) == 1:
            return found[0].tournament_id
        if not found:
            raise Refusal(N_("there is no open tournament in this server"))
        raise Refusal(
            _(
                "several tournaments are open here: say which with `tournament` ({ids})",
                ids=", ".join(f"#{t.tournament_id}" for t in found),
            )
        )

    async def _look(
        self,
        interaction: discord.Interaction[Any],
        tournament: int | None,
        more: Callable[[Tournament], Awaitable[T]],
    ) -> tuple[Tournament, T, bool | None, str]:
        """Read the tournament a command names and ``more`` about it (answering in time):
        both, whether the answer was deferred, and the channel's language."""
        tid = await self._which(interaction, tournament)
        guild_id = interaction.guild_id
        service = self.bot.service

        async def read() -> tuple[Tournament, T]:
            found = await service.tournament(tournament_id=tid, guild_id=guild_id)
            return found, await more(found)

        (found, extra), deferred = await in_time(interaction, read())
        return found, extra, deferred, await public_locale(interaction)

    async def _act(
        self,
        interaction: discord.Interaction[Any],
        tournament: int | None,
        use_case: Callable[..., Awaitable[T]],
        **more: Any,
    ) -> tuple[int, T, bool | None, str]:
        """Run ``use_case`` by the member on the tournament a command names (answering in
        time): its id, what the use-case returned, whether the answer was deferred, and the
        channel's language."""
        tid = await self._which(interaction, tournament)
        assert interaction.guild_id is not None
        found, deferred = await in_time(
            interaction,
            use_case(
                tournament_id=tid,
                guild_id=interaction.guild_id,
                user_id=interaction.user.id,
                **more,
            ),
        )
        return tid, found, deferred, await public_locale(interaction)

    @app_commands.command(name="join", description=N_("Join a tournament"))
    @app_commands.describe(tournament=WHICH)
    async def join(
        self, interaction: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        """Join, and say so privately."""
        await self._entry(interaction, "join", await self._which(interaction, tournament))

    @app_commands.command(name="leave", description=N_("Leave a tournament before it starts"))
    @app_commands.describe(tournament=WHICH)
    async def leave(
        self, interaction: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        """Leave, and say so privately."""
        await self._entry(interaction, "leave", await self._which(interaction, tournament))

    async def _entry(self, interaction: discord.Interaction[Any], action: str, tid: int) -> None:
        tournament, deferred = await in_time(
            interaction, entry(interaction, action, tid), ephemeral=True
        )
        locale = user_locale(interaction)
        done = (
            _("You joined tournament #{id}.", id=tid)
            if action == "join"
            else _("You left tournament #{id}.", id=tid)
        )
        await reply(interaction, deferred, translate(locale, done), ephemeral=True)
        await refresh(self.bot, tournament)

    @app_commands.command(name="start", description=N_("Close registration and pair round 1"))
    @app_commands.describe(tournament=WHICH)
    async def start(
        self, interaction: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        """Start (its creator or an admin)."""
        service = self.bot.service
        tid, _started, deferred, locale = await self._act(
            interaction, tournament, service.start_tournament, is_admin=is_admin(interaction)
        )
        said = _("Tournament #{id} starts: round 1 is being paired.", id=tid)
        await reply(interaction, deferred, translate(locale, said))

    @app_commands.command(name="withdraw", description=N_("Withdraw from a running tournament"))
    @app_commands.describe(tournament=WHICH)
    async def withdraw(
        self, interaction: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        """Withdraw: this round's game forfeited, no more pairings."""
        tid, forfeits, deferred, locale = await self._act(
            interaction, tournament, self.bot.service.withdraw_from_tournament
        )
        said = _(
            "<@{user}> withdrew from tournament #{id}; their finished games stand.",
            user=interaction.user.id,
            id=tid,
        )
        await reply(
            interaction,
            deferred,
            translate(locale, said),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        for forfeit in forfeits:
            await announce_forfeit(self.bot, forfeit)

    @app_commands.command(name="standings", description=N_("A tournament's standings"))
    @app_commands.describe(tournament=WHICH)
    async def standings(
        self, interaction: discord.Interaction[Any], tournament: int | None = None
    ) -> None:
        """The standings as text and as a picture."""
        service = self.bot.service
        found, lines, deferred, locale = await self._look(
            interaction,
            tournament,
            lambda t: service.tournament_standings(tournament_id=t.tournament_id),
        )
        tid = found.tournament_id
        if not lines:
            said = _("Tournament #{id} has no standings yet.", id=tid)
            await reply(interaction, deferred, translate(locale, said))
            return
        closed = found.round if not found.is_open else found.round - 1
        if closed == 0:
            closed = found.round
        body, picture = await standings_post(self.bot, found, lines, closed, locale)
        if deferred is None:
            deferred = await defer(interaction)  # the picture takes a moment
        await reply(
            interaction,
            deferred,
            body,
            files=[picture],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="pairings", description=N_("A round's pairings and results"))
    @app_commands.describe(
        tournament=WHICH,
        round=N_("The round (default: the current one)"),
    )
    async def pairings(
        self,
        interaction: discord.Interaction[Any],
        tournament: int | None = None,
        round: int | None = None,
    ) -> None:
        """A round's boards: results once decided, else links to the games."""
        service = self.bot.service

        def which(t: Tournament) -> int:
            return t.round if round is None else round

        found, boards, deferred, locale = await self._look(
            interaction,
            tournament,
            lambda t: service.tournament_pairings(tournament_id=t.tournament_id, round_=which(t)),
        )
        tid, number = found.tournament_id, which(found)
        if not boards:
            said = _("Tournament #{id} has no round {round}.", id=tid, round=number)
            await reply(interaction, deferred, translate(locale, said))
            return
        lines = [translate(locale, _("**Tournament #{id}, round {round}**", id=tid, round=number))]
        for board in boards:
            if board.pink_points is not None or board.game_id is None:
                lines.append(result_words(board, locale))
            else:
                thread = f"https://discord.com/channels/{found.guild_id}/"
                view = await service.game(board.game_id)
                lines.append(
                    f"{board.board}. <@{board.pink_id}> – <@{board.blue_id}>: "
                    f"{thread}{view.thread_id or view.channel_id}"
                )
        await reply(
            interaction,
            deferred,
            chunks(lines)[0],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="list", description=N_("The open tournaments of this server"))
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        """One line per open tournament."""
        assert interaction.guild_id is not None
        found, deferred = await in_time(
            interaction, self.bot.service.list_tournaments(guild_id=interaction.guild_id)
        )
        locale = await public_locale(interaction)
        if not found:
            await reply(
                interaction,
                deferred,
                translate(locale, N_("There is no open tournament in this server.")),
            )
            return
        lines = []
        for t in found:
            state = (
                translate(locale, _("{n} joined, registration open", n=len(t.entrants)))
                if t.is_registering
                else translate(
                    locale, _("round {round} of {rounds}", round=t.round, rounds=t.rounds)
                )
            )
            lines.append(f"#{t.tournament_id}: {format_words(t, locale)} ({state})")
        await reply(interaction, deferred, fit_list(lines, 1900, separator="\n", locale=locale))

    @app_commands.command(
        name="settings", description=N_("Who may create tournaments here, and how many at once")
    )
    @app_commands.describe(
        anyone=N_("Whether anyone may create one (else only admins)"),
        most=N_("How many may be open at once (1 to 20)"),
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        anyone: bool | None = None,
        most: int | None = None,
    ) -> None:
        """Show, and for an admin change, the server's rule for tournaments."""
        assert interaction.guild_id is not None
        service = self.bot.service
        if (anyone is not None or most is not None) and not is_admin(interaction):
            raise Refusal(N_("only members with Manage Server can change this"))
        rule, deferred = await in_time(
            interaction,
            service.set_tournament_rule(
                guild_id=interaction.guild_id, anyone_creates=anyone, max_open=most
            ),
            ephemeral=True,
        )
        locale = user_locale(interaction)
        who = N_("anyone") if rule.anyone_creates else N_("the server's admins")
        said = _(
            "Tournaments here: created by {who}; at most {n} open at once.",
            who=translate(locale, who),
            n=rule.max_open,
        )
        await reply(interaction, deferred, translate(locale, said), ephemeral=True)


async def entry(interaction: discord.Interaction[Any], action: str, tid: int) -> Tournament:
    """Join or leave for the clicking member."""
    service = bot_of(interaction).service
    assert interaction.guild_id is not None
    change = service.join_tournament if action == "join" else service.leave_tournament
    return await change(
        tournament_id=tid, guild_id=interaction.guild_id, user_id=interaction.user.id
    )


async def refresh(bot: GameBot, tournament: Tournament) -> None:
    """Show the entrants in the announcement."""
    if tournament.message_id is None:
        return
    locale = await bot.locales.of_guild(tournament.guild_id)
    channel = bot.get_partial_messageable(tournament.channel_id, guild_id=tournament.guild_id)
    try:
        await edit_message(
            channel.get_partial_message(tournament.message_id),
            announcement_text(tournament, locale),
            view=entry_view(tournament.tournament_id, locale=locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.info("could not edit the announcement of tournament %s", tournament.tournament_id)


class EntryButton(
    ActionButton,
    custom_id=CustomId("dots:tournament", ("join", "leave")),
):
    """Join or Leave a tournament taking entrants."""

    LABELS: ClassVar[dict[str, str]] = {"join": N_("Join"), "leave": N_("Leave")}
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
    }

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Join or leave, then show the entrants in the announcement."""
        tournament, deferred = await in_time(
            interaction, entry(interaction, self.action, self.key), update=True
        )
        locale = await public_locale(interaction)
        await update_clicked(
            interaction,
            deferred,
            announcement_text(tournament, locale),
            view=entry_view(tournament.tournament_id, locale=locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )


def entry_view(tid: int, *, locale: str = SOURCE, disabled: bool = False) -> discord.ui.View:
    """The Join and Leave buttons under an announcement."""
    view = discord.ui.View(timeout=None)
    for action in ("join", "leave"):
        view.add_item(EntryButton(action, tid, locale=locale, disabled=disabled))
    return view


__all__ = ["EntryButton", "Tournaments"]
