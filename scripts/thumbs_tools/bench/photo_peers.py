"""The photos compare-peers uses, and the tools it compares: `thumbs warm`, vipsthumbnail,
ImageMagick and Pillow, each making the same thumbnails of the same files."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from .. import events
from ..paths import SCRIPTS
from ..report import write_json
from ..runner import Result, cores, parallel_shell_commands

# A single argument of a command line is limited to 128 KiB (MAX_ARG_STRLEN), and each
# vipsthumbnail invocation goes through `sh -c`: batches stay well below it.
MAX_FILES_PER_INVOCATION = 200

Sizes = tuple[int, ...]
Command = tuple[list[str], dict[str, str]]
Counts = tuple[int, int, list[str]]


def parse_notes(notes: str) -> dict[str, str]:
    """The `key=value; ...` notes column of MANIFEST.tsv as a dict (bare words are dropped)."""
    pairs = (item.strip().split("=", 1) for item in notes.split(";"))
    return {p[0]: p[1] for p in pairs if len(p) == 2}


def selected(notes: dict[str, str], dataset: str) -> bool:
    """Whether a photo with these MANIFEST.tsv notes belongs to `dataset` ("jpeg" or "mixed")."""
    if dataset == "jpeg":
        return notes.get("loader") == "jpegload" and notes.get("decode") == "ok"
    # ok-with-warnings: libvips decodes the whole image (decode_fail_on_warning=ok too), and
    # reports something harmless such as an unknown TIFF tag.
    return "loader" in notes and notes.get("decode") in ("ok", "ok-with-warnings")


def manifest_selection(photos: Path, dataset: str) -> list[str]:
    """Relative paths of MANIFEST.tsv in `dataset`: "jpeg" or "mixed" (never from broken/)."""
    with open(photos / "MANIFEST.tsv") as f:
        header = f.readline().rstrip("\n").split("\t")
        path_col, notes_col = header.index("relative_path"), header.index("notes")
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return [
        row[path_col]
        for row in rows
        if not row[path_col].startswith("broken/") and selected(parse_notes(row[notes_col]), dataset)
    ]


def build_dataset(photos: Path, dataset: str, copies: int, root: Path) -> list[Path]:
    """Copies the photos of `dataset` (`copies` times each) into root/dataset; returns their paths.

    Real copies under safe, distinct names (no spaces, one dot): every tool reads the same bytes
    from the same file system, and `vipsthumbnail -o %s_256.jpg` names outputs by the stem.
    """
    folder = root / dataset
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    files = []
    for index, relative in enumerate(manifest_selection(photos, dataset)):
        source = photos / relative
        stem = re.sub(r"[^A-Za-z0-9_-]+", "_", source.stem)
        for copy in range(copies):
            name = f"{index:03d}_{stem}" + (f"_c{copy}" if copies > 1 else "") + source.suffix
            shutil.copyfile(source, folder / name)
            files.append(folder / name)
    return files


def stem_of(path: Path) -> str:
    """The name vipsthumbnail's %s gives a file: its name without the last extension."""
    return path.name.rsplit(".", 1)[0]


def balanced_batches(sized: Sequence[tuple[Path, int]], count: int) -> list[list[Path]]:
    """Files with their sizes in `count` batches of similar total bytes (largest first onto the
    lightest batch); empty batches are left out."""
    batches: list[list[Path]] = [[] for _ in range(count)]
    loads = [0] * count
    for path, size in sorted(sized, key=lambda item: item[1], reverse=True):
        lightest = loads.index(min(loads))
        batches[lightest].append(path)
        loads[lightest] += size
    return [b for b in batches if b]


def pixel_size(path: Path) -> tuple[int, int]:
    """(width, height) of an image, from its header."""
    from PIL import Image  # only once the wrapper made sure it is installed

    with Image.open(path) as image:
        width, height = image.size
        return int(width), int(height)


def written(files: Sequence[Path], sizes: Sizes, out: Path) -> Counts:
    """(photos with every thumbnail in `out`, how many others, their names)."""
    missing = [p.name for p in files if not all((out / f"{stem_of(p)}_{s}.jpg").is_file() for s in sizes)]
    return len(files) - len(missing), len(missing), missing


class Tool(Protocol):
    """A tool compared: what it is called, the datasets it runs on, how it runs and counts."""

    key: str
    label: str
    datasets: tuple[str, ...]

    def command(self, folder: Path, files: Sequence[Path], sizes: Sizes, out: Path) -> Command:
        """The command and extra environment of one run."""
        ...

    def count(self, result: Result, files: Sequence[Path], sizes: Sizes, out: Path) -> Counts:
        """(photos rendered, how many others, what failed) after a run."""
        ...


class Thumbs:
    """`thumbs warm` into a new, empty cache: every rendition from one decode per photo."""

    key = label = "thumbs"
    datasets: tuple[str, ...] = ("jpeg", "mixed")

    def __init__(self, binary: Path, work: Path) -> None:
        self.binary, self.work = binary, work

    def command(self, folder: Path, files: Sequence[Path], sizes: Sizes, out: Path) -> Command:
        config = self.work / f"thumbs-{len(sizes)}.json"
        renditions = [
            {"name": f"s{s}", "size": f"{s}x{s}", "mode": "fit", "format": "jpeg", "quality": 80} for s in sizes
        ]
        # A budget no run reaches: the default (2 GiB) could make a run with many --copies evict.
        write_json(config, {"renditions": renditions, "workers": 0, "cache": {"budget": "1000 GiB"}})
        command = [str(self.binary), "warm", str(folder), "--config", str(config)]
        return [*command, "--cache", str(out / "cache"), "--quiet", "--json"], {}

    def count(self, result: Result, files: Sequence[Path], sizes: Sizes, out: Path) -> Counts:
        """From the summary; exit status 1 only says that some failed."""
        summary = events.warm_summary(result.stdout)
        if result.returncode not in (0, 1) or summary is None:
            raise RuntimeError(f"thumbs exited with {result.returncode}: {result.stderr.strip()}")
        return summary.rendered, summary.failed, summary.failure_kinds()


class VipsThumbnail:
    """vipsthumbnail, batches of files split over one process per core, one call per size."""

    key, label = "vipsthumbnail", "vipsthumbnail-parallel"
    datasets: tuple[str, ...] = ("jpeg", "mixed")

    def __init__(self, work: Path, concurrency: int) -> None:
        self.work, self.concurrency = work, concurrency

    def command(self, folder: Path, files: Sequence[Path], sizes: Sizes, out: Path) -> Command:
        batch_count = cores() * -(-len(files) // (cores() * MAX_FILES_PER_INVOCATION))
        batches = balanced_batches([(p, p.stat().st_size) for p in files], batch_count)
        # vipsthumbnail writes one size per call: each size is its own call over the batch.
        # "WxH>" only ever shrinks.
        commands = [
            shlex.join(["vipsthumbnail", "-s", f"{s}x{s}>", "-o", f"{out}/%s_{s}.jpg[Q=80,strip]", *map(str, batch)])
            for s in sizes
            for batch in batches
        ]
        env = {"VIPS_CONCURRENCY": str(self.concurrency)} if self.concurrency else {}
        return parallel_shell_commands(commands, out / "items"), env

    def count(self, result: Result, files: Sequence[Path], sizes: Sizes, out: Path) -> Counts:
        return written(files, sizes, out)


class ImageMagick:
    """ImageMagick 6 convert, one single-threaded process per photo, one per core at a time.

    With several sizes, one process decodes the photo once and writes each size, largest first,
    each shrunk from the previous one. `jpeg_hint` adds `-define jpeg:size=`, ImageMagick's
    shrink-on-load for JPEG (to twice the largest box, which keeps its quality), to the photos
    at least that large: ImageMagick 6.9.11 turns a hint larger than the image into a 2x
    *enlargement* at decode (1800x1200 photos took 7x longer with a 2048x2048 hint).
    """

    key = "imagemagick"

    def __init__(self, binary: str, jpeg_hint: bool) -> None:
        self.binary, self.jpeg_hint = binary, jpeg_hint
        self.label = "imagemagick (jpeg:size hint) [extra]" if jpeg_hint else "imagemagick"
        self.datasets: tuple[str, ...] = ("jpeg",) if jpeg_hint else ("jpeg", "mixed")  # the hint is JPEG's only

    def arguments(self, path: Path, sizes: Sizes, out: Path, hinted: bool) -> list[str]:
        """The convert command of one photo; `hinted`: with the jpeg:size hint."""
        hint = 2 * sizes[0]
        args = [self.binary, *(["-define", f"jpeg:size={hint}x{hint}"] if hinted else [])]
        # [0]: the first frame only (an animated GIF would give one file per frame).
        args += [f"{path}[0]", "-auto-orient", "-strip", "-quality", "80"]
        for size in sizes:
            target = f"{out}/{stem_of(path)}_{size}.jpg"
            # -write for every size but the last, which is the output itself.
            args += ["-thumbnail", f"{size}x{size}>"]
            args += ["-write", target] if size != sizes[-1] else [target]
        return args

    def command(self, folder: Path, files: Sequence[Path], sizes: Sizes, out: Path) -> Command:
        commands = [
            shlex.join(self.arguments(path, sizes, out, self.jpeg_hint and min(pixel_size(path)) >= 2 * sizes[0]))
            for path in files
        ]
        return parallel_shell_commands(commands, out / "items"), {"MAGICK_THREAD_LIMIT": "1"}

    def count(self, result: Result, files: Sequence[Path], sizes: Sizes, out: Path) -> Counts:
        return written(files, sizes, out)


class Pillow:
    """Pillow in a process pool of one process per core (pillow_thumbnails)."""

    key = label = "pillow"
    datasets: tuple[str, ...] = ("jpeg", "mixed")

    def command(self, folder: Path, files: Sequence[Path], sizes: Sizes, out: Path) -> Command:
        listing = out / "list.tsv"
        listing.write_text("".join(f"{p}\t{stem_of(p)}\n" for p in files))
        module = ["-m", "thumbs_tools.bench.pillow_thumbnails"]
        arguments = ["--sizes", ",".join(map(str, sizes)), "--out", str(out), str(listing)]
        return [sys.executable, *module, *arguments], {"PYTHONPATH": str(SCRIPTS)}

    def count(self, result: Result, files: Sequence[Path], sizes: Sizes, out: Path) -> Counts:
        return written(files, sizes, out)


def imagemagick_binary() -> str:
    """The real ImageMagick 6 convert, from its Debian package's file list.

    Never `convert` from PATH: on some machines that is a stand-in that is not ImageMagick.
    """
    listed = subprocess.run(["dpkg", "-L", "imagemagick-6.q16"], capture_output=True, text=True)
    for line in listed.stdout.splitlines():
        if line.endswith("/convert-im6.q16"):
            return line
    sys.exit("compare-peers: ImageMagick 6 (imagemagick-6.q16) is not installed")


def versions(thumbs_binary: Path, convert: str) -> dict[str, str]:
    """Versions of the tools compared, for the report's header."""

    def first_line(cmd: list[str]) -> str:
        done = subprocess.run(cmd, capture_output=True, text=True)
        return (done.stdout or done.stderr).splitlines()[0].strip()

    import PIL  # only once the wrapper made sure it is installed

    return {
        "libvips": first_line(["vipsthumbnail", "--vips-version"]),
        "imagemagick": first_line([convert, "-version"]).removeprefix("Version: ImageMagick "),
        "pillow": PIL.__version__,
        "thumbs": str(thumbs_binary),
    }
