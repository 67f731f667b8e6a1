"""scripts/bench-scaling's command line: `python3 -m thumbs_tools.bench.scaling --help`."""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

from ... import runner
from ...figures import mb
from ...report import machine_info, write_json
from ..serve.processes import exit_on_signal
from . import __doc__ as description
from . import commands, library, serving
from .commands import Setup
from .report import report

CONFIG = {
    "renditions": [
        {"name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80},
        {"name": "preview", "size": "1024x1024", "mode": "fit", "format": "jpeg", "quality": 85},
    ],
    # The default 2 GiB budget would make a large cold run evict, and its re-run render again.
    "cache": {"budget": "1000 GiB"},
    "workers": 0,
    "serve": {"warmOnStart": False},
}


def say(text: str) -> None:
    print(f"bench-scaling: {text}", file=sys.stderr)


def parse_arguments(arguments: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench-scaling",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  scripts/bench-scaling --sizes 1000\n"
        "  scripts/bench-scaling --sizes 1000,10000,100000,1000000 --json scaling.json --markdown scaling.md\n"
        "  scripts/bench-scaling --sizes 1000000 --generate-only",
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
        help=f"library sizes, comma-separated, each at least {library.FOLDERS} (default 1000,10000,100000)",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=Path("/tmp/thumbs-scaling"),
        metavar="DIR",
        help="folder of the libraries (kept) and caches (default /tmp/thumbs-scaling)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the caches (they are large)")
    parser.add_argument(
        "--generate-only", action="store_true", help="generate the libraries that are missing, measure nothing"
    )
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=600,
        metavar="SECONDS",
        help="before each timed command, wait up to this long for the rest of the machine to be idle (default 600)",
    )
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the report to this file")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every measurement to this file")
    args = parser.parse_args(arguments)
    try:
        args.sizes = [int(s) for s in args.sizes.split(",")]
        for n in args.sizes:
            library.layout(n)
    except ValueError as error:
        parser.error(f"--sizes: {error}")
    return args


def measure_size(setup: Setup, photos: int, keep: bool) -> dict[str, Any]:
    """Every measurement of one size, on a new cache: one row of each table."""
    shutil.rmtree(setup.cache, ignore_errors=True)
    say(f"{photos:,} photos: reading every file once (page cache)")
    found, size = library.read_every_file(setup.library)
    if found != photos:
        raise RuntimeError(
            f"{setup.library} holds {found:,} photos, not {photos:,}: remove "
            f"{library.marker(setup.library.parent, photos)} to have it generated again"
        )
    cold, cold_summary = commands.warm(setup)
    say(f"{photos:,} photos: cold warm {cold.wall:.2f} s; unchanged re-run, find")
    rerun, rerun_summary = commands.warm(setup)
    find = commands.find_seconds(setup)
    say(f"{photos:,} photos: thumbs serve")
    served = serving.measure(setup, photos)
    say(f"{photos:,} photos: thumbs albums, thumbs moments")
    listings = [commands.listing(setup, name).json() for name in ("albums", "moments")]
    say(f"{photos:,} photos: moving {library.MOVED}")
    moved = commands.move(setup, photos)
    if not keep:
        shutil.rmtree(setup.cache)
    return {
        "photos": photos,
        "library_bytes": size,
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
        "find_walls": find,
        "find_s": min(find),
        "rerun_over_find": rerun.wall / min(find),
        "serve": served,
        "listings": listings,
        "move": moved,
    }


def main() -> None:
    """Generates the libraries, measures each size, prints the report."""
    args = parse_arguments()
    # On SIGTERM as on Ctrl-C, the server is stopped and a moved folder renamed back.
    signal.signal(signal.SIGTERM, exit_on_signal)
    args.root.mkdir(parents=True, exist_ok=True)
    generated = {n: library.ensure(args.root, n, say) for n in args.sizes}
    if args.generate_only:
        return
    config = args.root / "config.json"
    write_json(config, CONFIG)
    rows = []
    for n in args.sizes:
        folder, seconds, written = generated[n]
        setup = Setup(args.thumbs, folder, config, args.root / f"cache-{n}", args.wait_quiet)
        row = measure_size(setup, n, args.keep)
        row["generation_s"], row["generation_bytes"] = seconds, written
        rows.append(row)
        say(
            f"{n:,} photos: cold {row['cold_s']:.2f} s ({row['photos_per_s']:.0f} photos/s, "
            f"{mb(row['peak_rss']):.0f} MB), re-run {row['rerun_s']:.3f} s, find {row['find_s']:.3f} s, "
            f"serve ready in {row['serve']['ready_s']:.2f} s"
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
