"""Today's computer (before issue 15), frozen for the bench only: the baseline "hard".

A verbatim copy of ai/playout.py, ai/search.py, ai/tactics.py and ai/player.py as they were
before issue 15 (imports between them removed), so bench/ai.py can match the new levels against
the old search after ai/ changes. It does not ship; nothing outside bench/ imports it.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Literal

from engine import Action, Board, Game, GameOverError, Player, Point

# ---- frozen from ai/playout.py ----


@dataclass(frozen=True, slots=True)
class Policy:
    """How a playout picks its moves: ``local`` is the chance of answering near the last dots;
    ``avoid_rings`` skips dots the opponent's rings would take at once; ``depth`` caps the
    playout's length (None: play until no sensible move is left)."""

    local: float = 0.5
    avoid_rings: bool = True
    depth: int | None = None


class Geometry:
    """Array offsets of one board size, computed once (neighbour steps and the four rays)."""

    __slots__ = ("dirs", "rays", "stride")

    def __init__(self, board: Board) -> None:
        centre = board.index(board.point_at(board.stride + 1))
        self.dirs = tuple(n - centre for n in board.neighbours(centre))
        # N, E, S, W: the steps of rule 3.3.
        self.rays = (self.dirs[0], self.dirs[2], self.dirs[4], self.dirs[6])
        self.stride = board.stride


def is_suicide(board: Board, i: int, player: int, geometry: Geometry) -> bool:
    """Whether a dot of ``player`` on free index ``i`` would be taken at once (rule 4.4).

    Cheap in the usual case: the engine can only take the dot when no orthogonal neighbour is a
    live dot of ``player`` and each of the four rays ends on a live dot of the opponent; only
    then is the dot tried on a copy of the board (a few bytearray copies and one placement).
    """
    live = board.live_at
    opponent = 3 - player
    for step in geometry.rays:
        if live(i + step) == player:
            return False
    for step in geometry.rays:
        c = i + step
        value = live(c)
        while not value:
            c += step
            value = live(c)
        if value != opponent:
            return False
    trial = board.copy()
    trial.place_index(i, player)
    return trial.live_at(i) == 0


def playout(
    board: Board,
    player: int,
    *,
    alone: bool,
    rng: random.Random,
    policy: Policy,
    geometry: Geometry,
    recent: tuple[int, ...] = (),
) -> int:
    """Play ``board`` on from ``player`` to move until no sensible move is left; mutates it.

    ``alone``: the other player has ended (rule 6.2), so ``player`` moves every turn.
    ``recent``: the indices of the last dots, for the local policy. Returns the moves played.
    """
    free = board.free_indices()
    is_free = board.is_free_index
    random_ = rng.random  # int(random() * n) costs a third of randrange(n)
    dirs = geometry.dirs
    avoid = policy.avoid_rings
    local = policy.local
    limit = policy.depth if policy.depth is not None else len(free) + 1
    last = recent[-1] if recent else 0
    before = recent[-2] if len(recent) > 1 else 0
    moves = 0
    stuck = 0  # players in a row who found no sensible move
    while moves < limit and free:
        chosen = -1
        if local and (last or before) and random_() < local:
            near = [c + d for c in (last, before) if c for d in dirs]
            # Several tries from the list instead of filtering it all: most picks succeed.
            for _ in range(4):
                c = near[int(random_() * len(near))]
                if is_free(c) and not (avoid and is_suicide(board, c, player, geometry)):
                    chosen = c
                    break
        if chosen < 0:
            chosen = _pick_global(board, free, player, rng=rng, avoid=avoid, geometry=geometry)
        if chosen < 0:
            stuck += 1
            if alone or stuck == 2:
                break
            player = 3 - player
            continue
        stuck = 0
        board.place_index(chosen, player)
        moves += 1
        before, last = last, chosen
        if not alone:
            player = 3 - player
    return moves


def _pick_global(
    board: Board,
    free: list[int],
    player: int,
    *,
    rng: random.Random,
    avoid: bool,
    geometry: Geometry,
) -> int:
    """A uniform pick among the free points that are not suicide for ``player``; -1 if none.

    ``free`` holds the candidates: points found taken are dropped from it (swap with the last).
    """
    is_free = board.is_free_index
    random_ = rng.random
    skipped: list[int] = []
    found = -1
    while free:
        k = int(random_() * len(free))
        c = free[k]
        free[k] = free[-1]
        free.pop()
        if not is_free(c):
            continue
        if avoid and is_suicide(board, c, player, geometry):
            skipped.append(c)  # the other player may still use it
            continue
        found = c
        break
    free.extend(skipped)
    return found


# ---- frozen from ai/search.py ----


# How far (in king steps) from an existing dot a move may be to enter the tree. Moves further
# away are rarely right on small boards and multiply the branching.
REACH = 2
MARGIN_WEIGHT = 0.1
MARGIN_SCALE = 10.0


@dataclass(frozen=True, slots=True)
class Prior:
    """A head start for a root move found by the tactical look (a capture, or a rescue)."""

    index: int
    visits: int
    reward: float


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found: the move (array index; -1 none), its visits and mean reward, the
    iterations run, and every root move's (visits, mean reward) for inspection."""

    index: int
    visits: int
    value: float
    iterations: int
    children: dict[int, tuple[int, float]]


class Node:
    """A tree node: the move into it, who made it, and the rewards seen below it."""

    __slots__ = ("children", "move", "mover", "untried", "value", "visits")

    def __init__(self, move: int, mover: int) -> None:
        self.move = move
        self.mover = mover
        self.visits = 0
        self.value = 0.0
        self.children: list[Node] = []
        self.untried: list[int] | None = None


def candidates(board: Board, player: int, geometry: Geometry, reach: int = REACH) -> list[int]:
    """The moves worth searching: free points within ``reach`` king steps of a live dot, less
    those the opponent's rings would take at once. Falls back to every free point, and to
    suicide moves when nothing else is left. Ordered by index (a stable order for a seed)."""
    free = board.free_indices()
    if not free:
        return []
    live = board.live_at
    stride = geometry.stride
    near: set[int] = set()
    offsets = [
        dy * stride + dx for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)
    ]
    for i in range(stride + 1, stride * (board.height + 1) - 1):
        if live(i) in (1, 2):
            near.update(i + o for o in offsets)
    if not near:
        # An empty board: open away from the edge, where dots are easy to surround.
        width, height = board.width, board.height
        near = {
            i
            for i in free
            if reach <= i % stride - 1 < width - reach and reach <= i // stride - 1 < height - reach
        }
    pool = [i for i in free if i in near] or free
    safe = [i for i in pool if not is_suicide(board, i, player, geometry)]
    if safe:
        return safe
    if pool is not free:
        safe = [i for i in free if not is_suicide(board, i, player, geometry)]
    return safe or free


def search(
    board: Board,
    player: int,
    *,
    alone: bool,
    iterations: int,
    rng: random.Random,
    policy: Policy,
    exploration: float,
    recent: tuple[int, ...] = (),
    priors: tuple[Prior, ...] = (),
    max_seconds: float | None = None,
) -> SearchResult:
    """Search the position with ``player`` to move; ``alone``: the opponent has ended.

    Pure but for the board it is given, which it does not change.
    """
    geometry = Geometry(board)
    root = Node(-1, 3 - player)
    root.untried = candidates(board, player, geometry)
    for prior in priors:
        if prior.index in root.untried:
            root.untried.remove(prior.index)
            child = Node(prior.index, player)
            child.visits = prior.visits
            child.value = prior.visits * prior.reward
            root.children.append(child)
            root.visits += prior.visits
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    done = 0
    for done in range(1, iterations + 1):
        _iterate(
            board,
            player,
            alone=alone,
            root=root,
            rng=rng,
            policy=policy,
            exploration=exploration,
            geometry=geometry,
            recent=recent,
        )
        # The clock is read every 16 iterations: a check costs about as much as a placement.
        if deadline is not None and not done & 15 and time.perf_counter() > deadline:
            break
    if not root.children:
        return SearchResult(-1, 0, 0.0, done, {})
    best = max(root.children, key=lambda n: (n.visits, n.value))
    return SearchResult(
        best.move,
        best.visits,
        best.value / best.visits,
        done,
        {c.move: (c.visits, c.value / c.visits) for c in root.children},
    )


def _iterate(
    root_board: Board,
    root_player: int,
    *,
    alone: bool,
    root: Node,
    rng: random.Random,
    policy: Policy,
    exploration: float,
    geometry: Geometry,
    recent: tuple[int, ...],
) -> None:
    board = root_board.copy()
    player = root_player
    node = root
    path = [root]
    moves = list(recent[-2:])
    while True:
        if node.untried is None:
            node.untried = candidates(board, player, geometry)
        if node.untried:
            k = rng.randrange(len(node.untried))
            move = node.untried[k]
            node.untried[k] = node.untried[-1]
            node.untried.pop()
            child = Node(move, player)
            node.children.append(child)
            board.place_index(move, player)
            moves.append(move)
            path.append(child)
            if not alone:
                player = 3 - player
            break
        if not node.children:
            break
        node = _select(node, exploration)
        board.place_index(node.move, node.mover)
        moves.append(node.move)
        path.append(node)
        if not alone:
            player = 3 - player
    playout(
        board,
        player,
        alone=alone,
        rng=rng,
        policy=policy,
        geometry=geometry,
        recent=tuple(moves[-2:]),
    )
    me = Player(root_player)
    margin = board.score(me) - board.score(me.opponent)
    reward = _reward(margin)
    for n in path:
        n.visits += 1
        n.value += reward if n.mover == root_player else 1.0 - reward


def _reward(margin: int) -> float:
    """A reward in [0, 1] for the final score margin of the root player."""
    base = 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5
    return (1.0 - MARGIN_WEIGHT) * base + MARGIN_WEIGHT * (
        0.5 + 0.5 * math.tanh(margin / MARGIN_SCALE)
    )


def _select(node: Node, exploration: float) -> Node:
    """The child with the highest UCT bound."""
    log_n = math.log(node.visits)
    best = node.children[0]
    best_score = -1.0
    for child in node.children:
        score = child.value / child.visits + exploration * math.sqrt(log_n / child.visits)
        if score > best_score:
            best, best_score = child, score
    return best


# ---- frozen from ai/tactics.py ----


def gains(board: Board, player: int, moves: list[int], geometry: Geometry) -> dict[int, int]:
    """For each move of ``moves`` that raises ``player``'s score at once, by how much."""
    me = Player(player)
    before = board.score(me)
    found = {}
    for i in moves:
        if not _touches(board, i, player, geometry):
            continue
        trial = board.copy()
        trial.place_index(i, player)
        gain = trial.score(me) - before
        if gain > 0:
            found[i] = gain
    return found


def threats(board: Board, player: int, geometry: Geometry) -> dict[int, int]:
    """The points where the opponent of ``player`` would capture at once, with the loss each
    would cost ``player``: the dots to save by playing there first."""
    return gains(board, 3 - player, board.free_indices(), geometry)


def fill_alone(board: Board, player: int, geometry: Geometry) -> Board:
    """A copy of ``board`` after ``player`` places a dot on every point it safely can while
    the opponent does nothing (rule 6.2): what playing on alone could take at most.

    Points the opponent's rings would take at once are skipped, then retried on the next pass
    (a later dot may make them safe). Costs a board copy per point tried.
    """
    filled = board.copy()
    while True:
        placed = False
        for i in filled.free_indices():
            if filled.is_free_index(i) and not is_suicide(filled, i, player, geometry):
                filled.place_index(i, player)
                placed = True
        if not placed:
            return filled


def _touches(board: Board, i: int, player: int, geometry: Geometry) -> bool:
    """Whether a dot of ``player`` on ``i`` touches two separate runs of its own live dots,
    which every dot that closes a ring does (else it closes nothing)."""
    live = board.live_at
    runs = 0
    previous = live(i + geometry.dirs[7]) == player
    for step in geometry.dirs:
        current = live(i + step) == player
        if current and not previous:
            runs += 1
        previous = current
    return runs >= 2


# ---- frozen from ai/player.py ----


# A capture or a rescue found by the root's one-move look starts with this many visits at
# these rewards: enough to be searched first at low budgets, few enough to be overturned.
PRIOR_VISITS = 6
CAPTURE_REWARD = 0.8
RESCUE_REWARD = 0.7


@dataclass(frozen=True, slots=True)
class Decision:
    """What the computer does: ``kind`` "dot" with its ``point``, or "end" (a stop under
    grounding rules). ``value`` is the search's estimate of its winning chance (0 to 1) and
    ``iterations`` the iterations it ran; neither takes part in equality."""

    kind: Literal["dot", "end"]
    point: Point | None = None
    value: float = field(default=0.5, compare=False)
    iterations: int = field(default=0, compare=False)

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
) -> Decision:
    """Decide the move of the player to move in ``game``; the game is not changed.

    The same position, level and seed give the same decision unless the level's time cap
    (``max_seconds``) cut the search short; ``seed=None`` draws a fresh seed. ``iterations``
    and ``max_seconds`` override the level's.

    Raises:
        GameOverError: the game is over.
        ValueError: no level has that name.
    """
    spec = level_named(level) if isinstance(level, str) else level
    me = game.to_move
    if me is None:
        raise GameOverError("the game is over")
    rng = random.Random(seed)
    board = game.board.copy()
    geometry = Geometry(board)
    player = int(me)
    alone = me.opponent in game.ended

    if game.rules == "grounding":
        preview = game.stop_preview(me)
        final = {Player.PINK: preview.pink, Player.BLUE: preview.blue}
        if preview.allowed and final[me] > final[me.opponent]:
            return Decision("end", value=1.0)
    else:
        filled = fill_alone(board, player, geometry)
        gain_alone = filled.score(me) - board.score(me)
        if alone:
            if gain_alone == 0:
                return Decision("end", value=_outcome(game, me))
            return Decision("dot", board.point_at(_closing_in(board, filled, player, geometry)))
        if gain_alone == 0:
            after = fill_alone(board, 3 - player, geometry)
            if after.score(me) > after.score(me.opponent):
                return Decision("end", value=1.0)

    priors: list[Prior] = []
    if spec.captures:
        for i, gain in gains(board, player, candidates(board, player, geometry), geometry).items():
            priors.append(Prior(i, PRIOR_VISITS * gain, CAPTURE_REWARD))
    if spec.rescues and not alone:
        taken = {p.index for p in priors}
        for i, loss in threats(board, player, geometry).items():
            if i not in taken:
                priors.append(Prior(i, PRIOR_VISITS * loss, RESCUE_REWARD))
    recent = tuple(
        board.index(a.point) for a in game.actions if a.kind == "dot" and a.point is not None
    )[-2:]
    result = search(
        board,
        player,
        alone=alone,
        iterations=spec.iterations if iterations is None else iterations,
        rng=rng,
        policy=spec.policy,
        exploration=spec.exploration,
        recent=recent,
        priors=tuple(priors),
        max_seconds=spec.max_seconds if max_seconds is None else max_seconds,
    )
    if result.index < 0:
        # No free point at all cannot happen in a running game (rule 6.3); ending is the
        # only thing left to do.
        return Decision("end", value=_outcome(game, me), iterations=result.iterations)
    return Decision("dot", board.point_at(result.index), result.value, result.iterations)


def _closing_in(board: Board, filled: Board, player: int, geometry: Geometry) -> int:
    """Playing alone: the safe free point nearest (in steps up, down, left, right) to an
    opponent's dot that filling alone would take, lowest index first among equals.

    The points one such step from a group of dots form a ring round it (rule 3.3), so closing
    in from the nearest takes the group with few dots; no search is needed when the opponent
    does not answer, and each move takes a free point, so it ends (with the capture, or a
    full board).
    """
    opponent = 3 - player
    stride = geometry.stride
    targets = [
        divmod(i, stride)
        for i in range(stride + 1, stride * (board.height + 1) - 1)
        if board.live_at(i) == opponent and filled.live_at(i) != opponent
    ]
    best, best_distance = -1, 1 << 30
    for i in board.free_indices():
        row, col = divmod(i, stride)
        distance = min((abs(row - r) + abs(col - c) for r, c in targets), default=0)
        if distance < best_distance and not is_suicide(board, i, player, geometry):
            best, best_distance = i, distance
    return best


def _outcome(game: Game, me: Player) -> float:
    mine, theirs = game.score(me), game.score(me.opponent)
    return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5


@dataclass(frozen=True, slots=True)
class Level:
    """A frozen level (as ai/levels.py had it before issue 15)."""

    name: str
    iterations: int
    exploration: float
    policy: Policy
    captures: bool = True
    rescues: bool = True
    max_seconds: float = 1.5


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", iterations=30, exploration=1.0, policy=Policy(local=0.5), rescues=False),
        Level("medium", iterations=300, exploration=0.7, policy=Policy(local=0.5)),
        Level("hard", iterations=1500, exploration=0.5, policy=Policy(local=0.5)),
    )
}


def level_named(name: str) -> Level:
    """The frozen level called ``name``."""
    return LEVELS[name]
