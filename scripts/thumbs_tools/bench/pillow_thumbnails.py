"""Pillow peer of compare-peers (peers.py): thumbnails of many photos with a process pool.

Run as its own process so that its memory (the pool included) is measured as one tree. Each
photo is decoded once, at reduced scale when the format allows it (`draft`, JPEG's
shrink-on-load), turned upright, then shrunk to each size, largest first, each thumbnail made
from the previous one, and saved as `OUT/<stem>_<size>.jpg`. Failures (a format Pillow cannot
open, such as HEIC without a plugin) are counted and listed on stderr, never fatal.

Usage: python3 -m thumbs_tools.bench.pillow_thumbnails --sizes 1024,512,256 --out DIR LIST
where LIST is a file of lines "<path>\t<stem>".
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from multiprocessing import Pool

from PIL import Image, ImageOps


def thumbnails(task: list[str], sizes: list[int], out: str) -> str | None:
    """Writes every size of one photo; returns None, or a line saying why it failed."""
    path, stem = task
    try:
        with Image.open(path) as image:
            image.draft("RGB", (sizes[0], sizes[0]))
            upright = ImageOps.exif_transpose(image)
            if upright.mode not in ("RGB", "L"):  # JPEG takes neither alpha, palettes nor 16 bits
                upright = upright.convert("RGB")
            for size in sizes:
                upright.thumbnail((size, size))  # fits the box, never enlarges
                upright.save(os.path.join(out, f"{stem}_{size}.jpg"), quality=80)
        return None
    except Exception as error:  # every failure of a peer is counted, whatever its kind
        return f"{path}: {type(error).__name__}: {error}"


def main() -> None:
    """Parses the arguments, renders every photo of LIST on one process per core."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", required=True, help="box sizes, largest first: 1024,512,256")
    parser.add_argument("--out", required=True, help="folder of the thumbnails")
    parser.add_argument("list", help='file of lines "<path>\\t<stem>"')
    args = parser.parse_args()
    sizes = sorted((int(s) for s in args.sizes.split(",")), reverse=True)
    with open(args.list) as f:
        tasks = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    work = functools.partial(thumbnails, sizes=sizes, out=args.out)
    with Pool(os.cpu_count()) as pool:
        errors = [e for e in pool.imap_unordered(work, tasks) if e]
    for error in errors:
        print(error, file=sys.stderr)
    print(json.dumps({"ok": len(tasks) - len(errors), "failed": len(errors)}))


if __name__ == "__main__":
    main()
