"""The files the sweep mutates: generated at run time, and a sample of ../shared when present.

A seed is named `gen:KIND` (made here with libvips' `vips`, `ffmpeg` or scripts/make-test-dng.py,
with fixed parameters, so a recipe names the same bytes on the same tool versions) or
`shared:FOLDER/PATH` (a file of ../shared/photos or ../shared/media, never copied into the
repository). Seeds are made when first asked for, once per run.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# Every photo, video and RAW extension found in the shared folders is sampled (its smallest
# file), plus the clip whose first 400 bytes once killed the process.
SHARED_ALWAYS = ("media/video/flower.mp4",)
SHARED_SKIPPED_SUFFIXES = {".md", ".tsv", ".txt", ".rst", ".thm", ".xmp"}
SHARED_MAX_BYTES = 4 << 20

FFMPEG = ["ffmpeg", "-nostdin", "-v", "error", "-y"]
# Deterministic output: no encoder version or creation time in the file, one thread.
BITEXACT = [
    "-fflags",
    "+bitexact",
    "-flags:v",
    "+bitexact",
    "-flags:a",
    "+bitexact",
    "-map_metadata",
    "-1",
    "-threads",
    "1",
]
CLIP = ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10:duration=1"]
SILENCE = ["-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-shortest"]
H264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "5"]


class SeedError(Exception):
    pass


@dataclass(frozen=True)
class Seed:
    name: str
    path: Path


def exif_app1(orientation: int) -> bytes:
    """An APP1 segment with EXIF: IFD0's Orientation, and an Exif IFD with DateTimeOriginal."""

    def entry(tag: int, kind: int, count: int, value: bytes) -> bytes:
        return tag.to_bytes(2, "little") + kind.to_bytes(2, "little") + count.to_bytes(4, "little") + value

    ifd0 = (2).to_bytes(2, "little") + entry(274, 3, 1, orientation.to_bytes(2, "little") + b"\0\0")
    ifd0 += entry(34665, 4, 1, (38).to_bytes(4, "little")) + bytes(4)
    exif = (1).to_bytes(2, "little") + entry(36867, 2, 20, (56).to_bytes(4, "little")) + bytes(4)
    tiff = b"II*\x00" + (8).to_bytes(4, "little") + ifd0 + exif + b"2024:05:06 07:08:09\x00"
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + (len(body) + 2).to_bytes(2, "big") + body


class Seeds:
    def __init__(self, folder: Path, shared: Path | None, python: str | None, say: Callable[[str], None]) -> None:
        self.folder = folder
        self.shared = shared
        self.python = python
        self.say = say
        self.made: dict[str, Seed | None] = {}
        self.generators: dict[str, tuple[str, Callable[[Path], None]]] = {
            "jpeg-baseline": ("jpg", lambda out: self._jpeg(out, "", 6)),
            "jpeg-progressive": ("jpg", lambda out: self._jpeg(out, ",interlace", 3)),
            "png": ("png", lambda out: self._vips("source-640.png", out, "")),
            "png-interlaced": ("png", lambda out: self._vips("source-640-alpha.png", out, "[interlace]")),
            "png-palette": ("png", lambda out: self._vips("source-640.png", out, "[palette]")),
            "webp": ("webp", lambda out: self._vips("source-640.png", out, "[Q=75]")),
            "webp-lossless": ("webp", lambda out: self._vips("source-640-alpha.png", out, "[lossless]")),
            "heic": ("heic", lambda out: self._vips("source-640.png", out, "[compression=hevc]")),
            "avif": ("avif", lambda out: self._vips("source-640.png", out, "[compression=av1]")),
            "tiff": ("tif", lambda out: self._vips("source-640.png", out, "[compression=lzw]")),
            "tiff-tiled": ("tif", lambda out: self._vips("source-1200.png", out, "[compression=jpeg,tile]")),
            "gif": ("gif", lambda out: self._vips("source-640.png", out, "")),
            "mp4": ("mp4", lambda out: self._ffmpeg(out, [*CLIP, *SILENCE, *H264, "-c:a", "aac"])),
            "mp4-faststart": ("mp4", lambda out: self._ffmpeg(out, [*CLIP, *H264, "-movflags", "+faststart"])),
            "mov-rotated": ("mov", lambda out: self._ffmpeg(out, [*CLIP, *H264, "-metadata:s:v:0", "rotate=90"])),
            "mkv": ("mkv", lambda out: self._ffmpeg(out, [*CLIP, *SILENCE, *H264, "-c:a", "libopus"])),
            "webm": (
                "webm",
                lambda out: self._ffmpeg(out, [*CLIP, "-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "200k"]),
            ),
            "dng": ("dng", self._dng),
            "jxl": ("jxl", lambda out: self._vips("source-640.png", out, "[Q=75]")),
            "avif-sequence": (
                "avif",
                lambda out: self._ffmpeg(out, [*CLIP, "-c:v", "libaom-av1", "-cpu-used", "8", "-pix_fmt", "yuv420p"]),
            ),
            # Only for recipes: 100000 x 1000 RGBA, exactly at the default pixelLimit, a few
            # hundred KB that once took 927 MB to render.
            "png-wide": (
                "png",
                lambda out: self._run(["vips", "black", f"{out}[compression=9]", "100000", "1000", "--bands", "4"]),
            ),
        }
        self.regular = [name for name in self.generators if name != "png-wide"]

    def pool(self) -> list[str]:
        """The seeds batches are drawn from: every regular generated one, and the sample of
        the shared folders."""
        return [f"gen:{name}" for name in self.regular] + [f"shared:{path}" for path in self.shared_sample()]

    def shared_sample(self) -> list[str]:
        if self.shared is None:
            return []
        smallest: dict[str, Path] = {}

        def rank(path: Path) -> tuple[bool, int]:  # intact files first, then the smallest
            return "broken" in path.parts, path.stat().st_size

        for folder in ("photos", "media"):
            root = self.shared / folder
            if not root.is_dir():
                continue
            for path in sorted(root.rglob("*")):
                suffix = path.suffix.lower()
                if (
                    not path.is_file()
                    or suffix in SHARED_SKIPPED_SUFFIXES
                    or "LICENSES" in path.parts
                    or not suffix
                    or not 0 < path.stat().st_size <= SHARED_MAX_BYTES
                ):
                    continue
                if suffix not in smallest or rank(path) < rank(smallest[suffix]):
                    smallest[suffix] = path
        chosen = {str(p.relative_to(self.shared)) for p in smallest.values()}
        chosen |= {p for p in SHARED_ALWAYS if (self.shared / p).is_file()}
        return sorted(chosen)

    def get(self, name: str) -> Seed:
        """The seed, made if need be; SeedError says why it cannot be had."""
        if name not in self.made:
            try:
                self.made[name] = self._make(name)
            except SeedError as error:
                self.made[name] = None
                self.say(f"seed {name} is unavailable: {error}")
        seed = self.made[name]
        if seed is None:
            raise SeedError(f"seed {name} is unavailable")
        return seed

    def _make(self, name: str) -> Seed:
        kind, _, rest = name.partition(":")
        if kind == "shared":
            if self.shared is None or not (self.shared / rest).is_file():
                raise SeedError(f"{rest} is not in the shared folders")
            return Seed(name, self.shared / rest)
        if kind != "gen" or rest not in self.generators:
            raise SeedError(f"no such seed (gen:{', gen:'.join(self.generators)} or shared:PATH)")
        extension, generate = self.generators[rest]
        out = self.folder / f"{rest}.{extension}"
        generate(out)
        if not out.is_file() or out.stat().st_size == 0:
            raise SeedError(f"{out} was not written")
        return Seed(name, out)

    # Generators --------------------------------------------------------------------------------

    def _run(self, argv: list[str]) -> None:
        try:
            result = subprocess.run(argv, cwd=self.folder, capture_output=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise SeedError(f"{argv[0]}: {error}") from error
        if result.returncode != 0:
            raise SeedError(f"{' '.join(argv)}: {result.stderr.decode(errors='replace').strip()[-300:]}")

    def _source(self, name: str) -> Path:
        """A colourful picture (ffmpeg's testsrc2), the start of every generated photo."""
        path = self.folder / name
        if not path.exists():
            width = 1200 if "1200" in name else 640
            height = width * 3 // 4
            plain = self.folder / f"source-{width}.png"
            if not plain.exists():
                self._run(
                    [
                        *FFMPEG,
                        "-f",
                        "lavfi",
                        "-i",
                        f"testsrc2=size={width}x{height}",
                        "-frames:v",
                        "1",
                        "-pix_fmt",
                        "rgb24",
                        *BITEXACT,
                        str(plain),
                    ]
                )
            if "alpha" in name:
                self._run(["vips", "bandjoin_const", str(plain), str(path), "200"])
        return path

    def _vips(self, source: str, out: Path, options: str) -> None:
        self._run(["vips", "copy", str(self._source(source)), f"{out}{options}"])

    def _jpeg(self, out: Path, options: str, orientation: int) -> None:
        plain = out.with_suffix(".plain.jpg")
        self._run(["vips", "copy", str(self._source("source-1200.png")), f"{plain}[Q=85{options}]"])
        data = plain.read_bytes()
        out.write_bytes(data[:2] + exif_app1(orientation) + data[2:])
        plain.unlink()

    def _ffmpeg(self, out: Path, arguments: list[str]) -> None:
        self._run([*FFMPEG, *arguments, *BITEXACT, str(out)])

    def _dng(self, out: Path) -> None:
        if self.python is None:
            raise SeedError("no Python with numpy and tifffile (scripts/test-media-tools sets one up)")
        script = Path(__file__).resolve().parents[1] / "make-test-dng.py"
        self._run(
            [
                self.python,
                str(script),
                str(out),
                "--raw",
                "320x240",
                "--preview",
                "160x120:rgb",
                "--preview",
                "640x480:jpeg",
                "--orientation",
                "6",
            ]
        )
