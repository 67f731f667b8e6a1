"""The edit of a TIFF structure that the TIFF and DNG mutations and JPEG's EXIF one share (a
module of its own, registering nothing, so that importing it does not change the order of
registration)."""

from __future__ import annotations

import random

from .. import formats
from .core import interesting

TIFF_TAG_NAMES = {
    256: "ImageWidth",
    257: "ImageLength",
    258: "BitsPerSample",
    259: "Compression",
    262: "Photometric",
    273: "StripOffsets",
    274: "Orientation",
    277: "SamplesPerPixel",
    278: "RowsPerStrip",
    279: "StripByteCounts",
    284: "PlanarConfiguration",
    317: "Predictor",
    322: "TileWidth",
    323: "TileLength",
    324: "TileOffsets",
    325: "TileByteCounts",
    330: "SubIFDs",
    338: "ExtraSamples",
    339: "SampleFormat",
    513: "JPEGInterchangeFormat",
    514: "JPEGInterchangeFormatLength",
    530: "YCbCrSubSampling",
    254: "NewSubfileType",
    33421: "CFARepeatPatternDim",
    33422: "CFAPattern",
    34665: "ExifIFD",
    50706: "DNGVersion",
    50711: "CFALayout",
    50714: "BlackLevel",
    50717: "WhiteLevel",
    50719: "DefaultCropOrigin",
    50720: "DefaultCropSize",
    50721: "ColorMatrix1",
    50829: "ActiveArea",
    36867: "DateTimeOriginal",
}


def _tag(tag: int) -> str:
    return TIFF_TAG_NAMES.get(tag, str(tag))


def tiff_edit(data: bytes, tiff: formats.Tiff, rng: random.Random) -> tuple[bytes, str] | None:
    mutated = bytearray(data)
    directories = list(tiff.directories)
    directory = rng.choice(directories)
    entries = list(directory.entries)
    roll = rng.random()
    if roll < 0.15 or not entries:
        new = interesting(rng, 2, directory.count, 0xFFFF, 1000)
        tiff.put(mutated, directory.offset, 2, new)
        return bytes(mutated), f"IFD at {directory.offset}: entry count {directory.count} -> {new}"
    if roll < 0.25:
        old = tiff.read(data, directory.next_field, 4)
        new = rng.choice(
            [
                0,
                0xFFFFFFFF,
                directory.offset - tiff.base,
                len(data) - tiff.base - 2,
                8,
                tiff.directories[0].offset - tiff.base,
            ]
        )
        tiff.put(mutated, directory.next_field, 4, new)
        return bytes(mutated), f"IFD at {directory.offset}: next IFD {old} -> {new}"
    known = [e for e in entries if e.tag in TIFF_TAG_NAMES]
    entry = rng.choice(known if known and rng.random() < 0.7 else entries)
    where = f"IFD at {directory.offset}: {_tag(entry.tag)} (entry at {entry.offset})"
    roll = rng.random()
    if roll < 0.2:
        new = rng.choice([0, 2, 3, 4, 5, 7, 12, 13, 17, 0xFFFF])
        tiff.put(mutated, entry.offset + 2, 2, new)
        return bytes(mutated), f"{where}: type {entry.type} -> {new}"
    if roll < 0.45:
        new = interesting(rng, 4, entry.count, 0x40000000, 1000000)
        tiff.put(mutated, entry.offset + 4, 4, new)
        return bytes(mutated), f"{where}: count {entry.count} -> {new}"
    if roll < 0.6:
        old = tiff.read(data, entry.offset + 8, 4)
        new = rng.choice(
            [
                0,
                0xFFFFFFFF,
                0x7FFFFFFF,
                len(data) - tiff.base,
                len(data) - tiff.base - 2,
                8,
                directory.offset - tiff.base,
            ]
        )
        tiff.put(mutated, entry.offset + 8, 4, new)
        return bytes(mutated), f"{where}: value or offset field {old} -> {new}"
    # The value itself (the first of them): rationals' denominators too.
    width = {1: 1, 3: 2, 4: 4, 5: 4, 6: 1, 8: 2, 9: 4, 10: 4, 13: 4, 16: 8}.get(entry.type, 1)
    at = entry.value + (4 if entry.type in (5, 10) and rng.random() < 0.5 else 0)
    if at + width > len(data):
        return None
    old = tiff.read(data, at, width)
    new = interesting(rng, width, old, 65535, 9, 0x10000)
    tiff.put(mutated, at, width, new)
    return bytes(mutated), f"{where}: value at {at} {old} -> {new}"
