"""Thumbs warm against vipsthumbnail, ImageMagick and Pillow, on the photos of ../shared/photos.

Every tool makes the same thumbnails of the same files: one rendition (256x256) or three
(1024x1024, 512x512, 256x256), all "fit" (inside the box), never enlarged, turned upright,
metadata stripped, JPEG quality 80, into a fresh folder per run, using every core. Reports the
median wall time, images per second (photos with every thumbnail written, divided by the wall
time; failures counted apart), peak resident memory of the whole process tree, the ratios to
Thumbs measured in the same run, and whether the speed targets are met.

Normally run through scripts/compare-peers, which installs the peers and builds Thumbs.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import runner
from ..figures import mb, median, ratio, times
from ..paths import SHARED
from ..report import Target, machine_info, markdown_table, noisy_runs_warning, write_json
from .photo_peers import (
    ImageMagick,
    Pillow,
    Sizes,
    Thumbs,
    Tool,
    VipsThumbnail,
    build_dataset,
    imagemagick_binary,
    versions,
)

PHOTOS = SHARED / "photos"
ONE: Sizes = (256,)
THREE: Sizes = (1024, 512, 256)  # largest first: the order the chained peers shrink in

Record = dict[str, Any]
Key = tuple[str, Sizes, str]


def rendition_label(sizes: Sizes) -> str:
    """'1 rendition' or '3 renditions'."""
    return "1 rendition" if len(sizes) == 1 else f"{len(sizes)} renditions"


def summarise(records: Sequence[Record]) -> dict[Key, Record]:
    """Per (dataset, sizes, tool): median wall, median images/s, max peak RSS, failures."""
    groups: dict[Key, list[Record]] = {}
    for r in records:
        groups.setdefault((r["dataset"], tuple(r["sizes"]), r["tool"]), []).append(r)
    return {
        key: {
            "wall": median([r["wall"] for r in runs]),
            "ips": median([r["ok"] / r["wall"] for r in runs]),
            "peak_rss": max(r["peak_rss"] for r in runs),
            "ok": runs[-1]["ok"],
            "failed": runs[-1]["failed"],
            "failures": runs[-1]["failures"],
        }
        for key, runs in groups.items()
    }


def tables(
    summary: Mapping[Key, Record], datasets: Sequence[str], tools: Sequence[Tool], photo_counts: Mapping[str, object]
) -> str:
    """The markdown report: one table per dataset, then each tool's failures."""
    text = []
    for dataset in datasets:
        text.append(f"\n### {dataset}: {photo_counts[dataset]} files\n")
        rows = []
        for sizes in (ONE, THREE):
            base = summary.get((dataset, sizes, "thumbs"))
            for tool in tools:
                s = summary.get((dataset, sizes, tool.label))
                if s is None:
                    continue
                speed = times(ratio(base["ips"], s["ips"])) if base else "-"
                memory = times(s["peak_rss"] / base["peak_rss"]) if base else "-"
                rows.append(
                    [
                        tool.label,
                        rendition_label(sizes),
                        s["ok"],
                        s["failed"],
                        f"{s['wall']:.2f}",
                        f"{s['ips']:.1f}",
                        f"{mb(s['peak_rss']):.0f}",
                        speed,
                        memory,
                    ]
                )
        headers = ["tool", "renditions", "photos ok", "failed", "wall s (median)", "images/s"]
        headers += ["peak RSS MB", "Thumbs ÷ peer, images/s", "peer ÷ Thumbs, RSS"]
        text.append(markdown_table(headers, rows, ["l", "l"] + ["r"] * 7))
        failures = [
            f"- {label}, {rendition_label(sizes)}: {', '.join(s['failures'])}"
            for (d, sizes, label), s in summary.items()
            if d == dataset and s["failures"]
        ]
        if failures:
            text.append(
                "\nFailures:\n" + "\n".join(failures) + "\n\nimages/s counts the "
                "photos each tool rendered: a tool that fails on costly files (12 MP "
                "HEICs) spends less time for what it does render, so its figure flatters "
                "it."
            )
    return "\n".join(text)


def targets(summary: Mapping[Key, Record]) -> list[Target]:
    """The speed targets that this run can judge: Thumbs' images/s ÷ the fastest peer's."""
    checks = []

    def ips(dataset: str, sizes: Sizes, label: str) -> float | None:
        s = summary.get((dataset, sizes, label))
        return s["ips"] if s and s["ips"] else None

    def check(text: str, dataset: str, sizes: Sizes, peer_labels: list[str], goal: float) -> None:
        base = ips(dataset, sizes, "thumbs")
        peers = {label: v for label in peer_labels if (v := ips(dataset, sizes, label))}
        if base and peers:
            fastest = max(peers, key=lambda label: peers[label])
            text += f" ({dataset}, {rendition_label(sizes)}; vs {fastest})"
            checks.append(Target(text, base / peers[fastest], goal))

    vips = ["vipsthumbnail-parallel"]
    check("Thumbs ≥ 1.3× Pillow", "jpeg", ONE, ["pillow"], 1.3)
    check("Thumbs ≥ 1.5× vipsthumbnail", "jpeg", ONE, vips, 1.5)
    check("Thumbs ≥ 1.3× vipsthumbnail", "mixed", ONE, vips, 1.3)
    check("Thumbs ≥ 1.5× Pillow", "jpeg", THREE, ["pillow"], 1.5)
    check("Thumbs ≥ 2× vipsthumbnail", "mixed", THREE, vips, 2.0)
    return checks


def measure_all(tools: Sequence[Tool], files: Mapping[str, list[Path]], runs: int, work: Path) -> list[Record]:
    """Runs every tool on every dataset (`files`: dataset -> paths) `runs` times; the records.

    Runs are interleaved (each run goes through every tool) so that a drift of the machine
    spreads over all tools instead of landing on one.
    """
    records = []
    for run in range(1, runs + 1):
        for dataset, paths in files.items():
            runner.warm_page_cache(paths)
            for sizes in (ONE, THREE):
                for tool in tools:
                    if dataset not in tool.datasets:
                        continue
                    out = Path(tempfile.mkdtemp(dir=work / "out"))
                    cmd, env = tool.command(work / dataset, paths, sizes, out)
                    runner.wait_for_quiet()
                    result = runner.run(cmd, env=env)
                    ok, failed, failures = tool.count(result, paths, sizes, out)
                    shutil.rmtree(out)
                    share = runner.noise(result)
                    records.append(
                        {
                            "run": run,
                            "dataset": dataset,
                            "sizes": list(sizes),
                            "tool": tool.label,
                            "wall": result.wall,
                            "ok": ok,
                            "failed": failed,
                            "failures": failures,
                            "exit": result.returncode,
                            "peak_rss": result.peak_rss,
                            "peak_rss_anon": result.peak_rss_anon,
                            "cpu": result.cpu,
                            "noise": share,
                            "stderr_tail": result.stderr[-2000:],
                        }
                    )
                    print(
                        f"run {run}/{runs} {dataset} {rendition_label(sizes)} {tool.label}: "
                        f"{result.wall:.2f} s, {ok} ok, {failed} failed, "
                        f"{mb(result.peak_rss):.0f} MB" + runner.noise_warning(share),
                        file=sys.stderr,
                    )
    return records


def parse_arguments() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/compare-peers",
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="datasets (from ../shared/photos/MANIFEST.tsv, never from broken/):\n"
        "  jpeg   every JPEG that libvips decodes (loader=jpegload, decode=ok)\n"
        "  mixed  every photo libvips decodes, of any format\n"
        "         (decode=ok or ok-with-warnings)\n"
        "tools: thumbs, vipsthumbnail, imagemagick (with an extra jpeg:size row on jpeg),"
        " pillow\n\n"
        "examples:\n"
        "  scripts/compare-peers --runs 1 --dataset jpeg --only thumbs,vipsthumbnail\n"
        "  scripts/compare-peers --copies 4 --markdown peers.md --json peers.json",
    )
    parser.add_argument(
        "--thumbs",
        type=Path,
        required=True,
        metavar="PATH",
        help="the thumbs binary (the wrapper builds one when this is not given)",
    )
    parser.add_argument("--runs", type=int, default=3, metavar="N", help="runs of each measurement (default 3)")
    parser.add_argument(
        "--copies", type=int, default=1, metavar="K", help="copies of each photo, for longer runs (default 1)"
    )
    parser.add_argument(
        "--dataset", choices=["jpeg", "mixed", "all"], default="all", help="the photos to use (default all)"
    )
    parser.add_argument("--only", metavar="TOOL[,TOOL]", help="comma-separated tools to run (default: all)")
    # VIPS_CONCURRENCY=1 is the default because it was faster than libvips' own default (one
    # thread per core) in every clean comparison on the 2-core machine, by 3-9 % (--copies 3,
    # 3 runs, both datasets): with one process per core already, more threads per process only
    # add contention. 0 leaves the variable unset.
    parser.add_argument(
        "--vips-concurrency",
        type=int,
        default=1,
        metavar="N",
        help="VIPS_CONCURRENCY of the vipsthumbnail processes; 0: libvips' default (default 1, which was faster)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=Path("/tmp/thumbs-peers"),
        metavar="DIR",
        help="folder of the datasets and outputs (default /tmp/thumbs-peers)",
    )
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the report to this file")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every measurement to this file")
    return parser.parse_args()


def main() -> None:
    """Builds the datasets, runs every tool on each, prints the report."""
    args = parse_arguments()
    if not (PHOTOS / "MANIFEST.tsv").is_file():
        print("compare-peers: skipped: ../shared/photos not found")
        return
    convert = imagemagick_binary()
    work = args.work
    (work / "out").mkdir(parents=True, exist_ok=True)
    available: dict[str, list[Tool]] = {
        "thumbs": [Thumbs(args.thumbs.resolve(), work)],
        "vipsthumbnail": [VipsThumbnail(work, args.vips_concurrency)],
        "imagemagick": [ImageMagick(convert, False), ImageMagick(convert, True)],
        "pillow": [Pillow()],
    }
    chosen = args.only.split(",") if args.only else list(available)
    unknown = set(chosen) - set(available)
    if unknown:
        sys.exit(f"compare-peers: unknown tool(s) {', '.join(sorted(unknown))}; expected {', '.join(available)}")
    tools = [tool for key in available if key in chosen for tool in available[key]]
    datasets = ["jpeg", "mixed"] if args.dataset == "all" else [args.dataset]
    files = {d: build_dataset(PHOTOS, d, args.copies, work) for d in datasets}
    photo_counts = {
        d: f"{len(f)} ({len(f) // args.copies} photos × {args.copies})" if args.copies > 1 else len(f)
        for d, f in files.items()
    }
    machine = machine_info()
    tool_versions = versions(args.thumbs, convert)
    records = measure_all(tools, files, args.runs, work)

    summary = summarise(records)
    header = (
        f"{machine['nproc']} cores, {machine['cpu']}, {machine['memory_gib']} GiB, "
        f"{machine['os']}; {tool_versions['libvips']}, ImageMagick "
        f"{tool_versions['imagemagick']}, Pillow {tool_versions['pillow']}; "
        f"{args.runs} run(s), median wall, peak RSS = max over runs of the whole process "
        "tree"
    )
    checks = targets(summary)
    header += noisy_runs_warning(max(r["noise"] for r in records))
    report = (
        f"## Thumbs and its peers\n\n{header}\n"
        + tables(summary, datasets, tools, photo_counts)
        + ("\n\n### Targets\n\n" + "\n".join(t.line() for t in checks) if checks else "")
        + "\n"
    )
    print(report)
    if args.markdown:
        args.markdown.write_text(report)
    if args.json:
        write_json(
            args.json,
            {
                "machine": machine,
                "versions": tool_versions,
                "runs": args.runs,
                "copies": args.copies,
                "vips_concurrency": args.vips_concurrency,
                "photo_counts": photo_counts,
                "records": records,
                "targets": [t.json() for t in checks],
            },
        )


if __name__ == "__main__":
    main()
