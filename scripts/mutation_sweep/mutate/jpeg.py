"""Mutations of JPEG markers and segments."""

from __future__ import annotations

import random

from .. import formats
from .core import NEAR_PIXEL_LIMIT, get, interesting, mutation, put
from .tiff_fields import tiff_edit


@mutation("jpeg-length", ["jpeg"], weight=3)
def _jpeg_length(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    segments = [s for s in formats.jpeg_segments(data) if s.length >= 0]
    if not segments:
        return None
    segment = rng.choice(segments)
    new = interesting(rng, 2, segment.length, 0, 1, 2, 3, 65535)
    mutated = bytearray(data)
    put(mutated, segment.offset + 2, 2, new)
    return bytes(mutated), f"marker {segment.marker:#04x} at {segment.offset}: length {segment.length} -> {new}"


@mutation("jpeg-sof", ["jpeg"], weight=4)
def _jpeg_sof(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    frames = [s for s in formats.jpeg_segments(data) if s.marker in formats.JPEG_SOF and s.length >= 8]
    if not frames:
        return None
    frame = frames[0]
    if rng.random() < 0.15:  # as large as pixelLimit allows (libjpeg takes up to 65500)
        mutated = bytearray(data)
        height = NEAR_PIXEL_LIMIT // 65500
        put(mutated, frame.data + 1, 2, height)
        put(mutated, frame.data + 3, 2, 65500)
        return bytes(mutated), f"SOF {frame.marker:#04x} at {frame.offset}: width and height -> 65500 x {height}"
    components = data[frame.data + 5] if frame.data + 5 < len(data) else 0
    fields = [
        ("height", 1, 2),
        ("width", 3, 2),
        ("height", 1, 2),
        ("width", 3, 2),
        ("precision", 0, 1),
        ("component count", 5, 1),
    ]
    for index in range(min(components, 4)):
        fields += [(f"component {index} sampling", 7 + 3 * index, 1), (f"component {index} table", 8 + 3 * index, 1)]
    name, offset, width = rng.choice(fields)
    at = frame.data + offset
    old = get(data, at, width)
    if name in ("height", "width"):
        other = get(data, frame.data + (3 if name == "height" else 1), 2)
        new = rng.choice([0, 1, 65535, 65534, 32768, old + 1, old * 8, min(65535, NEAR_PIXEL_LIMIT // max(other, 1))])
    elif name.endswith("sampling"):
        new = rng.choice([0x00, 0x11, 0x12, 0x21, 0x22, 0x41, 0x14, 0x44, 0x33, 0xFF])
    else:
        new = rng.choice([0, 1, 2, 3, 4, 8, 12, 16, 255])
    mutated = bytearray(data)
    put(mutated, at, width, new & ((1 << (8 * width)) - 1))
    return bytes(
        mutated
    ), f"SOF {frame.marker:#04x} at {frame.offset}: {name} {old} -> {new & ((1 << (8 * width)) - 1)}"


@mutation("jpeg-sos", ["jpeg"], weight=2)
def _jpeg_sos(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    scans = [s for s in formats.jpeg_segments(data) if s.marker == 0xDA and s.length >= 6]
    if not scans:
        return None
    scan = rng.choice(scans)
    count = data[scan.data] if scan.data < len(data) else 0
    tail = scan.data + 1 + 2 * count
    name, at = rng.choice(
        [
            ("component count", scan.data),
            ("table selectors", scan.data + 2),
            ("spectral start", tail),
            ("spectral end", tail + 1),
            ("approximation", tail + 2),
        ]
    )
    if at >= len(data):
        return None
    old = data[at]
    new = rng.choice([0, 1, 4, 5, 15, 63, 64, 0x0F, 0xF0, 0xFF, old + 1]) & 0xFF
    mutated = bytearray(data)
    mutated[at] = new
    return bytes(mutated), f"SOS at {scan.offset}: {name} {old} -> {new}"


@mutation("jpeg-marker", ["jpeg"], weight=2)
def _jpeg_marker(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    segments = [s for s in formats.jpeg_segments(data) if s.length >= 0]
    if not segments:
        return None
    segment = rng.choice(segments)
    new = rng.choice([0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xC9, 0xCC, 0xCF, 0xDA, 0xDB, 0xDD, 0xE0, 0xE1, 0xE2, 0xFE, 0xD9])
    mutated = bytearray(data)
    mutated[segment.offset + 1] = new
    return bytes(mutated), f"marker {segment.marker:#04x} at {segment.offset} -> {new:#04x}"


@mutation("jpeg-drop", ["jpeg"], weight=1)
def _jpeg_drop(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    segments = [s for s in formats.jpeg_segments(data) if s.length >= 0 and s.marker != 0xDA]
    if not segments:
        return None
    segment = rng.choice(segments)
    end = segment.offset + 2 + segment.length
    if rng.random() < 0.6:
        return data[: segment.offset] + data[end:], f"marker {segment.marker:#04x} at {segment.offset} removed"
    return data[:end] + data[segment.offset : end] + data[
        end:
    ], f"marker {segment.marker:#04x} at {segment.offset} doubled"


@mutation("jpeg-exif", ["jpeg"], weight=3)
def _jpeg_exif(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    """The EXIF block's TIFF structure edited (IFD counts, entries, orientation, next IFD)."""
    for segment in formats.jpeg_segments(data):
        if segment.marker == 0xE1 and data[segment.data : segment.data + 6] == b"Exif\x00\x00":
            tiff = formats.tiff_structure(data, segment.data + 6)
            if tiff is None or not tiff.directories:
                return None
            edited = tiff_edit(data, tiff, rng)
            return None if edited is None else (edited[0], "EXIF " + edited[1])
    return None
