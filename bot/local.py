"""Terminal mode: two players at one keyboard, or one against the computer (``--computer``),
over the same GameService and database.

The two local players are fixed pseudo users (ids 1 and 2) in a pseudo server (id 1); Discord
ids are snowflakes far above these, so local games never mix with a server's games or ratings.
Against the computer the player is user 1 and the computer its negative pseudo id. Each action
prints a text board and writes the picture as a PNG whose path is printed.
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
    computer_id,
    computer_name,
    is_computer,
)
from bot.pictures import game_gif, game_png
from engine import Player, StopPreview, parse_size, sgf

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
  undo            against the computer: take back your last move and its reply
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
    computer: str | None = None
    colour: str = "pink"


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
    parser.add_argument(
        "--computer",
        choices=["easy", "medium", "hard"],
        default=None,
        help="play against the computer at this level (unrated) instead of two at one keyboard",
    )
    parser.add_argument(
        "--colour",
        choices=["pink", "blue", "random"],
        default="pink",
        help="your colour against the computer (Pink moves first; default pink)",
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
        computer=args.computer,
        colour=args.colour,
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
        self.computer = computer_id(options.computer) if options.computer else None
        self.names = dict(NAMES)

    async def run(self) -> int:
        """Play until the game is over or the players leave; the exit status."""
        try:
            self.view = await self._choose_game()
            if self.view is None:
                return 0
            self._name_players(self.view)
            self.write(HELP)
            self._show(self.view, "")
            while self.view.is_running:
                if is_computer(self.view.to_move_id):
                    await self._computer_turn()
                    continue
                prompt = f"{self.names[self.view.game.to_move or Player.PINK]}> "
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

    def _name_players(self, view: GameView) -> None:
        for colour in (Player.PINK, Player.BLUE):
            user_id = view.user_of(colour)
            self.names[colour] = computer_name(user_id) if is_computer(user_id) else colour.label

    async def _computer_turn(self) -> None:
        """Let the computer move (it may play on alone several times after the player ended)."""
        assert self.view is not None
        computer = self.view.to_move_id
        assert computer is not None
        if self.options.computer == "hard":
            self.write(f"{computer_name(computer)} is thinking...")
        outcome = await self.service.computer_move(game_id=self.view.game_id)
        if outcome is None:
            # Someone else (another process on the same file) changed the game: read it again.
            self.view = await self.service.game(self.view.game_id)
            return
        await self._acted(outcome)

    def _is_mine(self, view: GameView) -> bool:
        """Whether a running local game is the kind asked for: against this computer level,
        or two at one keyboard."""
        players = {view.pink_id, view.blue_id}
        if self.computer is not None:
            return players == {PINK_USER_ID, self.computer}
        return players == {PINK_USER_ID, BLUE_USER_ID}

    async def _choose_game(self) -> GameView | None:
        service = self.service
        if not self.options.new:
            running = [
                view
                for view in await service.running_games(
                    user_id=PINK_USER_ID, guild_id=LOCAL_GUILD_ID
                )
                if self._is_mine(view)
            ]
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
            colour=self.options.colour if self.computer else "pink",  # type: ignore[arg-type]
            rated=False,
        )
        if self.options.computer is not None:
            view = await service.start_computer_game(
                guild_id=LOCAL_GUILD_ID,
                channel_id=LOCAL_CHANNEL_ID,
                user_id=PINK_USER_ID,
                level=self.options.computer,
                options=options,
            )
            colour = "Pink (you move first)" if view.pink_id == PINK_USER_ID else "Blue"
            self.write(
                f"You play {colour} against Computer ({self.options.computer}); "
                "`undo` takes back your last move and its reply."
            )
        else:
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
            elif word == "undo":
                undone = await self.service.undo(game_id=view.game_id, user_id=user_id)
                self.view = undone.view
                points = [a.point.name for a in undone.taken if a.point is not None]
                self._show(
                    undone.view, f"You take back {points[0]} and the computer's reply {points[1]}."
                )
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
                path = self._picture(view, suffix="stop-preview", preview=preview)
                self.write(f"Handed over: {names}. Picture: {path}")
        return self._yes(f"{mover.label}: really {'stop' if preview else 'end'}? [y/N] ")

    async def _acted(self, outcome: MoveOutcome) -> None:
        self.view = outcome.view
        self._show(outcome.view, text.action_line(outcome.view.game, self.names))

    def _show(self, view: GameView, headline: str) -> None:
        game = view.game
        self.write(text.board_text(game.board))
        if headline:
            self.write(headline)
        self.write(text.scores_line(game) + ". " + text.turn_line(game, self.names))
        play_on = text.play_on_line(game, move_hint="type a point", end_hint="`end`")
        if play_on and not is_computer(view.to_move_id):  # the computer needs no instructions
            self.write(play_on)
        self.write(f"Picture: {self._picture(view)}")

    def _picture(
        self, view: GameView, *, suffix: str = "", preview: StopPreview | None = None
    ) -> Path:
        out = self.options.out
        out.mkdir(parents=True, exist_ok=True)
        name = f"dots-game-{view.game_id}-{len(view.game.actions):03d}"
        path = out / f"{name}{'-' + suffix if suffix else ''}.png"
        path.write_bytes(game_png(view.game, self.names, preview=preview))
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
        names = self.names
        sgf_path.write_text(
            sgf.dumps(view.game, pink=names[Player.PINK], blue=names[Player.BLUE]),
            encoding="utf-8",
        )
        gif_path = stem.with_suffix(".gif")
        gif_path.write_bytes(game_gif(view.game, names))
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
