"""Mutations of any file, whatever its format: truncations, flipped and zeroed bytes, another extension."""

from __future__ import annotations

import random

from .. import formats
from .core import applicable, apply, flipped, head_biased_offset, mutation


@mutation("none", weight=0)
def _none(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    return data, "unchanged"


# What the `extension` mutation renames a file to: every kind of file Thumbs lists.
EXTENSIONS = [
    ".jpg",
    ".png",
    ".webp",
    ".heic",
    ".avif",
    ".tif",
    ".gif",
    ".mp4",
    ".mov",
    ".mkv",
    ".webm",
    ".avi",
    ".dng",
    ".crw",
    ".cr2",
    ".nef",
]


def extension(name: str, number: int, original: str) -> str:
    """The file name extension a mutated file gets: its seed's, unless renamed."""
    return EXTENSIONS[number % len(EXTENSIONS)] if name == "extension" else original


@mutation("extension", weight=1)
def _extension(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    return data, "the same bytes under another extension (the number picks it)"


@mutation("truncate", weight=4)
def _truncate(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    roll = rng.random()
    if roll < 0.45:  # within the headers, where `head -c 400` of an MP4 once killed the process
        length = rng.randrange(min(len(data), 1024))
    elif roll < 0.75:
        length = rng.randrange(len(data))
    else:
        length = max(0, len(data) - 1 - rng.randrange(min(len(data), 512)))
    return data[:length], f"the first {length} of {len(data)} bytes"


@mutation("flip", weight=2)
def _flip_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    return flipped(data, rng) if data else None


@mutation("zero", weight=1)
def _zero(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    if not data:
        return None
    start = head_biased_offset(rng, len(data))
    length = rng.choice((1, 2, 4, 16, 64, 256, 4096))
    fill = rng.choice((0x00, 0xFF))
    mutated = bytearray(data)
    end = min(len(data), start + length)
    mutated[start:end] = bytes([fill]) * (end - start)
    return bytes(mutated), f"bytes {start}..{end - 1} set to {fill:#04x}"


@mutation("combo", weight=2)
def _combo(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    structure = formats.sniff(data)
    candidates = [m for m in applicable(structure) if m.name not in ("combo", "truncate", "extension")]
    steps: list[str] = []
    for _ in range(rng.randrange(2, 5)):
        chosen = rng.choices(candidates, [m.weight for m in candidates])[0]
        data, description = apply(data, chosen.name, rng.getrandbits(32))
        steps.append(f"{chosen.name}: {description}")
    return data, "; ".join(steps)
