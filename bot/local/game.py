"""A terminal game: the commands typed at the keyboard, the board and pictures shown after each
action, and ``play_local`` that runs it over the game service."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from pathlib import Path

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
    N_,
    Text,
    _,
    locale_from_environment,
    normalize,
    translate,
    words,
)
from bot.local.board import board_text, legend
from bot.local.interrupts import Interrupts, Read, Write
from bot.local.options import (
    BLUE_USER_ID,
    LOCAL_CHANNEL_ID,
    LOCAL_GUILD_ID,
    PINK_USER_ID,
    LocalOptions,
)
from bot.local.puzzle import solve_puzzle
from bot.local.review import review_game
from bot.local.words import clean_line, help_text, point_error, result_line, run_line
from bot.pictures import game_gif, game_png
from engine import (
    Colour,
    Player,
    Point,
    Rules,
    Start,
    StopPreview,
    sgf,
)

NAMES = {Player.PINK: "Pink", Player.BLUE: "Blue"}

SORRY = N_("Sorry: {reason}. Type `help` for the commands.")
NO_UNDO = N_("moves are taken back only against the computer")


class LocalGame:
    """One terminal session: reads commands, calls the service, prints boards, writes PNGs."""

    def __init__(
        self,
        service: GameService,
        options: LocalOptions,
        *,
        read: Read,
        write: Write,
        interrupted: Callable[[], bool] = lambda: False,
        command: str = "dots-bot local",
    ) -> None:
        self.service = service
        self.options = options
        # How to start the terminal again, as it was started (``bot.main.command_name``).
        self.command = command
        self.read: Read = lambda prompt: clean_line(read(prompt))
        # Whether Ctrl-C was pressed while the service worked (``Interrupts.interrupted``).
        self.interrupted = interrupted
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
            self.write(self._help())
            self._show(self.view, "")
            while self.view.is_running:
                if is_computer(self.view.to_move_id):
                    await self._computer_turn()
                    continue
                prompt = f"{self.names[self.view.game.to_move or Player.PINK]}> "
                line = self.read(prompt)
                if not await self._command(line):
                    await self._saved()
                    return 0
        except (EOFError, KeyboardInterrupt):
            self.write("")
            await self._saved()
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
            if self.interrupted():
                await self._interrupt_computer(game_id)
            try:
                moved = await asyncio.wait_for(self._moved.get(), timeout=0.1)
            except TimeoutError:
                continue
            if moved.outcome.view.game_id == game_id:
                break
        if self.interrupted():  # pressed as the move came: it was stored, and is not shown
            await self._interrupt_computer(game_id)
        # A run of moves alone (after the player ended) is said in one go, under one board.
        self.view = moved.outcome.view
        self._show(self.view, run_line(moved.outcomes, self.names, self.locale))

    async def _interrupt_computer(self, game_id: int) -> None:
        """Ctrl-C while the computer thinks: its move under way is cancelled before it is
        stored, and the game is left as stored (a move stored as the key was pressed stays).

        Raises:
            KeyboardInterrupt: always, to leave as a press at the prompt does.
        """
        assert self._turns is not None
        await self._turns.stop()
        self.view = await self.service.game(game_id)
        raise KeyboardInterrupt

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
        """The running local games, oldest first: two at one keyboard or against the computer.
        A game left with no moves (by a program that was killed) is dropped, not offered."""
        local = {BLUE_USER_ID, *COMPUTER_IDS.values()}
        saved = []
        for view in await self.service.running_games(user_id=PINK_USER_ID, guild_id=LOCAL_GUILD_ID):
            if not {view.pink_id, view.blue_id} - {PINK_USER_ID} <= local:
                continue
            if view.game.actions:
                saved.append(view)
            else:
                await self.service.abort(game_id=view.game_id, user_id=PINK_USER_ID)
        return saved

    async def _continue(self) -> GameView | None:
        """Offer the saved games that fit the options given; the one chosen, or None."""
        saved = await self._saved_games()
        fitting = [view for view in saved if not self.options.conflicts(view)]
        for view in saved:
            conflicts = self.options.conflicts(view)
            if conflicts:
                not_offered = _(
                    "Saved local game #{game_id} ({game}) is not offered: you asked for "
                    "{options}. `{command}` with no options offers to continue it.",
                    command=self.command,
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
            answer = self.read(question).lower().lstrip("#")
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
        here = {"guild_id": LOCAL_GUILD_ID, "channel_id": LOCAL_CHANNEL_ID}
        if self.options.computer is not None:
            view = await service.start_computer_game(
                **here, user_id=PINK_USER_ID, level=self.options.computer, options=options
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
                **here, pink_id=PINK_USER_ID, blue_id=BLUE_USER_ID, options=options
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
                self.write(self._help())
            elif word == "board":
                self._show(view, "")
            elif word == "puzzle":
                await solve_puzzle(
                    self.service, user_id=user_id, locale=self.locale, out=self.options.out,
                    read=self.read, write=self.write,
                )  # fmt: skip
                self._show(view, "")
            elif word == "undo" and self.computer is None:
                self.write(self.t(_(SORRY, reason=self.t(NO_UNDO))))
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
                elif view.game.rules is Rules.GROUNDING:
                    self.write(self.t(N_("Not stopped; your move.")))
                else:
                    self.write(self.t(N_("Not ended; your move.")))
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
                else:
                    self.write(self.t(N_("Not resigned; your move.")))
            elif word in ("move", "m", "play") and len(parts) == 1:
                self.write(self.t(N_("Which point? For example `move E5`, or just `E5`.")))
            else:
                point = parts[1] if word in ("move", "m", "play") else line
                Point.parse(point, view.game.width, view.game.height)  # said here if not a point
                outcome = await self.service.place(
                    game_id=view.game_id, user_id=user_id, point=point
                )
                await self._acted(outcome)
        except Refusal as refusal:
            self.write(self.t(_(SORRY, reason=refusal.render(self.locale))))
        except ValueError as error:
            self.write(self.t(_(SORRY, reason=self.t(point_error(error, view.game)))))
        return True

    def _confirm_end(self, view: GameView, mover: Player) -> bool:
        game = view.game
        preview = game.stop_preview(mover) if game.rules is Rules.GROUNDING else None
        self.write(text.end_confirmation(game, mover, preview, locale=self.locale))
        if preview is not None:
            if not preview.allowed:
                return False
            if preview.dots:
                self.write(
                    board_text(
                        game, last=text.last_dot(game), crosses=preview.dots, locale=self.locale
                    )
                )
                self.write(legend(self.locale, crosses=True))
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
        crosses = game.handed_over  # by a stop
        last = text.last_dot(game)
        self.write(board_text(game, last=last, crosses=crosses, locale=self.locale))
        self.write(legend(self.locale, crosses=bool(crosses)))
        if headline:
            self.write(headline)
        scores = text.scores_line(game, locale=self.locale)
        if game.result is not None:
            computer = next((c for c in Player if is_computer(view.user_of(c))), None)
            turn = result_line(game, self.names, computer=computer, locale=self.locale)
        else:
            turn = text.turn_line(game, self.names, locale=self.locale)
        self.write(scores + ". " + turn)
        play_on = text.play_on_line(
            game, move_hint=self.t(N_("type a point")), end_hint="`end`", locale=self.locale
        )
        if play_on and not is_computer(view.to_move_id):  # the computer needs no instructions
            self.write(play_on)
        self.write(self.t(_("Picture: {path}", path=self._picture(view))))

    def _picture(
        self, view: GameView, *, suffix: str = "", preview: StopPreview | None = None
    ) -> Path:
        """The picture's file, named for the game and its count of actions; a picture written
        earlier is never overwritten (after `undo` the same count may show another position:
        that one gets ``-2``, ``-3``, ...), and the same picture is not written twice."""
        out = self.options.out
        out.mkdir(parents=True, exist_ok=True)
        png = game_png(view.game, self.names, preview=preview, words=words(self.locale))
        name = f"dots-game-{view.game_id}-{len(view.game.actions):03d}"
        name += f"-{suffix}" if suffix else ""
        path, copy = out / f"{name}.png", 1
        while path.exists() and path.read_bytes() != png:
            copy += 1
            path = out / f"{name}-{copy}.png"
        if not path.exists():
            path.write_bytes(png)
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
        try:
            wanted = self._yes(self.t(N_("Review the game with the computer? [y/N] ")))
        except (EOFError, KeyboardInterrupt):
            wanted = False
        if wanted:
            await review_game(
                self.service, view, user_id=PINK_USER_ID, names=self.names,
                locale=self.locale, out=out, write=self.write,
            )  # fmt: skip

    def _help(self) -> str:
        return help_text(self.locale, computer=self.computer is not None, command=self.command)

    def _yes(self, question: str, *, default: bool = False) -> bool:
        answer = self.read(question).lower()
        if not answer:
            return default
        return answer in ("y", "yes", *self._words(N_("yes")))

    def _words(self, word: str) -> tuple[str, ...]:
        """A yes or no in the game's language, whole and by its first letter."""
        said = self.t(word).lower()
        return (said, said[:1])

    async def _saved(self) -> None:
        """Say that the game is kept for later; a game with no moves is dropped instead."""
        if self.view is not None and self.view.is_running and not self.view.game.actions:
            await self.service.abort(game_id=self.view.game_id, user_id=PINK_USER_ID)
            dropped = _("Game #{game_id} had no moves: it is not kept.", game_id=self.view.game_id)
            self.write(self.t(dropped))
        elif self.view is not None and self.view.is_running:
            saved = _(
                "Game #{game_id} ({game}) is saved; `{command}` offers to continue it.",
                command=self.command,
                game_id=self.view.game_id,
                game=self.describe(self.view),
            )
            self.write(self.t(saved))


async def play_local(
    options: LocalOptions,
    *,
    service: GameService | None = None,
    read: Read = input,
    write: Write = print,
    command: str = "dots-bot local",
) -> int:
    """Run a terminal game; opens (and closes) the database unless a service is given;
    ``command`` is how the terminal was started (its messages say how to come back).

    Ctrl-C leaves like `quit` (see ``Interrupts``).
    """
    with Interrupts(read) as interrupts:
        own = service is None
        if service is None:
            service = await GameService.open(options.database)
        try:
            game = LocalGame(
                service,
                options,
                read=interrupts.read,
                write=write,
                interrupted=interrupts.interrupted,
                command=command,
            )
            return await game.run()
        finally:
            if own:
                await service.close()
