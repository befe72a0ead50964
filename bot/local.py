"""Terminal mode: two players at one keyboard, over the same GameService and database.

The two local players are fixed pseudo users (ids 1 and 2) in a pseudo server (id 1); Discord
ids are snowflakes far above these, so local games never mix with a server's games or ratings.
Each action prints a text board and writes the picture as a PNG whose path is printed.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot import text
from bot.games import (
    MAX_CLOCK,
    GameOptions,
    GameService,
    GameView,
    MoveOutcome,
    Refusal,
)
from bot.pictures import game_gif, game_png
from engine import Player, Point, parse_size, sgf

LOCAL_GUILD_ID = 1
LOCAL_CHANNEL_ID = 1
PINK_USER_ID = 1
BLUE_USER_ID = 2
NAMES = {Player.PINK: "Pink", Player.BLUE: "Blue"}

HELP = """\
Commands (the player to move types them):
  B7 or move B7   place a dot (column letter, row number; row 1 is at the bottom)
  end             end: you make no more moves (asks to confirm; under grounding rules a stop)
  resign          resign: your opponent wins (asks to confirm)
  board           show the board again
  help            this list
  quit            leave; the game is saved and `dots-bot local` offers to continue it"""

Read = Callable[[str], str]
Write = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class LocalOptions:
    """What `dots-bot local` was asked for."""

    width: int = 10
    height: int = 10
    rules: str = "standard"
    start: str = "empty"
    database: str = "dots.sqlite3"
    out: Path = Path("dots-pictures")
    new: bool = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `dots-bot local`."""
    parser.add_argument("--size", default="10x10", help="board size, e.g. 10x10, 20x20, 39x32")
    parser.add_argument("--rules", default="standard", choices=["standard", "grounding"])
    parser.add_argument(
        "--start",
        default="empty",
        choices=["empty", "cross", "double-cross", "triple-cross", "four-crosses"],
        help="starting position",
    )
    parser.add_argument("--db", default=None, help="SQLite file (default: DOTS_DATABASE)")
    parser.add_argument("--out", default="dots-pictures", help="folder for the PNG pictures")
    parser.add_argument(
        "--new", action="store_true", help="start a new game even if one is unfinished"
    )


def options_from(args: argparse.Namespace, *, database: str) -> LocalOptions:
    """LocalOptions from parsed arguments.

    Raises:
        ValueError: a size that is not like 10x10 or out of range.
    """
    width, height = parse_size(args.size)
    return LocalOptions(
        width=width,
        height=height,
        rules=args.rules,
        start=args.start,
        database=args.db or database,
        out=Path(args.out),
        new=args.new,
    )


class LocalGame:
    """One terminal session: reads commands, calls the service, prints boards, writes PNGs."""

    def __init__(
        self, service: GameService, options: LocalOptions, *, read: Read, write: Write
    ) -> None:
        self.service = service
        self.options = options
        self.read = read
        self.write = write
        self.view: GameView | None = None
        self.pictures: list[Path] = []

    async def run(self) -> int:
        """Play until the game is over or the players leave; the exit status."""
        try:
            self.view = await self._choose_game()
            if self.view is None:
                return 0
            self.write(HELP)
            self._show(self.view, "")
            while self.view.is_running:
                prompt = f"{NAMES[self.view.game.to_move or Player.PINK]}> "
                line = self.read(prompt).strip()
                if not await self._command(line):
                    self._saved()
                    return 0
        except (EOFError, KeyboardInterrupt):
            self.write("")
            self._saved()
            return 0
        await self._finish()
        return 0

    async def _choose_game(self) -> GameView | None:
        service = self.service
        if not self.options.new:
            running = await service.running_games(user_id=PINK_USER_ID, guild_id=LOCAL_GUILD_ID)
            if running:
                view = running[-1]
                game = view.game
                question = (
                    f"Continue local game #{view.game_id} ({game.width}×{game.height}, "
                    f"{game.rules} rules, {len(game.actions)} moves so far)? [Y/n] "
                )
                if self._yes(question, default=True):
                    return view
        options = GameOptions(
            width=self.options.width,
            height=self.options.height,
            rules=self.options.rules,
            start=self.options.start,
            clock=MAX_CLOCK,  # nobody times out at a shared keyboard
            colour="pink",
            rated=False,
        )
        view = await service.start_game(
            guild_id=LOCAL_GUILD_ID,
            channel_id=LOCAL_CHANNEL_ID,
            pink_id=PINK_USER_ID,
            blue_id=BLUE_USER_ID,
            options=options,
        )
        self.write(
            f"New local game #{view.game_id}: "
            + text.describe_options(
                width=view.game.width,
                height=view.game.height,
                rules=view.game.rules,
                start=view.game.start,
                clock=None,
                rated=False,
            ).replace("server's default clock, ", "")
        )
        return view

    async def _command(self, line: str) -> bool:
        """Handle one line; False when the players want to leave."""
        assert self.view is not None
        view = self.view
        words = line.split(maxsplit=1)
        if not words:
            return True
        word = words[0].lower()
        mover = view.game.to_move
        assert mover is not None
        user_id = view.user_of(mover)
        try:
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?", "h"):
                self.write(HELP)
            elif word == "board":
                self._show(view, "")
            elif word == "end":
                if self._confirm_end(view, mover):
                    await self._acted(await self.service.end(game_id=view.game_id, user_id=user_id))
            elif word == "resign":
                if self._yes(f"{mover.label} resigns and {mover.opponent.label} wins? [y/N] "):
                    await self._acted(
                        await self.service.resign(game_id=view.game_id, user_id=user_id)
                    )
            elif word in ("move", "m", "play") and len(words) == 1:
                self.write("Which point? For example `move E5`, or just `E5`.")
            else:
                point = words[1] if word in ("move", "m", "play") else line
                outcome = await self.service.place(
                    game_id=view.game_id, user_id=user_id, point=point
                )
                await self._acted(outcome)
        except Refusal as refusal:
            self.write(f"Sorry: {refusal}. Type `help` for the commands.")
        except ValueError as error:
            self.write(f"Sorry: {error}. Type `help` for the commands.")
        return True

    def _confirm_end(self, view: GameView, mover: Player) -> bool:
        game = view.game
        preview = game.stop_preview(mover) if game.rules == "grounding" else None
        self.write(text.end_confirmation(game, mover, preview))
        if preview is not None:
            if not preview.allowed:
                return False
            if preview.dots:
                names = ", ".join(point.name for point in preview.dots)
                path = self._picture(view, suffix="stop-preview", marks=preview.dots)
                self.write(f"Handed over: {names}. Picture: {path}")
        return self._yes(f"{mover.label}: really {'stop' if preview else 'end'}? [y/N] ")

    async def _acted(self, outcome: MoveOutcome) -> None:
        self.view = outcome.view
        self._show(outcome.view, text.action_line(outcome.view.game, NAMES))

    def _show(self, view: GameView, headline: str) -> None:
        game = view.game
        self.write(text.board_text(game.board))
        if headline:
            self.write(headline)
        self.write(text.scores_line(game) + ". " + text.turn_line(game, NAMES))
        play_on = text.play_on_line(game, move_hint="type a point", end_hint="`end`")
        if play_on:
            self.write(play_on)
        self.write(f"Picture: {self._picture(view)}")

    def _picture(self, view: GameView, *, suffix: str = "", marks: tuple[Point, ...] = ()) -> Path:
        out = self.options.out
        out.mkdir(parents=True, exist_ok=True)
        name = f"dots-game-{view.game_id}-{len(view.game.actions):03d}"
        path = out / f"{name}{'-' + suffix if suffix else ''}.png"
        path.write_bytes(game_png(view.game, NAMES, marks=marks))
        if not suffix:
            self.pictures.append(path)
        return path

    async def _finish(self) -> None:
        assert self.view is not None
        view = self.view
        if view.result is None and view.game.result is None:
            self.write("The game was aborted.")
            return
        out = self.options.out
        stem = out / f"dots-game-{view.game_id}"
        sgf_path = stem.with_suffix(".sgf")
        sgf_path.write_text(sgf.dumps(view.game, pink="Pink", blue="Blue"), encoding="utf-8")
        gif_path = stem.with_suffix(".gif")
        gif_path.write_bytes(game_gif(view.game, NAMES))
        self.write(f"Game over. Replay: {gif_path}  Record (SGF): {sgf_path}")

    def _yes(self, question: str, *, default: bool = False) -> bool:
        answer = self.read(question).strip().lower()
        if not answer:
            return default
        return answer in ("y", "yes")

    def _saved(self) -> None:
        if self.view is not None and self.view.is_running:
            self.write(
                f"Game #{self.view.game_id} is saved; `dots-bot local` offers to continue it."
            )


async def play_local(
    options: LocalOptions,
    *,
    service: GameService | None = None,
    read: Read = input,
    write: Write = print,
) -> int:
    """Run a terminal game; opens (and closes) the database unless a service is given."""
    own = service is None
    if service is None:
        service = await GameService.open(options.database)
    try:
        return await LocalGame(service, options, read=read, write=write).run()
    finally:
        if own:
            await service.close()
