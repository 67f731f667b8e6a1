"""Mutations of RIFF chunks: WebP, AVI."""

from __future__ import annotations

import random

from .. import formats
from .core import NEAR_PIXEL_LIMIT, fourcc, get, interesting, mutation, put

RIFF_KNOWN = [
    b"VP8 ",
    b"VP8L",
    b"VP8X",
    b"ALPH",
    b"ANIM",
    b"ANMF",
    b"ICCP",
    b"EXIF",
    b"LIST",
    b"JUNK",
    b"avih",
    b"strh",
    b"strf",
    b"movi",
    b"idx1",
    b"00dc",
]


@mutation("riff-size", ["riff"], weight=3)
def _riff_size(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.riff_chunks(data)
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    new = interesting(rng, 4, chunk.size, 0xFFFFFFFF, 0x7FFFFFFF, len(data))
    mutated = bytearray(data)
    put(mutated, chunk.offset + 4, 4, new, "little")
    return bytes(mutated), f"chunk {fourcc(chunk.fourcc)} at {chunk.offset}: size {chunk.size} -> {new}"


@mutation("riff-type", ["riff"], weight=2)
def _riff_type(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    chunks = formats.riff_chunks(data)[1:]
    if not chunks:
        return None
    chunk = rng.choice(chunks)
    new = rng.choice([t for t in RIFF_KNOWN if t != chunk.fourcc])
    mutated = bytearray(data)
    mutated[chunk.offset : chunk.offset + 4] = new
    return bytes(mutated), f"chunk {fourcc(chunk.fourcc)} at {chunk.offset}: type -> {fourcc(new)}"


# Chunk -> (field, offset in its data, width): WebP's canvas and frame sizes, AVI's headers.
RIFF_FIELDS: dict[bytes, list[tuple[str, int, int]]] = {
    b"VP8X": [("flags", 0, 1), ("canvas width - 1", 4, 3), ("canvas height - 1", 7, 3)],
    b"VP8 ": [("width and scale", 6, 2), ("height and scale", 8, 2), ("frame tag", 0, 3)],
    b"VP8L": [("width and height bits", 1, 4)],
    b"ANMF": [("frame width - 1", 6, 3), ("frame height - 1", 9, 3), ("frame x", 0, 3)],
    b"ANIM": [("loop count", 4, 2)],
    b"avih": [
        ("microseconds per frame", 0, 4),
        ("frame count", 16, 4),
        ("streams", 24, 4),
        ("width", 32, 4),
        ("height", 36, 4),
    ],
    b"strh": [("handler", 4, 4), ("scale", 20, 4), ("rate", 24, 4), ("length", 32, 4)],
    b"strf": [("width", 4, 4), ("height", 8, 4), ("bit count", 14, 2), ("compression", 16, 4)],
}


@mutation("riff-field", ["riff"], weight=4)
def _riff_field(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    candidates = [(c, f) for c in formats.riff_chunks(data) if c.fourcc in RIFF_FIELDS for f in RIFF_FIELDS[c.fourcc]]
    if not candidates:
        return None
    canvases = [c for c in formats.riff_chunks(data) if c.fourcc == b"VP8X"]
    if canvases and rng.random() < 0.15:  # a canvas as large as pixelLimit allows
        mutated = bytearray(data)
        height = NEAR_PIXEL_LIMIT // 16384
        put(mutated, canvases[0].data + 4, 3, 16383, "little")
        put(mutated, canvases[0].data + 7, 3, height - 1, "little")
        return bytes(mutated), f"VP8X canvas width and height -> 16384 x {height}"
    chunk, (name, offset, width) = rng.choice(candidates)
    at = chunk.data + offset
    if at + width > len(data):
        return None
    old = get(data, at, width, "little")
    new = interesting(rng, width, old, 0x3FFF, 0x8000)
    mutated = bytearray(data)
    put(mutated, at, width, new, "little")
    return bytes(mutated), f"chunk {fourcc(chunk.fourcc)} at {chunk.offset}: {name} {old} -> {new}"
