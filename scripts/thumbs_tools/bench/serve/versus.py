"""Cached hits of two builds of `thumbs serve`, alternated (bench-serve's `--against`).

The library is warmed once (by `--thumbs`); then, ROUNDS times, each build serves that cache in
turn (the order swapped every round, so that neither always runs first on a machine whose load
drifts): started, a short wrk run to fill its memory tier, then wrk over every grid URL for
DURATION seconds, then stopped. Each build's median requests/s, p50 and p99, and the median of
the rounds' ratios (`--thumbs` ÷ `--against`), are reported.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ...figures import median
from ...runner import wait_for_quiet
from .client import Client
from .phases import warm
from .processes import Processes
from .servers import ThumbsServer, build_library, list_assets, write_config
from .settings import RENDITIONS, log
from .wrk import LUA_CYCLE, lua_strings, run_wrk


def versus(args: argparse.Namespace, processes: Processes, tmp: Path) -> dict[str, Any]:
    """The figures of both builds, by round and in median."""
    builds = {"thumbs": str(Path(args.thumbs).resolve()), "against": str(Path(args.against).resolve())}
    library, cache, config = tmp / "library", tmp / "cache", tmp / "config.json"
    photos, copies, origin = build_library(builds["thumbs"], library, args.copies)
    write_config(config, RENDITIONS)
    warm(builds["thumbs"], library, cache, config)
    server = ThumbsServer(processes, builds["thumbs"], library, cache, config, tmp / "list.log")
    client = Client(server.port)
    assets, _ = list_assets(client)
    paths = [f"/thumbnails/{asset['id']}/grid" for asset in assets]
    paths = [path for path in paths if client.get(path)[0] == 200]
    client.close()
    processes.stop(server.proc)
    script = tmp / "cycle.lua"
    script.write_text(LUA_CYCLE % {"paths": lua_strings(paths)})
    log(f"{len(paths)} grid URLs answered 200; {args.rounds} rounds of {args.duration} s per build")

    runs: dict[str, list[dict[str, Any]]] = {"thumbs": [], "against": []}
    for round_number in range(args.rounds):
        order = ["thumbs", "against"] if round_number % 2 == 0 else ["against", "thumbs"]
        for name in order:
            server = ThumbsServer(processes, builds[name], library, cache, config, tmp / f"{name}.log")
            run_wrk(server.port, script, 3, args.threads, args.connections, server.pid)
            wait_for_quiet(timeout=60)
            result = run_wrk(server.port, script, args.duration, args.threads, args.connections, server.pid)
            result.pop("output")
            runs[name].append(result)
            log(
                f"round {round_number + 1}, {name}: {result['rate']:,.0f} requests/s, "
                f"p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, other {result['other_share']:.0%}"
            )
            processes.stop(server.proc)
    summary: dict[str, Any] = {"builds": builds, "paths": len(paths), "library": [photos, copies, origin]}
    for name, results in runs.items():
        summary[name] = {key: median([r[key] for r in results]) for key in ("rate", "p50_ms", "p99_ms")}
        summary[name]["rates"] = [r["rate"] for r in results]
        summary[name]["errors"] = sum(r["non_2xx_3xx"] + sum(r["socket_errors"].values()) for r in results)
    summary["ratio"] = summary["thumbs"]["rate"] / summary["against"]["rate"]
    summary["round_ratios"] = [a["rate"] / b["rate"] for a, b in zip(runs["thumbs"], runs["against"], strict=True)]
    return summary


def versus_report(data: dict[str, Any]) -> str:
    """The comparison as a few lines of text."""
    lines = [f"cached hits over {data['paths']} grid URLs, {len(data['round_ratios'])} rounds, alternated:"]
    for name in ("thumbs", "against"):
        figures = data[name]
        rates = ", ".join(f"{rate:,.0f}" for rate in figures["rates"])
        lines.append(
            f"  {name} ({data['builds'][name]}): {figures['rate']:,.0f} requests/s (by round {rates}), "
            f"p50 {figures['p50_ms']:.2f} ms, p99 {figures['p99_ms']:.2f} ms, errors {figures['errors']}"
        )
    ratios = ", ".join(f"{ratio:.3f}" for ratio in data["round_ratios"])
    lines.append(
        f"  thumbs ÷ against: {data['ratio']:.3f} (median of the rounds' ratios "
        f"{median(data['round_ratios']):.3f}; by round {ratios})"
    )
    return "\n".join(lines)
