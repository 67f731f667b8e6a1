"""Thumbs against the thumbnailers Debian ships, each as GNOME's thumbnail factory runs it.

A file manager that meets a file without a thumbnail asks the factory's generate_thumbnail,
which starts the thumbnailer an installed `.thumbnailer` entry names, in a bwrap sandbox, and
reads the PNG it wrote. Here one factory process sees only Thumbs' entry (its Exec naming the
thumbs-thumbnailer installed beside THUMBS), and one per Debian thumbnailer sees only that
thumbnailer's entry, copied from /usr/share/thumbnailers: gdk-pixbuf-thumbnailer for JPEG and
PNG, heif-thumbnailer for HEIC and AVIF, ffmpegthumbnailer for MP4 and MOV. DNG and CRW have no
Debian thumbnailer: Thumbs is measured alone.

Per type, the files of SHARED's manifests of that type that decode (up to --files, spread over
the sorted list), the DNG scripts/make-test-dng.py writes (with a phone's JPEG as its preview),
and a 16×16 PNG of one colour (whose time is the sandbox's and the thumbnailer's start-up, also
measured with `cp` as the thumbnailer: the factory and its sandbox alone);
each file at the normal (128) and large (256) sizes, --rounds times, the tools taking turns
(figures.alternation); the time is the factory call's wall time, in the factory's process. A
file's figure is the median of its rounds; a type's is the median of its files' figures, over
the files every tool of the type thumbnailed. Run by scripts/bench-thumbnailer, with Debian's
/usr/bin/python3 (the one python3-gi is for):

    python3 -m thumbs_tools.bench.thumbnailer THUMBS ENTRY SHARED DATA [--rounds N] [--files N]
        [--dng-python PYTHON] [--markdown FILE] [--json FILE]
"""

from __future__ import annotations

import argparse
import struct
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from ..desktop_factory import SIZES, FactoryClient, entry_naming, thumbnailer_beside, thumbnailer_folder
from ..figures import alternation, median, ratio, times
from ..report import load_average, machine_info, markdown_table, write_json
from ..runner import wait_for_quiet, warm_page_cache

SYSTEM_THUMBNAILERS = Path("/usr/share/thumbnailers")
# A one-colour PNG measures what every file pays: the sandbox and the thumbnailer's start-up;
# `cp` of it as its own thumbnail, what the factory and its sandbox cost with no thumbnailer.
TINY_SIDE = 16
TINY = f"PNG {TINY_SIDE}×{TINY_SIDE} (start-up)"
FLOOR = "cp %i %o (the sandbox alone)"
FLOOR_ENTRY = "[Thumbnailer Entry]\nExec=/usr/bin/cp %i %o\nMimeType=image/png;\n"

# The speed-up over Debian's thumbnailer each type is to reach: a photo's at least as fast as
# gdk-pixbuf's or heif's (a HEIC's half again), a video's twice as fast as ffmpegthumbnailer's.
GOALS = {"JPEG": 1.0, "PNG": 1.0, "HEIC": 1.5, "AVIF": 1.0, "MP4": 2.0, "MOV": 2.0, TINY: 1.0}
DEFAULT_GOAL = 2.0


def goal_of(type_name: str) -> float:
    """The speed-up `type_name`'s files are to reach."""
    return GOALS.get(type_name, DEFAULT_GOAL)


def verdict(speedup: float | None, goal: float) -> str:
    """A row's goal cell: whether `speedup` reaches `goal`, and the goal."""
    return f"{'met' if speedup is not None and speedup >= goal else 'MISSED'} ({goal:g}×)"


@dataclass(frozen=True)
class FileType:
    """A type of file, how SHARED's manifests name it, and Debian's thumbnailer for it."""

    name: str
    manifest: str  # photos or media
    content_type: str  # the manifest's content_type
    extensions: tuple[str, ...]  # as Gio names the type by (lower case)
    decodes: str  # the manifest's field that says whether the file decodes
    debian: str | None  # the .thumbnailer file of /usr/share/thumbnailers, if any


TYPES = [
    FileType("JPEG", "photos", "JPEG", (".jpg", ".jpeg"), "decode", "gdk-pixbuf-thumbnailer.thumbnailer"),
    FileType("PNG", "photos", "PNG", (".png",), "decode", "gdk-pixbuf-thumbnailer.thumbnailer"),
    FileType("HEIC", "photos", "HEIC", (".heic", ".heif"), "decode", "heif.thumbnailer"),
    FileType("AVIF", "photos", "AVIF", (".avif",), "decode", "heif.thumbnailer"),
    FileType("MP4", "media", "MP4", (".mp4",), "ffmpeg_decode", "ffmpegthumbnailer.thumbnailer"),
    FileType("MOV", "media", "MOV", (".mov",), "ffmpeg_decode", "ffmpegthumbnailer.thumbnailer"),
    FileType("CRW", "media", "CRW", (".crw",), "libraw_decode", None),
]


def manifest_files(manifest: str, file_type: FileType) -> list[str]:
    """The relative paths of a MANIFEST.tsv's files of `file_type` that decode: named by one of
    its extensions, outside broken/, and marked as decoding (ok, or ok with warnings)."""
    paths = []
    for line in manifest.splitlines()[1:]:
        columns = line.split("\t")
        if len(columns) < 7:
            continue
        path, notes = columns[0], columns[6]
        fields: dict[str, str] = {}
        for part in notes.split("; "):
            key, _, value = part.partition("=")
            fields[key] = value
        if (
            fields.get("content_type", "").split(" ")[0] == file_type.content_type
            and path.lower().endswith(file_type.extensions)
            and not path.startswith("broken/")
            and fields.get(file_type.decodes, "").startswith("ok")
        ):
            paths.append(path)
    return sorted(paths)


def tiny_png(side: int, rgb: tuple[int, int, int] = (200, 100, 50)) -> bytes:
    """A side×side PNG of one colour: what a thumbnailer takes no time to decode, so that its
    time through the factory is the sandbox's and the thumbnailer's start-up."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)  # 8-bit RGB
    rows = b"".join(b"\0" + bytes(rgb) * side for _ in range(side))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def spread(items: Sequence[str], count: int) -> list[str]:
    """At most `count` of `items`, evenly spread over them (all when there are no more)."""
    if len(items) <= count:
        return list(items)
    return [items[index * len(items) // count] for index in range(count)]


def type_figure(per_file: Mapping[str, Sequence[float]], files: Sequence[str]) -> float | None:
    """The median over `files` of each file's median time; None when no file is left."""
    figures = [median(per_file[file]) for file in files if per_file.get(file)]
    return median(figures) if figures else None


def milliseconds(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


def peers_of(type_names: Sequence[str]) -> dict[str, list[str]]:
    """The entries each type is measured with besides Thumbs'."""
    peers: dict[str, list[str]] = {name: [] for name in type_names}
    for file_type in TYPES:
        if file_type.debian:
            peers[file_type.name].append(file_type.debian)
    peers[TINY] = ["gdk-pixbuf-thumbnailer.thumbnailer", FLOOR]
    return peers


def chosen_files(arguments: argparse.Namespace, work: Path) -> dict[str, list[Path]]:
    """The files of each type: SHARED's, the DNG made here (with --dng-python), the tiny PNG."""
    files: dict[str, list[Path]] = {}
    for file_type in TYPES:
        manifest = (arguments.shared / file_type.manifest / "MANIFEST.tsv").read_text()
        chosen = spread(manifest_files(manifest, file_type), arguments.files)
        files[file_type.name] = [arguments.shared / file_type.manifest / path for path in chosen]
    if arguments.dng_python:
        dng = work / "phone.dng"
        script = Path(__file__).resolve().parents[2] / "make-test-dng.py"
        phone_jpeg = arguments.shared / "photos/phone/Xiaomi_Mi_9T.jpg"
        command = [arguments.dng_python, str(script), str(dng), "--raw", "1600x1200", "--preview", "160x120:rgb"]
        subprocess.run([*command, "--preview-jpeg", str(phone_jpeg)], check=True, stdout=subprocess.DEVNULL)
        files["DNG"] = [dng]
    tiny = work / "tiny.png"
    tiny.write_bytes(tiny_png(TINY_SIDE))
    files[TINY] = [tiny]
    return files


# seconds[tool][type][size][file]: the factory call's wall time, one per round
Timings = dict[str, dict[str, dict[str, dict[str, list[float]]]]]


def measure(
    factories: Mapping[str, FactoryClient], files: Mapping[str, list[Path]], rounds: int
) -> tuple[Timings, dict[str, list[str]]]:
    """Every file of every type at both sizes through Thumbs' factory and its peers', the tools
    taking turns, `rounds` times; the timings and each tool's failures (of the first round)."""
    seconds: Timings = {tool: {} for tool in factories}
    failures: dict[str, list[str]] = {tool: [] for tool in factories}
    peers = peers_of(list(files))
    for round_number in range(1, rounds + 1):
        wait_for_quiet()
        print(f"round {round_number} of {rounds} (load {load_average()})", file=sys.stderr)
        for type_name, paths in files.items():
            for path in paths:
                for size in SIZES:
                    for tool in alternation(["Thumbs", *peers[type_name]], round_number):
                        answer = factories[tool].generate(path, size)
                        if answer.ok:
                            by_size = seconds[tool].setdefault(type_name, {}).setdefault(size, {})
                            by_size.setdefault(str(path), []).append(float(answer.fields["seconds"]))
                        elif round_number == 1:
                            failures[tool].append(f"{path.name} ({size}): {answer.error}")
    return seconds, failures


def table_rows(seconds: Timings, files: Mapping[str, list[Path]]) -> list[list[object]]:
    """A row per type, size and peer (one per type and size without a peer): the medians over
    the files every tool of the type thumbnailed, and Thumbs' speed-up."""
    rows: list[list[object]] = []
    for type_name, peers in peers_of(list(files)).items():
        for size, side in SIZES.items():
            tools = ["Thumbs", *peers]
            per_tool = {tool: seconds[tool].get(type_name, {}).get(size, {}) for tool in tools}
            made_by_all = [str(p) for p in files[type_name] if all(str(p) in per_tool[tool] for tool in tools)]
            thumbs = type_figure(per_tool["Thumbs"], made_by_all)
            compared: list[str | None] = [*peers] if peers else [None]
            for peer in compared:
                theirs = type_figure(per_tool[peer], made_by_all) if peer else None
                speedup = ratio(theirs, thumbs) if theirs is not None and thumbs else None
                judged = peer is not None and peer != FLOOR and speedup is not None
                rows.append(
                    [
                        type_name,
                        f"{size} ({side})",
                        len(made_by_all),
                        milliseconds(thumbs),
                        peer.removesuffix(".thumbnailer") if peer else "none in Debian",
                        milliseconds(theirs),
                        times(speedup),
                        verdict(speedup, goal_of(type_name)) if judged else "-",
                    ]
                )
    return rows


def main() -> None:
    """Measures every type, prints the table (and writes it with --markdown)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("thumbs", help="the installed thumbs, under /usr")
    parser.add_argument("entry", help="the installed thumbs.thumbnailer")
    parser.add_argument("shared", type=Path)
    parser.add_argument("data", type=Path, help="a new folder below /usr, for the XDG data folders")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--files", type=int, default=8, help="files per type, at most")
    parser.add_argument("--dng-python", help="a Python with what scripts/make-test-dng.py needs")
    parser.add_argument("--markdown")
    parser.add_argument("--json")
    arguments = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-thumbnailer-"))
    files = chosen_files(arguments, work)
    warm_page_cache(path for paths in files.values() for path in paths)

    thumbnailer = thumbnailer_beside(arguments.thumbs)
    entries = {"Thumbs": entry_naming(Path(arguments.entry).read_text(), thumbnailer), FLOOR: FLOOR_ENTRY}
    for file_type in TYPES:
        if file_type.debian:
            entries[file_type.debian] = (SYSTEM_THUMBNAILERS / file_type.debian).read_text()
    with ExitStack() as stack:
        factories = {
            tool: stack.enter_context(
                FactoryClient(
                    thumbnailer_folder(arguments.data / str(index), {"bench.thumbnailer": entry}), work / str(index)
                )
            )
            for index, (tool, entry) in enumerate(entries.items())
        }
        seconds, failures = measure(factories, files, arguments.rounds)

    headers = ["type", "size", "files", "Thumbs ms/file", "Debian's thumbnailer", "its ms/file", "Thumbs' speed-up"]
    table = markdown_table([*headers, "goal"], table_rows(seconds, files), ["l", "l", "r", "r", "l", "r", "r", "l"])
    print(table)
    for tool, failed in failures.items():
        for line in failed:
            print(f"{tool} failed on {line}", file=sys.stderr)
    if arguments.markdown:
        Path(arguments.markdown).write_text(table + "\n")
    if arguments.json:
        report = {"machine": machine_info(), "rounds": arguments.rounds, "seconds": seconds, "failures": failures}
        write_json(arguments.json, report)


if __name__ == "__main__":
    main()
