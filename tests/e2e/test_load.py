"""bench/load.py stays runnable: a few games through it, every move stored exactly once.

Timings are the bench's business (printed, not asserted here: this machine is shared)."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "load.py"


def load_bench() -> ModuleType:
    """Import bench/load.py (bench/ is a folder of scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("dots_bench_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


async def test_the_load_bench_plays_every_move_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_bench()
    args = argparse.Namespace(games=6, moves=30, size="10x10", ramp=0.1, think=0.0, seed=1)
    await bench.run(args, tmp_path / "load.sqlite3")
    out = capsys.readouterr().out
    assert "moves: 30 in" in out
    assert "30 sent, 30 stored, 0 lost, 0 duplicated, 0 games out of order" in out
    assert "0 failed requests, 0 unanswered moves, 0 moves without their picture" in out
    assert "0 ERROR log records" in out
    assert "first response (INTERACTION_CREATE -> callback): p50" in out


async def test_the_burst_option_sends_one_move_per_game_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_bench()
    args = argparse.Namespace(
        games=1, moves=1, size="10x10", ramp=5.0, think=2000.0, seed=1, burst=4
    )
    await bench.run(args, tmp_path / "burst.sqlite3")
    out = capsys.readouterr().out
    assert "4 sent, 4 stored, 0 lost, 0 duplicated" in out
    assert "burst: 4 moves sent at once in 4 games; first answer within 3 s: " in out
    assert "refused as too late (10062); first-answer p99 " in out
