"""A HEIF file given a stored thumbnail item, read back box by box; an MP4 given a box in its
sample entry."""

import struct

import pytest

from thumbs_tools import mp4_boxes
from thumbs_tools.heif_items import (
    HeifLayoutError,
    associations,
    box,
    child,
    children,
    full_box,
    item_extents,
    with_property,
    with_thumbnail,
)


def single_picture_file(coded: bytes, width: int) -> bytes:
    """A file of one AV1 item as avifenc lays it out: ftyp, meta (hdlr, pitm, iloc, iinf, iprp), mdat."""
    extent = struct.pack(">I", width) * 2
    properties = [box(b"ispe", b"\0\0\0\0" + extent), box(b"av1C", b"\x81\x00\x0c\x00"), box(b"colr", b"nclx")]
    ipma = full_box(b"ipma", 0, 0, struct.pack(">IHB", 1, 1, 3) + bytes([1, 0x82, 3]))
    information = full_box(b"iinf", 0, 0, struct.pack(">H", 1) + full_box(b"infe", 2, 0, b"\0\1\0\0av01\0"))
    file_type = box(b"ftyp", b"avif\0\0\0\0avifmif1")

    def meta(offset: int) -> bytes:
        locations = full_box(b"iloc", 0, 0, struct.pack(">BBHHHHII", 0x44, 0, 1, 1, 0, 1, offset, len(coded)))
        return full_box(
            b"meta",
            0,
            0,
            full_box(b"hdlr", 0, 0, b"\0" * 4 + b"pict" + b"\0" * 13)
            + full_box(b"pitm", 0, 0, b"\0\1")
            + locations
            + information
            + box(b"iprp", box(b"ipco", b"".join(properties)) + ipma),
        )

    return file_type + meta(len(file_type) + len(meta(0)) + 8) + box(b"mdat", coded)


def test_the_thumbnail_is_item_two_with_its_own_properties_and_a_thmb_reference() -> None:
    primary, small = b"P" * 300, b"t" * 40
    combined = with_thumbnail(single_picture_file(primary, 512), single_picture_file(small, 256))
    meta = children(child(children(combined), b"meta"), 4)
    ((offset, length),) = item_extents(child(meta, b"iloc"), 1)
    assert combined[offset : offset + length] == primary
    ((offset, length),) = item_extents(child(meta, b"iloc"), 2)
    assert combined[offset : offset + length] == small
    assert child(children(child(meta, b"iref"), 4), b"thmb") == struct.pack(">HHH", 2, 1, 1)
    properties = children(child(meta, b"iprp"))
    boxes = children(child(properties, b"ipco"))
    assert [kind for kind, _ in boxes] == [b"ispe", b"av1C", b"colr"] * 2
    assert boxes[3][1][-4:] == struct.pack(">I", 256)
    assert associations(child(properties, b"ipma"), 1) == [(0, False), (1, True), (2, False)]
    assert associations(child(properties, b"ipma"), 2) == [(3, False), (4, True), (5, False)]
    information = children(child(meta, b"iinf"), 6)
    assert [payload[4:6] for _, payload in information] == [b"\0\1", b"\0\2"]


def test_a_file_of_two_items_or_a_cut_box_is_refused() -> None:
    single = single_picture_file(b"P" * 30, 64)
    with pytest.raises(HeifLayoutError):
        with_thumbnail(with_thumbnail(single, single), single)
    with pytest.raises(HeifLayoutError):
        with_thumbnail(single[:-10], single)


def test_an_added_property_is_the_pictures_last() -> None:
    level = box(b"clli", struct.pack(">HH", 4000, 400))
    edited = with_property(single_picture_file(b"P" * 30, 64), level)
    meta = children(child(children(edited), b"meta"), 4)
    ((offset, length),) = item_extents(child(meta, b"iloc"), 1)
    assert edited[offset : offset + length] == b"P" * 30
    properties = children(child(meta, b"iprp"))
    assert children(child(properties, b"ipco"))[-1] == (b"clli", struct.pack(">HH", 4000, 400))
    assert associations(child(properties, b"ipma"), 1)[-1] == (3, False)


def test_a_box_joins_an_mp4s_sample_entry_and_its_holders_grow() -> None:
    entry = box(b"hvc1", bytes(78) + box(b"hvcC", b"\x01"))
    stsd = box(b"stsd", bytes(4) + (1).to_bytes(4, "big") + entry)
    moov = box(b"moov", box(b"trak", box(b"mdia", box(b"minf", box(b"stbl", stsd)))))
    movie = box(b"ftyp", b"isom") + box(b"mdat", b"frames") + moov
    added = box(b"clli", (4000).to_bytes(2, "big") + (400).to_bytes(2, "big"))
    grown = mp4_boxes.with_sample_entry_box(movie, added)
    assert mp4_boxes.is_movie(movie) and not mp4_boxes.is_movie(box(b"ftyp", b"heic") + box(b"meta", b""))
    assert len(grown) == len(movie) + len(added)
    assert grown.endswith(box(b"hvcC", b"\x01") + added)
    assert grown[: len(movie) - len(moov)] == movie[: len(movie) - len(moov)], "the media data does not move"
    with pytest.raises(mp4_boxes.Mp4Error, match="media data before"):
        mp4_boxes.with_sample_entry_box(box(b"ftyp", b"isom") + moov + box(b"mdat", b"frames"), added)
