"""Every word the pictures' headers show, in one place (to be translated later).

Each function takes the players' names as they are shown (already cleaned for the font) and
returns one line of the header.
"""

from __future__ import annotations

from engine import EndReason, Player, Result

Names = tuple[str, str]


def _name(names: Names, player: Player) -> str:
    return names[player - 1]


def result_line(result: Result, names: Names) -> str:
    """The result naming the winner: ``"alice wins 9–3 (both ended)"``, ``"Draw 4–4 (a stop)"``."""
    why = EndReason(result.reason).description
    if result.winner is None:
        return f"Draw {result.pink}–{result.blue} ({why})"
    won, lost = result.score(result.winner), result.score(result.winner.opponent)
    return f"{_name(names, result.winner)} wins {won}–{lost} ({why})"


def turn_line(mover: Player, names: Names, *, opponent_ended: bool, clock: str) -> str:
    """Whose turn it is: ``"alice to move (bob has ended), 42 s"``."""
    text = f"{_name(names, mover)} to move"
    if opponent_ended:
        text += f" ({_name(names, mover.opponent)} has ended)"
    if clock:
        text += f", {clock}"
    return text


def preview_line(player: Player, names: Names, handed_over: int) -> str:
    """The header of a stop's preview (rule 8.2): ``"Preview: if alice stops now, bob gets
    3 dots"``; the crosses on the board are the dots handed over."""
    text = f"Preview: if {_name(names, player)} stops now"
    if handed_over == 0:
        return text + ", no dot is handed over"
    dots = "1 dot" if handed_over == 1 else f"{handed_over} dots"
    return f"{text}, {_name(names, player.opponent)} gets {dots}"


def replay_line(move: int, total: int, names: Names, ended: frozenset[Player], rules: str) -> str:
    """A replay frame's line: ``"Move 12 of 27"``; ``"Start: 27 moves, standard rules"``
    before the first; with who has ended (``"Move 20 of 27 · bob ended"``)."""
    if move == 0:
        moves = "1 move" if total == 1 else f"{total} moves"
        text = f"Start: {moves}, {rules} rules"
    else:
        text = f"Move {move} of {total}"
    gone = " and ".join(_name(names, player) for player in Player if player in ended)
    return f"{text} · {gone} ended" if gone else text
