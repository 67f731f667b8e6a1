"""The size of a JPEG from its start-of-frame marker, without decoding it."""

from __future__ import annotations

# Start-of-frame markers: C0-CF but DHT (C4), JPG (C8) and DAC (CC).
_NOT_FRAMES = (0xC4, 0xC8, 0xCC)


def jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a JPEG, from its first start-of-frame marker; None when `data` is
    not a JPEG, or has no frame with a size."""
    if data[:2] != b"\xff\xd8":
        return None
    position = 2
    while position + 9 < len(data):
        if data[position] != 0xFF:
            return None
        marker = data[position + 1]
        if marker == 0xFF:  # a fill byte
            position += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in _NOT_FRAMES:
            height = int.from_bytes(data[position + 5 : position + 7], "big")
            width = int.from_bytes(data[position + 7 : position + 9], "big")
            return (width, height) if width and height else None
        position += 2 + int.from_bytes(data[position + 2 : position + 4], "big")
    return None


def complete_jpeg_size(data: bytes) -> tuple[int, int] | None:
    """Like `jpeg_size`, for a JPEG that also ends with its end-of-image marker."""
    return jpeg_size(data) if data[-2:] == b"\xff\xd9" else None
