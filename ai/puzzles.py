"""Puzzles: positions where one move wins dots by force, found and proved by an exact search.

A puzzle is a position with a player to move and a goal: "capture ``goal`` dots" (net: the
player's score less the opponent's, counted from the position to the end of the line) within
``depth`` of its own moves, the opponent answering in between (a later move of the player may
capture nothing: it can always play a quiet dot). It is proved by an exact minimax
(``first_reaches``, ``forced_gain``) on the computer's Field (the engine's rules of capture,
tests/ai/test_field.py): every free point is tried for the player's moves AND for every answer
of the opponent; no Monte-Carlo estimate takes part. Its ``solutions`` are ALL the first moves
that reach the goal; any of them is a right answer, every other point a wrong one.

Two kinds are mined (``find_puzzle``):
- depth 1: a capture of at least ``MIN_CAPTURE`` dots that one or two moves make;
- depth 2: a move after which the player captures at least ``MIN_GAIN`` more than any capture
  it has now, however the opponent answers (a double threat, a one-step ladder, a ring the
  opponent cannot close in time), with at most ``MAX_SOLUTIONS`` first moves that do it.

What it costs: depth 1 is one look at every free point; depth 2 tries every first move, and
for each the opponent's answers until one refutes it (usually the first: the point that
blocks), then a one-move look; a proved first move tries every answer. About 0.1 s on 10x10
and a few seconds on 20x20.

Shipped puzzles live in ``ai/data/puzzles.json`` (``shipped()``), mined from self-play games
by ``bench/mine_puzzles.py``; ``tests/ai/test_puzzles.py`` proves each again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ai.field import Field
from engine import Action, ActionKind, Game, Player, Point, Record, Rules

MIN_CAPTURE = 3
MIN_GAIN = 2
MAX_SOLUTIONS = 2
MAX_DEPTH = 2


def _net(field: Field, player: int) -> int:
    return field.score[player] - field.score[3 - player]


def best_capture(field: Field, player: int) -> tuple[int, list[int]]:
    """The largest net gain one dot of ``player`` makes at once (0: none) and the points that
    make it (none when it is 0)."""
    base = _net(field, player)
    best, where = 0, []
    for i in field.free_indices():
        if not field.captures_at(i, player):
            continue
        trial = field.copy()
        trial.place(i, player)
        gain = _net(trial, player) - base
        if gain > best:
            best, where = gain, [i]
        elif gain == best and gain > 0:
            where.append(i)
    return best, where


def _answers(field: Field, attacker: int) -> list[int]:
    """Every free point, the likeliest refutations first: where the attacker would capture,
    then the rest in index order."""
    free = field.free_indices()
    urgent = [i for i in free if field.captures_at(i, attacker)]
    seen = set(urgent)
    return urgent + [i for i in free if i not in seen]


def reaches(field: Field, player: int, depth: int, target: int) -> bool:
    """Whether ``player`` to move can force a net gain of at least ``target`` within
    ``depth`` of its own moves, the opponent answering with any free point in between."""
    if target <= 0:
        return True
    if depth <= 0 or not field.free:
        return False
    if depth == 1:
        return best_capture(field, player)[0] >= target
    return any(first_reaches(field, player, i, depth, target) for i in field.free_indices())


def first_reaches(field: Field, player: int, first: int, depth: int, target: int) -> bool:
    """Whether ``player``'s dot on free ``first`` forces a net gain of at least ``target``
    within ``depth`` of its moves (this one counted), whatever the opponent answers."""
    base = _net(field, player)
    after = field.copy()
    after.place(first, player)
    gained = _net(after, player) - base
    if depth <= 1 or not after.free:
        return gained >= target
    for answer in _answers(after, player):
        reply = after.copy()
        reply.place(answer, 3 - player)
        if not reaches(reply, player, depth - 1, target - (_net(reply, player) - base)):
            return False
    return True


def forced_gain(field: Field, player: int, first: int, depth: int) -> tuple[int, list[int]]:
    """The net gain ``player``'s dot on free ``first`` forces within ``depth`` of its moves,
    with the line that shows it (first, the opponent's best answer, the capture)."""
    base = _net(field, player)
    after = field.copy()
    after.place(first, player)
    gained = _net(after, player) - base
    if depth <= 1 or not after.free:
        return gained, [first]
    worst, line = None, [first]
    for answer in _answers(after, player):
        reply = after.copy()
        reply.place(answer, 3 - player)
        so_far = _net(reply, player) - base
        more, where = best_capture(reply, player)
        value = so_far + more
        if worst is None or value < worst:
            worst, line = value, [first, answer, *where[:1]]
    assert worst is not None
    return worst, line


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A proved puzzle: the game's record up to the position, the player to move, the goal
    (net dots), the depth (the player's moves), every first move that reaches the goal and the
    line of the first of them (its moves, the opponent's best answer between)."""

    record: Record
    player: Player
    goal: int
    depth: int
    solutions: tuple[Point, ...]
    line: tuple[Point, ...]

    @property
    def key(self) -> str:
        """A short stable name of the puzzle (the same position and goal, the same key)."""
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:12]

    def game(self) -> Game:
        """The puzzle's position, as a game with ``player`` to move.

        Raises:
            DotsError: the stored record holds an illegal action.
        """
        return Game.replay(self.record)

    def is_solution(self, point: Point) -> bool:
        """Whether ``point`` is a right first move."""
        return point in self.solutions

    def to_json(self) -> dict[str, Any]:
        """The puzzle as plain JSON values (points by name, actions as "P:E5"/"B:F6")."""
        return {
            "width": self.record.width,
            "height": self.record.height,
            "start": [f"{p.label[0]}:{q.name}" for p, q in self.record.start_dots],
            "moves": " ".join(_action_text(a) for a in self.record.actions),
            "player": int(self.player),
            "goal": self.goal,
            "depth": self.depth,
            "solutions": [p.name for p in self.solutions],
            "line": [p.name for p in self.line],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """The puzzle ``to_json`` wrote.

        Raises:
            KeyError, ValueError: the data is not a puzzle.
        """
        start = tuple(
            (Player.PINK if text[0] == "P" else Player.BLUE, Point.parse(text[2:]))
            for text in data["start"]
        )
        moves = data["moves"].split()
        actions = tuple(_action_of(text) for text in moves)
        record = Record(data["width"], data["height"], Rules.STANDARD, start_dots=start,
                        actions=actions)  # fmt: skip
        return cls(
            record=record,
            player=Player(data["player"]),
            goal=data["goal"],
            depth=data["depth"],
            solutions=tuple(Point.parse(p) for p in data["solutions"]),
            line=tuple(Point.parse(p) for p in data["line"]),
        )


def _action_text(action: Action) -> str:
    where = action.point.name if action.point is not None else str(action.kind)
    return f"{action.player.label[0]}:{where}"


def _action_of(text: str) -> Action:
    player = Player.PINK if text[0] == "P" else Player.BLUE
    rest = text[2:]
    if rest == str(ActionKind.END):
        return Action(ActionKind.END, player)
    return Action(ActionKind.DOT, player, Point.parse(rest))


def verify(puzzle: Puzzle) -> bool:
    """Whether the exact search proves ``puzzle``: its player is to move, every one of its
    solutions and no other first move forces its goal within its depth, and no first move
    forces more. Costs one proof per solution (every answer tried) and one refutation per
    other free point (usually the first answer tried).

    Raises:
        DotsError: the stored record holds an illegal action.
    """
    game = puzzle.game()
    if game.to_move is not puzzle.player or game.ended:
        return False
    field = Field.from_board(game.board)
    player, depth, goal = int(puzzle.player), puzzle.depth, puzzle.goal
    solutions = {field.index(p) for p in puzzle.solutions}
    for i in field.free_indices():
        if first_reaches(field, player, i, depth, goal) != (i in solutions):
            return False
        if i in solutions and first_reaches(field, player, i, depth, goal + 1):
            return False
    return bool(solutions)


def find_puzzle(game: Game) -> Puzzle | None:
    """A puzzle at this position of ``game`` (standard rules, both players still playing), or
    None: depth 2 when a first move forces ``MIN_GAIN`` more than the best capture now, else
    depth 1 when a capture of ``MIN_CAPTURE`` or more is made by at most ``MAX_SOLUTIONS``
    points."""
    mover = game.to_move
    if mover is None or game.ended or game.rules is not Rules.STANDARD:
        return None
    field = Field.from_board(game.board)
    player = int(mover)
    now, where = best_capture(field, player)
    target = max(now + MIN_GAIN, MIN_GAIN)
    winners = [
        i for i in field.free_indices() if first_reaches(field, player, i, MAX_DEPTH, target)
    ]
    if winners:
        values = {i: forced_gain(field, player, i, MAX_DEPTH) for i in winners}
        goal = max(value for value, _ in values.values())
        best = [i for i in winners if values[i][0] == goal]
        if len(best) > MAX_SOLUTIONS:
            return None
        return _puzzle(game, mover, goal, MAX_DEPTH, firsts=best, line=values[best[0]][1])
    if now >= MIN_CAPTURE and len(where) <= MAX_SOLUTIONS:
        return _puzzle(game, mover, now, 1, firsts=where, line=where[:1])
    return None


def _puzzle(
    game: Game, player: Player, goal: int, depth: int, *, firsts: list[int], line: list[int]
) -> Puzzle:
    point = game.board.point_at
    return Puzzle(
        record=game.record,
        player=player,
        goal=goal,
        depth=depth,
        solutions=tuple(point(i) for i in firsts),
        line=tuple(point(i) for i in line),
    )


def mine(record: Record, *, skip: int = 4) -> Iterator[Puzzle]:
    """The puzzles of a finished game's positions (after the first ``skip`` actions), each
    once: a puzzle left on the board for several moves is given at its first position.

    Raises:
        DotsError: the record holds an illegal action.
    """
    game = Game.at_start(record)
    seen: set[tuple[Player, tuple[Point, ...]]] = set()
    for n, action in enumerate(record.actions):
        if n >= skip:
            found = find_puzzle(game)
            if found is not None and (found.player, found.solutions) not in seen:
                seen.add((found.player, found.solutions))
                yield found
        game.apply(action)


@cache
def shipped() -> tuple[Puzzle, ...]:
    """The puzzles shipped with the project (``ai/data/puzzles.json``)."""
    text = resources.files("ai").joinpath("data/puzzles.json").read_text(encoding="utf-8")
    return tuple(Puzzle.from_json(item) for item in json.loads(text))
