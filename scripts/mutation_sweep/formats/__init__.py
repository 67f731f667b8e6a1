"""The structure of the formats Thumbs reads, as far as a mutation needs it.

Each parser is lenient: it lists what it can find in a file that may already be damaged and
stops at the first thing it cannot follow, never raising. Offsets are into the whole file. One
module per family of formats; `sniff` tells which a file's bytes have.
"""

from __future__ import annotations

from .bmff import BMFF_VISUAL_ENTRIES, Box, bmff_boxes
from .ebml import Element, ebml_elements
from .gif import GifLayout, gif_layout
from .jpeg import JPEG_SOF, Segment, jpeg_segments
from .png import Chunk, png_chunks
from .riff import RiffChunk, riff_chunks
from .tiff import Directory, Entry, Tiff, tiff_structure

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
EBML_MAGIC = b"\x1a\x45\xdf\xa3"


def sniff(data: bytes) -> str:
    """The structure a file's bytes have: jpeg, png, gif, riff (WebP, AVI), tiff (also DNG and
    the RAW formats built on TIFF), bmff (MP4, MOV, HEIC, AVIF), ebml (MKV, WebM) or other."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == PNG_SIGNATURE:
        return "png"
    if data[:4] in (b"GIF8",):
        return "gif"
    if data[:4] == b"RIFF":
        return "riff"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if data[4:8] in (b"ftyp", b"moov", b"mdat", b"free", b"wide", b"skip", b"pnot"):
        return "bmff"
    if data[:4] == EBML_MAGIC:
        return "ebml"
    return "other"


__all__ = [
    "BMFF_VISUAL_ENTRIES",
    "JPEG_SOF",
    "Box",
    "Chunk",
    "Directory",
    "Element",
    "Entry",
    "GifLayout",
    "RiffChunk",
    "Segment",
    "Tiff",
    "bmff_boxes",
    "ebml_elements",
    "gif_layout",
    "jpeg_segments",
    "png_chunks",
    "riff_chunks",
    "sniff",
    "tiff_structure",
]
