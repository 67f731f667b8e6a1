"""What a run of `thumbs` did, and the judgement of it: a death by a signal, a hang (killed, with
its process group, past --hang-seconds), an exit status other than 0 or 1, a peak RSS above the
decode memory budget plus the baseline, or a line on stdout that is not JSON."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from thumbs_tools import events

MIB = 1 << 20


@dataclass(frozen=True)
class Outcome:
    command: str
    status: int | None
    signal: int | None
    timed_out: bool
    peak_rss: int  # bytes
    seconds: float
    stdout: bytes
    stderr: bytes


@dataclass(frozen=True)
class Problem:
    kind: str  # crash, hang, memory, status, output, converge
    command: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} in {self.command}: {self.detail}"

    @property
    def signature(self) -> str:
        """What tells findings apart: the kind, the command and the message without numbers
        that vary from file to file."""
        if self.kind == "crash":  # the runtime's message and its source line
            detail = self.detail
        else:
            detail = re.sub(r"\d+(\.\d+)?", "N", self.detail)
        return f"{self.kind} in {self.command}: {detail}"


@dataclass
class Settings:
    thumbs: Path  # the copy run
    shown: Path  # the binary copied
    work: Path
    findings: Path
    budget_mib: int
    baseline_mib: int
    time_limit: float
    hang_seconds: float
    batch_size: int
    samples: int
    seconds: float
    seed: int


def run_process(argv: Sequence[str], command: str, hang_seconds: float, env: dict[str, str]) -> Outcome:
    """Runs argv in a process group of its own, killed whole past hang_seconds; the peak RSS
    is the child's (and its waited-for children's) from wait4."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, start_new_session=True
        )
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

        timer = threading.Timer(hang_seconds, kill)
        timer.daemon = True
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        except BaseException:  # Ctrl-C: the child's group goes too
            os.killpg(process.pid, signal.SIGKILL)
            raise
        finally:
            timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        with contextlib.suppress(ProcessLookupError, PermissionError):  # whatever it left behind in its group
            os.killpg(process.pid, signal.SIGKILL)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Outcome(
            command=command,
            status=os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            signal=os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            timed_out=timed_out.is_set(),
            peak_rss=usage.ru_maxrss * 1024,
            seconds=seconds,
            stdout=out.read(),
            stderr=err.read(),
        )


def fatal_message(stderr: bytes) -> str:
    """The runtime's reason for a trap, without the path of the source file."""
    for line in stderr.decode(errors="replace").splitlines():
        if "Fatal error" in line or "Assertion failed" in line or "Precondition failed" in line:
            return re.sub(r"^.*?/Sources/", "Sources/", line.strip())
    return ""


def judge(outcome: Outcome, settings: Settings) -> list[Problem]:
    problems: list[Problem] = []
    if outcome.timed_out:
        problems.append(Problem("hang", outcome.command, f"still running after {settings.hang_seconds:g} s: killed"))
    elif outcome.signal is not None:
        name = signal.Signals(outcome.signal).name
        message = fatal_message(outcome.stderr)
        problems.append(Problem("crash", outcome.command, name + (f": {message}" if message else "")))
    elif outcome.status not in (0, 1):
        last = outcome.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        problems.append(Problem("status", outcome.command, f"exit status {outcome.status}: {last[0][:200]}"))
    limit = (settings.budget_mib + settings.baseline_mib) * MIB
    if outcome.peak_rss > limit:
        problems.append(
            Problem(
                "memory",
                outcome.command,
                f"peak RSS {outcome.peak_rss / MIB:.0f} MiB over {limit / MIB:.0f} MiB "
                f"(budget {settings.budget_mib} + baseline {settings.baseline_mib})",
            )
        )
    if not outcome.timed_out and outcome.signal is None:
        for line in outcome.stdout.decode(errors="replace").splitlines():
            try:
                events.parse_line(line)
            except events.EventError:
                problems.append(
                    Problem("output", outcome.command, f"a line on stdout is not a JSON object: {line[:120]!r}")
                )
                break
    return problems


def peak_mib(value: object) -> str:
    return f"{value / MIB:.0f} MiB" if isinstance(value, int) else "?"


def summary(outcome: Outcome) -> dict[str, object] | None:
    """The summary event of a warm's stdout, as printed."""
    return events.last_event(outcome.stdout.decode(errors="replace"), "summary")
