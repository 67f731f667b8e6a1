"""The generated libraries bench-scaling measures, up to a million photos.

A library of N photos is 100 folders named by month, `2017-01` to `2025-04`, each holding 1 % of
them (N ÷ 100, the first N mod 100 folders one more), the photos of a folder spread evenly over
its month. Every photo is a small JPEG (160x120, 2.9 to 4.0 KB: one block of 4 KiB on disk) so
that a million fit on a disk (~4 GB): one of POOL distinct pictures Pillow encodes once, with an
EXIF block holding its capture date (DateTimeOriginal) and a comment holding its number inserted
after the picture's JFIF header, so that every file's bytes differ; its modification time is its
capture date too. Writing a file is then joining bytes: no encoding per photo.

The first folder's first BURST_FRAMES photos are one burst, named as Motorola's cameras name
frames (`…_BURST001.jpg`), so that a listing of a burst's frames can be measured.

A library is complete when the marker beside its folder (N.complete) names this generator's
version and N; otherwise it is generated anew.
"""

from __future__ import annotations

import calendar
import datetime
import io
import json
import os
import random
import shutil
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

from ... import runner
from ..generated_photos import draw_shapes

WIDTH, HEIGHT = 160, 120
POOL = 256  # distinct pictures: file i is picture i mod POOL
NOISE = 5  # levels of uniform noise around each pixel of a picture
FOLDERS = 100
FIRST_MONTH = (2017, 1)
BURST_FRAMES = 10
MOVED = "2024-06"  # the folder the move measurement renames
VERSION = 1  # of the layout and the bytes: a marker naming another is a library to make again


@dataclass(frozen=True)
class Folder:
    """One folder of a library: its name, the number of its first photo and how many it holds."""

    name: str
    first: int
    count: int

    def month(self) -> tuple[int, int]:
        """(year, month) of its photos."""
        year, month = self.name.split("-")
        return int(year), int(month)


def layout(photos: int) -> list[Folder]:
    """The folders of a library of `photos` photos, in order; ValueError under FOLDERS photos."""
    if photos < FOLDERS:
        raise ValueError(f"a library holds at least {FOLDERS} photos (one a folder), not {photos}")
    per, extra = divmod(photos, FOLDERS)
    folders, first = [], 0
    for i in range(FOLDERS):
        year, month = divmod(FIRST_MONTH[0] * 12 + FIRST_MONTH[1] - 1 + i, 12)
        count = per + (1 if i < extra else 0)
        folders.append(Folder(f"{year:04d}-{month + 1:02d}", first, count))
        first += count
    return folders


def moved_folder(photos: int) -> Folder:
    """The folder the move measurement renames."""
    return next(f for f in layout(photos) if f.name == MOVED)


def taken(folder: Folder, index: int) -> datetime.datetime:
    """The capture date of photo `index` (of the library) in `folder`: its month divided evenly,
    but for a burst's frames, a second apart from 09:00 on the 1st (as their names say)."""
    year, month = folder.month()
    start = datetime.datetime(year, month, 1)
    if is_burst_frame(folder, index):
        return start + datetime.timedelta(hours=9, seconds=index - folder.first)
    seconds = calendar.monthrange(year, month)[1] * 86400
    return start + datetime.timedelta(seconds=seconds * (index - folder.first) // folder.count)


def file_name(folder: Folder, index: int) -> str:
    """The name of photo `index` in `folder`: a burst frame's for the first folder's first few."""
    if is_burst_frame(folder, index):
        return f"IMG_{folder.name.replace('-', '')}01_090000000_BURST{index - folder.first + 1:03d}.jpg"
    return f"img_{index:07d}.jpg"


def is_burst_frame(folder: Folder, index: int) -> bool:
    """Whether photo `index` is a frame of the library's burst: the first folder's first few."""
    return folder.first == 0 and index < BURST_FRAMES


def segment(marker: int, payload: bytes) -> bytes:
    """A JPEG marker segment: FF, marker, length (of itself and the payload), payload."""
    return bytes((0xFF, marker)) + struct.pack(">H", len(payload) + 2) + payload


def exif_segment(date: datetime.datetime) -> bytes:
    """An APP1 segment of EXIF holding only DateTimeOriginal, as a camera writes it.

    Big-endian TIFF: IFD0 with one entry, the pointer to the EXIF IFD (at 26), which holds one
    entry, DateTimeOriginal (ASCII, 20 bytes with its NUL, at 44).
    """
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    tiff += struct.pack(">HHHII", 1, 0x8769, 4, 1, 26) + struct.pack(">I", 0)
    tiff += struct.pack(">HHHII", 1, 0x9003, 2, 20, 44) + struct.pack(">I", 0)
    tiff += date.strftime("%Y:%m:%d %H:%M:%S").encode() + b"\x00"
    return segment(0xE1, b"Exif\x00\x00" + tiff)


def split_after_header(jpeg: bytes) -> tuple[bytes, bytes]:
    """(SOI and the JFIF APP0 segment if there is one, the rest): where segments may be inserted."""
    if jpeg[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    end = 2
    if jpeg[2:4] == b"\xff\xe0":
        end = 4 + struct.unpack(">H", jpeg[4:6])[0]
    return jpeg[:end], jpeg[end:]


def photo_bytes(picture: bytes, index: int, date: datetime.datetime) -> bytes:
    """A file's bytes: `picture` (a JPEG) with its EXIF date and a comment naming `index`."""
    head, rest = split_after_header(picture)
    return head + exif_segment(date) + segment(0xFE, f"thumbs-scaling photo {index}".encode()) + rest


def pictures(count: int = POOL, seed: int = 48) -> list[bytes]:
    """`count` distinct small JPEGs: a gradient of random colours, noise, a few shapes each; the
    same for the same seed (the noise too, which Pillow's effect_noise would make anew)."""
    from PIL import Image, ImageChops

    rng = random.Random(seed)
    made = []
    for _ in range(count):
        image = Image.frombytes("RGB", (4, 3), rng.randbytes(4 * 3 * 3))
        image = image.resize((WIDTH, HEIGHT), Image.Resampling.BICUBIC)
        # Uniform noise of ±NOISE levels: what makes a JPEG weigh and decode like a photo.
        noise = Image.frombytes("L", (WIDTH, HEIGHT), rng.randbytes(WIDTH * HEIGHT))
        noise = noise.point(lambda v: 128 - NOISE + v * (2 * NOISE + 1) // 256).convert("RGB")
        image = ImageChops.add(image, noise, offset=-128)
        draw_shapes(image, rng, rng.randint(2, 5), (8, 60))
        out = io.BytesIO()
        image.save(out, "JPEG", quality=80)
        made.append(out.getvalue())
    return made


_pictures: list[bytes] = []  # per generating process: the pictures, made once by the parent


def take_pictures(made: list[bytes]) -> None:
    """Keeps the parent's pictures in a generating process (the pool's initializer)."""
    _pictures[:] = made


def write_folder(task: tuple[Path, Folder]) -> int:
    """Writes the photos of one folder under `root` (one task of the pool); returns their bytes."""
    root, folder = task
    directory = root / folder.name
    directory.mkdir(parents=True, exist_ok=True)
    written = 0
    for index in range(folder.first, folder.first + folder.count):
        date = taken(folder, index)
        data = photo_bytes(_pictures[index % POOL], index, date)
        descriptor = os.open(directory / file_name(folder, index), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            os.write(descriptor, data)
            stamp = date.timestamp()
            os.utime(descriptor, (stamp, stamp))
        finally:
            os.close(descriptor)
        written += len(data)
    return written


def marker(root: Path, photos: int) -> Path:
    """The marker of the library of `photos` photos under `root`."""
    return root / f"{photos}.complete"


def marker_text(photos: int) -> str:
    """What a complete library's marker holds."""
    return json.dumps({"generator": VERSION, "photos": photos}) + "\n"


def moved_name(photos: int) -> str:
    """The name the moved folder takes while it is moved."""
    return f"{moved_folder(photos).name} moved"


def restore_move(library: Path, photos: int) -> bool:
    """Renames the moved folder back if a run ended before it did; True when it had to."""
    moved, original = library / moved_name(photos), library / moved_folder(photos).name
    if moved.is_dir() and not original.exists():
        moved.rename(original)
        return True
    return False


def ensure(root: Path, photos: int, say: Callable[[str], None]) -> tuple[Path, float, int]:
    """The library of `photos` photos under root/photos, generated unless complete already.

    Returns (its folder, seconds spent generating: 0 when it was kept, bytes written: 0 then).
    """
    library = root / str(photos)
    if marker(root, photos).is_file() and marker(root, photos).read_text() == marker_text(photos):
        if restore_move(library, photos):
            say(f"{library}: renamed {moved_name(photos)!r} back (a run ended before it could)")
        return library, 0.0, 0
    if library.exists():
        say(f"{library}: not a complete library of this generator: generating it again")
        shutil.rmtree(library)
    marker(root, photos).unlink(missing_ok=True)
    start = time.perf_counter()
    with Pool(runner.cores(), initializer=take_pictures, initargs=(pictures(),)) as pool:
        written = sum(pool.imap_unordered(write_folder, ((library, f) for f in layout(photos))))
    seconds = time.perf_counter() - start
    marker(root, photos).write_text(marker_text(photos))
    say(
        f"generated {photos:,} photos ({written / 1e6:,.0f} MB) in {library} in {seconds:.1f} s "
        f"({photos / seconds:,.0f} photos/s)"
    )
    return library, seconds, written


def read_every_file(library: Path) -> tuple[int, int]:
    """Reads every photo of a library once, so that no command pays for the first read from
    disk; returns (photos, bytes)."""
    photos = size = 0
    for directory in sorted(p for p in library.iterdir() if p.is_dir()):
        with os.scandir(directory) as entries:
            for entry in entries:
                with open(entry.path, "rb") as f:
                    size += len(f.read())
                photos += 1
    return photos, size
