"""Runs the commands a benchmark compares, and measures them (plain standard library).

`run` times a command and samples the resident memory of its whole process tree: the root and
every descendant, summed, every ~10 ms. Peers such as `xargs -P` with many `vipsthumbnail`
processes or a `multiprocessing.Pool` are so measured like a single multi-threaded process.
Summing VmRSS counts the shared libraries once per process: that is what the machine has to
hold for N separate processes, and it is the figure the comparisons use.
"""

from __future__ import annotations

import os
import resource
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SAMPLE_INTERVAL = 0.01  # seconds between two samples of the process tree
NOISY = 0.05  # noise above which a run is flagged in reports
# /proc/stat counts in clock ticks (10 ms): a few stray ticks are not noise, but on a run of
# 80 ms they alone would be 5 % of a 2-core machine.
CLOCK_SLACK = 0.03


@dataclass(frozen=True)
class Result:
    """One run of a command: wall seconds, exit code, output, and peak memory of its tree."""

    wall: float
    returncode: int
    stdout: str
    stderr: str
    peak_rss: int  # bytes: the largest sum of VmRSS over the tree seen in one sample
    peak_rss_anon: int  # bytes: the same for RssAnon (heap and stacks, no mapped files)
    cpu: float  # CPU seconds (user + system) of the tree
    other_cpu: float  # CPU seconds the rest of the machine used meanwhile (see `noise`)


def cores() -> int:
    """The machine's logical cores."""
    return os.cpu_count() or 1


def machine_busy_seconds() -> float:
    """CPU seconds all cores have spent busy since boot (from /proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    """CPU seconds used so far by this (sampling) process itself."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def children_cpu_seconds() -> float:
    """CPU seconds used so far by the children this process has waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _children_by_task(pid: int) -> list[int]:
    """Pids of the direct children of `pid` (every thread may have forked some)."""
    kids: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids.extend(int(k) for k in f.read().split())
    except (FileNotFoundError, ProcessLookupError):
        pass  # the process (or thread) ended between the listing and the read
    return kids


def _children_by_scan(pid: int) -> list[int]:
    """Like `_children_by_task`, for kernels without /proc/PID/task/TID/children."""
    kids: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if parent_of_stat(stat) == pid:
            kids.append(int(entry))
    return kids


def parent_of_stat(stat: str) -> int:
    """The parent pid in a /proc/PID/stat line.

    The command name (2nd field) may hold spaces and parentheses: the fields are split after
    its last ')'.
    """
    return int(stat.rsplit(")", 1)[1].split()[1])


def cpu_ticks_of_stat(stat: str) -> int:
    """User + system clock ticks in a /proc/PID/stat line (fields 14 and 15)."""
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


_HAS_TASK_CHILDREN = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def children(pid: int) -> list[int]:
    """Pids of the direct children of `pid`."""
    return _children_by_task(pid) if _HAS_TASK_CHILDREN else _children_by_scan(pid)


def status_field(pid: int, field: str) -> int | None:
    """A field of /proc/PID/status in bytes (VmRSS, VmHWM, RssAnon), or None if it ended."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return status_bytes(f, field)
    except (FileNotFoundError, ProcessLookupError):
        return None


def status_bytes(lines: Iterable[str], field: str) -> int | None:
    """A `Field: N kB` line of /proc/PID/status in bytes, or None when it is not there."""
    for line in lines:
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return None


def tree_memory(root: int) -> tuple[int, int]:
    """(VmRSS, RssAnon) in bytes summed over `root` and all its descendants right now."""
    rss = anon = 0
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            with open(f"/proc/{pid}/status") as f:
                lines = f.readlines()
        except (FileNotFoundError, ProcessLookupError):
            continue  # it ended: its children were re-parented, they are no longer ours
        rss += status_bytes(lines, "VmRSS") or 0
        anon += status_bytes(lines, "RssAnon") or 0
        pending.extend(children(pid))
    return rss, anon


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU seconds of `root` and its descendants so far."""
    ticks, pending = 0, [root]
    while pending:
        pid = pending.pop()
        try:
            with open(f"/proc/{pid}/stat") as f:
                ticks += cpu_ticks_of_stat(f.read())
        except (FileNotFoundError, ProcessLookupError):
            continue
        pending.extend(children(pid))
    return ticks / os.sysconf("SC_CLK_TCK")


def _exit_notice(pid: int) -> int | None:
    """A descriptor of process `pid` that becomes readable when it ends (a pidfd), or None where
    the kernel has none."""
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


def _pause_unless_ended(exit_notice: int | None) -> None:
    """Waits SAMPLE_INTERVAL, or less when the process of `exit_notice` ends meanwhile.

    A plain sleep would make every wall time end on the next sample: up to 10 ms too long,
    as much as a command that only starts up takes.
    """
    if exit_notice is None:
        time.sleep(SAMPLE_INTERVAL)
    else:
        ended = select.poll()  # not select(), which takes no descriptor past FD_SETSIZE
        ended.register(exit_notice, select.POLLIN)
        ended.poll(SAMPLE_INTERVAL * 1000)


def run(cmd: Sequence[str], env: Mapping[str, str] | None = None, cwd: Path | None = None) -> Result:
    """Runs `cmd` (a list of arguments) and returns a `Result`.

    `env` adds to (or overrides) the current environment. Output goes to temporary files, not
    pipes, so that a chatty command never blocks while the sampler is busy.
    """
    full_env = dict(os.environ, **(env or {}))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        busy_before, own_before = machine_busy_seconds(), own_cpu_seconds()
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=full_env, cwd=cwd, stdout=out, stderr=err)
        exit_notice = _exit_notice(proc.pid)
        peak_rss = peak_anon = 0
        try:
            while True:
                # wait4 rather than proc.wait: it also gives the root's own high-water mark, which
                # catches a spike shorter than the sampling interval.
                pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                rss, anon = tree_memory(proc.pid)
                peak_rss, peak_anon = max(peak_rss, rss), max(peak_anon, anon)
                _pause_unless_ended(exit_notice)
            wall = time.perf_counter() - start
        finally:
            if exit_notice is not None:
                os.close(exit_notice)
        # The root's usage includes every descendant it waited for (xargs, a pool, threads).
        cpu = usage.ru_utime + usage.ru_stime
        own = own_cpu_seconds() - own_before
        other = max(0.0, machine_busy_seconds() - busy_before - cpu - own)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait
        peak_rss = max(peak_rss, usage.ru_maxrss * 1024)
        out.seek(0)
        err.seek(0)
        return Result(
            wall,
            proc.returncode,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
            peak_rss,
            peak_anon,
            cpu,
            other,
        )


def noise(result: Result) -> float:
    """The share of the machine (0-1) other processes took during `result`'s run.

    A few percent is the kernel's own background; much more (another build, a test suite)
    means that run's time is not to be trusted.
    """
    return noise_share(result.other_cpu, result.wall, cores())


def noise_share(other_cpu: float, wall: float, core_count: int) -> float:
    """Other processes' CPU seconds as a share of `core_count` cores over `wall` seconds."""
    return max(0.0, other_cpu - CLOCK_SLACK) / (wall * core_count)


def noise_warning(share: float) -> str:
    """A warning to append to a run's line when other processes took part of the machine."""
    if share <= NOISY:
        return ""
    return f" (other processes took {share:.0%} of the machine: not a clean measurement)"


def wait_for_quiet(timeout: float = 600, window: float = 1.0) -> None:
    """Waits (up to `timeout` seconds) until the rest of the machine is idle for one `window`.

    On a shared machine a build or a test suite may start at any time; waiting for it costs
    less than a measurement that has to be thrown away.
    """
    deadline = time.monotonic() + timeout
    said = False
    while True:
        busy_before, own_before = machine_busy_seconds(), own_cpu_seconds()
        time.sleep(window)
        busy = (machine_busy_seconds() - busy_before - (own_cpu_seconds() - own_before)) / (window * cores())
        if busy <= NOISY or time.monotonic() > deadline:
            return
        if not said:
            print(f"waiting for a quiet machine: other processes use {busy:.0%} of it", file=sys.stderr)
            said = True


def warm_page_cache(paths: Iterable[Path]) -> None:
    """Reads every file once, so that no tool pays for the first read from disk."""
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass


def parallel_shell_commands(commands: Iterable[str], items_file: Path, *, exec_each: bool = True) -> list[str]:
    """A command running each shell command of `commands` on one process per core (xargs -P).

    xargs stays the root of the tree: its few hundred kilobytes are all that is added to the
    tools' own memory. With `exec_each`, each command is `exec`ed so that no shell lingers
    beside the tool. Without it, each ends in `|| exit 1`: xargs stops at the first command
    that exits with 255, which is how ffmpegthumbnailer and vipsthumbnail report a failure,
    and a pipeline or `&&` chain cannot be `exec`ed; one small shell per command then stays
    beside the tool (counted in the peak RSS).
    """
    items_file.write_bytes(shell_items(commands, exec_each=exec_each))
    return ["xargs", "-0", "-a", str(items_file), "-n", "1", "-P", str(cores()), "sh", "-c"]


def shell_items(commands: Iterable[str], *, exec_each: bool) -> bytes:
    """The NUL-separated items `parallel_shell_commands` hands to xargs."""
    wrapped = (f"exec {c}" if exec_each else f"{c} || exit 1" for c in commands)
    return b"".join(item.encode() + b"\0" for item in wrapped)
