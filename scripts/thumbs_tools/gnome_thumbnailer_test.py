"""Thumbs as the desktop's thumbnailer, with GNOME's thumbnail factory as the client.

Run by scripts/test-gnome-thumbnailer, which installs Thumbs into a prefix under /usr (GNOME runs
thumbnailers in a bwrap sandbox that shows /usr and little else) and passes the installed binary
and thumbnailer entry:

    python3 -m thumbs_tools.gnome_thumbnailer_test THUMBS ENTRY SHARED DATA [--dng-python PYTHON]

The factory (GnomeDesktop.DesktopThumbnailFactory, in its own process) sees one thumbnailer: the
installed entry, its Exec naming the thumbs-thumbnailer installed beside THUMBS (with --verbose,
so that a failure's stderr, which the factory logs, says what confined the decoding). For a
JPEG, a PNG, a HEIC, an AVIF, a DNG, a CRW, an MP4 and a MOV, at the normal (128) and large
(256) sizes, generate_thumbnail must give a pixbuf of the size `thumbs probe` implies, as tall
or as wide as SHARED's manifests say, and, where an independent decoder can say so, turned as it
should be: gdk-pixbuf's own decode (turned by the file's orientation tag) for the JPEG, PNG,
HEIC and AVIF; the four coloured quadrants of the DNG scripts/make-test-dng.py writes. The first
few hundred bytes of a JPEG and of an MP4 must give the factory's failure. Every factory call
has a time limit; one that passes it fails the test.

That the thumbnails are Thumbs': every call's debug log shows the factory starting bwrap with
thumbs-thumbnailer, the failures' logs carry Thumbs' own failure line, and a factory with no
thumbnailer entry fails on the same JPEG and cannot thumbnail it; the system's other
thumbnailers are hidden (an SVG, which librsvg's entry would take, cannot be thumbnailed). What
decodes in the sandbox (the thumbnailer's own process, or a render worker) must be confined by
every measure `thumbs version` says this kernel offers.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .desktop_factory import (
    SIZES,
    FactoryClient,
    FactoryEndedError,
    FactoryTimeoutError,
    closest_orientation,
    entry_naming,
    fitted_size,
    quadrant_colours,
    sizes_agree,
    thumbnailer_beside,
    thumbnailer_folder,
)

GRID = 8
# gdk-pixbuf and Thumbs resize differently (and Thumbs converts to sRGB): their grids differ by a
# few levels (under 4 on these samples); a picture mirrored or turned differs by 13 to 116.
REFERENCE_DISTANCE = 8.0
TRUNCATED_BYTES = 400


# The Debian package of gdk-pixbuf's loader of each reference format: JPEG and PNG are built into
# gdk-pixbuf; HEIF and AVIF come from libheif's loader, which scripts/test-gnome-thumbnailer
# installs (gnome-thumbnailer in scripts/requirements.tsv).
BUILT_IN_LOADERS = "libgdk-pixbuf-2.0-0"
HEIF_LOADER = "heif-gdk-pixbuf"


@dataclass(frozen=True)
class Sample:
    """A file of SHARED and what its manifest says of it."""

    kind: str
    path: str  # below SHARED
    portrait: bool  # as displayed, per the manifest
    check: str = ""  # "reference": gdk-pixbuf's decode; "quadrants": make-test-dng.py's scene
    why: str = ""
    loader: str = BUILT_IN_LOADERS  # the package of gdk-pixbuf's loader, for a "reference" check


SAMPLES = [
    Sample("JPEG", "photos/phone/Xiaomi_Mi_9T.jpg", True, "reference", "4000x3000 stored, orientation 6"),
    Sample("PNG", "photos/exports/buddha_00006.png", False, "reference", "2736x1540"),
    Sample(
        "HEIC", "photos/phone/iphone_13_pro_max.HEIC", True, "reference", "irot 270: 3024x4032 displayed", HEIF_LOADER
    ),
    Sample("AVIF", "photos/exports/mountains.avif", False, "reference", "1920x1080", HEIF_LOADER),
    Sample("CRW", "media/raw/Canon_PowerShot_G2_CRW_0304.CRW", False, "", "2272x1704, no rotation"),
    Sample("MP4", "media/video/portrait_4k60.mp4", True, "", "3840x2160 stored, rotation -90"),
    Sample("MOV", "media/video/dolbyVision-hdr.MOV", True, "", "1280x720 stored, rotation -90"),
]
# ../shared's only DNG is JPEG XL compressed, which LibRaw 0.20 cannot read: the DNG is made here.
DNG = Sample("DNG", "generated.dng", True, "quadrants", "640x480 stored, orientation 6 (make-test-dng.py)")


class Checks:
    """Failures, said as they are found."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    def check(self, condition: bool, message: str) -> bool:
        if not condition:
            self.failures.append(message)
            print(f"FAIL: {message}", file=sys.stderr)
        return condition


def probe_size(thumbs: str, path: Path) -> tuple[int, int]:
    """The displayed size `thumbs probe` gives."""
    result = subprocess.run([thumbs, "probe", str(path)], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"thumbs probe {path}: {result.stderr.strip()}")
    size = json.loads(result.stdout)["pixelSize"]
    return int(size["width"]), int(size["height"])


def offered_confinement(thumbs: str) -> str:
    """The measures `thumbs version` says a render worker takes on this kernel, as Thumbs names them."""
    result = subprocess.run([thumbs, "version", "--json"], capture_output=True, text=True, timeout=120, check=True)
    measures: list[str] = json.loads(result.stdout)["confinement"]
    return ", ".join(measures)


def worker_confinement(log: str) -> str | None:
    """The confinement `thumbs-thumbnailer --verbose` logged, from the factory's debug log: its
    own when it rendered in its own process ("no render worker"), else its render worker's (it
    handed the file to `thumbs thumbnail`, which renders in one where Landlock is missing)."""
    found = re.search(r"(?:render worker|no render worker\),) confined by (.+?)\s*$", log, re.MULTILINE)
    return found.group(1) if found else None


def check_sample(
    checks: Checks, factory: FactoryClient, sample: Sample, path: Path, thumbnailer: str, displayed: tuple[int, int]
) -> None:
    """The sample's thumbnails at both sizes, through the factory."""
    checks.check(
        (displayed[1] > displayed[0]) == sample.portrait,
        f"{sample.kind}: thumbs probe says {displayed[0]}x{displayed[1]}, the manifest {sample.why}",
    )
    reference = factory.reference(path) if sample.check == "reference" else None
    if reference is not None and not checks.check(
        reference.ok,
        f"{sample.kind}: gdk-pixbuf, the reference decoder, cannot read {sample.path} ({reference.error}): "
        f"its {sample.kind} loader is Debian's {sample.loader}",
    ):
        reference = None
    for size_name, side in SIZES.items():
        answer = factory.generate(path, size_name)
        label = f"{sample.kind} {sample.path} ({size_name})"
        if not checks.check(answer.ok, f"{label}: the factory failed: {answer.error}: {answer.log}"):
            continue
        checks.check(
            "bwrap " in answer.log and thumbnailer in answer.log, f"{label}: not run by {thumbnailer} in bwrap"
        )
        expected = fitted_size(*displayed, side)
        checks.check(sizes_agree(answer.size, expected), f"{label}: {answer.size}, not {expected}")
        if reference is not None:
            orientation, distance = closest_orientation(answer.grid, reference.grid, GRID)
            checks.check(
                orientation == 1 and distance <= REFERENCE_DISTANCE,
                f"{label}: gdk-pixbuf's decode matches it best turned by orientation {orientation} "
                f"(distance {distance:.1f})",
            )
        if sample.check == "quadrants":
            colours = quadrant_colours(answer.grid, GRID)
            checks.check(colours == ["red", "green", "blue", "white"], f"{label}: quadrants {colours}")
        print(f"ok: {label}: {answer.size[0]}x{answer.size[1]} in {answer.fields['seconds'] * 1000:.0f} ms")


def check_truncated(checks: Checks, factory: FactoryClient, source: Path, truncated: Path, offered: str) -> None:
    """The first bytes of `source` give the factory's failure, with Thumbs' line in its log."""
    truncated.write_bytes(source.read_bytes()[:TRUNCATED_BYTES])
    answer = factory.generate(truncated, "large")
    label = f"{truncated.name} (the first {TRUNCATED_BYTES} bytes of {source.name})"
    checks.check(not answer.ok, f"{label}: the factory made a thumbnail of it")
    checks.check(
        "thumbs-thumbnailer: /tmp/gnome-desktop-file-to-thumbnail" in answer.log,
        f"{label}: the factory's log has no failure line of Thumbs: {answer.log}",
    )
    confinement = worker_confinement(answer.log)
    checks.check(
        confinement == offered,
        f"{label}: the thumbnailer in GNOME's sandbox was confined by {confinement}, not {offered}",
    )
    print(f"ok: {label}: the factory failed ({answer.fields.get('error')}); confined by {confinement}")


def main() -> None:
    """Runs the checks; exits 1 when any failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("thumbs", help="the installed thumbs, under /usr")
    parser.add_argument("entry", help="the installed thumbs.thumbnailer")
    parser.add_argument("shared", type=Path)
    parser.add_argument("data", type=Path, help="a new folder below /usr, for the XDG data folders")
    parser.add_argument("--dng-python", help="a Python with what scripts/make-test-dng.py needs")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a factory call may take")
    arguments = parser.parse_args()
    thumbs: str = arguments.thumbs
    checks = Checks()
    work = Path(tempfile.mkdtemp(prefix="thumbs-gnome-thumbnailer-"))

    samples = [(sample, arguments.shared / sample.path) for sample in SAMPLES]
    if arguments.dng_python:
        dng = work / "generated.dng"
        script = Path(__file__).resolve().parent.parent / "make-test-dng.py"
        subprocess.run([arguments.dng_python, str(script), str(dng)], check=True, timeout=120)
        samples.append((DNG, dng))
    else:
        print("thumbs: no Python for scripts/make-test-dng.py: the DNG is skipped", file=sys.stderr)
    svg = work / "drawing.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="9" height="9"/></svg>')

    thumbnailer = thumbnailer_beside(thumbs)
    entry = entry_naming(Path(arguments.entry).read_text(), thumbnailer, ["--verbose"])
    with_thumbs = thumbnailer_folder(arguments.data / "with-thumbs", {"thumbs.thumbnailer": entry})
    without = thumbnailer_folder(arguments.data / "without", {})
    offered = offered_confinement(thumbs)
    try:
        with FactoryClient(with_thumbs, work / "factory", arguments.timeout, debug=True) as factory:
            for sample, path in samples:
                check_sample(checks, factory, sample, path, thumbnailer, probe_size(thumbs, path))
            jpeg, mp4 = (arguments.shared / SAMPLES[index].path for index in (0, 5))
            check_truncated(checks, factory, jpeg, work / "truncated.jpg", offered)
            check_truncated(checks, factory, mp4, work / "truncated.mp4", offered)
            svg_answer = factory.can_thumbnail(svg)
            checks.check(
                not svg_answer.fields["can"], f"the system's thumbnailers are visible: {svg_answer.fields['mime']}"
            )
        with FactoryClient(without, work / "factory-without", arguments.timeout) as factory:
            jpeg = samples[0][1]
            checks.check(not factory.can_thumbnail(jpeg).fields["can"], "without the entry, can_thumbnail of a JPEG")
            answer = factory.generate(jpeg, "large")
            checks.check(not answer.ok, "without Thumbs' entry, the factory still made a thumbnail of a JPEG")
    except FactoryTimeoutError as timeout:
        checks.check(False, f"the factory hung: {timeout}")
    except FactoryEndedError as ended:
        checks.check(False, str(ended))
    if checks.failures:
        sys.exit(f"thumbs: GNOME's factory: {len(checks.failures)} check(s) failed (above); work folder {work}")
    shutil.rmtree(work)
    print(
        f"thumbs: ok: GNOME's factory made every sample's thumbnail through {thumbnailer} in its sandbox, "
        f"and failed on the truncated files"
    )


if __name__ == "__main__":
    main()
