"""Format-aware mutations, each a deterministic function of the file and a seed number.

`apply(data, name, number)` returns the mutated bytes and a description of the edit. The same
bytes, name and number always give the same result (random.Random seeded with an int is
stable across Python versions), so a mutated file is reproduced from its recipe: the seed file,
the mutation's name and the number. For `truncate-at` the number is the length kept.

Mutations that need a structure the file does not have (no box, no chunk, no IFD...) fall back
to flipping bytes, and say so.
"""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from . import formats

Order = Literal["big", "little"]
Edit = Callable[[bytes, random.Random], "tuple[bytes, str] | None"]


@dataclass(frozen=True)
class Mutation:
    name: str
    structures: frozenset[str] | None  # what formats.sniff must say, None for any file
    weight: int
    edit: Edit


MUTATIONS: dict[str, Mutation] = {}


def mutation(name: str, structures: Sequence[str] | None = None, weight: int = 1) -> Callable[[Edit], Edit]:
    def register(edit: Edit) -> Edit:
        MUTATIONS[name] = Mutation(name, None if structures is None else frozenset(structures), weight, edit)
        return edit

    return register


def applicable(structure: str) -> list[Mutation]:
    """The mutations for a file of this structure, `none` and `truncate-at` left out (they are
    for recipes written by hand)."""
    return [
        m
        for m in MUTATIONS.values()
        if m.name not in ("none", "truncate-at") and (m.structures is None or structure in m.structures)
    ]


def apply(data: bytes, name: str, number: int) -> tuple[bytes, str]:
    if name == "truncate-at":
        return data[:number], f"the first {min(number, len(data))} of {len(data)} bytes"
    if name not in MUTATIONS:
        raise KeyError(f"no mutation named {name!r} (known: {', '.join(sorted(MUTATIONS))})")
    rng = random.Random(number)
    result = MUTATIONS[name].edit(data, rng)
    if result is None:
        mutated, description = _flip(data, rng)
        return mutated, f"({name} found nothing to edit) {description}"
    return result


def choose(structure: str, rng: random.Random) -> str:
    """A mutation for a file of this structure, structure edits weighted above blind ones."""
    candidates = applicable(structure)
    return rng.choices([m.name for m in candidates], [m.weight for m in candidates])[0]


# Just under Thumbs' default pixelLimit: a size edited to this over the other dimension passes the
# header check and asks the decoder for the most memory a file may ask for.
NEAR_PIXEL_LIMIT = 99_000_000

# Helpers --------------------------------------------------------------------------------------


def interesting(rng: random.Random, width: int, original: int, *extra: int) -> int:
    """A value for an integer field of `width` bytes that a decoder may trip over."""
    top = (1 << (8 * width)) - 1
    values = [0, 1, top, top >> 1, (top >> 1) + 1, original + 1, original - 1, original * 2 + 1, *extra]
    value = rng.choice(values) & top
    return value if value != original else (original ^ top)


def put(data: bytearray, offset: int, width: int, value: int, order: Order = "big") -> None:
    if offset >= 0 and offset + width <= len(data):
        data[offset : offset + width] = (value & ((1 << (8 * width)) - 1)).to_bytes(width, order)


def get(data: bytes, offset: int, width: int, order: Order = "big") -> int:
    return int.from_bytes(data[offset : offset + width], order)


def head_biased_offset(rng: random.Random, size: int) -> int:
    """An offset in 0..size-1, half of the time within the first 4 KiB (where headers are)."""
    if size <= 1:
        return 0
    return rng.randrange(min(size, 4096)) if rng.random() < 0.5 else rng.randrange(size)


def _flip(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    mutated = bytearray(data)
    offsets = sorted({head_biased_offset(rng, len(data)) for _ in range(rng.choice((1, 1, 2, 4, 8, 16)))})
    for offset in offsets:
        if offset < len(mutated):
            mutated[offset] ^= rng.randrange(1, 256)
    shown = ", ".join(str(o) for o in offsets[:8]) + (" ..." if len(offsets) > 8 else "")
    return bytes(mutated), f"{len(offsets)} byte(s) flipped at {shown}"


def _fourcc(value: bytes) -> str:
    return value.decode("latin-1").encode("unicode_escape").decode("ascii")


# Any file -------------------------------------------------------------------------------------


@mutation("none", weight=0)
def _none(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    return data, "unchanged"


# What the `extension` mutation renames a file to: every kind of file Thumbs lists.
EXTENSIONS = [
    ".jpg",
    ".png",
    ".webp",
    ".heic",
    ".avif",
    ".tif",
    ".gif",
    ".mp4",
    ".mov",
    ".mkv",
    ".webm",
    ".avi",
    ".dng",
    ".crw",
    ".cr2",
    ".nef",
]


def extension(name: str, number: int, original: str) -> str:
    """The file name extension a mutated file gets: its seed's, unless renamed."""
    return EXTENSIONS[number % len(EXTENSIONS)] if name == "extension" else original


@mutation("extension", weight=1)
def _extension(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    return data, "the same bytes under another extension (the number picks it)"


@mutation("truncate", weight=4)
def _truncate(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    roll = rng.random()
    if roll < 0.45:  # within the headers, where `head -c 400` of an MP4 once killed the process
        length = rng.randrange(min(len(data), 1024))
    elif roll < 0.75:
        length = rng.randrange(len(data))
    else:
        length = max(0, len(data) - 1 - rng.randrange(min(len(data), 512)))
    return data[:length], f"the first {length} of {len(data)} bytes"


@mutation("flip", weight=2)
def _flip_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    return _flip(data, rng) if data else None


@mutation("zero", weight=1)
def _zero(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    if not data:
        return None
    start = head_biased_offset(rng, len(data))
    length = rng.choice((1, 2, 4, 16, 64, 256, 4096))
    fill = rng.choice((0x00, 0xFF))
    mutated = bytearray(data)
    end = min(len(data), start + length)
    mutated[start:end] = bytes([fill]) * (end - start)
    return bytes(mutated), f"bytes {start}..{end - 1} set to {fill:#04x}"


@mutation("combo", weight=2)
def _combo(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    structure = formats.sniff(data)
    candidates = [m for m in applicable(structure) if m.name not in ("combo", "truncate", "extension")]
    steps: list[str] = []
    for _ in range(rng.randrange(2, 5)):
        chosen = rng.choices(candidates, [m.weight for m in candidates])[0]
        data, description = apply(data, chosen.name, rng.getrandbits(32))
        steps.append(f"{chosen.name}: {description}")
    return data, "; ".join(steps)


# ISO base media file format: MP4, MOV, HEIC, AVIF ---------------------------------------------

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
    return bytes(mutated), f"box {_fourcc(box.type)} at {box.offset}: size {old} -> {new}"


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
    return bytes(mutated), f"box {_fourcc(box.type)} at {box.offset}: type -> {_fourcc(new)}"


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
    return bytes(mutated), f"box {_fourcc(box.type)} at {box.offset}: {name} {old} -> {new}"


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
    return bytes(mutated), f"box {_fourcc(box.type)} at {box.offset}: {width}-byte value at {at} {old} -> {new}"


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
    return bytes(mutated), f"box {_fourcc(box.type)} at {box.offset} ({length} bytes) removed"


# PNG ------------------------------------------------------------------------------------------


def _png_fix_crc(data: bytearray, chunk: formats.Chunk) -> None:
    end = chunk.data + chunk.length
    if end + 4 <= len(data):
        put(data, end, 4, zlib.crc32(bytes(data[chunk.offset + 4 : end])))


@mutation("png-length", ["png"], weight=3)
def _png_length(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.png_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    new = interesting(rng, 4, chunk.length, 0x7FFFFFFF, 0xFFFFFFFF, 13, 0x10000000)
    mutated = bytearray(data)
    put(mutated, chunk.offset, 4, new)
    return bytes(mutated), f"chunk {_fourcc(chunk.type)} at {chunk.offset}: length {chunk.length} -> {new}"


@mutation("png-type", ["png"], weight=2)
def _png_type(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.png_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    known = [b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"acTL", b"fcTL", b"fdAT", b"iCCP", b"eXIf", b"zTXt"]
    roll = rng.random()
    if roll < 0.6:
        new = rng.choice([t for t in known if t != chunk.type])
    elif roll < 0.8:
        new = bytes([chunk.type[0] ^ 0x20]) + chunk.type[1:]  # critical <-> ancillary
    else:
        new = bytes(rng.randrange(65, 123) for _ in range(4))
    mutated = bytearray(data)
    mutated[chunk.offset + 4 : chunk.offset + 8] = new
    if rng.random() < 0.7:
        _png_fix_crc(mutated, formats.Chunk(chunk.offset, chunk.length, new))
    return bytes(mutated), f"chunk {_fourcc(chunk.type)} at {chunk.offset}: type -> {_fourcc(new)}"


@mutation("png-ihdr", ["png"], weight=4)
def _png_ihdr(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = [c for c in formats.png_chunks(data) if c.type == b"IHDR" and c.length >= 13]
    if not chunks:
        return None
    chunk = chunks[0]
    name, offset, width = rng.choice(
        [
            ("width", 0, 4),
            ("height", 4, 4),
            ("width", 0, 4),
            ("height", 4, 4),
            ("bit depth", 8, 1),
            ("colour type", 9, 1),
            ("compression", 10, 1),
            ("filter", 11, 1),
            ("interlace", 12, 1),
        ]
    )
    at = chunk.data + offset
    old = get(data, at, width)
    if width == 4:
        other = get(data, chunk.data + 4 - offset, 4) if offset < 8 else 1
        new = interesting(rng, 4, old, 0x7FFFFFFF, 65535, 100000, 1 << 24, NEAR_PIXEL_LIMIT // max(other, 1))
    else:
        new = rng.choice([0, 1, 2, 3, 4, 6, 7, 8, 16, 255])
    mutated = bytearray(data)
    put(mutated, at, width, new)
    fixed = rng.random() < 0.85
    if fixed:
        _png_fix_crc(mutated, chunk)
    return bytes(mutated), f"IHDR {name} {old} -> {new}" + ("" if fixed else ", CRC left stale")


@mutation("png-data", ["png"], weight=2)
def _png_data(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    """Bytes flipped inside a chunk's data, its CRC made right: what a decoder then reads."""
    chunks = [c for c in formats.png_chunks(data) if c.length > 0 and c.data + c.length + 4 <= len(data)]
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    mutated = bytearray(data)
    offsets = sorted({chunk.data + rng.randrange(chunk.length) for _ in range(rng.choice((1, 2, 4)))})
    for offset in offsets:
        mutated[offset] ^= rng.randrange(1, 256)
    _png_fix_crc(mutated, chunk)
    return bytes(mutated), f"chunk {_fourcc(chunk.type)} at {chunk.offset}: bytes flipped at {offsets}, CRC fixed"


@mutation("png-drop", ["png"], weight=1)
def _png_drop(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.png_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    end = chunk.data + chunk.length + 4
    if rng.random() < 0.5:
        return data[: chunk.offset] + data[end:], f"chunk {_fourcc(chunk.type)} at {chunk.offset} removed"
    return data[:end] + data[chunk.offset : end] + data[end:], f"chunk {_fourcc(chunk.type)} at {chunk.offset} doubled"


# JPEG -----------------------------------------------------------------------------------------


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
            edited = _tiff_edit(data, tiff, rng)
            return None if edited is None else (edited[0], "EXIF " + edited[1])
    return None


# TIFF, DNG ------------------------------------------------------------------------------------

TIFF_TAG_NAMES = {
    256: "ImageWidth",
    257: "ImageLength",
    258: "BitsPerSample",
    259: "Compression",
    262: "Photometric",
    273: "StripOffsets",
    274: "Orientation",
    277: "SamplesPerPixel",
    278: "RowsPerStrip",
    279: "StripByteCounts",
    284: "PlanarConfiguration",
    317: "Predictor",
    322: "TileWidth",
    323: "TileLength",
    324: "TileOffsets",
    325: "TileByteCounts",
    330: "SubIFDs",
    338: "ExtraSamples",
    339: "SampleFormat",
    513: "JPEGInterchangeFormat",
    514: "JPEGInterchangeFormatLength",
    530: "YCbCrSubSampling",
    254: "NewSubfileType",
    33421: "CFARepeatPatternDim",
    33422: "CFAPattern",
    34665: "ExifIFD",
    50706: "DNGVersion",
    50711: "CFALayout",
    50714: "BlackLevel",
    50717: "WhiteLevel",
    50719: "DefaultCropOrigin",
    50720: "DefaultCropSize",
    50721: "ColorMatrix1",
    50829: "ActiveArea",
    36867: "DateTimeOriginal",
}


def _tag(tag: int) -> str:
    return TIFF_TAG_NAMES.get(tag, str(tag))


def _tiff_edit(data: bytes, tiff: formats.Tiff, rng: random.Random) -> tuple[bytes, str] | None:
    mutated = bytearray(data)
    directories = list(tiff.directories)
    directory = rng.choice(directories)
    entries = list(directory.entries)
    roll = rng.random()
    if roll < 0.15 or not entries:
        new = interesting(rng, 2, directory.count, 0xFFFF, 1000)
        tiff.put(mutated, directory.offset, 2, new)
        return bytes(mutated), f"IFD at {directory.offset}: entry count {directory.count} -> {new}"
    if roll < 0.25:
        old = tiff.read(data, directory.next_field, 4)
        new = rng.choice(
            [
                0,
                0xFFFFFFFF,
                directory.offset - tiff.base,
                len(data) - tiff.base - 2,
                8,
                tiff.directories[0].offset - tiff.base,
            ]
        )
        tiff.put(mutated, directory.next_field, 4, new)
        return bytes(mutated), f"IFD at {directory.offset}: next IFD {old} -> {new}"
    known = [e for e in entries if e.tag in TIFF_TAG_NAMES]
    entry = rng.choice(known if known and rng.random() < 0.7 else entries)
    where = f"IFD at {directory.offset}: {_tag(entry.tag)} (entry at {entry.offset})"
    roll = rng.random()
    if roll < 0.2:
        new = rng.choice([0, 2, 3, 4, 5, 7, 12, 13, 17, 0xFFFF])
        tiff.put(mutated, entry.offset + 2, 2, new)
        return bytes(mutated), f"{where}: type {entry.type} -> {new}"
    if roll < 0.45:
        new = interesting(rng, 4, entry.count, 0x40000000, 1000000)
        tiff.put(mutated, entry.offset + 4, 4, new)
        return bytes(mutated), f"{where}: count {entry.count} -> {new}"
    if roll < 0.6:
        old = tiff.read(data, entry.offset + 8, 4)
        new = rng.choice(
            [
                0,
                0xFFFFFFFF,
                0x7FFFFFFF,
                len(data) - tiff.base,
                len(data) - tiff.base - 2,
                8,
                directory.offset - tiff.base,
            ]
        )
        tiff.put(mutated, entry.offset + 8, 4, new)
        return bytes(mutated), f"{where}: value or offset field {old} -> {new}"
    # The value itself (the first of them): rationals' denominators too.
    width = {1: 1, 3: 2, 4: 4, 5: 4, 6: 1, 8: 2, 9: 4, 10: 4, 13: 4, 16: 8}.get(entry.type, 1)
    at = entry.value + (4 if entry.type in (5, 10) and rng.random() < 0.5 else 0)
    if at + width > len(data):
        return None
    old = tiff.read(data, at, width)
    new = interesting(rng, width, old, 65535, 9, 0x10000)
    tiff.put(mutated, at, width, new)
    return bytes(mutated), f"{where}: value at {at} {old} -> {new}"


@mutation("tiff-ifd", ["tiff"], weight=8)
def _tiff_ifd(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    tiff = formats.tiff_structure(data)
    if tiff is None or not tiff.directories:
        return None
    return _tiff_edit(data, tiff, rng)


# Matroska, WebM -------------------------------------------------------------------------------

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


# GIF ------------------------------------------------------------------------------------------


@mutation("gif-screen", ["gif"], weight=3)
def _gif_screen(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    if len(data) < 13:
        return None
    name, at, width = rng.choice(
        [("width", 6, 2), ("height", 8, 2), ("width", 6, 2), ("height", 8, 2), ("flags", 10, 1), ("background", 11, 1)]
    )
    if rng.random() < 0.2:  # a screen as large as pixelLimit allows
        height = NEAR_PIXEL_LIMIT // 65535
        mutated = bytearray(data)
        put(mutated, 6, 2, 65535, "little")
        put(mutated, 8, 2, height, "little")
        return bytes(mutated), f"logical screen width and height -> 65535 x {height}"
    old = get(data, at, width, "little")
    other = get(data, 14 - at, 2, "little") if at in (6, 8) else 1
    new = interesting(rng, width, old, 65535, 0x80, 0x87, min(65535, NEAR_PIXEL_LIMIT // max(other, 1)))
    mutated = bytearray(data)
    put(mutated, at, width, new, "little")
    return bytes(mutated), f"logical screen {name} {old} -> {new}"


@mutation("gif-image", ["gif"], weight=3)
def _gif_image(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    layout = formats.gif_layout(data)
    if not layout.images:
        return None
    image = rng.choice(layout.images)
    mutated = bytearray(data)
    if rng.random() < 0.2:  # a frame as large as pixelLimit allows, whatever the screen says
        height = NEAR_PIXEL_LIMIT // 65535
        put(mutated, image + 5, 2, 65535, "little")
        put(mutated, image + 7, 2, height, "little")
        return bytes(mutated), f"image at {image}: width and height -> 65535 x {height}"
    name, offset, width = rng.choice(
        [
            ("left", 1, 2),
            ("top", 3, 2),
            ("width", 5, 2),
            ("height", 7, 2),
            ("width", 5, 2),
            ("height", 7, 2),
            ("flags", 9, 1),
        ]
    )
    screen = get(data, 6, 2, "little")
    old = get(data, image + offset, width, "little")
    new = interesting(rng, width, old, 65535, screen + 1, screen)
    put(mutated, image + offset, width, new, "little")
    return bytes(mutated), f"image at {image}: {name} {old} -> {new}"


@mutation("gif-lzw", ["gif"], weight=2)
def _gif_lzw(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    layout = formats.gif_layout(data)
    if layout.code_sizes and rng.random() < 0.5:
        at = rng.choice(layout.code_sizes)
        new = rng.choice([0, 1, 2, 9, 11, 12, 13, 255])
        what = "LZW minimum code size"
    elif layout.sub_blocks:
        at = rng.choice(layout.sub_blocks)
        new = rng.choice([0, 1, 254, 255, data[at] + 1])
        what = "sub-block length"
    else:
        return None
    mutated = bytearray(data)
    old = data[at]
    mutated[at] = new & 0xFF
    return bytes(mutated), f"{what} at {at} {old} -> {new & 0xFF}"


# RIFF: WebP, AVI ------------------------------------------------------------------------------

RIFF_KNOWN = [
    b"VP8 ",
    b"VP8L",
    b"VP8X",
    b"ALPH",
    b"ANIM",
    b"ANMF",
    b"ICCP",
    b"EXIF",
    b"LIST",
    b"JUNK",
    b"avih",
    b"strh",
    b"strf",
    b"movi",
    b"idx1",
    b"00dc",
]


@mutation("riff-size", ["riff"], weight=3)
def _riff_size(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.riff_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    new = interesting(rng, 4, chunk.size, 0xFFFFFFFF, 0x7FFFFFFF, len(data))
    mutated = bytearray(data)
    put(mutated, chunk.offset + 4, 4, new, "little")
    return bytes(mutated), f"chunk {_fourcc(chunk.fourcc)} at {chunk.offset}: size {chunk.size} -> {new}"


@mutation("riff-type", ["riff"], weight=2)
def _riff_type(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.riff_chunks(data)[1:]
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    new = rng.choice([t for t in RIFF_KNOWN if t != chunk.fourcc])
    mutated = bytearray(data)
    mutated[chunk.offset : chunk.offset + 4] = new
    return bytes(mutated), f"chunk {_fourcc(chunk.fourcc)} at {chunk.offset}: type -> {_fourcc(new)}"


# Chunk -> (field, offset in its data, width): WebP's canvas and frame sizes, AVI's headers.
RIFF_FIELDS: dict[bytes, list[tuple[str, int, int]]] = {
    b"VP8X": [("flags", 0, 1), ("canvas width - 1", 4, 3), ("canvas height - 1", 7, 3)],
    b"VP8 ": [("width and scale", 6, 2), ("height and scale", 8, 2), ("frame tag", 0, 3)],
    b"VP8L": [("width and height bits", 1, 4)],
    b"ANMF": [("frame width - 1", 6, 3), ("frame height - 1", 9, 3), ("frame x", 0, 3)],
    b"ANIM": [("loop count", 4, 2)],
    b"avih": [
        ("microseconds per frame", 0, 4),
        ("frame count", 16, 4),
        ("streams", 24, 4),
        ("width", 32, 4),
        ("height", 36, 4),
    ],
    b"strh": [("handler", 4, 4), ("scale", 20, 4), ("rate", 24, 4), ("length", 32, 4)],
    b"strf": [("width", 4, 4), ("height", 8, 4), ("bit count", 14, 2), ("compression", 16, 4)],
}


@mutation("riff-field", ["riff"], weight=4)
def _riff_field(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    candidates = [(c, f) for c in formats.riff_chunks(data) if c.fourcc in RIFF_FIELDS for f in RIFF_FIELDS[c.fourcc]]
    if not candidates:
        return None
    canvases = [c for c in formats.riff_chunks(data) if c.fourcc == b"VP8X"]
    if canvases and rng.random() < 0.15:  # a canvas as large as pixelLimit allows
        mutated = bytearray(data)
        height = NEAR_PIXEL_LIMIT // 16384
        put(mutated, canvases[0].data + 4, 3, 16383, "little")
        put(mutated, canvases[0].data + 7, 3, height - 1, "little")
        return bytes(mutated), f"VP8X canvas width and height -> 16384 x {height}"
    chunk, (name, offset, width) = rng.choice(candidates)
    at = chunk.data + offset
    if at + width > len(data):
        return None
    old = get(data, at, width, "little")
    new = interesting(rng, width, old, 0x3FFF, 0x8000)
    mutated = bytearray(data)
    put(mutated, at, width, new, "little")
    return bytes(mutated), f"chunk {_fourcc(chunk.fourcc)} at {chunk.offset}: {name} {old} -> {new}"
