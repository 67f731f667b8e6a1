"""Fills the desktop's thumbnail cache two ways, in one run, and compares them:

- Thumbs: `thumbs warm --freedesktop-only` (normal and large, one decode per file);
- GNOME's thumbnail factory, as a file manager fills the cache today: for each file and size,
  Gio's content type and mtime, can_thumbnail, generate_thumbnail (which runs the installed
  thumbnailer, sandboxed in bwrap as GNOME does) and save_thumbnail, or create_failed_thumbnail.
  One process, as a file manager runs; then two processes, each over half of the files, for the
  same two cores Thumbs uses; then one process without the sandbox (SNAP_NAME set), to show what
  the sandbox costs.

Every run starts from an empty cache (XDG_CACHE_HOME in a new folder) and a settled disk (what the
run before wrote is synced first, so that its write-back does not land in the next one's time);
rounds are interleaved and each figure is the median. Run by scripts/bench-desktop-cache, with
Debian's own Python (the one python3-gi is installed for).

    python3 -m thumbs_tools.bench.desktop_cache THUMBS DATASET... [--rounds N] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from ..figures import median, times
from ..report import markdown_table

SIZES = ["normal", "large"]


def files_of(root: str) -> list[str]:
    """The files of a dataset, without its manifest, sources and licences."""
    listed = []
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name not in ("MANIFEST.tsv", "SOURCES.md") and "/LICENSES" not in folder:
                listed.append(os.path.join(folder, name))
    return listed


def count_thumbnails(cache_home: str) -> dict[str, int]:
    """The entries written in each folder of the desktop's thumbnail cache."""
    counts = {}
    for size in [*SIZES, "fail"]:
        folder = os.path.join(cache_home, "thumbnails", size)
        counts[size] = sum(len(names) for _, _, names in os.walk(folder))
    return counts


def run_thumbs(thumbs: str, root: str) -> tuple[float, dict[str, int]]:
    """`thumbs warm --freedesktop-only` of `root` into a new cache: (seconds, entries written)."""
    cache_home = tempfile.mkdtemp(prefix="bench-desktop-thumbs-")
    env = dict(os.environ, XDG_CACHE_HOME=cache_home)
    os.sync()
    started = time.perf_counter()
    result = subprocess.run(
        [thumbs, "warm", "--quiet", "--json", "--freedesktop-only", root], env=env, capture_output=True
    )
    seconds = time.perf_counter() - started
    if result.returncode not in (0, 1):
        sys.exit(f"thumbs warm failed ({result.returncode}): {result.stderr.decode()[-500:]}")
    return seconds, count_thumbnails(cache_home)


# What one GNOME process does; run by the system Python with XDG_CACHE_HOME set before GLib starts.
GNOME_WORKER = r"""
import sys
import gi
gi.require_version("GnomeDesktop", "3.0")
from gi.repository import GLib, Gio, GnomeDesktop
sizes = {"normal": "NORMAL", "large": "LARGE"}
factories = [GnomeDesktop.DesktopThumbnailFactory.new(getattr(GnomeDesktop.DesktopThumbnailSize, sizes[s]))
             for s in sys.argv[1].split(",")]
for path in sys.stdin.read().split("\0"):
    if not path:
        continue
    file = Gio.File.new_for_path(path)
    info = file.query_info("standard::content-type,time::modified", Gio.FileQueryInfoFlags.NONE, None)
    uri, mtime, mime = file.get_uri(), info.get_attribute_uint64("time::modified"), info.get_content_type() or ""
    for factory in factories:
        if factory.lookup(uri, mtime) or not factory.can_thumbnail(uri, mime, mtime):
            continue
        try:
            pixbuf = factory.generate_thumbnail(uri, mime, None)
            factory.save_thumbnail(pixbuf, uri, mtime, None)
        except GLib.Error:
            factory.create_failed_thumbnail(uri, mtime, None)
"""


def run_gnome(files: list[str], processes: int, sandboxed: bool) -> tuple[float, dict[str, int]]:
    """GNOME's factory over `files` in `processes` processes: (seconds, entries written)."""
    cache_home = tempfile.mkdtemp(prefix="bench-desktop-gnome-")
    env = dict(os.environ, XDG_CACHE_HOME=cache_home)
    if not sandboxed:
        # gnome-desktop runs thumbnailers without bwrap inside a snap: its only switch.
        env["SNAP_NAME"] = "thumbs-benchmark"
    shares = [files[index::processes] for index in range(processes)]
    os.sync()
    started = time.perf_counter()
    workers = [
        subprocess.Popen(
            ["/usr/bin/python3", "-c", GNOME_WORKER, ",".join(SIZES)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        for _ in shares
    ]
    for worker, share in zip(workers, shares, strict=True):
        assert worker.stdin is not None  # opened as a pipe
        worker.stdin.write("\0".join(share).encode("utf-8", "surrogateescape"))
        worker.stdin.close()
    for worker in workers:
        if worker.wait() != 0:
            sys.exit(f"the GNOME factory process failed ({worker.returncode})")
    return time.perf_counter() - started, count_thumbnails(cache_home)


def main() -> None:
    """Fills the cache each way, round after round, and prints the table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("thumbs")
    parser.add_argument("datasets", nargs="+")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown")
    arguments = parser.parse_args()

    peers: list[tuple[str, tuple[int, bool] | None]] = [
        ("thumbs warm --freedesktop-only", None),
        ("GNOME factory, 1 process (bwrap)", (1, True)),
        ("GNOME factory, 2 processes (bwrap)", (2, True)),
        ("GNOME factory, 1 process, no sandbox", (1, False)),
    ]
    rows: list[list[object]] = []
    report: dict[str, Any] = {}
    for dataset in arguments.datasets:
        root = os.path.realpath(dataset)
        files = files_of(root)
        timings: dict[str, list[float]] = {name: [] for name, _ in peers}
        written: dict[str, dict[str, int]] = {}
        for round_index in range(arguments.rounds):
            for name, gnome in peers:
                if gnome is None:
                    seconds, counts = run_thumbs(arguments.thumbs, root)
                else:
                    seconds, counts = run_gnome(files, *gnome)
                timings[name].append(seconds)
                written[name] = counts
                print(f"{dataset} round {round_index + 1}: {name}: {seconds:.2f} s {counts}", file=sys.stderr)
        medians = {name: median(values) for name, values in timings.items()}
        thumbs_seconds = medians[peers[0][0]]
        for name, _ in peers:
            counts = written[name]
            speedup = "" if name == peers[0][0] else times(medians[name] / thumbs_seconds, 1)
            rows.append(
                [
                    os.path.basename(root),
                    len(files),
                    name,
                    f"{medians[name]:.2f}",
                    f"{len(files) / medians[name]:.1f}",
                    f"{counts['normal']}, {counts['large']}, {counts['fail']}",
                    speedup,
                ]
            )
        report[dataset] = {"files": len(files), "seconds": timings, "written": written}
    headers = ["dataset", "files", "tool", "seconds (median)", "files/s"]
    headers += ["normal, large, fail entries written", "Thumbs' speed-up"]
    table = markdown_table(headers, rows, ["l", "r", "l", "r", "r", "l", "r"])
    print(table)
    if arguments.markdown:
        with open(arguments.markdown, "w") as out:
            out.write(table + "\n")
    json.dump(report, sys.stderr, indent=1)


if __name__ == "__main__":
    main()
