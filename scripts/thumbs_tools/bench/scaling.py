"""How `thumbs warm` scales: throughput and peak memory at 1k, 10k and 100k generated photos.

For each size, a library of small distinct JPEGs (640x480, 500 per folder, each with an EXIF
DateTimeOriginal) is generated once under /tmp/thumbs-scaling/N/ and kept. A cold `thumbs warm`
(new, empty cache) renders two renditions like the default configuration (256x256 fill,
1024x1024 fit), then an unchanged re-run on the same cache shows what "nothing to do" costs.
Reports wall time, photos per second, peak resident memory of the process, the re-run's time
and the cold ÷ re-run ratio, and whether the issue's targets are met.

Normally run through scripts/bench-scaling, which installs Pillow and builds Thumbs.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

from .. import events, runner
from ..figures import mb
from ..report import machine_info, markdown_table, noisy_runs_warning, write_json
from .generated_photos import HEIGHT, WIDTH, ensure_library

RERUN_GOAL = 100  # an unchanged re-run is at least this many times faster than a cold one
# "Flat" memory: the largest peak anon RSS (the process's own heap and stacks) is at most this
# many times the smallest across sizes. Total RSS is reported but not judged: it also counts the
# resident pages of the cache's memory map, clean file pages the kernel drops under pressure,
# which grow with the cache (docs/BENCHMARKS.md, Scaling).
FLAT_GOAL = 1.25
CONFIG = {
    "renditions": [
        {"name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80},
        {"name": "preview", "size": "1024x1024", "mode": "fit", "format": "jpeg", "quality": 85},
    ],
    # The default 2 GiB budget would make a 100k cold run evict, and its re-run render again.
    "cache": {"budget": "1000 GiB"},
    "workers": 0,
}


def warm(thumbs: Path, library: Path, config: Path, cache: Path) -> tuple[runner.Result, events.WarmSummary]:
    """One `thumbs warm` run: (its Result, its summary)."""
    runner.wait_for_quiet()
    command = [str(thumbs), "warm", str(library), "--config", str(config)]
    result = runner.run([*command, "--cache", str(cache), "--quiet", "--json"])
    summary = events.warm_summary(result.stdout)
    if result.returncode != 0 or summary is None:
        raise RuntimeError(f"thumbs warm exited with {result.returncode}: {result.stderr.strip()}")
    return result, summary


def parse_arguments() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench-scaling",
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  scripts/bench-scaling --sizes 1000\n"
        "  scripts/bench-scaling --json scaling.json --markdown scaling.md\n"
        "  scripts/bench-scaling --sizes 100000 --generate-only",
    )
    parser.add_argument(
        "--thumbs",
        type=Path,
        required=True,
        metavar="PATH",
        help="the thumbs binary (the wrapper builds one when this is not given)",
    )
    parser.add_argument(
        "--sizes",
        default="1000,10000,100000",
        metavar="N[,N]",
        help="library sizes, comma-separated (default 1000,10000,100000)",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=Path("/tmp/thumbs-scaling"),
        metavar="DIR",
        help="folder of the libraries and caches (default /tmp/thumbs-scaling)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the caches (they are large)")
    parser.add_argument(
        "--generate-only", action="store_true", help="generate the libraries that are missing, measure nothing"
    )
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the report to this file")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every measurement to this file")
    return parser.parse_args()


def measure_size(
    thumbs: Path, library: Path, files: list[Path], config: Path, cache: Path, keep: bool
) -> dict[str, Any]:
    """A cold warm of `library` into a new cache, then an unchanged re-run: one report row."""
    shutil.rmtree(cache, ignore_errors=True)
    runner.warm_page_cache(files)
    cold, cold_summary = warm(thumbs, library, config, cache)
    rerun, rerun_summary = warm(thumbs, library, config, cache)
    if not keep:
        shutil.rmtree(cache)
    return {
        "photos": len(files),
        "cold_s": cold.wall,
        "rendered": cold_summary.rendered,
        "failed": cold_summary.failed,
        "photos_per_s": cold_summary.rendered / cold.wall,
        "peak_rss": cold.peak_rss,
        "peak_rss_anon": cold.peak_rss_anon,
        "cold_cpu_use": cold.cpu / (cold.wall * runner.cores()),
        "cold_noise": runner.noise(cold),
        "cold_summary": cold_summary.fields,
        "rerun_s": rerun.wall,
        "rerun_fresh": rerun_summary.fresh,
        "rerun_rendered": rerun_summary.rendered,
        "rerun_peak_rss": rerun.peak_rss,
        "rerun_noise": runner.noise(rerun),
        "cold_over_rerun": cold.wall / rerun.wall,
    }


def report(rows: list[dict[str, Any]], machine: dict[str, Any]) -> str:
    """The markdown report of the measured rows, with the targets."""
    text = [
        "## thumbs warm at scale\n",
        f"{machine['nproc']} cores, {machine['cpu']}, {machine['memory_gib']} GiB, "
        f"{machine['os']}; {WIDTH}x{HEIGHT} JPEGs; renditions 256x256 fill + 1024x1024 fit; "
        "CPU use of the cold run: CPU time ÷ (wall × cores); peak RSS of the process (anon: "
        "heap and stacks, without mapped files such as the cache's)\n",
    ]
    text.append(
        markdown_table(
            [
                "photos",
                "cold s",
                "photos/s",
                "CPU use",
                "peak RSS MB",
                "peak RSS anon MB",
                "re-run s",
                "re-run peak RSS MB",
                "cold ÷ re-run",
            ],
            [
                [
                    f"{r['photos']:,}",
                    f"{r['cold_s']:.2f}",
                    f"{r['photos_per_s']:.0f}",
                    f"{r['cold_cpu_use']:.0%}",
                    f"{mb(r['peak_rss']):.0f}",
                    f"{mb(r['peak_rss_anon']):.0f}",
                    f"{r['rerun_s']:.3f}",
                    f"{mb(r['rerun_peak_rss']):.0f}",
                    f"{r['cold_over_rerun']:.0f}×",
                ]
                for r in rows
            ],
        )
    )
    for r in rows:
        if r["failed"] or r["rerun_rendered"]:
            text.append(
                f"\n**Warning:** at {r['photos']:,} photos the cold run failed on "
                f"{r['failed']} and the re-run rendered {r['rerun_rendered']}: both "
                "should be 0 on a generated library."
            )
    text[-1] += noisy_runs_warning(max(max(r["cold_noise"], r["rerun_noise"]) for r in rows))
    targets = []
    for r in rows:
        ratio = r["cold_over_rerun"]
        targets.append(
            f"- {'met' if ratio >= RERUN_GOAL else 'MISSED'}: unchanged re-run ≥ "
            f"{RERUN_GOAL}× faster than cold at {r['photos']:,} photos: {ratio:.0f}×"
        )
    if len(rows) > 1:
        peaks = [r["peak_rss_anon"] for r in rows]
        growth = max(peaks) / min(peaks)
        targets.append(
            f"- {'met' if growth <= FLAT_GOAL else 'MISSED'}: peak anon RSS flat from "
            f"{rows[0]['photos']:,} to {rows[-1]['photos']:,} photos (largest ÷ "
            f"smallest ≤ {FLAT_GOAL}×): {growth:.2f}×"
        )
    else:
        targets.append("- not judged: peak anon RSS flat across sizes (needs two sizes or more)")
    text.append("\n### Targets\n\n" + "\n".join(targets))
    return "\n".join(text) + "\n"


def main() -> None:
    """Generates the libraries, warms each cold then again, prints the report."""
    args = parse_arguments()
    sizes = [int(s) for s in args.sizes.split(",")]
    args.root.mkdir(parents=True, exist_ok=True)
    libraries = {n: ensure_library(args.root, n) for n in sizes}
    if args.generate_only:
        return
    config = args.root / "config.json"
    write_json(config, CONFIG)
    rows = []
    for n in sizes:
        files, generation_seconds = libraries[n]
        row = measure_size(args.thumbs, args.root / str(n), files, config, args.root / f"cache-{n}", args.keep)
        row["generation_s"] = generation_seconds
        rows.append(row)
        print(
            f"scaling: {n} photos: cold {row['cold_s']:.2f} s ({row['photos_per_s']:.0f} "
            f"photos/s, {mb(row['peak_rss']):.0f} MB), re-run {row['rerun_s']:.3f} s",
            file=sys.stderr,
        )
    machine = machine_info()
    text = report(rows, machine)
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        write_json(args.json, {"machine": machine, "config": CONFIG, "rows": rows, "thumbs": str(args.thumbs)})


if __name__ == "__main__":
    main()
