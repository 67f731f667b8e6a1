"""What HDR thumbnails that stay HDR cost: the same HDR files warmed into a cache with the
default ladder (a 256x256 fill grid at quality 80, a 1024x1024 fit preview at 85) as SDR
renditions and as gain-map ones (`"hdr": "gainmap"`: Ultra HDR JPEGs), in the same run.

The files: the HDR photos of ../shared/photos (an Ultra HDR Pixel JPEG, the libavif Ultra HDR
JPEG and PQ AVIF, an iPhone HEIC with Apple's gain map; skipped when absent) and two generated
8 MP pictures, ffmpeg's testsrc2 pattern at 3264x2448 in 16 bits encoded by avifenc as 10-bit
AVIFs labelled PQ and HLG (BT.2020), whose gain maps are computed from their light.

1. A warm of the whole set, `thumbs warm SET --cache CACHE --config CONFIG --quiet` into a new
   cache each run, SDR and gain-map runs alternated, --runs times each (default 5): the wall
   time of each, their medians and gain map over SDR.
2. The cache each leaves: `thumbs stats --json`'s thumbnails and live bytes, and gain map over SDR.
3. Each file alone, `thumbs render FILE --size 1024x1024 -o OUT.jpg` and with `--hdr gainmap`,
   alternated, --runs times each: the median wall time of a whole process, and the sizes of the
   two thumbnails (the gain map's share: the difference).

Normally run through scripts/bench-gain-maps, which installs ffmpeg and avifenc and builds
Thumbs (release) unless --thumbs PATH is given. Prints Markdown tables; --json FILE keeps the
numbers.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .. import runner
from ..paths import SHARED
from ..report import machine_info, markdown_table, write_json

SHARED_HDR = (
    "phone/PXL_ultrahdr_01.jpg",
    "phone/iphone_13_pro_max.HEIC",
    "exports/seine_sdr_gainmap_srgb.jpg",
    "exports/seine_hdr_srgb.avif",
)
MODES = ("sdr", "gainmap")


def say(text: str) -> None:
    print(f"bench-gain-maps: {text}", file=sys.stderr, flush=True)


def make_set(folder: Path) -> list[Path]:
    """The files measured, in `folder`: the shared HDR photos (copied) and the two generated AVIFs."""
    folder.mkdir(parents=True)
    files: list[Path] = []
    photos = SHARED / "photos"
    if photos.is_dir():
        for name in SHARED_HDR:
            target = folder / Path(name).name
            shutil.copyfile(photos / name, target)
            files.append(target)
    else:
        say(f"{photos} is absent: the shared HDR photos are skipped")
    pattern = folder.parent / "testsrc2.png"
    subprocess.run(
        [
            *("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=3264x2448", "-frames:v", "1"),
            *("-pix_fmt", "rgb48be", str(pattern)),
        ],
        check=True,
    )
    for transfer, cicp in (("pq", "9/16/9"), ("hlg", "9/18/9")):
        target = folder / f"testsrc2-{transfer}.avif"
        subprocess.run(
            ["avifenc", "-d", "10", "-y", "444", "-s", "8", "--cicp", cicp, str(pattern), str(target)],
            check=True,
            capture_output=True,
        )
        files.append(target)
    return files


def write_config(path: Path, mode: str) -> Path:
    """The default ladder, its renditions' `hdr` set to `mode`."""
    ladder = [
        {"name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80, "hdr": mode},
        {"name": "preview", "size": "1024x1024", "mode": "fit", "format": "jpeg", "quality": 85, "hdr": mode},
    ]
    path.write_text(json.dumps({"renditions": ladder}))
    return path


def checked(result: runner.Result, what: str) -> runner.Result:
    if result.returncode != 0:
        sys.exit(f"bench-gain-maps: {what} failed ({result.returncode}): {result.stderr.strip()[-500:]}")
    return result


def measure(thumbs: Path, files: Sequence[Path], runs: int, scratch: Path) -> dict[str, Any]:
    """The warms and the renders, SDR and gain map alternated."""
    configs = {mode: write_config(scratch / f"{mode}.json", mode) for mode in MODES}
    library = files[0].parent
    warm: dict[str, list[float]] = {mode: [] for mode in MODES}
    caches: dict[str, dict[str, int]] = {}
    for run in range(runs):
        for mode in MODES:
            cache = scratch / f"cache-{mode}"
            shutil.rmtree(cache, ignore_errors=True)
            command = [str(thumbs), "warm", str(library), "--cache", str(cache), "--config", str(configs[mode])]
            result = checked(runner.run([*command, "--quiet"]), f"the {mode} warm")
            warm[mode].append(result.wall)
            say(f"warm {run + 1}/{runs} {mode}: {result.wall:.2f} s")
            if run == runs - 1:
                stats = checked(runner.run([str(thumbs), "stats", "--cache", str(cache), "--json"]), "stats")
                numbers = json.loads(stats.stdout)
                caches[mode] = {"thumbnails": numbers["thumbnails"], "bytes": numbers["liveBytes"]}
    renders: dict[str, dict[str, Any]] = {}
    for file in files:
        times: dict[str, list[float]] = {mode: [] for mode in MODES}
        sizes: dict[str, int] = {}
        for _ in range(runs):
            for mode in MODES:
                out = scratch / f"{file.name}.{mode}.jpg"
                command = [str(thumbs), "render", str(file), "--size", "1024x1024", "--hdr", mode, "-o", str(out)]
                times[mode].append(checked(runner.run(command), f"render {file.name}").wall)
                sizes[mode] = out.stat().st_size
        renders[file.name] = {"seconds": {m: statistics.median(t) for m, t in times.items()}, "bytes": sizes}
        say(f"rendered {file.name}")
    return {
        "warm_seconds": warm,
        "warm_median": {m: statistics.median(t) for m, t in warm.items()},
        "cache": caches,
        "renders": renders,
    }


def report(results: dict[str, Any]) -> str:
    warm, cache = results["warm_median"], results["cache"]
    lines = [
        markdown_table(
            ["warm of the set", "SDR", "gain map", "gain map ÷ SDR"],
            [
                [
                    "median wall time",
                    f"{warm['sdr']:.2f} s",
                    f"{warm['gainmap']:.2f} s",
                    f"{warm['gainmap'] / warm['sdr']:.2f}",
                ],
                [
                    "cache: live bytes",
                    f"{cache['sdr']['bytes']:,}",
                    f"{cache['gainmap']['bytes']:,}",
                    f"{cache['gainmap']['bytes'] / cache['sdr']['bytes']:.2f}",
                ],
                ["cache: thumbnails", cache["sdr"]["thumbnails"], cache["gainmap"]["thumbnails"], ""],
            ],
        ),
        "",
    ]
    rows = []
    for name, render in results["renders"].items():
        seconds, sizes = render["seconds"], render["bytes"]
        rows.append(
            [
                name,
                f"{seconds['sdr'] * 1000:.0f} ms",
                f"{seconds['gainmap'] * 1000:.0f} ms",
                f"{seconds['gainmap'] / seconds['sdr']:.2f}",
                f"{sizes['sdr']:,}",
                f"{sizes['gainmap']:,}",
                f"{sizes['gainmap'] / sizes['sdr']:.2f}",
            ]
        )
    lines.append(
        markdown_table(
            ["file (1024 px, whole process)", "SDR", "gain map", "÷", "SDR bytes", "gain map bytes", "÷"], rows
        )
    )
    return "\n".join(lines)


def parse_arguments(arguments: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="scripts/bench-gain-maps", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--thumbs", type=Path, required=True, help="the thumbs binary to measure")
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each warm and render (default 5)")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    return parser.parse_args(arguments)


def main() -> None:
    args = parse_arguments()
    with tempfile.TemporaryDirectory(prefix="thumbs-bench-gain-maps.") as folder:
        scratch = Path(folder)
        files = make_set(scratch / "set")
        say(f"{len(files)} files; {args.runs} runs each")
        results = measure(args.thumbs.resolve(), files, args.runs, scratch)
    print(report(results))
    if args.json:
        write_json(args.json, {"machine": machine_info(), **results})


if __name__ == "__main__":
    main()
