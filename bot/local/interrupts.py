"""Ctrl-C and the reading of lines in the terminal (see ``Interrupts``)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
from collections.abc import Callable
from multiprocessing import resource_tracker
from types import FrameType, TracebackType

Read = Callable[[str], str]
Write = Callable[[str], None]


class Interrupts:
    """Ctrl-C in the terminal: one press leaves and saves the game, like Ctrl-D and `quit`.

    asyncio.run's own handler only cancels the main task, which a blocking ``input()`` does
    not notice: the first press seemed to do nothing and the second raised inside the
    database code. Here SIGINT is blocked except while a line is being read, and a press
    raises KeyboardInterrupt from the read. Pressed while the service works (a move being
    stored, the computer thinking) it waits for the next read, so no action is cut in half,
    and the threads and the computer's worker processes started meanwhile inherit the block
    (a worker that took it while starting would die with a traceback). The game asks
    ``interrupted`` while the computer thinks, to leave without playing its move.

    On a terminal the line is read by ``terminal_line``, which waits in ``select()`` on stdin
    and on the signal wakeup fd rather than in ``input()``: a press just before ``input()``
    blocks would be lost (Python runs handlers only in the main thread, between bytecodes),
    and the wakeup fd gets its byte whenever the signal comes.
    """

    def __init__(self, read: Read) -> None:
        self._read = read
        self._reading = False
        self._pending = False
        self._active = False
        self._previous: Callable[[int, FrameType | None], object] | int | None = None
        self._mask: set[signal.Signals] = set()
        self._wakeup: tuple[int, int] | None = None
        self._previous_wakeup = -1

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is not threading.main_thread():  # signals reach only it
            return self
        # multiprocessing unblocks SIGINT in the thread that first starts its resource tracker
        # (the computer's process pool does): start it now, before blocking.
        resource_tracker.ensure_running()
        self._previous = signal.signal(signal.SIGINT, self._on_interrupt)
        self._mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        self._active = True
        if self._read is input and sys.stdin.isatty():
            wakeup = os.pipe()
            for fd in wakeup:
                os.set_blocking(fd, False)
            self._previous_wakeup = signal.set_wakeup_fd(wakeup[1], warn_on_full_buffer=False)
            self._wakeup = wakeup
            self._read = self.terminal_line
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if not self._active:
            return
        # A press while the game was closing is swallowed as the mask is restored.
        signal.signal(signal.SIGINT, lambda signum, frame: None)
        signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)
        signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]
        if self._wakeup is not None:
            signal.set_wakeup_fd(self._previous_wakeup)
            for fd in self._wakeup:
                os.close(fd)
            self._wakeup = None
        self._active = False

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        if self._reading:
            raise KeyboardInterrupt
        self._pending = True  # a race at the edge of a read: the next read raises it

    def interrupted(self) -> bool:
        """Whether Ctrl-C was pressed while no line was read (the service working, the computer
        thinking): the press waits, blocked, for the next read, which raises it."""
        if not self._active:
            return False
        return self._pending or signal.SIGINT in signal.sigpending()

    def read(self, prompt: str) -> str:
        """Read a line; KeyboardInterrupt if Ctrl-C is pressed while waiting or was before."""
        if not self._active:
            return self._read(prompt)
        self._reading = True
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a waiting one fires
            if self._pending:
                raise KeyboardInterrupt
            return self._read(prompt)
        finally:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            self._reading = False

    def terminal_line(self, prompt: str) -> str:
        """``input()`` for a terminal that every Ctrl-C interrupts.

        Raises:
            EOFError: Ctrl-D (end of input).
            KeyboardInterrupt: Ctrl-C.
        """
        assert self._wakeup is not None
        wakeup = self._wakeup[0]
        sys.stdout.write(prompt)
        sys.stdout.flush()
        stdin = sys.stdin.fileno()
        while True:
            ready, _, _ = select.select([stdin, wakeup], [], [])
            if wakeup in ready:
                # The handler runs before the next bytecode (and raises); this drains the byte
                # of a signal that was already handled.
                with contextlib.suppress(BlockingIOError):
                    os.read(wakeup, 512)
                continue
            # A terminal in canonical mode hands over one whole line at a time.
            line = sys.stdin.readline()
            if not line:
                raise EOFError
            return line.removesuffix("\n")
