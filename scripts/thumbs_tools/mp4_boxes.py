"""A box added to an MP4 or QuickTime file's first video sample entry (`hvc1`, `hev1`, `avc1`,
`av01`...), where a container states what its stream's headers may not: a `clli` or `mdcv` of
an HDR video whose HEVC stream carries no SEI saying so. The boxes that hold the entry (moov,
trak, mdia, minf, stbl, stsd) grow by the added box; the media data must come before `moov`
(ffmpeg's default, without +faststart), so that no chunk offset moves."""

from __future__ import annotations

import struct

CONTAINERS = (b"moov", b"trak", b"mdia", b"minf", b"stbl")
# A visual sample entry's fields before its boxes: the box header, 6 reserved bytes, the data
# reference index, 16 bytes of pre-defined and reserved, width, height, resolutions, reserved,
# the frame count, the compressor's name (32), the depth and a pre-defined -1.
VISUAL_ENTRY_FIELDS = 8 + 78


class Mp4Error(ValueError):
    """The file is not one a box can be added to this way."""


def _boxes(data: bytes, start: int, end: int) -> list[tuple[int, int, bytes]]:
    found = []
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start : start + 8])
        if size < 8 or start + size > end:
            raise Mp4Error(f"a box of {size} bytes at {start} does not fit")
        found.append((start, size, kind))
        start += size
    return found


def is_movie(data: bytes) -> bool:
    """Whether `data` is an MP4 or QuickTime file: a moov box at its top level (a HEIF file has
    a meta box there instead)."""
    try:
        return any(kind == b"moov" for _, _, kind in _boxes(data, 0, len(data)))
    except Mp4Error:
        return False


def with_sample_entry_box(data: bytes, added: bytes) -> bytes:
    """`data` with `added` (a whole box) at the end of its first track's first sample entry."""
    top = _boxes(data, 0, len(data))
    kinds = [kind for _, _, kind in top]
    if b"moov" not in kinds or b"mdat" not in kinds or kinds.index(b"mdat") > kinds.index(b"moov"):
        raise Mp4Error("the file needs its media data before its moov box")
    path: list[tuple[int, int]] = []
    start, end = 0, len(data)
    for kind in (*CONTAINERS, b"stsd"):
        match = next(((at, size) for at, size, found in _boxes(data, start, end) if found == kind), None)
        if match is None:
            raise Mp4Error(f"no {kind.decode()} box where a video track's is")
        path.append(match)
        # stsd is a full box with an entry count before its entries.
        start, end = match[0] + (16 if kind == b"stsd" else 8), match[0] + match[1]
    entry_at, entry_size, _ = _boxes(data, start, end)[0]
    path.append((entry_at, entry_size))
    insert = entry_at + entry_size
    grown = bytearray(data[:insert] + added + data[insert:])
    for at, size in path:
        grown[at : at + 4] = struct.pack(">I", size + len(added))
    return bytes(grown)
