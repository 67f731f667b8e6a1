"""Compares the thumbnails of two `thumbs` binaries, rendition by rendition.

Both render ../shared/photos and ../shared/media with `thumbs render` into PNG (lossless, so
the encoder's own loss is not counted), with the same renditions. Every thumbnail the baseline
made must be made again, at the same size, within the tolerances below; orientation and colour
are covered by the same measure (a turned or colour-shifted thumbnail differs by tens of levels).

Tolerances, in levels of 0-255, over every pixel and channel:
  mean absolute difference ≤ 1.5 per thumbnail: a JPEG at quality 80, what Thumbs stores,
      differs from its own source by 2-4 levels; a change below that is lost in the encoding.
  mean signed difference ≤ 0.5 per channel: no shift of colour or brightness.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy
from PIL import Image

from ..paths import SHARED
from .thumbs_render import render_pngs

MEAN_ABSOLUTE_LIMIT = 1.5
MEAN_SIGNED_LIMIT = 0.5
RENDITIONS = [
    {"name": "s1024", "size": "1024x1024", "mode": "fit"},
    {"name": "s512", "size": "512x512", "mode": "fit"},
    {"name": "s256", "size": "256x256", "mode": "fit"},
    {"name": "f256", "size": "256x256", "mode": "fill"},
]


def render(binary: Path, roots: list[Path], out: Path, work: Path) -> set[Path]:
    """Renders `roots` with `binary` into `out` as PNGs; the thumbnails' paths, relative to it."""
    render_pngs(binary, roots, out, work / "quality.json", RENDITIONS)
    return {p.relative_to(out) for p in out.rglob("*.png")}


def pixels(path: Path) -> Any:  # noqa: ANN401 (a numpy array: numpy is not typed here)
    """The pixels of an image as 16-bit integers, with its alpha when it has one."""
    with Image.open(path) as image:
        return numpy.asarray(image.convert("RGBA" if "A" in image.getbands() else "RGB"), dtype=numpy.int16)


def main() -> int:
    """Renders with both binaries and compares every thumbnail; 1 when one differs too much."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", required=True, type=Path, help="the thumbs binary of the baseline")
    parser.add_argument("--thumbs", required=True, type=Path, help="the thumbs binary to check")
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--worst", type=int, default=8, help="how many of the largest differences to list")
    args = parser.parse_args()
    roots = [r for r in (args.shared / "photos", args.shared / "media") if r.is_dir()]
    if not roots:
        print("compare-quality: skipped: ../shared/photos and ../shared/media not found")
        return 0
    with tempfile.TemporaryDirectory(prefix="thumbs-quality-") as folder:
        work = Path(folder)
        before = render(args.baseline, roots, work / "baseline", work)
        after = render(args.thumbs, roots, work / "thumbs", work)
        failures: list[str] = []
        rows: list[tuple[float, float, str]] = []
        for name in sorted(before):
            if name not in after:
                failures.append(f"{name}: no longer rendered")
                continue
            old, new = pixels(work / "baseline" / name), pixels(work / "thumbs" / name)
            if old.shape != new.shape:
                failures.append(f"{name}: {old.shape[1]}x{old.shape[0]} became {new.shape[1]}x{new.shape[0]}")
                continue
            difference = new - old
            absolute = float(numpy.abs(difference).mean())
            signed = max(abs(float(c)) for c in difference.reshape(-1, difference.shape[-1]).mean(axis=0))
            rows.append((absolute, signed, str(name)))
            if absolute > MEAN_ABSOLUTE_LIMIT or signed > MEAN_SIGNED_LIMIT:
                failures.append(f"{name}: mean absolute difference {absolute:.2f}, signed {signed:.2f}")
        rows.sort(reverse=True)
        identical = sum(1 for a, _, _ in rows if a == 0)
        print(
            f"{len(rows)} thumbnails compared ({len(RENDITIONS)} renditions of every photo both rendered): "
            f"{identical} identical"
        )
        if rows:
            print(
                f"mean absolute difference: mean {numpy.mean([r[0] for r in rows]):.3f}, "
                f"largest {rows[0][0]:.3f} (limit {MEAN_ABSOLUTE_LIMIT}); largest signed "
                f"{max(r[1] for r in rows):.3f} (limit {MEAN_SIGNED_LIMIT})"
            )
            for absolute, signed, shown in rows[: args.worst]:
                print(f"  {absolute:6.3f} {signed:6.3f}  {shown}")
        for new in sorted(after - before):
            print(f"newly rendered: {new}")
        for failure in failures:
            print(f"FAILED {failure}")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
