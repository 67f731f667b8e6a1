"""bench-scaling's report: one table per concern (the libraries, the cold warm, the unchanged
re-run against find, the server, its lists, the listing commands, a move), then the targets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...figures import mb
from ...report import markdown_table, noisy_runs_warning
from . import library, serving

RERUN_GOAL = 100  # an unchanged re-run is at least this many times faster than a cold one
# "Flat" memory: the largest peak anon RSS (the process's own heap and stacks) is at most this
# many times the smallest across sizes. Total RSS is reported but not judged: it also counts the
# resident pages of the cache's memory map, clean file pages the kernel drops under pressure,
# which grow with the cache (docs/BENCHMARKS.md, Scaling).
FLAT_GOAL = 1.25

Row = dict[str, Any]


def ms(seconds: float) -> str:
    """Seconds as milliseconds, to a tenth under 100 ms."""
    milliseconds = seconds * 1000
    return f"{milliseconds:.1f}" if milliseconds < 100 else f"{milliseconds:,.0f}"


def kilobytes(n_bytes: int) -> str:
    """Bytes as kB (10^3), whole, or to a tenth under 10."""
    kb = n_bytes / 1000
    return f"{kb:.1f}" if kb < 10 else f"{kb:,.0f}"


def number_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table of numbers only: every column aligned right."""
    return markdown_table(headers, rows, ["r"] * len(headers))


def generation_table(rows: Sequence[Row]) -> str:
    """The libraries: size on disk, and how fast they were generated (when they were, this run)."""
    return number_table(
        ["photos", "MB", "generated in", "photos/s"],
        [
            [
                f"{r['photos']:,}",
                f"{mb(r['library_bytes']):,.0f}",
                f"{r['generation_s']:.1f} s" if r["generation_s"] else "kept",
                f"{r['photos'] / r['generation_s']:,.0f}" if r["generation_s"] else "-",
            ]
            for r in rows
        ],
    )


def warm_table(rows: Sequence[Row]) -> str:
    """The cold warm of each size."""
    return number_table(
        ["photos", "cold s", "photos/s", "CPU use", "peak RSS MB", "peak RSS anon MB"],
        [
            [
                f"{r['photos']:,}",
                f"{r['cold_s']:.2f}",
                f"{r['photos_per_s']:,.0f}",
                f"{r['cold_cpu_use']:.0%}",
                f"{mb(r['peak_rss']):,.0f}",
                f"{mb(r['peak_rss_anon']):,.0f}",
            ]
            for r in rows
        ],
    )


def rerun_table(rows: Sequence[Row]) -> str:
    """The unchanged re-run of each size, against the cold warm and against find."""
    return number_table(
        ["photos", "re-run s", "re-run peak RSS MB", "cold ÷ re-run", "find s", "re-run ÷ find"],
        [
            [
                f"{r['photos']:,}",
                f"{r['rerun_s']:.3f}",
                f"{mb(r['rerun_peak_rss']):,.0f}",
                f"{r['cold_over_rerun']:,.0f}×",
                f"{r['find_s']:.3f}",
                f"{r['rerun_over_find']:.1f}×",
            ]
            for r in rows
        ],
    )


def serve_table(rows: Sequence[Row]) -> str:
    """The server's start-up and memory."""
    return number_table(
        ["photos", "start → /healthz s", "RssAnon ready MB", "RssAnon after the lists MB", "VmHWM MB"],
        [
            [
                f"{r['photos']:,}",
                f"{r['serve']['ready_s']:.3f}",
                f"{mb(r['serve']['rss_anon_ready']):,.1f}",
                f"{mb(r['serve']['rss_anon_after_lists']):,.1f}",
                f"{mb(r['serve']['vm_hwm']):,.1f}",
            ]
            for r in rows
        ],
    )


def limit_cell(honoured: bool | None) -> str:
    """Whether a list honoured limit=1."""
    return "-" if honoured is None else "yes" if honoured else "**no**"


def pages_table(rows: Sequence[Row]) -> str:
    """The first page of each list, by size."""
    return markdown_table(
        ["photos", "list", "items", "kB", "median ms", "first ms", "limit honoured"],
        [
            [
                f"{r['photos']:,}",
                f"`{p['list']}`",
                f"{p['items']:,}",
                kilobytes(p["bytes"]),
                ms(p["median_s"]),
                ms(p["walls"][0]),
                limit_cell(p["limit_honoured"]),
            ]
            for r in rows
            for p in r["serve"]["pages"]
        ],
        align=["r", "l", "r", "r", "r", "r", "l"],
    )


def listings_table(rows: Sequence[Row]) -> str:
    """`thumbs albums` and `thumbs moments` by size."""
    return markdown_table(
        ["photos", "command", "first line s", "total s", "lines", "peak RSS MB"],
        [
            [
                f"{r['photos']:,}",
                f"`{listing['command']}`",
                "-" if listing["first_line_s"] is None else f"{listing['first_line_s']:.3f}",
                f"{listing['total_s']:.3f}",
                f"{listing['lines']:,}",
                f"{mb(listing['peak_rss']):,.1f}",
            ]
            for r in rows
            for listing in r["listings"]
        ],
        align=["r", "l", "r", "r", "r", "r"],
    )


def move_table(rows: Sequence[Row]) -> str:
    """The warm after a folder was moved, and the cache's entries around it."""
    return number_table(
        ["photos", "folder's photos", "warm s", "rendered", "thumbnails before → after", "metadata before → after"],
        [
            [
                f"{r['photos']:,}",
                f"{r['move']['folder_photos']:,}",
                f"{r['move']['warm_s']:.2f}",
                f"{r['move']['rendered']:,}",
                f"{r['move']['thumbnails_before']:,} → {r['move']['thumbnails_after']:,}",
                f"{r['move']['metadata_before']:,} → {r['move']['metadata_after']:,}",
            ]
            for r in rows
        ],
    )


def notes(rows: Sequence[Row]) -> list[str]:
    """What the tables do not say: a list not measured, limit not honoured, failures."""
    found = []
    for r in rows:
        for note in r["serve"]["notes"]:
            found.append(f"- at {r['photos']:,} photos: {note}")
        if r["failed"] or r["rerun_rendered"]:
            found.append(
                f"- **Warning:** at {r['photos']:,} photos the cold run failed on {r['failed']} and the "
                f"re-run rendered {r['rerun_rendered']}: both should be 0 on a generated library."
            )
    ignoring = sorted(
        {p["list"] for r in rows for p in r["serve"]["pages"] if p["limit_honoured"] is False},
    )
    if ignoring:
        found.append(
            f"- `limit` is not honoured by {', '.join(f'`{name}`' for name in ignoring)}: the first "
            "page is the whole list."
        )
    return found


def targets(rows: Sequence[Row]) -> list[str]:
    """The targets' lines."""
    lines = []
    for r in rows:
        ratio = r["cold_over_rerun"]
        lines.append(
            f"- {'met' if ratio >= RERUN_GOAL else 'MISSED'}: unchanged re-run ≥ "
            f"{RERUN_GOAL}× faster than cold at {r['photos']:,} photos: {ratio:.0f}×"
        )
    if len(rows) > 1:
        peaks = [r["peak_rss_anon"] for r in rows]
        growth = max(peaks) / min(peaks)
        lines.append(
            f"- {'met' if growth <= FLAT_GOAL else 'MISSED'}: peak anon RSS flat from "
            f"{rows[0]['photos']:,} to {rows[-1]['photos']:,} photos (largest ÷ "
            f"smallest ≤ {FLAT_GOAL}×): {growth:.2f}×"
        )
    else:
        lines.append("- not judged: peak anon RSS flat across sizes (needs two sizes or more)")
    return lines


def report(rows: Sequence[Row], machine: dict[str, Any]) -> str:
    """The markdown report of the measured rows."""
    noisiest = max(max(r["cold_noise"], r["rerun_noise"], r["move"]["noise"]) for r in rows)
    sections = [
        "## What a library costs Thumbs as it grows\n\n"
        f"{machine['nproc']} cores, {machine['cpu']}, {machine['memory_gib']} GiB, {machine['os']}; "
        f"{library.WIDTH}x{library.HEIGHT} JPEGs in {library.FOLDERS} folders; renditions 256x256 fill + "
        "1024x1024 fit." + noisy_runs_warning(noisiest),
        "### The libraries\n\n" + generation_table(rows),
        "### thumbs warm, cold\n\nA new cache. CPU use: CPU time ÷ (wall × cores); peak RSS of the "
        "process tree (anon: heap and stacks, without mapped files such as the cache's).\n\n" + warm_table(rows),
        "### The unchanged re-run, against find\n\n`find ROOT -printf '%s %T@ %p\\n' >/dev/null`, the "
        "page cache warm, best of 3.\n\n" + rerun_table(rows),
        "### thumbs serve\n\nNo warm on start. From the start until `/healthz` answers; RssAnon "
        "then, and after the lists below; VmHWM at the end.\n\n" + serve_table(rows),
        f"### The lists' first pages\n\nEach asked {serving.REQUESTS} times on one connection with "
        f"`limit={serving.PAGE}`; "
        "*limit honoured*: whether `limit=1` gives one item at most.\n\n" + pages_table(rows),
        "### thumbs albums and thumbs moments\n\nTheir tables on a pipe; peak RSS: the process's "
        "VmHWM.\n\n" + listings_table(rows),
        f"### A moved folder\n\n`{library.MOVED}` renamed `{library.MOVED} moved`, then `thumbs warm`; "
        "the cache's entries from `thumbs stats`. Renamed back afterwards.\n\n" + move_table(rows),
    ]
    if found := notes(rows):
        sections.append("### Notes\n\n" + "\n".join(found))
    sections.append("### Targets\n\n" + "\n".join(targets(rows)))
    return "\n\n".join(sections) + "\n"
