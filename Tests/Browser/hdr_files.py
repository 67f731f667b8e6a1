"""The library of the grid test's HDR phase, and its configuration: a PQ AVIF made here (ffmpeg's
16-bit test picture, encoded by avifenc), the HDR photos of ../shared/photos where that folder
exists, and SDR JPEGs of `thumbs sample-library`; the grid rendition asks for gain maps."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

# The shared folder's HDR photos: two Ultra HDR JPEGs, an iPhone HEIC with its gain map, a PQ AVIF.
SHARED_HDR = (
    "phone/PXL_ultrahdr_01.jpg",
    "exports/seine_sdr_gainmap_srgb.jpg",
    "phone/iphone_13_pro_max.HEIC",
    "exports/seine_hdr_srgb.avif",
)
GENERATED = "generated_pq.avif"


def run(*command: object) -> None:
    """Runs a media tool; fails with its output, or with where it comes from when it is missing."""
    tool = str(command[0])
    if shutil.which(tool) is None:
        raise subprocess.SubprocessError(
            f"{tool} is not installed: it comes with Debian's ffmpeg and libavif-bin (scripts/requirements.tsv, "
            "media-tools, which scripts/test-browser requires)"
        )
    done = subprocess.run([*map(str, command)], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise subprocess.SubprocessError(f"{tool} exited {done.returncode}:\n{done.stdout}{done.stderr}")


def pq_avif(target: Path, work: Path) -> None:
    """A 640×480 AVIF in BT.2020 with the PQ transfer (CICP 9/16/9), 10 bits, 4:4:4: ffmpeg's
    testsrc2 as a 16-bit PNG, encoded by avifenc. Its full-range codes reach 10,000 nits."""
    png = work / "testsrc2.png"
    run(
        *("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x480"),
        *("-frames:v", "1", "-pix_fmt", "rgb48be", png),
    )
    run("avifenc", "-d", "10", "-y", "444", "--cicp", "9/16/9", png, target)


def make_hdr_library(library: Path, samples: Path, photos: Path) -> tuple[set[str], set[str]]:
    """Fills `library` (a new folder) and returns the names of its HDR files and of its SDR ones.
    `samples` is a folder of `thumbs sample-library`, `photos` the shared folder's photos/, which
    may be absent: then only the generated AVIF is HDR, and it is said that the shared photos were
    skipped."""
    library.mkdir(parents=True)
    pq_avif(library / GENERATED, library.parent)
    hdr = {GENERATED}
    if photos.is_dir():
        for relative in SHARED_HDR:
            source = photos / relative
            if source.is_file():
                shutil.copyfile(source, library / source.name)
                hdr.add(source.name)
            else:
                print(f"HDR: {source} is missing: skipped")
    else:
        print(f"HDR: no shared photos at {photos}: the shared HDR photos were skipped, the generated PQ AVIF only")
    sdr = sorted(p for p in samples.rglob("*.jpg") if "broken" not in p.parts)[:2]
    if not sdr:
        raise subprocess.SubprocessError(f"thumbs sample-library wrote no JPEG into {samples}")
    for source in sdr:
        shutil.copyfile(source, library / source.name)
    return hdr, {source.name for source in sdr}


def gainmap_config(source: Path, target: Path) -> None:
    """`source` (the repository's config.json) with its grid rendition alone, asking for gain maps:
    the page shows no other, and the warm renders only what is checked. (A configuration without
    one fails the check, on the renditions the server lists.)"""
    config = json.loads(source.read_text())
    config["renditions"] = [
        {**rendition, "hdr": "gainmap"} for rendition in config["renditions"] if rendition["name"] == "grid"
    ]
    target.write_text(json.dumps(config, indent=2) + "\n")
