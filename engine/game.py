"""A game: turn order, ending, resigning, the clock's verdict and the record (rules 2, 6-10)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

from engine.board import Board, Placement
from engine.errors import GameOverError, NoStopsError, NotYourTurnError, StopNotAllowedError
from engine.options import EndReason, Rules, Start, check_size
from engine.point import Player, Point
from engine.starts import check_options
from engine.starts import start_dots as starting_dots


class ActionKind(enum.StrEnum):
    """The kinds of action a game record holds (rule 10.1); the values are what is stored."""

    DOT = "dot"
    END = "end"  # an end, or a stop under grounding rules
    RESIGN = "resign"
    TIME = "time"  # the clock's verdict: the player to move ran out of time
    DRAW = "draw"  # a draw by agreement: the player who accepted the other's offer


# A kind may still be given by its value ("dot"): it compares equal to the member.
ActionKindName = Literal["dot", "end", "resign", "time", "draw"]

STOP_MIN_DOTS = 5


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a game record (rule 10.1): a dot, an end, a resignation or a time-out."""

    kind: ActionKind | ActionKindName
    player: Player
    point: Point | None = None

    def __str__(self) -> str:
        if self.kind == ActionKind.DOT and self.point is not None:
            return f"{self.player.label} {self.point.name}"
        return f"{self.player.label} {self.kind!s}"


@dataclass(frozen=True, slots=True)
class Record:
    """Everything that describes a game (rule 10.1); ``Game.replay`` rebuilds it."""

    width: int
    height: int
    rules: Rules = Rules.STANDARD
    start: Start = Start.EMPTY
    start_dots: tuple[tuple[Player, Point], ...] = ()
    actions: tuple[Action, ...] = ()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled compactly, each action as plain numbers (a record goes to the picture and
        search worker processes with every move: as objects, its pickle cost milliseconds
        on a long game, on the bot's event loop)."""
        dots = tuple((int(player), point.x, point.y) for player, point in self.start_dots)
        actions = tuple(
            (str(a.kind), int(a.player), -1, -1)
            if a.point is None
            else (str(a.kind), int(a.player), *a.point)
            for a in self.actions
        )
        return _unpickle_record, (self.width, self.height, self.rules.value, self.start.value,
                                  dots, actions)  # fmt: skip


def _unpickle_record(  # noqa: PLR0917 (pickle passes them by position)
    width: int,
    height: int,
    rules: str,
    start: str,
    dots: tuple[tuple[int, int, int], ...],
    actions: tuple[tuple[ActionKindName, int, int, int], ...],
) -> Record:
    """The record ``Record.__reduce__`` pickled."""
    return Record(
        width,
        height,
        Rules(rules),
        Start(start),
        tuple((Player(p), Point(x, y)) for p, x, y in dots),
        tuple(
            Action(ActionKind(kind), Player(p), None if x < 0 else Point(x, y))
            for kind, p, x, y in actions
        ),
    )


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winner (None for a draw), both scores and the reason."""

    winner: Player | None
    pink: int
    blue: int
    reason: EndReason

    def score(self, player: Player) -> int:
        """The final score of ``player``."""
        return self.pink if player is Player.PINK else self.blue

    def describe(self) -> str:
        """A sentence for players, e.g. ``"Pink wins 5–3 (both ended)"``."""
        why = EndReason(self.reason).description
        if self.winner is None:
            return f"Draw {self.pink}–{self.blue} ({why})"
        # The winner's score first, as results are said.
        won, lost = self.score(self.winner), self.score(self.winner.opponent)
        return f"{self.winner.label} wins {won}–{lost} ({why})"


@dataclass(frozen=True, slots=True)
class StopPreview:
    """What a stop would do now (rule 8.2): the dots handed over and the scores after it."""

    player: Player
    dots: tuple[Point, ...]
    pink: int
    blue: int
    allowed: bool
    reason: str = ""  # why a stop is not allowed, in English ("" when it is)
    refusal: StopNotAllowedError | None = None  # the same as an error, for its fields

    @property
    def loses(self) -> bool:
        """Whether the stopping player would lose the game."""
        mine = self.pink if self.player is Player.PINK else self.blue
        theirs = self.blue if self.player is Player.PINK else self.pink
        return mine < theirs


_Saved = tuple[
    Player | None, frozenset[Player], Result | None, int, int, tuple[Point, ...], Placement | None
]


@dataclass(slots=True)
class _State:
    to_move: Player | None = Player.PINK
    ended: set[Player] = field(default_factory=set)
    result: Result | None = None
    bonus: dict[Player, int] = field(default_factory=lambda: {Player.PINK: 0, Player.BLUE: 0})
    handed_over: tuple[Point, ...] = ()
    placed: dict[Player, int] = field(default_factory=lambda: {Player.PINK: 0, Player.BLUE: 0})
    last_placement: Placement | None = None


class Game:
    """A game of Dots on top of a Board: whose turn it is, and when and how it ends.

    ``any_size`` admits boards smaller than rule 1.1 (imported records, analysis).

    Raises:
        OptionError: a size out of rule 1.1, unknown rules or start, or a start that does not
            fit the board.
    """

    def __init__(
        self,
        width: int = 10,
        height: int = 10,
        *,
        rules: Rules | str = Rules.STANDARD,
        start: Start | str = Start.EMPTY,
        seed: int | None = None,
        start_dots: tuple[tuple[Player, Point], ...] | None = None,
        any_size: bool = False,
    ) -> None:
        if any_size or start_dots is not None:
            # The dots are given (a record read back), so only their names need checking.
            self.rules, self.start = Rules.parse(rules), Start.parse(start)
            if not any_size:
                check_size(width, height)
        else:
            self.rules, self.start = check_options(width, height, rules, start)
        self.board = Board(width, height)
        if start_dots is None:
            start_dots = starting_dots(self.start, width, height, seed)
        # Kept in one canonical order, so that a record read back from SGF (which lists the
        # dots by colour) is equal to the one written.
        self._start_dots = tuple(sorted(start_dots, key=lambda dot: (dot[0], dot[1].y, dot[1].x)))
        for player, point in self._start_dots:
            self.board.place(point, player)
        self._actions: list[Action] = []
        self._state = _State()
        # What each action changed besides the board, for ``pop``: the state before it.
        self._journal: list[_Saved] = []

    # -- reading ---------------------------------------------------------------------------

    @property
    def width(self) -> int:
        """The board's width in points."""
        return self.board.width

    @property
    def height(self) -> int:
        """The board's height in points."""
        return self.board.height

    @property
    def to_move(self) -> Player | None:
        """The player whose turn it is; None once the game is over."""
        return self._state.to_move

    @property
    def is_over(self) -> bool:
        """Whether the game is over (rules 6.3, 6.4, 8.2)."""
        return self._state.result is not None

    @property
    def result(self) -> Result | None:
        """The result once the game is over, else None."""
        return self._state.result

    @property
    def winner(self) -> Player | None:
        """The winner; None for a draw or a running game."""
        return self._state.result.winner if self._state.result else None

    @property
    def ended(self) -> frozenset[Player]:
        """The players who have ended (rule 6.1) and make no more moves."""
        return frozenset(self._state.ended)

    @property
    def handed_over(self) -> tuple[Point, ...]:
        """The dots a stop handed to the opponent (rule 8.2), if the game ended so."""
        return self._state.handed_over

    def score(self, player: Player) -> int:
        """``player``'s score now (rule 5.1, plus the dots a stop handed over, rule 8.2)."""
        return self.board.score(player) + self._state.bonus[player]

    def dots_placed(self, player: Player) -> int:
        """How many dots ``player`` has placed in this game (starting dots not counted)."""
        return self._state.placed[player]

    @property
    def last_move(self) -> Point | None:
        """The point of the last dot placed (starting dots aside), or None."""
        placement = self._state.last_placement
        return placement.point if placement else None

    @property
    def last_placement(self) -> Placement | None:
        """What the last dot did (its bases and captures), or None before the first dot."""
        return self._state.last_placement

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions so far, in order."""
        return tuple(self._actions)

    @property
    def record(self) -> Record:
        """The game's record (rule 10.1)."""
        return Record(
            self.width, self.height, self.rules, self.start, self._start_dots, tuple(self._actions)
        )

    @classmethod
    def at_start(cls, record: Record) -> Game:
        """The game a record describes, before its first action."""
        return cls(
            record.width,
            record.height,
            rules=record.rules,
            start=record.start,
            start_dots=record.start_dots,
            any_size=True,
        )

    @classmethod
    def replay(cls, record: Record) -> Game:
        """The game a record describes, rebuilt action by action (rule 10.1).

        Raises:
            DotsError: an action in the record is illegal.
        """
        game = cls.at_start(record)
        for action in record.actions:
            game.apply(action)
        return game

    def __repr__(self) -> str:
        """``<Game 10x10 standard 12 actions: Pink to move 1–0 '...'>``: options, how far the
        game is and the board's picture rows (see ``Board.__repr__``)."""
        options = f"{self.width}x{self.height} {self.rules}"
        if self.start is not Start.EMPTY:
            options += f" {self.start}"
        if self._state.result is not None:
            status = self._state.result.describe()
        else:
            assert self._state.to_move is not None
            status = (
                f"{self._state.to_move.label} to move, "
                f"Pink {self.score(Player.PINK)} Blue {self.score(Player.BLUE)}"
            )
        rows = self.board.picture().replace(" ", "").replace("\n", "/")
        count = len(self._actions)
        actions = "1 action" if count == 1 else f"{count} actions"
        return f"<Game {options}, {actions}: {status} {rows!r}>"

    # -- acting ----------------------------------------------------------------------------

    def place(self, point: Point | str, player: Player | None = None) -> Placement:
        """Place a dot for the player to move (checked to be ``player`` when given).

        Raises:
            GameOverError: the game is over.
            NotYourTurnError: ``player`` is given and it is not their turn.
            InvalidPointError, OffBoardError, OccupiedError, InsideBaseError: rule 2.2.
        """
        player = self._require_turn(player)
        return self._place(self.board.point(point), player)

    def end(self, player: Player | None = None) -> None:
        """End for the player to move (rule 6.1); under grounding rules, a stop (rule 8.2).

        Raises:
            GameOverError: the game is over.
            NotYourTurnError: ``player`` is given and it is not their turn.
            StopNotAllowedError: a stop before five dots were placed.
        """
        mover = self._require_turn(player)
        if self.rules is Rules.GROUNDING and self._state.placed[mover] < STOP_MIN_DOTS:
            raise StopNotAllowedError(STOP_MIN_DOTS, self._state.placed[mover])
        self.apply(Action(ActionKind.END, mover))

    def resign(self, player: Player) -> None:
        """``player`` resigns (rule 6.4): the game is over and the opponent wins.

        Raises:
            GameOverError: the game is over.
        """
        if self.is_over:
            raise GameOverError
        self.apply(Action(ActionKind.RESIGN, Player(player)))

    def agree_draw(self, player: Player) -> None:
        """``player`` accepts the opponent's offer of a draw: the game is over, drawn
        whatever the score.

        Raises:
            GameOverError: the game is over.
        """
        if self.is_over:
            raise GameOverError
        self.apply(Action(ActionKind.DRAW, Player(player)))

    def time_out(self) -> None:
        """The player to move ran out of time (rule 7.2): they have ended (or stopped).

        Raises:
            GameOverError: the game is over.
        """
        mover = self._require_turn()
        self.apply(Action(ActionKind.TIME, mover))

    def stop_preview(self, player: Player | None = None) -> StopPreview:
        """What a stop by ``player`` (default: the player to move) would do now (rule 8.2)."""
        mover = player or self._state.to_move or Player.PINK
        dots = tuple(self.board.ungrounded(mover))
        scores = {p: self.score(p) for p in Player}
        scores[mover.opponent] += len(dots)
        refusal: StopNotAllowedError | None = None
        reason = ""
        if self.rules is not Rules.GROUNDING:
            refusal = NoStopsError()
            reason = str(refusal)
        elif self._state.placed[mover] < STOP_MIN_DOTS:
            refusal = StopNotAllowedError(STOP_MIN_DOTS, self._state.placed[mover])
            reason = f"a stop is allowed once you have placed {STOP_MIN_DOTS} dots"
        return StopPreview(
            mover, dots, scores[Player.PINK], scores[Player.BLUE], refusal is None, reason, refusal
        )

    def apply(self, action: Action) -> Placement | None:
        """Apply one recorded action without the turn check (for replays and imports, where
        records need not alternate). Returns what a dot did.

        Raises:
            GameOverError: the game is over.
            DotsError: a dot that rule 2.2 forbids.
        """
        if self.is_over:
            raise GameOverError
        state = self._state
        player = action.player
        if action.kind == ActionKind.DOT:
            if action.point is None:
                raise ValueError("a dot action needs a point")
            return self._place(self.board.point(action.point), player)
        self._journal.append(self._saved())
        self._actions.append(action)
        if action.kind == ActionKind.RESIGN:
            self._finish(EndReason.RESIGNED, winner=player.opponent)
        elif action.kind == ActionKind.DRAW:
            self._finish(EndReason.AGREEMENT)
        elif self.rules is Rules.GROUNDING and action.kind in (ActionKind.END, ActionKind.TIME):
            handed = tuple(self.board.ungrounded(player))
            state.handed_over = handed
            state.bonus[player.opponent] += len(handed)
            self._finish(EndReason.STOP if action.kind == ActionKind.END else EndReason.TIME)
        else:
            state.ended.add(player)
            if len(state.ended) == 2:
                self._finish(EndReason.ENDED if action.kind == ActionKind.END else EndReason.TIME)
            else:
                state.to_move = player.opponent
        return None

    def pop(self) -> Action:
        """Take back the last action and return it: the position, scores, turn and result are
        as they were before it (python-chess's ``pop``).

        Reads a journal of what the action changed (``Board.undo`` for a dot), never replays.

        Raises:
            IndexError: no action has been taken.
        """
        if not self._actions:
            raise IndexError("no action to take back")
        action = self._actions.pop()
        saved = self._journal.pop()
        state = self._state
        if action.kind == ActionKind.DOT:
            self.board.undo()
            state.placed[action.player] -= 1
        state.to_move, ended, state.result, pink, blue, state.handed_over = saved[:6]
        state.last_placement = saved[6]
        state.ended = set(ended)
        state.bonus[Player.PINK], state.bonus[Player.BLUE] = pink, blue
        return action

    # -- internals -------------------------------------------------------------------------

    def _saved(self) -> _Saved:
        state = self._state
        return (
            state.to_move,
            frozenset(state.ended),
            state.result,
            state.bonus[Player.PINK],
            state.bonus[Player.BLUE],
            state.handed_over,
            state.last_placement,
        )

    def _require_turn(self, player: Player | None = None) -> Player:
        if self.is_over:
            raise GameOverError
        mover = self._state.to_move
        assert mover is not None
        if player is not None and player is not mover:
            raise NotYourTurnError(mover, Player(player))
        return mover

    def _place(self, point: Point, player: Player) -> Placement:
        saved = self._saved()
        placement = self.board.place(point, player)
        state = self._state
        self._journal.append(saved)
        self._actions.append(Action(ActionKind.DOT, player, point))
        state.placed[player] += 1
        state.last_placement = placement
        if player.opponent not in state.ended:
            state.to_move = player.opponent
        else:
            state.to_move = player
        if self.board.free_count == 0:
            self._finish(EndReason.BOARD_FULL)
        return placement

    def _finish(self, reason: EndReason, winner: Player | None = None) -> None:
        pink, blue = self.score(Player.PINK), self.score(Player.BLUE)
        if reason is EndReason.AGREEMENT:
            winner = None
        elif reason is not EndReason.RESIGNED:
            winner = Player.PINK if pink > blue else Player.BLUE if blue > pink else None
        self._state.result = Result(winner, pink, blue, reason)
        self._state.to_move = None
