"""bench-sharpness' reference for the two kinds of picture Pillow does not show as a viewer does,
decoded at full precision by libvips (`vips autorot` into its own file format, whose pixels are
read here) and turned into 8-bit sRGB here, with numpy:

- A PNG without an iCCP chunk whose sRGB, cHRM or gAMA chunks describe a colour space (the PNG
  specification's order: an ICC profile, else the sRGB chunk, which is sRGB, else the
  chromaticities of cHRM with the gamma of gAMA). Pillow ignores cHRM and gAMA, and brings
  16-bit samples to 8 bits before any conversion. Here: linear light is the sample to the power
  1 / gAMA (sRGB's curve when only cHRM is there), cHRM's primaries and white point go to sRGB's
  (sRGB's own when only gAMA is there; Bradford's adaptation from cHRM's white to D65, the
  relative intent keeping white white; a grey picture only takes the gamma), then IEC
  61966-2-1's encoding; alpha is kept.

- A HEIF or AVIF still whose nclx colour box (on the primary item) says PQ (SMPTE ST 2084) or HLG
  (ARIB STD-B67): an HDR picture, whose SDR rendering is a choice, not a fact. No neutral outside
  rendering exists, so the reference implements the project's documented choice
  (Sources/CToneMap/include/CToneMap.h) independently, from the published formulas: BT.2100's
  PQ EOTF (or HLG's inverse OETF and its OOTF for a 1000 cd/m² display, system gamma 1.2), the
  primaries to BT.709 through XYZ (negative components clipped), BT.2390's EETF from 0...1000
  cd/m² to BT.2408's reference white, 203 cd/m², applied to the largest component with the
  pixel scaled by the same ratio, then sRGB's encoding. Against it Thumbs' figures measure its
  resizing (and that it follows its own documented mapping); a peer that tone-maps otherwise, or
  not at all, is counted as that many levels off.
"""

from __future__ import annotations

import math
import struct
import subprocess
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Pixels = Any  # a numpy array: numpy is not typed here

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# (x, y) of red, green, blue and white.
Chromaticities = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
D65 = (0.3127, 0.3290)
SRGB_PRIMARIES: Chromaticities = ((0.64, 0.33), (0.30, 0.60), (0.15, 0.06), D65)
# ITU-T H.273's colour primaries with the D65 white point, by their code.
H273_PRIMARIES: dict[int, Chromaticities] = {
    1: SRGB_PRIMARIES,  # BT.709
    5: ((0.64, 0.33), (0.29, 0.60), (0.15, 0.06), D65),  # BT.601 625 lines
    6: ((0.63, 0.34), (0.31, 0.595), (0.155, 0.07), D65),  # BT.601 525 lines
    7: ((0.63, 0.34), (0.31, 0.595), (0.155, 0.07), D65),  # SMPTE 240M
    9: ((0.708, 0.292), (0.17, 0.797), (0.131, 0.046), D65),  # BT.2020, BT.2100
    12: ((0.68, 0.32), (0.265, 0.69), (0.15, 0.06), D65),  # Display P3
    22: ((0.63, 0.34), (0.295, 0.605), (0.155, 0.077), D65),  # EBU 3213
}
BT2020 = 9
PQ, HLG = 16, 18
# BT.2100's PQ constants.
PQ_M1, PQ_M2 = 2610 / 16384, 2523 / 4096 * 128
PQ_C1, PQ_C2, PQ_C3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
# BT.2100's HLG constants, and its OOTF for a display of 1000 cd/m².
HLG_A = 0.17883277
HLG_B = 1 - 4 * HLG_A
HLG_C = 0.5 - HLG_A * math.log(4 * HLG_A)
HLG_PEAK, HLG_SYSTEM_GAMMA = 1000.0, 1.2
# The tone map's ends: the source's peak and SDR white (BT.2408's HDR reference white), cd/m².
SOURCE_PEAK, REFERENCE_WHITE = 1000.0, 203.0
# Bradford's cone response matrix (chromatic adaptation).
BRADFORD = ((0.8951, 0.2664, -0.1614), (-0.7502, 1.7135, 0.0367), (0.0389, -0.0685, 1.0296))
# libvips' own file format: a 64-byte header (its magic, which also says the byte order, then
# width, height and bands as 32-bit integers, the band format at byte 20 and the coding at 24),
# the pixels right after it. Band formats read here: uchar and ushort.
VIPS_BYTE_ORDER = {b"\xb6\xa6\xf2\x08": "<", b"\x08\xf2\xa6\xb6": ">"}
VIPS_BAND_FORMATS = {0: "u1", 2: "u2"}
VIPS_HEADER = 64


@dataclass(frozen=True)
class PngColour:
    """A PNG's colour chunks: whether it has iCCP and sRGB, gAMA's gamma (0: none; a sample is
    the linear value to this power) and cHRM's red, green, blue and white (None: none)."""

    icc: bool = False
    srgb: bool = False
    gamma: float = 0.0
    chromaticities: Chromaticities | None = None

    @property
    def converted_here(self) -> bool:
        """Whether the chunks describe the colour (iCCP and sRGB left to the ICC conversion)."""
        return not self.icc and not self.srgb and (self.gamma > 0 or self.chromaticities is not None)


@dataclass(frozen=True)
class Nclx:
    """An nclx colour box: ITU-T H.273's codes and the full range flag."""

    primaries: int
    transfer: int
    matrix: int
    full_range: bool


# The chunks and boxes.


def png_colour(data: bytes) -> PngColour | None:
    """The colour chunks of a PNG's bytes (None: no PNG), read before the first PLTE or IDAT, where
    the specification places them; a chunk whose CRC is wrong or whose values cannot be is ignored,
    and so is a second one of a kind."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    chunks: dict[bytes, bytes] = {}
    offset = len(PNG_SIGNATURE)
    while offset + 12 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, offset)
        if kind in (b"PLTE", b"IDAT", b"IEND") or offset + 12 + length > len(data):
            break
        body = data[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack_from(">I", data, offset + 8 + length)
        if zlib.crc32(kind + body) == crc:
            chunks.setdefault(kind, body)
        offset += 12 + length
    gamma = chunks.get(b"gAMA", b"")
    chromaticities = chunks.get(b"cHRM", b"")
    return PngColour(
        icc=b"iCCP" in chunks,
        srgb=len(chunks.get(b"sRGB", b"")) == 1,
        gamma=struct.unpack(">I", gamma)[0] / 100000 if len(gamma) == 4 else 0.0,
        chromaticities=png_chromaticities(chromaticities) if len(chromaticities) == 32 else None,
    )


def png_chromaticities(body: bytes) -> Chromaticities | None:
    """cHRM's white, red, green and blue (x, y times 100000) as red, green, blue, white; None
    unless each is a colour (y above 0) and the primaries are independent."""
    import numpy

    values = [v / 100000 for v in struct.unpack(">8I", body)]
    white, red, green, blue = ((values[i], values[i + 1]) for i in range(0, 8, 2))
    chromaticities = (red, green, blue, white)
    if any(y <= 0 or x + y > 1 for x, y in chromaticities):
        return None
    primaries = numpy.array([[x / y, 1, (1 - x - y) / y] for x, y in chromaticities[:3]])
    return chromaticities if abs(numpy.linalg.det(primaries)) > 1e-6 else None


def boxes(data: bytes, start: int, end: int) -> list[tuple[bytes, int, int]]:
    """The ISO BMFF boxes in data[start:end]: type, and where the payload starts and ends (a box
    that overruns the range ends the list)."""
    found = []
    offset = start
    while offset + 8 <= end:
        size, kind = struct.unpack_from(">I4s", data, offset)
        header = 8
        if size == 1 and offset + 16 <= end:
            size, header = struct.unpack_from(">Q", data, offset + 8)[0], 16
        elif size == 0:
            size = end - offset
        if size < header or offset + size > end:
            break
        found.append((kind, offset + header, offset + size))
        offset += size
    return found


def item_properties(data: bytes, start: int, end: int) -> dict[int, list[int]]:
    """An ipma box's payload: each item's properties, as 1-based indices into ipco."""
    version, flags = data[start], int.from_bytes(data[start + 1 : start + 4], "big")
    (count,) = struct.unpack_from(">I", data, start + 4)
    offset, items = start + 8, {}
    for _ in range(count):
        item = struct.unpack_from(">H" if version == 0 else ">I", data, offset)[0]
        offset += 2 if version == 0 else 4
        indices = []
        for _ in range(data[offset]):
            if flags & 1:
                indices.append(struct.unpack_from(">H", data, offset + 1)[0] & 0x7FFF)
                offset += 2
            else:
                indices.append(data[offset + 1] & 0x7F)
                offset += 1
        offset += 1
        items[item] = indices
        if offset > end:
            break
    return items


def primary_properties(data: bytes) -> list[tuple[bytes, int, int]]:
    """The properties of a HEIF or AVIF file's primary item, as boxes() gives them (none: no
    HEIF, or one that ends early)."""
    if data[4:8] != b"ftyp":
        return []
    try:
        meta = next((start, end) for kind, start, end in boxes(data, 0, len(data)) if kind == b"meta")
        primary, properties, items = None, [], {}
        # meta is a full box: its version and flags come first.
        for kind, start, end in boxes(data, meta[0] + 4, meta[1]):
            if kind == b"pitm":
                primary = struct.unpack_from(">H" if data[start] == 0 else ">I", data, start + 4)[0]
            elif kind == b"iprp":
                for inner, inner_start, inner_end in boxes(data, start, end):
                    if inner == b"ipco":
                        properties = boxes(data, inner_start, inner_end)
                    elif inner == b"ipma":
                        items.update(item_properties(data, inner_start, inner_end))
    except (StopIteration, struct.error, IndexError):
        return []
    indices = items.get(primary, []) if primary is not None else []
    return [properties[index - 1] for index in indices if 0 < index <= len(properties)]


def heif_nclx(data: bytes) -> Nclx | None:
    """The nclx colour box of a HEIF or AVIF file's primary item (None: no HEIF, or none)."""
    for kind, start, end in primary_properties(data):
        if kind == b"colr" and data[start : start + 4] == b"nclx" and end - start >= 11:
            primaries, transfer, matrix = struct.unpack_from(">3H", data, start + 4)
            return Nclx(primaries, transfer, matrix, bool(data[start + 10] & 0x80))
    return None


def heif_stated_peak(data: bytes) -> float | None:
    """The peak a HEIF or AVIF file's primary item states, in cd/m²: its maximum content light
    level (clli), else its mastering display's peak (mdcv, in 0.0001 cd/m² after six primaries'
    and the white point's coordinates); None when it states neither."""
    properties = primary_properties(data)
    for kind, start, end in properties:
        if kind == b"clli" and end - start >= 4 and struct.unpack_from(">H", data, start)[0] > 0:
            return float(struct.unpack_from(">H", data, start)[0])
    for kind, start, end in properties:
        if kind == b"mdcv" and end - start >= 24:
            return float(struct.unpack_from(">I", data, start + 16)[0]) / 10000
    return None


# Colour.


def rgb_to_xyz(chromaticities: Chromaticities) -> Pixels:
    """The 3 × 3 matrix from linear RGB of these primaries to CIE XYZ, white at Y = 1."""
    import numpy

    columns = numpy.array([[x / y, 1, (1 - x - y) / y] for x, y in chromaticities[:3]]).T
    x, y = chromaticities[3]
    white = numpy.array([x / y, 1, (1 - x - y) / y])
    return columns * numpy.linalg.solve(columns, white)


def bradford(source: tuple[float, float], target: tuple[float, float]) -> Pixels:
    """Bradford's chromatic adaptation (in XYZ) from white point `source` to `target` (x, y)."""
    import numpy

    cones = numpy.array(BRADFORD)
    source_cones = cones @ numpy.array([source[0] / source[1], 1, (1 - source[0] - source[1]) / source[1]])
    target_cones = cones @ numpy.array([target[0] / target[1], 1, (1 - target[0] - target[1]) / target[1]])
    return numpy.linalg.inv(cones) @ numpy.diag(target_cones / source_cones) @ cones


def to_srgb_primaries(chromaticities: Chromaticities) -> Pixels:
    """The 3 × 3 matrix from linear RGB of these primaries to linear sRGB, white to white."""
    import numpy

    xyz_to_srgb = numpy.linalg.inv(rgb_to_xyz(SRGB_PRIMARIES))
    return xyz_to_srgb @ bradford(chromaticities[3], D65) @ rgb_to_xyz(chromaticities)


def srgb_encoded(linear: Pixels) -> Pixels:
    """IEC 61966-2-1's encoding of linear values in 0...1."""
    import numpy

    linear = numpy.clip(linear, 0, 1)
    return numpy.where(linear <= 0.0031308, 12.92 * linear, 1.055 * numpy.power(linear, 1 / 2.4) - 0.055)


def srgb_decoded(encoded: Pixels) -> Pixels:
    """IEC 61966-2-1's decoding of values in 0...1 to linear light."""
    import numpy

    return numpy.where(encoded <= 0.04045, encoded / 12.92, numpy.power((encoded + 0.055) / 1.055, 2.4))


def png_to_srgb(samples: Pixels, colour: PngColour) -> Pixels:
    """A PNG's grey or RGB samples (H×W×1 or H×W×3, 0...1) in sRGB, as its chunks describe them."""
    import numpy

    linear = numpy.power(samples, 1 / colour.gamma) if colour.gamma > 0 else srgb_decoded(samples)
    if samples.shape[-1] == 3:
        linear = linear @ to_srgb_primaries(colour.chromaticities or SRGB_PRIMARIES).T
    return srgb_encoded(linear)


def pq_eotf(code: Pixels) -> Pixels:
    """BT.2100's PQ EOTF: code values (0...1) to luminance, cd/m²."""
    import numpy

    power = numpy.power(numpy.clip(code, 0, 1), 1 / PQ_M2)
    return 10000 * numpy.power(numpy.maximum(power - PQ_C1, 0) / (PQ_C2 - PQ_C3 * power), 1 / PQ_M1)


def pq_inverse_eotf(luminance: Pixels) -> Pixels:
    """BT.2100's inverse PQ EOTF: luminance (cd/m²) to code values, 0...1."""
    import numpy

    power = numpy.power(numpy.clip(numpy.asarray(luminance, dtype=numpy.float64) / 10000, 0, 1), PQ_M1)
    return numpy.power((PQ_C1 + PQ_C2 * power) / (1 + PQ_C3 * power), PQ_M2)


def hlg_inverse_oetf(code: Pixels) -> Pixels:
    """BT.2100's inverse HLG OETF: code values (0...1) to scene light, 0...1."""
    import numpy

    code = numpy.clip(code, 0, 1)
    return numpy.where(code <= 0.5, code * code / 3, (numpy.exp((code - HLG_C) / HLG_A) + HLG_B) / 12)


def hlg_ootf(scene: Pixels, weights: Pixels) -> Pixels:
    """BT.2100's HLG OOTF for a display of 1000 cd/m² (black at 0): scene light (H×W×3) to display
    light, cd/m², with the scene luminance weighted by the picture's primaries."""
    import numpy

    luminance = numpy.maximum(scene @ weights, 0)[..., None]
    return HLG_PEAK * numpy.power(luminance, HLG_SYSTEM_GAMMA - 1) * scene


def bt2390_eetf(luminance: Pixels, source_peak: float = SOURCE_PEAK) -> Pixels:
    """BT.2390's EETF from a source of 0...`source_peak` cd/m² to a display of 0...203 cd/m² (both
    blacks at 0, so its black lift vanishes), on luminance in cd/m²: unchanged below the knee, a
    Hermite spline in PQ's scale above it, the source's peak (and anything brighter) onto 203."""
    import numpy

    source = pq_inverse_eotf(source_peak)
    level = numpy.minimum(pq_inverse_eotf(luminance) / source, 1)
    peak = pq_inverse_eotf(REFERENCE_WHITE) / source
    knee = 1.5 * peak - 0.5
    t = (level - knee) / (1 - knee)
    spline = (2 * t**3 - 3 * t**2 + 1) * knee + (t**3 - 2 * t**2 + t) * (1 - knee) + (-2 * t**3 + 3 * t**2) * peak
    return pq_eotf(numpy.where(level < knee, level, spline) * source)


def source_peak(nclx: Nclx, stated: float | None) -> float:
    """The peak the EETF maps from: a PQ picture's stated one, kept between SDR white and PQ's
    10000 cd/m²; 1000 cd/m² for a PQ picture that states none and for HLG, whose map is for its
    nominal display."""
    if nclx.transfer != PQ or stated is None or not stated > 0:
        return SOURCE_PEAK
    return min(max(stated, REFERENCE_WHITE), 10000.0)


def tone_mapped(code: Pixels, nclx: Nclx, stated_peak: float | None = None) -> Pixels:
    """An HDR picture's RGB code values (H×W×3, 0...1, full range) as sRGB, 0...1: linear light,
    BT.709's primaries, BT.2390's EETF on the largest component from the picture's peak
    (source_peak) to SDR white, sRGB's encoding.
    Primaries H.273 gives with another white, or not at all, are taken as BT.2100's, BT.2020."""
    import numpy

    primaries = H273_PRIMARIES.get(nclx.primaries, H273_PRIMARIES[BT2020])
    if nclx.transfer == HLG:
        light = hlg_ootf(hlg_inverse_oetf(code), rgb_to_xyz(primaries)[1])
    else:
        light = pq_eotf(code)
    bt709 = numpy.maximum(light @ to_srgb_primaries(primaries).T, 0)
    largest = bt709.max(axis=-1, keepdims=True)
    ratio = numpy.zeros_like(largest)
    mapped = bt2390_eetf(largest, source_peak(nclx, stated_peak))
    numpy.divide(mapped, largest * REFERENCE_WHITE, out=ratio, where=largest > 0)
    return srgb_encoded(bt709 * ratio)


# The decode.


def vips_pixels(path: Path, work: Path) -> Pixels:
    """The photo upright at full precision as libvips decodes it: H×W×bands integer samples."""
    import numpy

    copy = work / "full-decode.v"
    subprocess.run(["vips", "autorot", str(path), str(copy)], check=True, capture_output=True)
    data = copy.read_bytes()
    order = VIPS_BYTE_ORDER.get(data[:4])
    if order is None:
        raise ValueError(f"{copy}: not libvips' format")
    width, height, bands, _, band_format, coding = struct.unpack_from(f"{order}6i", data, 4)
    kind = VIPS_BAND_FORMATS.get(band_format)
    if kind is None or coding != 0:
        raise ValueError(f"{path}: libvips decodes it as band format {band_format}, coding {coding}")
    samples = numpy.frombuffer(data, dtype=order + kind, count=width * height * bands, offset=VIPS_HEADER)
    return samples.reshape(height, width, bands)


def colour_and_alpha(values: Pixels) -> tuple[Pixels, Pixels | None]:
    """Grey or RGB (H×W×1 or 3) and alpha (H×W×1, None when there is none) of 1 to 4 bands."""
    bands = values.shape[-1]
    return values[..., : 3 if bands >= 3 else 1], values[..., -1:] if bands in (2, 4) else None


def as_image(colour: Pixels, alpha: Pixels | None) -> Any:  # noqa: ANN401 (a PIL image)
    """Grey or RGB values in 0...1 (H×W×1 or 3), and alpha, as an 8-bit Pillow image."""
    import numpy
    from PIL import Image

    bands = colour if alpha is None else numpy.concatenate([colour, alpha], axis=-1)
    rounded = numpy.rint(numpy.clip(bands, 0, 1) * 255).astype(numpy.uint8)
    return Image.fromarray(rounded[..., 0] if rounded.shape[-1] == 1 else rounded)


def full_decode(path: Path, work: Path) -> tuple[Any, str] | None:
    """The whole photo, upright, as 8-bit sRGB (a Pillow image), and how it was made, when it is an
    HDR still or a PNG its colour chunks describe; None for any other."""
    with open(path, "rb") as f:
        data = f.read()
    nclx = heif_nclx(data)
    if nclx is not None and nclx.transfer in (PQ, HLG):
        samples = vips_pixels(path, work)
        depth = subprocess.run(["vipsheader", "-f", "heif-bitdepth", str(path)], check=True, capture_output=True)
        bits = int(depth.stdout)
        # libvips puts a high bit depth's code values in the top bits of 16.
        code = (samples >> (samples.dtype.itemsize * 8 - bits)) / (2**bits - 1)
        colour, alpha = colour_and_alpha(code)
        rgb = colour.repeat(3 // colour.shape[-1], axis=-1)  # grey as RGB
        return as_image(tone_mapped(rgb, nclx, heif_stated_peak(data)), alpha), "libvips, PQ/HLG tone-mapped here"
    png = png_colour(data)
    if png is not None and png.converted_here:
        samples = vips_pixels(path, work)
        values = samples / (2 ** (samples.dtype.itemsize * 8) - 1)
        colour, alpha = colour_and_alpha(values)
        return as_image(png_to_srgb(colour, png), alpha), "libvips, PNG colour chunks to sRGB here"
    return None
