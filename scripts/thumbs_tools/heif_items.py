"""HEIF files edited box by box for tests, from single-picture files as avifenc writes them:

- a stored thumbnail, as cameras store one: the thumbnail's picture becomes item 2 of the
  primary file, with its own properties, and an `iref` box's `thmb` reference from it to the
  primary item (ISO/IEC 23008-12, 6.4.5 and 6.6.2.3); avifenc writes no thumbnail item, and
  Debian's heif-enc writes no `nclx` colour box for one;
- a property added to the picture, such as a `clli` (content light level, ISO/IEC 23000-22),
  which Debian's avifenc cannot write.

Each file must hold one picture, item 1, in one `mdat`; the result's `iloc` is written anew
(version 0, 32-bit offsets and lengths), the primary's `hdlr` and `pitm` are kept as they were.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass


class HeifLayoutError(ValueError):
    """A file that is not the single-picture HEIF this module combines."""


def box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind: bytes, version: int, flags: int, payload: bytes) -> bytes:
    return box(kind, struct.pack(">I", version << 24 | flags) + payload)


def children(data: bytes, start: int = 0, end: int | None = None) -> list[tuple[bytes, bytes]]:
    """The boxes in data[start:end]: (type, payload) each, in order."""
    found = []
    end = len(data) if end is None else end
    while start < end:
        if end - start < 8:
            raise HeifLayoutError("a box's header is cut")
        size, kind = struct.unpack(">I4s", data[start : start + 8])
        header = 8
        if size == 1:
            (size,) = struct.unpack(">Q", data[start + 8 : start + 16])
            header = 16
        elif size == 0:
            size = end - start
        if size < header or start + size > end:
            raise HeifLayoutError(f"box {kind!r} runs past its parent")
        found.append((kind, data[start + header : start + size]))
        start += size
    return found


def child(boxes: list[tuple[bytes, bytes]], kind: bytes) -> bytes:
    for found, payload in boxes:
        if found == kind:
            return payload
    raise HeifLayoutError(f"no {kind.decode()} box")


def read_sized(data: bytes, at: int, size: int) -> tuple[int, int]:
    """An unsigned big-endian number of `size` bytes (0, 4 or 8) at `at`, and the offset past it."""
    if size == 0:
        return 0, at
    return int.from_bytes(data[at : at + size], "big"), at + size


@dataclass
class Picture:
    """A single-picture file's item: its coded bytes, its `infe` box, its properties (whole boxes,
    in their `ipco` order) and their associations (index from 0, essential)."""

    data: bytes
    item_info: bytes
    properties: list[bytes]
    associations: list[tuple[int, bool]]
    other_meta: list[tuple[bytes, bytes]]
    file_type: bytes


def item_extents(iloc: bytes, item: int) -> list[tuple[int, int]]:
    """The (offset, length) extents of `item` in a file's `iloc` payload (with its version)."""
    version = iloc[0]
    sizes = iloc[4], iloc[5]
    offset_size, length_size = sizes[0] >> 4, sizes[0] & 15
    base_offset_size, index_size = sizes[1] >> 4, (sizes[1] & 15 if version in (1, 2) else 0)
    at = 6
    if version < 2:
        (count,), at = struct.unpack(">H", iloc[at : at + 2]), at + 2
    else:
        (count,), at = struct.unpack(">I", iloc[at : at + 4]), at + 4
    for _ in range(count):
        if version < 2:
            (identifier,), at = struct.unpack(">H", iloc[at : at + 2]), at + 2
        else:
            (identifier,), at = struct.unpack(">I", iloc[at : at + 4]), at + 4
        method = 0
        if version in (1, 2):
            (method,), at = struct.unpack(">H", iloc[at : at + 2]), at + 2
            method &= 15
        at += 2  # data_reference_index
        base, at = read_sized(iloc, at, base_offset_size)
        (extent_count,), at = struct.unpack(">H", iloc[at : at + 2]), at + 2
        extents = []
        for _ in range(extent_count):
            _, at = read_sized(iloc, at, index_size)
            offset, at = read_sized(iloc, at, offset_size)
            length, at = read_sized(iloc, at, length_size)
            extents.append((base + offset, length))
        if identifier == item:
            if method != 0:
                raise HeifLayoutError("the item's data is not in the file's mdat")
            return extents
    raise HeifLayoutError(f"no location of item {item}")


def associations(ipma: bytes, item: int) -> list[tuple[int, bool]]:
    """The property associations of `item` in an `ipma` payload: (index from 0, essential)."""
    version, flags = ipma[0], int.from_bytes(ipma[1:4], "big")
    (count,) = struct.unpack(">I", ipma[4:8])
    at = 8
    for _ in range(count):
        if version < 1:
            (identifier,), at = struct.unpack(">H", ipma[at : at + 2]), at + 2
        else:
            (identifier,), at = struct.unpack(">I", ipma[at : at + 4]), at + 4
        found = []
        (association_count,), at = struct.unpack(">B", ipma[at : at + 1]), at + 1
        for _ in range(association_count):
            if flags & 1:
                (value,), at = struct.unpack(">H", ipma[at : at + 2]), at + 2
                essential, index = bool(value >> 15), value & 0x7FFF
            else:
                (value,), at = struct.unpack(">B", ipma[at : at + 1]), at + 1
                essential, index = bool(value >> 7), value & 0x7F
            found.append((index - 1, essential))
        if identifier == item:
            return found
    raise HeifLayoutError(f"no properties of item {item}")


def item_type(info: bytes) -> bytes:
    """The type of the coded picture an `infe` box (version 2 or 3) describes."""
    version = info[8]
    if version not in (2, 3):
        raise HeifLayoutError(f"an item info entry of version {version}")
    kind = info[16:20] if version == 2 else info[18:22]
    if kind not in (b"av01", b"hvc1"):
        raise HeifLayoutError(f"item type {kind!r} is no coded picture")
    return kind


def single_picture(data: bytes) -> Picture:
    """Item 1 of a file with one picture."""
    top = children(data)
    meta = children(child(top, b"meta"), 4)
    extents = item_extents(child(meta, b"iloc"), 1)
    iinf = child(meta, b"iinf")
    entries = children(iinf, 6 if iinf[0] == 0 else 8)
    if len(entries) != 1:
        raise HeifLayoutError("the file holds more than one item")
    properties_box = children(child(meta, b"iprp"))
    properties = [box(kind, payload) for kind, payload in children(child(properties_box, b"ipco"))]
    return Picture(
        data=b"".join(data[offset : offset + length] for offset, length in extents),
        item_info=box(b"infe", entries[0][1]),
        properties=properties,
        associations=associations(child(properties_box, b"ipma"), 1),
        other_meta=[(kind, payload) for kind, payload in meta if kind in (b"hdlr", b"pitm")],
        file_type=box(b"ftyp", child(top, b"ftyp")),
    )


def with_thumbnail(primary_file: bytes, thumbnail_file: bytes) -> bytes:
    """`primary_file` with the picture of `thumbnail_file` as its stored thumbnail (item 2)."""
    return rebuilt(single_picture(primary_file), single_picture(thumbnail_file))


def with_property(file: bytes, added: bytes) -> bytes:
    """`file` with the property box `added` (a `clli`, say) associated with its picture."""
    picture = single_picture(file)
    picture.associations = [*picture.associations, (len(picture.properties), False)]
    picture.properties = [*picture.properties, added]
    return rebuilt(picture, None)


def rebuilt(primary: Picture, thumbnail: Picture | None) -> bytes:
    """A file of `primary` as item 1 and, when given, `thumbnail` as item 2, its thumbnail."""
    pictures = [primary] if thumbnail is None else [primary, thumbnail]
    infos = [primary.item_info]
    if thumbnail is not None:
        infos.append(full_box(b"infe", 2, 0, struct.pack(">HH", 2, 0) + item_type(thumbnail.item_info) + b"\0"))
    item_info = full_box(b"iinf", 0, 0, struct.pack(">H", len(infos)) + b"".join(infos))
    references = b"" if thumbnail is None else full_box(b"iref", 0, 0, box(b"thmb", struct.pack(">HHH", 2, 1, 1)))
    if sum(len(picture.properties) for picture in pictures) > 127:
        raise HeifLayoutError("too many properties for 7-bit indices")
    entries, shift = b"", 0
    for item, picture in enumerate(pictures, start=1):
        values = bytes(int(essential) << 7 | (index + shift + 1) for index, essential in picture.associations)
        entries += struct.pack(">HB", item, len(picture.associations)) + values
        shift += len(picture.properties)
    ipma = full_box(b"ipma", 0, 0, struct.pack(">I", len(pictures)) + entries)
    ipco = box(b"ipco", b"".join(box for picture in pictures for box in picture.properties))
    properties = box(b"iprp", ipco + ipma)

    def meta(locations: bytes) -> bytes:
        kept = [box(kind, payload) for kind, payload in primary.other_meta]
        return full_box(b"meta", 0, 0, b"".join([*kept, locations, item_info, references, properties]))

    def locations(first: int) -> bytes:
        payload = struct.pack(">BBH", 0x44, 0x00, len(pictures))
        for item, picture in enumerate(pictures, start=1):
            payload += struct.pack(">HHHII", item, 0, 1, first, len(picture.data))
            first += len(picture.data)
        return full_box(b"iloc", 0, 0, payload)

    # The iloc's size does not depend on the offsets it holds: lay out once, then fill them in.
    first = len(primary.file_type) + len(meta(locations(0))) + 8
    media = box(b"mdat", b"".join(picture.data for picture in pictures))
    return primary.file_type + meta(locations(first)) + media
