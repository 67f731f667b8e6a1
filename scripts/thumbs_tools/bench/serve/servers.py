"""What bench-serve serves: the library, the configurations, `thumbs serve` and nginx."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import time
import urllib.parse
from pathlib import Path
from typing import Any

from ..photo_peers import manifest_selection
from .client import Client, free_port, wait_for_port
from .processes import Processes
from .settings import HOST, MIN_STORM, PHOTOS, RENDITIONS, Rendition, log


def build_library(thumbs: str, root: Path, copies_wanted: int | None) -> tuple[int, int, str]:
    """Copies of the photos under root/copyN/...; returns (photo count per copy, copies, source)."""
    if (PHOTOS / "MANIFEST.tsv").exists():
        source, relatives = PHOTOS, manifest_selection(PHOTOS, "mixed")
        origin = "../shared/photos"
    else:
        log("../shared/photos not found: using a generated library (thumbs sample-library)")
        source = root.parent / "sample"
        subprocess.run([thumbs, "sample-library", str(source)], check=True, stdout=subprocess.DEVNULL)
        relatives = sorted(
            str(p.relative_to(source))
            for p in source.rglob("*")
            if p.is_file() and not str(p.relative_to(source)).startswith("broken/")
        )
        origin = "generated (thumbs sample-library)"
    needed = math.ceil(MIN_STORM / (len(relatives) * len(RENDITIONS)))
    copies = max(copies_wanted or needed, needed)
    for copy in range(1, copies + 1):
        for relative in relatives:
            target = root / f"copy{copy}" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, target)
    return len(relatives), copies, origin


def write_config(path: Path, renditions: list[Rendition]) -> None:
    """A configuration serving `renditions` from a cache that does not warm on start."""
    config = {"renditions": renditions, "cache": {"budget": "4 GiB"}, "serve": {"warmOnStart": False}}
    path.write_text(json.dumps(config, indent=2) + "\n")


class ThumbsServer:
    """`thumbs serve` on a port the system chose, its output in a file."""

    def __init__(
        self, processes: Processes, thumbs: str, library: Path, cache: Path, config: Path, output: Path
    ) -> None:
        self.output = output
        with open(output, "w") as out:
            self.proc = processes.start(
                [
                    thumbs,
                    "serve",
                    str(library),
                    "--cache",
                    str(cache),
                    "--config",
                    str(config),
                    "--listen",
                    f"{HOST}:0",
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 300
        while True:
            port = listening_port(output.read_text())
            if port is not None:
                self.port = port
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"thumbs serve did not start:\n{self.log_tail()}")
            time.sleep(0.05)
        self.pid = self.proc.pid

    def alive(self) -> bool:
        """Whether the server still runs."""
        return self.proc.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        """The last lines the server printed."""
        return "\n".join(self.output.read_text(errors="replace").splitlines()[-lines:])

    def tiers(self) -> dict[str, float]:
        """Thumbnails answered so far by tier, from /metrics."""
        client = Client(self.port)
        try:
            _, _, body = client.get("/metrics")
        finally:
            client.close()
        return tiers_of_metrics(body.decode())


def listening_port(output: str) -> int | None:
    """The port of `thumbs serve`'s "listening on http://HOST:PORT/" line, once it printed it."""
    match = re.search(r"listening on http://[^:]+:(\d+)/", output)
    return int(match.group(1)) if match else None


def tiers_of_metrics(metrics: str) -> dict[str, float]:
    """thumbs_thumbnails_total by tier, from the text of /metrics."""
    pattern = r'thumbs_thumbnails_total\{tier="(\w+)"\} ([\d.e+]+)'
    return {tier: float(count) for tier, count in re.findall(pattern, metrics)}


def nginx_config(prefix: Path, root: Path, port: int) -> str:
    """nginx's configuration serving the files of `root` on `port`."""
    # Temporary folders only for the modules this nginx was built with (nginx-light has fewer).
    version = subprocess.run(["nginx", "-V"], capture_output=True, text=True).stderr
    temps = "\n".join(
        f"    {name.replace('-', '_')}_temp_path {prefix}/tmp/{name};"
        for name in re.findall(r"--http-([a-z-]+)-temp-path", version)
    )
    return f"""# Static files as fast as this nginx serves them: the peer of `thumbs serve`'s cached hits.
worker_processes auto;
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    # wrk's connections stay open for the whole run, as they do with thumbs (no request limit).
    keepalive_requests 100000000;
    open_file_cache max=10000 inactive=60s;
    open_file_cache_valid 60s;
    default_type image/jpeg;
{temps}
    server {{
        listen {HOST}:{port};
        root {root};
    }}
}}
"""


def start_nginx(processes: Processes, prefix: Path, root: Path) -> tuple[subprocess.Popen[Any], int]:
    """nginx serving `root`, once it listens: (its process, its port)."""
    port = free_port()
    (prefix / "tmp").mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_config(prefix, root, port))
    with open(prefix / "stderr.log", "w") as stderr:
        proc = processes.start(
            ["nginx", "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    wait_for_port(port, proc)
    return proc, port


def list_assets(client: Client, limit: int = 50) -> tuple[list[dict[str, Any]], list[str]]:
    """Every asset of the listing, and the paths of its pages."""
    assets: list[dict[str, Any]] = []
    pages: list[str] = []
    cursor = None
    while True:
        path = f"/api/assets?limit={limit}" + (f"&cursor={urllib.parse.quote(cursor, safe='')}" if cursor else "")
        page = client.json(path)
        pages.append(path)
        assets += page["assets"]
        cursor = page.get("nextCursor")
        if not cursor:
            return assets, pages
