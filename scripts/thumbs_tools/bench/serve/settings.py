"""What bench-serve measures with: the renditions, the connections, the targets."""

from __future__ import annotations

import sys
from typing import Any

from ...paths import SHARED

PHOTOS = SHARED / "photos"
HOST = "127.0.0.1"

Rendition = dict[str, Any]

# The storm's misses and the warm's work: four renditions of every photo.
RENDITIONS: list[Rendition] = [
    {"name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80},
    {"name": "small", "size": "128x128", "mode": "fill", "format": "jpeg", "quality": 80},
    {"name": "medium", "size": "512x512", "mode": "fit", "format": "jpeg", "quality": 82},
    {"name": "preview", "size": "1024x1024", "mode": "fit", "format": "jpeg", "quality": 85},
]
# Served, never warmed: the mixed run's misses (two per asset, so that they last the run). Fill
# renditions, because the server may answer a fit one with a larger cached fit rendition
# instead of rendering it.
EXTRAS: list[Rendition] = [
    {"name": "extra", "size": "320x320", "mode": "fill", "format": "jpeg", "quality": 80},
    {"name": "extra2", "size": "192x192", "mode": "fill", "format": "jpeg", "quality": 80},
]
MISS_CONNECTIONS = 2  # of the mixed run's connections, those that ask for misses only
MIN_STORM = 1000  # distinct cold (asset, rendition) requests the storm needs at least

# The targets the report checks.
TARGET_RATE = 0.7  # thumbs requests/s ÷ nginx's, cached hits
TARGET_P99_MS = 5.0  # thumbs p99 latency, cached hits
TARGET_RSS = 1.5  # storm peak RSS ÷ warm peak RSS


def log(text: str) -> None:
    """A line of progress on stderr."""
    print(f"bench-serve: {text}", file=sys.stderr, flush=True)


def box(rendition: Rendition) -> tuple[int, int]:
    """The (width, height) of a rendition's box."""
    width, height = rendition["size"].split("x")
    return int(width), int(height)
