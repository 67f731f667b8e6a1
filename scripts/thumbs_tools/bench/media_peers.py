"""The tools bench-media compares on videos and camera RAW files: `thumbs warm`, and peers of
one shell command per file run by xargs -P."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from .. import events
from ..jpeg import jpeg_size
from ..report import write_json
from ..runner import Result, parallel_shell_commands

SIZE = 256
BOX = f"{SIZE}x{SIZE}>"  # vipsthumbnail: inside 256x256, never enlarged (Thumbs' "fit")
VIPS_OUT = "[Q=80,strip]"  # Thumbs' rendition: JPEG quality 80, no metadata

Command = tuple[list[str], dict[str, str]]
# (files with a thumbnail, how many others, what failed, thumbnails smaller than SIZE)
Counts = tuple[int, int, list[str], int]
# A peer's shell command of one file: (its path, the name the command gets, the output folder)
Make = Callable[[Path, Path, Path], str]
Output = Callable[[Path, Path, Path], Path | None]


def shell(*args: object) -> str:
    """A shell command line of `args`, each quoted."""
    return shlex.join(str(a) for a in args)


class Tool(Protocol):
    """A tool compared: its label, the kinds of file it runs on, how it runs and counts."""

    label: str
    kinds: tuple[str, ...]
    thumbnail: bool  # whether what it makes is a thumbnail (not only an extracted preview)

    def command(self, folder: Path, files: Sequence[Path], out: Path) -> Command:
        """The command and extra environment of one run."""
        ...

    def count(self, result: Result, files: Sequence[Path], out: Path) -> Counts:
        """What the run made."""
        ...


class Thumbs:
    """`thumbs warm` into a new, empty cache."""

    label = "thumbs"
    kinds: tuple[str, ...] = ("videos", "raw")
    thumbnail = True

    def __init__(self, binary: Path, work: Path) -> None:
        self.binary, self.config = binary, work / "thumbs.json"
        # A budget no run reaches: the default (2 GiB) could make a long run evict.
        rendition = {"name": f"s{SIZE}", "size": f"{SIZE}x{SIZE}", "mode": "fit", "format": "jpeg", "quality": 80}
        write_json(self.config, {"renditions": [rendition], "workers": 0, "cache": {"budget": "1000 GiB"}})

    def command(self, folder: Path, files: Sequence[Path], out: Path) -> Command:
        command = [str(self.binary), "warm", str(folder), "--config", str(self.config)]
        return [*command, "--cache", str(out / "cache"), "--quiet", "--json"], {}

    def count(self, result: Result, files: Sequence[Path], out: Path) -> Counts:
        """From the summary; exit status 1 only says that some failed."""
        summary = events.warm_summary(result.stdout) if result.returncode in (0, 1) else None
        if summary is None:  # a crash: every file counts as failed
            code = result.returncode
            how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
            return 0, len(files), [f"thumbs {how}, see stderr_head in the JSON"], 0
        return summary.rendered, summary.failed, summary.failure_kinds(), 0


def default_output(path: Path, link: Path, out: Path) -> Path:
    """out/STEM.jpg, where most peers write."""
    return out / f"{path.stem}.jpg"


class Peer:
    """A peer: one shell command per file, `make(path, link, out)`, all run by xargs -P.

    With `scratch`, the command writes next to its input (dcraw's `-e`): it gets, as `link`, a
    hard link in a folder of the run's own, made before the timing; otherwise `link` is `path`.
    `output(path, link, out)` is the file the command should leave: out/STEM.jpg by default.
    """

    def __init__(
        self,
        label: str,
        kind: str,
        make: Make,
        env: dict[str, str] | None = None,
        scratch: bool = False,
        output: Output = default_output,
        thumbnail: bool = True,
    ) -> None:
        self.label, self.make, self.env = label, make, env or {}
        self.kinds: tuple[str, ...] = (kind,)
        self.scratch, self.thumbnail, self.output = scratch, thumbnail, output

    def link(self, path: Path, out: Path) -> Path:
        """The name the command gets for `path`."""
        return out / "in" / path.name if self.scratch else path

    def command(self, folder: Path, files: Sequence[Path], out: Path) -> Command:
        if self.scratch:
            (out / "in").mkdir()
            for path in files:
                os.link(path, self.link(path, out))
        commands = [self.make(path, self.link(path, out), out) for path in files]
        return parallel_shell_commands(commands, out / "items", exec_each=False), self.env

    def count(self, result: Result, files: Sequence[Path], out: Path) -> Counts:
        ok, missing, small = 0, [], 0
        for path in files:
            made = self.output(path, self.link(path, out), out)
            if not made or not made.is_file():
                missing.append(path.name)
                continue
            ok += 1
            size = jpeg_size(made.read_bytes()) if self.thumbnail else None
            small += bool(size and max(size) < SIZE)
        return ok, len(missing), missing, small


def peers(env: dict[str, str]) -> list[Tool]:
    """The peers; `env`: the environment of vipsthumbnail. dcraw_emu only if it has -e."""

    def vips(path: Path, out: Path) -> str:  # vipsthumbnail's options after its input
        return shell("-s", BOX, "-o", f"{out}/{path.stem}.jpg{VIPS_OUT}")

    def ffmpegthumbnailer(p: Path, link: Path, out: Path) -> str:
        return shell("ffmpegthumbnailer", "-i", p, "-o", out / f"{p.stem}.jpg", "-s", SIZE, "-q", 8)

    # exiftool prints whichever of the two tags the file has (DNG: PreviewImage; CRW only
    # JpgFromRaw), one after the other if both exist: none of these files has both.
    def exiftool(p: Path, link: Path, out: Path) -> str:
        return shell("exiftool", "-b", "-PreviewImage", "-JpgFromRaw", p) + " | vipsthumbnail stdin " + vips(p, out)

    def extract_then_shrink(binary: str) -> Make:  # IN.thumb.jpg or .ppm: the shell's glob finds it
        return lambda p, link, out: (
            f"{shell(binary, '-e', link)} && vipsthumbnail {shlex.quote(str(link))}.thumb.* " + vips(p, out)
        )

    def extracted(p: Path, link: Path, out: Path) -> Path | None:
        return next(link.parent.glob(f"{link.name}.thumb.*"), None)

    found: list[Tool] = [Peer("ffmpegthumbnailer", "videos", ffmpegthumbnailer)]
    found.append(Peer("exiftool → vipsthumbnail", "raw", exiftool, env))
    for binary in ("simple_dcraw", "dcraw_emu"):
        if has_option(binary, "-e"):
            found.append(Peer(f"{binary} -e → vipsthumbnail", "raw", extract_then_shrink(binary), env, True))
    found.append(
        Peer(
            "simple_dcraw -e alone (extraction only, NO thumbnail)",
            "raw",
            lambda p, link, out: shell("simple_dcraw", "-e", link),
            scratch=True,
            output=extracted,
            thumbnail=False,
        )
    )
    return found


def has_option(binary: str, option: str) -> bool:
    """Whether `binary`'s usage text (printed when run without arguments) lists `option`."""
    done = subprocess.run([binary], capture_output=True, text=True)
    return re.search(rf"^\s*{re.escape(option)}\s", done.stdout + done.stderr, re.M) is not None
