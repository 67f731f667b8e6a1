"""Shared measurement helpers of the benchmark scripts (plain standard library).

`run` times a command and samples the resident memory of its whole process tree: the root and
every descendant, summed, every ~10 ms. Peers such as `xargs -P` with many `vipsthumbnail`
processes or a `multiprocessing.Pool` are so measured like a single multi-threaded process.
Summing VmRSS counts the shared libraries once per process: that is what the machine has to
hold for N separate processes, and it is the figure the comparisons use.
"""

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

SAMPLE_INTERVAL = 0.01  # seconds between two samples of the process tree


@dataclass
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


def _machine_busy_seconds():
    """CPU seconds all cores have spent busy since boot (from /proc/stat)."""
    with open("/proc/stat") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds():
    """CPU seconds used so far by this (sampling) process itself."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _children(pid):
    """Pids of the direct children of `pid` (every thread may have forked some)."""
    kids = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids.extend(int(k) for k in f.read().split())
    except (FileNotFoundError, ProcessLookupError):
        pass  # the process (or thread) ended between the listing and the read
    return kids


def _children_by_scan(pid):
    """Like `_children`, for kernels without /proc/PID/task/TID/children: scans every process."""
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except (FileNotFoundError, ProcessLookupError):
            continue
        # The command name (2nd field) may hold spaces and parentheses: split after its last ')'.
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(entry))
    return kids


_list_children = _children if os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children") \
    else _children_by_scan


def _tree_memory(root):
    """(VmRSS, RssAnon) in bytes summed over `root` and all its descendants right now."""
    rss = anon = 0
    pending = [root]
    while pending:
        pid = pending.pop()
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss += int(line.split()[1]) * 1024
                    elif line.startswith("RssAnon:"):
                        anon += int(line.split()[1]) * 1024
        except (FileNotFoundError, ProcessLookupError):
            continue  # it ended: its children were re-parented, they are no longer ours
        pending.extend(_list_children(pid))
    return rss, anon


def run(cmd, env=None, cwd=None):
    """Runs `cmd` (a list of arguments) and returns a `Result`.

    `env` adds to (or overrides) the current environment. Output goes to temporary files, not
    pipes, so that a chatty command never blocks while the sampler is busy.
    """
    full_env = dict(os.environ, **(env or {}))
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        busy_before, own_before = _machine_busy_seconds(), _own_cpu_seconds()
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=full_env, cwd=cwd, stdout=out, stderr=err)
        peak_rss = peak_anon = 0
        while True:
            # wait4 rather than proc.wait: it also gives the root's own high-water mark, which
            # catches a spike shorter than the sampling interval.
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            rss, anon = _tree_memory(proc.pid)
            peak_rss, peak_anon = max(peak_rss, rss), max(peak_anon, anon)
            time.sleep(SAMPLE_INTERVAL)
        wall = time.perf_counter() - start
        # The root's usage includes every descendant it waited for (xargs, a pool, threads).
        cpu = usage.ru_utime + usage.ru_stime
        own = _own_cpu_seconds() - own_before
        other = max(0.0, _machine_busy_seconds() - busy_before - cpu - own)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait
        peak_rss = max(peak_rss, usage.ru_maxrss * 1024)
        out.seek(0)
        err.seek(0)
        return Result(wall, proc.returncode, out.read().decode(errors="replace"),
                      err.read().decode(errors="replace"), peak_rss, peak_anon, cpu, other)


def noise(result):
    """The share of the machine (0-1) other processes took during `result`'s run.

    A few percent is the kernel's own background; much more (another build, a test suite)
    means that run's time is not to be trusted.
    """
    return max(0.0, result.other_cpu - CLOCK_SLACK) / (result.wall * os.cpu_count())


NOISY = 0.05  # noise above which a run is flagged in reports
# /proc/stat counts in clock ticks (10 ms): a few stray ticks are not noise, but on a run of
# 80 ms they alone would be 5 % of a 2-core machine.
CLOCK_SLACK = 0.03


def wait_for_quiet(timeout=600, window=1.0):
    """Waits (up to `timeout` seconds) until the rest of the machine is idle for one `window`.

    On a shared machine a build or a test suite may start at any time; waiting for it costs
    less than a measurement that has to be thrown away.
    """
    deadline = time.monotonic() + timeout
    said = False
    while True:
        busy_before, own_before = _machine_busy_seconds(), _own_cpu_seconds()
        time.sleep(window)
        busy = (_machine_busy_seconds() - busy_before - (_own_cpu_seconds() - own_before)) \
            / (window * os.cpu_count())
        if busy <= NOISY or time.monotonic() > deadline:
            return
        if not said:
            print(f"waiting for a quiet machine: other processes use {busy:.0%} of it",
                  file=sys.stderr)
            said = True


def median(values):
    """The median of a non-empty sequence of numbers."""
    return statistics.median(values)


def mb(n_bytes):
    """Bytes as megabytes (10^6), the unit of every memory figure printed."""
    return n_bytes / 1e6


def markdown_table(headers, rows, align=None):
    """A markdown table as a string; `align`: 'l' or 'r' per column (default: l, then all r)."""
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---" if a == "l" else "---:" for a in align) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def write_json(path, data):
    """Writes `data` as indented JSON to `path`."""
    with open(path, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")


def machine_info():
    """Cores, CPU model, memory and OS of this machine, for the header of a report."""
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    os_name = platform.platform()
    try:
        os_name = platform.freedesktop_os_release()["PRETTY_NAME"]
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory_gib": round(mem_kb / 2**20, 1),
            "os": os_name}


def warm_page_cache(paths):
    """Reads every file once, so that no tool pays for the first read from disk."""
    for path in paths:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass
