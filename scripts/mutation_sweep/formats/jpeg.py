"""The segments of a JPEG."""

from __future__ import annotations

from dataclasses import dataclass

from .numbers import u16be

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
