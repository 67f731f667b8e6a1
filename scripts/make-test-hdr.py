#!/usr/bin/env python3
"""Writes an HDR test pattern and the SDR sRGB pixels its tone-mapped thumbnail should have.

The pattern is a 16-bit RGB PNG of flat 32 × 32 patches, eight across: two rows of a grey ramp
(code values 0 to 1 in 16 even steps) and two rows of colours, as code values of the transfer
and primaries named. avifenc and ffmpeg encode it as a PQ or HLG AVIF or video; the tests
compare the centre of each patch of Thumbs' thumbnail with what this prints.

The expected pixels are computed here from the standards' formulas, apart from Thumbs' C code
(Sources/CToneMap), in double precision (the first three steps in thumbs_tools/hdr_light.py, which
scripts/check-gain-map.py shares):

- PQ: ITU-R BT.2100's EOTF, to cd/m².
- HLG: BT.2100's inverse OETF, then its OOTF for a 1000 cd/m² display (gamma 1.2), with the
  luminance of the picture's primaries.
- Primaries to BT.709 in linear light, through XYZ (the normalised primary matrices of SMPTE RP
  177 from ITU-T H.273's chromaticities, D65), negative components clipped.
- BT.2390's EETF from 0...1000 cd/m² to 0...203 cd/m² (BT.2408's HDR reference white, taken as
  SDR white), on the largest component, the pixel scaled by its ratio.
- The sRGB encoding (IEC 61966-2-1), rounded to 8 bits.

    scripts/make-test-hdr.py pattern pattern.png --transfer pq --primaries bt2020

prints JSON: {"patch": 32, "patches": [{"x": 16, "y": 16, "grey": true, "expected": [r, g, b]}, ...]},
(x, y) the centre of each patch.

    scripts/make-test-hdr.py frame codes.rgb48 expected.rgb --transfer hlg --primaries bt2020

reads a picture's code values as ffmpeg writes them (rawvideo, rgb48le) and writes the 8-bit
sRGB pixels (rawvideo, rgb24) their tone mapping should give: for real HDR videos. Needs numpy.

    scripts/make-test-hdr.py thumbnail primary.avif small.avif out.avif

writes out.avif: primary.avif with the picture of small.avif as its stored thumbnail item, as
cameras store one (thumbs_tools/heif_items.py); avifenc writes none.

    scripts/make-test-hdr.py light-level in.avif out.avif --max-cll 4000 --max-fall 400
    scripts/make-test-hdr.py light-level in.avif out.avif --mastering-peak 4000

writes out.avif: in.avif with a `clli` property (content light level, cd/m²) or an `mdcv` one
(a BT.2020 mastering display of that peak), which Debian's avifenc cannot write. Given an MP4
(ffmpeg's, its media data before its moov box), it adds the box to the video's sample entry
instead: a container stating the peak of a stream whose SEI does not (thumbs_tools/mp4_boxes.py).
`pattern --peak 4000` computes a PQ pattern's pixels for that peak.
"""

from __future__ import annotations

import argparse
import json
import struct
import zlib
from typing import Any, TypeAlias

import numpy

from thumbs_tools.hdr_light import (
    ACROSS,
    GREYS,
    LEVELS,
    PATCH,
    PRIMARIES,
    display_light,
    pattern_codes,
    pq_eotf,
    pq_inverse_eotf,
    srgb_encode,
)
from thumbs_tools.heif_items import box, with_property, with_thumbnail
from thumbs_tools.mp4_boxes import is_movie, with_sample_entry_box

# A numpy array: numpy is not typed here (scripts/pyproject.toml's mypy overrides).
Array: TypeAlias = Any


def eetf(luminance: Array, source_peak: float = 1000, target_peak: float = 203) -> Array:
    """BT.2390's EETF, both blacks at 0: cd/m² on a source_peak display to a target_peak one."""
    source = pq_inverse_eotf(source_peak)
    maximum = pq_inverse_eotf(target_peak) / source
    knee = 1.5 * maximum - 0.5
    e1 = numpy.minimum(pq_inverse_eotf(luminance) / source, 1)
    t = (e1 - knee) / (1 - knee)
    spline = (2 * t**3 - 3 * t**2 + 1) * knee + (t**3 - 2 * t**2 + t) * (1 - knee) + (-2 * t**3 + 3 * t**2) * maximum
    return pq_eotf(numpy.where(e1 > knee, spline, e1) * source)


def tone_mapped(codes: Array, transfer: str, primaries: str, peak: float = 1000) -> Array:
    """Rows of code-value triples (0...1) to 8-bit sRGB, a PQ picture's from `peak` cd/m²."""
    bt709 = display_light(codes, transfer, primaries)
    largest = bt709.max(axis=1)
    source_peak = min(max(peak, 203), 10000) if transfer == "pq" else 1000
    ratio = numpy.divide(eetf(largest, source_peak), largest * 203, out=numpy.zeros_like(largest), where=largest > 0)
    return numpy.rint(255 * srgb_encode(bt709 * ratio[:, None])).astype(int)


def write_png(path: str, pixels: Array) -> None:
    """A 16-bit RGB or RGBA PNG of `pixels` (rows × columns × 3 or 4, 0...65535), unfiltered."""
    height, width, bands = pixels.shape
    rows = b"".join(b"\0" + row.astype(">u2").tobytes() for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 16, 2 if bands == 3 else 6, 0, 0, 0)
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)))
        file.write(chunk(b"IEND", b""))


def write_pattern(path: str, transfer: str, primaries: str, alpha: int | None, peak: float) -> None:
    """The pattern as a PNG at `path`, with `alpha` (0...65535) everywhere when given; its patches
    and their expected pixels (the colour, whatever the alpha) as JSON on stdout."""
    patches = pattern_codes()
    codes = numpy.array(patches, dtype=float) / LEVELS
    expected = tone_mapped(codes, transfer, primaries, peak)

    rows = (len(patches) + ACROSS - 1) // ACROSS
    pixels = numpy.zeros((rows * PATCH, ACROSS * PATCH, 3), dtype=numpy.uint16)
    described = []
    for index, code in enumerate(patches):
        top, left = index // ACROSS * PATCH, index % ACROSS * PATCH
        pixels[top : top + PATCH, left : left + PATCH] = [round(value * 65535 / LEVELS) for value in code]
        described.append(
            {
                "x": left + PATCH // 2,
                "y": top + PATCH // 2,
                "grey": index < GREYS,
                "expected": [int(value) for value in expected[index]],
            }
        )
    if alpha is not None:
        pixels = numpy.dstack([pixels, numpy.full(pixels.shape[:2], alpha, dtype=numpy.uint16)])
    write_png(path, pixels)
    print(json.dumps({"patch": PATCH, "patches": described}))


def write_frame(codes_path: str, output: str, transfer: str, primaries: str) -> None:
    """16-bit code values (rgb48le) from `codes_path` tone-mapped to 8-bit sRGB (rgb24) in `output`."""
    codes = numpy.fromfile(codes_path, dtype="<u2").reshape(-1, 3).astype(float) / 65535
    tone_mapped(codes, transfer, primaries).astype(numpy.uint8).tofile(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    pattern = commands.add_parser("pattern", help="write the test pattern and print its expected pixels")
    pattern.add_argument("output", help="the pattern, a 16-bit PNG")
    pattern.add_argument(
        "--alpha", type=int, choices=range(65536), metavar="0-65535", help="an alpha channel of this value"
    )
    pattern.add_argument("--peak", type=float, default=1000, help="a PQ picture's peak, cd/m² (default 1000)")
    frame = commands.add_parser("frame", help="tone map a picture's code values")
    frame.add_argument("codes", help="code values, rawvideo rgb48le")
    frame.add_argument("output", help="8-bit sRGB, rawvideo rgb24")
    thumbnail = commands.add_parser("thumbnail", help="give a HEIF file a stored thumbnail item")
    thumbnail.add_argument("primary", help="a HEIF file of one picture")
    thumbnail.add_argument("small", help="a HEIF file of one picture, the thumbnail")
    thumbnail.add_argument("output", help="the primary file with the thumbnail item")
    light = commands.add_parser("light-level", help="give a HEIF file or an MP4 a stated peak (clli or mdcv)")
    light.add_argument("input", help="a HEIF file of one picture, or an MP4")
    light.add_argument("output", help="the file with the property")
    light.add_argument("--max-cll", type=int, choices=range(65536), metavar="0-65535")
    light.add_argument("--max-fall", type=int, choices=range(65536), metavar="0-65535", default=0)
    light.add_argument("--mastering-peak", type=int, choices=range(1, 10001), metavar="1-10000")
    for command in (pattern, frame):
        command.add_argument("--transfer", choices=["pq", "hlg"], required=True)
        command.add_argument("--primaries", choices=sorted(PRIMARIES), default="bt2020")
    arguments = parser.parse_args()
    if arguments.command == "pattern":
        write_pattern(arguments.output, arguments.transfer, arguments.primaries, arguments.alpha, arguments.peak)
    elif arguments.command == "thumbnail":
        with open(arguments.primary, "rb") as primary, open(arguments.small, "rb") as small:
            combined = with_thumbnail(primary.read(), small.read())
        with open(arguments.output, "wb") as output:
            output.write(combined)
    elif arguments.command == "light-level":
        if (arguments.max_cll is None) == (arguments.mastering_peak is None):
            parser.error("light-level takes --max-cll or --mastering-peak")
        if arguments.max_cll is not None:
            level = box(b"clli", struct.pack(">HH", arguments.max_cll, arguments.max_fall))
        else:
            # BT.2020's primaries (green, blue, red) and D65, in 0.00002; luminance in 0.0001 cd/m².
            chromaticities = (8500, 39850, 6550, 2300, 35400, 14600, 15635, 16450)
            level = box(b"mdcv", struct.pack(">8HII", *chromaticities, arguments.mastering_peak * 10000, 50))
        with open(arguments.input, "rb") as source:
            data = source.read()
        edited = with_sample_entry_box(data, level) if is_movie(data) else with_property(data, level)
        with open(arguments.output, "wb") as output:
            output.write(edited)
    else:
        write_frame(arguments.codes, arguments.output, arguments.transfer, arguments.primaries)


if __name__ == "__main__":
    main()
