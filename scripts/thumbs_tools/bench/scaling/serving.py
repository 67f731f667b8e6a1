"""`thumbs serve` on a generated library: how long it takes to answer, what memory it holds
then, and how long the first page of each of its lists takes, and weighs.

The server gets a port of the system's choice and says which in its `listening` event (`--json`
on a pipe, read as it comes); from its start to a `/healthz` answered 200 is its start-up. It does
not warm on start (the cache is warm already, and a background warm would share the cores with
the requests measured).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ... import runner
from ...figures import median
from ..serve.client import Client
from ..serve.processes import Processes
from . import library
from .commands import Setup

START_TIMEOUT = 1800  # seconds a server may take to answer /healthz: a million photos are many
REQUESTS = 5  # of each list, for a median
PAGE = 200  # the `limit` asked of the lists that take one (the server's default page)
RETRY = 0.01  # seconds between two connection attempts to a server that announced itself


@dataclass(frozen=True)
class Page:
    """The first page of one list, asked REQUESTS times on one connection."""

    name: str
    path: str
    items: int  # what the answer lists: assets, albums, moments
    bytes: int
    walls: list[float]
    limit_honoured: bool | None  # whether `limit=1` gave one item at most; None: not asked

    @property
    def median_s(self) -> float:
        return median(self.walls)

    def json(self) -> dict[str, Any]:
        return {
            "list": self.name,
            "path": self.path,
            "items": self.items,
            "bytes": self.bytes,
            "walls": self.walls,
            "median_s": self.median_s,
            "limit_honoured": self.limit_honoured,
        }


def listening_port(line: str) -> int | None:
    """The port of a `{"event": "listening", "address": "HOST:PORT"}` line, else None."""
    try:
        event = json.loads(line)
    except ValueError:
        return None
    if not isinstance(event, dict) or event.get("event") != "listening":
        return None
    return int(str(event["address"]).rsplit(":", 1)[1])


def items_of(document: object) -> int:
    """How many things a list's answer holds: its `assets`, `albums` or `moments`."""
    if isinstance(document, dict):
        for key in ("assets", "albums", "moments"):
            if isinstance(document.get(key), list):
                return len(document[key])
    raise ValueError(f"not a list's answer: {json.dumps(document)[:200]}")


def list_paths(albums: dict[str, Any], burst_asset: str | None, photos: int) -> tuple[list[tuple[str, str]], list[str]]:
    """The lists to measure as (name, path with PAGE where it takes a limit), and notes on those
    that cannot be: an album's assets are those of the moved folder's album (1 % of the library)."""
    paths = [
        ("/api/assets", f"/api/assets?limit={PAGE}"),
        ("/api/albums", f"/api/albums?limit={PAGE}"),
        ("/api/moments", f"/api/moments?limit={PAGE}"),
    ]
    notes = []
    folder = library.moved_folder(photos).name
    album = next((a for a in albums["albums"] if a["kind"] == "folder" and a["title"] == folder), None)
    if album is None:
        notes.append(f"no album of the folder {folder}: its assets not measured")
    else:
        quoted = urllib.parse.quote(album["id"], safe="")
        paths.append((f"/api/albums/{{id}}/assets ({folder})", f"/api/albums/{quoted}/assets?limit={PAGE}"))
    if burst_asset is None:
        notes.append("the library holds no burst: /api/assets/{id}/burst not measured")
    else:
        paths.append(("/api/assets/{id}/burst", f"/api/assets/{burst_asset}/burst?limit={PAGE}"))
    return paths, notes


def with_limit(path: str, limit: int) -> str:
    """`path` asking `limit` items instead of the one it asks."""
    base, _, query = path.partition("?")
    kept = [p for p in query.split("&") if p and not p.startswith("limit=")]
    return base + "?" + "&".join([*kept, f"limit={limit}"])


class Server:
    """`thumbs serve` started now, in a session of its own, its stdout read as it comes."""

    def __init__(self, setup: Setup, processes: Processes) -> None:
        self.processes = processes
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop)
        self.started = time.perf_counter()
        command = [*setup.thumbs_command("serve"), "--listen", "127.0.0.1:0", "--json"]
        self.proc = processes.start(command, stdout=subprocess.PIPE, stderr=self.errors)
        self.pid = self.proc.pid
        self.exit_notice: int | None = None
        self.drainer: threading.Thread | None = None
        with contextlib.suppress(OSError):
            self.exit_notice = os.pidfd_open(self.pid)

    def wait_until_ready(self, timeout: float = START_TIMEOUT) -> float:
        """Seconds from the start until /healthz answered 200; RuntimeError if it ends first."""
        deadline = time.monotonic() + timeout
        port = self._wait_for_port(deadline)
        self.client = Client(port, timeout=timeout)
        while time.monotonic() < deadline:
            try:
                status, _, _ = self.client.get("/healthz")
                if status == 200:
                    return time.perf_counter() - self.started
            except OSError:
                pass
            if self._ended_within(RETRY):
                break
        raise RuntimeError(f"thumbs serve did not answer /healthz: {self.stderr_tail()}")

    def _wait_for_port(self, deadline: float) -> int:
        """The port of the `listening` event, read from the server's stdout as it comes."""
        assert self.proc.stdout is not None
        out = self.proc.stdout.fileno()
        watched = select.poll()
        watched.register(out, select.POLLIN | select.POLLHUP)
        pending = b""
        while (left := deadline - time.monotonic()) > 0:
            if not watched.poll(left * 1000):
                continue
            chunk = os.read(out, 1 << 16)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if (port := listening_port(line.decode(errors="replace"))) is not None:
                    self._drain(out)
                    return port
        raise RuntimeError(f"thumbs serve did not say it listens: {self.stderr_tail()}")

    def _drain(self, descriptor: int) -> None:
        """Reads what else the server prints, until it ends, so that it never blocks on a full pipe."""

        def drain() -> None:
            with contextlib.suppress(OSError):
                while os.read(descriptor, 1 << 16):
                    pass

        self.drainer = threading.Thread(target=drain, daemon=True)
        self.drainer.start()

    def _ended_within(self, seconds: float) -> bool:
        """Waits up to `seconds` for the server to end (its pidfd); whether it has."""
        if self.exit_notice is not None:
            watched = select.poll()
            watched.register(self.exit_notice, select.POLLIN)
            watched.poll(seconds * 1000)
        else:
            time.sleep(seconds)
        return self.proc.poll() is not None

    def stderr_tail(self) -> str:
        """The end of what the server printed on stderr."""
        self.errors.seek(0)
        return self.errors.read().decode(errors="replace").strip()[-600:]

    def memory(self, field: str) -> int:
        """A field of the server's /proc/PID/status in bytes (RssAnon, VmHWM)."""
        value = runner.status_field(self.pid, field)
        if value is None:
            raise RuntimeError(f"thumbs serve ended: {self.stderr_tail()}")
        return value

    def page(self, name: str, path: str) -> Page:
        """The first page at `path`, REQUESTS times, and whether `limit=1` is honoured."""
        walls, body = [], b""
        for _ in range(REQUESTS):
            start = time.perf_counter()
            status, _, body = self.client.get(path)
            walls.append(time.perf_counter() - start)
            if status != 200:
                raise RuntimeError(f"GET {path}: {status} {body[:200]!r}")
        honoured = None
        if "limit=" in path:
            honoured = items_of(self.client.json(with_limit(path, 1))) <= 1
        return Page(name, path, items_of(json.loads(body)), len(body), walls, honoured)

    def stop(self) -> None:
        """Stops the server (its process group) and closes what was opened for it."""
        if hasattr(self, "client"):
            self.client.close()
        self.processes.stop(self.proc)
        if self.drainer is not None:
            self.drainer.join()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        if self.exit_notice is not None:
            os.close(self.exit_notice)
        self.errors.close()


@contextlib.contextmanager
def serving(setup: Setup) -> Iterator[Server]:
    """A started server, stopped however the block ends."""
    processes = Processes()
    server = Server(setup, processes)
    try:
        yield server
    finally:
        server.stop()


def measure(setup: Setup, photos: int) -> dict[str, Any]:
    """The server's start-up, memory and first pages on the library of `photos` photos."""
    runner.wait_for_quiet(timeout=setup.wait_quiet)
    with serving(setup) as server:
        ready_s = server.wait_until_ready()
        anon_ready = server.memory("RssAnon")
        albums = server.client.json("/api/albums")
        burst_asset = None
        bursts = next((a for a in albums["albums"] if a.get("subtype") == "smartAlbumBursts"), None)
        if bursts is not None:
            quoted = urllib.parse.quote(bursts["id"], safe="")
            frames = server.client.json(f"/api/albums/{quoted}/assets?limit=1")["assets"]
            burst_asset = frames[0]["id"] if frames else None
        paths, notes = list_paths(albums, burst_asset, photos)
        pages = [server.page(name, path) for name, path in paths]
        return {
            "ready_s": ready_s,
            "rss_anon_ready": anon_ready,
            "rss_anon_after_lists": server.memory("RssAnon"),
            "vm_hwm": server.memory("VmHWM"),
            "pages": [p.json() for p in pages],
            "notes": notes,
        }
