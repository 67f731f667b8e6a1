"""GNOME's thumbnail factory as a file manager uses it, with the thumbnailers a caller chooses.

`thumbnailer_folder` makes an XDG data folder that holds only the given `.thumbnailer` entries,
and links to the system's MIME database and GSettings schemas (which Gio and the factory read
from the same XDG data folders); `FactoryClient` runs the factory
(`desktop_factory_worker`, in Debian's /usr/bin/python3) with that folder as the only one, so
that the factory sees those thumbnailers and no other. Every answer is awaited with a time limit:
a factory call that hangs is killed and reported, never waited for.

The rest is the arithmetic the GNOME test and the benchmark share: thumbnailer entries (read, and
rewritten to name a program), the size a thumbnail should have, and which of the eight EXIF
orientations turns one picture's grid into another's.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ENTRY_GROUP = "[Thumbnailer Entry]"
# The folders of the system's data that the factory and Gio need besides thumbnailers: the MIME
# database (content types) and the compiled GSettings schemas (org.gnome.desktop.thumbnailers).
SYSTEM_DATA = Path("/usr/share")
LINKED_DATA = ("mime", "glib-2.0")
SIZES = {"normal": 128, "large": 256}

Grid = list[list[int]]  # GRID×GRID cells of [R, G, B], row by row


def entry_keys(text: str) -> dict[str, str]:
    """The keys of a `.thumbnailer` file's [Thumbnailer Entry] group."""
    keys: dict[str, str] = {}
    in_group = False
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            in_group = line == ENTRY_GROUP
        elif in_group and "=" in line:
            key, value = line.split("=", 1)
            keys[key.strip()] = value.strip()
    return keys


def thumbnailer_beside(thumbs: str) -> str:
    """The desktop's thumbnailer installed beside the thumbs command `thumbs`."""
    return str(Path(thumbs).with_name("thumbs-thumbnailer"))


def entry_naming(text: str, program: str, extra_arguments: Sequence[str] = ()) -> str:
    """The entry `text` with TryExec and Exec's program replaced by `program` (an absolute path),
    and `extra_arguments` right after it."""
    lines = []
    for line in text.splitlines():
        if line.startswith("TryExec="):
            line = f"TryExec={program}"
        elif line.startswith("Exec="):
            words = line.removeprefix("Exec=").split()
            words = [program, *extra_arguments, *words[1:]]
            line = "Exec=" + " ".join(words)
        lines.append(line)
    return "\n".join(lines) + "\n"


def thumbnailer_folder(root: Path, entries: Mapping[str, str]) -> Path:
    """Makes `root` an XDG data folder with only `entries` (file name: contents) as thumbnailers,
    and the system's MIME database and schemas; returns it.

    The thumbnailers inherit XDG_DATA_DIRS in their sandbox, which shows /usr and not much else:
    `root` must be below /usr for them to find the MIME database through it (gdk-pixbuf's loaders
    are chosen by content type)."""
    (root / "thumbnailers").mkdir(parents=True)
    for name, text in entries.items():
        (root / "thumbnailers" / name).write_text(text)
    for name in LINKED_DATA:
        (root / name).symlink_to(SYSTEM_DATA / name)
    return root


def fitted_size(width: int, height: int, size: int) -> tuple[int, int]:
    """The size of a thumbnail of a width×height picture within size×size, never enlarged."""
    longest = max(width, height)
    if longest <= size:
        return width, height
    if width >= height:
        return size, max(1, round(height * size / width))
    return max(1, round(width * size / height)), size


def sizes_agree(actual: tuple[int, int], expected: tuple[int, int], slack: int = 1) -> bool:
    """Whether two sizes are the same but for rounding (`slack` pixels on either side)."""
    return all(abs(a - e) <= slack for a, e in zip(actual, expected, strict=True))


def oriented(grid: Grid, orientation: int, side: int) -> Grid:
    """`grid` (side×side cells) as EXIF `orientation` shows a picture stored as it: 1 as it is,
    2 mirrored, 3 turned half way, 4 flipped, 5 transposed, 6 turned clockwise, 7 transversed,
    8 turned anticlockwise."""

    def at(row: int, column: int) -> list[int]:
        return grid[row * side + column]

    last = side - 1
    sources: dict[int, Callable[[int, int], list[int]]] = {
        1: at,
        2: lambda r, c: at(r, last - c),
        3: lambda r, c: at(last - r, last - c),
        4: lambda r, c: at(last - r, c),
        5: lambda r, c: at(c, r),
        6: lambda r, c: at(last - c, r),
        7: lambda r, c: at(last - c, last - r),
        8: lambda r, c: at(c, last - r),
    }
    source = sources[orientation]
    return [source(row, column) for row in range(side) for column in range(side)]


def grid_distance(first: Grid, second: Grid) -> float:
    """The mean absolute difference of two grids, per channel (0-255)."""
    total = sum(
        abs(a - b) for cell_a, cell_b in zip(first, second, strict=True) for a, b in zip(cell_a, cell_b, strict=True)
    )
    return total / (3 * len(first))


def closest_orientation(grid: Grid, reference: Grid, side: int) -> tuple[int, float]:
    """The EXIF orientation that turns `reference` into the picture closest to `grid`, and how
    close it is (`grid_distance`); 1 when `grid` shows the reference as it is."""
    distances = {o: grid_distance(oriented(reference, o, side), grid) for o in range(1, 9)}
    best = min(distances, key=lambda o: (distances[o], o))
    return best, distances[best]


def quadrant_colours(grid: Grid, side: int) -> list[str]:
    """The dominant colour of each quadrant (top left, top right, bottom left, bottom right):
    red, green, blue, white, or other."""
    half = side // 2
    names = []
    for top, left in [(0, 0), (0, half), (half, 0), (half, half)]:
        # The inner cells of the quadrant: its edges blend into the neighbours when scaled.
        cells = [grid[r * side + c] for r in range(top + 1, top + half - 1) for c in range(left + 1, left + half - 1)]
        mean = [sum(cell[channel] for cell in cells) / len(cells) for channel in range(3)]
        names.append(colour_name(mean))
    return names


def colour_name(rgb: Sequence[float]) -> str:
    """red, green, blue or white for a clearly saturated or light colour; other otherwise."""
    red, green, blue = rgb
    if min(rgb) > 200:
        return "white"
    for name, (main, others) in {"red": (red, (green, blue)), "green": (green, (red, blue))}.items():
        if main > 120 and max(others) < main / 2:
            return name
    if blue > 120 and max(red, green) < blue / 2:
        return "blue"
    return "other"


class FactoryTimeoutError(Exception):
    """The factory did not answer within the time limit (its process has been killed)."""


class FactoryEndedError(Exception):
    """The factory's process ended before it answered (its stderr says why: a missing package)."""


class FactoryFailedError(Exception):
    """A picture was asked of an answer that is the factory's failure (`Answer.error`)."""


@dataclass
class Answer:
    """The factory's answer to one request, and what its process wrote on stderr meanwhile.

    A failed answer (`ok` false) has only `error`: its `size` and `grid` raise
    `FactoryFailedError` with that error, so a caller that did not look at `ok` first learns
    what failed rather than which key is missing."""

    fields: dict[str, Any]
    log: str = ""

    @property
    def ok(self) -> bool:
        return bool(self.fields.get("ok"))

    @property
    def error(self) -> str:
        """The factory's failure, or "" for an answer that succeeded."""
        return "" if self.ok else str(self.fields.get("error", "no error given"))

    @property
    def size(self) -> tuple[int, int]:
        self._require_picture()
        return int(self.fields["width"]), int(self.fields["height"])

    @property
    def grid(self) -> Grid:
        self._require_picture()
        return [list(cell) for cell in self.fields["grid"]]

    def _require_picture(self) -> None:
        if not self.ok:
            raise FactoryFailedError(self.error)


@dataclass
class FactoryClient:
    """A factory process that sees only the thumbnailers of `data_folder`.

    `work` holds its cache and home folders; `debug` has GnomeDesktop's debug messages written to
    its stderr, which each `Answer` carries (the thumbnailer's command line, and its stderr when
    it failed)."""

    data_folder: Path
    work: Path
    timeout: float = 60.0
    debug: bool = False
    python: str = "/usr/bin/python3"
    _process: subprocess.Popen[str] | None = field(default=None, init=False)
    _stderr: Any = field(default=None, init=False)

    def __enter__(self) -> FactoryClient:
        for name in ("cache", "home", "config"):
            (self.work / name).mkdir(parents=True, exist_ok=True)
        environment = dict(
            os.environ,
            XDG_DATA_DIRS=str(self.data_folder),
            XDG_DATA_HOME=str(self.work / "home"),
            XDG_CACHE_HOME=str(self.work / "cache"),
            XDG_CONFIG_HOME=str(self.work / "config"),
            PYTHONPATH=str(Path(__file__).resolve().parent.parent),
            PYTHONDONTWRITEBYTECODE="1",
        )
        environment.pop("G_MESSAGES_DEBUG", None)
        if self.debug:
            environment["G_MESSAGES_DEBUG"] = "GnomeDesktop"
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        self._process = subprocess.Popen(
            [self.python, "-m", "thumbs_tools.desktop_factory_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env=environment,
        )
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Ends the factory process."""
        if self._process is not None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            try:
                self._process.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def ask(self, request: Mapping[str, Any]) -> Answer:
        """Sends one request and waits for its answer, at most `timeout` seconds."""
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None, "not started"
        log_start = self._stderr.seek(0, os.SEEK_END)
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        deadline = time.monotonic() + self.timeout
        ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            process.kill()
            process.wait()
            self._process = None
            raise FactoryTimeoutError(f"no answer to {json.dumps(request)} within {self.timeout:.0f} s")
        line = process.stdout.readline()
        if not line:
            raise FactoryEndedError(f"the factory process ended ({process.wait()}): {self.log_since(0)[-2000:]}")
        return Answer(json.loads(line), self.log_since(log_start))

    def log_since(self, offset: int) -> str:
        """What the factory process wrote on stderr from `offset` on."""
        self._stderr.seek(offset)
        text: str = self._stderr.read()
        return text

    def generate(self, path: Path, size: str) -> Answer:
        """generate_thumbnail of `path` at `size` (normal or large)."""
        return self.ask({"generate": str(path), "size": size})

    def can_thumbnail(self, path: Path, size: str = "large") -> Answer:
        """can_thumbnail of `path` (`fields["can"]`, and the content type Gio gave it)."""
        return self.ask({"can_thumbnail": str(path), "size": size})

    def reference(self, path: Path) -> Answer:
        """`path` decoded by gdk-pixbuf in the factory's process, upright per its orientation tag."""
        return self.ask({"reference": str(path)})
