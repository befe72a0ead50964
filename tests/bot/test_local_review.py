"""The terminal offers the computer's review at the end of a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import GameService
from bot.games.reviews import Reviewer
from tests.bot.test_local import CAPTURE_GAME, run


@pytest.fixture(autouse=True)
def quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal's service reviews in a thread with a tiny budget."""
    opened = GameService.open

    async def open_quick(*args: object, **kwargs: object) -> GameService:
        service = await opened(*args, **kwargs)  # type: ignore[arg-type]
        service.reviews.reviewer = Reviewer(processes=False, iterations=10)
        return service

    monkeypatch.setattr(GameService, "open", open_quick)


async def test_a_finished_game_is_reviewed_when_the_players_say_yes(tmp_path: Path) -> None:
    status, printed, script = await run(tmp_path, [*CAPTURE_GAME, "y"])
    assert status == 0
    assert script.prompts[-1] == "Review the game with the computer? [y/N] "
    assert "Reviewing game #1:" in printed
    assert "Review of game #1: the computer's estimate" in printed
    assert "Pink: " in printed and "Blue: " in printed
    assert (tmp_path / "pics" / "dots-game-1-review.png").exists()
    assert "Traceback" not in printed


async def test_no_review_unless_asked(tmp_path: Path) -> None:
    status, printed, script = await run(tmp_path, CAPTURE_GAME)  # EOF at the question: no
    assert status == 0
    assert script.prompts[-1] == "Review the game with the computer? [y/N] "
    assert "Reviewing" not in printed
    assert not (tmp_path / "pics" / "dots-game-1-review.png").exists()
