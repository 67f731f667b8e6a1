"""How sharp Thumbs' thumbnails are, against an outside reference and its peers in the same run.

Every decodable still photo of SHARED/photos (not broken/, not animated; MANIFEST.tsv says which
decode), and a few 512-px JPEGs made here from shared photos (Pillow, Lanczos from the full
decode, quality 90: a shrink to 256 near 2, where a DCT-scaled decode alone would do the whole
downscale), at 128 and 256 fit (the desktop's sizes) and 256×256 fill (a warm's), each by:

  thumbs        `thumbs render` into PNG (lossless, so no encoder loss is counted);
  vipsthumbnail one call per file and size, to sRGB (`-e srgb`), into PNG;
  pillow        gdk-pixbuf's rule: `draft()` to the smallest DCT scale still at least the
                thumbnail's size, upright, ICC to sRGB, then `thumbnail()` (fit) or
                `ImageOps.fit` (fill), as Pillow's defaults have them.

The reference is Pillow from the full decode (libvips' where Pillow cannot open the file, HEIC):
upright (EXIF), ICC to sRGB with ImageCms (relative colorimetric, as libvips). Two kinds of
picture Pillow does not show as a viewer does are decoded at full precision by libvips and turned
into sRGB by reference_colour: a PNG without an ICC profile whose gAMA or cHRM chunks describe its
colour (the PNG specification's conversion), and an HDR still (PQ or HLG in its nclx box), for
which no neutral SDR rendering exists, so the reference is an independent implementation of the
project's documented tone mapping (BT.2100, BT.2390's EETF to a 203 cd/m² white). Then one Lanczos
resize to exactly each thumbnail's size (a fill: the centre crop of the size covering it, placed
within half a pixel as close to the thumbnail as it can be: tools put a crop's pixel centres
differently). Per thumbnail:

  detail  the mean squared Laplacian of its luma (4-neighbour) ÷ the reference's;
  levels  the mean absolute difference to the reference, 0-255, over every pixel and channel
          (alpha is flattened onto white first).

The goal: detail ≥ 0.9× and levels ≤ 3. Usage (scripts/bench-sharpness):

    python3 -m thumbs_tools.bench.sharpness --thumbs THUMBS [--shared DIR] [--markdown FILE]
        [--json FILE] [--holdouts N]
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..paths import SHARED
from ..report import markdown_table, write_json
from . import reference_colour
from .photo_peers import parse_notes
from .thumbs_render import render_pngs

DETAIL_GOAL = 0.9
LEVELS_GOAL = 3.0
# name, box side, mode
RENDITIONS = [("s128", 128, "fit"), ("s256", 256, "fit"), ("f256", 256, "fill")]
TOOLS = ["thumbs", "vipsthumbnail", "pillow"]
# Shared JPEGs the 512-px holdouts are made from: fine detail (text, foliage, fabric).
HOLDOUT_SOURCES = [
    "2019-trip/japanese-shop.jpg",
    "2019-trip/craft-beer.jpg",
    "2019-trip/handwritten-notes.jpg",
    "2007-12-holiday/Nikon D50 - 2007.12.19.n.DSC_3656.JPG",
    "phone/moto_g9_plus_empty_gps.jpg",
    "2007-12-holiday/Canon Powershot SD750 - 2007.12.26.n.IMG_3704.JPG",
]
HOLDOUT_SIDE = 512
FILL_SHIFTS = (-0.5, -0.25, 0.0, 0.25, 0.5)
Pixels = Any  # a numpy array: numpy is not typed here


# The measures.


def luma(rgb: Pixels) -> Pixels:
    """BT.601 luma (as Pillow's "L") of an H×W×3 array, as floats."""
    import numpy

    return numpy.asarray(rgb, dtype=numpy.float64)[..., :3] @ numpy.array([0.299, 0.587, 0.114])


def laplacian_energy(grey: Pixels) -> float:
    """The mean squared 4-neighbour Laplacian of a 2-D array over its inner pixels (0 when none)."""
    if grey.shape[0] < 3 or grey.shape[1] < 3:
        return 0.0
    inner = grey[1:-1, 1:-1]
    laplacian = grey[:-2, 1:-1] + grey[2:, 1:-1] + grey[1:-1, :-2] + grey[1:-1, 2:] - 4 * inner
    return float((laplacian * laplacian).mean())


def detail_ratio(thumbnail: Pixels, reference: Pixels) -> float:
    """The thumbnail's fine detail as a share of the reference's (1: as much; above: more)."""
    theirs = laplacian_energy(luma(reference))
    ours = laplacian_energy(luma(thumbnail))
    if theirs == 0:
        return 1.0 if ours == 0 else float("inf")
    return ours / theirs


def level_difference(thumbnail: Pixels, reference: Pixels) -> float:
    """The mean absolute difference of two H×W×3 arrays, in levels of 0-255."""
    import numpy

    difference = numpy.asarray(thumbnail, dtype=numpy.float64) - numpy.asarray(reference, dtype=numpy.float64)
    return float(numpy.abs(difference).mean())


def meets_goal(detail: float, levels: float) -> bool:
    """Whether a thumbnail keeps ≥ 0.9× the reference's detail and stays within 3 levels."""
    return detail >= DETAIL_GOAL and levels <= LEVELS_GOAL


def fill_geometry(source: tuple[int, int], size: tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """A fill of `size` from `source` (width, height): the size that covers it, sides rounded,
    and the top left corner of the centre crop, whole pixels off each side."""
    scale = max(size[0] / source[0], size[1] / source[1])
    cover = (max(size[0], round(source[0] * scale)), max(size[1], round(source[1] * scale)))
    return cover, ((cover[0] - size[0]) // 2, (cover[1] - size[1]) // 2)


# The pictures.


def flattened(image: Any) -> Pixels:  # noqa: ANN401 (a PIL image)
    """A Pillow image as H×W×3 floats, alpha flattened onto white."""
    import numpy

    if "A" in image.getbands() or "transparency" in image.info:
        rgba = numpy.asarray(image.convert("RGBA"), dtype=numpy.float64)
        alpha = rgba[..., 3:4] / 255
        return rgba[..., :3] * alpha + 255 * (1 - alpha)
    return numpy.asarray(image.convert("RGB"), dtype=numpy.float64)


def to_srgb(image: Any) -> Any:  # noqa: ANN401 (PIL images)
    """An upright Pillow image as 8-bit RGB or RGBA, converted from its ICC profile to sRGB."""
    from PIL import Image, ImageCms

    alpha = None
    if "A" in image.getbands() or "transparency" in image.info:
        with_alpha = image.convert("LA" if image.mode in ("L", "LA", "I;16", "I") else "RGBA")
        alpha = with_alpha.getchannel("A")
        image = with_alpha.convert("L" if with_alpha.mode == "LA" else "RGB")
    elif image.mode not in ("L", "RGB", "CMYK"):
        image = image.convert("L" if image.mode in ("I;16", "I", "F", "1") else "RGB")
    profile = image.info.get("icc_profile")
    converted = None
    if profile:
        try:
            converted = ImageCms.profileToProfile(
                image,
                ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                ImageCms.createProfile("sRGB"),
                renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                outputMode="RGB",
            )
        except (ImageCms.PyCMSError, OSError, ValueError):
            converted = None
    rgb = converted if converted is not None else image.convert("RGB")
    if alpha is not None:
        rgb = Image.merge("RGBA", (*rgb.split(), alpha))
    return rgb


def full_decode(path: Path, work: Path) -> tuple[Any, str]:
    """The whole photo, upright and sRGB, and which library decoded it: Pillow, else libvips
    (what Pillow cannot open, HEIC; CMYK without a profile, which Pillow converts without
    one where libvips and Thumbs take libvips' CMYK profile; and reference_colour's pictures,
    an HDR still or a PNG described by its colour chunks, converted there)."""
    from PIL import Image, ImageOps

    converted_here = reference_colour.full_decode(path, work)
    if converted_here is not None:
        return converted_here
    try:
        with Image.open(path) as opened:
            if not (opened.mode == "CMYK" and "icc_profile" not in opened.info):
                return to_srgb(ImageOps.exif_transpose(opened)), "Pillow"
    except Exception:  # whatever Pillow fails on, libvips decodes
        pass
    copy = work / "full-decode.tif"
    subprocess.run(["vips", "autorot", str(path), str(copy)], check=True, capture_output=True)
    with Image.open(copy) as opened:
        if opened.mode != "CMYK" or "icc_profile" in opened.info:
            return to_srgb(opened), "libvips"
    converted = work / "full-decode-srgb.tif"
    subprocess.run(["vips", "icc_transform", str(copy), str(converted), "srgb"], check=True, capture_output=True)
    with Image.open(converted) as opened:
        return to_srgb(opened), "libvips"


def reference(full: Any, size: tuple[int, int], mode: str, shift: float = 0) -> Pixels:  # noqa: ANN401 (a PIL image)
    """The full decode resized by Lanczos to exactly `size`. A fill: the box of the centre crop of
    the size covering it (whole pixels off each side), moved by `shift` of its pixels along the
    cropped side, resized."""
    from PIL import Image

    if full.size == size:
        return flattened(full)
    if mode == "fit":
        return flattened(full.resize(size, Image.Resampling.LANCZOS))
    cover, (left, top) = fill_geometry(full.size, size)
    if cover == full.size:
        return flattened(full.crop((left, top, left + size[0], top + size[1])))
    scale = full.width / cover[0] if left else full.height / cover[1]
    x = (left + (shift if left else 0)) * scale
    y = (top + (0 if left else shift)) * scale
    box = (max(0.0, x), max(0.0, y), min(full.width, x + size[0] * scale), min(full.height, y + size[1] * scale))
    return flattened(full.resize(size, Image.Resampling.LANCZOS, box=box))


def aligned(thumbnail: Pixels, full: Any, size: tuple[int, int], mode: str) -> Pixels:  # noqa: ANN401
    """The reference a thumbnail is measured against. A fill's crop is placed to a fraction of a
    pixel differently by each tool (where its pixel centres fall): of the crops moved by up to
    half a pixel, the one closest to the thumbnail."""
    if mode == "fit":
        return reference(full, size, mode)
    crops = [reference(full, size, mode, shift) for shift in FILL_SHIFTS]
    return min(crops, key=lambda crop: level_difference(thumbnail, crop))


def pillow_thumbnail(path: Path, side: int, mode: str, out: Path) -> bool:
    """gdk-pixbuf's rule in Pillow: the smallest DCT scale still at least the thumbnail, then resized."""
    from PIL import Image, ImageOps

    try:
        with Image.open(path) as image:
            width, height = image.size
            upright = (height, width) if image.getexif().get(0x0112, 1) in (5, 6, 7, 8) else (width, height)
            scale = max(upright[0] / side, upright[1] / side) if mode == "fit" else min(upright) / side
            wanted = (max(1, int(width / scale)), max(1, int(height / scale))) if scale > 1 else (width, height)
            image.draft("RGB", wanted)
            picture = to_srgb(ImageOps.exif_transpose(image))
    except Exception:  # a file Pillow cannot thumbnail is the peer's failure, whatever its kind
        return False
    if mode == "fill":
        picture = ImageOps.fit(picture, (side, side))
    else:
        picture.thumbnail((side, side))
    picture.save(out)
    return True


def vipsthumbnail(path: Path, side: int, mode: str, out: Path) -> bool:
    """vipsthumbnail's thumbnail of one file and size, to sRGB, as PNG; whether it made one."""
    crop = ["-m", "centre"] if mode == "fill" else []
    result = subprocess.run(
        ["vipsthumbnail", str(path), "-s", f"{side}x{side}", *crop, "-e", "srgb", "-o", str(out)],
        capture_output=True,
    )
    return result.returncode == 0 and out.exists()


def render_with_thumbs(thumbs: Path, roots: Sequence[Path], out: Path, work: Path) -> None:
    """`thumbs render` of every root into `out`, each rendition as PNG."""
    renditions = [{"name": name, "size": f"{side}x{side}", "mode": mode} for name, side, mode in RENDITIONS]
    render_pngs(thumbs, roots, out, work / "sharpness.json", renditions)


# The photos.


def still_photos(photos: Path) -> list[str]:
    """MANIFEST.tsv's photos that decode and are stills, never from broken/."""
    with open(photos / "MANIFEST.tsv") as f:
        header = f.readline().rstrip("\n").split("\t")
        path_col, notes_col = header.index("relative_path"), header.index("notes")
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    chosen = []
    for row in rows:
        notes = parse_notes(row[notes_col])
        decodes = "loader" in notes and notes.get("decode") in ("ok", "ok-with-warnings")
        if not row[path_col].startswith("broken/") and decodes and int(notes.get("pages", "1")) <= 1:
            chosen.append(row[path_col])
    return chosen


def make_holdouts(photos: Path, folder: Path, count: int) -> list[str]:
    """`count` 512-px JPEGs (longer side) made from shared photos: upright, sRGB, Lanczos, Q 90."""
    from PIL import Image

    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for relative in HOLDOUT_SOURCES[:count]:
        if not (photos / relative).exists():
            continue
        full, _ = full_decode(photos / relative, folder)
        scale = HOLDOUT_SIDE / max(full.size)
        size = (round(full.width * scale), round(full.height * scale))
        name = f"{Path(relative).stem.replace(' ', '_')}_{HOLDOUT_SIDE}.jpg"
        full.resize(size, Image.Resampling.LANCZOS).convert("RGB").save(folder / name, quality=90)
        made.append(name)
    return made


@dataclass
class Row:
    """One thumbnail's figures."""

    file: str
    group: str  # shared or holdout
    rendition: str
    tool: str
    width: int
    height: int
    detail: float
    levels: float
    met: bool


def measure_file(
    path: Path, shown: str, group: str, outputs: dict[str, dict[str, Path]], work: Path
) -> tuple[list[Row], str]:
    """Every tool's thumbnails of one file against the reference; the rows and the reference's decoder."""
    from PIL import Image

    full, decoder = full_decode(path, work)
    rows = []
    for name, _, mode in RENDITIONS:
        for tool in TOOLS:
            made = outputs[tool].get(name)
            if made is None or not made.exists():
                continue
            with Image.open(made) as image:
                thumbnail = flattened(image)
                size = image.size
            expected = aligned(thumbnail, full, size, mode)
            detail, levels = detail_ratio(thumbnail, expected), level_difference(thumbnail, expected)
            rows.append(Row(shown, group, name, tool, size[0], size[1], detail, levels, meets_goal(detail, levels)))
    return rows, decoder


# The report.


def summary(rows: Sequence[Row]) -> str:
    """Per group, rendition and tool: files, detail (least, median), levels (median, most), goal."""
    table = []
    for group in ("shared", "holdout"):
        for name, _, _ in RENDITIONS:
            for tool in TOOLS:
                chosen = [r for r in rows if r.group == group and r.rendition == name and r.tool == tool]
                if not chosen:
                    continue
                details, levels = [r.detail for r in chosen], [r.levels for r in chosen]
                table.append(
                    [
                        group,
                        name,
                        tool,
                        len(chosen),
                        f"{min(details):.2f}",
                        f"{statistics.median(details):.2f}",
                        f"{statistics.median(levels):.1f}",
                        f"{max(levels):.1f}",
                        f"{sum(r.met for r in chosen)}/{len(chosen)}",
                    ]
                )
    headers = ["photos", "rendition", "tool", "files", "detail least", "median", "levels median", "most", "goal met"]
    return markdown_table(headers, table, ["l", "l", "l"] + ["r"] * 6)


def per_file(rows: Sequence[Row]) -> str:
    """Per file and rendition: each tool's detail and levels, Thumbs' marked against the goal."""
    keyed = {(r.file, r.rendition, r.tool): r for r in rows}
    table = []
    for file, rendition in dict.fromkeys((r.file, r.rendition) for r in rows):
        cells: list[object] = [file, rendition]
        for tool in TOOLS:
            row = keyed.get((file, rendition, tool))
            cells.append(f"{row.detail:.2f} / {row.levels:.1f}" if row else "–")
        ours = keyed.get((file, rendition, "thumbs"))
        cells.append("–" if ours is None else "met" if ours.met else "MISSED")
        table.append(cells)
    headers = ["file", "rendition", *(f"{t} detail / levels" for t in TOOLS), "thumbs: goal"]
    return markdown_table(headers, table, ["l", "l", "r", "r", "r", "l"])


def report(rows: Sequence[Row], references: dict[str, str]) -> str:
    """The whole markdown report."""
    ours = [r for r in rows if r.tool == "thumbs"]
    missed = [f"{r.file} {r.rendition}" for r in ours if not r.met]
    decoded_otherwise: dict[str, list[str]] = {}
    for file, decoder in sorted(references.items()):
        if decoder != "Pillow":
            decoded_otherwise.setdefault(decoder, []).append(file)
    lines = [
        f"Goal: detail ≥ {DETAIL_GOAL}× the reference's and levels ≤ {LEVELS_GOAL:g} "
        f"(reference: Pillow's Lanczos from the full decode"
        + "".join(f"; decoded by {decoder}: {', '.join(files)}" for decoder, files in sorted(decoded_otherwise.items()))
        + ").",
        "",
        f"**Thumbs: {len(ours) - len(missed)} of {len(ours)} thumbnails meet the goal.**"
        + (f" Missed: {'; '.join(missed)}." if missed else ""),
        "",
        summary(rows),
        "",
        per_file(rows),
    ]
    return "\n".join(lines)


def main() -> int:
    """Renders with every tool, measures each thumbnail against the reference, reports."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--thumbs", required=True, type=Path, help="the thumbs binary")
    parser.add_argument("--shared", type=Path, default=SHARED)
    parser.add_argument("--holdouts", type=int, default=4, help="512-px JPEGs to make from shared photos")
    parser.add_argument("--markdown", type=Path, help="also write the report here")
    parser.add_argument("--json", type=Path, help="write every thumbnail's figures here")
    parser.add_argument("--keep", type=Path, help="keep the thumbnails in this folder")
    args = parser.parse_args()
    photos = args.shared / "photos"
    if not (photos / "MANIFEST.tsv").is_file():
        print(f"bench-sharpness: skipped: {photos} (with its MANIFEST.tsv) is absent: nothing to measure")
        return 0
    with tempfile.TemporaryDirectory(prefix="thumbs-sharpness-") as folder:
        work = Path(args.keep) if args.keep else Path(folder)
        if args.keep:
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
        holdouts = work / "holdouts"
        files = [(photos / r, r, "shared") for r in still_photos(photos)]
        files += [(holdouts / n, n, "holdout") for n in make_holdouts(photos, holdouts, args.holdouts)]
        print(f"bench-sharpness: {len(files)} photos, {args.thumbs}", file=sys.stderr)
        render_with_thumbs(args.thumbs, [photos, holdouts], work / "thumbs", work)
        rows: list[Row] = []
        references: dict[str, str] = {}
        for index, (path, shown, group) in enumerate(files):
            base = work / "thumbs" / ("photos" if group == "shared" else "holdouts")
            outputs: dict[str, dict[str, Path]] = {
                "thumbs": {name: base / f"{shown}.{name}.png" for name, _, _ in RENDITIONS}
            }
            for tool, make in (("vipsthumbnail", vipsthumbnail), ("pillow", pillow_thumbnail)):
                (work / tool).mkdir(exist_ok=True)
                outputs[tool] = {}
                for name, side, mode in RENDITIONS:
                    out = work / tool / f"{index:03d}.{name}.png"
                    if make(path, side, mode, out):
                        outputs[tool][name] = out
            measured, references[shown] = measure_file(path, shown, group, outputs, work)
            rows += measured
        text = report(rows, references)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n")
    if args.json:
        goal = {"detail": DETAIL_GOAL, "levels": LEVELS_GOAL}
        write_json(args.json, {"goal": goal, "rows": [asdict(r) for r in rows]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
