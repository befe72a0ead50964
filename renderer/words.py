"""Every word the pictures' headers show, in one place, passed in as a ``Words`` value.

The renderer knows no language: the bot builds a ``Words`` from its gettext catalogue
(``bot.i18n.words``) and hands it to ``render_png``/``render_gif``; ``ENGLISH`` is the default.
Each function takes the players' names as they are shown (already cleaned for the font) and
returns one line of the header.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine import Action, ActionKind, EndReason, Player, Result, Rules

Names = tuple[str, str]


def _dots(n: int) -> str:
    return "1 dot" if n == 1 else f"{n} dots"


def _ends(n: int) -> str:
    return "1 end" if n == 1 else f"{n} ends"


# The engine's own English; the bot's catalogue (bot.option_words) says them in other languages.
_REASONS: Mapping[EndReason, str] = {reason: reason.description for reason in EndReason}
_RULES: Mapping[Rules, str] = {Rules.STANDARD: "standard rules", Rules.GROUNDING: "grounding rules"}


@dataclass(frozen=True)
class Words:
    """The templates of the header lines (``str.format`` fields in braces) and the counted
    phrases (a function of the count: the catalogue's plural forms)."""

    pink: str = "Pink"
    blue: str = "Blue"
    wins: str = "{winner} wins {won}–{lost} ({why})"
    draw: str = "Draw {pink}–{blue} ({why})"
    reasons: Mapping[EndReason, str] = field(default_factory=lambda: dict(_REASONS))
    to_move: str = "{mover} to move"
    to_move_ended: str = "{mover} to move ({other} has ended)"
    with_clock: str = "{line}, {clock}"
    seconds: str = "{s} s"
    preview_none: str = "Preview: if {player} stops now, no dot is handed over"
    preview_gets: str = "Preview: if {player} stops now, {other} gets {dots}"
    dots: Callable[[int], str] = _dots
    replay_start: str = "Start: {played}, {rules}"
    ends: Callable[[int], str] = _ends
    rules: Mapping[Rules, str] = field(default_factory=lambda: dict(_RULES))
    replay_move: str = "Dot {dot} of {total}"
    ended_one: str = "{line} · {name} ended"
    ended_both: str = "{line} · {first} and {second} ended"

    def label(self, player: Player) -> str:
        """The colour's name, for a player shown without a name."""
        return self.pink if player is Player.PINK else self.blue


ENGLISH = Words()


def _name(names: Names, player: Player) -> str:
    return names[player - 1]


def result_line(result: Result, names: Names, words: Words = ENGLISH) -> str:
    """The result naming the winner: ``"alice wins 9–3 (both ended)"``, ``"Draw 4–4 (a stop)"``."""
    why = words.reasons.get(result.reason, result.reason)
    if result.winner is None:
        return words.draw.format(pink=result.pink, blue=result.blue, why=why)
    won, lost = result.score(result.winner), result.score(result.winner.opponent)
    return words.wins.format(winner=_name(names, result.winner), won=won, lost=lost, why=why)


def turn_line(
    mover: Player, names: Names, *, opponent_ended: bool, clock: str, words: Words = ENGLISH
) -> str:
    """Whose turn it is: ``"alice to move (bob has ended), 42 s"``."""
    template = words.to_move_ended if opponent_ended else words.to_move
    text = template.format(mover=_name(names, mover), other=_name(names, mover.opponent))
    if clock:
        text = words.with_clock.format(line=text, clock=clock)
    return text


def preview_line(player: Player, names: Names, handed_over: int, words: Words = ENGLISH) -> str:
    """The header of a stop's preview (rule 8.2): ``"Preview: if alice stops now, bob gets
    3 dots"``; the crosses on the board are the dots handed over."""
    if handed_over == 0:
        return words.preview_none.format(player=_name(names, player))
    return words.preview_gets.format(
        player=_name(names, player),
        other=_name(names, player.opponent),
        dots=words.dots(handed_over),
    )


def replay_line(  # noqa: PLR0917 (the pieces of one line)
    placed: int,
    played: tuple[int, int],
    names: Names,
    ended: frozenset[Player],
    rules: Rules,
    words: Words = ENGLISH,
) -> str:
    """A replay frame's line once ``placed`` dots are on the board, of the game's ``played``
    (dots, ends): the dots are counted apart from the ends, ``"Dot 12 of 25"``; ``"Start: 25
    dots, 2 ends, standard rules"`` before the first dot; with who has ended (``"Dot 20 of 25 ·
    bob ended"``)."""
    dots, ends = played
    if placed == 0:
        counted = words.dots(dots) + (", " + words.ends(ends) if ends else "")
        text = words.replay_start.format(played=counted, rules=words.rules.get(rules, rules))
    else:
        text = words.replay_move.format(dot=placed, total=dots)
    gone = [_name(names, player) for player in Player if player in ended]
    if len(gone) == 2:
        return words.ended_both.format(line=text, first=gone[0], second=gone[1])
    if gone:
        return words.ended_one.format(line=text, name=gone[0])
    return text


def played(actions: Sequence[Action]) -> tuple[int, int]:
    """How many dots and how many ends (time-outs included) ``actions`` hold."""
    dots = sum(action.kind == ActionKind.DOT for action in actions)
    ends = sum(action.kind in {ActionKind.END, ActionKind.TIME} for action in actions)
    return dots, ends
