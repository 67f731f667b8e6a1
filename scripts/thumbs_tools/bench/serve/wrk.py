"""wrk, the HTTP load generator: the Lua scripts bench-serve gives it, running it, and reading
its report."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...runner import children_cpu_seconds, cores, machine_busy_seconds, noise_share, own_cpu_seconds, tree_cpu_seconds
from .settings import HOST

LUA_CYCLE = """-- Cycles over every grid thumbnail URL; each thread starts at its own offset so that the
-- threads do not ask for the same thumbnail at the same moment.
local paths = {
%(paths)s
}
local requests, position, threads = {}, 0, 0

function setup(thread)
  thread:set("first", threads * math.floor(#paths / 2))
  threads = threads + 1
end

function init(args)
  for i, path in ipairs(paths) do requests[i] = wrk.format("GET", path) end
  position = first or 0
end

function request()
  position = position %% #requests + 1
  return requests[position]
end
"""

LUA_MIXED = """-- Requests by kind in the order of `plan`, each kind cycling over its list. Counts statuses
-- per thread; done() prints them.
local lists = {
  grid = {
%(grid)s
  },
  other = {
%(other)s
  },
  immutable = {
%(immutable)s
  },
  revalidate = {
%(revalidate)s
  },
  page = {
%(pages)s
  },
  miss = {
%(misses)s
  },
}
local plan = {%(plan)s}
local requests, positions, step, threads = {}, {}, 0, {}
statuses = {}

function setup(thread)
  thread:set("first", #threads * 97)
  table.insert(threads, thread)
end

function init(args)
  for kind, list in pairs(lists) do
    requests[kind] = {}
    for i, entry in ipairs(list) do
      local headers = nil
      if entry[2] then headers = {["If-None-Match"] = entry[2]} end
      requests[kind][i] = wrk.format("GET", entry[1], headers)
    end
    positions[kind] = (first or 0) %% #list
  end
end

function request()
  step = step %% #plan + 1
  local kind = plan[step]
  positions[kind] = positions[kind] %% #requests[kind] + 1
  return requests[kind][positions[kind]]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
  end
  for status, count in pairs(total) do io.write(string.format("status %%d %%d\\n", status, count)) end
end
"""


# The cached side of the mixed run, 20 requests: 11 grid hits, 1 small and 1 medium hit, 2 preview
# hits with ?v= (immutable URLs), 4 revalidations (304), 1 listing page.
MIXED_PLAN: list[str] = [
    "grid",
    "revalidate",
    "grid",
    "immutable",
    "grid",
    "other",
    "revalidate",
    "grid",
    "page",
    "grid",
    "revalidate",
    "grid",
    "grid",
    "other",
    "immutable",
    "grid",
    "revalidate",
    "grid",
    "grid",
    "grid",
]


def lua_strings(items: Iterable[str]) -> str:
    """Lua string literals, one a line, for a table of LUA_CYCLE."""
    return ",\n".join("    " + json.dumps(item) for item in items)


def lua_entries(entries: Iterable[tuple[str, str | None]]) -> str:
    """`{path, etag-or-nil}` rows for LUA_MIXED."""
    return ",\n".join(
        "    {" + json.dumps(path) + (", " + json.dumps(etag) if etag else "") + "}" for path, etag in entries
    )


class WrkError(ValueError):
    """wrk's report lacks a figure it always prints."""


def _search(pattern: str, output: str, flags: int = 0) -> re.Match[str]:
    match = re.search(pattern, output, flags)
    if match is None:
        raise WrkError(f"no {pattern!r} in wrk's report: {output[:300]!r}")
    return match


def parse_duration_ms(text: str) -> float:
    """A duration as wrk prints it (850.00us, 1.20ms, 2.00s, 1.00m) in milliseconds."""
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if match is None:
        raise WrkError(f"not a duration: {text!r}")
    value, unit = match.groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def parse_wrk(output: str) -> dict[str, Any]:
    """The figures of wrk's report (with --latency, and a script's `status N COUNT` lines):
    rate, requests, p50/p75/p90/p99 in ms, non-2xx/3xx answers, socket errors, statuses."""
    result: dict[str, Any] = {"rate": float(_search(r"Requests/sec:\s+([\d.]+)", output).group(1))}
    result["requests"] = int(_search(r"(\d+) requests in ([\d.]+)(\w+)", output).group(1))
    for percent in ("50", "75", "90", "99"):
        match = re.search(rf"^\s+{percent}%\s+(\S+)", output, re.M)
        result[f"p{percent}_ms"] = parse_duration_ms(match.group(1)) if match else None
    match = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    result["non_2xx_3xx"] = int(match.group(1)) if match else 0
    match = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    kinds = ("connect", "read", "write", "timeout")
    result["socket_errors"] = dict(zip(kinds, map(int, match.groups()), strict=True)) if match else {}
    result["statuses"] = {int(s): int(n) for s, n in re.findall(r"^status (\d+) (\d+)$", output, re.M)}
    match = re.search(r"Transfer/sec:\s+([\d.]+)(\w+)", output)
    result["transfer"] = match.group(1) + match.group(2) if match else ""
    return result


def wrk_command(port: int, script: Path, seconds: int, threads: int, connections: int, timeout: str) -> list[str]:
    """wrk with `script` against the server on `port`, with latency percentiles."""
    return [
        *("wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"),
        *("--timeout", timeout, "-s", str(script), f"http://{HOST}:{port}/"),
    ]


def run_wrk(
    port: int, script: Path, seconds: int, threads: int, connections: int, server_pid: int, timeout: str = "5s"
) -> dict[str, Any]:
    """One wrk run; returns parse_wrk's figures plus the CPU each side used (cores)."""
    cmd = wrk_command(port, script, seconds, threads, connections, timeout)
    busy_before, server_before = machine_busy_seconds(), tree_cpu_seconds(server_pid)
    wrk_before, own_before = children_cpu_seconds(), own_cpu_seconds()
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr.strip()}")
    result = parse_wrk(done.stdout)
    server = tree_cpu_seconds(server_pid) - server_before
    wrk = children_cpu_seconds() - wrk_before
    own = own_cpu_seconds() - own_before
    other = machine_busy_seconds() - busy_before - server - wrk - own
    result.update(
        server_cores=server / wall,
        wrk_cores=wrk / wall,
        other_share=noise_share(other, wall, cores()),
        output=done.stdout,
    )
    return result
