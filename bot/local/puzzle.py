"""A puzzle in the terminal (the ``puzzle`` command during a game): one at the player's level,
as ``/puzzle`` gives it on Discord, answered by typing a point and judged by the same service
(``bot.games.puzzles``), the same words (``bot.review_text``).

The puzzle is printed as a text board and written as a PNG whose path is printed; a point
that is no free point of it is refused and asked again; an empty line leaves the puzzle
waiting (``puzzle`` shows it again) and goes back to the game.
"""

from __future__ import annotations

from pathlib import Path

from bot import review_text
from bot.games import GameService, Refusal
from bot.i18n import N_, _, translate
from bot.local.board import board_text
from bot.local.interrupts import Read, Write
from bot.local.words import clean_line

SORRY = N_("Sorry: {reason}. Type a point, or nothing to go back to the game.")
TYPE = N_("Type your answer: a point such as E5 (nothing: back to the game).")
WAITS = N_("The puzzle waits for your answer: type `puzzle` to see it again.")


async def solve_puzzle(
    service: GameService, *, user_id: int, locale: str, out: Path, read: Read, write: Write
) -> None:
    """Give ``user_id`` a puzzle (their waiting one again, if any), print it, and judge the
    points they type until one is judged or they type nothing."""
    given = await service.give_puzzle(user_id=user_id)
    puzzle = given.puzzle
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"dots-puzzle-{given.attempt_id}.png"
    path.write_bytes(review_text.puzzle_picture(puzzle, locale)())
    write(board_text(puzzle.game(), locale=locale))
    lines = review_text.puzzle_lines(given, locale)
    write(f"{lines[0]} {path}")
    write(
        translate(locale, N_("Type your answer: a point such as E5 (nothing: back to the game)."))
    )
    if len(lines) > 2:
        write(lines[2])
    while True:
        line = clean_line(read(translate(locale, _("Puzzle #{number}> ", number=given.attempt_id))))
        if not line:
            write(translate(locale, WAITS))
            return
        try:
            judged = await service.answer_puzzle(
                user_id=user_id, point=line, attempt_id=given.attempt_id
            )
        except Refusal as refusal:
            write(translate(locale, _(SORRY, reason=refusal.render(locale))))
            continue
        write(review_text.judged_text(judged, locale))
        return
