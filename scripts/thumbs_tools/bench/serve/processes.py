"""The processes bench-serve starts: every one in a session of its own, stopped by its id at
the end, and the sampling of a server's memory while it runs."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from types import FrameType
from typing import Any

from ...runner import status_field


class Processes:
    """Every process started, to stop them all however the benchmark ends."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[Any]] = []

    def start(self, cmd: Sequence[str], **kwargs: Any) -> subprocess.Popen[Any]:  # noqa: ANN401
        """Starts `cmd` in a session of its own (Popen's keyword arguments in `kwargs`)."""
        # A session of its own: Ctrl-C in the terminal reaches this script only, which then
        # stops each process in order (nginx's workers are in the master's group).
        proc = subprocess.Popen(cmd, start_new_session=True, **kwargs)
        self.started.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen[Any], timeout: float = 15) -> int:
        """Stops `proc` and its process group; returns its exit code (negative: a signal)."""
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        return proc.returncode

    def stop_all(self) -> None:
        """Stops every process started, the last first."""
        for proc in reversed(self.started):
            self.stop(proc)


def exit_on_signal(signum: int, _frame: FrameType | None) -> None:
    """A signal handler that exits, so that the `finally` that cleans up runs."""
    raise SystemExit(128 + signum)


class RSSSampler(threading.Thread):
    """Samples VmRSS and RssAnon of `pid` every `interval` seconds until stopped."""

    def __init__(self, pid: int, interval: float) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.samples: list[tuple[float, int, int]] = []  # (seconds since start, rss, anon)
        self._halt = threading.Event()

    def run(self) -> None:
        start = time.monotonic()
        while not self._halt.is_set():
            rss, anon = status_field(self.pid, "VmRSS"), status_field(self.pid, "RssAnon")
            if rss is None or anon is None:
                return
            self.samples.append((time.monotonic() - start, rss, anon))
            self._halt.wait(self.interval)

    def stop(self) -> None:
        """Stops sampling and waits for the thread."""
        self._halt.set()
        self.join()
