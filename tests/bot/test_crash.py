"""Crash test: SIGKILL a process playing through the service, restart it, several times.

Every action that was acknowledged (printed after the service returned) must be in the
database, exactly once, at its place; every game must replay to a consistent position.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.games.convert import rebuild, stored_result
from bot.storage import Store
from engine import Player

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 6
GAMES = 40


def run_and_kill(db: Path, seed: int, rng: random.Random) -> list[str]:
    """Start the worker, let it play for a random while, SIGKILL it; the lines it printed."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.service_crash_worker", str(db), str(seed), str(GAMES)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line == "ready\n":
                ready.set()
            elif line.endswith("\n"):  # a line cut by the kill was never acknowledged
                lines.append(line.strip())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert ready.wait(20), proc.stderr.read() if proc.poll() is not None and proc.stderr else ""
    time.sleep(rng.uniform(0.2, 1.2))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    reader.join(5)
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
    assert proc.returncode == -signal.SIGKILL
    return lines


async def test_acknowledged_actions_survive_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "dots.sqlite3"
    rng = random.Random(2026)
    acknowledged: list[tuple[int, int, str, str]] = []
    for round_ in range(ROUNDS):
        for line in run_and_kill(db, seed=round_ + 1, rng=rng):
            game_id, seq, kind, point = line.split()
            acknowledged.append((int(game_id), int(seq), kind, point))
    assert len(acknowledged) > 200, "the worker hardly played"

    store = await Store.open(db)
    rows = await store.execute("SELECT game_id, seq, kind, point FROM actions")
    stored = {(g, s): (k, p or "-") for g, s, k, p in rows}  # type: ignore[misc]
    assert len(stored) == len(rows)
    # Every acknowledged action is there, at its place, and was acknowledged once.
    assert len(set(acknowledged)) == len(acknowledged)
    for game_id, seq, kind, point in acknowledged:
        assert stored[(game_id, seq)] == (kind, point), (game_id, seq)
    # Every game replays: actions numbered 0..n-1, the move counter agrees, the result too.
    game_ids = [int(r[0]) for r in await store.execute("SELECT game_id FROM games")]  # type: ignore[call-overload]
    for game_id in game_ids:
        loaded = await store.games.game_with_actions(game_id)
        assert loaded is not None
        row, actions = loaded
        assert [a.seq for a in actions] == list(range(len(actions))) == list(range(row.moves))
        game = rebuild(row, actions)
        assert game.is_over == (row.status == "over")
        if row.status == "over":
            assert game.result == stored_result(row)
        else:
            assert row.deadline is not None
        pinks = sum(1 for a in actions if a.kind == "dot" and a.player == int(Player.PINK))
        assert game.dots_placed(Player.PINK) == pinks
    await store.close()
