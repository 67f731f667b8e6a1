#!/usr/bin/env python3
"""Checks an HDR thumbnail written as an Ultra HDR JPEG (an SDR JPEG and its gain map): that it
is one, and how close the HDR picture its gain map reconstructs is to the light of what it was
made from. Prints JSON on stdout; exits 0 when the files could be read (the caller judges the
numbers), 2 with a message on stderr when THUMB (or a reference) is not a valid Ultra HDR JPEG
or cannot be read, 1 when the pictures cannot be compared (their shapes differ).

The reading, checking and reconstruction are thumbs_tools/ultra_hdr.py's (its docstring says
what is checked and the formulas): HDR at the gain map's full boost, in linear light with 1.0
the SDR white; luminance Y with the weights of the primary's ICC primaries (BT.709's without a
profile). Errors are in stops: |log2(measured / reference)|, over what the reference lights to
1/64 of SDR white or more. THUMB must carry Google's container directory; each subcommand's
--lenient accepts a gain-map JPEG without one (as Adobe writes them).

    scripts/check-gain-map.py describe THUMB.jpg

prints {"width", "height", "gain_map": {"width", "height", "channels", "version"}, "metadata":
{"GainMapMin": [...], ...: 1 or 3 values each}, "version", "container", "iso21496" (whether
the gain map states its metadata in ISO 21496-1's binary form too, which must then agree with
its XMP), "orientation",
"defaulted": [fields the XMP left out], "luminance_weights", "warnings": [inconsistencies
a reader gets over, such as an MPF primary size short of the primary's end]}.

    scripts/check-gain-map.py pattern THUMB.jpg --transfer pq|hlg --primaries bt709|bt2020|p3 [--peak N]

THUMB is an upright, aspect-fit rendition of the whole test pattern of `scripts/make-test-hdr.py
pattern` (thumbs_tools/hdr_light.py), at any scale. For each patch: the source's luminance
(BT.2100's EOTF or HLG's inverse OETF and OOTF for a 1000 cd/m² display, to BT.709, Y ÷ 203
cd/m²: the light before tone mapping; --peak, a PQ pattern's stated peak, does not change it and
is echoed) and the mean, over the patch's central half, of THUMB's reconstructed HDR luminance
and of its SDR primary's. Prints {"headroom_stops": the largest HDRCapacityMax, "lit_patches",
"mean_stops", "max_stops", "peak", "patches": [{"x", "y" (the patch's centre in the pattern, as
make-test-hdr.py prints it), "grey", "source", "reconstructed", "sdr"}, ...]}.

    scripts/check-gain-map.py compare THUMB.jpg REFERENCE.jpg

REFERENCE is an Ultra HDR (or Adobe gain-map) JPEG, such as the photo THUMB was made from.
Its HDR picture is turned upright by its Exif orientation, area-averaged to THUMB's size and
compared pixel by pixel: {"lit_pixels", "mean_stops", "max_stops", "p95_stops", "headroom_stops"
(THUMB's largest HDRCapacityMax), "reference_headroom_stops"}.

    scripts/check-gain-map.py apple-compare THUMB.jpg SOURCE.HEIC [--gain-transfer rec709|srgb|gamma2.2]

The same against an iPhone HEIC's Apple HDR gain map: the auxiliary picture of type
`urn:com:apple:photo:2020:aux:hdrgainmap`, decoded with libheif's heif-convert, which turns each
item upright by its own irot/imir (an iPhone's gain map carries the primary's; one without them
is given them here; the HEIC's Exif orientation, which says the same, is not applied again).
Headroom from the MakerNote tags 33 and 48, which exiftool calls HDRHeadroom and HDRGain; HDR =
SDR × (1 + (headroom − 1) × gain), the gain map's signal made linear by --gain-transfer: rec709
(the default: BT.709's OETF undone, as Apple's "Applying Apple HDR effect to your photos" says),
srgb or gamma2.2. Adds "maker33", "maker48" and "gain_transfer" to compare's numbers.

    scripts/check-gain-map.py primary THUMB.jpg SDR.jpg

{"max_difference": the largest difference of the two decoded pictures' 8-bit samples (null when
their sizes differ), "same_size"}: that THUMB's primary shows the SDR rendition SDR.jpg.

Needs numpy and imagecodecs (.build/test-venv, scripts/test-media-tools), and for apple-compare
heif-convert (libheif-examples) and exiftool.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeAlias

import numpy

from thumbs_tools import ultra_hdr
from thumbs_tools.hdr_light import (
    ACROSS,
    GREYS,
    LEVELS,
    PATCH,
    PRIMARIES,
    SDR_WHITE,
    display_light,
    pattern_codes,
    pattern_size,
)
from thumbs_tools.ultra_hdr import BT709_WEIGHTS, UltraHdrError

# A numpy array: numpy is not typed here (scripts/pyproject.toml's mypy overrides).
Array: TypeAlias = Any


class MismatchError(Exception):
    """Pictures that cannot be compared (exit status 1)."""


@contextmanager
def named(path: str) -> Iterator[None]:
    """Errors reading the file at `path` as UltraHdrError naming it."""
    try:
        yield
    except OSError as error:
        raise UltraHdrError(f"{path} cannot be read: {error.strerror or error}") from error
    except UltraHdrError as error:
        raise UltraHdrError(f"{path}: {error}") from error


def load(path: str, lenient: bool) -> ultra_hdr.UltraHdr:
    """The Ultra HDR JPEG at `path` (call inside `named`)."""
    return ultra_hdr.read(Path(path).read_bytes(), require_container=not lenient)


def reconstructed(
    path: str, lenient: bool, dtype: str = "float32"
) -> tuple[ultra_hdr.UltraHdr, ultra_hdr.Reconstruction]:
    with named(path):
        picture = load(path, lenient)
        return picture, ultra_hdr.reconstruct(picture, dtype)


def describe(path: str, lenient: bool) -> dict[str, Any]:
    with named(path):
        picture = load(path, lenient)
        primary = ultra_hdr.decode_jpeg(picture.primary, "the primary")
        gain = ultra_hdr.decode_jpeg(picture.gain_map, "the gain map")
    return {
        "width": int(primary.shape[1]),
        "height": int(primary.shape[0]),
        "gain_map": {
            "width": int(gain.shape[1]),
            "height": int(gain.shape[0]),
            "channels": int(gain.shape[2]),
            "version": picture.metadata.version,
        },
        "metadata": picture.metadata.fields(),
        "version": picture.version,
        "container": picture.container,
        "iso21496": picture.iso21496,
        "orientation": picture.orientation,
        "defaulted": list(picture.metadata.defaulted),
        "luminance_weights": list(ultra_hdr.luminance_weights(picture.icc)),
        "warnings": list(picture.warnings),
    }


def pattern(path: str, transfer: str, primaries: str, peak: float, lenient: bool) -> dict[str, Any]:
    picture, light = reconstructed(path, lenient, "float64")
    hdr, sdr = light.hdr_luminance, light.sdr_luminance
    height, width = hdr.shape
    full_width, full_height = pattern_size()
    if not ultra_hdr.fits((width, height), (full_width, full_height)):
        raise MismatchError(
            f"THUMB is {width} × {height}, not an aspect-fit of the {full_width} × {full_height} pattern"
        )
    across, down = width / full_width, height / full_height
    codes = pattern_codes()
    source = display_light(numpy.array(codes, dtype=float) / LEVELS, transfer, primaries) @ BT709_WEIGHTS / SDR_WHITE
    columns, rows = (numpy.arange(width) + 0.5) / across, (numpy.arange(height) + 0.5) / down
    patches = []
    for index in range(len(codes)):
        top, left = index // ACROSS * PATCH, index % ACROSS * PATCH
        inside_rows = (rows >= top + PATCH / 4) & (rows < top + PATCH * 3 / 4)
        inside_columns = (columns >= left + PATCH / 4) & (columns < left + PATCH * 3 / 4)
        if not inside_rows.any() or not inside_columns.any():
            raise MismatchError(f"THUMB ({width} × {height}) is too small: patch {index} covers no pixel's centre")
        region = numpy.ix_(inside_rows, inside_columns)
        patches.append(
            {
                "x": left + PATCH // 2,
                "y": top + PATCH // 2,
                "grey": index < GREYS,
                "source": float(source[index]),
                "reconstructed": float(hdr[region].mean()),
                "sdr": float(sdr[region].mean()),
            }
        )
    measured = numpy.array([patch["reconstructed"] for patch in patches])
    lit, mean, largest, _ = ultra_hdr.stops(measured, source)
    return {
        "headroom_stops": ultra_hdr.headroom_stops(picture.metadata),
        "lit_patches": lit,
        "mean_stops": mean,
        "max_stops": largest,
        "peak": peak,
        "patches": patches,
    }


def compared(
    thumbnail: ultra_hdr.UltraHdr,
    light: ultra_hdr.Reconstruction,
    reference: Array,
    weights: tuple[float, float, float],
) -> dict[str, Any]:
    """THUMB's reconstruction against `reference`, an upright HDR linear RGB picture whose
    luminance has `weights`."""
    measured = light.hdr_luminance
    height, width = measured.shape
    full_height, full_width = reference.shape[:2]
    if not ultra_hdr.fits((width, height), (full_width, full_height)):
        raise MismatchError(
            f"THUMB is {width} × {height}, not an aspect-fit of the reference, {full_width} × {full_height} upright"
        )
    expected = ultra_hdr.luminance(ultra_hdr.area_averaged(reference, height, width), weights)
    lit, mean, largest, errors = ultra_hdr.stops(measured, expected)
    return {
        "lit_pixels": lit,
        "mean_stops": mean,
        "max_stops": largest,
        "p95_stops": float(numpy.percentile(errors, 95)) if lit else 0.0,
        "headroom_stops": ultra_hdr.headroom_stops(thumbnail.metadata),
    }


def compare(thumbnail_path: str, reference_path: str, lenient: bool) -> dict[str, Any]:
    thumbnail, thumbnail_light = reconstructed(thumbnail_path, lenient)
    reference, light = reconstructed(reference_path, lenient=True)
    upright = ultra_hdr.oriented(light.hdr, reference.orientation)
    result = compared(thumbnail, thumbnail_light, upright, light.weights)
    result["reference_headroom_stops"] = ultra_hdr.headroom_stops(reference.metadata)
    return result


def apple_metadata(path: str) -> tuple[float, float]:
    """Apple's MakerNote tags 33 and 48, which exiftool 12.57 names HDRHeadroom and HDRGain."""
    command = ["exiftool", "-n", "-j", "-MakerNotes:HDRHeadroom", "-MakerNotes:HDRGain"]
    command += ["-XMP-HDRGainMap:HDRGainMapVersion", path]
    shown = subprocess.run(command, capture_output=True, text=True)
    if shown.returncode != 0:
        raise UltraHdrError(f"exiftool cannot read it: {shown.stderr.strip()}")
    tags = json.loads(shown.stdout)[0]
    if "HDRGainMapVersion" not in tags:
        raise UltraHdrError("its XMP has no HDRGainMap:HDRGainMapVersion: no valid Apple gain map")
    if not isinstance(tags.get("HDRHeadroom"), float | int) or not isinstance(tags.get("HDRGain"), float | int):
        raise UltraHdrError("its MakerNote lacks tag 33 (HDRHeadroom) or 48 (HDRGain)")
    return float(tags["HDRHeadroom"]), float(tags["HDRGain"])


def apple_pictures(path: str) -> tuple[Array, Array]:
    """The HEIC's primary and gain map as heif-convert decodes them (each item's own transforms
    applied), as samples (rows × columns × channels)."""
    codecs = ultra_hdr.imagecodecs()
    with tempfile.TemporaryDirectory(prefix="check-gain-map-") as folder:
        output = Path(folder) / "picture.png"
        command = ["heif-convert", "--with-aux", "--no-colons", "--quiet", path, str(output)]
        decoded = subprocess.run(command, capture_output=True, text=True)
        if decoded.returncode != 0 or not output.exists():
            raise UltraHdrError(f"heif-convert cannot decode it: {(decoded.stderr or decoded.stdout).strip()}")
        name = ultra_hdr.APPLE_GAIN_MAP.replace(":", "_")
        auxiliary = Path(folder) / f"picture-{name}.png"
        if not auxiliary.exists():
            raise UltraHdrError(f"heif-convert wrote no {ultra_hdr.APPLE_GAIN_MAP} auxiliary picture")
        primary = codecs.png_decode(output.read_bytes())
        gain = codecs.png_decode(auxiliary.read_bytes())
    primary = primary if primary.ndim == 3 else primary[:, :, None]
    gain = gain if gain.ndim == 3 else gain[:, :, None]
    return ultra_hdr.rgb(primary[:, :, :3], "the HEIC's primary"), gain[:, :, :1]


def apple_compare(thumbnail_path: str, source_path: str, transfer: str, lenient: bool) -> dict[str, Any]:
    thumbnail, thumbnail_light = reconstructed(thumbnail_path, lenient)
    with named(source_path):
        layout = ultra_hdr.heif_gain_map_layout(Path(source_path).read_bytes())
        maker33, maker48 = apple_metadata(source_path)
        primary, gain = apple_pictures(source_path)
        if layout.gain_map_transforms != layout.primary_transforms:
            if layout.gain_map_transforms:
                raise UltraHdrError(
                    f"the gain map's transforms {layout.gain_map_transforms} differ from the primary's "
                    f"{layout.primary_transforms}"
                )
            gain = ultra_hdr.transformed(gain, layout.primary_transforms)
        size, gain_size = (primary.shape[1], primary.shape[0]), (gain.shape[1], gain.shape[0])
        if not ultra_hdr.fits(gain_size, size):
            raise UltraHdrError(f"the gain map ({gain_size}) does not have the primary's shape ({size})")
    stops = ultra_hdr.apple_headroom_stops(maker33, maker48)
    sdr = ultra_hdr.srgb_linear(primary)
    hdr = ultra_hdr.apple_hdr(sdr, ultra_hdr.codes(gain), 2**stops, transfer)
    result = compared(thumbnail, thumbnail_light, hdr, ultra_hdr.luminance_weights(layout.icc))
    result |= {"reference_headroom_stops": stops, "maker33": maker33, "maker48": maker48, "gain_transfer": transfer}
    return result


def primary(thumbnail_path: str, sdr_path: str, lenient: bool) -> dict[str, Any]:
    with named(thumbnail_path):
        thumbnail = load(thumbnail_path, lenient)
        shown = ultra_hdr.decode_jpeg(thumbnail.primary, "the primary")
    with named(sdr_path):
        expected = ultra_hdr.decode_jpeg(Path(sdr_path).read_bytes())
    if shown.shape != expected.shape:
        return {"max_difference": None, "same_size": False}
    difference = numpy.abs(shown.astype(int) - expected.astype(int)).max()
    return {"max_difference": int(difference), "same_size": True}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("thumbnail", metavar="THUMB.jpg", help="the Ultra HDR JPEG checked")
    common.add_argument(
        "--lenient", action="store_true", help="accept a THUMB without Google's container directory (Adobe's)"
    )
    commands.add_parser("describe", parents=[common], help="the picture, its gain map and its metadata")
    pattern_command = commands.add_parser("pattern", parents=[common], help="against make-test-hdr.py's pattern")
    pattern_command.add_argument("--transfer", choices=["pq", "hlg"], required=True)
    pattern_command.add_argument("--primaries", choices=sorted(PRIMARIES), required=True)
    pattern_command.add_argument("--peak", type=float, default=1000, help="a PQ pattern's peak, cd/m² (echoed)")
    compare_command = commands.add_parser("compare", parents=[common], help="against an Ultra HDR JPEG")
    compare_command.add_argument("reference", metavar="REFERENCE.jpg")
    apple_command = commands.add_parser("apple-compare", parents=[common], help="against an iPhone HEIC's gain map")
    apple_command.add_argument("source", metavar="SOURCE.HEIC")
    apple_command.add_argument("--gain-transfer", choices=sorted(ultra_hdr.GAIN_TRANSFERS), default="rec709")
    primary_command = commands.add_parser("primary", parents=[common], help="the primary against an SDR JPEG")
    primary_command.add_argument("sdr", metavar="SDR.jpg")
    arguments = parser.parse_args()
    try:
        if arguments.command == "describe":
            result = describe(arguments.thumbnail, arguments.lenient)
        elif arguments.command == "pattern":
            result = pattern(
                arguments.thumbnail, arguments.transfer, arguments.primaries, arguments.peak, arguments.lenient
            )
        elif arguments.command == "compare":
            result = compare(arguments.thumbnail, arguments.reference, arguments.lenient)
        elif arguments.command == "apple-compare":
            result = apple_compare(arguments.thumbnail, arguments.source, arguments.gain_transfer, arguments.lenient)
        else:
            result = primary(arguments.thumbnail, arguments.sdr, arguments.lenient)
    except UltraHdrError as error:
        print(f"check-gain-map.py: {error}", file=sys.stderr)
        return 2
    except MismatchError as error:
        print(f"check-gain-map.py: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
