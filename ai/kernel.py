"""The one seam between the computer's pure-Python board and its compiled kernel.

The compiled kernel (ai/compiled.py, numba) plays a Field's playouts and placements on the
Field's own arrays, 30 to 100 times faster than ai/playout.py's pure-Python loop. It is an
optional extra (``pip install -e '.[fast]'``): where numba is missing, or with the environment
variable ``DOTS_PURE_PYTHON=1`` (the tests run both ways), every call here falls back to the
pure-Python code, which plays by the same rules and the same policy.

Compiling takes seconds, so it is done once and cached on disk: in ``NUMBA_CACHE_DIR`` when set,
else in the user's cache directory (``$XDG_CACHE_HOME/dots-discord/numba``, by default
``~/.cache/dots-discord/numba``), so a restarted worker loads it in a fraction of a second.
``warm_up()`` loads (or compiles) it in a background thread; until it is ready the searches
use the pure-Python playouts, so no move ever waits for a compile. A search's first move in a
process waits a few tenths of a second for it, within its level's time (``warm_up(within=)``,
counted from the start of the load; a move from the opening book does not wait): enough for a
load from the cache, so the first search after a restart is compiled.
``warm_up(wait=True)`` waits for it (tests, benches).

Only this module imports ai/compiled.py (an import-linter contract says so).
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from ai.field import Field
from ai.playout import Policy
from ai.playout import playout as pure_playout
from engine import Point

_log = logging.getLogger(__name__)

PURE_ENV = "DOTS_PURE_PYTHON"


def cache_dir() -> Path:
    """Where the compiled code is cached: ``NUMBA_CACHE_DIR``, else the user's cache dir."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dots-discord" / "numba"


def _import() -> ModuleType | None:
    """ai/compiled.py, or None where numba is missing or the pure path is forced."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir()))
    try:
        from ai import compiled  # noqa: PLC0415 - numba is optional: imported only here
    except ImportError:
        return None
    return compiled


_compiled = _import()
_ready = threading.Event()
_done = threading.Event()
_lock = threading.Lock()
_warming: list[threading.Thread] = []  # the warm-up thread, once started
_started: list[float] = []  # when it started (time.monotonic())


def available() -> bool:
    """Whether the compiled kernel can be used here (numba installed, not forced off)."""
    return _compiled is not None


def ready() -> bool:
    """Whether the compiled kernel is loaded and used (else the pure-Python playouts are)."""
    return _ready.is_set()


def warm_up(*, wait: bool = False, within: float | None = None) -> bool:
    """Make the compiled kernel ready, once a process, in a background thread: loaded from
    the disk cache (a few tenths of a second), or compiled first when the cache is empty
    (tens of seconds); the pure-Python playouts serve meanwhile. With ``wait``, wait for it;
    with ``within``, wait for it until at most that many seconds after it started (a load
    from the cache is worth waiting for, a compile is not: calls after that go on at once).
    Returns whether it is ready."""
    if _compiled is None:
        return False
    with _lock:
        if not _warming:
            thread = threading.Thread(target=_compile, name="dots-kernel", daemon=True)
            _warming.append(thread)
            _started.append(time.monotonic())
            thread.start()
    if wait:
        _done.wait()
    elif within is not None:
        left = _started[0] + within - time.monotonic()
        if left > 0:
            _done.wait(left)
    return _ready.is_set()


def _compile() -> None:
    """Run the search's compiled functions (candidates, playout) once on a small board: numba
    compiles each (or loads it from the cache) at its first call, with every function it
    calls; the other entry points load at their own first call. A failure leaves the
    pure-Python path in use."""
    try:
        field = Field(5, 5)
        field.place(field.index(Point(2, 2)), 1)
        candidates(field, 2, 2)
        _compiled_playout(field, 2, alone=False, seed=1, policy=Policy(urgent=0.5), recent=(0, 0))
    except Exception:
        _log.warning("the compiled kernel failed to load: pure-Python playouts", exc_info=True)
    else:
        _ready.set()
    finally:
        _done.set()


def views(field: Field) -> tuple[tuple[Any, ...], Any, Any, Any]:
    """The kernel's arrays over a Field's own (no copy: writes land in the Field): the board
    tuple, the chain, the meta array [free, Pink's score, Blue's score] (a copy: write it back
    with ``_store``) and the directions."""
    assert _compiled is not None
    np = _compiled.np
    u8 = np.uint8
    board = (
        np.frombuffer(field.live, u8),
        np.frombuffer(field.dot, u8),
        np.frombuffer(field.owner, u8),
        np.frombuffer(field.taken, u8),
        np.frombuffer(field.around[1], u8),
        np.frombuffer(field.around[2], u8),
        np.frombuffer(field.edge, u8),
    )
    meta = np.array([field.free, field.score[1], field.score[2]], dtype=np.int64)
    return board, np.frombuffer(field.chain, np.int64), meta, _dirs(field)


_DIRS: dict[int, Any] = {}


def _dirs(field: Field) -> Any:
    found = _DIRS.get(field.stride)
    if found is None:
        assert _compiled is not None
        found = _DIRS[field.stride] = _compiled.np.array(field.dirs, dtype=_compiled.np.int64)
    return found


_WORK: dict[int, Any] = {}


def _work(field: Field) -> Any:
    """Scratch arrays for the field's size, made once: the compiled functions hold the GIL
    (no ``nogil``), so two threads never use them at once."""
    cells = len(field.live)
    found = _WORK.get(cells)
    if found is None:
        assert _compiled is not None
        found = _WORK[cells] = _compiled.work(cells)
    return found


def _store(field: Field, meta: Any) -> None:
    field.free = int(meta[0])
    field.score = [0, int(meta[1]), int(meta[2])]


def place(field: Field, i: int, player: int) -> int:
    """``field.place(i, player)`` by the compiled kernel (pure Python when it is missing)."""
    if _compiled is None:
        return field.place(i, player)
    board, chain, meta, dirs = views(field)
    gain = int(_compiled.place(board, meta, chain, dirs, field.stride, i, player, _work(field)))
    _store(field, meta)
    return gain


def is_suicide(field: Field, i: int, player: int) -> bool:
    """``field.is_suicide(i, player)`` by the compiled kernel (pure Python when missing)."""
    if _compiled is None:
        return field.is_suicide(i, player)
    board, chain, meta, dirs = views(field)
    return bool(
        _compiled.is_suicide(board, meta, chain, dirs, field.stride, i, player, _work(field))
    )


def captures_at(field: Field, i: int, player: int) -> bool:
    """``field.captures_at(i, player)`` by the compiled kernel (pure Python when missing)."""
    if _compiled is None:
        return field.captures_at(i, player)
    board, chain, meta, dirs = views(field)
    return bool(
        _compiled.captures_at(board, meta, chain, dirs, field.stride, i, player, _work(field))
    )


def candidates(field: Field, player: int, reach: int) -> list[int]:
    """``ai.search.candidates`` by the compiled kernel (the same moves, in the same order)."""
    assert _compiled is not None
    board, chain, meta, dirs = views(field)
    found = _compiled.candidates(
        board,
        meta,
        chain,
        dirs,
        field.stride,
        field.width,
        field.height,
        player,
        reach,
        _work(field),
    )
    return [int(i) for i in found]


def playout(
    field: Field,
    player: int,
    *,
    alone: bool,
    rng: random.Random,
    policy: Policy,
    recent: tuple[int, ...] = (),
    first: bytearray | None = None,
    deadline: float | None = None,
    compiled: bool | None = None,
) -> int:
    """ai.playout.playout, compiled when the kernel is ready (``compiled``: force one way).

    ``first``, when given (a bytearray over the field's cells, zeroed), gets the player of
    every dot placed at its index (the search's AMAF statistics). ``deadline`` is for the
    pure-Python playouts only (a compiled one takes milliseconds). Returns the moves played,
    -1 when the deadline cut it short.
    """
    use = ready() if compiled is None else compiled
    if use and _compiled is not None:
        padded = (0, 0, *recent)
        seed = rng.getrandbits(31)
        return _compiled_playout(
            field, player, alone=alone, seed=seed, policy=policy, recent=padded[-2:], first=first
        )
    played: list[int] | None = [] if first is not None else None
    moves = pure_playout(
        field,
        player,
        alone=alone,
        rng=rng,
        policy=policy,
        recent=recent,
        played=played,
        deadline=deadline,
    )
    if first is not None and played is not None:
        for code in played:
            first[code >> 2] = code & 3
    return moves


RANDOM = Policy(local=0.0, avoid_rings=False)  # uniform: every free point alike


def random_games(field: Field, games: int, *, seed: int, compiled: bool | None = None) -> int:
    """Play ``games`` uniformly random games from ``field`` to a full board, each on a copy
    (``field`` is left as it was), and return the moves played in all: the measure of
    oppai-rs's bench, for bench/playouts.py. Compiled, the whole loop runs in the kernel."""
    use = ready() if compiled is None else compiled
    if use and _compiled is not None:
        board, chain, meta, dirs = views(field)
        total = _compiled.random_games(
            board, meta, chain, dirs, field.stride, 1, games, seed, _work(field)
        )
        return int(total)
    rng = random.Random(seed)
    return sum(
        pure_playout(field.copy(), 1, alone=False, rng=rng, policy=RANDOM) for _ in range(games)
    )


def _compiled_playout(
    field: Field,
    player: int,
    *,
    alone: bool,
    seed: int,
    policy: Policy,
    recent: tuple[int, ...],
    first: bytearray | None = None,
) -> int:
    assert _compiled is not None
    np = _compiled.np
    board, chain, meta, dirs = views(field)
    if first is None:
        first = bytearray(len(field.live))
    out = np.frombuffer(first, np.uint8)
    moves = _compiled.playout(
        board,
        meta,
        chain,
        dirs,
        field.stride,
        player,
        bool(alone),
        seed,
        float(policy.local),
        float(policy.urgent),
        bool(policy.avoid_rings),
        -1 if policy.depth is None else int(policy.depth),
        int(policy.reach),
        np.array(recent, dtype=np.int64),
        out,
        _work(field),
    )
    _store(field, meta)
    return int(moves)
