"""Small JPEG byte strings for the tests: the markers a size reader walks, no image data."""


def segment(marker: int, payload: bytes) -> bytes:
    return bytes([0xFF, marker]) + (len(payload) + 2).to_bytes(2, "big") + payload


def jpeg(width: int, height: int, frame: int = 0xC0, end: bool = True) -> bytes:
    app0 = segment(0xE0, b"JFIF\0" + bytes(9))
    tables = segment(0xC4, bytes(20))  # a Huffman table: C4 is not a frame
    sof = segment(frame, bytes([8]) + height.to_bytes(2, "big") + width.to_bytes(2, "big") + bytes([3]) + bytes(9))
    return b"\xff\xd8" + app0 + tables + b"\xff" + sof + bytes(16) + (b"\xff\xd9" if end else b"")
