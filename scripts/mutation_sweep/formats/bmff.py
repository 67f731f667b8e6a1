"""The boxes of the ISO base media file format: MP4, MOV, HEIC, AVIF."""

from __future__ import annotations

from dataclasses import dataclass

from .numbers import u32be

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
