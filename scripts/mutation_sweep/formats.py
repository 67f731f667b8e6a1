"""The structure of the formats Thumbs reads, as far as a mutation needs it.

Each parser is lenient: it lists what it can find in a file that may already be damaged and
stops at the first thing it cannot follow, never raising. Offsets are into the whole file.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EBML_MAGIC = b"\x1a\x45\xdf\xa3"


def sniff(data: bytes) -> str:
    """The structure a file's bytes have: jpeg, png, gif, riff (WebP, AVI), tiff (also DNG and
    the RAW formats built on TIFF), bmff (MP4, MOV, HEIC, AVIF), ebml (MKV, WebM) or other."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == PNG_SIGNATURE:
        return "png"
    if data[:4] in (b"GIF8",):
        return "gif"
    if data[:4] == b"RIFF":
        return "riff"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if data[4:8] in (b"ftyp", b"moov", b"mdat", b"free", b"wide", b"skip", b"pnot"):
        return "bmff"
    if data[:4] == EBML_MAGIC:
        return "ebml"
    return "other"


def u16be(data: bytes, offset: int) -> int:
    return int.from_bytes(data[offset : offset + 2], "big")


def u32be(data: bytes, offset: int) -> int:
    return int.from_bytes(data[offset : offset + 4], "big")


# ISO base media file format (MP4, MOV, HEIC, AVIF) ---------------------------------------------

# Boxes made only of boxes, and boxes whose children follow a header of their own (bytes after
# the box header: a full box's version and flags, entry counts, a sample entry's fields).
BMFF_CONTAINERS = {
    b"moov",
    b"trak",
    b"mdia",
    b"minf",
    b"stbl",
    b"dinf",
    b"edts",
    b"udta",
    b"mvex",
    b"moof",
    b"traf",
    b"mfra",
    b"iprp",
    b"ipco",
    b"sinf",
    b"schi",
    b"tref",
    b"grpl",
    b"wave",
    b"gmhd",
}
BMFF_PREFIXED = {b"stsd": 8, b"dref": 8, b"iref": 4}
BMFF_VISUAL_ENTRIES = {
    b"avc1",
    b"avc3",
    b"hvc1",
    b"hev1",
    b"av01",
    b"vp08",
    b"vp09",
    b"mp4v",
    b"jpeg",
    b"mjpa",
    b"apcn",
    b"apch",
    b"ap4h",
    b"apcs",
    b"dvh1",
    b"dvhe",
    b"s263",
    b"encv",
}
BMFF_AUDIO_ENTRIES = {b"mp4a", b"ac-3", b"ec-3", b"Opus", b"fLaC", b"lpcm", b"sowt", b"twos", b"alac"}


@dataclass(frozen=True)
class Box:
    offset: int  # where its header starts
    size: int  # as stored (0 means "to the end", 1 means a 64-bit size follows)
    header: int  # 8, or 16 with a 64-bit size
    type: bytes
    end: int  # where it ends, as resolved and clipped to its parent
    depth: int

    @property
    def payload(self) -> int:
        return self.offset + self.header


def bmff_boxes(data: bytes) -> list[Box]:
    boxes: list[Box] = []
    _bmff_walk(data, 0, len(data), 0, boxes)
    return boxes


def _bmff_children_start(data: bytes, box: Box) -> int | None:
    if box.type in BMFF_CONTAINERS:
        return box.payload
    if box.type in BMFF_PREFIXED:
        return box.payload + BMFF_PREFIXED[box.type]
    if box.type == b"meta":
        # ISO's meta is a full box; QuickTime's is a plain container.
        return box.payload + (4 if data[box.payload : box.payload + 4] == b"\x00\x00\x00\x00" else 0)
    if box.type == b"iinf":
        return box.payload + (6 if data[box.payload : box.payload + 1] == b"\x00" else 8)
    if box.type in BMFF_VISUAL_ENTRIES:
        return box.payload + 78
    if box.type in BMFF_AUDIO_ENTRIES:
        return box.payload + 28
    return None


def _bmff_walk(data: bytes, start: int, end: int, depth: int, boxes: list[Box]) -> None:
    offset = start
    while offset + 8 <= end and depth < 12 and len(boxes) < 4000:
        size = u32be(data, offset)
        kind = data[offset + 4 : offset + 8]
        header = 8
        if size == 1:
            if offset + 16 > end:
                return
            resolved = int.from_bytes(data[offset + 8 : offset + 16], "big")
            header = 16
        elif size == 0:
            resolved = end - offset
        else:
            resolved = size
        box = Box(offset, size, header, kind, min(end, offset + max(resolved, header)), depth)
        boxes.append(box)
        if resolved < header:
            return
        children = _bmff_children_start(data, box)
        if children is not None and children < box.end:
            _bmff_walk(data, children, box.end, depth + 1, boxes)
        offset += resolved


# PNG ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    offset: int  # of its length field
    length: int
    type: bytes

    @property
    def data(self) -> int:
        return self.offset + 8


def png_chunks(data: bytes) -> list[Chunk]:
    chunks: list[Chunk] = []
    offset = 8
    while offset + 12 <= len(data) and len(chunks) < 10000:
        length = u32be(data, offset)
        chunks.append(Chunk(offset, length, data[offset + 4 : offset + 8]))
        offset += 12 + length
    return chunks


# JPEG -----------------------------------------------------------------------------------------

JPEG_STANDALONE = {0x01, 0xD8, 0xD9} | set(range(0xD0, 0xD8))
JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


@dataclass(frozen=True)
class Segment:
    offset: int  # of its 0xFF
    marker: int
    length: int  # the stored length (which counts itself), -1 for a marker without one

    @property
    def data(self) -> int:
        return self.offset + 4


def jpeg_segments(data: bytes) -> list[Segment]:
    segments: list[Segment] = []
    offset = 2
    while offset + 2 <= len(data) and len(segments) < 10000:
        if data[offset] != 0xFF:
            return segments
        marker = data[offset + 1]
        if marker == 0xFF:  # fill byte
            offset += 1
            continue
        if marker in JPEG_STANDALONE:
            segments.append(Segment(offset, marker, -1))
            offset += 2
            if marker == 0xD9:
                return segments
            continue
        if offset + 4 > len(data):
            return segments
        length = u16be(data, offset + 2)
        segments.append(Segment(offset, marker, length))
        offset += 2 + max(length, 2)
        if marker == 0xDA:  # entropy-coded data up to the next marker that is not a restart
            while offset + 1 < len(data):
                if data[offset] == 0xFF and data[offset + 1] != 0 and not 0xD0 <= data[offset + 1] <= 0xD7:
                    break
                offset += 1
    return segments


# TIFF (and DNG, and the EXIF block of a JPEG) --------------------------------------------------

TIFF_TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8}
TIFF_POINTER_TAGS = {330, 34665, 34853, 40965}  # SubIFDs, Exif, GPS, Interoperability


@dataclass(frozen=True)
class Entry:
    offset: int  # of its tag field
    tag: int
    type: int
    count: int
    value: int  # where its value is: inline in the entry, or where the offset points


@dataclass(frozen=True)
class Directory:
    offset: int  # of its entry count
    count: int
    entries: tuple[Entry, ...]
    next_field: int  # where the offset of the next IFD is stored


@dataclass(frozen=True)
class Tiff:
    base: int  # where the TIFF header starts (0, or inside a JPEG's APP1)
    big: bool  # big-endian ("MM")
    directories: tuple[Directory, ...]

    def read(self, data: bytes, offset: int, width: int) -> int:
        return int.from_bytes(data[offset : offset + width], "big" if self.big else "little")

    def put(self, data: bytearray, offset: int, width: int, value: int) -> None:
        if offset >= 0 and offset + width <= len(data):
            data[offset : offset + width] = (value & ((1 << (8 * width)) - 1)).to_bytes(
                width, "big" if self.big else "little"
            )


def tiff_structure(data: bytes, base: int = 0) -> Tiff | None:
    order = data[base : base + 2]
    if order not in (b"II", b"MM") or len(data) < base + 8:
        return None
    tiff = Tiff(base, order == b"MM", ())
    pending = [tiff.read(data, base + 4, 4)]
    seen: set[int] = set()
    directories: list[Directory] = []
    while pending and len(directories) < 64:
        relative = pending.pop(0)
        offset = base + relative
        if relative == 0 or offset in seen or offset + 2 > len(data):
            continue
        seen.add(offset)
        count = tiff.read(data, offset, 2)
        entries: list[Entry] = []
        for index in range(min(count, 1000)):
            at = offset + 2 + 12 * index
            if at + 12 > len(data):
                break
            tag, kind = tiff.read(data, at, 2), tiff.read(data, at + 2, 2)
            number = tiff.read(data, at + 4, 4)
            size = TIFF_TYPE_SIZES.get(kind, 1) * number
            value = at + 8 if size <= 4 else base + tiff.read(data, at + 8, 4)
            entries.append(Entry(at, tag, kind, number, value))
            if tag in TIFF_POINTER_TAGS and kind in (4, 13):
                for item in range(min(number, 16)):
                    pointer = value + 4 * item
                    if pointer + 4 <= len(data):
                        pending.append(tiff.read(data, pointer, 4))
        next_field = offset + 2 + 12 * count
        directories.append(Directory(offset, count, tuple(entries), next_field))
        if next_field + 4 <= len(data):
            pending.append(tiff.read(data, next_field, 4))
    return Tiff(base, tiff.big, tuple(directories))


# Matroska and WebM (EBML) ---------------------------------------------------------------------

EBML_MASTERS = {
    0x1A45DFA3,
    0x18538067,
    0x114D9B74,
    0x4DBB,
    0x1549A966,
    0x1654AE6B,
    0xAE,
    0xE0,
    0xE1,
    0x1F43B675,
    0xA0,
    0x1C53BB6B,
    0xBB,
    0xB7,
    0x1254C367,
    0x7373,
    0x63C0,
    0x67C8,
    0x1043A770,
    0x45B9,
    0xB6,
    0x1941A469,
    0x61A7,
    0x6D80,
    0x6240,
    0x5034,
    0x5035,
    0x55B0,
    0x55D0,
    0x7670,
    0x75A1,
    0xA6,
    0x8E,
    0xE8,
}


@dataclass(frozen=True)
class Element:
    offset: int  # of its id
    id: int
    id_length: int
    size_length: int
    size: int  # -1 for "unknown size"
    end: int  # as resolved and clipped to its parent

    @property
    def data(self) -> int:
        return self.offset + self.id_length + self.size_length


def _vint_length(first: int) -> int:
    for length in range(1, 9):
        if first & (0x80 >> (length - 1)):
            return length
    return 0


def ebml_elements(data: bytes) -> list[Element]:
    elements: list[Element] = []
    _ebml_walk(data, 0, len(data), 0, elements)
    return elements


def _ebml_walk(data: bytes, start: int, end: int, depth: int, elements: list[Element]) -> None:
    offset = start
    while offset < end and depth < 12 and len(elements) < 20000:
        id_length = _vint_length(data[offset])
        if id_length == 0 or id_length > 4 or offset + id_length >= end:
            return
        element_id = int.from_bytes(data[offset : offset + id_length], "big")
        size_at = offset + id_length
        size_length = _vint_length(data[size_at])
        if size_length == 0 or size_at + size_length > end:
            return
        raw = int.from_bytes(data[size_at : size_at + size_length], "big")
        size = raw & ((1 << (7 * size_length)) - 1)
        if size == (1 << (7 * size_length)) - 1:
            size = -1
        body = size_at + size_length
        element_end = end if size < 0 else min(end, body + size)
        elements.append(Element(offset, element_id, id_length, size_length, size, element_end))
        if element_id in EBML_MASTERS:
            _ebml_walk(data, body, element_end, depth + 1, elements)
        if size < 0:
            return
        offset = body + size


# GIF ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GifLayout:
    images: tuple[int, ...]  # offsets of image descriptors (their 0x2C)
    code_sizes: tuple[int, ...]  # offsets of the LZW minimum code size bytes
    sub_blocks: tuple[int, ...]  # offsets of sub-block length bytes
    extensions: tuple[int, ...]  # offsets of extension introducers (their 0x21)
    trailer: int  # offset of the 0x3B, -1 when absent


def gif_layout(data: bytes) -> GifLayout:
    images: list[int] = []
    code_sizes: list[int] = []
    sub_blocks: list[int] = []
    extensions: list[int] = []
    trailer = -1
    offset = 13
    if len(data) >= 13 and data[10] & 0x80:
        offset += 3 * (2 << (data[10] & 7))

    def skip_blocks(at: int) -> int:
        while at < len(data) and len(sub_blocks) < 100000:
            sub_blocks.append(at)
            if data[at] == 0:
                return at + 1
            at += 1 + data[at]
        return at

    while offset < len(data):
        introducer = data[offset]
        if introducer == 0x3B:
            trailer = offset
            break
        if introducer == 0x21 and offset + 2 <= len(data):
            extensions.append(offset)
            offset = skip_blocks(offset + 2)
        elif introducer == 0x2C and offset + 10 <= len(data):
            images.append(offset)
            packed = data[offset + 9]
            offset += 10
            if packed & 0x80:
                offset += 3 * (2 << (packed & 7))
            code_sizes.append(offset)
            offset = skip_blocks(offset + 1)
        else:
            break
    return GifLayout(tuple(images), tuple(code_sizes), tuple(sub_blocks), tuple(extensions), trailer)


# RIFF (WebP, AVI) -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RiffChunk:
    offset: int  # of its four-character code
    fourcc: bytes
    size: int

    @property
    def data(self) -> int:
        return self.offset + 8


def riff_chunks(data: bytes) -> list[RiffChunk]:
    chunks: list[RiffChunk] = []
    _riff_walk(data, 0, len(data), 0, chunks)
    return chunks


def _riff_walk(data: bytes, start: int, end: int, depth: int, chunks: list[RiffChunk]) -> None:
    offset = start
    while offset + 8 <= end and depth < 8 and len(chunks) < 20000:
        fourcc = data[offset : offset + 4]
        (size,) = struct.unpack_from("<I", data, offset + 4)
        chunks.append(RiffChunk(offset, fourcc, size))
        if fourcc in (b"RIFF", b"LIST"):
            _riff_walk(data, offset + 12, min(end, offset + 8 + size), depth + 1, chunks)
        offset += 8 + size + (size & 1)
