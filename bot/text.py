"""Message wording shared by the Discord adapter and the terminal: no Discord imports here.

Names are passed in as a mapping from colour to how to show the player (a mention on
Discord, "Pink"/"Blue" in the terminal), so the same sentences serve both. Sentences are
written with Discord's markdown (``**bold**``); the terminal passes everything it prints
through ``plain``. Every count goes through ``plural``, the one place that knows plural forms.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from bot.games.computer import COMPUTER_NAMES
from bot.games.game_clock import ClockState, GameClock, describe_left
from engine import Board, Game, Placement, Player, Point, Result, StopPreview, column_name

Names = Mapping[Player, str]

# The catalogue of the words. NullTranslations speaks English (one form for 1, another for the
# rest); a gettext catalogue with the plural forms of another language replaces it later.
TRANSLATIONS: gettext.NullTranslations = gettext.NullTranslations()


def plural(n: int, one: str, many: str) -> str:
    """``one`` or ``many`` as the catalogue chooses for ``n`` (gettext's ``ngettext``), with
    ``{n}`` filled in: ``plural(1, "{n} dot", "{n} dots") == "1 dot"``."""
    return TRANSLATIONS.ngettext(one, many, n).format(n=n)


# Discord's emphasis markup: **bold**, *italic*, ~~strike~~, ||spoiler||. Code spans (`undo`)
# stay: in a terminal they still read as "type this". Underscores stay too (__underline__ is
# never written here, and file names such as __pycache__ must survive).
_EMPHASIS = re.compile(
    r"\*\*(?=\S)(.+?)(?<=\S)\*\*"
    r"|~~(?=\S)(.+?)(?<=\S)~~"
    r"|\|\|(?=\S)(.+?)(?<=\S)\|\|"
    r"|(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])"
)


def plain(message: str) -> str:
    """``message`` without Discord's emphasis markup, for a terminal."""
    return _EMPHASIS.sub(lambda match: next(g for g in match.groups() if g is not None), message)


RULES_SUMMARY = (
    "**Dots** is played on the points of a grid. Pink moves first; each turn you place one dot.\n"
    "- Surround the other player's dots with a closed chain of your dots (diagonal links count) "
    "and they are **captured**: the ring becomes your **base** and you score one point for "
    "each of their dots inside.\n"
    "- A ring around nothing of theirs is an **empty ring**: it takes nothing, and its inside "
    "stays free. But a dot they play into it is captured at once, unless that dot closes a "
    "base of their own.\n"
    "- Nobody may play inside a base. Dots never move and are never removed.\n"
    "- **End** when you are done: you make no more moves and your opponent may play on alone. "
    "The game is over when both have ended, the board is full, or someone resigns. The higher "
    "score wins.\n"
    "- Under **grounding** rules ending is a **stop**: every dot of yours that is not linked to "
    "the edge of the board is handed to your opponent, and the game is over at once."
)

CLOCK_CHOICES: dict[str, timedelta] = {
    "30 seconds": timedelta(seconds=30),
    "1 minute": timedelta(minutes=1),
    "2 minutes": timedelta(minutes=2),
    "5 minutes": timedelta(minutes=5),
    "15 minutes": timedelta(minutes=15),
    "1 hour": timedelta(hours=1),
    "6 hours": timedelta(hours=6),
    "1 day": timedelta(days=1),
    "3 days": timedelta(days=3),
    "7 days": timedelta(days=7),
}

TOKEN_HELP = """\
No Discord token found (DISCORD_TOKEN in .env or the environment).

To run the bot on Discord:
  1. Open https://discord.com/developers/applications and click "New Application".
  2. In "Bot", click "Reset Token" and copy the token.
  3. Put it in a file named .env here:  DISCORD_TOKEN=your-token  (see .env.example).
  4. In "OAuth2 > URL Generator" tick "bot" and "applications.commands", give the bot
     "Send Messages", "Create Public Threads", "Send Messages in Threads", "Attach Files"
     and "Embed Links", open the URL and add the bot to your server.
  5. Run dots-bot again.

To play right here instead, two players at one keyboard, or you against the computer:
  dots-bot local            (dots-bot local --help for sizes, rules and start positions)
  dots-bot local --computer easy      (levels: easy, medium, hard)"""


def format_duration(duration: timedelta) -> str:
    """A short duration for players: ``"45 s"``, ``"2 min"``, ``"1 h 30 min"``, ``"3 days"``."""
    seconds = max(0, round(duration.total_seconds()))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min" + (f" {seconds} s" if seconds else "")
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h" + (f" {minutes} min" if minutes else "")
    days, hours = divmod(hours, 24)
    return plural(days, "{n} day", "{n} days") + (f" {hours} h" if hours else "")


def time_left(deadline: datetime | None, now: datetime) -> str:
    """How long until ``deadline``, or an empty string without one."""
    if deadline is None:
        return ""
    return format_duration(deadline - now)


def scores_line(game: Game) -> str:
    """Both scores, e.g. ``"Pink 3 · Blue 1"``."""
    return f"Pink {game.score(Player.PINK)} · Blue {game.score(Player.BLUE)}"


def capture_line(placement: Placement | None) -> str:
    """What a dot captured, e.g. ``"Pink captures 3."``; empty when it captured nothing."""
    if placement is None:
        return ""
    parts = []
    for player, gain in ((Player.PINK, placement.pink_gain), (Player.BLUE, placement.blue_gain)):
        if gain > 0:
            parts.append(f"{player.label} captures {gain}.")
    return " ".join(parts)


def describe_options(
    *,
    width: int,
    height: int,
    rules: str,
    start: str,
    clock: timedelta | None,
    rated: bool,
    game_clock: GameClock | None = None,
    takebacks: bool | None = None,
) -> str:
    """A game's settings in one line, e.g. ``"10×10, standard rules, 1 min a move, rated"``
    (a game clock instead of the move clock when there is one; takebacks when told)."""
    parts = [f"{width}×{height}", f"{rules} rules"]
    if start != "empty":
        parts.append(f"start: {start}")
    if game_clock is not None:
        parts.append(f"game clock {game_clock.name} ({game_clock.description})")
    else:
        parts.append(
            "server's default clock" if clock is None else f"{format_duration(clock)} a move"
        )
    parts.append("rated" if rated else "unrated")
    if takebacks is not None:
        parts.append("takebacks allowed" if takebacks else "no takebacks")
    return ", ".join(parts)


# -- takebacks and game clocks ---


def game_clock_line(clock: GameClock, state: ClockState, now: datetime) -> str:
    """Both players' time left on a game clock: ``"Game clock 5+5: Pink 4:59, Blue 5:00"``."""
    left = [f"{p.label} {describe_left(state.time_left(p, now))}" for p in Player]
    return f"Game clock {clock.name}: " + ", ".join(left)


def turn_line(game: Game, names: Names, *, left: str = "") -> str:
    """Whose turn it is (and how long they have), or the result once the game is over."""
    if game.result is not None:
        return result_line(game.result, names)
    mover = game.to_move
    assert mover is not None
    line = f"{mover.label} to move"
    if names[mover] != mover.label:
        line += f": {names[mover]}"
    if left:
        line += f" ({left} left)"
    return line + "."


def result_line(result: Result, names: Names) -> str:
    """The result as a sentence, with the winner's name: ``"Pink wins 5–3 (both ended). Well
    played, @ann!"``, ``"Draw 0–0 (both ended)."``."""
    text = result.describe()
    if result.winner is None:
        return text + "."
    return text + f". Well played, {names[result.winner]}!"


def action_line(game: Game, names: Names) -> str:
    """What the last action did, e.g. ``"Pink plays B7. Pink captures 3."``; the computer is
    named by its name alone (``"Computer (hard) plays D5."``)."""
    if not game.actions:
        return "The game starts."
    action = game.actions[-1]
    who = action.player.label
    if names[action.player] in COMPUTER_NAMES:
        who = names[action.player]
    elif names[action.player] != who:
        who += f" ({names[action.player]})"
    if action.kind == "dot" and action.point is not None:
        captured = capture_line(game.last_placement)
        return f"{who} plays {action.point.name}." + (f" {captured}" if captured else "")
    if action.kind == "resign":
        return f"{who} resigns."
    if action.kind == "time":
        if game.rules == "grounding":
            handed = plural(len(game.handed_over), "{n} dot handed over", "{n} dots handed over")
            return f"{who} ran out of time: that is a stop ({handed})."
        return f"{who} ran out of time and has ended."
    if game.rules == "grounding":
        return f"{who} stops: " + plural(
            len(game.handed_over),
            "{n} dot that is not grounded is handed over.",
            "{n} dots that are not grounded are handed over.",
        )
    return f"{who} ends and makes no more moves."


def play_on_line(game: Game, *, move_hint: str, end_hint: str) -> str:
    """After one player ended: that the other may play on alone, and how."""
    if game.is_over or not game.ended or game.to_move is None:
        return ""
    mover = game.to_move
    return (
        f"{mover.label} may play on alone, as long as they like ({move_hint}), "
        f"and finishes the game with {end_hint}."
    )


def end_confirmation(game: Game, player: Player, preview: StopPreview | None = None) -> str:
    """What ending means under the game's rules, for a confirmation prompt."""
    if game.rules != "grounding":
        text = (
            "End? You make no more moves; your score stands and your opponent may play on "
            "alone until they end too. This cannot be taken back."
        )
        if player.opponent in game.ended:
            text = "End? Your opponent has already ended, so this finishes the game."
        return text
    preview = preview or game.stop_preview(player)
    if not preview.allowed:
        return f"You cannot stop yet: {preview.reason}."
    text = "Stop? The game is over at once. " + plural(
        len(preview.dots),
        "{n} of your dots is not grounded and would be handed over (marked with a cross). ",
        "{n} of your dots are not grounded and would be handed over (marked with crosses). ",
    )
    text += f"Score after the stop: Pink {preview.pink} · Blue {preview.blue}."
    if preview.loses:
        text += " **Warning: you would lose the game.**"
    return text


def record_line(*, games: int, wins: int, losses: int, draws: int) -> str:
    """A player's record, e.g. ``"1 game: 1 won, 0 lost, 0 drawn"``."""
    return f"{plural(games, '{n} game', '{n} games')}: {wins} won, {losses} lost, {draws} drawn"


def rating_lines(
    changes: Sequence[tuple[str, float, float, bool]],
) -> list[str]:
    """Lines like ``"@ann 1500 → 1516 (+16, provisional)"`` from (name, before, after, prov)."""
    lines = []
    for name, before, after, provisional in changes:
        delta = round(after) - round(before)
        tail = ", provisional" if provisional else ""
        lines.append(f"{name}: {round(before)} → {round(after)} ({delta:+d}{tail})")
    return lines


BOARD_LEGEND = (
    "P/B: Pink's/Blue's dots · p/b: captured · +/-: inside a Pink/Blue base · .: free · "
    "[ ]: last dot"
)


def board_text(board: Board, *, last: Point | None = None) -> str:
    """The board as text with column letters and row numbers (row 1 at the bottom).

    ``P``/``B`` live dots, ``p``/``b`` captured ones, ``+``/``-`` empty points inside a Pink or
    Blue base, ``.`` free points (``BOARD_LEGEND`` says so for players); the dot at ``last`` is
    shown in brackets, ``[P]``.
    """
    rows = board.picture().splitlines()
    width = max(len(column_name(x)) for x in range(board.width)) + 1
    number_width = len(str(board.height))
    header = " " * number_width + "".join(column_name(x).rjust(width) for x in range(board.width))
    lines = [header]
    for index, row in enumerate(rows):
        y = board.height - 1 - index
        cells = [cell.rjust(width) for cell in row.split()]
        if last is not None and last.y == y:
            # Each cell has at least one space before it: the brackets take the space before the
            # marked cell and the one before the next cell, so every column stays in place.
            x = last.x
            cells[x] = cells[x][:-2] + "[" + cells[x][-1]
            if x + 1 < len(cells):
                cells[x + 1] = "]" + cells[x + 1][1:]
            else:
                cells[x] += "]"
        lines.append(f"{y + 1:>{number_width}}{''.join(cells)}")
    lines.append(header)
    return "\n".join(lines)


def last_dot(game: Game) -> Point | None:
    """The point of the last dot placed (by either player), None before the first."""
    for action in reversed(game.actions):
        if action.kind == "dot" and action.point is not None:
            return action.point
    return None


def describe_local_game(game: Game, *, opponent: str, moves: bool = True) -> str:
    """A terminal game in one line: ``"5×5, grounding rules, start: cross, you (Blue) against
    Computer (easy), 1 move so far"``; ``opponent`` is how to name who plays against whom."""
    parts = [f"{game.width}×{game.height}", f"{game.rules} rules", f"start: {game.start}"]
    parts.append(opponent)
    if moves:
        parts.append(plural(len(game.actions), "{n} move so far", "{n} moves so far"))
    return ", ".join(parts)


MESSAGE_LIMIT = 2000  # Discord refuses a message longer than this (error 50035)


def join_lines(lines: list[str], limit: int = MESSAGE_LIMIT) -> str:
    """``lines`` joined one per line, cut to fit in ``limit`` characters with a last line that
    says how many were left out."""
    kept: list[str] = []
    for count, line in enumerate(lines):
        tail = f"…and {len(lines) - count} more."
        if len("\n".join([*kept, line])) + 1 + len(tail) > limit and count < len(lines) - 1:
            return "\n".join([*kept, tail])
        kept.append(line)
    return "\n".join(kept)[:limit]
