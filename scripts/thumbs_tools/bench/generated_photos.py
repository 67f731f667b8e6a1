"""Distinct 640x480 JPEGs, 500 a folder, each with an EXIF DateTimeOriginal: the library
bench-startup warms, generated once with Pillow (on every core) and kept between runs.

Each photo is a random crop of a noisy colour field, its colours remapped by a random curve per
channel, with random shapes on top, so that every photo decodes like a photo of its own (~40 KB).
"""

from __future__ import annotations

import datetime
import io
import os
import random
import shutil
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import TYPE_CHECKING

from .. import runner

if TYPE_CHECKING:
    from PIL import Image

PER_FOLDER = 500
WIDTH, HEIGHT = 640, 480

_field: Image.Image | None = None  # per pool process: a noisy colour field twice the photo's size, made once


def photo(rng: random.Random, taken: datetime.datetime) -> bytes:
    """One distinct 640x480 JPEG (bytes): a colour gradient, a few shapes, noise, a capture date.

    Each photo is a random crop of its process's field, its colours remapped by a random curve
    per channel, with random shapes on top: ~2 ms, where making the gradient and the noise for
    every photo took ~5.
    """
    from PIL import Image, ImageChops

    global _field  # noqa: PLW0603 (made once per pool process)
    if _field is None:
        field_rng = random.Random(os.getpid())
        # A 4x3 image of random colours enlarged smoothly is a gradient; noise makes the JPEGs
        # weigh (~40 KB) and decode like photos rather than flat colour.
        _field = Image.frombytes("RGB", (4, 3), field_rng.randbytes(4 * 3 * 3))
        _field = _field.resize((2 * WIDTH, 2 * HEIGHT), Image.Resampling.BICUBIC)
        noise = Image.effect_noise((2 * WIDTH, 2 * HEIGHT), 8).convert("RGB")
        _field = ImageChops.add(_field, noise, offset=-128)
    x, y = rng.randrange(WIDTH), rng.randrange(HEIGHT)
    image = _field.crop((x, y, x + WIDTH, y + HEIGHT))
    curves = []
    for _ in range(3):  # a linear curve per channel, rising or falling
        gain = rng.uniform(0.3, 1.0)
        offset = rng.uniform(0, 255 * (1 - gain))
        falling = rng.random() < 0.5
        curves += [int(offset + gain * (255 - v if falling else v)) for v in range(256)]
    image = image.point(curves)
    draw_shapes(image, rng, rng.randint(2, 6), (20, 240))
    exif = Image.Exif()
    exif.get_ifd(0x8769)[0x9003] = taken.strftime("%Y:%m:%d %H:%M:%S")  # DateTimeOriginal
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85, exif=exif.tobytes())
    return out.getvalue()


def draw_shapes(image: Image.Image, rng: random.Random, count: int, extent: tuple[int, int]) -> None:
    """Draws `count` ellipses and rectangles of random places, colours and sides (within `extent`)
    on `image`."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    for _ in range(count):
        x, y = rng.randrange(image.width), rng.randrange(image.height)
        w, h = rng.randint(*extent), rng.randint(*extent)
        shape = draw.ellipse if rng.random() < 0.5 else draw.rectangle
        shape((x, y, x + w, y + h), fill=tuple(rng.randbytes(3)))


def generate_folder(task: tuple[Path, int, int]) -> None:
    """Writes the photos `first` to `first + count - 1` into `folder` (one pool task)."""
    folder, first, count = task
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(first)
    start = datetime.datetime(2019, 1, 1, 9, 0, 0)
    for index in range(first, first + count):
        # 37 minutes apart: 100k photos span about seven years of days.
        taken = start + datetime.timedelta(minutes=37 * index)
        (folder / f"img_{index:06d}.jpg").write_bytes(photo(rng, taken))


def library_files(folder: Path) -> list[Path]:
    """Every photo of a generated library."""
    return sorted(folder.rglob("*.jpg"))


def ensure_library(root: Path, count: int) -> tuple[list[Path], float]:
    """The library of `count` photos under root/count, generated unless it is there already.

    Returns (its files, seconds spent generating: 0 when it was kept).
    """
    folder = root / str(count)
    if folder.is_dir():
        files = library_files(folder)
        if len(files) == count:
            return files, 0.0
        print(f"bench-startup: {folder} holds {len(files)} photos, not {count}: generating it again", file=sys.stderr)
        shutil.rmtree(folder)
    tasks = [
        (folder / f"{first // PER_FOLDER:04d}", first, min(PER_FOLDER, count - first))
        for first in range(0, count, PER_FOLDER)
    ]
    start = time.perf_counter()
    with Pool(runner.cores()) as pool:
        for _ in pool.imap_unordered(generate_folder, tasks):
            pass
    seconds = time.perf_counter() - start
    print(
        f"bench-startup: generated {count} photos in {folder} in {seconds:.1f} s ({count / seconds:.0f} photos/s)",
        file=sys.stderr,
    )
    return library_files(folder), seconds
