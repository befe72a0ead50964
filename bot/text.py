"""Message wording shared by the Discord adapter and the terminal: no Discord imports here.

Names are passed in as a mapping from colour to how to show the player (a mention on
Discord, "Pink"/"Blue" in the terminal), so the same sentences serve both. Sentences are
written with Discord's markdown (``**bold**``); the terminal passes everything it prints
through ``plain``. Every sentence comes from the gettext catalogue (``bot.i18n``): each function
takes the reader's ``locale`` (English by default) and every count has its plural forms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from bot.error_words import error_message
from bot.games.computer import COMPUTER_NAMES
from bot.games.game_clock import ClockState, GameClock, describe_left
from bot.games.models import GameOptions, MoveOutcome
from bot.i18n import N_, SOURCE, Text, _, ngettext, translate
from bot.option_words import name_of
from engine import (
    ActionKind,
    EndReason,
    Game,
    NoStopsError,
    Placement,
    Player,
    Point,
    Result,
    Rules,
    Start,
    StopNotAllowedError,
    StopPreview,
)
from engine.game import STOP_MIN_DOTS

Names = Mapping[Player, str]

__all__ = ["error_message"]  # the adapters' way to the engine's words, with the rest here


def plural(n: int, one: str, many: str, *, locale: str = SOURCE) -> str:
    """``one`` or ``many`` as the catalogue chooses for ``n`` (gettext's ``ngettext``), with
    ``{n}`` filled in: ``plural(1, "{n} dot", "{n} dots") == "1 dot"``."""
    return translate(locale, ngettext(one, many, n))


def label(player: Player, locale: str = SOURCE) -> str:
    """The colour's name, ``"Pink"``/``"Blue"``, in ``locale``."""
    return translate(locale, N_("Pink") if player is Player.PINK else N_("Blue"))


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


RULES_SUMMARY = N_(
    "**Dots** is played on the points of a grid. Pink moves first; each turn you place one dot.\n"
    "- Surround the other player's dots with a closed chain of your dots (diagonal links count) "
    "and they are **captured**: the ring becomes your **base** and you score one point for "
    "each of their dots inside.\n"
    "- A ring around nothing of theirs is an **empty ring**: it takes nothing, and its inside "
    "stays free. But a dot they play into it is captured at once, unless that dot closes a "
    "base of their own.\n"
    "- Nobody may play inside a base. Dots never move and are never removed. Dots on the edge "
    "of the board can never be captured.\n"
    "- A bigger ring around a base takes the whole base back: everything inside it counts for "
    "the bigger ring's owner.\n"
    "- **End** when you are done: you make no more moves, but your dots and bases still count "
    "and can still be taken while your opponent plays on alone. The game is over when both "
    "have ended, the board is full, or someone resigns. The higher score wins.\n"
    "- Under **grounding** rules ending is a **stop**: every dot of yours that is not linked to "
    "the edge of the board is handed to your opponent, and the game is over at once."
)

CLOCK_CHOICES: dict[str, timedelta] = {
    N_("30 seconds"): timedelta(seconds=30),
    N_("1 minute"): timedelta(minutes=1),
    N_("2 minutes"): timedelta(minutes=2),
    N_("5 minutes"): timedelta(minutes=5),
    N_("15 minutes"): timedelta(minutes=15),
    N_("1 hour"): timedelta(hours=1),
    N_("6 hours"): timedelta(hours=6),
    N_("1 day"): timedelta(days=1),
    N_("3 days"): timedelta(days=3),
    N_("7 days"): timedelta(days=7),
}

TOKEN_HELP = N_("""\
No Discord token found (DISCORD_TOKEN in .env or the environment).

To run the bot on Discord:
  1. Open https://discord.com/developers/applications and click "New Application".
  2. In "Bot", click "Reset Token" and copy the token.
  3. Put it in a file named .env here:  DISCORD_TOKEN=your-token  (see .env.example).
  4. In "OAuth2 > URL Generator" tick "bot" and "applications.commands", give the bot
     "Send Messages", "Create Public Threads", "Send Messages in Threads", "Attach Files"
     and "Embed Links", open the URL and add the bot to your server.
  5. Run {command} again.

To play right here instead, two players at one keyboard, or you against the computer:
  {command} local            ({command} local --help for sizes, rules and start positions)
  {command} local --computer easy      (levels: easy, medium, hard)""")


def format_duration(duration: timedelta, *, locale: str = SOURCE) -> str:
    """A short duration for players: ``"45 s"``, ``"2 min"``, ``"1 h 30 min"``, ``"3 days"``."""
    seconds = max(0, round(duration.total_seconds()))
    if seconds < 60:
        return translate(locale, _("{s} s", s=seconds))
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        if seconds:
            return translate(locale, _("{m} min {s} s", m=minutes, s=seconds))
        return translate(locale, _("{m} min", m=minutes))
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        if minutes:
            return translate(locale, _("{h} h {m} min", h=hours, m=minutes))
        return translate(locale, _("{h} h", h=hours))
    days, hours = divmod(hours, 24)
    text = translate(locale, ngettext("{n} day", "{n} days", days))
    return translate(locale, _("{days} {h} h", days=text, h=hours)) if hours else text


def time_left(deadline: datetime | None, now: datetime, *, locale: str = SOURCE) -> str:
    """How long until ``deadline``, or an empty string without one."""
    if deadline is None:
        return ""
    return format_duration(deadline - now, locale=locale)


def scores_line(game: Game, *, locale: str = SOURCE) -> str:
    """Both scores, e.g. ``"Pink 3 · Blue 1"``."""
    return translate(
        locale,
        _("Pink {pink} · Blue {blue}", pink=game.score(Player.PINK), blue=game.score(Player.BLUE)),
    )


def run_dots(outcomes: Sequence[MoveOutcome], locale: str = SOURCE) -> list[str]:
    """The dots of a run of moves, each with what it captured (``["D5", "E6 (captures 2)"]``);
    ends and resigns are left out."""
    dots = []
    for outcome in outcomes:
        action, placement = outcome.action, outcome.placement
        if action is None or action.point is None:
            continue
        gain = max(placement.pink_gain, placement.blue_gain) if placement else 0
        if gain:
            dots.append(
                translate(locale, _("{point} (captures {n})", point=action.point.name, n=gain))
            )
        else:
            dots.append(action.point.name)
    return dots


def capture_line(placement: Placement | None, *, locale: str = SOURCE) -> str:
    """What a dot captured, e.g. ``"Pink captures 3."``; empty when it captured nothing."""
    if placement is None:
        return ""
    parts = []
    for player, gain in ((Player.PINK, placement.pink_gain), (Player.BLUE, placement.blue_gain)):
        if gain > 0:
            parts.append(
                translate(
                    locale,
                    ngettext(  # the English needs no noun; other languages count dots
                        "{player} captures {n}.",
                        "{player} captures {n}.",
                        gain,
                        player=label(player, locale),
                    ),
                )
            )
    return " ".join(parts)


def _board_and_rules(width: int, height: int, rules: Rules | str, locale: str) -> list[str]:
    """The size and rules of a game, ``["10×10", "standard rules"]``, in ``locale``."""
    return [f"{width}×{height}", translate(locale, name_of(rules, Rules))]


def _start_words(start: Start | str, locale: str) -> str:
    """``"start: cross"`` in ``locale``."""
    return translate(locale, _("start: {start}", start=translate(locale, name_of(start, Start))))


def describe_game_options(
    options: GameOptions,
    locale: str = SOURCE,
    *,
    with_takebacks: bool = True,
    server_clock: timedelta | None = None,
) -> str:
    """A game's settings in one line, e.g. ``"10×10, standard rules, 1 min a move, rated,
    no takebacks"``: the one description of a game (a challenge, a rematch, a start).

    A game clock is shown instead of the move clock when there is one; when neither is set,
    ``server_clock`` (the server's default move clock) or else "server's default clock".
    ``with_takebacks=False`` leaves out whether takebacks are allowed (a game against the
    computer, where ``/undo`` is said instead).
    """
    parts = _board_and_rules(options.width, options.height, options.rules, locale)
    if options.start != Start.EMPTY:
        parts.append(_start_words(options.start, locale))
    if options.game_clock is not None:
        parts.append(
            translate(
                locale,
                _(
                    "game clock {name} ({description})",
                    name=options.game_clock.name,
                    description=clock_description(options.game_clock, locale),
                ),
            )
        )
    elif (move_clock := options.clock or server_clock) is None:
        parts.append(translate(locale, N_("server's default clock")))
    else:
        duration = format_duration(move_clock, locale=locale)
        parts.append(translate(locale, _("{clock} a move", clock=duration)))
    parts.append(translate(locale, N_("rated") if options.rated else N_("unrated")))
    if with_takebacks:
        allowed = options.allows_takebacks
        parts.append(translate(locale, N_("takebacks allowed") if allowed else N_("no takebacks")))
    return ", ".join(parts)


# -- takebacks and game clocks ---


def clock_description(clock: GameClock, locale: str = SOURCE) -> str:
    """A game clock in words: ``"5 minutes each, 5 seconds more a move"`` (English: the
    clock's own words; other languages: short durations, ``"5 min"``)."""
    if locale == SOURCE:
        return clock.description
    each = format_duration(clock.total, locale=locale)
    if not clock.increment:
        return translate(locale, _("{each} each, nothing added a move", each=each))
    more = format_duration(clock.increment, locale=locale)
    return translate(locale, _("{each} each, {more} more a move", each=each, more=more))


def game_clock_line(
    clock: GameClock, state: ClockState, now: datetime, *, locale: str = SOURCE
) -> str:
    """Both players' time left on a game clock: ``"Game clock 5+5: Pink 4:59, Blue 5:00"``."""
    left = _(
        "Game clock {name}: Pink {pink}, Blue {blue}",
        name=clock.name,
        pink=describe_left(state.time_left(Player.PINK, now), locale),
        blue=describe_left(state.time_left(Player.BLUE, now), locale),
    )
    return translate(locale, left)


def turn_line(game: Game, names: Names, *, left: str = "", locale: str = SOURCE) -> str:
    """Whose turn it is (and how long they have), or the result once the game is over."""
    if game.result is not None:
        return result_line(game.result, names, locale=locale)
    mover = game.to_move
    assert mover is not None
    colour = label(mover, locale)
    name = names[mover]
    shown = name not in (mover.label, colour)
    if left:
        if shown:
            message = _(
                "{colour} to move: {name} ({left} left).", colour=colour, name=name, left=left
            )
        else:
            message = _("{colour} to move ({left} left).", colour=colour, left=left)
    elif shown:
        message = _("{colour} to move: {name}.", colour=colour, name=name)
    else:
        message = _("{colour} to move.", colour=colour)
    return translate(locale, message)


def describe_result(result: Result, *, locale: str = SOURCE) -> str:
    """The result without names: ``"Pink wins 5–3 (both ended)"``, ``"Draw 0–0 (a stop)"``."""
    why = translate(locale, name_of(result.reason, EndReason))
    if result.winner is None:
        return translate(
            locale, _("Draw {pink}–{blue} ({why})", pink=result.pink, blue=result.blue, why=why)
        )
    won, lost = result.score(result.winner), result.score(result.winner.opponent)
    return translate(
        locale,
        _(
            "{winner} wins {won}–{lost} ({why})",
            winner=label(result.winner, locale),
            won=won,
            lost=lost,
            why=why,
        ),
    )


def result_line(result: Result, names: Names, *, locale: str = SOURCE) -> str:
    """The result as a sentence, with the winner's name: ``"Pink wins 5–3 (both ended). Well
    played, @ann!"``, ``"Draw 0–0 (both ended)."``."""
    text = describe_result(result, locale=locale)
    if result.winner is None:
        return text + "."
    return translate(
        locale, _("{result}. Well played, {name}!", result=text, name=names[result.winner])
    )


def action_line(game: Game, names: Names, *, locale: str = SOURCE) -> str:
    """What the last action did, e.g. ``"Pink plays B7. Pink captures 3."``; the computer is
    named by its name alone (``"Computer (hard) plays D5."``)."""
    if not game.actions:
        return translate(locale, N_("The game starts."))
    action = game.actions[-1]
    who = label(action.player, locale)
    if names[action.player] in COMPUTER_NAMES:
        who = names[action.player]
    elif names[action.player] not in (who, action.player.label):
        who += f" ({names[action.player]})"
    if action.kind == ActionKind.DOT and action.point is not None:
        captured = capture_line(game.last_placement, locale=locale)
        plays = translate(locale, _("{who} plays {point}.", who=who, point=action.point.name))
        return plays + (f" {captured}" if captured else "")
    if action.kind == ActionKind.RESIGN:
        return translate(locale, _("{who} resigns.", who=who))
    if action.kind == ActionKind.DRAW:
        return translate(locale, _("{who} accepts the offer of a draw.", who=who))
    handed = len(game.handed_over)
    if game.rules is Rules.GROUNDING and not handed:
        if action.kind == ActionKind.TIME:
            message = _(
                "{who} ran out of time: that is a stop, and every dot is grounded, so nothing is "
                "handed over.",
                who=who,
            )
        else:
            message = _("{who} stops: every dot is grounded, so nothing is handed over.", who=who)
        return translate(locale, message)
    grounding = game.rules is Rules.GROUNDING
    if action.kind == ActionKind.TIME and grounding:
        message = ngettext(
            "{who} ran out of time: that is a stop ({n} dot handed over).",
            "{who} ran out of time: that is a stop ({n} dots handed over).",
            handed,
            who=who,
        )
    elif action.kind == ActionKind.TIME:
        message = _("{who} ran out of time and has ended.", who=who)
    elif grounding:
        message = ngettext(
            "{who} stops: {n} dot that is not grounded is handed over.",
            "{who} stops: {n} dots that are not grounded are handed over.",
            handed,
            who=who,
        )
    else:
        message = _("{who} ends and makes no more moves.", who=who)
    return translate(locale, message)


def play_on_line(game: Game, *, move_hint: str, end_hint: str, locale: str = SOURCE) -> str:
    """After one player ended: that the other may play on alone, and how."""
    if game.is_over or not game.ended or game.to_move is None:
        return ""
    return translate(
        locale,
        _(
            "{colour} may play on alone, as long as they like ({move_hint}), "
            "and finishes the game with {end_hint}.",
            colour=label(game.to_move, locale),
            move_hint=move_hint,
            end_hint=end_hint,
        ),
    )


def end_confirmation(
    game: Game, player: Player, preview: StopPreview | None = None, *, locale: str = SOURCE
) -> str:
    """What ending means under the game's rules, for a confirmation prompt."""
    if game.rules is not Rules.GROUNDING:
        if player.opponent in game.ended:
            return translate(
                locale, N_("End? Your opponent has already ended, so this finishes the game.")
            )
        return translate(
            locale,
            N_(
                "End? You make no more moves, and your opponent may play on alone until they end "
                "too. Your dots and bases stay and keep counting, but your score can still "
                "change: they may surround your loose dots, and a bigger ring around one of your "
                "bases takes it back. This cannot be taken back."
            ),
        )
    preview = preview or game.stop_preview(player)
    if not preview.allowed:
        reason = translate(locale, stop_reason(preview.refusal))
        return translate(locale, _("You cannot stop yet: {reason}.", reason=reason))
    if not preview.dots:
        text = translate(
            locale,
            N_(
                "Stop? The game is over at once. All your dots are grounded: nothing would be "
                "handed over. "
            ),
        )
    else:
        text = _stop_handing_over(len(preview.dots), locale)
    text += translate(
        locale,
        _("Score after the stop: Pink {pink} · Blue {blue}.", pink=preview.pink, blue=preview.blue),
    )
    if preview.loses:
        text += " " + translate(locale, N_("**Warning: you would lose the game.**"))
    return text


def _stop_handing_over(n: int, locale: str) -> str:
    """The first sentence of a stop's confirmation when it hands ``n`` (at least 1) dots over."""
    return translate(
        locale,
        ngettext(
            "Stop? The game is over at once. {n} of your dots is not grounded and would be "
            "handed over (marked with a cross). ",
            "Stop? The game is over at once. {n} of your dots are not grounded and would be "
            "handed over (marked with crosses). ",
            n,
        ),
    )


def stop_reason(refusal: StopNotAllowedError | None) -> Text:
    """Why a stop is not allowed yet (a stop preview's ``refusal``), as a catalogue entry."""
    if isinstance(refusal, NoStopsError):
        return N_("stops are part of the grounding rules only")
    needed = refusal.needed if refusal is not None else STOP_MIN_DOTS
    return ngettext(
        "a stop is allowed once you have placed {n} dot",
        "a stop is allowed once you have placed {n} dots",
        needed,
    )


def record_line(*, games: int, wins: int, losses: int, draws: int, locale: str = SOURCE) -> str:
    """A player's record, e.g. ``"1 game: 1 won, 0 lost, 0 drawn"``."""
    return translate(
        locale,
        ngettext(
            "{n} game: {wins} won, {losses} lost, {draws} drawn",
            "{n} games: {wins} won, {losses} lost, {draws} drawn",
            games,
            wins=wins,
            losses=losses,
            draws=draws,
        ),
    )


def rating_lines(
    changes: Sequence[tuple[str, float, float, bool]], *, locale: str = SOURCE
) -> list[str]:
    """Lines like ``"@ann 1500 → 1516 (+16, provisional)"`` from (name, before, after, prov)."""
    lines = []
    for name, before, after, provisional in changes:
        delta = round(after) - round(before)
        tail = ", " + translate(locale, N_("provisional")) if provisional else ""
        lines.append(f"{name}: {round(before)} → {round(after)} ({delta:+d}{tail})")
    return lines


def last_dot(game: Game) -> Point | None:
    """The point of the last dot placed (by either player), None before the first."""
    for action in reversed(game.actions):
        if action.kind == ActionKind.DOT and action.point is not None:
            return action.point
    return None


def describe_local_game(
    game: Game, *, opponent: str, moves: bool = True, locale: str = SOURCE
) -> str:
    """A terminal game in one line: ``"5×5, grounding rules, start: cross, you (Blue) against
    Computer (easy), 1 move so far"``; ``opponent`` is how to name who plays against whom."""
    parts = _board_and_rules(game.width, game.height, game.rules, locale)
    parts += [_start_words(game.start, locale), opponent]
    if moves:
        parts.append(
            translate(locale, ngettext("{n} move so far", "{n} moves so far", len(game.actions)))
        )
    return ", ".join(parts)


MESSAGE_LIMIT = 2000  # Discord refuses a message longer than this (error 50035)


def join_lines(lines: list[str], limit: int = MESSAGE_LIMIT, *, locale: str = SOURCE) -> str:
    """``lines`` joined one per line, cut to fit in ``limit`` characters with a last line that
    says how many were left out."""
    kept: list[str] = []
    for count, line in enumerate(lines):
        tail = translate(locale, _("…and {n} more.", n=len(lines) - count))
        if len("\n".join([*kept, line])) + 1 + len(tail) > limit and count < len(lines) - 1:
            return "\n".join([*kept, tail])
        kept.append(line)
    return "\n".join(kept)[:limit]
