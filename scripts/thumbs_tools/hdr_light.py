"""The HDR test pattern of scripts/make-test-hdr.py and the light its code values stand for.

The pattern is flat 32 × 32 patches, eight across: two rows of a grey ramp (code values 0 to 1
in 16 even steps) and two rows of colours, as code values of a transfer (PQ or HLG) and
primaries (BT.709, BT.2020, Display P3). What a patch shows, from the standards' formulas in
double precision:

- PQ: ITU-R BT.2100's EOTF, to cd/m².
- HLG: BT.2100's inverse OETF, then its OOTF for a 1000 cd/m² display (gamma 1.2), with the
  luminance of the picture's primaries.
- Primaries to BT.709 in linear light, through XYZ (the normalised primary matrices of SMPTE RP
  177 from ITU-T H.273's chromaticities, D65), negative components clipped.

make-test-hdr.py tone-maps that light to the SDR pixels a thumbnail should have;
scripts/check-gain-map.py compares it with the HDR an Ultra HDR thumbnail of the pattern
reconstructs (thumbs_tools/ultra_hdr.py).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy

# A numpy array: numpy is not typed here (scripts/pyproject.toml's mypy overrides).
Array: TypeAlias = Any

PATCH = 32
ACROSS = 8
# Code values are multiples of 1/1023: what a 10-bit AVIF or video stores, so that the pattern
# survives its encoding exactly.
LEVELS = 1023
# The grey ramp's steps, the first patches.
GREYS = 16
# BT.2408's HDR reference white, taken as SDR white, cd/m².
SDR_WHITE = 203

# ITU-T H.273's chromaticities (red, green, blue), all with the D65 white point.
PRIMARIES = {
    "bt709": ((0.640, 0.330), (0.300, 0.600), (0.150, 0.060)),
    "bt2020": ((0.708, 0.292), (0.170, 0.797), (0.131, 0.046)),
    "p3": ((0.680, 0.320), (0.265, 0.690), (0.150, 0.060)),
}
D65 = (0.3127, 0.3290)

# Colour patches as code values (0...1023): saturated primaries and secondaries at two levels,
# skin, sky, foliage, a highlight.
COLOURS = [
    (700, 0, 0),
    (0, 700, 0),
    (0, 0, 700),
    (500, 0, 0),
    (0, 500, 0),
    (0, 0, 500),
    (600, 600, 0),
    (0, 600, 600),
    (600, 0, 600),
    (560, 470, 420),
    (420, 480, 590),
    (380, 470, 300),
    (750, 720, 650),
    (300, 310, 330),
    (640, 540, 200),
    (200, 260, 450),
]


def pattern_codes() -> list[tuple[int, int, int]]:
    """The patches' code values (0...1023), in order: left to right, then top to bottom."""
    greys: list[tuple[int, int, int]] = [(round(i * LEVELS / (GREYS - 1)),) * 3 for i in range(GREYS)]
    return greys + COLOURS


def pattern_size() -> tuple[int, int]:
    """(width, height) of the pattern, pixels."""
    rows = (len(pattern_codes()) + ACROSS - 1) // ACROSS
    return ACROSS * PATCH, rows * PATCH


def pq_eotf(code: Array) -> Array:
    """BT.2100 PQ: non-linear signal (0...1) to displayed luminance, cd/m²."""
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    power = numpy.power(numpy.clip(code, 0, 1), 1 / m2)
    return 10000 * numpy.power(numpy.maximum(power - c1, 0) / (c2 - c3 * power), 1 / m1)


def pq_inverse_eotf(luminance: Array) -> Array:
    """BT.2100 PQ: luminance in cd/m² to the non-linear signal."""
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    power = numpy.power(numpy.clip(luminance, 0, 10000) / 10000, m1)
    return numpy.power((c1 + c2 * power) / (1 + c3 * power), m2)


def hlg_inverse_oetf(code: Array) -> Array:
    """BT.2100 HLG: non-linear signal (0...1) to normalised scene light (0...1)."""
    a = 0.17883277
    b = 1 - 4 * a
    c = 0.5 - a * numpy.log(4 * a)
    code = numpy.clip(code, 0, 1)
    high = (numpy.exp((numpy.maximum(code, 0.5) - c) / a) + b) / 12
    return numpy.where(code <= 0.5, code * code / 3, high)


def rgb_to_xyz(name: str) -> Array:
    """SMPTE RP 177's normalised primary matrix of the named primaries."""
    columns = numpy.array([[x / y, 1.0, (1 - x - y) / y] for x, y in PRIMARIES[name]]).T
    white = numpy.array([D65[0] / D65[1], 1.0, (1 - D65[0] - D65[1]) / D65[1]])
    return columns * numpy.linalg.solve(columns, white)


def srgb_encode(linear: Array) -> Array:
    """IEC 61966-2-1: linear light (0...1) to the sRGB signal."""
    linear = numpy.clip(linear, 0, 1)
    return numpy.where(linear <= 0.0031308, 12.92 * linear, 1.055 * numpy.power(linear, 1 / 2.4) - 0.055)


def display_light(codes: Array, transfer: str, primaries: str) -> Array:
    """Rows of code-value triples (0...1) of `transfer` ("pq" or "hlg") and `primaries` to the
    light they show: BT.709 linear RGB in cd/m², negative components clipped."""
    to_xyz = rgb_to_xyz(primaries)
    if transfer == "pq":
        display = pq_eotf(codes)
    else:
        scene = hlg_inverse_oetf(codes)
        luminance = scene @ to_xyz[1]
        display = 1000 * numpy.power(luminance, 0.2)[:, None] * scene
    return numpy.maximum(display @ (numpy.linalg.inv(rgb_to_xyz("bt709")) @ to_xyz).T, 0)
