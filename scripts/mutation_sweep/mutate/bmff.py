"""Mutations of the ISO base media file format: MP4, MOV, HEIC, AVIF boxes."""

from __future__ import annotations

import random

from .. import formats
from .core import fourcc, get, interesting, mutation, put

BMFF_KNOWN_TYPES = [
    b"ftyp",
    b"moov",
    b"trak",
    b"mdia",
    b"minf",
    b"stbl",
    b"stsd",
    b"stsz",
    b"stco",
    b"co64",
    b"mdat",
    b"free",
    b"meta",
    b"iloc",
    b"iinf",
    b"ipco",
    b"ispe",
    b"pitm",
    b"hdlr",
    b"tkhd",
    b"mvhd",
    b"mdhd",
    b"avcC",
    b"hvcC",
    b"av1C",
    b"uuid",
    b"\x00\x00\x00\x00",
]

# Box type -> (field, offset in version 0, offset in version 1, width v0, width v1); offsets
# from the payload (after the box header; a full box's version byte is at 0).
BMFF_FIELDS: dict[bytes, list[tuple[str, int, int, int, int]]] = {
    b"mvhd": [("timescale", 12, 20, 4, 4), ("duration", 16, 24, 4, 8), ("rate", 20, 32, 4, 4)],
    b"tkhd": [
        ("duration", 20, 28, 4, 8),
        ("width", 76, 88, 4, 4),
        ("height", 80, 92, 4, 4),
        ("matrix a", 40, 52, 4, 4),
        ("matrix b", 44, 56, 4, 4),
        ("matrix c", 52, 64, 4, 4),
        ("matrix d", 56, 68, 4, 4),
    ],
    b"mdhd": [("timescale", 12, 20, 4, 4), ("duration", 16, 24, 4, 8)],
    b"stsz": [("sample size", 4, 4, 4, 4), ("sample count", 8, 8, 4, 4), ("first size", 12, 12, 4, 4)],
    b"stco": [("entry count", 4, 4, 4, 4), ("first offset", 8, 8, 4, 4)],
    b"co64": [("entry count", 4, 4, 4, 4), ("first offset", 8, 8, 8, 8)],
    b"stss": [("entry count", 4, 4, 4, 4), ("first sync sample", 8, 8, 4, 4)],
    b"stts": [("entry count", 4, 4, 4, 4), ("first count", 8, 8, 4, 4), ("first delta", 12, 12, 4, 4)],
    b"ctts": [("entry count", 4, 4, 4, 4), ("first offset", 12, 12, 4, 4)],
    b"stsc": [("entry count", 4, 4, 4, 4), ("first chunk", 8, 8, 4, 4), ("samples per chunk", 12, 12, 4, 4)],
    b"elst": [("entry count", 4, 4, 4, 4), ("segment duration", 8, 8, 4, 8), ("media time", 12, 16, 4, 8)],
    b"stsd": [("entry count", 4, 4, 4, 4)],
    b"ispe": [("width", 4, 4, 4, 4), ("height", 8, 8, 4, 4)],
    b"pixi": [("channels", 4, 4, 1, 1), ("bits", 5, 5, 1, 1)],
    b"irot": [("angle", 0, 0, 1, 1)],
    b"imir": [("axis", 0, 0, 1, 1)],
    b"clap": [
        ("width numerator", 0, 0, 4, 4),
        ("width denominator", 4, 4, 4, 4),
        ("height numerator", 8, 8, 4, 4),
        ("height denominator", 12, 12, 4, 4),
        ("horizontal offset denominator", 20, 20, 4, 4),
        ("vertical offset denominator", 28, 28, 4, 4),
    ],
    b"ipma": [("entry count", 4, 4, 4, 4)],
    b"iloc": [("sizes", 4, 4, 1, 1), ("base offset size", 5, 5, 1, 1), ("item count", 6, 6, 2, 2)],
    b"pitm": [("item id", 4, 4, 2, 2)],
    b"hdlr": [("handler", 8, 8, 4, 4)],
    b"avcC": [
        ("profile", 1, 1, 1, 1),
        ("length size", 4, 4, 1, 1),
        ("SPS count", 5, 5, 1, 1),
        ("SPS length", 6, 6, 2, 2),
    ],
    b"hvcC": [("length size", 21, 21, 1, 1), ("array count", 22, 22, 1, 1)],
    b"av1C": [("marker and version", 0, 0, 1, 1), ("profile and level", 1, 1, 1, 1)],
    b"colr": [("colour type", 0, 0, 4, 4), ("primaries", 4, 4, 2, 2), ("transfer", 6, 6, 2, 2), ("matrix", 8, 8, 2, 2)],
    b"ftyp": [("major brand", 0, 0, 4, 4)],
}
for _entry in formats.BMFF_VISUAL_ENTRIES:
    BMFF_FIELDS[_entry] = [
        ("width", 24, 24, 2, 2),
        ("height", 26, 26, 2, 2),
        ("frame count", 40, 40, 2, 2),
        ("depth", 74, 74, 2, 2),
    ]


@mutation("bmff-size", ["bmff"], weight=4)
def _bmff_size(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    boxes = formats.bmff_boxes(data)
    if not boxes:
        return None
    box = rng.choice(boxes)
    mutated = bytearray(data)
    if box.header == 16:
        old = get(data, box.offset + 8, 8)
        new = interesting(rng, 8, old, 16, 1 << 62)
        put(mutated, box.offset + 8, 8, new)
    else:
        old = box.size
        new = interesting(rng, 4, old, 0, 1, 7, 8, 16, old + 8, box.end - box.offset + 1)
        put(mutated, box.offset, 4, new)
    return bytes(mutated), f"box {fourcc(box.type)} at {box.offset}: size {old} -> {new}"


@mutation("bmff-type", ["bmff"], weight=2)
def _bmff_type(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    boxes = formats.bmff_boxes(data)
    if not boxes:
        return None
    box = rng.choice(boxes)
    roll = rng.random()
    if roll < 0.6:
        new = rng.choice([t for t in BMFF_KNOWN_TYPES if t != box.type])
    elif roll < 0.8:
        new = box.type.swapcase()
    else:
        new = bytes(rng.randrange(256) for _ in range(4))
    mutated = bytearray(data)
    mutated[box.offset + 4 : box.offset + 8] = new
    return bytes(mutated), f"box {fourcc(box.type)} at {box.offset}: type -> {fourcc(new)}"


@mutation("bmff-field", ["bmff"], weight=5)
def _bmff_field(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    candidates = [
        (box, field) for box in formats.bmff_boxes(data) if box.type in BMFF_FIELDS for field in BMFF_FIELDS[box.type]
    ]
    if not candidates:
        return None
    box, (name, offset0, offset1, width0, width1) = rng.choice(candidates)
    version = data[box.payload] if box.payload < len(data) else 0
    offset, width = (offset1, width1) if version == 1 else (offset0, width0)
    at = box.payload + offset
    if at + width > box.end:
        return None
    old = get(data, at, width)
    new = interesting(rng, width, old, 0x10000, 0xFFFF0000)
    mutated = bytearray(data)
    put(mutated, at, width, new)
    return bytes(mutated), f"box {fourcc(box.type)} at {box.offset}: {name} {old} -> {new}"


@mutation("bmff-word", ["bmff"], weight=2)
def _bmff_word(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    """An integer somewhere in the first 64 bytes of a leaf box (other than media data)."""
    leaves = [b for b in formats.bmff_boxes(data) if b.type not in (b"mdat", b"free") and b.end - b.payload >= 4]
    if not leaves:
        return None
    box = rng.choice(leaves)
    width = rng.choice((1, 2, 4))
    at = box.payload + rng.randrange(max(1, min(64, box.end - box.payload - width + 1)))
    old = get(data, at, width)
    new = interesting(rng, width, old)
    mutated = bytearray(data)
    put(mutated, at, width, new)
    return bytes(mutated), f"box {fourcc(box.type)} at {box.offset}: {width}-byte value at {at} {old} -> {new}"


@mutation("bmff-matrix", ["bmff"], weight=1)
def _bmff_matrix(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    """A track's display matrix (the rotation of a phone's video) made degenerate or huge."""
    tracks = [b for b in formats.bmff_boxes(data) if b.type == b"tkhd"]
    if not tracks:
        return None
    box = rng.choice(tracks)
    base = box.payload + (52 if data[box.payload] == 1 else 40)
    values = rng.choice(
        [
            (0, 0, 0, 0),
            (0x7FFFFFFF,) * 4,
            (0x80000000,) * 4,
            (0, 0x10000, 0x10000, 0),
            (0x10000, 0, 0, 0),
            tuple(rng.getrandbits(32) for _ in range(4)),
        ]
    )
    mutated = bytearray(data)
    for value, slot in zip(values, (0, 4, 12, 16), strict=False):
        put(mutated, base + slot, 4, value)
    return bytes(mutated), f"tkhd at {box.offset}: matrix a, b, c, d -> {', '.join(hex(v) for v in values)}"


@mutation("bmff-drop", ["bmff"], weight=2)
def _bmff_drop(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    """A box removed, its ancestors' sizes made to agree (a well-formed file missing a box)."""
    boxes = formats.bmff_boxes(data)
    if not boxes:
        return None
    box = rng.choice(boxes)
    length = box.end - box.offset
    mutated = bytearray(data)
    for parent in boxes:
        if parent.depth < box.depth and parent.offset < box.offset and box.end <= parent.end and parent.size > 1:
            put(mutated, parent.offset, 4, parent.size - length)
    del mutated[box.offset : box.end]
    return bytes(mutated), f"box {fourcc(box.type)} at {box.offset} ({length} bytes) removed"
