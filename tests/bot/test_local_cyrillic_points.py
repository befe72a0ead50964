"""The terminal reads points typed on a Russian keyboard as `/move` does: a Cyrillic letter
drawn like a Latin one is that letter; one with no Latin twin asks for Latin letters."""

from __future__ import annotations

from pathlib import Path

from bot.error_words import error_message
from bot.games import GameService
from bot.i18n import translate
from bot.local import LocalOptions, play_local
from engine import InvalidPointError, PointMistake


async def test_the_terminal_plays_a_point_typed_in_cyrillic(tmp_path: Path) -> None:
    lines = ["В7", "Д5", "е5"]
    out: list[str] = []

    def read(_prompt: str) -> str:
        if not lines:
            raise EOFError
        return lines.pop(0)

    options = LocalOptions(database=str(tmp_path / "dots.sqlite3"), out=tmp_path, locale="ru")
    assert await play_local(options, read=read, write=out.append) == 0
    printed = "\n".join(out)
    said = error_message(InvalidPointError("Д5", PointMistake.LATIN_LETTERS, 10, 10))
    assert translate("ru", said) in printed
    assert "латиницей (переключите раскладку клавиатуры)" in printed
    assert "Traceback" not in printed
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        view = await service.game(1)
        assert [str(action) for action in view.game.actions] == ["Pink B7", "Blue E5"]
    finally:
        await service.close()
