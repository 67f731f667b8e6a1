"""The datasets bench-media measures: folders of hard links to the videos and RAW files of
../shared/media, and to generated H.264 clips and DNG files, made once and kept."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..paths import REPOSITORY, SHARED

MEDIA = SHARED / "media"
NIKON = SHARED / "photos/2007-12-holiday/Nikon D50 - 2007.12.19.n.DSC_3656.JPG"
# The other two RAW files of ../shared/media/raw fail in Thumbs as unsupported (a GoPro GPR,
# VC-5 compressed, and a JPEG XL DNG, neither of which LibRaw 0.20 reads): left out.
SHARED_RAW = ("Canon_PowerShot_G2_CRW_0304.CRW", "Kodak_DC120_P003908.KDC")

# (name, kind, files, description) of a dataset
Dataset = tuple[str, str, list[Path], str]


def generated(path: Path, what: str, command: Callable[[Path], Sequence[object]]) -> Path:
    """`path`, made (niced) by the command list `command(temporary path)` unless it exists."""
    if path.is_file():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"generating {what}: {path} (once; kept for later runs)", file=sys.stderr)
    start, tmp = time.monotonic(), path.with_name(f"tmp-{path.name}")
    cmd = [str(arg) for arg in command(tmp)]
    done = subprocess.run(["nice", "-n", "19", *cmd], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"bench-media: {shlex.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    tmp.rename(path)
    print(f"  took {time.monotonic() - start:.0f} s", file=sys.stderr)
    return path


def clip(work: Path, width: int, height: int, seconds: int) -> Path:
    """A generated H.264 + AAC clip: testsrc2 (moving detail) with temporal noise, 30 fps.

    noise=alls=8 gives about 14 Mbit/s at 1080p and 55 at 4K, a phone's rates: stronger noise
    (alls=20) made 110 Mbit/s at 1080p, more than any camera writes.
    """
    return generated(
        work / "clips" / f"testsrc2-noise-{width}x{height}-{seconds}s.mp4",
        f"a {seconds} s {width}x{height} H.264 clip (takes minutes)",
        lambda tmp: [
            "ffmpeg",
            "-nostdin",
            "-y",
            "-loglevel",
            "error",
            "-f",
            "lavfi",
            "-i",
            f"testsrc2=size={width}x{height}:rate=30",
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440:sample_rate=48000",
            "-t",
            seconds,
            "-vf",
            "noise=alls=8:allf=t",
            "-c:v",
            "libx264",
            "-preset",
            "veryfast",
            "-crf",
            "23",
            "-g",
            "60",
            "-pix_fmt",
            "yuv420p",
            "-c:a",
            "aac",
            "-b:a",
            "128k",
            "-f",
            "mp4",
            tmp,
        ],
    )


def dng(work: Path, python: Path, name: str, preview_jpeg: Path) -> Path:
    """A generated 3008x2000 DNG whose preview is `preview_jpeg`'s bytes (make-test-dng.py)."""
    return generated(
        work / "dng" / f"{name}.dng",
        f"the DNG {name}",
        lambda tmp: [
            python,
            REPOSITORY / "scripts" / "make-test-dng.py",
            tmp,
            "--raw",
            "3008x2000",
            "--preview",
            "160x120:rgb",
            "--preview-jpeg",
            preview_jpeg,
            "--orientation",
            "1",
        ],
    )


def link_dataset(root: Path, name: str, sources: Sequence[Path], copies: int) -> list[Path]:
    """root/name: `copies` hard links to each of `sources` under distinct names; their paths."""
    folder = root / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    files = []
    for index, source in enumerate(sources):
        stem = re.sub(r"[^A-Za-z0-9_-]+", "_", source.stem)
        for copy in range(copies):
            path = folder / f"{index:02d}_{stem}_c{copy:02d}{source.suffix}"
            try:
                os.link(source, path)
            except OSError as error:
                sys.exit(
                    f"bench-media: cannot hard-link {source} into {folder} ({error}): "
                    "--work must be on the file system of ../shared"
                )
            files.append(path)
    return files


def datasets(args: argparse.Namespace, work: Path) -> list[Dataset]:
    """[(name, kind, files, description)] for the kinds chosen, generating what is missing."""
    chosen, sets = args.only or "videos,raw", list[Dataset]()
    root = work / "sets"
    if "videos" in chosen:
        videos = sorted(MEDIA.glob("video/*"))
        sets.append(
            (
                "shared-videos",
                "videos",
                link_dataset(root, "shared-videos", videos, args.copies),
                f"the {len(videos)} videos of ../shared/media/video × {args.copies}",
            )
        )
        for name, (w, h), copies in (("1080p", (1920, 1080), args.copies_1080p), ("4k", (3840, 2160), args.copies_4k)):
            source = clip(work, w, h, args.clip_seconds)
            sets.append(
                (
                    name,
                    "videos",
                    link_dataset(root, name, [source], copies),
                    f"{args.clip_seconds} s {w}×{h} 30 fps H.264 + AAC × {copies}",
                )
            )
    if "raw" in chosen:
        raws = [MEDIA / "raw" / name for name in SHARED_RAW]
        sets.append(
            (
                "shared-raw",
                "raw",
                link_dataset(root, "shared-raw", raws, args.copies_raw),
                f"Canon CRW (640×480 JpgFromRaw) and Kodak KDC (80×60 thumbnail only) × {args.copies_raw}",
            )
        )
        full = dng(work, args.python, "full-preview", NIKON)
        small_jpeg = work / "dng" / "preview-1616.jpg"
        generated(
            small_jpeg, "the 1616 px preview", lambda tmp: ["vips", "thumbnail", NIKON, f"{tmp}[Q=90,strip]", "1616"]
        )
        small = dng(work, args.python, "small-preview", small_jpeg)
        for name, source, about in (
            ("dng-full-preview", full, "3008×2000 JPEG preview"),
            ("dng-small-preview", small, "1616×1074 JPEG preview"),
        ):
            sets.append(
                (
                    name,
                    "raw",
                    link_dataset(root, name, [source], args.copies_dng),
                    f"3008×2000 DNG, {about} (a Nikon D50 photo) × {args.copies_dng}",
                )
            )
    return sets
