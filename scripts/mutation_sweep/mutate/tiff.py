"""Mutations of TIFF and DNG IFDs."""

from __future__ import annotations

import random

from .. import formats
from .core import mutation
from .tiff_fields import tiff_edit


@mutation("tiff-ifd", ["tiff"], weight=8)
def _tiff_ifd(data: bytes, rng: random.Random) -> tuple[bytes, str] | None:
    tiff = formats.tiff_structure(data)
    if tiff is None or not tiff.directories:
        return None
    return tiff_edit(data, tiff, rng)
