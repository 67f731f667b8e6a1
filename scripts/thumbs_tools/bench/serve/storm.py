"""The cold storm: every (asset, rendition) URL requested at once from a server with an empty
cache, each until it is answered."""

from __future__ import annotations

import http.client
import threading
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...jpeg import complete_jpeg_size
from ...runner import status_field
from .processes import RSSSampler
from .servers import ThumbsServer
from .settings import HOST

Outcome = dict[str, Any]


def storm(server: ThumbsServer, jobs: Sequence[tuple[str, tuple[int, int]]], timeout: float) -> dict[str, Any]:
    """Requests every (path, box) at once, one client thread each, retrying 503s after Retry-After."""
    threading.stack_size(256 * 1024)
    gate = threading.Event()
    deadline = time.monotonic() + timeout
    results: list[Outcome | None] = [None] * len(jobs)

    def fetch(index: int, path: str, limits: tuple[int, int]) -> None:
        gate.wait()
        started = time.monotonic()
        outcome: Outcome = {
            "path": path,
            "busy": 0,
            "connection_errors": 0,
            "status": None,
            "valid": False,
            "oversize": False,
        }
        conn: http.client.HTTPConnection | None = None
        while time.monotonic() < deadline:
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, server.port, timeout=max(1.0, deadline - time.monotonic()))
                conn.request("GET", path)
                response = conn.getresponse()
                body = response.read()
            except (OSError, http.client.HTTPException):
                outcome["connection_errors"] += 1
                if conn is not None:
                    conn.close()
                conn = None
                time.sleep(1.0)
                continue
            if response.status == 503:
                outcome["busy"] += 1
                try:
                    wait = float(response.getheader("Retry-After") or 1)
                except ValueError:
                    wait = 1.0
                time.sleep(wait)
                continue
            outcome["status"] = response.status
            kind = response.getheader("Content-Type")
            size = complete_jpeg_size(body) if kind == "image/jpeg" else None
            outcome["valid"] = size is not None
            # A valid image, but not of the rendition the URL names.
            outcome["oversize"] = bool(size and (size[0] > limits[0] or size[1] > limits[1]))
            if response.status == 200 and (not size or outcome["oversize"]):
                outcome["why"] = f"{path}: {kind}, {len(body)} bytes, {size} for a {limits} box"
            break
        if conn is not None:
            conn.close()
        outcome["seconds"] = time.monotonic() - started
        results[index] = outcome

    threads = [
        threading.Thread(target=fetch, args=(i, path, limits), daemon=True) for i, (path, limits) in enumerate(jobs)
    ]
    for thread in threads:
        thread.start()
    sampler = RSSSampler(server.pid, 0.25)
    sampler.start()
    started = time.monotonic()
    gate.set()
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()) + 5)
    wall = time.monotonic() - started
    sampler.stop()
    done = [r for r in results if r is not None]
    samples = sampler.samples
    return {
        **tally(done, len(jobs)),
        "seconds": wall,
        # VmHWM catches a peak between two samples; the samples are what is left if it died.
        "peak_rss": status_field(server.pid, "VmHWM") or max((s[1] for s in samples), default=0),
        "peak_sampled_rss": max((s[1] for s in samples), default=0),
        "peak_sampled_anon": max((s[2] for s in samples), default=0),
        "rss_after": status_field(server.pid, "VmRSS"),
        "alive": server.alive(),
    }


def tally(done: Sequence[Outcome], urls: int) -> dict[str, Any]:
    """The storm's counts from the outcomes of its URLs (those whose thread ended)."""
    return {
        "urls": urls,
        "ok": sum(1 for r in done if r["status"] == 200 and r["valid"]),
        "statuses": dict(Counter(r["status"] for r in done)),
        "invalid": sum(1 for r in done if r["status"] == 200 and not r["valid"]),
        "oversize": sum(1 for r in done if r["status"] == 200 and r["oversize"]),
        "oversize_by_rendition": dict(Counter(r["path"].rsplit("/", 1)[1] for r in done if r.get("oversize"))),
        "examples": [r["why"] for r in done if "why" in r][:5],
        "unfinished": urls - sum(1 for r in done if r["status"] is not None),
        "busy_answers": sum(r["busy"] for r in done),
        "retried_urls": sum(1 for r in done if r["busy"]),
        "max_busy": max((r["busy"] for r in done), default=0),
        "connection_errors": sum(r["connection_errors"] for r in done),
        "slowest": max((r["seconds"] for r in done), default=0.0),
    }
