#!/usr/bin/env python3
"""Writes a small DNG that LibRaw reads, for the raw tests: an RGGB mosaic and embedded previews.

The scene, as it should look once upright, has four quadrants: red top left, green top right,
blue bottom left, white bottom right; a thumbnail shown the wrong way round is plain to see.
The raw data and the previews are stored as the camera's sensor saw it (turned by the inverse
of --orientation), and IFD0 carries the Orientation tag, as a camera writes it.

Layout, as Adobe's converter writes it: IFD0 is the first preview (NewSubFileType 1) and holds
the DNG tags; its SubIFDs are the raw image (NewSubFileType 0, CFA) and then any further
previews. LibRaw 0.20 offers only the largest preview. LibRaw 0.20.2 opens what this writes
(raw-identify, dcraw_emu), and its half-size decode shows the scene upright, as do the previews
once turned by the orientation.

    scripts/make-test-dng.py out.dng --raw 640x480 --preview 160x120:rgb --preview 1024x768:jpeg

--preview-jpeg FILE stores a JPEG file's bytes, as they are, as the last preview (a camera's
own JPEG, for benchmarks: a preview of flat quadrants decodes unrealistically fast). Its pixels
are not the scene's, and its own orientation tag is ignored, as by LibRaw.

Needs numpy, tifffile and imagecodecs (for JPEG previews):
    python3 -m venv /tmp/dngvenv && /tmp/dngvenv/bin/pip install numpy tifffile imagecodecs
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy
import tifffile

from thumbs_tools.jpeg import jpeg_size  # scripts/, this file's folder, is on the path

BLACK, WHITE = 256, 4095  # a 12-bit sensor with a black level, as real ones have

# XYZ (D65) to linear sRGB: the "camera" sees linear sRGB, so LibRaw's colour conversion
# should give back the scene's colours.
COLOR_MATRIX = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]

# EXIF orientation -> (number of quarter turns counter-clockwise for numpy.rot90, then mirror
# left-right): the transform from the upright scene to what the sensor stored.
STORED = {
    1: (0, False),
    2: (0, True),
    3: (2, False),
    4: (2, True),
    5: (3, True),
    6: (1, False),
    7: (1, True),
    8: (3, False),
}


def scene(width: int, height: int) -> Any:  # noqa: ANN401 (a numpy array: numpy is not typed here)
    """The upright scene, float RGB in 0...1 (sRGB-encoded)."""
    image = numpy.ones((height, width, 3))
    top, left = numpy.arange(height)[:, None] < height // 2, numpy.arange(width)[None, :] < width // 2
    image[top & left] = (0.9, 0.1, 0.1)
    image[top & ~left] = (0.1, 0.8, 0.1)
    image[~top & left] = (0.1, 0.1, 0.9)
    return image


def stored(image: Any, orientation: int) -> Any:  # noqa: ANN401
    """`image` as the sensor stores it: turned by the inverse of `orientation`."""
    turns, mirror = STORED[orientation]
    image = numpy.rot90(image, turns)
    return numpy.ascontiguousarray(image[:, ::-1] if mirror else image)


def size(text: str) -> tuple[int, int]:
    """WxH as (width, height)."""
    width, height = text.lower().split("x")
    return int(width), int(height)


def preview(text: str) -> tuple[tuple[int, int], str]:
    """WxH[:rgb|:jpeg] as ((width, height), kind)."""
    dimensions, _, kind = text.partition(":")
    if kind not in ("", "rgb", "jpeg"):
        raise argparse.ArgumentTypeError("a preview is WxH, WxH:rgb or WxH:jpeg")
    return size(dimensions), kind or "jpeg"


def rationals(values: list[float], denominator: int = 10000) -> list[int]:
    """Each value as a numerator and `denominator`, flattened, as TIFF rationals are written."""
    return [v for x in values for v in (round(x * denominator), denominator)]


def main() -> None:
    """Writes the DNG the command line describes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output")
    parser.add_argument("--raw", type=size, default=(640, 480), help="sensor WxH, as stored (even)")
    parser.add_argument(
        "--preview",
        type=preview,
        action="append",
        help="WxH[:rgb|:jpeg], as stored; repeat for more (default 160x120:rgb 1024x768:jpeg)",
    )
    parser.add_argument("--preview-jpeg", metavar="FILE", help="a JPEG file stored as it is as the last preview")
    parser.add_argument("--orientation", type=int, default=6, choices=range(1, 9))
    parser.add_argument(
        "--datetime", default="2024:05:06 07:08:09", help="DateTime tag, which LibRaw reads as local time"
    )
    arguments = parser.parse_args()
    previews = arguments.preview or [((160, 120), "rgb"), ((1024, 768), "jpeg")]
    width, height = arguments.raw
    turns, _ = STORED[arguments.orientation]
    upright = (height, width) if turns % 2 else (width, height)

    def render(w: int, h: int) -> Any:  # noqa: ANN401 (the scene at w×h as stored)
        uw, uh = (h, w) if turns % 2 else (w, h)
        return stored(scene(uw, uh), arguments.orientation)

    # The mosaic: linear light, one colour per photosite, RGGB.
    linear = render(width, height) ** 2.2
    channel = numpy.zeros((height, width), dtype=numpy.intp)
    channel[0::2, 1::2] = channel[1::2, 0::2] = 1
    channel[1::2, 1::2] = 2
    mosaic = numpy.take_along_axis(linear, channel[..., None], axis=2)[..., 0]
    mosaic = (BLACK + mosaic * (WHITE - BLACK)).round().astype(numpy.uint16)

    dng_tags = [
        (50706, "B", 4, (1, 4, 0, 0), True),  # DNGVersion
        (50707, "B", 4, (1, 1, 0, 0), True),  # DNGBackwardVersion
        (50708, "s", 0, "Thumbs Test DNG", True),  # UniqueCameraModel
        (271, "s", 0, "Thumbs", True),  # Make
        (272, "s", 0, "Test DNG", True),  # Model
        (274, "H", 1, arguments.orientation, True),  # Orientation
        (50721, "2i", 9, rationals(COLOR_MATRIX), True),  # ColorMatrix1
        (50778, "H", 1, 21, True),  # CalibrationIlluminant1: D65
        (50728, "2I", 3, rationals([1, 1, 1]), True),  # AsShotNeutral
    ]
    raw_tags = [
        (33421, "H", 2, (2, 2), True),  # CFARepeatPatternDim
        (33422, "B", 4, (0, 1, 1, 2), True),  # CFAPattern: RGGB
        (50710, "B", 3, (0, 1, 2), True),  # CFAPlaneColor
        (50711, "H", 1, 1, True),  # CFALayout: rectangular
        (50714, "H", 1, BLACK, True),  # BlackLevel
        (50717, "H", 1, WHITE, True),  # WhiteLevel
    ]

    def write_preview(tiff: Any, dimensions: tuple[int, int], kind: str, **extra: Any) -> None:  # noqa: ANN401
        pixels = (render(*dimensions) * 255).round().astype(numpy.uint8)
        # One strip: LibRaw copies a JPEG preview as the bytes of a single strip.
        tiff.write(
            pixels,
            photometric="rgb",
            subfiletype=1,
            rowsperstrip=dimensions[1],
            compression=("jpeg" if kind == "jpeg" else None),
            metadata=None,
            **extra,
        )

    with tifffile.TiffWriter(arguments.output) as tiff:
        (first, first_kind), rest = previews[0], previews[1:]
        write_preview(
            tiff,
            first,
            first_kind,
            subifds=1 + len(rest) + bool(arguments.preview_jpeg),
            extratags=dng_tags,
            datetime=arguments.datetime,
        )
        tiff.write(mosaic, photometric=32803, subfiletype=0, metadata=None, extratags=raw_tags)
        for dimensions, kind in rest:
            write_preview(tiff, dimensions, kind)
        if arguments.preview_jpeg:
            with open(arguments.preview_jpeg, "rb") as file:
                data = file.read()
            found = jpeg_size(data)
            if found is None:
                parser.error(f"{arguments.preview_jpeg} is not a JPEG with a size")
            w, h = found
            # Already compressed: tifffile writes the one strip's bytes as they are.
            tiff.write(
                iter([data]),
                shape=(h, w, 3),
                dtype=numpy.uint8,
                photometric="ycbcr",
                subsampling=(2, 2),
                subfiletype=1,
                rowsperstrip=h,
                compression="jpeg",
                metadata=None,
            )
            previews.append(((w, h), "jpeg (" + arguments.preview_jpeg + ")"))
    print(
        f"{arguments.output}: raw {width}x{height}, displayed {upright[0]}x{upright[1]}, "
        f"orientation {arguments.orientation}, previews " + ", ".join(f"{w}x{h} {kind}" for (w, h), kind in previews)
    )


if __name__ == "__main__":
    main()
