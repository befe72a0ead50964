"""The terminal mode: whole games typed at one keyboard, over the real service and database."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from bot.games import GameService
from bot.local import (
    BLUE_USER_ID,
    LOCAL_GUILD_ID,
    PINK_USER_ID,
    LocalOptions,
    play_local,
)
from engine import Game, Player, sgf


class Script:
    """Scripted keyboard: answers prompts from a list, then EOF (or Ctrl-C)."""

    def __init__(self, lines: Iterable[str], *, interrupt: bool = False) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.interrupt = interrupt

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise KeyboardInterrupt if self.interrupt else EOFError
        return self.lines.pop(0)


async def run(
    tmp_path: Path, lines: Iterable[str], *, interrupt: bool = False, **options: object
) -> tuple[int, str, Script]:
    """Run `dots-bot local` with scripted input; exit status, everything printed, the script."""
    out: list[str] = []
    script = Script(lines, interrupt=interrupt)
    opts = LocalOptions(database=str(tmp_path / "dots.sqlite3"), out=tmp_path / "pics", **options)  # type: ignore[arg-type]
    status = await play_local(opts, read=script, write=out.append)
    return status, "\n".join(out), script


# Pink surrounds Blue's C3 (a base: Pink 1), Blue ends, Pink plays on alone and ends.
CAPTURE_GAME = ["C4", "move C3", "B3", "H8", "d3", "H7", "C 2", "end", "y", "J1", "end", "y"]


async def test_a_whole_game_at_one_keyboard(tmp_path: Path) -> None:
    status, printed, _ = await run(tmp_path, CAPTURE_GAME)
    assert status == 0
    assert "Pink plays C2. Pink captures 1." in printed
    assert "Blue ends and makes no more moves." in printed
    assert "Pink may play on alone" in printed
    assert "Pink wins 1–0 (both ended)" in printed
    assert "Traceback" not in printed

    # The stored game: over, the right result and every action, replayable.
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        view = await service.game(1)
        assert (view.guild_id, view.pink_id, view.blue_id) == (
            LOCAL_GUILD_ID,
            PINK_USER_ID,
            BLUE_USER_ID,
        )
        assert view.status == "over" and not view.rated
        assert view.result is not None
        assert (view.result.winner, view.result.pink, view.result.blue) == (Player.PINK, 1, 0)
        assert [str(a) for a in view.game.actions] == [
            "Pink C4",
            "Blue C3",
            "Pink B3",
            "Blue H8",
            "Pink D3",
            "Blue H7",
            "Pink C2",
            "Blue end",
            "Pink J1",
            "Pink end",
        ]
        assert await service.running_games(user_id=PINK_USER_ID) == []
    finally:
        await service.close()

    # One PNG per position (the start and each of the 10 actions), each path printed.
    pics = tmp_path / "pics"
    pngs = sorted(pics.glob("dots-game-1-*.png"))
    assert [p.name for p in pngs] == [f"dots-game-1-{n:03d}.png" for n in range(11)]
    for png in pngs:
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        assert f"Picture: {png}" in printed
    assert pngs[6].read_bytes() != pngs[7].read_bytes()  # the capture changed the picture
    assert (pics / "dots-game-1.gif").read_bytes()[:6] == b"GIF89a"
    replayed = sgf.loads((pics / "dots-game-1.sgf").read_text())
    game = replayed if isinstance(replayed, Game) else Game.replay(replayed)  # type: ignore[arg-type]
    assert game.score(Player.PINK) == 1


async def test_bad_input_gets_a_friendly_message_and_changes_nothing(tmp_path: Path) -> None:
    lines = ["E5", "E5", "zz", "K11", "move", "", "help", "resign", "n", "end", "n", "quit"]
    status, printed, _ = await run(tmp_path, lines)
    assert status == 0
    assert "Sorry: E5 is already taken" in printed
    assert "Sorry: `zz` is not a point" in printed
    assert "Sorry: K11 is off the board" in printed
    assert "Which point?" in printed
    assert printed.count("B7 or move B7") == 2  # the help at the start and on `help`
    assert "Game #1 (10×10, standard rules" in printed and "is saved" in printed
    assert "Traceback" not in printed
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        view = await service.game(1)
        assert view.is_running and [str(a) for a in view.game.actions] == ["Pink E5"]
    finally:
        await service.close()


@pytest.mark.parametrize("interrupt", [False, True], ids=["eof", "ctrl-c"])
async def test_leaving_saves_the_game_and_the_next_run_offers_to_continue(
    tmp_path: Path, interrupt: bool
) -> None:
    status, printed, _ = await run(tmp_path, ["E5", "F6"], interrupt=interrupt)
    assert status == 0 and "Game #1 (10×10, standard rules" in printed and "is saved" in printed
    _, printed, script = await run(tmp_path, ["", "E6", "quit"])
    assert script.prompts[0].startswith("Continue local game #1")
    assert "Pink plays E6" in printed
    # Declining starts a new game; the old one stays running.
    _, printed, script = await run(tmp_path, ["n", "A1", "quit"])
    assert "New local game #2" in printed
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        running = await service.running_games(user_id=PINK_USER_ID, guild_id=LOCAL_GUILD_ID)
        assert [(v.game_id, len(v.game.actions)) for v in running] == [(1, 3), (2, 1)]
    finally:
        await service.close()


async def test_grounding_stop_shows_what_it_hands_over(tmp_path: Path) -> None:
    pink = ["D4", "E4", "F4", "G4", "E6"]
    blue = ["A1", "B1", "C1", "D1", "E1"]
    moves = [m for pair in zip(pink, blue, strict=True) for m in pair]
    lines = ["end", *moves, "end", "n", "end", "y"]
    status, printed, _ = await run(tmp_path, lines, rules="grounding")
    assert status == 0
    assert "You cannot stop yet" in printed
    assert "5 of your dots are not grounded" in printed
    assert "Handed over: " in printed and "E6" in printed
    assert "you would lose" in printed
    assert "Blue wins 5–0 (a stop)" in printed
    pics = tmp_path / "pics"
    assert [p.name for p in pics.glob("*-stop-preview.png")] == ["dots-game-1-010-stop-preview.png"]
    crosses = (pics / "dots-game-1-010-stop-preview.png").read_bytes()
    assert crosses.startswith(b"\x89PNG") and crosses != (pics / "dots-game-1-010.png").read_bytes()
