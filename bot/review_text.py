"""The words of a review and of a puzzle, shared by the Discord adapter (bot/cogs/review.py)
and the terminal (bot/local/review.py): the summary, the turning points, a puzzle's goal and
a player's streak, each found by the engine (ai/review.py, ai/puzzles.py) and worded here;
and a puzzle's picture, its goal written on it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial

from ai.puzzles import Puzzle
from ai.review import BLUNDER, MISTAKE, REPLAY_MARGIN, Review, Summary, TurningPoint, Verdict
from bot.games.puzzles import GivenPuzzle, Judged, Replay
from bot.i18n import Message, _, ngettext, translate, words
from engine import Player
from renderer.review import render_before, render_position


def percent(chance: float) -> str:
    """A chance as players read it: ``"63%"``."""
    return f"{round(chance * 100)}%"


def colour_word(player: Player) -> Message:
    """The colour's name, to translate."""
    return _("Pink") if player is Player.PINK else _("Blue")


def summary_line(summary: Summary, name: str, locale: str) -> str:
    """One player's summary: their moves, mistakes and blunders."""
    return translate(
        locale,
        _(
            "**{name}**: {moves}; {mistakes}, {blunders}",
            name=name,
            mistakes=ngettext("{n} mistake", "{n} mistakes", summary.mistakes),
            blunders=ngettext("{n} blunder", "{n} blunders", summary.blunders),
            moves=ngettext("{n} move", "{n} moves", summary.moves),
        ),
    )


def gain_text(point: TurningPoint) -> Message:
    """What the preferred move does, as the engine found it."""
    preferred = point.preferred.name if point.preferred else "?"
    n = point.wins.dots
    if point.wins.kind == "capture":
        return ngettext(
            "{point} closes a ring around {n} dot", "{point} closes a ring around {n} dots", n,
            point=preferred,
        )  # fmt: skip
    if point.wins.kind == "ladder":
        return ngettext(
            "{point} starts a ladder that captures {n} dot",
            "{point} starts a ladder that captures {n} dots", n, point=preferred,
        )  # fmt: skip
    if point.wins.kind == "save":
        return ngettext(
            "{point} saves {n} dot from capture", "{point} saves {n} dots from capture", n,
            point=preferred,
        )  # fmt: skip
    return _("the computer prefers {point}", point=preferred)


def turning_text(point: TurningPoint, names: Mapping[Player, str], locale: str) -> str:
    """A turning point in one line: the move, the chance before and after, what was better
    and what the move left to the opponent."""
    line = _(
        "Move {move}: {name} played {played} ({before} → {after}); {better}.",
        move=point.move,
        name=names[point.player],
        played=point.played.name,
        before=percent(point.before),
        after=percent(point.after),
        better=gain_text(point),
    )
    text = translate(locale, line)
    if point.left is not None:
        left = ngettext(
            "After {played}, {name} could capture {n} dot at {point}.",
            "After {played}, {name} could capture {n} dots at {point}.",
            point.left.dots,
            played=point.played.name,
            name=names[point.player.opponent],
            point=point.left.point.name,
        )
        text += " " + translate(locale, left)
    return text


def picture_status(point: TurningPoint, locale: str) -> str:
    """The line on a turning point's picture: which ring is which."""
    return translate(
        locale,
        _(
            "Move {move}: {played} played (coloured circle), {preferred} preferred (black circle)",
            move=point.move,
            played=point.played.name,
            preferred=point.preferred.name if point.preferred else "?",
        ),
    )


def goal_text(puzzle: Puzzle, locale: str) -> str:
    """The puzzle's goal: ``"Pink to play and capture 3 dots"``."""
    player = colour_word(puzzle.player)
    if puzzle.depth == 1:
        goal = ngettext(
            "{player} to play and capture {n} dot", "{player} to play and capture {n} dots",
            puzzle.goal, player=player,
        )  # fmt: skip
    else:
        goal = ngettext(
            "{player} to play and capture {n} dot within two moves, whatever {other} answers",
            "{player} to play and capture {n} dots within two moves, whatever {other} answers",
            puzzle.goal, player=player, other=colour_word(puzzle.player.opponent),
        )  # fmt: skip
    return translate(locale, goal)


def picture_goal(puzzle: Puzzle, locale: str) -> str:
    """The goal in the puzzle's picture (shorter: it fits a 10x10 picture's header)."""
    if puzzle.depth == 1:
        return goal_text(puzzle, locale)
    goal = ngettext(
        "{player} to play and capture {n} dot in two moves",
        "{player} to play and capture {n} dots in two moves",
        puzzle.goal, player=colour_word(puzzle.player),
    )  # fmt: skip
    return translate(locale, goal)


def streak_text(given: GivenPuzzle | Judged, locale: str) -> str:
    """The player's streak line."""
    streak = given.streak
    return translate(
        locale,
        _(
            "Streak: {streak} (best {best}); solved {solved} of {tried}.",
            streak=streak.streak,
            best=streak.best,
            solved=streak.solved,
            tried=streak.tried,
        ),
    )


def head_text(made: Review, game_id: int, locale: str) -> str:
    """The first lines of a review: what the graph shows and the thresholds."""
    return translate(
        locale,
        _(
            "**Review of game #{game_id}**: the computer's estimate of the chance that "
            "{colour} wins, after each move ({iterations} iterations of its search a "
            "position). A mistake loses more than {mistake} of its player's chance, a "
            "blunder more than {blunder}.",
            game_id=game_id, colour=colour_word(Player.PINK),
            iterations=made.iterations, mistake=percent(MISTAKE), blunder=percent(BLUNDER),
        ),
    )  # fmt: skip


def graph_title(game_id: int, names: Mapping[Player, str], locale: str) -> str:
    """The graph's title."""
    return translate(
        locale,
        _(
            "#{game_id} {pink} vs {blue}: the chance that {colour} wins",
            game_id=game_id, pink=names[Player.PINK], blue=names[Player.BLUE],
            colour=colour_word(Player.PINK),
        ),
    )  # fmt: skip


def progress_text(game_id: int, done: int, total: int, locale: str) -> str:
    """How far a review is."""
    line = _(
        "Reviewing game #{game_id}: {done} of {total} positions searched…",
        game_id=game_id, done=done, total=total,
    )  # fmt: skip
    return translate(locale, line)


def turning_heading(name: str, locale: str) -> str:
    """The heading of a player's turning points."""
    return translate(locale, _("**Turning points of {name}**", name=name))


def replay_text(replay: Replay, locale: str) -> str:
    """What a replayed turning point asks."""
    turning = replay.turning
    return translate(
        locale,
        _(
            "Your move {move} in game #{game_id}, {played}, took your chance from {before} to "
            "{after}. Find a better move.",
            move=turning.move, game_id=replay.game_id, played=turning.played.name,
            before=percent(turning.before), after=percent(turning.after),
        ),
    )  # fmt: skip


def replay_status(replay: Replay, locale: str) -> str:
    """The line on a replayed turning point's picture."""
    return translate(
        locale,
        _(
            "{player} to play: a better move than {played} (circled)",
            player=colour_word(replay.turning.player),
            played=replay.turning.played.name,
        ),
    )


def verdict_text(verdict: Verdict, replay: Replay, locale: str) -> str:
    """An answer to a replayed turning point, judged, with why."""
    preferred = replay.turning.preferred.name if replay.turning.preferred else "?"
    point = verdict.point.name
    if verdict.by == "preferred":
        line = _("Right: {point} is the move the computer prefers.", point=point)
    elif verdict.by == "leaves" and verdict.left is not None:
        line = ngettext(
            "Not this time: after {point} your opponent could capture {n} dot at {at}; "
            "the computer prefers {preferred}.",
            "Not this time: after {point} your opponent could capture {n} dots at {at}; "
            "the computer prefers {preferred}.",
            verdict.left.dots, point=point, at=verdict.left.point.name, preferred=preferred,
        )  # fmt: skip
    elif verdict.good:
        line = _(
            "Right: {point} keeps your chance at {chance}, as good as {preferred} ({best}) "
            "within {margin}.",
            point=point, chance=percent(verdict.chance), preferred=preferred,
            best=percent(verdict.best), margin=percent(REPLAY_MARGIN),
        )  # fmt: skip
    else:
        line = _(
            "Not this time: {point} leaves your chance at {chance}, where {preferred} keeps "
            "{best}.",
            point=point, chance=percent(verdict.chance), preferred=preferred,
            best=percent(verdict.best),
        )  # fmt: skip
    return translate(locale, line)


def puzzle_lines(given: GivenPuzzle, locale: str) -> list[str]:
    """What a puzzle given says: its number and goal, how to answer, the streak (a proved
    puzzle's; a replayed turning point counts in none)."""
    puzzle = given.puzzle
    goal = (
        replay_text(puzzle, locale)
        if isinstance(puzzle, Replay)
        else goal_text(puzzle, locale) + "."
    )
    first = (
        _("You still have puzzle #{number} to answer.", number=given.attempt_id)
        if given.again
        else _("Puzzle #{number}.", number=given.attempt_id)
    )
    lines = [translate(locale, first) + " " + goal]
    lines.append(translate(locale, _("Answer with `/puzzle answer:E5` (a point of your choice).")))
    if not isinstance(puzzle, Replay):
        lines.append(streak_text(given, locale))
    return lines


def judged_text(judged: Judged, locale: str) -> str:
    """An answer judged: right or not, the answer and the line (and the streak), or a
    replayed turning point's verdict with why."""
    if isinstance(judged.puzzle, Replay):
        assert judged.verdict is not None  # a replay's answer is judged by a verdict
        return verdict_text(judged.verdict, judged.puzzle, locale)
    line = ", ".join(p.name for p in judged.puzzle.line)
    if judged.solved:
        verdict = _("Right: {point} does it. The line: {line}.", point=judged.point.name,
                    line=line)  # fmt: skip
    else:
        verdict = _(
            "Not this time: {point} does not do it. The answer: {answers}; the line: {line}.",
            point=judged.point.name,
            answers=", ".join(p.name for p in judged.puzzle.solutions),
            line=line,
        )
    return translate(locale, verdict) + "\n" + streak_text(judged, locale)


def puzzle_picture(puzzle: Puzzle | Replay, locale: str) -> Callable[[], bytes]:
    """The call (picklable, for a worker) that draws a puzzle with its goal on it: a replayed
    turning point's position with the move played circled."""
    if isinstance(puzzle, Replay):
        return partial(
            render_before,
            puzzle.record,
            puzzle.turning.move,
            preferred=None,
            status=replay_status(puzzle, locale),
            words=words(locale),
        )
    return partial(
        render_position, puzzle.record, status=picture_goal(puzzle, locale), words=words(locale)
    )
