#!/usr/bin/python3
"""What `thumbs warm --freedesktop` writes, read by GNOME's own implementation of the desktop's
thumbnail cache: GnomeDesktop.DesktopThumbnailFactory (gir1.2-gnomedesktop-3.0), which GNOME
Files uses. Run by scripts/test-desktop-cache:

    gnome_reader_test.py THUMBS PHOTOS

Warms PHOTOS (../shared/photos) and a folder of copies under odd names into a new
XDG_CACHE_HOME, in all four sizes, then checks, as a file manager would ask:
- lookup(uri, mtime) finds a thumbnail of every photo Thumbs rendered, at every size, whose
  longest side is the size's (or the photo's, never enlarged);
- has_valid_failed_thumbnail is true for every damaged file, and can_thumbnail false;
- a changed file's thumbnail is no longer valid (can_thumbnail and lookup agree) until a warm
  makes a new one; a repaired file loses its failure entry; a second warm renders nothing;
- `thumbs freedesktop clean` removes the thumbnails of a removed file and no other.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

THUMBS, PHOTOS = sys.argv[1], sys.argv[2]
WORK = tempfile.mkdtemp(prefix="thumbs-desktop-")
CACHE_HOME = os.path.join(WORK, "cache")
# GLib reads XDG_CACHE_HOME once, when it starts: set it before importing gi.
os.environ["XDG_CACHE_HOME"] = CACHE_HOME
# A factory knows the thumbnailers of XDG_DATA_DIRS as it is made. Here it knows Thumbs' own
# entry alone (beside the system's MIME database), so that what can_thumbnail says is of Thumbs,
# whichever other thumbnailers the machine has.
DATA = os.path.join(WORK, "data")
os.makedirs(os.path.join(DATA, "thumbnailers"))
for linked in ("mime", "glib-2.0"):
    os.symlink(os.path.join("/usr/share", linked), os.path.join(DATA, linked))
with open(os.path.join(os.path.dirname(__file__), "../../deploy/freedesktop/thumbs.thumbnailer")) as deployed:
    ENTRY = deployed.read().replace("TryExec=thumbs", f"TryExec={THUMBS}").replace("Exec=thumbs ", f"Exec={THUMBS} ")
with open(os.path.join(DATA, "thumbnailers", "thumbs.thumbnailer"), "w") as entry:
    entry.write(ENTRY)
os.environ["XDG_DATA_DIRS"] = DATA

try:
    import gi

    gi.require_version("GnomeDesktop", "3.0")
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf, Gio, GLib, GnomeDesktop
except (ImportError, ValueError) as missing:
    sys.exit(
        f"thumbs: GNOME's reader of the desktop cache cannot be loaded ({missing}): "
        "install Debian's gir1.2-gnomedesktop-3.0 and python3-gi (scripts/requirements.tsv, desktop-cache)"
    )

SIZES = {"normal": 128, "large": 256, "x-large": 512, "xx-large": 1024}
FACTORIES = {
    name: GnomeDesktop.DesktopThumbnailFactory.new(getattr(GnomeDesktop.DesktopThumbnailSize, enum))
    for name, enum in [("normal", "NORMAL"), ("large", "LARGE"), ("x-large", "XLARGE"), ("xx-large", "XXLARGE")]
}
DAMAGED = {"truncated", "corrupt", "empty-file"}
failures: list[str] = []


def check(condition: bool, message: str) -> None:
    if not condition:
        failures.append(message)
        print("FAIL:", message, file=sys.stderr)


def warm(*roots: str) -> tuple[dict[str, str], dict[str, object]]:
    """Runs thumbs warm into the desktop's cache only; returns (failed kinds by path, summary)."""
    arguments = [THUMBS, "warm", "--json", "--freedesktop-only"]
    for size in SIZES:
        arguments += ["--freedesktop-size", size]
    result = subprocess.run([*arguments, *roots], capture_output=True, cwd=WORK)
    check(result.returncode in (0, 1), f"thumbs warm exited {result.returncode}: {result.stderr[-400:]!r}")
    kinds: dict[str, str] = {}
    summary: dict[str, object] = {}
    for line in result.stdout.decode().splitlines():
        event = json.loads(line)
        if event.get("event") == "failed":
            kinds[event["path"]] = event["kind"]
        elif event.get("event") == "summary":
            summary = event
    return kinds, summary


def info(path: str) -> tuple[str, int, str | None]:
    """The URI, mtime and content type, as GNOME Files asks Gio for them."""
    file = Gio.File.new_for_path(path)
    attributes = file.query_info("standard::content-type,time::modified", Gio.FileQueryInfoFlags.NONE, None)
    content_type = attributes.get_content_type()
    return (
        str(file.get_uri()),
        int(attributes.get_attribute_uint64("time::modified")),
        None if content_type is None else str(content_type),
    )


def files_under(root: str) -> Iterator[str]:
    for folder, _, names in os.walk(root.encode()):
        for name in sorted(names):
            if name != b"MANIFEST.tsv":
                yield os.path.join(folder, name).decode("utf-8", "surrogateescape")


def make_odd_names() -> str:
    """Copies of a few shared photos under names a file manager must percent-encode."""
    odd = os.path.join(WORK, "odd names")
    os.makedirs(odd)
    jpegs = sorted(p for p in files_under(PHOTOS) if p.lower().endswith(".jpg") and "/broken/" not in p)
    names = [
        "a b.jpg",
        "café 日本.jpg",
        "e\u0301-nfd.jpg",
        "hash#q?pct%.jpg",
        "semi;colon,=:@!$&'()*+.jpg",
        "[brackets] {braces} |pipe| ^caret^ `tick`.jpg",
        "tab\tand\nnewline.jpg",
    ]
    for name, source in zip(names, jpegs, strict=False):
        shutil.copyfile(source, os.path.join(odd, name))
    # A name that is not UTF-8 at all.
    shutil.copyfile(jpegs[0], os.path.join(odd.encode(), b"latin1-\xe9t\xe9.jpg"))
    # A damaged file, repaired later: its first bytes only, nothing to draw, and dated an hour
    # back, so that Thumbs takes it for damage rather than a copy under way (whose failure it
    # does not remember).
    broken_path = os.path.join(odd, "repaired later.jpg")
    with open(jpegs[1], "rb") as whole, open(broken_path, "wb") as broken:
        broken.write(whole.read(300))
    settled = time.time() - 3600
    os.utime(broken_path, (settled, settled))
    return odd


def renders(notes: str) -> bool:
    """Whether Thumbs renders a shared photo, by the manifest's notes: it decodes, or it is damaged
    part of the way in (truncated, bad entropy-coded data) and its loader gives what decoded
    (libvips' JPEG, PNG and GIF loaders), a partial thumbnail of a settled file."""
    fields = dict(field.strip().split("=", 1) for field in notes.split(";") if "=" in field)
    # A value may be followed by a comment: "corrupt=bad-entropy-data (real camera file …)".
    damaged = fields.get("corrupt", "").split(" ")[0] in ("truncated", "bad-entropy-data")
    partial = damaged and fields.get("loader") in ("jpegload", "pngload", "gifload")
    return "decode=ok" in notes or partial


def manifest_photos() -> dict[str, bool]:
    """The shared photos, and whether each one renders (the manifest's notes say)."""
    with open(os.path.join(PHOTOS, "MANIFEST.tsv"), encoding="utf-8") as manifest:
        rows = [line.rstrip("\n").split("\t") for line in manifest][1:]
    return {os.path.join(PHOTOS, row[0]): renders(row[6]) for row in rows}


def check_library(paths: dict[str, bool], kinds: dict[str, str]) -> dict[str, int]:
    """Every rendered file found at every size; every damaged one a valid failure. `paths` says of
    each file whether it must be rendered (a file that is neither rendered nor failed is no photo
    to Thumbs: a text file named .jpg)."""
    counted = {"rendered": 0, "failed": 0}
    for path, decodes in paths.items():
        uri, mtime, content_type = info(path)
        kind = kinds.get(path)
        if kind is None and not decodes:
            for name, factory in FACTORIES.items():
                check(factory.lookup(uri, mtime) is None, f"{name}: a thumbnail of {path!r}, not a photo")
        elif kind is None:
            counted["rendered"] += 1
            for name, factory in FACTORIES.items():
                found = factory.lookup(uri, mtime)
                check(found is not None, f"{name}: no valid thumbnail of {path!r} ({uri})")
                if found:
                    pixbuf = GdkPixbuf.Pixbuf.new_from_file(found)
                    longest = max(pixbuf.get_width(), pixbuf.get_height())
                    check(longest <= SIZES[name], f"{name}: {path!r} is {longest} px on its longest side")
                    check(os.stat(found).st_mode & 0o777 == 0o600, f"{found}: mode {oct(os.stat(found).st_mode)}")
            check(not FACTORIES["normal"].has_valid_failed_thumbnail(uri, mtime), f"{path!r}: a failure entry")
        else:
            counted["failed"] += 1
            failed = FACTORIES["normal"].has_valid_failed_thumbnail(uri, mtime)
            if kind in DAMAGED:
                check(failed, f"{path!r} ({kind}): no valid failed thumbnail")
                check(
                    not FACTORIES["large"].can_thumbnail(uri, content_type or "", mtime),
                    f"{path!r} ({kind}): can_thumbnail after the failure",
                )
            else:
                check(not failed, f"{path!r} ({kind}): a GNOME failure entry for a format GNOME may read")
    return counted


def main() -> int:
    odd = make_odd_names()
    kinds, summary = warm(PHOTOS, odd)
    print(f"warm: {summary.get('rendered')} rendered, {summary.get('failed')} failed", file=sys.stderr)
    counted = check_library(manifest_photos(), kinds)
    counted_odd = check_library(dict.fromkeys(files_under(odd), True), kinds)
    check(counted["rendered"] >= 60, f"only {counted['rendered']} shared photos rendered")
    check(counted["failed"] >= 5, f"only {counted['failed']} shared photos failed")
    check(counted_odd == {"rendered": 8, "failed": 1}, f"odd names: {counted_odd}")
    check(any(k in DAMAGED for k in kinds.values()), "no damaged file among the failures")

    # Unchanged: nothing rendered again.
    _, again = warm(PHOTOS, odd)
    check(again.get("rendered") == 0, f"a second warm rendered {again.get('rendered')}")

    # A changed file: its thumbnail is stale until the next warm makes a new one.
    changed = os.path.join(odd, "a b.jpg")
    before = info(changed)
    os.utime(changed, (before[1] + 60, before[1] + 60))
    uri, mtime, content_type = info(changed)
    factory = FACTORIES["normal"]
    check(factory.lookup(uri, mtime) is None, "a changed file still has a valid thumbnail")
    check(factory.can_thumbnail(uri, content_type, mtime), "can_thumbnail false for a changed file")
    # A damaged file repaired: its failure entry no longer holds.
    repaired = os.path.join(odd, "repaired later.jpg")
    shutil.copyfile(changed, repaired)
    os.utime(repaired, (before[1] + 120, before[1] + 120))
    r_uri, r_mtime, r_type = info(repaired)
    check(not factory.has_valid_failed_thumbnail(r_uri, r_mtime), "a repaired file's failure still holds")
    check(factory.can_thumbnail(r_uri, r_type, r_mtime), "can_thumbnail false for a repaired file")
    _, after = warm(odd)
    check(after.get("rendered") == 2, f"the warm after the change rendered {after.get('rendered')}, not 2")
    for path, (u, m) in [(changed, (uri, mtime)), (repaired, (r_uri, r_mtime))]:
        for name, f in FACTORIES.items():
            check(f.lookup(u, m) is not None, f"{name}: no thumbnail of {path!r} after it changed")
        check(not factory.has_valid_failed_thumbnail(u, m), f"{path!r}: a failure entry after it rendered")
    fail_folder = os.path.join(CACHE_HOME, "thumbnails", "fail", "gnome-thumbnail-factory")
    md5 = GLib.compute_checksum_for_string(GLib.ChecksumType.MD5, r_uri, -1)
    check(not os.path.exists(os.path.join(fail_folder, md5 + ".png")), "the repaired file's failure entry was kept")

    # Clean: a removed file's thumbnails go, nothing else does.
    thumbnails = os.path.join(CACHE_HOME, "thumbnails")
    count = sum(len(names) for _, _, names in os.walk(thumbnails))
    os.remove(changed)
    cleaned = subprocess.run([THUMBS, "freedesktop", "clean", "--json", odd], capture_output=True, cwd=WORK)
    check(cleaned.returncode == 0, f"thumbs freedesktop clean exited {cleaned.returncode}: {cleaned.stderr!r}")
    report = json.loads(cleaned.stdout)
    check(report.get("sourceGone") == 4, f"clean: {report}")
    check(sum(len(names) for _, _, names in os.walk(thumbnails)) == count - 4, "clean removed other thumbnails")
    for name, f in FACTORIES.items():
        check(f.lookup(uri, mtime) is None, f"{name}: the removed file's thumbnail is still there")

    if failures:
        print(f"desktop thumbnail cache: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    shutil.rmtree(WORK)
    print(
        f"desktop thumbnail cache: GNOME's factory read {counted['rendered'] + counted_odd['rendered']} photos' "
        f"thumbnails at four sizes and {counted['failed'] + counted_odd['failed']} failures; "
        "changes, repairs and clean followed",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
