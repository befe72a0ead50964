"""Terminal mode: two players at one keyboard, or one against the computer (``--computer``),
over the same GameService and database.

The two local players are fixed pseudo users (ids 1 and 2) in a pseudo server (id 1); Discord
ids are snowflakes far above these, so local games never mix with a server's games or ratings.
Against the computer the player is user 1 and the computer its negative pseudo id. Each action
prints a text board and writes the picture as a PNG whose path is printed.

Options left out on the command line are None in ``LocalOptions``: they do not restrict which
saved game is offered, and a new game takes the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import select
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import resource_tracker
from pathlib import Path
from types import FrameType, TracebackType

from bot import text
from bot.computer_turns import ComputerTurns
from bot.games import (
    COMPUTER_IDS,
    MAX_CLOCK,
    ComputerMoved,
    Event,
    GameOptions,
    GameService,
    GameView,
    MoveOutcome,
    Refusal,
    computer_id,
    computer_level,
    computer_name,
    is_computer,
)
from bot.i18n import (
    LOCALES,
    N_,
    Text,
    _,
    locale_from_environment,
    normalize,
    translate,
    words,
)
from bot.option_words import described
from bot.pictures import game_gif, game_png
from engine import (
    Colour,
    Level,
    OptionError,
    Player,
    Rules,
    Start,
    StopPreview,
    check_options,
    parse_size,
    sgf,
)

LOCAL_GUILD_ID = 1
LOCAL_CHANNEL_ID = 1
PINK_USER_ID = 1
BLUE_USER_ID = 2
NAMES = {Player.PINK: "Pink", Player.BLUE: "Blue"}

HELP = N_("""\
Commands (the player to move types them):
  B7 or move B7   place a dot (column letter, row number; row 1 is at the bottom)
  end             end: you make no more moves (asks to confirm; under grounding rules a stop)
  resign          resign: your opponent wins (asks to confirm)
  board           show the board again
  undo            against the computer: take back your last move and its reply
  help            this list
  quit            leave (so do Ctrl-D and Ctrl-C); the game is saved and `dots-bot local`
                  offers to continue it""")

DEFAULT_SIZE = (10, 10)
SORRY = N_("Sorry: {reason}. Type `help` for the commands.")

Read = Callable[[str], str]
Write = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class LocalOptions:
    """What `dots-bot local` was asked for; None where an option was not given."""

    size: tuple[int, int] | None = None
    rules: Rules | None = None
    start: Start | None = None
    database: str = "dots.sqlite3"
    out: Path = Path("dots-pictures")
    new: bool = False
    computer: Level | None = None
    colour: Colour | None = None
    locale: str | None = None  # None: the terminal's (LANG, LC_MESSAGES)

    @property
    def width(self) -> int:
        """The width of a new game."""
        return (self.size or DEFAULT_SIZE)[0]

    @property
    def height(self) -> int:
        """The height of a new game."""
        return (self.size or DEFAULT_SIZE)[1]

    def conflicts(self, view: GameView) -> list[str]:
        """What about a saved local game contradicts the options given (empty: it fits)."""
        game = view.game
        found = []
        if self.size is not None and self.size != (game.width, game.height):
            found.append(f"--size {self.size[0]}x{self.size[1]}")
        if self.rules is not None and self.rules != game.rules:
            found.append(f"--rules {self.rules}")
        if self.start is not None and self.start != game.start:
            found.append(f"--start {self.start}")
        opponent = view.blue_id if view.pink_id == PINK_USER_ID else view.pink_id
        if self.computer is not None and opponent != computer_id(self.computer):
            found.append(f"--computer {self.computer}")
        you = view.player_of(PINK_USER_ID)
        colour = None if you is None else you.name.lower()
        chosen = None if self.colour in (None, Colour.RANDOM) else self.colour
        if is_computer(opponent) and chosen is not None and colour != chosen:
            found.append(f"--colour {self.colour}")
        return found


def size_argument(value: str) -> tuple[int, int]:
    """``--size``: a board size such as 20x20 (argparse reports a bad one as a usage error)."""
    try:
        return parse_size(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `dots-bot local`; one left out takes its default for a new game and does
    not restrict which saved game is offered. The help is in the terminal's language."""
    parser.add_argument(
        "--size",
        type=size_argument,
        default=None,
        help=_say(N_("board size, e.g. 10x10 (default), 39x32")),
    )
    parser.add_argument(
        "--rules",
        default=None,
        choices=[rules.value for rules in Rules],
        help=_say(_("rule set: {choices} (default: standard)", choices=_described(Rules))),
    )
    parser.add_argument(
        "--start",
        default=None,
        choices=[start.value for start in Start],
        help=_say(_("starting position: {choices} (default: empty)", choices=_described(Start))),
    )
    parser.add_argument("--db", default=None, help=_say(N_("SQLite file (default: DOTS_DATABASE)")))
    parser.add_argument(
        "--out", default="dots-pictures", help=_say(N_("folder for the PNG pictures"))
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help=_say(N_("start a new game even if one is unfinished")),
    )
    parser.add_argument(
        "--computer",
        choices=[level.value for level in Level],
        default=None,
        help=_say(
            _(
                "play against the computer at this level (unrated) instead of two at one "
                "keyboard: {choices}",
                choices=_described(Level),
            )
        ),
    )
    parser.add_argument(
        "--colour",
        choices=[colour.value for colour in Colour],
        default=None,
        help=_say(
            _(
                "your colour against the computer: {choices} (default: pink)",
                choices=_described(Colour),
            )
        ),
    )
    parser.add_argument(
        "--lang",
        choices=list(LOCALES),
        default=None,
        help=_say(N_("the language of the game (default: the terminal's, from LANG)")),
    )


def _say(message: Text) -> str:
    """``message`` in the terminal's language (for --help, before --lang is read)."""
    return translate(locale_from_environment(), message)


def _described(options: type[Rules | Start | Level | Colour]) -> str:
    """The choices with what each means, for --help: ``"easy: takes what it is given; ..."``.
    argparse formats help with %, so a literal % is doubled."""
    locale = locale_from_environment()
    return "; ".join(
        f"{option.value}: {translate(locale, entry.description)}"
        for option, entry in described(options)
    ).replace("%", "%%")


def options_from(args: argparse.Namespace, *, database: str) -> LocalOptions:
    """LocalOptions from parsed arguments.

    Raises:
        ValueError: a start that does not fit on the board (the engine's reason), or an option
            that names no choice (argparse refuses those first).
    """
    size = args.size if isinstance(args.size, tuple) else None
    if isinstance(args.size, str):  # a size given as text by a caller that skipped argparse
        size = parse_size(args.size)
    if args.start is not None:
        width, height = size or DEFAULT_SIZE
        try:
            check_options(width, height, args.rules or Rules.STANDARD, args.start)
        except OptionError as error:
            reason = translate(locale_from_environment(), text.error_message(error))
            raise ValueError(f"--start {args.start}: {reason}") from None
    return LocalOptions(
        size=size,
        rules=None if args.rules is None else Rules.parse(args.rules),
        start=None if args.start is None else Start.parse(args.start),
        database=args.db or database,
        out=Path(args.out),
        new=args.new,
        computer=None if args.computer is None else Level.parse(args.computer),
        colour=None if args.colour is None else Colour.parse(args.colour),
        locale=getattr(args, "lang", None),
    )


class LocalGame:
    """One terminal session: reads commands, calls the service, prints boards, writes PNGs."""

    def __init__(
        self, service: GameService, options: LocalOptions, *, read: Read, write: Write
    ) -> None:
        self.service = service
        self.options = options
        self.read = read
        self.write: Write = lambda message: write(text.plain(message))  # no Discord markdown
        self.locale = normalize(options.locale or locale_from_environment())
        self.view: GameView | None = None
        self.pictures: list[Path] = []
        self.computer = computer_id(options.computer) if options.computer else None
        self.names = {colour: text.label(colour, self.locale) for colour in Player}
        self._turns: ComputerTurns | None = None
        self._moved: asyncio.Queue[ComputerMoved] = asyncio.Queue()

    async def run(self) -> int:
        """Play until the game is over or the players leave; the exit status."""
        try:
            self.view = await self._choose_game()
            if self.view is None:
                return 0
            self._name_players(self.view)
            self.write(self.t(HELP))
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
        finally:
            if self._turns is not None:
                await self._turns.stop()
        await self._finish()
        return 0

    def _name_players(self, view: GameView) -> None:
        for colour in (Player.PINK, Player.BLUE):
            user_id = view.user_of(colour)
            if is_computer(user_id):
                self.names[colour] = computer_name(user_id, self.locale)
            else:
                self.names[colour] = text.label(colour, self.locale)

    def t(self, message: Text) -> str:
        """``message`` in the game's language."""
        return translate(self.locale, message)

    async def _computer_turn(self) -> None:
        """Show the computer's move, played by the service's ComputerTurns as soon as the
        player's move was committed (it may play on alone several times after the player
        ended)."""
        assert self.view is not None
        game_id = self.view.game_id
        if self._turns is None:
            self._turns = ComputerTurns(self.service)
            self.service.subscribe(self._computer_moved)
        computer = self.view.to_move_id
        assert computer is not None
        if self.options.computer == "hard":
            self.write(
                self.t(_("{name} is thinking...", name=computer_name(computer, self.locale)))
            )
        while True:
            if self._moved.empty() and not self._turns.is_armed(game_id=game_id):
                if not is_computer((await self.service.game(game_id)).to_move_id):
                    # Someone else (another process on the same file) changed the game.
                    self.view = await self.service.game(game_id)
                    return
                self._turns.arm(game_id)
            try:
                moved = await asyncio.wait_for(self._moved.get(), timeout=1.0)
            except TimeoutError:
                continue
            if moved.outcome.view.game_id == game_id:
                break
        for outcome in moved.outcomes:
            await self._acted(outcome)

    def _computer_moved(self, event: Event) -> None:
        if isinstance(event, ComputerMoved):
            self._moved.put_nowait(event)

    def _opponent(self, view: GameView) -> str:
        """Who plays whom, for a description: the computer's level and your colour, or two
        players at one keyboard."""
        you = view.player_of(PINK_USER_ID)
        opponent = view.blue_id if you is Player.PINK else view.pink_id
        if is_computer(opponent) and you is not None:
            colour = text.label(you, self.locale)
            return self.t(
                _(
                    "you ({colour}) against {name}",
                    colour=colour,
                    name=computer_name(opponent, self.locale),
                )
            )
        return self.t(N_("two players at one keyboard"))

    def describe(self, view: GameView, *, moves: bool = True) -> str:
        """A local game in one line: size, rules, start, opponent (and the moves so far)."""
        return text.describe_local_game(
            view.game, opponent=self._opponent(view), moves=moves, locale=self.locale
        )

    async def _saved_games(self) -> list[GameView]:
        """The running local games, oldest first: two at one keyboard or against the computer."""
        local = {BLUE_USER_ID, *COMPUTER_IDS.values()}
        return [
            view
            for view in await self.service.running_games(
                user_id=PINK_USER_ID, guild_id=LOCAL_GUILD_ID
            )
            if {view.pink_id, view.blue_id} - {PINK_USER_ID} <= local
        ]

    async def _continue(self) -> GameView | None:
        """Offer the saved games that fit the options given; the one chosen, or None."""
        saved = await self._saved_games()
        fitting = [view for view in saved if not self.options.conflicts(view)]
        for view in saved:
            conflicts = self.options.conflicts(view)
            if conflicts:
                not_offered = _(
                    "Saved local game #{game_id} ({game}) is not offered: you asked for "
                    "{options}. `dots-bot local` with no options offers to continue it.",
                    game_id=view.game_id,
                    game=self.describe(view),
                    options=" ".join(conflicts),
                )
                self.write(self.t(not_offered))
        if not fitting:
            return None
        if len(fitting) == 1:
            view = fitting[0]
            question = _(
                "Continue local game #{game_id} ({game})? [Y/n] ",
                game_id=view.game_id,
                game=self.describe(view),
            )
            return view if self._yes(self.t(question), default=True) else None
        self.write(self.t(N_("Saved local games:")))
        for view in fitting:
            self.write(f"  #{view.game_id}: {self.describe(view)}")
        by_number = {str(view.game_id): view for view in fitting}
        latest = fitting[-1]
        question = self.t(
            _(
                "Continue which? Its number (Enter: #{game_id}; n: a new game): ",
                game_id=latest.game_id,
            )
        )
        while True:
            answer = self.read(question).strip().lower().lstrip("#")
            if not answer:
                return latest
            if answer in ("n", "no", "new", *self._words(N_("no"))):
                return None
            if answer in by_number:
                return by_number[answer]
            self.write(
                self.t(
                    _(
                        "Sorry: `{answer}` is not one of these games; type its number or n.",
                        answer=answer,
                    )
                )
            )

    async def _choose_game(self) -> GameView | None:
        service = self.service
        if not self.options.new:
            view = await self._continue()
            if view is not None:
                opponent = view.blue_id if view.pink_id == PINK_USER_ID else view.pink_id
                if is_computer(opponent):
                    level = computer_level(opponent)
                    self.options = dataclasses.replace(self.options, computer=level)
                    self.computer = opponent
                return view
        options = GameOptions(
            width=self.options.width,
            height=self.options.height,
            rules=Rules(self.options.rules or Rules.STANDARD),
            start=Start(self.options.start or Start.EMPTY),
            clock=MAX_CLOCK,  # nobody times out at a shared keyboard
            colour=Colour(self.options.colour or Colour.PINK) if self.computer else Colour.PINK,
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
            if view.pink_id == PINK_USER_ID:
                colour = self.t(N_("Pink (you move first)"))
            else:
                colour = self.t(N_("Blue"))
            self.write(
                self.t(
                    _(
                        "You play {colour} against {name}; `undo` takes back your last move "
                        "and its reply.",
                        colour=colour,
                        name=computer_name(computer_id(self.options.computer), self.locale),
                    )
                )
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
            self.t(
                _(
                    "New local game #{game_id}: {game}.",
                    game_id=view.game_id,
                    game=self.describe(view, moves=False),
                )
            )
        )
        return view

    async def _command(self, line: str) -> bool:
        """Handle one line; False when the players want to leave."""
        assert self.view is not None
        view = self.view
        parts = line.split(maxsplit=1)
        if not parts:
            return True
        word = parts[0].lower()
        mover = view.game.to_move
        assert mover is not None
        user_id = view.user_of(mover)
        try:
            if word in ("quit", "exit", "q"):
                return False
            if word in ("help", "?", "h"):
                self.write(self.t(HELP))
            elif word == "board":
                self._show(view, "")
            elif word == "undo":
                undone = await self.service.undo(game_id=view.game_id, user_id=user_id)
                self.view = undone.view
                points = [a.point.name for a in undone.taken if a.point is not None]
                taken = _(
                    "You take back {point} and the computer's reply {reply}.",
                    point=points[0],
                    reply=points[1],
                )
                self._show(undone.view, self.t(taken))
            elif word == "end":
                if self._confirm_end(view, mover):
                    await self._acted(await self.service.end(game_id=view.game_id, user_id=user_id))
            elif word == "resign":
                question = _(
                    "{colour} resigns and {other} wins? [y/N] ",
                    colour=text.label(mover, self.locale),
                    other=text.label(mover.opponent, self.locale),
                )
                if self._yes(self.t(question)):
                    await self._acted(
                        await self.service.resign(game_id=view.game_id, user_id=user_id)
                    )
            elif word in ("move", "m", "play") and len(parts) == 1:
                self.write(self.t(N_("Which point? For example `move E5`, or just `E5`.")))
            else:
                point = parts[1] if word in ("move", "m", "play") else line
                outcome = await self.service.place(
                    game_id=view.game_id, user_id=user_id, point=point
                )
                await self._acted(outcome)
        except Refusal as refusal:
            self.write(self.t(_(SORRY, reason=refusal.render(self.locale))))
        except ValueError as error:
            self.write(self.t(_(SORRY, reason=self.t(text.error_message(error)))))
        return True

    def _confirm_end(self, view: GameView, mover: Player) -> bool:
        game = view.game
        preview = game.stop_preview(mover) if game.rules is Rules.GROUNDING else None
        self.write(text.end_confirmation(game, mover, preview, locale=self.locale))
        if preview is not None:
            if not preview.allowed:
                return False
            if preview.dots:
                names = ", ".join(point.name for point in preview.dots)
                path = self._picture(view, suffix="stop-preview", preview=preview)
                self.write(
                    self.t(_("Handed over: {points}. Picture: {path}", points=names, path=path))
                )
        colour = text.label(mover, self.locale)
        if preview:
            question = _("{colour}: really stop? [y/N] ", colour=colour)
        else:
            question = _("{colour}: really end? [y/N] ", colour=colour)
        return self._yes(self.t(question))

    async def _acted(self, outcome: MoveOutcome) -> None:
        self.view = outcome.view
        self._show(
            outcome.view, text.action_line(outcome.view.game, self.names, locale=self.locale)
        )

    def _show(self, view: GameView, headline: str) -> None:
        game = view.game
        self.write(text.board_text(game.board, last=text.last_dot(game)))
        self.write(self.t(text.BOARD_LEGEND))
        if headline:
            self.write(headline)
        scores = text.scores_line(game, locale=self.locale)
        self.write(scores + ". " + text.turn_line(game, self.names, locale=self.locale))
        play_on = text.play_on_line(
            game, move_hint=self.t(N_("type a point")), end_hint="`end`", locale=self.locale
        )
        if play_on and not is_computer(view.to_move_id):  # the computer needs no instructions
            self.write(play_on)
        self.write(self.t(_("Picture: {path}", path=self._picture(view))))

    def _picture(
        self, view: GameView, *, suffix: str = "", preview: StopPreview | None = None
    ) -> Path:
        out = self.options.out
        out.mkdir(parents=True, exist_ok=True)
        name = f"dots-game-{view.game_id}-{len(view.game.actions):03d}"
        path = out / f"{name}{'-' + suffix if suffix else ''}.png"
        path.write_bytes(game_png(view.game, self.names, preview=preview, words=words(self.locale)))
        if not suffix:
            self.pictures.append(path)
        return path

    async def _finish(self) -> None:
        assert self.view is not None
        view = self.view
        if view.result is None and view.game.result is None:
            self.write(self.t(N_("The game was aborted.")))
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
        gif_path.write_bytes(game_gif(view.game, names, words(self.locale)))
        over = _("Game over. Replay: {gif}  Record (SGF): {sgf}", gif=gif_path, sgf=sgf_path)
        self.write(self.t(over))

    def _yes(self, question: str, *, default: bool = False) -> bool:
        answer = self.read(question).strip().lower()
        if not answer:
            return default
        return answer in ("y", "yes", *self._words(N_("yes")))

    def _words(self, word: str) -> tuple[str, ...]:
        """A yes or no in the game's language, whole and by its first letter."""
        said = self.t(word).lower()
        return (said, said[:1])

    def _saved(self) -> None:
        if self.view is not None and self.view.is_running:
            saved = _(
                "Game #{game_id} ({game}) is saved; `dots-bot local` offers to continue it.",
                game_id=self.view.game_id,
                game=self.describe(self.view),
            )
            self.write(self.t(saved))


class Interrupts:
    """Ctrl-C in the terminal: one press leaves and saves the game, like Ctrl-D and `quit`.

    asyncio.run's own handler only cancels the main task, which a blocking ``input()`` does
    not notice: the first press seemed to do nothing and the second raised inside the
    database code. Here SIGINT is blocked except while a line is being read, and a press
    raises KeyboardInterrupt from the read. Pressed while the service works (a move being
    stored, the computer thinking) it waits for the next read, so no action is cut in half,
    and the threads and the computer's worker processes started meanwhile inherit the block
    (a worker that took it while starting would die with a traceback).

    On a terminal the line is read by ``terminal_line``, which waits in ``select()`` on stdin
    and on the signal wakeup fd rather than in ``input()``: a press just before ``input()``
    blocks would be lost (Python runs handlers only in the main thread, between bytecodes),
    and the wakeup fd gets its byte whenever the signal comes.
    """

    def __init__(self, read: Read) -> None:
        self._read = read
        self._reading = False
        self._pending = False
        self._active = False
        self._previous: Callable[[int, FrameType | None], object] | int | None = None
        self._mask: set[signal.Signals] = set()
        self._wakeup: tuple[int, int] | None = None
        self._previous_wakeup = -1

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is not threading.main_thread():  # signals reach only it
            return self
        # multiprocessing unblocks SIGINT in the thread that first starts its resource tracker
        # (the computer's process pool does): start it now, before blocking.
        resource_tracker.ensure_running()
        self._previous = signal.signal(signal.SIGINT, self._on_interrupt)
        self._mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        self._active = True
        if self._read is input and sys.stdin.isatty():
            wakeup = os.pipe()
            for fd in wakeup:
                os.set_blocking(fd, False)
            self._previous_wakeup = signal.set_wakeup_fd(wakeup[1], warn_on_full_buffer=False)
            self._wakeup = wakeup
            self._read = self.terminal_line
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if not self._active:
            return
        # A press while the game was closing is swallowed as the mask is restored.
        signal.signal(signal.SIGINT, lambda signum, frame: None)
        signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)
        signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]
        if self._wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
            for fd in self._wakeup:
                os.close(fd)
            self._wakeup = None
        self._active = False

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        if self._reading:
            raise KeyboardInterrupt
        self._pending = True  # a race at the edge of a read: the next read raises it

    def read(self, prompt: str) -> str:
        """Read a line; KeyboardInterrupt if Ctrl-C is pressed while waiting or was before."""
        if not self._active:
            return self._read(prompt)
        self._reading = True
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a waiting one fires
            if self._pending:
                raise KeyboardInterrupt
            return self._read(prompt)
        finally:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            self._reading = False

    def terminal_line(self, prompt: str) -> str:
        """``input()`` for a terminal that every Ctrl-C interrupts.

        Raises:
            EOFError: Ctrl-D (end of input).
            KeyboardInterrupt: Ctrl-C.
        """
        assert self._wakeup is not None
        wakeup = self._wakeup[0]
        sys.stdout.write(prompt)
        sys.stdout.flush()
        stdin = sys.stdin.fileno()
        while True:
            ready, _, _ = select.select([stdin, wakeup], [], [])
            if wakeup in ready:
                # The handler runs before the next bytecode (and raises); this drains the byte
                # of a signal that was already handled.
                with contextlib.suppress(BlockingIOError):
                    os.read(wakeup, 512)
                continue
            # A terminal in canonical mode hands over one whole line at a time.
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.removesuffix("\n")


async def play_local(
    options: LocalOptions,
    *,
    service: GameService | None = None,
    read: Read = input,
    write: Write = print,
) -> int:
    """Run a terminal game; opens (and closes) the database unless a service is given.

    Ctrl-C leaves like `quit` (see ``Interrupts``).
    """
    with Interrupts(read) as interrupts:
        own = service is None
        if service is None:
            service = await GameService.open(options.database)
        try:
            game = LocalGame(service, options, read=interrupts.read, write=write)
            return await game.run()
        finally:
            if own:
                await service.close()
