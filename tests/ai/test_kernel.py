"""The compiled kernel (ai/compiled.py through ai/kernel.py) against the engine's Board: same
dots, bases and scores capture by capture, and its playouts keep the policy's promises.

Skipped where numba is not installed (or ``DOTS_PURE_PYTHON=1``); the pure-Python Field is
checked the same way in test_field.py, and the seam's fallback below runs either way.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from ai import kernel, search
from ai.field import Field
from ai.playout import Policy
from engine import Board, Player, Point
from tests.ai.test_field import same_position

compiled = pytest.mark.skipif(not kernel.available(), reason="numba is not installed")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    kernel.warm_up(wait=True)


def play_both(rng: random.Random, width: int, height: int, local: float) -> tuple[int, int]:
    """One random game placed by the kernel on a Field and by the engine on a Board, compared
    after every move; returns the captures made and the dots captured."""
    board, field = Board(width, height), Field(width, height)
    player, last = 1, 0
    captures = 0
    while True:
        free = board.free_indices()
        if not free:
            break
        i = rng.choice(free)
        if last and rng.random() < local:
            near = [
                j
                for j in free
                if abs(j % board.stride - last % board.stride) <= 1
                and abs(j // board.stride - last // board.stride) <= 2
            ]
            i = rng.choice(near) if near else i
        before = board.score(Player(player))
        board.place_index(i, player)
        gain = kernel.place(field, i, player)
        assert gain == board.score(Player(player)) - before
        assert same_position(field, board), f"after {board.point_at(i).name}\n{board.picture()}"
        captures += gain > 0
        player, last = 3 - player, i
    return captures, board.score(Player.PINK) + board.score(Player.BLUE)


@compiled
@pytest.mark.parametrize(
    ("width", "height", "local"), [(8, 8, 0.0), (10, 10, 0.8), (12, 9, 0.8), (20, 20, 0.9)]
)
def test_the_kernel_agrees_with_the_engine_on_random_games(
    width: int, height: int, local: float
) -> None:
    rng = random.Random(width * 100 + height + 7)
    captures = captured = 0
    for _ in range(25 if width < 20 else 4):
        made, taken = play_both(rng, width, height, local)
        captures += made
        captured += taken
    assert captures >= 25 and captured >= 80  # the games did capture, and often


@compiled
def test_the_kernels_suicide_and_capture_checks_agree_with_trying_the_dot() -> None:
    rng = random.Random(11)
    suicides = captures = 0
    for _ in range(30):
        board = Board(8, 8)
        player = 1
        for _ in range(rng.randrange(30, 60)):
            board.place_index(rng.choice(board.free_indices()), player)
            player = 3 - player
        field = Field.from_board(board)
        for i in board.free_indices():
            for p in (1, 2):
                trial = board.copy()
                before = trial.score(Player(p))
                trial.place_index(i, p)
                assert kernel.is_suicide(field, i, p) == (trial.live_at(i) == 0)
                assert kernel.captures_at(field, i, p) == (trial.score(Player(p)) > before)
                suicides += trial.live_at(i) == 0
                captures += trial.score(Player(p)) > before
        assert same_position(field, board)  # the checks changed nothing
    assert suicides >= 5 and captures >= 20


@compiled
def test_a_compiled_playout_records_every_dot_it_places() -> None:
    rng = random.Random(3)
    for n in range(10):
        board = Board(12, 12)
        player = 1
        for _ in range(rng.randrange(10, 60)):
            board.place_index(rng.choice(board.free_indices()), player)
            player = 3 - player
        field = Field.from_board(board)
        start = field.copy()
        first = bytearray(len(field.live))
        moves = kernel.playout(
            field,
            player,
            alone=False,
            rng=rng,
            policy=Policy(urgent=0.5 * (n % 3)),
            first=first,
            compiled=True,
        )
        assert moves == sum(1 for c in first if c)
        assert moves > 0 and field.free < start.free
        placed = [i for i in range(len(first)) if first[i]]
        assert all(start.taken[i] == 0 for i in placed)
        assert all(field.dot[i] == first[i] for i in placed)


@compiled
def test_compiled_playouts_never_throw_dots_into_rings() -> None:
    rng = random.Random(2)
    for n in range(40):
        board = Board(8, 8)
        player = 1
        for _ in range(rng.randrange(10, 50)):
            free = board.free_indices()
            board.place_index(rng.choice(free), player)
            player = 3 - player
        field = Field.from_board(board)
        mover = 1 + n % 2
        before = field.score[3 - mover]
        kernel.playout(
            field, mover, alone=True, rng=rng, policy=Policy(urgent=0.5 * (n % 3)), compiled=True
        )
        assert field.score[3 - mover] <= before


@compiled
def test_a_compiled_playout_alone_fills_every_point_and_respects_the_depth() -> None:
    field = Field(6, 6)
    first = bytearray(len(field.live))
    moves = kernel.playout(
        field, 1, alone=True, rng=random.Random(4), policy=Policy(), first=first, compiled=True
    )
    assert moves == 36 and field.free == 0 and sum(1 for c in first if c == 1) == 36
    field = Field(10, 10)
    moves = kernel.playout(
        field, 1, alone=False, rng=random.Random(5), policy=Policy(depth=7), compiled=True
    )
    assert moves == 7 and field.free == 93


@compiled
def test_the_same_seed_gives_the_same_compiled_playout() -> None:
    def run() -> tuple[int, bytes]:
        field = Field(10, 10)
        first = bytearray(len(field.live))
        kernel.playout(
            field,
            1,
            alone=False,
            rng=random.Random(9),
            policy=Policy(),
            first=first,
            compiled=True,
        )
        return field.score[1] - field.score[2], bytes(first)

    assert run() == run()


# A fresh process's first hard move; prints whether its search used the kernel (the search
# asks kernel.ready() once, at its start) and the seconds the move took.
FIRST_MOVE = (
    "import time; import ai; from ai import kernel, player; from engine import Game; "
    "asked = []; ready = kernel.ready; "
    "kernel.ready = lambda: asked.append(ready()) or asked[-1]; "
    "player.KERNEL_WAIT = {wait}; game = Game(10, 10); "
    "[game.place(name) for name in ('E5', 'F6', 'F5', 'E6')]; "
    "started = time.perf_counter(); decision = ai.choose(game, 'hard', seed=1, max_seconds={cap}); "
    "print(asked[0], time.perf_counter() - started)"
)


@compiled
def test_the_first_move_of_a_process_searches_compiled_once_the_cache_loads(
    tmp_path: Path,
) -> None:
    def first_move(wait: float, cap: float, cache: Path | None = None) -> tuple[str, float]:
        env = {**os.environ, **({"NUMBA_CACHE_DIR": str(cache)} if cache else {})}
        code = FIRST_MOVE.format(wait=wait, cap=cap)
        out = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        used, seconds = out.stdout.split()
        return used, float(seconds)

    # The module's fixture filled the cache: a fresh process's first move waits for the load
    # (given time enough on a loaded machine: a wait of 10 s, which a cap of 60 s allows)
    # and searches with the kernel.
    assert first_move(10, 60)[0] == "True"
    # An empty cache: the first move waits its short while, then searches in pure Python
    # within hard's time cap (1.5 s) instead of waiting for the compile.
    used, seconds = first_move(0.2, 1.5, tmp_path)
    assert used == "False" and seconds < 3.0


@compiled
def test_a_move_from_the_book_does_not_wait_for_the_kernel_and_the_next_search_does() -> None:
    # A fresh process, the cache filled by the module's fixture: the book's answer to the
    # cross goes out while the kernel still loads (it waited for the load before); the first
    # search after it waits for the rest of the load (given time enough on a loaded machine:
    # a wait of 10 s, which a cap of 60 s allows).
    code = (
        "from ai import kernel, player; import ai; from engine import Game, Start; "
        "player.KERNEL_WAIT = 10; game = Game(20, 20, start=Start.CROSS); "
        "book = ai.choose(game, 'hard', seed=1); print(book.iterations, kernel.ready()); "
        "game.place(book.point); game.place('A1'); "
        "searched = ai.choose(game, 'hard', seed=1, iterations=20, max_seconds=60); "
        "print(searched.iterations, kernel.ready())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["0", "False", "20", "True"]


def test_the_pure_path_is_used_when_forced() -> None:
    env = {**os.environ, kernel.PURE_ENV: "1"}
    code = (
        "import random; from ai import kernel; from ai.field import Field; "
        "from ai.playout import Policy; f = Field(7, 7); "
        "n = kernel.playout(f, 1, alone=True, rng=random.Random(1), policy=Policy()); "
        "print(kernel.available(), kernel.warm_up(wait=True), n, f.free)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "False", "49", "0"]


@pytest.mark.parametrize(
    "compiled_path", [pytest.param(True, marks=compiled), pytest.param(False, id="pure")]
)
def test_random_games_each_start_from_the_position_and_leave_it_as_it_was(
    compiled_path: bool,
) -> None:
    field = Field(8, 8)
    field.place(field.index(Point(3, 3)), 1)
    start = field.copy()
    singles = [kernel.random_games(field, 1, seed=s, compiled=compiled_path) for s in (7, 8, 9)]
    # Each game plays most of the 63 free points (a dot thrown into a ring ends up taken).
    assert all(40 <= moves <= 63 for moves in singles)
    # Three games in one call: each starts again from the position.
    assert 120 <= kernel.random_games(field, 3, seed=7, compiled=compiled_path) <= 189
    arrays = ("live", "dot", "owner", "taken", "chain", "score")
    assert all(getattr(field, name) == getattr(start, name) for name in arrays)
    assert field.around == start.around and field.free == start.free


@pytest.mark.parametrize(
    "compiled_path", [pytest.param(True, marks=compiled), pytest.param(False, id="pure")]
)
def test_a_playout_local_to_the_fight_plays_only_near_the_dots(compiled_path: bool) -> None:
    # Two dots on a 39x32 board: with reach 2 every dot played stands within 2 king steps of
    # one of them, and the far corners stay empty.
    game_field = Field(39, 32)
    a, b = game_field.index(Point(10, 10)), game_field.index(Point(30, 20))
    game_field.place(a, 1)
    game_field.place(b, 2)
    stride = game_field.stride
    for seed in range(5):
        field = game_field.copy()
        first = bytearray(len(field.live))
        moves = kernel.playout(
            field,
            1,
            alone=False,
            rng=random.Random(seed),
            policy=Policy(urgent=0.5, reach=2),
            first=first,
            compiled=compiled_path,
        )
        placed = [i for i in range(len(first)) if first[i]]
        assert moves == len(placed) > 10
        for i in placed:
            assert any(
                max(abs(i % stride - c % stride), abs(i // stride - c // stride)) <= 2
                for c in (a, b)
            )


@compiled
@pytest.mark.parametrize(("width", "height"), [(8, 8), (20, 20), (39, 32)])
def test_the_kernel_finds_the_searchs_candidates(width: int, height: int) -> None:
    # The same moves in the same order as the pure-Python candidates, from the empty board
    # (the interior), through open play, to crowded boards with rings to avoid.
    rng = random.Random(width)
    for n in range(12):
        board = Board(width, height)
        player = 1
        for _ in range(rng.randrange(0, width * height * 3 // 4) if n else 0):
            board.place_index(rng.choice(board.free_indices()), player)
            player = 3 - player
        field = Field.from_board(board)
        for p in (1, 2):
            for reach in (1, 2):
                assert search.candidates(field, p, reach, compiled=True) == search.candidates(
                    field, p, reach
                )
