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
import datetime
import io
import os
import random
import shutil
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import events, runner
from ..figures import mb
from ..report import machine_info, markdown_table, noisy_runs_warning, write_json

if TYPE_CHECKING:
    from PIL import Image

PER_FOLDER = 500
WIDTH, HEIGHT = 640, 480
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


_field: Image.Image | None = None  # per pool process: a noisy colour field twice the photo's size, made once


def photo(rng: random.Random, taken: datetime.datetime) -> bytes:
    """One distinct 640x480 JPEG (bytes): a colour gradient, a few shapes, noise, a capture date.

    Each photo is a random crop of its process's field, its colours remapped by a random curve
    per channel, with random shapes on top: ~2 ms, where making the gradient and the noise for
    every photo took ~5.
    """
    from PIL import Image, ImageChops, ImageDraw

    global _field  # noqa: PLW0603 (made once per pool process)
    if _field is None:
        field_rng = random.Random(os.getpid())
        # A 4x3 image of random colours enlarged smoothly is a gradient; noise makes the JPEGs
        # weigh (~40 KB) and decode like photos rather than flat colour.
        _field = Image.frombytes("RGB", (4, 3), field_rng.randbytes(4 * 3 * 3))
        _field = _field.resize((2 * WIDTH, 2 * HEIGHT), Image.Resampling.BICUBIC)
        noise = Image.effect_noise((2 * WIDTH, 2 * HEIGHT), 8).convert("RGB")
        _field = ImageChops.add(_field, noise, offset=-128)
    x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
    image = _field.crop((x, y, x + WIDTH, y + HEIGHT))
    curves = []
    for _ in range(3):  # a linear curve per channel, rising or falling
        gain = rng.uniform(0.3, 1.0)
        offset = rng.uniform(0, 255 * (1 - gain))
        falling = rng.random() < 0.5
        curves += [int(offset + gain * (255 - v if falling else v)) for v in range(256)]
    image = image.point(curves)
    draw = ImageDraw.Draw(image)
    for _ in range(rng.randint(2, 6)):
        x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
        w, h = rng.randint(20, 240), rng.randint(20, 240)
        shape = draw.ellipse if rng.random() < 0.5 else draw.rectangle
        shape((x, y, x + w, y + h), fill=tuple(rng.randbytes(3)))
    exif = Image.Exif()
    exif.get_ifd(0x8769)[0x9003] = taken.strftime("%Y:%m:%d %H:%M:%S")  # DateTimeOriginal
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85, exif=exif.tobytes())
    return out.getvalue()


def generate_folder(task: tuple[Path, int, int]) -> None:
    """Writes the photos `first` to `first + count - 1` into `folder` (one pool task)."""
    folder, first, count = task
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(first)
    start = datetime.datetime(2019, 1, 1, 9, 0, 0)
    for index in range(first, first + count):
        # 37 minutes apart: 100k photos span about seven years of days.
        taken = start + datetime.timedelta(minutes=37 * index)
        (folder / f"img_{index:06d}.jpg").write_bytes(photo(rng, taken))


def library_files(folder: Path) -> list[Path]:
    """Every photo of a generated library."""
    return sorted(folder.rglob("*.jpg"))


def ensure_library(root: Path, count: int) -> tuple[list[Path], float]:
    """The library of `count` photos under root/count, generated unless it is there already.

    Returns (its files, seconds spent generating: 0 when it was kept).
    """
    folder = root / str(count)
    if folder.is_dir():
        files = library_files(folder)
        if len(files) == count:
            return files, 0.0
        print(f"scaling: {folder} holds {len(files)} photos, not {count}: generating it again", file=sys.stderr)
        shutil.rmtree(folder)
    tasks = [
        (folder / f"{first // PER_FOLDER:04d}", first, min(PER_FOLDER, count - first))
        for first in range(0, count, PER_FOLDER)
    ]
    start = time.perf_counter()
    with Pool(runner.cores()) as pool:
        for _ in pool.imap_unordered(generate_folder, tasks):
            pass
    seconds = time.perf_counter() - start
    print(
        f"scaling: generated {count} photos in {folder} in {seconds:.1f} s ({count / seconds:.0f} photos/s)",
        file=sys.stderr,
    )
    return library_files(folder), seconds


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
