"""The computer player: what to do in a game, a dot or an end (stop), for a level and a seed.

``choose`` is a plain synchronous function that reads the game and never changes it: the bot
runs it in a thread or a process pool (a Game and a Record both pickle; ``choose_from_record``
takes the smaller Record).

When it ends (rule 6) and stops (rule 8.2):
- standard rules, the opponent still playing: it ends when it would still win even if the
  opponent then played alone (every safe point filled: ``fill_alone``), and it has nothing
  left to gain (filling every point it safely could, alone, would not raise its score);
- standard rules, the opponent has ended: it plays on alone, closing in on the dots that
  filling alone would take (no search: the opponent does not answer), and ends once filling
  alone would gain nothing more;
- grounding rules: it stops as soon as a stop is allowed and ``stop_preview`` shows it wins.
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass, field
from typing import Literal, TypedDict, Unpack

from ai import collector, kernel, trees
from ai.book import book_move
from ai.field import Field
from ai.ladders import ladder_starts
from ai.levels import Level, level_named
from ai.search import Prior, candidates, search
from ai.tactics import fill_alone, gains, rescue, threats
from engine import Action, Game, GameOverError, Player, Point, Record

# A capture or a rescue found by the root's one-move look starts with this many visits at
# these rewards: enough to be searched first at low budgets, few enough to be overturned.
PRIOR_VISITS = 6
CAPTURE_REWARD = 0.8
RESCUE_REWARD = 0.7
# A working ladder is as sure as a capture: the search's own capture prior (ai/search.py),
# which the ladder's first dot lacks, is made up for by a double head start.
LADDER_VISITS = 2 * PRIOR_VISITS
# The longest a move waits for the compiled kernel to load (from its disk cache: 0.3 s on
# this kind of machine) in a fresh process, at most a third of the move's time cap.
KERNEL_WAIT = 0.5


@dataclass(frozen=True, slots=True)
class Decision:
    """What the computer does: ``kind`` "dot" with its ``point``, or "end" (a stop under
    grounding rules). ``value`` is the search's estimate of its winning chance (0 to 1) and
    ``iterations`` the iterations it ran (0: a book move, or no search was needed), ``reused``
    the visits it started from (a subtree kept from its previous turn, ai/trees.py); none
    takes part in equality."""

    kind: Literal["dot", "end"]
    point: Point | None = None
    value: float = field(default=0.5, compare=False)
    iterations: int = field(default=0, compare=False)
    reused: int = field(default=0, compare=False)

    def action(self, player: Player) -> Action:
        """The engine action of this decision for ``player`` (for ``Game.apply``)."""
        return Action(self.kind, player, self.point)

    def __str__(self) -> str:
        return self.point.name if self.kind == "dot" and self.point else self.kind


def choose(
    game: Game,
    level: str | Level = "medium",
    seed: int | None = None,
    *,
    iterations: int | None = None,
    max_seconds: float | None = None,
    seconds: float | None = None,
    reuse: bool | None = None,
) -> Decision:
    """Decide the move of the player to move in ``game``; the game is not changed.

    The same position, level and seed give the same decision unless the level's time cap
    (``max_seconds``) cut the search short; ``seed=None`` draws a fresh seed. ``iterations``
    and ``max_seconds`` override the level's. ``seconds`` searches for that long instead of
    a count of iterations (equal-time matches; not reproducible). ``reuse`` (None: the
    level's) searches on from the subtree kept from this game's previous turn in this process
    (ai/trees.py); a decision that reused one depends on the searches before it as well.

    Raises:
        GameOverError: the game is over.
        ValueError: no level has that name.
    """
    spec = level_named(level) if isinstance(level, str) else level
    # The time cap and the time budget count from here: on 39x32 the looks before the
    # search (the fills, the threats) take a noticeable part of them.
    started = time.perf_counter()
    # The tree of this process's last move is freed here, within this move's time (ai/trees.py).
    trees.free_retired()
    collector.thaw()
    # The compiled kernel loads (or compiles) in the background, once a process; the
    # pure-Python playouts serve until it is ready (ai/kernel.py).
    kernel.warm_up()
    me = game.to_move
    if me is None:
        raise GameOverError("the game is over")
    if spec.book:
        opening = book_move(game)
        if opening is not None:
            return Decision("dot", opening)
    rng = random.Random(seed)
    board = game.board
    field = Field.from_board(board)
    player = int(me)
    alone = me.opponent in game.ended

    if game.rules == "grounding":
        preview = game.stop_preview(me)
        final = {Player.PINK: preview.pink, Player.BLUE: preview.blue}
        if preview.allowed and final[me] > final[me.opponent]:
            return Decision("end", value=1.0)
    else:
        filled = fill_alone(field, player)
        gain_alone = filled.score[player] - field.score[player]
        if alone:
            if gain_alone == 0:
                return Decision("end", value=_outcome(game, me))
            return Decision("dot", board.point_at(_closing_in(field, filled, player)))
        if gain_alone == 0:
            after = fill_alone(field, 3 - player)
            if after.score[player] > after.score[3 - player]:
                return Decision("end", value=1.0)

    if spec.guard and not alone:
        # No unanswered threat: a dot or group the opponent could take next move is saved
        # when it can be, before any search.
        saving = rescue(field, player)
        if saving is not None:
            return Decision("dot", board.point_at(saving), value=0.5)

    priors: list[Prior] = []
    if spec.captures:
        for i, gain in gains(field, player, candidates(field, player)).items():
            priors.append(Prior(i, PRIOR_VISITS * gain, CAPTURE_REWARD))
    if spec.rescues and not alone:
        taken = {p.index for p in priors}
        for i, loss in threats(field, player).items():
            if i not in taken:
                priors.append(Prior(i, PRIOR_VISITS * loss, RESCUE_REWARD))
    recent = tuple(
        field.index(a.point) for a in game.actions if a.kind == "dot" and a.point is not None
    )[-2:]
    if spec.ladders and not alone:
        priors.extend(_ladder_priors(field, player, recent, {p.index for p in priors}))
    # A load from the disk cache takes a few tenths of a second: worth waiting for, within
    # the move's time, once a search is needed (a move from the book or the looks above is
    # not).
    cap = spec.max_seconds if max_seconds is None else max_seconds
    kernel.warm_up(within=min(KERNEL_WAIT, cap / 3))
    keeping = spec.reuse if reuse is None else reuse
    tree = trees.take(spec.name, game.record) if keeping else None
    reused = tree.visits if tree is not None else 0
    if seconds is not None:
        budget: int | None = iterations
    else:
        budget = spec.iterations if iterations is None else iterations
    result = search(
        field,
        player,
        alone=alone,
        iterations=budget,
        rng=rng,
        policy=spec.policy,
        exploration=spec.exploration,
        rave=spec.rave,
        patterns=spec.patterns,
        recent=recent,
        priors=tuple(priors),
        seconds=None if seconds is None else _left(seconds, started),
        max_seconds=_left(cap, started),
        tree=tree,
    )
    if result.root is not None:
        # Freed at the start of the next move rather than on return, after the deadline.
        trees.retire(result.root)
    if keeping and result.root is not None and result.root.children:
        for child in result.root.children:
            if child.move == result.index:
                played = Action("dot", me, board.point_at(result.index))
                record = game.record
                trees.keep(
                    spec.name, dataclasses.replace(record, actions=(*record.actions, played)), child
                )
                break
    if result.index < 0:
        # No free point at all cannot happen in a running game (rule 6.3); ending is the
        # only thing left to do.
        return Decision("end", value=_outcome(game, me), iterations=result.iterations)
    return Decision("dot", board.point_at(result.index), result.value, result.iterations, reused)


class SearchOptions(TypedDict, total=False):
    """What ``choose`` takes besides the game, the level and the seed (see there)."""

    iterations: int | None
    max_seconds: float | None
    seconds: float | None
    reuse: bool | None


def choose_from_record(
    record: Record,
    level: str | Level = "medium",
    seed: int | None = None,
    **options: Unpack[SearchOptions],
) -> Decision:
    """``choose`` for the game a record describes (a small picklable input for a process pool).

    Raises:
        GameOverError: the game is over.
        DotsError: the record holds an illegal action.
    """
    game = Game.replay(record)
    return choose(game, level, seed, **options)


def _closing_in(field: Field, filled: Field, player: int) -> int:
    """Playing alone: the safe free point nearest (in steps up, down, left, right) to an
    opponent's dot that filling alone would take, lowest index first among equals.

    The points one such step from a group of dots form a ring round it (rule 3.3), so closing
    in from the nearest takes the group with few dots; no search is needed when the opponent
    does not answer, and each move takes a free point, so it ends (with the capture, or a
    full board).
    """
    opponent = 3 - player
    stride = field.stride
    targets = [
        divmod(i, stride)
        for i in range(stride + 1, stride * (field.height + 1) - 1)
        if field.live[i] == opponent and filled.live[i] != opponent
    ]
    best, best_distance = -1, 1 << 30
    for i in field.free_indices():
        row, col = divmod(i, stride)
        distance = min((abs(row - r) + abs(col - c) for r, c in targets), default=0)
        if distance < best_distance and not field.is_suicide(i, player):
            best, best_distance = i, distance
    return best


def _ladder_priors(
    field: Field, player: int, recent: tuple[int, ...], taken: set[int]
) -> list[Prior]:
    """Head starts from the ladder reader: a ladder of ``player``'s to start (as a capture),
    then a point where the opponent would start one (as a rescue: take the point first).
    Moves next to the last dots are read first (the reader's time is capped)."""
    moves = candidates(field, player)
    stride = field.stride

    def distance(i: int) -> int:
        return min(
            (max(abs(i % stride - r % stride), abs(i // stride - r // stride)) for r in recent),
            default=0,
        )

    moves.sort(key=distance)
    found = []
    for i, gain in ladder_starts(field, player, moves).items():
        if i not in taken:
            taken.add(i)
            found.append(Prior(i, LADDER_VISITS * gain, CAPTURE_REWARD))
    for i, gain in ladder_starts(field, 3 - player, moves).items():
        if i not in taken:
            taken.add(i)
            found.append(Prior(i, PRIOR_VISITS * gain, RESCUE_REWARD))
    return found


def _left(seconds: float, started: float) -> float:
    """What is left of ``seconds`` counted from ``started`` (never below zero)."""
    return max(0.0, seconds - (time.perf_counter() - started))


def _outcome(game: Game, me: Player) -> float:
    mine, theirs = game.score(me), game.score(me.opponent)
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
