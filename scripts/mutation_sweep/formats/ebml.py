"""The elements of Matroska and WebM (EBML)."""

from __future__ import annotations

from dataclasses import dataclass

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
