"""Random games against invariants and against a slow reference of the rules (hypothesis).

Each game is played on a random board by a random player that mostly places dots next to the
last few dots (so rings and bases happen often), sometimes anywhere, sometimes tries an illegal
point, and now and then ends, times out or resigns.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Board,
    Game,
    GameOverError,
    InsideBaseError,
    NotYourTurnError,
    OccupiedError,
    Player,
    Point,
    StopNotAllowedError,
    sgf,
)

from .helpers import (
    BLUE,
    PINK,
    SYMMETRIES,
    game_state,
    rows,
    transform,
    transform_picture,
    transformed_size,
)
from .reference import RefBoard

SETTINGS = settings(
    deadline=None,
    max_examples=30,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass
class Expect:
    """What rules 6 and 8.2 say about the game, tracked independently of the engine."""

    to_move: Player | None = PINK
    ended: set[Player] = field(default_factory=set)
    over_reason: str | None = None
    placed: dict[Player, int] = field(default_factory=lambda: {PINK: 0, BLUE: 0})


def _neighbours(p: Point) -> list[Point]:
    return [Point(p.x + dx, p.y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


def _reference_grounded(board: Board, player: Player) -> set[Point]:
    """Rule 8.1 by brute force: live dots linked to the outer line, crossed diagonals cut."""
    w, h = board.width, board.height

    def live(p: Point, who: Player) -> bool:
        return 0 <= p.x < w and 0 <= p.y < h and board.is_live(p) and board.dot(p) is who

    start = [
        p for p in board.points() if live(p, player) and (p.x in (0, w - 1) or p.y in (0, h - 1))
    ]
    seen = set(start)
    stack = list(start)
    while stack:
        p = stack.pop()
        for q in _neighbours(p):
            if q in seen or not live(q, player):
                continue
            if q.x != p.x and q.y != p.y:
                a, b = Point(p.x, q.y), Point(q.x, p.y)
                if live(a, player.opponent) and live(b, player.opponent):
                    continue
            seen.add(q)
            stack.append(q)
    return seen


def _inside_of_ring(ring: tuple[Point, ...], width: int, height: int) -> set[Point]:
    """Rule 3.3 for one ring: the points that cannot reach off the board by steps up, down,
    left and right without stepping on the ring's dots."""
    walls = set(ring)
    start = [Point(x, y) for x in range(-1, width + 1) for y in (-1, height)]
    start += [Point(x, y) for y in range(height) for x in (-1, width)]
    seen = set(start)
    stack = list(start)
    while stack:
        p = stack.pop()
        for q in (
            Point(p.x + 1, p.y),
            Point(p.x - 1, p.y),
            Point(p.x, p.y + 1),
            Point(p.x, p.y - 1),
        ):
            if -1 <= q.x <= width and -1 <= q.y <= height and q not in seen and q not in walls:
                seen.add(q)
                stack.append(q)
    return {p for p in Board(width, height).points() if p not in seen and p not in walls}


def check_board(board: Board) -> None:
    """Invariants of a position that hold at every moment."""
    w, h = board.width, board.height
    counted = {PINK: 0, BLUE: 0}
    free = []
    owned: set[Point] = set()
    for p in board.points():
        dot, owner = board.dot(p), board.owner(p)
        # Rule 2.2: free means no dot and inside no base.
        assert board.is_free(p) == (dot is None and owner is None), p
        if dot is None and owner is None:
            free.append(p)
        if owner is not None:
            owned.add(p)
            if dot is owner.opponent:
                counted[owner] += 1
        # Rule 3.2: a live dot is a dot outside every base.
        assert board.is_live(p) == (dot is not None and owner is None), p
        if p.x in (0, w - 1) or p.y in (0, h - 1):
            assert owner is None, f"{p.name} on the outer line is inside a base"
    # Rule 5.1: a score is the opponent's dots inside the player's bases.
    assert board.score(PINK) == counted[PINK]
    assert board.score(BLUE) == counted[BLUE]
    assert board.free_count == len(free)
    assert list(board.free_points()) == free
    # Every standing base: its ring is a closed chain of its owner's live dots, its area is
    # exactly the inside of that ring (3.3), and the areas cover the owned points.
    areas: set[Point] = set()
    for base in board.bases:
        ring = base.ring
        assert len(ring) >= 4 and len(set(ring)) == len(ring)
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            assert max(abs(a.x - b.x), abs(a.y - b.y)) == 1, (a, b)
        assert all(board.dot(p) is base.owner and board.is_live(p) for p in ring)
        assert base.area == _inside_of_ring(ring, w, h)
        assert all(board.owner(p) is base.owner for p in base.area)
        # Bases of different players never overlap (a swallowed base is gone); a base of the
        # same player may stand inside a pocket of a bigger one.
        for other in board.bases:
            assert other.owner is base.owner or other.area.isdisjoint(base.area)
        areas |= base.area
    assert areas == owned


def compare(board: Board, ref: RefBoard) -> None:
    """The engine's position equals the reference's."""
    assert board.picture() == ref.picture()
    assert board.score(PINK) == ref.score(PINK)
    assert board.score(BLUE) == ref.score(BLUE)


def _pick(rng: random.Random, game: Game, recent: list[Point]) -> Point:
    """A point to try: mostly free and near recent dots; sometimes any point at all."""
    board = game.board
    if rng.random() < 0.1:
        return Point(rng.randrange(board.width), rng.randrange(board.height))
    if recent and rng.random() < 0.75:
        near = [q for c in recent[-4:] for q in _neighbours(c) if board.is_free(q)]
        if near:
            return rng.choice(near)
    return rng.choice(list(board.free_points()))


def play_random_game(
    rng: random.Random,
    game: Game,
    *,
    reference: RefBoard | None,
    full_check_every: int,
    stop_rate: float = 0.01,
) -> Expect:
    """Play ``game`` to its end (or a step limit) at random, checking it at every step."""
    expect = Expect()
    board = game.board
    recent: list[Point] = []
    history: list[tuple[Point, Player]] = sorted(board.dots())
    step = 0
    while not game.is_over and step < 4 * board.width * board.height:
        step += 1
        mover = game.to_move
        assert mover is not None and mover is expect.to_move
        roll = rng.random()
        if roll < stop_rate:
            _try_end(game, expect, mover, timed=rng.random() < 0.3)
        elif roll < stop_rate * 1.1:
            who = rng.choice([PINK, BLUE])
            game.resign(who)
            expect.over_reason = "resigned"
            assert game.winner is who.opponent
        else:
            _try_dot(
                rng,
                game,
                expect,
                mover,
                _pick(rng, game, recent),
                reference=reference,
                recent=recent,
            )
        # Rule 2.3: dots are never removed and never change colour.
        now = sorted(board.dots())
        assert set(history) <= set(now)
        history = now
        # Rule 5.1 at every step: the opponent's dots inside the player's bases.
        for player in Player:
            assert board.score(player) == sum(
                1 for p, who in now if who is player.opponent and board.owner(p) is player
            )
        if reference is not None:
            compare(board, reference)
        if full_check_every and step % full_check_every == 0:
            check_board(board)
            for player in Player:
                assert set(board.ungrounded(player)) == {
                    p for p, who in now if who is player and board.is_live(p)
                } - _reference_grounded(board, player)
        # Rule 6.3 (and 6.4, 8.2): over exactly when the rules say.
        assert game.is_over == (expect.over_reason is not None)
        if expect.over_reason is not None:
            assert game.result is not None and game.result.reason == expect.over_reason
            assert game.to_move is None
        else:
            assert game.to_move is expect.to_move
    check_board(board)
    return expect


def _try_end(game: Game, expect: Expect, mover: Player, *, timed: bool) -> None:
    before = game_state(game)
    grounding = game.rules == "grounding"
    if grounding and not timed and expect.placed[mover] < 5:
        try:
            game.end()
        except StopNotAllowedError:
            assert game_state(game) == before
            return
        raise AssertionError("a stop before five dots was accepted")
    preview = game.stop_preview() if grounding else None
    if timed:
        game.time_out()
    else:
        game.end()
    if grounding:
        assert preview is not None
        assert game.handed_over == preview.dots
        assert (game.score(PINK), game.score(BLUE)) == (preview.pink, preview.blue)
        expect.over_reason = "time" if timed else "stop"
        return
    expect.ended.add(mover)
    if len(expect.ended) == 2:
        expect.over_reason = "time" if timed else "ended"
    else:
        expect.to_move = mover.opponent


def _try_dot(
    rng: random.Random,
    game: Game,
    expect: Expect,
    mover: Player,
    point: Point,
    *,
    reference: RefBoard | None,
    recent: list[Point],
) -> None:
    board = game.board
    free = board.dot(point) is None and board.owner(point) is None
    if reference is not None:
        assert reference.is_free(point) == free
    if rng.random() < 0.02:
        # Out of turn: refused, nothing changes.
        before = game_state(game)
        try:
            game.place(point, mover.opponent)
        except NotYourTurnError:
            assert game_state(game) == before
        else:
            raise AssertionError("a move out of turn was accepted")
    before = game_state(game)
    scores = (board.score(PINK), board.score(BLUE))
    try:
        placement = game.place(point, mover)
    except (OccupiedError, InsideBaseError) as error:
        # No illegal move accepted, no legal one refused, and the refusal says why.
        assert not free
        assert isinstance(error, OccupiedError) == (board.dot(point) is not None)
        assert game_state(game) == before
        return
    assert free, f"{point.name} was not free but was accepted"
    if reference is not None:
        made = reference.place(point, mover)
        # The same bases, with the same owners, rings and areas (4.1, 4.2, 4.4).
        assert sorted((b.owner, sorted(b.ring), sorted(b.area)) for b in placement.bases) == sorted(
            (owner, sorted(ring), sorted(area)) for owner, ring, area in made
        )
    # What the dot captured: every dot inside the bases it made.
    inside = {p for b in placement.bases for p in b.area}
    assert set(placement.captured) == {p for p in inside if board.dot(p) is not None}
    recent.append(point)
    expect.placed[mover] += 1
    assert placement.pink_gain == board.score(PINK) - scores[0]
    assert placement.blue_gain == board.score(BLUE) - scores[1]
    assert game.last_move == point
    if board.free_count == 0:
        expect.over_reason = "board full"
    else:
        expect.to_move = mover if mover.opponent in expect.ended else mover.opponent


def _check_replay_and_sgf(game: Game) -> None:
    # Rule 10.1: the record reproduces the game.
    again = Game.replay(game.record)
    assert game_state(again)[:-1] == game_state(game)[:-1]
    assert again.last_move == game.last_move
    # Rule 10.2: an SGF round trip gives the same game.
    loaded = sgf.loads(sgf.dumps(game, pink="p", blue="b"))
    assert loaded.board.picture() == game.board.picture()
    assert (loaded.score(PINK), loaded.score(BLUE)) == (game.score(PINK), game.score(BLUE))
    assert loaded.record.actions == game.record.actions
    assert set(loaded.record.start_dots) == set(game.record.start_dots)
    assert loaded.result == game.result
    assert loaded.to_move == game.to_move
    # The compact pickle a record crosses to worker processes with (Record.__reduce__).
    assert pickle.loads(pickle.dumps(game.record)) == game.record


@settings(SETTINGS, max_examples=60)
@given(
    width=st.integers(5, 11),
    height=st.integers(5, 11),
    rules=st.sampled_from(["standard", "grounding"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_small_random_games_match_the_reference(
    width: int, height: int, rules: str, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(width, height, rules=rules)
    play_random_game(
        rng, game, reference=RefBoard(width, height), full_check_every=7, stop_rate=0.003
    )
    _check_replay_and_sgf(game)


@SETTINGS
@given(
    width=st.integers(5, 20),
    height=st.integers(5, 20),
    rules=st.sampled_from(["standard", "grounding"]),
    start=st.sampled_from(["empty", "cross", "double-cross", "triple-cross"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_games_keep_the_invariants(
    width: int, height: int, rules: str, start: str, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(width, height, rules=rules, start=start)
    play_random_game(rng, game, reference=None, full_check_every=41, stop_rate=0.003)
    _check_replay_and_sgf(game)


@settings(deadline=None, max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), moves_seed=st.integers(0, 2**32 - 1))
def test_four_crosses_games(seed: int, moves_seed: int) -> None:
    rng = random.Random(moves_seed)
    game = Game(20, 20, start="four-crosses", seed=seed)
    ref = RefBoard(20, 20)
    for player, point in game.record.start_dots:
        ref.place(point, player)
    play_random_game(rng, game, reference=None, full_check_every=0, stop_rate=0.002)
    _check_replay_and_sgf(game)


def test_games_over_raise_game_over() -> None:
    game = Game(5, 5)
    rng = random.Random(7)
    play_random_game(rng, game, reference=RefBoard(5, 5), full_check_every=1, stop_rate=0.0)
    assert game.is_over and game.result is not None and game.result.reason == "board full"
    try:
        game.place("A1")
    except GameOverError:
        pass
    else:
        raise AssertionError("a move after the end was accepted")


@settings(SETTINGS, max_examples=25)
@given(
    width=st.integers(5, 16),
    height=st.integers(5, 16),
    sym=st.sampled_from(SYMMETRIES[1:]),
    seed=st.integers(0, 2**32 - 1),
)
def test_rotated_and_reflected_games_give_the_same_position(
    width: int, height: int, sym: tuple[bool, bool, bool], seed: int
) -> None:
    """The rules know no direction: a game and its mirror image end in mirrored positions."""
    game = Game(width, height)
    play_random_game(random.Random(seed), game, reference=None, full_check_every=0, stop_rate=0.0)
    new_w, new_h = transformed_size(sym, width, height)
    mirror = Board(new_w, new_h)
    for action in game.actions:
        assert action.point is not None
        placement = mirror.place(transform(action.point, sym, width, height), action.player)
        assert placement.player is action.player
    assert rows(mirror.picture()) == transform_picture(game.board.picture(), sym)
    assert (mirror.score(PINK), mirror.score(BLUE)) == (game.score(PINK), game.score(BLUE))
    assert sorted(
        (b.owner, sorted(transform(p, sym, width, height) for p in b.area))
        for b in game.board.bases
    ) == sorted((b.owner, sorted(b.area)) for b in mirror.bases)
