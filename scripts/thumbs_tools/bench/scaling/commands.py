"""The commands bench-scaling times on a library: `thumbs warm`, `find`, `thumbs albums` and
`thumbs moments` (to their first line and to their end), `thumbs stats`, and the move of a folder."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import events, runner
from . import library

FIND_RUNS = 3


@dataclass(frozen=True)
class Setup:
    """What every command of one size runs with: the binary, the library, its configuration and
    cache, and how long to wait for a quiet machine before a timed run."""

    thumbs: Path
    library: Path
    config: Path
    cache: Path
    wait_quiet: float

    def thumbs_command(self, *arguments: str, roots: bool = True) -> list[str]:
        """`thumbs ARGUMENTS [LIBRARY] --config … --cache …`."""
        command = [str(self.thumbs), *arguments]
        if roots:
            command.append(str(self.library))
        return [*command, "--config", str(self.config), "--cache", str(self.cache)]


def warm(setup: Setup) -> tuple[runner.Result, events.WarmSummary]:
    """One `thumbs warm --json` run: (its Result, its summary)."""
    runner.wait_for_quiet(timeout=setup.wait_quiet)
    result = runner.run([*setup.thumbs_command("warm"), "--quiet", "--json"])
    summary = events.warm_summary(result.stdout)
    if result.returncode != 0 or summary is None:
        raise RuntimeError(f"thumbs warm exited with {result.returncode}: {result.stderr.strip()[-400:]}")
    return result, summary


def find_seconds(setup: Setup, runs: int = FIND_RUNS) -> list[float]:
    """Wall seconds of `find LIBRARY -printf '%s %T@ %p\\n' >/dev/null`, `runs` times: the walk
    and the stat of every file, what an unchanged warm cannot do without."""
    runner.wait_for_quiet(timeout=setup.wait_quiet)
    walls = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(["find", str(setup.library), "-printf", "%s %T@ %p\\n"], stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise RuntimeError(f"find exited with {done.returncode}")
    return walls


@dataclass(frozen=True)
class Listing:
    """A command's run read as a person reads it: when its first line came, when it ended."""

    command: str
    first_line_s: float | None  # None: it printed nothing
    total_s: float
    lines: int
    bytes: int
    peak_rss: int  # bytes: the process's VmHWM (ru_maxrss of wait4)
    returncode: int

    def json(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "first_line_s": self.first_line_s,
            "total_s": self.total_s,
            "lines": self.lines,
            "bytes": self.bytes,
            "peak_rss": self.peak_rss,
        }


def listing(setup: Setup, name: str) -> Listing:
    """`thumbs NAME` (albums, moments) as a table on a pipe: time to its first line, to its end."""
    runner.wait_for_quiet(timeout=setup.wait_quiet)
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(setup.thumbs_command(name), stdout=subprocess.PIPE, stderr=errors)
        assert proc.stdout is not None
        first_line, lines, size = None, 0, 0
        out = proc.stdout.fileno()
        while chunk := os.read(out, 1 << 16):
            newlines = chunk.count(b"\n")
            if first_line is None and newlines:
                first_line = time.perf_counter() - start
            lines += newlines
            size += len(chunk)
        _, status, usage = os.wait4(proc.pid, 0)
        total = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait
        proc.stdout.close()
        if proc.returncode != 0:
            errors.seek(0)
            said = errors.read().decode(errors="replace").strip()[-400:]
            raise RuntimeError(f"thumbs {name} exited with {proc.returncode}: {said}")
    return Listing(f"thumbs {name}", first_line, total, lines, size, usage.ru_maxrss * 1024, proc.returncode)


def stats(setup: Setup) -> dict[str, Any]:
    """`thumbs stats --json` of the cache."""
    done = subprocess.run(
        [*setup.thumbs_command("stats", roots=False), "--json"], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"thumbs stats exited with {done.returncode}: {done.stderr.strip()[-400:]}")
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def entry_counts(document: dict[str, Any]) -> tuple[int, int]:
    """(thumbnails, metadata entries) of a `thumbs stats --json` document."""
    return int(document["thumbnails"]), int(document["metadataEntries"])


def move(setup: Setup, photos: int) -> dict[str, Any]:
    """Renames the library's MOVED folder, warms, and renames it back: what a move costs."""
    folder = library.moved_folder(photos)
    original, moved = setup.library / folder.name, setup.library / library.moved_name(photos)
    before = entry_counts(stats(setup))
    original.rename(moved)
    try:
        result, summary = warm(setup)
    finally:
        moved.rename(original)
    after = entry_counts(stats(setup))
    return {
        "folder": folder.name,
        "folder_photos": folder.count,
        "warm_s": result.wall,
        "rendered": summary.rendered,
        "fresh": summary.fresh,
        "failed": summary.failed,
        "noise": runner.noise(result),
        "thumbnails_before": before[0],
        "thumbnails_after": after[0],
        "metadata_before": before[1],
        "metadata_after": after[1],
    }
