"""The phases of bench-serve: the warm, the export nginx serves, the cached hits, the mixed run."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import time
import urllib.parse
from pathlib import Path
from typing import Any

from ...figures import mb, median
from ...runner import status_field, wait_for_quiet
from .client import Client
from .processes import RSSSampler
from .servers import ThumbsServer
from .settings import EXTRAS, MISS_CONNECTIONS, log
from .wrk import LUA_CYCLE, LUA_MIXED, MIXED_PLAN, lua_entries, lua_strings, parse_wrk, run_wrk, wrk_command


def time_v_figures(stderr: str) -> tuple[int, float]:
    """(peak RSS in bytes, wall seconds) from what `/usr/bin/time -v` printed."""
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", stderr)
    if peak is None or clock is None:
        raise ValueError(f"not the output of /usr/bin/time -v: {stderr[-500:]!r}")
    seconds = sum(float(part) * 60**i for i, part in enumerate(reversed(clock.group(1).split(":"))))
    return int(peak.group(1)) * 1024, seconds


def warm(thumbs: str, library: Path, cache: Path, config: Path) -> dict[str, Any]:
    """`thumbs warm` of the library under /usr/bin/time -v: its peak RSS and seconds."""
    cmd = ["/usr/bin/time", "-v", thumbs, "warm", str(library), "--cache", str(cache), "--config", str(config)]
    log("warming: " + shlex.join(cmd[2:]))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"thumbs warm failed ({done.returncode}):\n{done.stderr[-2000:]}")
    peak, seconds = time_v_figures(done.stderr)
    return {"peak_rss": peak, "seconds": seconds, "output": done.stdout.strip()}


def export(
    server: ThumbsServer, assets: list[dict[str, Any]], root: Path
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Fetches every grid thumbnail into root at its URL path; returns what nginx will serve."""
    client = Client(server.port)
    exported: list[dict[str, Any]] = []
    failed: dict[str, int] = {}
    for asset in assets:
        path = f"/thumbnails/{asset['id']}/grid"
        status, headers, body = client.get(path)
        if status != 200:
            failed[asset["id"]] = status
            continue
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        exported.append(
            {"id": asset["id"], "version": asset["version"], "path": path, "etag": headers.get("etag"), "body": body}
        )
    client.close()
    return exported, failed


def same_bytes(port: int, exported: list[dict[str, Any]]) -> list[str]:
    """URLs whose body on `port` differs from the exported one (or is not a 200)."""
    client, different = Client(port), []
    for item in exported:
        status, _, body = client.get(item["path"])
        if status != 200 or body != item["body"]:
            different.append(item["path"])
    client.close()
    return different


def cached_hits(
    args: argparse.Namespace,
    tmp: Path,
    thumbs_server: ThumbsServer,
    nginx_pid: int,
    nginx_port: int,
    exported: list[dict[str, Any]],
) -> dict[str, Any]:
    """Cached hits on both servers, ROUNDS rounds of thumbs then nginx, then /healthz once."""
    script = tmp / "cycle.lua"
    script.write_text(LUA_CYCLE % {"paths": lua_strings(item["path"] for item in exported)})
    peers = [("thumbs", thumbs_server.port, thumbs_server.pid), ("nginx", nginx_port, nginx_pid)]
    # A short run of each first: the memory tier, nginx's open-file cache and the page cache
    # are filled before anything is measured.
    for _, port, pid in peers:
        run_wrk(port, script, 3, args.threads, args.connections, pid)
    runs: dict[str, list[dict[str, Any]]] = {"thumbs": [], "nginx": []}
    rss_before = status_field(thumbs_server.pid, "VmRSS")
    for round_number in range(1, args.rounds + 1):
        for name, port, pid in peers:
            wait_for_quiet(timeout=60)
            result = run_wrk(port, script, args.duration, args.threads, args.connections, pid)
            runs[name].append(result)
            log(
                f"cached hits, round {round_number}, {name}: {result['rate']:,.0f} requests/s, "
                f"p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, "
                f"server {result['server_cores']:.2f} cores, wrk {result['wrk_cores']:.2f} cores, "
                f"other {result['other_share']:.0%}"
            )
            if name == "thumbs" and not thumbs_server.alive():
                raise RuntimeError(f"thumbs serve died during the cached hits:\n{thumbs_server.log_tail()}")
    summary: dict[str, Any] = {}
    for name, results in runs.items():
        summary[name] = {
            key: median([r[key] for r in results])
            for key in ("rate", "p50_ms", "p75_ms", "p90_ms", "p99_ms", "server_cores", "wrk_cores")
        }
        summary[name]["errors"] = sum(r["non_2xx_3xx"] + sum(r["socket_errors"].values()) for r in results)
        summary[name]["rates"] = [r["rate"] for r in results]
        summary[name]["p99s"] = [r["p99_ms"] for r in results]
        summary[name]["other_share_max"] = max(r["other_share"] for r in results)
    # The cheapest route the server has, once: how much of a hit's cost is the HTTP stack's.
    health = tmp / "healthz.lua"
    health.write_text(
        'local r\nfunction init(args) r = wrk.format("GET", "/healthz") end\nfunction request() return r end\n'
    )
    wait_for_quiet(timeout=60)
    floor = run_wrk(thumbs_server.port, health, args.duration, args.threads, args.connections, thumbs_server.pid)
    floor.pop("output")
    summary["healthz"] = floor
    log(f"thumbs /healthz: {floor['rate']:,.0f} requests/s, p50 {floor['p50_ms']:.2f} ms, p99 {floor['p99_ms']:.2f} ms")
    summary["thumbs_rss_before"] = rss_before
    summary["thumbs_rss_after"] = status_field(thumbs_server.pid, "VmRSS")
    return summary


def mixed(
    args: argparse.Namespace,
    tmp: Path,
    server: ThumbsServer,
    exported: list[dict[str, Any]],
    assets: list[dict[str, Any]],
    pages: list[str],
) -> dict[str, Any]:
    """The mixed run: cached traffic and misses at once, with the server's RSS each second."""
    versions = {asset["id"]: asset["version"] for asset in assets}
    ids = [item["id"] for item in exported]
    lists = {
        "grid": lua_entries((item["path"], None) for item in exported),
        "other": lua_entries((f"/thumbnails/{i}/{name}", None) for i in ids for name in ("small", "medium")),
        "immutable": lua_entries((f"/thumbnails/{i}/preview?v={urllib.parse.quote(versions[i])}", None) for i in ids),
        "revalidate": lua_entries((item["path"], item["etag"]) for item in exported),
        "pages": lua_entries((page, None) for page in pages),
        "misses": lua_entries((f"/thumbnails/{i}/{extra['name']}", None) for extra in EXTRAS for i in ids),
    }
    cached_script, miss_script = tmp / "mixed.lua", tmp / "misses.lua"
    cached_script.write_text(LUA_MIXED % dict(lists, plan=", ".join(json.dumps(k) for k in MIXED_PLAN)))
    miss_script.write_text(LUA_MIXED % dict(lists, plan='"miss"'))
    tiers_before = server.tiers()
    sampler = RSSSampler(server.pid, 1.0)
    sampler.start()
    # The misses on connections of their own: a closed-loop client that mixed them into every
    # connection would soon have all its connections waiting for renders, and measure nothing
    # else. A miss waits for its render, so wrk's 2 s timeout would count a slow one as an error.
    misses = subprocess.Popen(
        wrk_command(server.port, miss_script, args.mixed_duration, 1, MISS_CONNECTIONS, "60s"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    connections = args.connections - MISS_CONNECTIONS
    result = run_wrk(server.port, cached_script, args.mixed_duration, args.threads, connections, server.pid, "30s")
    out, err = misses.communicate(timeout=120)
    if misses.returncode != 0:
        raise RuntimeError(f"wrk (misses) failed ({misses.returncode}): {err.strip()}")
    result["misses"] = parse_wrk(out)
    time.sleep(1.0)  # one more sample after the load
    sampler.stop()
    tiers_after = server.tiers()
    result["tiers"] = {tier: int(tiers_after.get(tier, 0) - tiers_before.get(tier, 0)) for tier in tiers_after}
    result.update(memory_profile(sampler.samples))
    result["alive"] = server.alive()
    result["errors"] = sum(r["non_2xx_3xx"] + sum(r["socket_errors"].values()) for r in (result, result["misses"]))
    log(
        f"mixed run: {result['requests']:,} cached-side requests, statuses {result['statuses']}; "
        f"{result['misses']['requests']:,} misses, statuses {result['misses']['statuses']}; errors {result['errors']}; "
        f"RSS {mb(result['rss_start']):.0f} → {mb(result['rss_end']):.0f} MB "
        f"(max {mb(result['rss_max']):.0f})"
    )
    return result


def memory_profile(samples: list[tuple[float, int, int]]) -> dict[str, Any]:
    """The RSS and anon RSS of a run from its samples (seconds, rss, anon), at least one: at the
    start, each quarter, the end, the largest, and the range of the last quarter."""
    rss = [s[1] for s in samples]
    # The last quarter alone: whether memory holds still once the load is steady.
    last = rss[len(rss) * 3 // 4 :]
    return {
        "rss_start": rss[0],
        "rss_end": rss[-1],
        "rss_max": max(rss),
        "rss_quarters": [rss[min(len(rss) - 1, len(rss) * q // 4)] for q in (1, 2, 3)],
        "rss_last_quarter": (min(last), max(last)),
        "anon_start": samples[0][2],
        "anon_end": samples[-1][2],
        "anon_max": max(s[2] for s in samples),
        "rss_samples": [(round(t, 1), r) for t, r, _ in samples],
    }
