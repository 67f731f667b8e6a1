"""The IFDs of a TIFF (and of a DNG, and of a JPEG's EXIF block)."""

from __future__ import annotations

from dataclasses import dataclass

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
