"""The chunks of a PNG."""

from __future__ import annotations

from dataclasses import dataclass

from .numbers import u32be


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
