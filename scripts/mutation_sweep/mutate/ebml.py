"""Mutations of Matroska and WebM EBML elements."""

from __future__ import annotations

import random
import struct

from .. import formats
from .core import get, interesting, mutation, put

EBML_NAMES = {
    0x1A45DFA3: "EBML",
    0x18538067: "Segment",
    0x114D9B74: "SeekHead",
    0x1549A966: "Info",
    0x1654AE6B: "Tracks",
    0xAE: "TrackEntry",
    0xE0: "Video",
    0xE1: "Audio",
    0x1F43B675: "Cluster",
    0xA3: "SimpleBlock",
    0xA1: "Block",
    0xA0: "BlockGroup",
    0x1C53BB6B: "Cues",
    0xB0: "PixelWidth",
    0xBA: "PixelHeight",
    0x54B0: "DisplayWidth",
    0x54BA: "DisplayHeight",
    0x2AD7B1: "TimestampScale",
    0x4489: "Duration",
    0x23E383: "DefaultDuration",
    0xD7: "TrackNumber",
    0x83: "TrackType",
    0x86: "CodecID",
    0x63A2: "CodecPrivate",
    0xE7: "Timestamp",
    0x4282: "DocType",
    0x42F7: "EBMLReadVersion",
    0x54AA: "PixelCropBottom",
    0x54BB: "PixelCropTop",
    0x54CC: "PixelCropLeft",
    0x54DD: "PixelCropRight",
    0x9A: "FlagInterlaced",
    0x53B8: "StereoMode",
    0x4DBB: "Seek",
    0x53AC: "SeekPosition",
    0xBB: "CuePoint",
    0xF1: "CueClusterPosition",
    0xB3: "CueTime",
}
EBML_UINTS = {
    0xB0,
    0xBA,
    0x54B0,
    0x54BA,
    0x2AD7B1,
    0x23E383,
    0xD7,
    0x83,
    0xE7,
    0x54AA,
    0x54BB,
    0x54CC,
    0x54DD,
    0x9A,
    0x53B8,
    0x42F7,
    0x53AC,
    0xF1,
    0xB3,
}
EBML_CODECS = [
    b"V_MPEG4/ISO/AVC",
    b"V_MPEGH/ISO/HEVC",
    b"V_VP8",
    b"V_VP9",
    b"V_AV1",
    b"V_MS/VFW/FOURCC",
    b"V_UNCOMPRESSED",
    b"A_OPUS",
    b"S_TEXT/UTF8",
    b"V_MJPEG",
    b"",
]


def _ebml_name(element_id: int) -> str:
    return EBML_NAMES.get(element_id, f"{element_id:#x}")


@mutation("ebml-size", ["ebml"], weight=4)
def _ebml_size(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    elements = formats.ebml_elements(data)
    if not elements:
        return None
    element = rng.choice(elements)
    bits = 7 * element.size_length
    unknown = (1 << bits) - 1
    new = rng.choice(
        [0, 1, unknown, unknown - 1, element.size + 1, element.size - 1, element.size * 2, 1 << (bits - 1)]
    )
    new = max(0, min(new, unknown))
    mutated = bytearray(data)
    put(mutated, element.offset + element.id_length, element.size_length, new | (1 << bits))
    shown = "unknown" if new == unknown else str(new)
    return bytes(mutated), f"element {_ebml_name(element.id)} at {element.offset}: size {element.size} -> {shown}"


@mutation("ebml-id", ["ebml"], weight=2)
def _ebml_id(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    elements = formats.ebml_elements(data)
    if not elements:
        return None
    element = rng.choice(elements)
    same_length = [i for i in EBML_NAMES if (i.bit_length() + 7) // 8 == element.id_length and i != element.id]
    if same_length and rng.random() < 0.7:
        new = rng.choice(same_length)
    else:
        marker = 0x80 >> (element.id_length - 1)
        first = (rng.randrange(256) & (marker - 1)) | marker
        new = int.from_bytes(bytes([first]) + bytes(rng.randrange(256) for _ in range(element.id_length - 1)), "big")
    mutated = bytearray(data)
    put(mutated, element.offset, element.id_length, new)
    return bytes(mutated), f"element {_ebml_name(element.id)} at {element.offset}: id -> {_ebml_name(new)}"


@mutation("ebml-field", ["ebml"], weight=4)
def _ebml_field(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    """A value the demuxer computes with: frame sizes, time scales, the duration (as NaN or
    infinite too), codec ids, a block's track number and lacing."""
    fields = [e for e in formats.ebml_elements(data) if e.id in EBML_UINTS | {0x4489, 0x86, 0xA3, 0xA1} and e.size > 0]
    if not fields:
        return None
    element = rng.choice(fields)
    at, size = element.data, element.size
    if at + size > len(data):
        return None
    mutated = bytearray(data)
    name = _ebml_name(element.id)
    if element.id == 0x4489 and size in (4, 8):
        value = rng.choice([float("nan"), float("inf"), float("-inf"), -1.0, 0.0, 1e300, 1e-300])
        mutated[at : at + size] = struct.pack(">d" if size == 8 else ">f", value)
        return bytes(mutated), f"{name} at {element.offset} -> {value}"
    if element.id == 0x86:
        codec = rng.choice(EBML_CODECS)[:size].ljust(size, b"\x00")
        mutated[at : at + size] = codec
        return bytes(mutated), f"{name} at {element.offset} -> {codec!r}"
    if element.id in (0xA3, 0xA1):
        if rng.random() < 0.5:
            new = rng.choice([0x80, 0x82, 0xFF, 0x40])
            mutated[at] = new
            return bytes(mutated), f"{name} at {element.offset}: track number byte -> {new:#04x}"
        flags = at + 3
        if flags >= len(data):
            return None
        new = (data[flags] & ~0x06) | rng.choice([0x02, 0x04, 0x06])
        mutated[flags] = new
        return bytes(mutated), f"{name} at {element.offset}: flags -> {new:#04x} (lacing)"
    old = get(data, at, min(size, 8))
    new = interesting(rng, min(size, 8), old, 0x7FFF, 65535)
    put(mutated, at, min(size, 8), new)
    return bytes(mutated), f"{name} at {element.offset}: {old} -> {new}"
