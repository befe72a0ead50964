"""The `dots-bot` command: run the Discord bot, or play in the terminal (`dots-bot local`).

With a token in ``.env`` (or the environment) it connects to Discord. Without one it explains
how to get one and how to play locally, and offers to start a local game at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shlex
import shutil
import signal
import sys
from collections.abc import Callable, Sequence

import aiohttp
import discord
from discord.ext import commands

from bot import text
from bot.app import create_bot
from bot.config import ConfigError, Settings, database_problem, shown_database
from bot.i18n import locale_from_environment, translate
from bot.local import LocalOptions, add_arguments, options_from, play_local
from bot.logs import redact_handlers
from bot.storage import UnreachableDatabaseError, UnusableDatabaseError

log = logging.getLogger("bot")

# The gateway's close codes for a token it does not accept, and for bad shard settings.
GATEWAY_AUTHENTICATION_FAILED = 4004
GATEWAY_INVALID_SHARD = 4010
GATEWAY_SHARDING_REQUIRED = 4011


def build_parser() -> argparse.ArgumentParser:
    """The command line of `dots-bot`."""
    parser = argparse.ArgumentParser(
        prog="dots-bot",
        description="Dots (kropki) on Discord. Settings come from .env: see .env.example.",
    )
    commands = parser.add_subparsers(dest="command", metavar="{run,local}")
    commands.add_parser("run", help="run the Discord bot (the default; needs DISCORD_TOKEN)")
    local = commands.add_parser(
        "local",
        help="play in this terminal, two at one keyboard or against the computer (no Discord)",
    )
    add_arguments(local)
    local.set_defaults(usage_error=local.error)  # errors in its options show its own usage
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `dots-bot` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"dots-bot: {error}", file=sys.stderr)
        return 2
    if args.command == "local":
        try:
            options = options_from(args, database=str(settings.database))
        except ValueError as error:
            args.usage_error(str(error))
        return run_local(options)
    if not settings.token:
        return no_token(settings)
    return run_bot(settings)


def no_token(
    settings: Settings,
    *,
    read: Callable[[str], str] = input,
    interactive: bool | None = None,
) -> int:
    """Explain how to get a token and how to play locally; offer a local game on a terminal."""
    print(translate(locale_from_environment(), text.TOKEN_HELP, command=command_name()))
    if interactive is None:
        interactive = sys.stdin.isatty()
    if not interactive:
        return 1
    try:
        answer = read("\nStart a local game now? [y/N] ").strip().lower()
    except (EOFError, KeyboardInterrupt):
        print()
        return 1
    if answer not in ("y", "yes"):
        return 1
    args = build_parser().parse_args(["local"])
    return run_local(options_from(args, database=str(settings.database)))


def command_name(argv: Sequence[str] | None = None, orig_argv: Sequence[str] | None = None) -> str:
    """How to start this program again, as the user started it: ``dots-bot`` when that is
    what the PATH finds, else the script's path as typed (``.venv/bin/dots-bot``), or
    ``python -m bot.main`` (``argv``/``orig_argv``: ``sys.argv``/``sys.orig_argv``)."""
    argv = sys.argv if argv is None else argv
    orig_argv = sys.orig_argv if orig_argv is None else orig_argv
    module = list(orig_argv).index("-m", 1) if "-m" in orig_argv[1:] else None
    if module is not None and orig_argv[module + 1 : module + 2] == ["bot.main"]:
        return shlex.join(orig_argv[: module + 2])  # the interpreter and the module, as typed
    script = argv[0] if argv else ""
    name = os.path.basename(script)
    if not name.startswith("dots-bot"):  # started some other way (a test, an embedding)
        return "dots-bot"
    found = shutil.which(name)
    if found is not None and os.path.exists(script) and os.path.samefile(found, script):
        return name
    return shlex.quote(script)


def run_local(options: LocalOptions) -> int:
    """Play in the terminal; an unexpected failure is one line, not a traceback."""
    try:
        return asyncio.run(play_local(options, command=f"{command_name()} local"))
    except (UnusableDatabaseError, UnreachableDatabaseError) as error:
        words = database_problem(options.database, error, other="give another file with --db")
        print(f"dots-bot local: {words[0].lower()}{words[1:]}", file=sys.stderr)
        return 1
    except Exception as error:
        logging.getLogger("bot.local").debug("terminal mode failed", exc_info=error)
        print(
            f"dots-bot local stopped: {type(error).__name__}: {error} "
            f"(database: {shown_database(options.database)}; DOTS_LOG_LEVEL=DEBUG shows "
            "details).",
            file=sys.stderr,
        )
        return 1


def run_bot(settings: Settings) -> int:
    """Run the bot until it is stopped; a friendly message (never the token) when it fails."""
    setup_logging(settings)
    try:
        return asyncio.run(serve(settings))
    except KeyboardInterrupt:
        log.info("stopped")
        return 0


def setup_logging(settings: Settings) -> None:
    """discord.py's log handler on the root logger, with every secret redacted from it."""
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level), root=True)
    # At DEBUG discord.py logs interaction tokens (in URLs and events): redact them, and the
    # bot token should it ever appear.
    redact_handlers(logging.getLogger(), secrets=[settings.token])


def stop_on_sigterm(bot: commands.Bot) -> None:
    """Close the bot as Ctrl-C does when the system stops it (SIGTERM: systemd, Docker, a
    process manager): the interactions under way finish and the posts owed go out before
    the database closes. A second SIGTERM kills it as before, as does SIGTERM where signals
    cannot be handled (Windows)."""
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []  # the task, kept until it is done

    def stop() -> None:
        log.info("SIGTERM: stopping (a second SIGTERM ends the process at once)")
        loop.remove_signal_handler(signal.SIGTERM)
        stopping.append(loop.create_task(bot.close()))

    with contextlib.suppress(NotImplementedError, RuntimeError):
        loop.add_signal_handler(signal.SIGTERM, stop)


async def serve(settings: Settings, *, bot: commands.Bot | None = None) -> int:
    """Connect and run the bot until it is closed; the exit status, with one clear log line
    (never a traceback, never the token) for each way starting can fail."""
    bot = bot if bot is not None else create_bot(settings, cards=settings.cards)
    stop_on_sigterm(bot)
    try:
        async with bot:
            await bot.start(settings.token)
    except discord.LoginFailure:
        log.error(
            "Discord refused the token (DISCORD_TOKEN). Copy it again from the developer "
            "portal (Bot > Reset Token) into .env."
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused an intent this bot asks for; enable it in the portal.")
        return 1
    except discord.ConnectionClosed as error:
        if error.code == GATEWAY_AUTHENTICATION_FAILED:
            log.error(
                "Discord's gateway refused the token (DISCORD_TOKEN; close code 4004): it "
                "was probably reset. Copy the new one from the developer portal into .env."
            )
        elif error.code == GATEWAY_INVALID_SHARD:
            log.error(
                "Discord's gateway refused the shard settings (close code 4010, invalid "
                "shard): check DOTS_SHARD_COUNT and DOTS_SHARD_IDS."
            )
        elif error.code == GATEWAY_SHARDING_REQUIRED:
            log.error(
                "Discord requires more shards for this many servers (close code 4011): set "
                "DOTS_SHARD_COUNT (Discord wants at most 2,500 servers a shard), or unset it "
                "to use Discord's recommended count."
            )
        else:
            log.error(
                "Discord closed the connection (close code %s: %s) and the bot stopped.",
                error.code,
                _safe(error, settings.token),
            )
        return 1
    except (UnusableDatabaseError, UnreachableDatabaseError) as error:
        log.error("%s", database_problem(settings.database, error))
        return 1
    except (TimeoutError, aiohttp.ClientError, OSError) as error:
        log.error(
            "Could not reach Discord (%s). Check the network and try again.",
            _safe(error, settings.token),
        )
        return 1
    except discord.HTTPException as error:
        log.error(
            "Discord answered with an error: %s %s", error.status, _safe(error, settings.token)
        )
        return 1
    return 0


def _safe(error: BaseException, token: str) -> str:
    """An error's message for the log, with the token (should it appear) blanked out."""
    message = str(error) or type(error).__name__
    return message.replace(token, "***") if token else message


if __name__ == "__main__":
    sys.exit(main())
