"""The blocks of a GIF."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GifLayout:
    images: tuple[int, ...]  # offsets of image descriptors (their 0x2C)
    code_sizes: tuple[int, ...]  # offsets of the LZW minimum code size bytes
    sub_blocks: tuple[int, ...]  # offsets of sub-block length bytes
    extensions: tuple[int, ...]  # offsets of extension introducers (their 0x21)
    trailer: int  # offset of the 0x3B, -1 when absent


def gif_layout(data: bytes) -> GifLayout:
    images: list[int] = []
    code_sizes: list[int] = []
    sub_blocks: list[int] = []
    extensions: list[int] = []
    trailer = -1
    offset = 13
    if len(data) >= 13 and data[10] & 0x80:
        offset += 3 * (2 << (data[10] & 7))

    def skip_blocks(at: int) -> int:
        while at < len(data) and len(sub_blocks) < 100000:
            sub_blocks.append(at)
            if data[at] == 0:
                return at + 1
            at += 1 + data[at]
        return at

    while offset < len(data):
        introducer = data[offset]
        if introducer == 0x3B:
            trailer = offset
            break
        if introducer == 0x21 and offset + 2 <= len(data):
            extensions.append(offset)
            offset = skip_blocks(offset + 2)
        elif introducer == 0x2C and offset + 10 <= len(data):
            images.append(offset)
            packed = data[offset + 9]
            offset += 10
            if packed & 0x80:
                offset += 3 * (2 << (packed & 7))
            code_sizes.append(offset)
            offset = skip_blocks(offset + 1)
        else:
            break
    return GifLayout(tuple(images), tuple(code_sizes), tuple(sub_blocks), tuple(extensions), trailer)
