"""A game reviewed by the computer: its estimate at every position and the moves that turned it.

Every position of the game (after 0, 1, ... n actions) is searched once by the computer's own
search (``ai.choose`` at the review level: hard's search without the opening book, the kept
tree or the time-capped ladder reading, so a seed reproduces it; nor its guard, whose rescue
comes without a value: here a rescue is one of the search's priors). The root's value is the
mover's winning chance; the review keeps it as Pink's (``estimates``) with the score difference
Pink - Blue (``scores``) and the move the search prefers (``preferred``). A finished game's
last position is its result (1, 0 or 0.5).

The budget, in iterations per position, scales with the game: ``WORK`` iteration-points for
the whole game (an iteration's playout costs about one step per free point), shared among its
positions, between ``MIN_ITERATIONS`` and ``MAX_ITERATIONS`` per position, with a cap of
``CAP_SECONDS`` per position (a capped search is no longer reproducible; the review says how
many were). So a 10x10 game of 60 moves gets 300 iterations a position, a 20x20 game of 200
moves 100, a 39x32 game of 600 moves 16 (the estimate on a board that big is rough; the
turning points' gains below are exact however rough the estimate). ``bench/review.py`` prints
the times.

A move's loss is how much it lowered its player's estimate (before it, after it). The three
largest of each player are the turning points; each says, FOUND BY THE ENGINE'S RULES on the
computer's Field (never guessed from the estimate), what the preferred move would have done (a
capture of n dots at once, a ladder that captures n, or n dots saved from a capture the
opponent threatened) and what the move played left (a capture of n dots at a point the
opponent could then play).

A search's root value at a small budget is the MOVER's view, and it is optimistic (its best
move's mean, its priors' rewards): read as it is, Pink's chance would zig-zag by about 0.1 to
0.2 between the players' turns on 10x10 and every move would seem to lose that much.
``assemble`` measures that optimism on the game itself (half the median change of a mover's
chance across its own move: the swing every move shows) and takes it off every searched
position's value, the mover's way, so the estimates are Pink's chance the same way on both
players' turns. A move loses more than ``MISTAKE`` (a mistake) or ``BLUNDER`` (a blunder) of
its player's chance by those estimates.

The work is split so that the bot can show progress: ``estimate`` searches a range of
positions (a worker process runs one range at a time) and ``assemble`` builds the review from
them. ``review`` does both at once.
"""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from ai.field import Field
from ai.ladders import ladder_starts
from ai.levels import LEVELS, Level
from ai.player import choose
from ai.tactics import fill_alone, gains, threats
from engine import ActionKind, Game, Player, Point, Record

WORK = 12_000_000
MIN_ITERATIONS = 16
MAX_ITERATIONS = 300
CAP_SECONDS = 5.0
# A move that lowers its player's chance by more than these is a mistake, a blunder.
MISTAKE = 0.1
BLUNDER = 0.2
TURNING_POINTS = 3
# The ladder reader's node budget for the preferred move's gain (its time cap is set high so
# that the nodes, not the clock, bound it: reproducible).
LADDER_NODES = 2000
LADDER_SECONDS = 30.0

GainKind = Literal["capture", "ladder", "save", "none"]


def iterations_for(record: Record) -> int:
    """The search's iterations per position for a review of ``record`` (see the module)."""
    positions = len(record.actions) + 1
    per = WORK // (positions * record.width * record.height)
    return max(MIN_ITERATIONS, min(MAX_ITERATIONS, per))


def review_level(iterations: int) -> Level:
    """The level a review searches at: hard's search, reproducible for a seed, always
    searched (no guard: a rescue is a search's prior, so its value is an estimate too)."""
    return dataclasses.replace(
        LEVELS["hard"],
        name="review",
        iterations=iterations,
        max_seconds=CAP_SECONDS,
        reuse=False,
        ladders=False,
        book=False,
        guard=False,
    )


@dataclass(frozen=True, slots=True)
class Estimate:
    """One position's look: Pink's winning chance, Pink - Blue, the move the search prefers
    (None: an end, or the game is over) and the iterations it ran."""

    pink: float
    score: int
    preferred: Point | None
    iterations: int


def position_seed(seed: int, position: int) -> int:
    """The search's seed for a position: the same for a position however the work is split."""
    return (seed * 1_000_003 + position) % 2**32


def estimate(
    record: Record, start: int, stop: int, *, seed: int, iterations: int
) -> list[Estimate]:
    """The estimates of the positions after ``start`` .. ``stop - 1`` actions of ``record``.

    Raises:
        DotsError: the record holds an illegal action.
    """
    game = position_of(record, start)
    level = review_level(iterations)
    found = []
    for position in range(start, stop):
        if position > start:
            game.apply(record.actions[position - 1])
        found.append(_look(game, level, position_seed(seed, position)))
    return found


def _look(game: Game, level: Level, seed: int) -> Estimate:
    score = game.score(Player.PINK) - game.score(Player.BLUE)
    mover = game.to_move
    if mover is None:
        result = game.result
        winner = result.winner if result is not None else None
        pink = 0.5 if winner is None else 1.0 if winner is Player.PINK else 0.0
        return Estimate(pink, score, None, 0)
    decision = choose(game, level, seed)
    value = decision.value
    if decision.kind == "dot" and mover.opponent in game.ended:
        # Playing on alone (the opponent has ended): no search, the fill decides.
        field = fill_alone(Field.from_board(game.board), int(mover))
        margin = field.score[int(mover)] - field.score[3 - int(mover)]
        value = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    pink = value if mover is Player.PINK else 1.0 - value
    preferred = decision.point if decision.kind == "dot" else None
    return Estimate(round(pink, 4), score, preferred, decision.iterations)


@dataclass(frozen=True, slots=True)
class Gain:
    """What a move does, by the rules: a ``capture`` of ``dots`` at once, a ``ladder`` that
    captures ``dots`` whatever the answers, ``dots`` ``save``d from a capture the opponent
    threatened, or ``none`` of these."""

    kind: GainKind
    dots: int = 0


@dataclass(frozen=True, slots=True)
class Threat:
    """A capture the opponent could make next: ``dots`` dots by a dot on ``point``."""

    point: Point
    dots: int


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """One of the moves that changed the estimate most: its number (1 = the first action),
    who played it, the point played and the one preferred, the player's chance before and
    after it, what the preferred move does and what the move played left to the opponent."""

    move: int
    player: Player
    played: Point
    preferred: Point | None
    before: float
    after: float
    wins: Gain
    left: Threat | None

    @property
    def loss(self) -> float:
        """How much the move lowered its player's chance."""
        return max(0.0, self.before - self.after)


@dataclass(frozen=True, slots=True)
class Summary:
    """One player's dots: how many, how many lost more than ``MISTAKE`` and ``BLUNDER`` of their
    chance, and the mean loss."""

    player: Player
    moves: int
    mistakes: int
    blunders: int
    mean_loss: float


class Captures(NamedTuple):
    """A move that captured: its number, its player, the dots it took."""

    move: int
    player: Player
    dots: int


@dataclass(frozen=True, slots=True)
class Review:
    """A reviewed game: Pink's chance and Pink - Blue after each action (index 0: the start),
    the captures, the turning points (Pink's then Blue's, largest loss first), each player's
    summary, the seed and the iterations per position (``capped``: positions whose search the
    time cap cut short)."""

    estimates: tuple[float, ...]
    scores: tuple[int, ...]
    captures: tuple[Captures, ...]
    turning: tuple[TurningPoint, ...]
    summaries: tuple[Summary, Summary]
    seed: int
    iterations: int
    capped: int = 0

    def to_json(self) -> dict[str, Any]:
        """The review as plain JSON values (points by name)."""
        return {
            "estimates": list(self.estimates),
            "scores": list(self.scores),
            "captures": [[c.move, int(c.player), c.dots] for c in self.captures],
            "turning": [
                {
                    "move": t.move,
                    "player": int(t.player),
                    "played": t.played.name,
                    "preferred": t.preferred.name if t.preferred else None,
                    "before": t.before,
                    "after": t.after,
                    "wins": [t.wins.kind, t.wins.dots],
                    "left": [t.left.point.name, t.left.dots] if t.left else None,
                }
                for t in self.turning
            ],
            "summaries": [
                [int(s.player), s.moves, s.mistakes, s.blunders, s.mean_loss]
                for s in self.summaries
            ],
            "seed": self.seed,
            "iterations": self.iterations,
            "capped": self.capped,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """The review ``to_json`` wrote."""
        pink, blue = (
            Summary(Player(p), moves, mistakes, blunders, loss)
            for p, moves, mistakes, blunders, loss in data["summaries"]
        )
        return cls(
            estimates=tuple(data["estimates"]),
            scores=tuple(data["scores"]),
            captures=tuple(Captures(m, Player(p), d) for m, p, d in data["captures"]),
            turning=tuple(
                TurningPoint(
                    move=t["move"],
                    player=Player(t["player"]),
                    played=Point.parse(t["played"]),
                    preferred=Point.parse(t["preferred"]) if t["preferred"] else None,
                    before=t["before"],
                    after=t["after"],
                    wins=Gain(t["wins"][0], t["wins"][1]),
                    left=Threat(Point.parse(t["left"][0]), t["left"][1]) if t["left"] else None,
                )
                for t in data["turning"]
            ),
            summaries=(pink, blue),
            seed=data["seed"],
            iterations=data["iterations"],
            capped=data.get("capped", 0),
        )

    def turning_of(self, player: Player) -> tuple[TurningPoint, ...]:
        """``player``'s turning points, largest loss first."""
        return tuple(t for t in self.turning if t.player is player)


def assemble(
    record: Record, estimates: Sequence[Estimate], *, seed: int, iterations: int
) -> Review:
    """The review of ``record`` from the estimates of all its positions (``estimate``).

    Raises:
        ValueError: not one estimate per position.
    """
    if len(estimates) != len(record.actions) + 1:
        raise ValueError(
            f"{len(estimates)} estimates for {len(record.actions) + 1} positions of the game"
        )
    game = Game.at_start(record)
    movers: list[Player | None] = []
    captures = []
    for n, action in enumerate(record.actions):
        movers.append(game.to_move)
        placement = game.apply(action)
        if placement is not None:
            for player in (Player.PINK, Player.BLUE):
                if placement.gain(player) > 0:
                    captures.append(Captures(n + 1, player, placement.gain(player)))
    movers.append(game.to_move)
    pinks = steady(record, estimates, movers)
    candidates: list[tuple[float, int, Player, Point]] = []
    losses: dict[Player, list[float]] = {Player.PINK: [], Player.BLUE: []}
    for n, action in enumerate(record.actions):
        if action.kind == ActionKind.DOT and action.point is not None:
            loss = max(0.0, _chance(pinks[n], action.player) - _chance(pinks[n + 1], action.player))
            losses[action.player].append(loss)
            if estimates[n].preferred != action.point:
                candidates.append((loss, n, action.player, action.point))
    turning = []
    for player in (Player.PINK, Player.BLUE):
        mine_only = [c for c in candidates if c[2] is player and c[0] > 0]
        mine_only.sort(key=lambda c: (-c[0], c[1]))
        for _, n, _, played in mine_only[:TURNING_POINTS]:
            before = position_of(record, n)
            preferred = estimates[n].preferred
            turning.append(
                TurningPoint(
                    move=n + 1,
                    player=player,
                    played=played,
                    preferred=preferred,
                    before=_chance(pinks[n], player),
                    after=_chance(pinks[n + 1], player),
                    wins=what_it_wins(before, preferred) if preferred else Gain("none"),
                    left=what_it_leaves(before, played),
                )
            )
    summaries = tuple(_summary(player, losses[player]) for player in (Player.PINK, Player.BLUE))
    return Review(
        estimates=tuple(pinks),
        scores=tuple(e.score for e in estimates),
        captures=tuple(captures),
        turning=tuple(turning),
        summaries=(summaries[0], summaries[1]),
        seed=seed,
        iterations=iterations,
        capped=sum(1 for e in estimates if 0 < e.iterations < iterations),
    )


def steady(
    record: Record, estimates: Sequence[Estimate], movers: Sequence[Player | None]
) -> list[float]:
    """Pink's chance at each position (``movers``: who is to move there), the searched ones'
    mover's optimism taken off (see the module): the optimism is half the median, over the
    dots whose positions before and after were both searched, of how much the mover's chance
    fell across its own dot (the searches' view flips with the mover, so each move shows the
    optimism twice over)."""
    falls = [
        _chance(estimates[n].pink, action.player) - _chance(estimates[n + 1].pink, action.player)
        for n, action in enumerate(record.actions)
        if action.kind == ActionKind.DOT and estimates[n].iterations and estimates[n + 1].iterations
    ]
    optimism = statistics.median(falls) / 2 if falls else 0.0
    pinks = []
    for found, mover in zip(estimates, movers, strict=True):
        if not found.iterations or mover is None:
            pinks.append(found.pink)  # a result, or a fill: exact
            continue
        sign = 1 if mover is Player.PINK else -1
        pinks.append(round(min(1.0, max(0.0, found.pink - sign * optimism)), 4))
    return pinks


def review(
    record: Record,
    *,
    seed: int,
    iterations: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of the game ``record`` describes (``iterations`` per position: None, the
    budget of ``iterations_for``); ``progress(done, total)`` after each position.

    Raises:
        DotsError: the record holds an illegal action.
    """
    per = iterations_for(record) if iterations is None else iterations
    total = len(record.actions) + 1
    found: list[Estimate] = []
    for position in range(total):
        found.extend(estimate(record, position, position + 1, seed=seed, iterations=per))
        if progress is not None:
            progress(position + 1, total)
    return assemble(record, found, seed=seed, iterations=per)


def what_it_wins(game: Game, point: Point) -> Gain:
    """What a dot on ``point`` by the player to move in ``game`` does, by the rules: the dots
    it captures at once, else those a ladder it starts captures whatever the answers (read up
    to ``LADDER_NODES`` placements), else the dots it saves from the opponent's best capture."""
    mover = game.to_move
    if mover is None or not game.board.is_free(point):
        return Gain("none")
    field = Field.from_board(game.board)
    player, i = int(mover), field.index(point)
    trial = field.copy()
    taken = trial.place(i, player)
    if taken > 0:
        return Gain("capture", taken)
    ladder = ladder_starts(field, player, [i], nodes=LADDER_NODES, seconds=LADDER_SECONDS)
    if ladder.get(i, 0) > 0:
        return Gain("ladder", ladder[i])
    saved = _worst(threats(field, player)) - _worst(threats(trial, player))
    if saved > 0:
        return Gain("save", saved)
    return Gain("none")


def what_it_leaves(game: Game, point: Point) -> Threat | None:
    """The opponent's best capture once the player to move in ``game`` has played ``point``
    (None: it could capture nothing at once)."""
    mover = game.to_move
    if mover is None or not game.board.is_free(point):
        return None
    field = Field.from_board(game.board)
    trial = field.copy()
    trial.place(field.index(point), int(mover))
    after = gains(trial, 3 - int(mover), trial.free_indices())
    best = max(after.items(), key=lambda item: (item[1], -item[0]), default=None)
    return None if best is None else Threat(game.board.point_at(best[0]), best[1])


def _summary(player: Player, losses: list[float]) -> Summary:
    """A player's summary of the losses of their dots."""
    if not losses:
        return Summary(player, 0, 0, 0, 0.0)
    return Summary(
        player,
        len(losses),
        sum(1 for loss in losses if loss > MISTAKE),
        sum(1 for loss in losses if loss > BLUNDER),
        round(sum(losses) / len(losses), 4),
    )


def _worst(found: dict[int, int]) -> int:
    return max(found.values(), default=0)


def _chance(pink: float, player: Player) -> float:
    return pink if player is Player.PINK else 1.0 - pink


def position_of(record: Record, actions: int) -> Game:
    """The game ``record`` describes after its first ``actions`` actions.

    Raises:
        DotsError: the record holds an illegal action.
    """
    game = Game.at_start(record)
    for action in record.actions[:actions]:
        game.apply(action)
    return game


# A replayed mistake's answer is good when it keeps its player's chance within this of the
# chance the preferred move keeps (the review's own line between a move and a mistake).
REPLAY_MARGIN = MISTAKE


@dataclass(frozen=True, slots=True)
class Verdict:
    """An answer to a turning point replayed as a puzzle, judged: the point, whether it is
    good, how it was judged (``by``: it is the move ``preferred``, the move ``played``, it
    ``leaves`` the opponent a bigger capture than the move preferred does, or the ``search``
    compared the player's ``chance`` after it with the ``best`` the move preferred keeps), and
    what it leaves the opponent."""

    point: Point
    good: bool
    by: Literal["preferred", "played", "leaves", "search"]
    chance: float = 0.0
    best: float = 0.0
    left: Threat | None = None


def judge_replay(
    record: Record, move: int, answer: Point, *, preferred: Point, seed: int, iterations: int
) -> Verdict:
    """Judge ``answer`` in the position before action ``move`` (1 = the first, a dot) of
    ``record``: the move played is never good and ``preferred`` always is; an answer after
    which the opponent could capture more dots at once than after ``preferred`` (the rules
    tell) is not; else it is good when the search (the review's, at ``iterations``, seeded
    for the position) leaves its player a chance within ``REPLAY_MARGIN`` of what
    ``preferred`` leaves (both seen the same way: the opponent to move after each). At most
    two searches (a worker's job).

    Raises:
        DotsError: the record holds an illegal action, or ``answer`` is no free point.
    """
    before = position_of(record, move - 1)
    player = record.actions[move - 1].player
    left = what_it_leaves(before, answer)
    if answer == record.actions[move - 1].point:
        return Verdict(answer, False, "played", left=left)
    if answer == preferred:
        return Verdict(answer, True, "preferred", left=left)
    kept = what_it_leaves(before, preferred)
    if left is not None and left.dots > (kept.dots if kept is not None else 0):
        return Verdict(answer, False, "leaves", left=left)
    level = review_level(iterations)
    seed = position_seed(seed, move - 1)

    def chance_after(point: Point) -> float:
        game = position_of(record, move - 1)
        game.place(point)
        return round(_chance(_look(game, level, seed).pink, player), 4)

    chance, best = chance_after(answer), chance_after(preferred)
    return Verdict(answer, chance >= best - REPLAY_MARGIN, "search", chance, best, left)
