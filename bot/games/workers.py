"""The worker pools that keep slow, pure work (the computer's searches, reviews) off the event
loop: processes started with 'spawn' (forking a process that runs aiosqlite's threads is
unsafe), or threads for tests, where starting a process costs more than the tiny work."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor


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
