"""GNOME's thumbnail factory in a process of its own, driven by `desktop_factory.FactoryClient`.

Run by Debian's /usr/bin/python3 (python3-gi, gir1.2-gnomedesktop-3.0), with the XDG folders the
client chose in its environment (GLib reads them once, as it starts). Each line on stdin is a
JSON request, each line on stdout its JSON answer:

    {"generate": PATH, "size": "normal"|"large"}    the factory's generate_thumbnail of PATH,
        with the content type Gio gives it, as a file manager asks:
        {"ok": true, "width": W, "height": H, "grid": [[R, G, B], ...], "seconds": S} or
        {"ok": false, "error": MESSAGE, "seconds": S}
    {"can_thumbnail": PATH, "size": ...}            {"ok": true, "can": BOOL, "mime": TYPE}
    {"reference": PATH}                             PATH decoded by gdk-pixbuf in this process,
        turned by its orientation tag: {"ok": true, "width": W, "height": H, "grid": [...]}

A grid is the picture averaged down to GRID×GRID cells, row by row.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

try:
    import gi

    gi.require_version("GnomeDesktop", "3.0")
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf, Gio, GLib, GnomeDesktop
except (ImportError, ValueError) as missing:
    sys.exit(
        f"GNOME's thumbnail factory cannot be loaded ({missing}): "
        "install Debian's gir1.2-gnomedesktop-3.0 and python3-gi (scripts/requirements.tsv)"
    )

GRID = 8
SIZES = {"normal": "NORMAL", "large": "LARGE"}


def grid_of(pixbuf: Any) -> list[list[int]]:  # noqa: ANN401 (a GdkPixbuf.Pixbuf: gi is untyped)
    """The pixbuf averaged down to GRID×GRID RGB cells, row by row."""
    small = pixbuf.scale_simple(GRID, GRID, GdkPixbuf.InterpType.HYPER)
    data: bytes = small.get_pixels()
    stride, channels = int(small.get_rowstride()), int(small.get_n_channels())
    return [
        list(data[row * stride + column * channels : row * stride + column * channels + 3])
        for row in range(GRID)
        for column in range(GRID)
    ]


def content_type(path: str) -> tuple[str, int, str]:
    """The URI, mtime and content type of PATH, as GNOME Files asks Gio for them."""
    file = Gio.File.new_for_path(path)
    info = file.query_info("standard::content-type,time::modified", Gio.FileQueryInfoFlags.NONE, None)
    return str(file.get_uri()), int(info.get_attribute_uint64("time::modified")), str(info.get_content_type() or "")


def answer(request: dict[str, Any], factories: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request."""
    if "reference" in request:
        pixbuf = GdkPixbuf.Pixbuf.new_from_file(request["reference"]).apply_embedded_orientation()
        return {"ok": True, "width": pixbuf.get_width(), "height": pixbuf.get_height(), "grid": grid_of(pixbuf)}
    factory = factories[request["size"]]
    if "can_thumbnail" in request:
        uri, mtime, mime = content_type(request["can_thumbnail"])
        return {"ok": True, "can": bool(factory.can_thumbnail(uri, mime, mtime)), "mime": mime}
    uri, _, mime = content_type(request["generate"])
    started = time.perf_counter()
    try:
        pixbuf = factory.generate_thumbnail(uri, mime, None)
    except GLib.Error as error:
        return {"ok": False, "error": str(error.message), "seconds": time.perf_counter() - started}
    seconds = time.perf_counter() - started
    if pixbuf is None:
        return {"ok": False, "error": "no pixbuf", "seconds": seconds}
    return {
        "ok": True,
        "width": pixbuf.get_width(),
        "height": pixbuf.get_height(),
        "grid": grid_of(pixbuf),
        "seconds": seconds,
    }


def main() -> None:
    """Answers requests until stdin ends."""
    # The thumbnailers the factory starts inherit its stdout: the answers go to a copy of it, and
    # stdout becomes stderr, so that what a thumbnailer prints lands in the log, not in an answer.
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    factories = {
        name: GnomeDesktop.DesktopThumbnailFactory.new(getattr(GnomeDesktop.DesktopThumbnailSize, enum))
        for name, enum in SIZES.items()
    }
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line), factories)
        except GLib.Error as error:
            reply = {"ok": False, "error": str(error.message)}
        print(json.dumps(reply), file=answers, flush=True)


if __name__ == "__main__":
    main()
