"""Mutations of PNG chunks."""

from __future__ import annotations

import random
import zlib

from .. import formats
from .core import NEAR_PIXEL_LIMIT, fourcc, get, interesting, mutation, put


def _png_fix_crc(data: bytearray, chunk: formats.Chunk) -> None:
    end = chunk.data + chunk.length
    if end + 4 <= len(data):
        put(data, end, 4, zlib.crc32(bytes(data[chunk.offset + 4 : end])))


@mutation("png-length", ["png"], weight=3)
def _png_length(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.png_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    new = interesting(rng, 4, chunk.length, 0x7FFFFFFF, 0xFFFFFFFF, 13, 0x10000000)
    mutated = bytearray(data)
    put(mutated, chunk.offset, 4, new)
    return bytes(mutated), f"chunk {fourcc(chunk.type)} at {chunk.offset}: length {chunk.length} -> {new}"


@mutation("png-type", ["png"], weight=2)
def _png_type(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.png_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    known = [b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"acTL", b"fcTL", b"fdAT", b"iCCP", b"eXIf", b"zTXt"]
    roll = rng.random()
    if roll < 0.6:
        new = rng.choice([t for t in known if t != chunk.type])
    elif roll < 0.8:
        new = bytes([chunk.type[0] ^ 0x20]) + chunk.type[1:]  # critical <-> ancillary
    else:
        new = bytes(rng.randrange(65, 123) for _ in range(4))
    mutated = bytearray(data)
    mutated[chunk.offset + 4 : chunk.offset + 8] = new
    if rng.random() < 0.7:
        _png_fix_crc(mutated, formats.Chunk(chunk.offset, chunk.length, new))
    return bytes(mutated), f"chunk {fourcc(chunk.type)} at {chunk.offset}: type -> {fourcc(new)}"


@mutation("png-ihdr", ["png"], weight=4)
def _png_ihdr(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = [c for c in formats.png_chunks(data) if c.type == b"IHDR" and c.length >= 13]
    if not chunks:
        return None
    chunk = chunks[0]
    name, offset, width = rng.choice(
        [
            ("width", 0, 4),
            ("height", 4, 4),
            ("width", 0, 4),
            ("height", 4, 4),
            ("bit depth", 8, 1),
            ("colour type", 9, 1),
            ("compression", 10, 1),
            ("filter", 11, 1),
            ("interlace", 12, 1),
        ]
    )
    at = chunk.data + offset
    old = get(data, at, width)
    if width == 4:
        other = get(data, chunk.data + 4 - offset, 4) if offset < 8 else 1
        new = interesting(rng, 4, old, 0x7FFFFFFF, 65535, 100000, 1 << 24, NEAR_PIXEL_LIMIT // max(other, 1))
    else:
        new = rng.choice([0, 1, 2, 3, 4, 6, 7, 8, 16, 255])
    mutated = bytearray(data)
    put(mutated, at, width, new)
    fixed = rng.random() < 0.85
    if fixed:
        _png_fix_crc(mutated, chunk)
    return bytes(mutated), f"IHDR {name} {old} -> {new}" + ("" if fixed else ", CRC left stale")


@mutation("png-data", ["png"], weight=2)
def _png_data(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    """Bytes flipped inside a chunk's data, its CRC made right: what a decoder then reads."""
    chunks = [c for c in formats.png_chunks(data) if c.length > 0 and c.data + c.length + 4 <= len(data)]
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    mutated = bytearray(data)
    offsets = sorted({chunk.data + rng.randrange(chunk.length) for _ in range(rng.choice((1, 2, 4)))})
    for offset in offsets:
        mutated[offset] ^= rng.randrange(1, 256)
    _png_fix_crc(mutated, chunk)
    return bytes(mutated), f"chunk {fourcc(chunk.type)} at {chunk.offset}: bytes flipped at {offsets}, CRC fixed"


@mutation("png-drop", ["png"], weight=1)
def _png_drop(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.png_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    end = chunk.data + chunk.length + 4
    if rng.random() < 0.5:
        return data[: chunk.offset] + data[end:], f"chunk {fourcc(chunk.type)} at {chunk.offset} removed"
    return data[:end] + data[chunk.offset : end] + data[end:], f"chunk {fourcc(chunk.type)} at {chunk.offset} doubled"
