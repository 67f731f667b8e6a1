"""Mutations of GIF blocks."""

from __future__ import annotations

import random

from .. import formats
from .core import NEAR_PIXEL_LIMIT, get, interesting, mutation, put


@mutation("gif-screen", ["gif"], weight=3)
def _gif_screen(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    if len(data) < 13:
        return None
    name, at, width = rng.choice(
        [("width", 6, 2), ("height", 8, 2), ("width", 6, 2), ("height", 8, 2), ("flags", 10, 1), ("background", 11, 1)]
    )
    if rng.random() < 0.2:  # a screen as large as pixelLimit allows
        height = NEAR_PIXEL_LIMIT // 65535
        mutated = bytearray(data)
        put(mutated, 6, 2, 65535, "little")
        put(mutated, 8, 2, height, "little")
        return bytes(mutated), f"logical screen width and height -> 65535 x {height}"
    old = get(data, at, width, "little")
    other = get(data, 14 - at, 2, "little") if at in (6, 8) else 1
    new = interesting(rng, width, old, 65535, 0x80, 0x87, min(65535, NEAR_PIXEL_LIMIT // max(other, 1)))
    mutated = bytearray(data)
    put(mutated, at, width, new, "little")
    return bytes(mutated), f"logical screen {name} {old} -> {new}"


@mutation("gif-image", ["gif"], weight=3)
def _gif_image(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    layout = formats.gif_layout(data)
    if not layout.images:
        return None
    image = rng.choice(layout.images)
    mutated = bytearray(data)
    if rng.random() < 0.2:  # a frame as large as pixelLimit allows, whatever the screen says
        height = NEAR_PIXEL_LIMIT // 65535
        put(mutated, image + 5, 2, 65535, "little")
        put(mutated, image + 7, 2, height, "little")
        return bytes(mutated), f"image at {image}: width and height -> 65535 x {height}"
    name, offset, width = rng.choice(
        [
            ("left", 1, 2),
            ("top", 3, 2),
            ("width", 5, 2),
            ("height", 7, 2),
            ("width", 5, 2),
            ("height", 7, 2),
            ("flags", 9, 1),
        ]
    )
    screen = get(data, 6, 2, "little")
    old = get(data, image + offset, width, "little")
    new = interesting(rng, width, old, 65535, screen + 1, screen)
    put(mutated, image + offset, width, new, "little")
    return bytes(mutated), f"image at {image}: {name} {old} -> {new}"


@mutation("gif-lzw", ["gif"], weight=2)
def _gif_lzw(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    layout = formats.gif_layout(data)
    if layout.code_sizes and rng.random() < 0.5:
        at = rng.choice(layout.code_sizes)
        new = rng.choice([0, 1, 2, 9, 11, 12, 13, 255])
        what = "LZW minimum code size"
    elif layout.sub_blocks:
        at = rng.choice(layout.sub_blocks)
        new = rng.choice([0, 1, 254, 255, data[at] + 1])
        what = "sub-block length"
    else:
        return None
    mutated = bytearray(data)
    old = data[at]
    mutated[at] = new & 0xFF
    return bytes(mutated), f"{what} at {at} {old} -> {new & 0xFF}"
