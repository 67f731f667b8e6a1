"""The figures and the report of scripts/bench-startup (thumbs_tools.bench.startup): what each
command measured, the tables, and the start-up goals judged."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..figures import median, ratio, times
from ..mapped import decoding_libraries
from ..report import Target, markdown_table, noisy_runs_warning

VERSION_WALL_GOAL = 0.015  # seconds: `thumbs version`'s median wall time at most this
VERSION_RSS_GOAL = 20 * 2**20  # bytes: and its peak RSS at most this
RENDER_GOAL = 2.0  # `thumbs render` of one photo at least this many times as fast as vipsthumbnail
WARM_GOAL = 0.85  # a small warm's photos per second at least this share of a large warm's
SIZE = 256  # the renders' box, SIZExSIZE
QUALITY = 82  # thumbs render's default JPEG quality, given to vipsthumbnail too
RENDERING = (
    f"Inside {SIZE}x{SIZE} (`thumbs render --size {SIZE}x{SIZE}`, `vipsthumbnail -s '{SIZE}x{SIZE}>'`), "
    f"JPEG quality {QUALITY}"
)


@dataclass(frozen=True)
class Measured:
    """The timed runs of one command, and the shared objects its process mapped as it exited.

    `peak_rss` is the largest of the runs' peaks (bytes, process tree); `objects` None when the
    process could not be traced; `photos` what each run rendered (warms); `details` what the
    report says of the command beside its label (photo, isolation).
    """

    label: str
    walls: list[float]
    peak_rss: int
    objects: list[str] | None
    photos: int = 0
    is_peer: bool = False
    details: dict[str, str] = field(default_factory=dict)

    @property
    def wall(self) -> float:
        """The median wall time, seconds."""
        return median(self.walls)

    def json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "walls": self.walls,
            "median_wall": self.wall,
            "peak_rss": self.peak_rss,
            "shared_objects": self.objects,
            "photos": self.photos,
            "is_peer": self.is_peer,
            "details": self.details,
        }


@dataclass(frozen=True)
class Group:
    """Commands measured together, alternated; `noise`: the share of the machine other processes
    took meanwhile."""

    measured: list[Measured]
    noise: float

    @property
    def peer(self) -> Measured | None:
        return next((m for m in self.measured if m.is_peer), None)

    def speedup(self, measured: Measured) -> float | None:
        """The peer's median wall time ÷ `measured`'s: above 1 when `measured` is faster."""
        peer = self.peer
        return None if peer is None else ratio(peer.wall, measured.wall)


@dataclass
class Results:
    """What a run of the benchmark measured; a part not asked for stays None (or empty)."""

    load_before: str
    startup: Group | None = None
    render: list[Group] = field(default_factory=list)
    render_skipped: str | None = None
    warm: list[Group] = field(default_factory=list)  # the small library's, then the large one's
    warm_photos: str = "generated photos"  # what the warms' libraries hold, as the report says it

    def noisiest(self) -> float:
        groups = [g for g in [self.startup, *self.render, *self.warm] if g is not None]
        return max((g.noise for g in groups), default=0.0)


def mib(n_bytes: int) -> str:
    return f"{n_bytes / 2**20:.1f}"


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def object_count(measured: Measured) -> str:
    return "-" if measured.objects is None else str(len(measured.objects))


def startup_table(group: Group) -> str:
    rows = [
        [
            f"`{m.label}`",
            len(m.walls),
            milliseconds(m.wall),
            times(group.speedup(m)),
            mib(m.peak_rss),
            object_count(m),
            "-" if m.objects is None else decoding_libraries(m.objects),
        ]
        for m in group.measured
    ]
    headers = [
        "command",
        "runs",
        "median ms",
        "vipsthumbnail ÷ this",
        "peak RSS MiB",
        "shared objects",
        "decoders mapped",
    ]
    return markdown_table(headers, rows, ["l", "r", "r", "r", "r", "r", "l"])


def render_table(groups: list[Group]) -> str:
    rows = [
        [
            m.details.get("photo", "-"),
            f"`{m.label}`",
            m.details.get("isolation", "-"),
            len(m.walls),
            milliseconds(m.wall),
            times(g.speedup(m)),
            mib(m.peak_rss),
            object_count(m),
        ]
        for g in groups
        for m in g.measured
    ]
    headers = ["photo", "command", "isolation", "runs", "median ms", "vipsthumbnail ÷ this", "peak RSS MiB"]
    return markdown_table([*headers, "shared objects"], rows, ["l", "l", "l", "r", "r", "r", "r", "r"])


def photo_rate(measured: Measured) -> float:
    """Photos per second of a warm: the photos of its library ÷ its median wall time."""
    return measured.photos / measured.wall


def warm_ratios(small: Group, large: Group) -> dict[str, float]:
    """By isolation, the small warm's photos per second ÷ the large warm's."""
    large_rates = {m.details["isolation"]: photo_rate(m) for m in large.measured}
    return {
        m.details["isolation"]: photo_rate(m) / large_rates[m.details["isolation"]]
        for m in small.measured
        if m.details["isolation"] in large_rates
    }


def warm_table(small: Group, large: Group) -> str:
    ratios = warm_ratios(small, large)
    rows = []
    for group in (small, large):
        for m in group.measured:
            isolation = m.details["isolation"]
            share = times(ratios.get(isolation)) if group is small else "1.00×"
            rows.append(
                [
                    f"{m.photos:,}",
                    isolation,
                    len(m.walls),
                    f"{m.wall:.3f}",
                    f"{photo_rate(m):.0f}",
                    share,
                    mib(m.peak_rss),
                    object_count(m),
                ]
            )
    large_photos = f"{large.measured[0].photos:,}" if large.measured else "the large"
    headers = ["photos", "isolation", "runs", "median s", "photos/s", f"÷ rate on {large_photos}", "peak RSS MiB"]
    return markdown_table([*headers, "shared objects"], rows, ["r", "l", "r", "r", "r", "r", "r", "r"])


def targets(results: Results) -> list[str]:
    """The goals' lines: met or MISSED, with the figure."""
    lines = []
    if results.startup is not None:
        version = next((m for m in results.startup.measured if m.label == "thumbs version"), None)
        if version is not None:
            wall, rss = version.wall, version.peak_rss
            lines.append(
                f"- {'met' if wall <= VERSION_WALL_GOAL else 'MISSED'}: `thumbs version` median wall "
                f"≤ {milliseconds(VERSION_WALL_GOAL)} ms: {milliseconds(wall)} ms"
            )
            lines.append(
                f"- {'met' if rss <= VERSION_RSS_GOAL else 'MISSED'}: `thumbs version` peak RSS "
                f"≤ {VERSION_RSS_GOAL // 2**20} MiB: {mib(rss)} MiB"
            )
    for group in results.render:
        for m in group.measured:
            speedup = group.speedup(m)
            if not m.is_peer and speedup is not None:
                where = ", ".join(f"{k} {v}" for k, v in m.details.items())
                text = f"`{m.label}` ({where}) ≥ {RENDER_GOAL:g}× as fast as vipsthumbnail"
                lines.append(Target(text, speedup, RENDER_GOAL).line())
    if len(results.warm) == 2:
        small, large = results.warm
        for isolation, share in warm_ratios(small, large).items():
            text = (
                f"warm of {small.measured[0].photos:,} photos (isolation {isolation}) at ≥ "
                f"{WARM_GOAL:.0%} of the photos/s on {large.measured[0].photos:,}"
            )
            lines.append(Target(text, share, WARM_GOAL).line())
    return lines


def noise_line(groups: list[Group]) -> str:
    """What other processes took of the machine during the runs of `groups`, at most."""
    return f"Other processes took {max(g.noise for g in groups):.0%} of the machine during these runs, at most."


def report(results: Results, machine: dict[str, Any], thumbs: Path, *, quick: bool) -> str:
    """The markdown report of a run."""
    text = [
        "## Start-up\n",
        f"{machine['nproc']} cores, {machine['cpu']}, {machine['memory_gib']} GiB, {machine['os']}; "
        f"`{thumbs}`; load average before the run {results.load_before}{'; --quick' if quick else ''}. "
        "Wall time of the whole process, median of the runs; vipsthumbnail ÷ this: the peer's median "
        "÷ this command's (above 1× when this one is faster); peak RSS the largest of the runs, over the "
        "process tree; shared objects mapped by the command's own process as it exits.\n",
    ]
    if results.startup is not None:
        text += ["### Cheap commands\n", startup_table(results.startup), "", noise_line([results.startup]), ""]
    if results.render or results.render_skipped:
        text.append("### One photo, rendered by a whole process\n")
    if results.render:
        text += [
            f"{RENDERING}, a new output folder and cache for every run.\n",
            render_table(results.render),
            "",
            noise_line(results.render),
            "",
        ]
    elif results.render_skipped:
        text.append(f"Skipped: {results.render_skipped}.\n")
    if len(results.warm) == 2:
        small, large = results.warm
        text += [
            "### A small warm against a large one\n",
            f"`thumbs warm` of {results.warm_photos}, the default renditions, a new cache every run.\n",
            warm_table(small, large),
            "",
            noise_line(results.warm),
            "",
        ]
    lines = targets(results)
    if lines:
        text += ["### Targets\n", "\n".join(lines)]
    text[-1] += noisy_runs_warning(results.noisiest())
    return "\n".join(text) + "\n"
