"""Another commit's engine and computer, run beside this tree's: the benches' baselines.

bench/engine.py and bench/ai.py measure this tree side by side with a git commit
(``--baseline REF``), and bench/ai.py plays and measures the old search (``old-hard``: the
``ai`` package at ``OLD_SEARCH``, on this tree's engine). Each runs in a child process of
this file whose ``engine`` and ``ai`` come from the trees it is given:

    python bench/baseline.py --root TREE [--ai-root TREE]

It reads requests from stdin and writes each answer to stdout, both pickled: ``(name, kwargs)``
-> ``(True, REQUESTS[name](**kwargs))``, or ``(False, the traceback)``. The measurements are
this file's code whichever tree is loaded, so every tree is measured the same way; they use
only what every tree's engine and computer have. ``Tree`` starts such a process (this tree:
``Tree(ROOT)``), ``checkout`` puts a commit in a temporary detached worktree, and
``interleaved`` runs the trees' batches in turn so a shared machine's load falls on all alike.
"""

# ruff: noqa: PLC0415 - engine and ai are imported once their trees are on sys.path (serve)

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pickle
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# ai/ as it was before the computer got its own Field, AMAF and priors: the "old hard".
OLD_SEARCH = "1f9068a"


@contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """The tree of commit ``ref`` in a temporary detached git worktree, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="dots-baseline-"))
    tree = folder / ref.replace("/", "_")
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), ref],
        check=True,
        capture_output=True,
    )
    try:
        yield tree
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


class Tree:
    """A child process running this file with the ``engine`` of ``root`` and the ``ai`` of
    ``ai_root`` (default: ``root``); ``ask`` sends it one request and waits for the answer."""

    def __init__(self, root: Path, ai_root: Path | None = None) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--root", str(root)]
        if ai_root is not None:
            command += ["--ai-root", str(ai_root)]
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def ask(self, name: str, **kwargs: Any) -> Any:
        """The answer of ``REQUESTS[name](**kwargs)`` in the child.

        Raises:
            RuntimeError: the request failed there (with its traceback), or the child ended.
        """
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        try:
            pickle.dump((name, kwargs), process.stdin)
            process.stdin.flush()
            ok, value = pickle.load(process.stdout)
        except (EOFError, BrokenPipeError):
            raise RuntimeError(f"the baseline process ended (status {process.poll()})") from None
        if not ok:
            raise RuntimeError(f"{name} failed in the baseline process:\n{value}")
        return value

    def close(self) -> None:
        """End the child (it ends when its stdin closes)."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def __enter__(self) -> Tree:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def interleaved(
    sides: Sequence[tuple[Tree, str, dict[str, Any]]], seconds: float, batch: float = 0.25
) -> list[tuple[int, float, list[float]]]:
    """Run each side's measurement (``tree.ask(name, seconds=batch, **kwargs)``, which returns
    (count, seconds spent)) in turn, the first side first in one round and last in the next,
    until every side has spent ``seconds``; per side the count, the seconds and each round's
    rate. Only one side runs at a time."""
    totals = [(0, 0.0, list[float]()) for _ in sides]
    round_ = 0
    while min(spent for _, spent, _ in totals) < seconds:
        order = range(len(sides)) if round_ % 2 == 0 else reversed(range(len(sides)))
        for k in order:
            tree, name, kwargs = sides[k]
            count, spent = tree.ask(name, seconds=batch, **kwargs)
            total, total_spent, rates = totals[k]
            rates.append(count / spent)
            totals[k] = (total + count, total_spent + spent, rates)
        round_ += 1
    return totals


def ratio(new: tuple[int, float, list[float]], old: tuple[int, float, list[float]]) -> str:
    """``new`` against ``old`` (as ``interleaved`` returns them): the ratio of their rates over
    all rounds, and the median of the rounds' ratios (less hurt by a burst of load)."""
    overall = (new[0] / new[1]) / (old[0] / old[1])
    rounds = statistics.median(a / b for a, b in zip(new[2], old[2], strict=True))
    return f"{overall:.3f} (median of {len(new[2])} rounds {rounds:.3f})"


# -- the measurements (run in the child, with its trees' packages) -------------------------

_RNGS: dict[tuple[object, ...], random.Random] = {}


def _rng(*key: object) -> random.Random:
    """One generator per measurement and size, kept between batches."""
    return _RNGS.setdefault(key, random.Random(1))


def engine_playout(width: int, height: int, rng: random.Random) -> int:
    """Uniformly random legal dots, alternating, on the engine's Board until no free point is
    left (through its fast path, ``Board.place_index``); returns the dots placed."""
    from engine import Board

    board = Board(width, height)
    order = [board.index(p) for p in board.points()]
    rng.shuffle(order)
    dot, owner = board._dot, board._owner  # the engine's fast path: see Board.place_index
    player = 1
    moves = 0
    for i in order:
        # A point later in a random order that is still free is a uniform pick among the free.
        if dot[i] or owner[i]:
            continue
        board.place_index(i, player)
        player = 3 - player
        moves += 1
    return moves


def engine_moves(width: int, height: int, seconds: float) -> tuple[int, float]:
    """Dots placed in engine playouts for about ``seconds``, and the seconds they took."""
    rng = _rng("engine", width, height)
    moves = 0
    spent = 0.0
    while spent < seconds:
        started = time.perf_counter()
        moves += engine_playout(width, height, rng)
        spent += time.perf_counter() - started
    return moves, spent


def field_playouts(width: int, height: int, seconds: float, urgent: bool) -> tuple[int, float]:
    """The computer's playouts from the empty board for about ``seconds`` (its Field; the
    policy ``Policy(local=0.5)``, or hard's with its urgent answers), and the seconds spent."""
    import ai
    from ai.field import Field
    from ai.playout import Policy, playout

    policy = ai.LEVELS["hard"].policy if urgent else Policy(local=0.5)
    rng = _rng("field", width, height, urgent)
    empty = Field(width, height)
    count = 0
    spent = 0.0
    while spent < seconds:
        started = time.perf_counter()
        playout(empty.copy(), 1, alone=False, rng=rng, policy=policy)
        spent += time.perf_counter() - started
        count += 1
    return count, spent


def old_playouts(width: int, height: int, seconds: float) -> tuple[int, float]:
    """The old search's playouts from the empty board (on the engine's Board, its policy
    ``Policy(local=0.5)``) for about ``seconds``, and the seconds spent."""
    from ai.playout import Geometry, Policy, playout
    from engine import Board

    policy = Policy(local=0.5)
    rng = _rng("old", width, height)
    count = 0
    spent = 0.0
    while spent < seconds:
        started = time.perf_counter()
        board = Board(width, height)
        playout(board, 1, alone=False, rng=rng, policy=policy, geometry=Geometry(board))
        spent += time.perf_counter() - started
        count += 1
    return count, spent


def old_choose(record: Any, seed: int, seconds: float | None) -> tuple[str, Any, int, int]:
    """The old hard's decision in the game ``record`` describes: its kind, point, iterations
    run and iteration budget; ``seconds`` a move instead of the budget when given."""
    import ai
    from engine import Game

    game = Game.replay(record)
    level = ai.LEVELS["hard"]
    if seconds is None:
        found = ai.choose(game, level, seed=seed)
    else:
        found = ai.choose(game, level, seed=seed, iterations=1 << 40, max_seconds=seconds)
    return found.kind, found.point, found.iterations, level.iterations


def where() -> dict[str, str]:
    """The folders the child's ``engine`` and ``ai`` were imported from, once its compiled
    kernel is loaded (where its ``ai`` has one): a game's clock starts only after that, as it
    does for this tree's kernel, so neither side plays its first moves without it."""
    import ai
    import engine

    if importlib.util.find_spec("ai.kernel") is not None:
        importlib.import_module("ai.kernel").warm_up(wait=True)

    return {
        name: str(Path(module.__file__ or "").parent)
        for name, module in (("engine", engine), ("ai", ai))
    }


REQUESTS: dict[str, Callable[..., Any]] = {
    "where": where,
    "engine_moves": engine_moves,
    "field_playouts": field_playouts,
    "old_playouts": old_playouts,
    "old_choose": old_choose,
}


def serve() -> None:
    """Answer requests from stdin until it closes (the child's side of ``Tree``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True, help="the tree of the engine")
    parser.add_argument("--ai-root", type=Path, help="the tree of the computer (default: root)")
    args = parser.parse_args()
    # The engine first, from its tree; then the computer's tree in front, for ``ai`` alone
    # (``engine`` is imported already, so every ``engine`` import keeps the first).
    sys.path.insert(0, str(args.root))
    import engine  # noqa: F401 - imported first, from its tree

    if args.ai_root is not None:
        sys.path.insert(0, str(args.ai_root))
    channel_in, channel_out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the answers
    while True:
        try:
            name, kwargs = pickle.load(channel_in)
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, REQUESTS[name](**kwargs))
        except Exception:
            answer = (False, traceback.format_exc())
        pickle.dump(answer, channel_out)
        channel_out.flush()


if __name__ == "__main__":
    serve()
