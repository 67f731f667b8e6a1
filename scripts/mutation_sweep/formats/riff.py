"""The chunks of a RIFF file: WebP, AVI."""

from __future__ import annotations

import struct
from dataclasses import dataclass


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
