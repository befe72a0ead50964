"""The computer's review of a finished game in the terminal (offered at the end of a game).

The review is made by the game service (in its review worker process, as on Discord), its
progress printed as it goes; the graph and each turning point's position are written as PNGs
next to the game's other pictures and their paths printed with the summary and the turning
points, in the game's language (the words of bot/review_text.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from bot import review_text
from bot.games import GameService, GameView, Refusal
from bot.i18n import translate, words
from bot.local.interrupts import Write
from engine import Player
from renderer.review import GraphWords, Mark, render_before, render_graph


async def review_game(
    service: GameService,
    view: GameView,
    *,
    user_id: int,
    names: Mapping[Player, str],
    locale: str,
    out: Path,
    write: Write,
) -> None:
    """Make (or read) the review of the finished game ``view`` and print it; a refusal (the
    game had no move) is printed as a sentence."""
    shown = -1

    async def progress(done: int, total: int) -> None:
        nonlocal shown
        if done * 10 // total > shown:  # about every tenth of the game
            shown = done * 10 // total
            write(review_text.progress_text(view.game_id, done, total, locale))

    try:
        made = await service.review(game_id=view.game_id, user_id=user_id, progress=progress)
    except Refusal as refusal:
        write(refusal.render(locale))
        return
    out.mkdir(parents=True, exist_ok=True)
    graph = out / f"dots-game-{view.game_id}-review.png"
    graph.write_bytes(
        render_graph(
            made.estimates,
            captures=[(c.move, c.player, c.dots) for c in made.captures],
            marks=[Mark(t.move, t.player) for t in made.turning],
            words=GraphWords(
                review_text.graph_title(view.game_id, names, locale),
                translate(locale, "move"),
            ),
        )
    )
    write(review_text.head_text(made, view.game_id, locale) + f" {graph}")
    for summary in made.summaries:
        write(review_text.summary_line(summary, names[summary.player], locale))
    for player in (Player.PINK, Player.BLUE):
        turning = made.turning_of(player)
        if turning:
            write(review_text.turning_heading(names[player], locale))
        for n, point in enumerate(turning, start=1):
            path = out / f"dots-game-{view.game_id}-review-{point.move:03d}.png"
            path.write_bytes(
                render_before(
                    view.game.record,
                    point.move,
                    preferred=point.preferred,
                    names=names,
                    status=review_text.picture_status(point, locale),
                    words=words(locale),
                )
            )
            write(f"{n}. {review_text.turning_text(point, names, locale)} {path}")
