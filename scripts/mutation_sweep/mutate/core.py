"""The registry of mutations, `apply` and `choose`, and the helpers the formats' mutations share.

`apply(data, name, number)` returns the mutated bytes and a description of the edit. The same
bytes, name and number always give the same result (random.Random seeded with an int is
stable across Python versions), so a mutated file is reproduced from its recipe: the seed file,
the mutation's name and the number. For `truncate-at` the number is the length kept.

Mutations that need a structure the file does not have (no box, no chunk, no IFD...) fall back
to flipping bytes, and say so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

Order = Literal["big", "little"]
Edit = Callable[[bytes, random.Random], "tuple[bytes, str] | None"]


@dataclass(frozen=True)
class Mutation:
    name: str
    structures: frozenset[str] | None  # what formats.sniff must say, None for any file
    weight: int
    edit: Edit


MUTATIONS: dict[str, Mutation] = {}


def mutation(name: str, structures: Sequence[str] | None = None, weight: int = 1) -> Callable[[Edit], Edit]:
    def register(edit: Edit) -> Edit:
        MUTATIONS[name] = Mutation(name, None if structures is None else frozenset(structures), weight, edit)
        return edit

    return register


def applicable(structure: str) -> list[Mutation]:
    """The mutations for a file of this structure, `none` and `truncate-at` left out (they are
    for recipes written by hand)."""
    return [
        m
        for m in MUTATIONS.values()
        if m.name not in ("none", "truncate-at") and (m.structures is None or structure in m.structures)
    ]


def apply(data: bytes, name: str, number: int) -> tuple[bytes, str]:
    if name == "truncate-at":
        return data[:number], f"the first {min(number, len(data))} of {len(data)} bytes"
    if name not in MUTATIONS:
        raise KeyError(f"no mutation named {name!r} (known: {', '.join(sorted(MUTATIONS))})")
    rng = random.Random(number)
    result = MUTATIONS[name].edit(data, rng)
    if result is None:
        mutated, description = flipped(data, rng)
        return mutated, f"({name} found nothing to edit) {description}"
    return result


def choose(structure: str, rng: random.Random) -> str:
    """A mutation for a file of this structure, structure edits weighted above blind ones."""
    candidates = applicable(structure)
    return rng.choices([m.name for m in candidates], [m.weight for m in candidates])[0]


# Just under Thumbs' default pixelLimit: a size edited to this over the other dimension passes the
# header check and asks the decoder for the most memory a file may ask for.
NEAR_PIXEL_LIMIT = 99_000_000

# Helpers --------------------------------------------------------------------------------------


def interesting(rng: random.Random, width: int, original: int, *extra: int) -> int:
    """A value for an integer field of `width` bytes that a decoder may trip over."""
    top = (1 << (8 * width)) - 1
    values = [0, 1, top, top >> 1, (top >> 1) + 1, original + 1, original - 1, original * 2 + 1, *extra]
    value = rng.choice(values) & top
    return value if value != original else (original ^ top)


def put(data: bytearray, offset: int, width: int, value: int, order: Order = "big") -> None:
    if offset >= 0 and offset + width <= len(data):
        data[offset : offset + width] = (value & ((1 << (8 * width)) - 1)).to_bytes(width, order)


def get(data: bytes, offset: int, width: int, order: Order = "big") -> int:
    return int.from_bytes(data[offset : offset + width], order)


def head_biased_offset(rng: random.Random, size: int) -> int:
    """An offset in 0..size-1, half of the time within the first 4 KiB (where headers are)."""
    if size <= 1:
        return 0
    return rng.randrange(min(size, 4096)) if rng.random() < 0.5 else rng.randrange(size)


def flipped(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    mutated = bytearray(data)
    offsets = sorted({head_biased_offset(rng, len(data)) for _ in range(rng.choice((1, 1, 2, 4, 8, 16)))})
    for offset in offsets:
        if offset < len(mutated):
            mutated[offset] ^= rng.randrange(1, 256)
    shown = ", ".join(str(o) for o in offsets[:8]) + (" ..." if len(offsets) > 8 else "")
    return bytes(mutated), f"{len(offsets)} byte(s) flipped at {shown}"


def fourcc(value: bytes) -> str:
    return value.decode("latin-1").encode("unicode_escape").decode("ascii")
