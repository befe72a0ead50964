"""The worker pools that keep slow, pure work (the computer's searches, reviews) off the event
loop: processes started with 'spawn' (forking a process that runs aiosqlite's threads is
unsafe), or threads for tests, where starting a process costs more than the tiny work."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


def new_pool(
    *, processes: bool, workers: int, name: str, initializer: Callable[[], None]
) -> Executor:
    """A pool of ``workers`` processes (each running ``initializer`` first) or, with
    ``processes=False``, of threads named after ``name``."""
    if processes:
        return ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=initializer,
        )
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)


async def run_or_thread(pool: Executor, call: Callable[[], T], *, restart: Callable[[], None]) -> T:
    """``call`` in ``pool``; if its worker died, ``restart`` (its owner drops the pool, to
    start a new one for the next call) and ``call`` in a thread: the work is never lost."""
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, call)
    except BrokenProcessPool:
        log.warning("a worker process died; running its call in a thread")
        restart()
        return await asyncio.to_thread(call)


def shut(pool: Executor | None) -> None:
    """Stop a pool, if any, without waiting (calls under way are dropped)."""
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)
