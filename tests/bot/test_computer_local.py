"""The terminal mode against the computer: scripted games to the end, undo, resuming."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bot.games import COMPUTER_IDS, GameService, Thinker
from bot.local import LOCAL_GUILD_ID, PINK_USER_ID, LocalGame, LocalOptions, options_from
from bot.main import build_parser
from engine import Player, sgf
from tests.bot.test_local import Script

EASY = COMPUTER_IDS["easy"]


async def run(tmp_path: Path, lines: Iterable[str], **options: object) -> tuple[int, str, Script]:
    """Run `dots-bot local --computer ...` with scripted input over a service whose computer
    thinks in a thread with a tiny budget; exit status, everything printed, the script."""
    out: list[str] = []
    script = Script(lines)
    opts = LocalOptions(database=str(tmp_path / "dots.sqlite3"), out=tmp_path / "pics", **options)  # type: ignore[arg-type]
    service = await GameService.open(opts.database)
    service.thinker = Thinker(processes=False, iterations=10)
    try:
        status = await LocalGame(service, opts, read=script, write=out.append).run()
    finally:
        await service.close()
    return status, "\n".join(out), script


async def stored(tmp_path: Path, game_id: int = 1):  # type: ignore[no-untyped-def]
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        return await service.game(game_id)
    finally:
        await service.close()


def test_the_command_line_takes_a_level_and_a_colour() -> None:
    args = build_parser().parse_args(["local", "--computer", "hard", "--colour", "blue"])
    options = options_from(args, database="x.sqlite3")
    assert (options.computer, options.colour) == ("hard", "blue")
    assert options_from(build_parser().parse_args(["local"]), database="x").computer is None


async def test_a_whole_game_against_the_easy_computer(tmp_path: Path) -> None:
    # Points in a corner the computer rarely wants; a taken one is just refused and skipped.
    lines = ["A1", "A2", "B1", "J10", "J9", "end", "y"]
    status, printed, _ = await run(tmp_path, lines, computer="easy")
    assert status == 0
    assert "You play Pink (you move first) against Computer (easy)" in printed
    assert "Computer (easy) plays" in printed
    assert "Pink ends and makes no more moves." in printed
    assert "Computer (easy) ends and makes no more moves." in printed
    assert "Blue may play on alone" not in printed  # no instructions for the computer
    assert "Game over." in printed and "Traceback" not in printed
    view = await stored(tmp_path)
    assert (view.guild_id, view.pink_id, view.blue_id) == (LOCAL_GUILD_ID, PINK_USER_ID, EASY)
    assert view.status == "over" and not view.rated and view.result is not None
    actions = view.game.actions
    assert actions[-1].kind == "end" and actions[-1].player is Player.BLUE
    # Before Pink ended, every dot of Pink's was answered by one of the computer's.
    before_end = actions[: [a.kind for a in actions].index("end")]
    assert [a.player for a in before_end] == [Player.PINK, Player.BLUE] * (len(before_end) // 2)
    pics = tmp_path / "pics"
    pngs = sorted(pics.glob("dots-game-1-*.png"))
    assert len(pngs) == len(actions) + 1
    assert all(f"Picture: {png}" in printed for png in pngs)
    record = sgf.loads((pics / "dots-game-1.sgf").read_text())
    assert "Computer (easy)" in (pics / "dots-game-1.sgf").read_text() and record is not None


async def test_undo_and_the_computer_as_pink(tmp_path: Path) -> None:
    status, printed, _ = await run(
        tmp_path, ["undo", "A1", "undo", "board", "quit"], computer="easy", colour="blue"
    )
    assert status == 0
    assert "You play Blue against Computer (easy)" in printed
    assert "Sorry: nothing to undo" in printed
    assert "You take back A1 and the computer's reply" in printed
    view = await stored(tmp_path)
    assert view.is_running and view.pink_id == EASY
    assert [a.player for a in view.game.actions] == [Player.PINK]  # its first move stays
    # The next run offers to continue this game, not a two-player one, and it is your turn.
    _, printed, script = await run(tmp_path, ["", "quit"], computer="easy")
    assert script.prompts[0].startswith("Continue local game #1")
    assert script.prompts[1] == "Blue> "
    # Asked for a two-player game's options only, the game against the computer fits too.
    _, printed, script = await run(tmp_path, ["n", "quit"], rules="standard")
    assert script.prompts[0].startswith("Continue local game #1")
    assert "New local game #2" in printed


async def test_undo_between_two_players_is_refused(tmp_path: Path) -> None:
    _, printed, _ = await run(tmp_path, ["E5", "F5", "undo", "quit"])
    assert "Sorry: moves are taken back only against the computer" in printed
    assert len((await stored(tmp_path)).game.actions) == 2
