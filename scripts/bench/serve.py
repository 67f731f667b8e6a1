#!/usr/bin/env python3
"""`thumbs serve` over HTTP on loopback: cached hits against nginx, a cold storm, a mixed run.

One run, in this order, on a library of real photos (../shared/photos without broken/, the
photos libvips decodes, copied COPIES times under other folders), or of generated ones when
../shared/photos is absent:

1. `thumbs warm` of the library with four renditions (grid 256x256 fill, small 128x128 fill,
   medium 512x512 fit, preview 1024x1024 fit) into a new cache, under `/usr/bin/time -v`: its
   "Maximum resident set size" is what the storm's memory is compared with.
2. `thumbs serve` on that cache (`warmOnStart: false`, port chosen by the system), and nginx
   (its own prefix and configuration: `worker_processes auto`, `access_log off`, sendfile,
   keep-alive, open_file_cache) serving a folder into which every grid thumbnail was
   exported from the server, at the same paths: both answer the same bytes at the same URLs
   (checked, URL by URL).
3. Cached hits: wrk (CONNECTIONS connections, THREADS threads, DURATION seconds, `--latency`)
   with a Lua script cycling over every grid URL, thumbs then nginx, ROUNDS times after a
   short warm-up of each; the median of the rounds is reported for each figure. Then one run
   of `/healthz`, the cheapest route the server has: the HTTP stack's share of a hit.
4. Mixed run: MIXED seconds against the same server. CONNECTIONS - 2 connections cycle over 20
   requests: 11 grid hits, 1 small and 1 medium hit, 2 preview hits with `?v=` (immutable
   URLs), 4 revalidations with the grid's ETag in If-None-Match (304), 1 listing page; 2 more
   connections ask, one after the other, for renditions that were not warmed (two fill sizes
   of every asset: each a real render). Counts the statuses of both and samples the server's
   RSS every second.
5. Cold storm: a new, empty cache, `thumbs serve` with the four renditions and
   `warmOnStart: false`, then every (asset, rendition) URL, at least 1,000, requested at once
   by as many client threads; a 503 (the render bound, `maxPendingRenders`) is retried after its
   Retry-After until each URL is answered 200 with a complete JPEG. An answer larger than its
   rendition's box is counted apart. The server's peak RSS (VmHWM) is compared with the warm's.

wrk and both servers share the machine's cores: the figures are those of one machine serving
itself, not of a server alone. Normally run through scripts/bench-serve, which installs nginx
and wrk and builds Thumbs.
"""

import argparse
import http.client
import json
import math
import os
import re
import resource
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

sys.dont_write_bytecode = True  # importing measure must leave no __pycache__ in the work tree
import measure  # noqa: E402
from compare_peers import manifest_selection  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PHOTOS = REPO.parent / "shared" / "photos"
HOST = "127.0.0.1"

# The storm's misses and the warm's work: four renditions of every photo.
RENDITIONS = [
    {"name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80},
    {"name": "small", "size": "128x128", "mode": "fill", "format": "jpeg", "quality": 80},
    {"name": "medium", "size": "512x512", "mode": "fit", "format": "jpeg", "quality": 82},
    {"name": "preview", "size": "1024x1024", "mode": "fit", "format": "jpeg", "quality": 85},
]
# Served, never warmed: the mixed run's misses (two per asset, so that they last the run). Fill
# renditions, because the server may answer a fit one with a larger cached fit rendition
# instead of rendering it.
EXTRAS = [
    {"name": "extra", "size": "320x320", "mode": "fill", "format": "jpeg", "quality": 80},
    {"name": "extra2", "size": "192x192", "mode": "fill", "format": "jpeg", "quality": 80},
]
MISS_CONNECTIONS = 2  # of the mixed run's connections, those that ask for misses only
MIN_STORM = 1000  # distinct cold (asset, rendition) requests the storm needs at least

# The targets the report checks.
TARGET_RATE = 0.7  # thumbs requests/s ÷ nginx's, cached hits
TARGET_P99_MS = 5.0  # thumbs p99 latency, cached hits
TARGET_RSS = 1.5  # storm peak RSS ÷ warm peak RSS


def log(text):
    print(f"bench-serve: {text}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Processes: every one started here is in a session of its own, stopped by its id at the end.

class Processes:
    def __init__(self):
        self.started = []

    def start(self, cmd, **kwargs):
        # A session of its own: Ctrl-C in the terminal reaches this script only, which then
        # stops each process in order (nginx's workers are in the master's group).
        proc = subprocess.Popen(cmd, start_new_session=True, **kwargs)
        self.started.append(proc)
        return proc

    def stop(self, proc, timeout=15):
        """Stops `proc` and its process group; returns its exit code (negative: a signal)."""
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
        return proc.returncode

    def stop_all(self):
        for proc in reversed(self.started):
            self.stop(proc)


def _exit_on_signal(signum, _frame):
    raise SystemExit(128 + signum)  # unwinds through the `finally` that cleans up


# ---------------------------------------------------------------------------------------------
# Memory and CPU of a running process (tree), from /proc.

def status_field(pid, field):
    """A field of /proc/PID/status in bytes (VmRSS, VmHWM, RssAnon), or None if it ended."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def tree_cpu_seconds(root):
    """User + system CPU seconds of `root` and its descendants so far."""
    ticks, pending = 0, [root]
    while pending:
        pid = pending.pop()
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (FileNotFoundError, ProcessLookupError):
            continue
        pending.extend(measure._list_children(pid))
    return ticks / os.sysconf("SC_CLK_TCK")


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class RSSSampler(threading.Thread):
    """Samples VmRSS and RssAnon of `pid` every `interval` seconds until stopped."""

    def __init__(self, pid, interval):
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.samples = []  # (seconds since start, rss, anon)
        self._halt = threading.Event()

    def run(self):
        start = time.monotonic()
        while not self._halt.is_set():
            rss, anon = status_field(self.pid, "VmRSS"), status_field(self.pid, "RssAnon")
            if rss is None:
                return
            self.samples.append((time.monotonic() - start, rss, anon))
            self._halt.wait(self.interval)

    def stop(self):
        self._halt.set()
        self.join()


# ---------------------------------------------------------------------------------------------
# HTTP helpers (keep-alive connections of the standard library).

class Client:
    def __init__(self, port, timeout=120):
        self.port, self.timeout = port, timeout
        self.conn = None

    def get(self, path, headers=None):
        """(status, header dict with lowercase names, body); reconnects once if needed."""
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            try:
                self.conn.request("GET", path, headers=headers or {})
                response = self.conn.getresponse()
                body = response.read()
                return response.status, {k.lower(): v for k, v in response.getheaders()}, body
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def json(self, path):
        status, _, body = self.get(path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body[:200]!r}")
        return json.loads(body)

    def close(self):
        if self.conn is not None:
            self.conn.close()


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def wait_for_port(port, proc, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"exited with status {proc.returncode} before listening")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


def jpeg_size(data):
    """(width, height) of a complete baseline or progressive JPEG, else None."""
    if len(data) < 4 or data[:2] != b"\xff\xd8" or data[-2:] != b"\xff\xd9":
        return None
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            height = int.from_bytes(data[i + 5:i + 7], "big")
            width = int.from_bytes(data[i + 7:i + 9], "big")
            return (width, height) if width and height else None
        i += 2 + length
    return None


def count_by(items):
    counts = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


def box(rendition):
    width, height = rendition["size"].split("x")
    return int(width), int(height)


# ---------------------------------------------------------------------------------------------
# wrk

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
MIXED_PLAN = ["grid", "revalidate", "grid", "immutable", "grid", "other", "revalidate", "grid",
              "page", "grid", "revalidate", "grid", "grid", "other", "immutable",
              "grid", "revalidate", "grid", "grid", "grid"]


def lua_strings(items):
    return ",\n".join("    " + json.dumps(item) for item in items)


def lua_entries(entries):
    """`{path, etag-or-nil}` rows for LUA_MIXED."""
    rows = []
    for path, etag in entries:
        rows.append("    {%s%s}" % (json.dumps(path), (", " + json.dumps(etag)) if etag else ""))
    return ",\n".join(rows)


def parse_duration_ms(text):
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def parse_wrk(output):
    result = {"rate": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))}
    match = re.search(r"(\d+) requests in ([\d.]+)(\w+)", output)
    result["requests"] = int(match.group(1))
    for percent in ("50", "75", "90", "99"):
        match = re.search(rf"^\s+{percent}%\s+(\S+)", output, re.M)
        result[f"p{percent}_ms"] = parse_duration_ms(match.group(1)) if match else None
    match = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    result["non_2xx_3xx"] = int(match.group(1)) if match else 0
    match = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    result["socket_errors"] = dict(zip(("connect", "read", "write", "timeout"),
                                       map(int, match.groups()))) if match else {}
    result["statuses"] = {int(s): int(n) for s, n in re.findall(r"^status (\d+) (\d+)$", output, re.M)}
    match = re.search(r"Transfer/sec:\s+([\d.]+)(\w+)", output)
    result["transfer"] = match.group(1) + match.group(2) if match else ""
    return result


def run_wrk(port, script, seconds, args, server_pid, timeout="5s"):
    """One wrk run; returns parse_wrk's figures plus the CPU each side used (cores)."""
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--latency",
           "--timeout", timeout, "-s", str(script), f"http://{HOST}:{port}/"]
    busy_before, server_before = measure._machine_busy_seconds(), tree_cpu_seconds(server_pid)
    wrk_before, own_before = children_cpu_seconds(), measure._own_cpu_seconds()
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed ({done.returncode}): {done.stderr.strip()}")
    result = parse_wrk(done.stdout)
    server = tree_cpu_seconds(server_pid) - server_before
    wrk = children_cpu_seconds() - wrk_before
    own = measure._own_cpu_seconds() - own_before
    other = max(0.0, measure._machine_busy_seconds() - busy_before - server - wrk - own
                - measure.CLOCK_SLACK)
    result.update(server_cores=server / wall, wrk_cores=wrk / wall,
                  other_share=other / (wall * os.cpu_count()), output=done.stdout)
    return result


# ---------------------------------------------------------------------------------------------
# The library, the configurations, the servers.

def build_library(thumbs, root, copies_wanted):
    """Copies of the photos under root/copyN/...; returns (photo count per copy, copies, source)."""
    if (PHOTOS / "MANIFEST.tsv").exists():
        source, relatives = PHOTOS, manifest_selection(PHOTOS, "mixed")
        origin = "../shared/photos"
    else:
        log("../shared/photos not found: using a generated library (thumbs sample-library)")
        source = root.parent / "sample"
        subprocess.run([thumbs, "sample-library", str(source)], check=True, stdout=subprocess.DEVNULL)
        relatives = sorted(str(p.relative_to(source)) for p in source.rglob("*")
                           if p.is_file() and not str(p.relative_to(source)).startswith("broken/"))
        origin = "generated (thumbs sample-library)"
    needed = math.ceil(MIN_STORM / (len(relatives) * len(RENDITIONS)))
    copies = max(copies_wanted or needed, needed)
    for copy in range(1, copies + 1):
        for relative in relatives:
            target = root / f"copy{copy}" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / relative, target)
    return len(relatives), copies, origin


def write_config(path, renditions):
    config = {"renditions": renditions, "cache": {"budget": "4 GiB"}, "serve": {"warmOnStart": False}}
    path.write_text(json.dumps(config, indent=2) + "\n")


class ThumbsServer:
    def __init__(self, processes, thumbs, library, cache, config, output):
        self.output = output
        with open(output, "w") as out:
            self.proc = processes.start(
                [thumbs, "serve", str(library), "--cache", str(cache), "--config", str(config),
                 "--listen", f"{HOST}:0"], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 300
        while True:
            match = re.search(r"listening on http://[^:]+:(\d+)/", output.read_text())
            if match:
                self.port = int(match.group(1))
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"thumbs serve did not start:\n{self.log_tail()}")
            time.sleep(0.05)
        self.pid = self.proc.pid

    def alive(self):
        return self.proc.poll() is None

    def log_tail(self, lines=20):
        return "\n".join(self.output.read_text(errors="replace").splitlines()[-lines:])

    def tiers(self):
        """Thumbnails answered so far by tier, from /metrics."""
        client = Client(self.port)
        try:
            _, _, body = client.get("/metrics")
        finally:
            client.close()
        return {tier: float(count) for tier, count in
                re.findall(r'thumbs_thumbnails_total\{tier="(\w+)"\} ([\d.e+]+)', body.decode())}


def nginx_config(prefix, root, port):
    # Temporary folders only for the modules this nginx was built with (nginx-light has fewer).
    version = subprocess.run(["nginx", "-V"], capture_output=True, text=True).stderr
    temps = "\n".join(f"    {name.replace('-', '_')}_temp_path {prefix}/tmp/{name};"
                      for name in re.findall(r"--http-([a-z-]+)-temp-path", version))
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


def start_nginx(processes, prefix, root):
    port = free_port()
    (prefix / "tmp").mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    conf.write_text(nginx_config(prefix, root, port))
    proc = processes.start(["nginx", "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")],
                           stdout=subprocess.DEVNULL, stderr=open(prefix / "stderr.log", "w"))
    wait_for_port(port, proc)
    return proc, port


def list_assets(client, limit=50):
    """Every asset of the listing, and the paths of its pages."""
    assets, pages, cursor = [], [], None
    while True:
        path = f"/api/assets?limit={limit}" + (f"&cursor={urllib.parse.quote(cursor, safe='')}" if cursor else "")
        page = client.json(path)
        pages.append(path)
        assets += page["assets"]
        cursor = page.get("nextCursor")
        if not cursor:
            return assets, pages


# ---------------------------------------------------------------------------------------------
# The phases.

def warm(thumbs, library, cache, config):
    cmd = ["/usr/bin/time", "-v", thumbs, "warm", str(library), "--cache", str(cache), "--config", str(config)]
    log("warming: " + shlex.join(cmd[2:]))
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"thumbs warm failed ({done.returncode}):\n{done.stderr[-2000:]}")
    peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1)) * 1024
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", done.stderr).group(1)
    seconds = sum(float(part) * 60 ** i for i, part in enumerate(reversed(clock.split(":"))))
    return {"peak_rss": peak, "seconds": seconds, "output": done.stdout.strip()}


def export(server, assets, root):
    """Fetches every grid thumbnail into root at its URL path; returns what nginx will serve."""
    client, exported, failed = Client(server.port), [], {}
    for asset in assets:
        path = f"/thumbnails/{asset['id']}/grid"
        status, headers, body = client.get(path)
        if status != 200:
            failed[asset["id"]] = status
            continue
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)
        exported.append({"id": asset["id"], "version": asset["version"], "path": path,
                         "etag": headers.get("etag"), "body": body})
    client.close()
    return exported, failed


def same_bytes(port, exported):
    """URLs whose body on `port` differs from the exported one (or is not a 200)."""
    client, different = Client(port), []
    for item in exported:
        status, _, body = client.get(item["path"])
        if status != 200 or body != item["body"]:
            different.append(item["path"])
    client.close()
    return different


def cached_hits(args, tmp, thumbs_server, nginx_proc, nginx_port, exported):
    script = tmp / "cycle.lua"
    script.write_text(LUA_CYCLE % {"paths": lua_strings(item["path"] for item in exported)})
    peers = [("thumbs", thumbs_server.port, thumbs_server.pid), ("nginx", nginx_port, nginx_proc.pid)]
    # A short run of each first: the memory tier, nginx's open-file cache and the page cache
    # are filled before anything is measured.
    for name, port, pid in peers:
        run_wrk(port, script, 3, args, pid)
    runs = {"thumbs": [], "nginx": []}
    rss_before = status_field(thumbs_server.pid, "VmRSS")
    for round_number in range(1, args.rounds + 1):
        for name, port, pid in peers:
            measure.wait_for_quiet(timeout=60)
            result = run_wrk(port, script, args.duration, args, pid)
            runs[name].append(result)
            log(f"cached hits, round {round_number}, {name}: {result['rate']:,.0f} requests/s, "
                f"p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms, "
                f"server {result['server_cores']:.2f} cores, wrk {result['wrk_cores']:.2f} cores, "
                f"other {result['other_share']:.0%}")
            if name == "thumbs" and not thumbs_server.alive():
                raise RuntimeError(f"thumbs serve died during the cached hits:\n{thumbs_server.log_tail()}")
    summary = {}
    for name, results in runs.items():
        summary[name] = {key: statistics.median(r[key] for r in results)
                         for key in ("rate", "p50_ms", "p75_ms", "p90_ms", "p99_ms", "server_cores", "wrk_cores")}
        summary[name]["errors"] = sum(r["non_2xx_3xx"] + sum(r["socket_errors"].values()) for r in results)
        summary[name]["rates"] = [r["rate"] for r in results]
        summary[name]["p99s"] = [r["p99_ms"] for r in results]
        summary[name]["other_share_max"] = max(r["other_share"] for r in results)
    # The cheapest route the server has, once: how much of a hit's cost is the HTTP stack's.
    health = tmp / "healthz.lua"
    health.write_text('local r\nfunction init(args) r = wrk.format("GET", "/healthz") end\n'
                      'function request() return r end\n')
    measure.wait_for_quiet(timeout=60)
    floor = run_wrk(thumbs_server.port, health, args.duration, args, thumbs_server.pid)
    floor.pop("output")
    summary["healthz"] = floor
    log(f"thumbs /healthz: {floor['rate']:,.0f} requests/s, p50 {floor['p50_ms']:.2f} ms, p99 {floor['p99_ms']:.2f} ms")
    summary["thumbs_rss_before"] = rss_before
    summary["thumbs_rss_after"] = status_field(thumbs_server.pid, "VmRSS")
    return summary


def mixed(args, tmp, server, exported, assets, pages):
    versions = {asset["id"]: asset["version"] for asset in assets}
    ids = [item["id"] for item in exported]
    lists = {
        "grid": lua_entries((item["path"], None) for item in exported),
        "other": lua_entries((f"/thumbnails/{i}/{name}", None) for i in ids for name in ("small", "medium")),
        "immutable": lua_entries((f"/thumbnails/{i}/preview?v={urllib.parse.quote(versions[i])}", None)
                                 for i in ids),
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
        ["wrk", "-t1", f"-c{MISS_CONNECTIONS}", f"-d{args.mixed_duration}s", "--latency", "--timeout", "60s",
         "-s", str(miss_script), f"http://{HOST}:{server.port}/"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    cached_args = argparse.Namespace(**dict(vars(args), connections=args.connections - MISS_CONNECTIONS))
    result = run_wrk(server.port, cached_script, args.mixed_duration, cached_args, server.pid, timeout="30s")
    out, err = misses.communicate(timeout=120)
    if misses.returncode != 0:
        raise RuntimeError(f"wrk (misses) failed ({misses.returncode}): {err.strip()}")
    result["misses"] = parse_wrk(out)
    time.sleep(1.0)  # one more sample after the load
    sampler.stop()
    tiers_after = server.tiers()
    result["tiers"] = {tier: int(tiers_after.get(tier, 0) - tiers_before.get(tier, 0)) for tier in tiers_after}
    samples = sampler.samples
    result["rss_start"], result["rss_end"] = samples[0][1], samples[-1][1]
    result["rss_max"] = max(s[1] for s in samples)
    result["rss_quarters"] = [samples[min(len(samples) - 1, len(samples) * q // 4)][1] for q in (1, 2, 3)]
    # The last quarter alone: whether memory holds still once the load is steady.
    last = [s[1] for s in samples[len(samples) * 3 // 4:]]
    result["rss_last_quarter"] = (min(last), max(last))
    result["anon_start"], result["anon_end"] = samples[0][2], samples[-1][2]
    result["anon_max"] = max(s[2] for s in samples)
    result["rss_samples"] = [(round(t, 1), rss) for t, rss, _ in samples]
    result["alive"] = server.alive()
    result["errors"] = sum(r["non_2xx_3xx"] + sum(r["socket_errors"].values()) for r in (result, result["misses"]))
    log(f"mixed run: {result['requests']:,} cached-side requests, statuses {result['statuses']}; "
        f"{result['misses']['requests']:,} misses, statuses {result['misses']['statuses']}; errors {result['errors']}; "
        f"RSS {measure.mb(result['rss_start']):.0f} → {measure.mb(result['rss_end']):.0f} MB "
        f"(max {measure.mb(result['rss_max']):.0f})")
    return result


def storm(server, jobs, timeout):
    """Requests every (path, box) at once, one client thread each, retrying 503s after Retry-After."""
    threading.stack_size(256 * 1024)
    gate = threading.Event()
    deadline = time.monotonic() + timeout
    results = [None] * len(jobs)

    def fetch(index, path, limits):
        gate.wait()
        started = time.monotonic()
        outcome = {"path": path, "busy": 0, "connection_errors": 0, "status": None, "valid": False,
                   "oversize": False}
        conn = None
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
            size = jpeg_size(body) if kind == "image/jpeg" else None
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

    threads = [threading.Thread(target=fetch, args=(i, path, limits), daemon=True)
               for i, (path, limits) in enumerate(jobs)]
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
    statuses = {}
    for r in done:
        statuses[r["status"]] = statuses.get(r["status"], 0) + 1
    return {
        "urls": len(jobs),
        "ok": sum(1 for r in done if r["status"] == 200 and r["valid"]),
        "statuses": statuses,
        "invalid": sum(1 for r in done if r["status"] == 200 and not r["valid"]),
        "oversize": sum(1 for r in done if r["status"] == 200 and r["oversize"]),
        "oversize_by_rendition": count_by(r["path"].rsplit("/", 1)[1] for r in done if r.get("oversize")),
        "examples": [r["why"] for r in done if "why" in r][:5],
        "unfinished": len(jobs) - sum(1 for r in done if r["status"] is not None),
        "busy_answers": sum(r["busy"] for r in done),
        "retried_urls": sum(1 for r in done if r["busy"]),
        "max_busy": max((r["busy"] for r in done), default=0),
        "connection_errors": sum(r["connection_errors"] for r in done),
        "seconds": wall,
        "slowest": max((r["seconds"] for r in done), default=0.0),
        # VmHWM catches a peak between two samples; the samples are what is left if it died.
        "peak_rss": status_field(server.pid, "VmHWM") or max((s[1] for s in sampler.samples), default=0),
        "peak_sampled_rss": max((s[1] for s in sampler.samples), default=0),
        "peak_sampled_anon": max((s[2] for s in sampler.samples), default=0),
        "rss_after": status_field(server.pid, "VmRSS"),
        "alive": server.alive(),
    }


# ---------------------------------------------------------------------------------------------
# Report

def report(data):
    mb = measure.mb
    cached, mix, cold, warmed = data["cached"], data["mixed"], data["storm"], data["warm"]
    t, n = cached["thumbs"], cached["nginx"]
    rate_ratio = t["rate"] / n["rate"]
    rss_ratio = cold["peak_rss"] / warmed["peak_rss"]
    mixed_errors = mix["non_2xx_3xx"] + sum(mix["socket_errors"].values())
    all_ok = cold["ok"] == cold["urls"]
    yes = lambda ok: "**met**" if ok else "**missed**"  # noqa: E731
    rows = [
        ["cached hits: requests/s", f"{t['rate']:,.0f}", f"{n['rate']:,.0f}", f"{rate_ratio:.2f}×",
         f"≥ {TARGET_RATE}× nginx", yes(rate_ratio >= TARGET_RATE)],
        ["cached hits: p50", f"{t['p50_ms']:.2f} ms", f"{n['p50_ms']:.2f} ms",
         f"{t['p50_ms'] / n['p50_ms']:.2f}×", "", ""],
        ["cached hits: p99", f"{t['p99_ms']:.2f} ms", f"{n['p99_ms']:.2f} ms",
         f"{t['p99_ms'] / n['p99_ms']:.2f}×", f"≤ {TARGET_P99_MS:g} ms", yes(t["p99_ms"] <= TARGET_P99_MS)],
        ["`/healthz` (no cache, no image), once", f"{cached['healthz']['rate']:,.0f}/s, "
         f"p50 {cached['healthz']['p50_ms']:.2f} ms, p99 {cached['healthz']['p99_ms']:.2f} ms", "",
         f"{cached['healthz']['rate'] / n['rate']:.2f}×", "", ""],
        ["cached hits: errors (non-2xx/3xx, socket)", str(t["errors"]), str(n["errors"]), "", "0",
         yes(t["errors"] == 0)],
        ["cold storm: URLs answered 200 with a valid JPEG",
         f"{cold['ok']:,} of {cold['urls']:,} in {cold['seconds']:.0f} s", "", "",
         "all", yes(all_ok)],
        ["cold storm: answers larger than the rendition's box",
         f"{cold['oversize']:,} {cold['oversize_by_rendition'] or ''}".strip(), "", "", "0",
         yes(cold["oversize"] == 0)],
        ["cold storm: 503 answers (retried)", f"{cold['busy_answers']:,} ({cold['retried_urls']:,} URLs)",
         "", "", "allowed", ""],
        ["cold storm: peak RSS (VmHWM) vs `thumbs warm`", f"{mb(cold['peak_rss']):.0f} MB",
         f"warm {mb(warmed['peak_rss']):.0f} MB", f"{rss_ratio:.2f}×", f"≤ {TARGET_RSS}×",
         yes(rss_ratio <= TARGET_RSS)],
        [f"mixed {data['args']['mixed_duration']} s: requests, errors",
         f"{mix['requests']:,} cached ({mix['rate']:,.0f}/s) + {mix['misses']['requests']:,} misses, "
         f"{mix['errors']} errors", "", "", "0 errors", yes(mix["errors"] == 0 and mix["alive"])],
        ["mixed: RSS start → ¼ → ½ → ¾ → end (max)",
         " → ".join(f"{mb(v):.0f}" for v in [mix["rss_start"], *mix["rss_quarters"], mix["rss_end"]])
         + f" MB (max {mb(mix['rss_max']):.0f}; last ¼ {mb(mix['rss_last_quarter'][0]):.0f}–"
         f"{mb(mix['rss_last_quarter'][1]):.0f})", "", "", "flat", ""],
    ]
    table = measure.markdown_table(["measurement", "thumbs serve", "nginx / peer", "ratio", "target", ""],
                                   rows, align=["l", "r", "r", "r", "l", "l"])
    machine = data["machine"]
    lines = [
        f"Machine: {machine['nproc']} cores ({machine['cpu']}), {machine['memory_gib']} GiB, {machine['os']}; "
        f"{data['nginx_version']}, {data['wrk_version']}; load average {data['load_before']} before, "
        f"{data['load_after']} after.",
        f"Library: {data['library']['photos']} photos ({data['library']['origin']}) × "
        f"{data['library']['copies']} copies = {data['library']['assets']} assets; "
        f"{len(RENDITIONS)} renditions ({', '.join(r['name'] + ' ' + r['size'] + ' ' + r['mode'] for r in RENDITIONS)}).",
        f"Cached hits: wrk -t{data['args']['threads']} -c{data['args']['connections']} "
        f"-d{data['args']['duration']}s --latency over {data['exported']} grid URLs, "
        f"{data['args']['rounds']} rounds alternating thumbs and nginx, medians shown "
        f"(thumbs requests/s per round: {', '.join(f'{r:,.0f}' for r in t['rates'])}; "
        f"nginx: {', '.join(f'{r:,.0f}' for r in n['rates'])}). CPU used during the runs (medians): "
        f"thumbs {t['server_cores']:.2f} cores with wrk {t['wrk_cores']:.2f}; nginx {n['server_cores']:.2f} "
        f"with wrk {n['wrk_cores']:.2f}; other processes at most {max(t['other_share_max'], n['other_share_max']):.0%} "
        f"of the machine.",
        "",
        table,
        "",
        f"Warm: `thumbs warm` {warmed['seconds']:.1f} s, peak RSS {mb(warmed['peak_rss']):.0f} MB "
        f"(`/usr/bin/time -v`). Storm: slowest URL {cold['slowest']:.0f} s, at most {cold['max_busy']} "
        f"503s for one URL, {cold['connection_errors']} connection errors, statuses {cold['statuses']}, "
        f"e.g. {'; '.join(cold['examples'][:2]) or 'nothing wrong'}; "
        f"sampled peak RSS {mb(cold['peak_sampled_rss']):.0f} MB (anon {mb(cold['peak_sampled_anon']):.0f} MB), "
        f"{mb(cold['rss_after']):.0f} MB after; server {'alive' if cold['alive'] else 'DEAD'} at the end.",
        f"Mixed: cached side statuses {dict(sorted(mix['statuses'].items()))}, p50 {mix['p50_ms']:.2f} ms, "
        f"p99 {mix['p99_ms']:.2f} ms; misses statuses {dict(sorted(mix['misses']['statuses'].items()))}, "
        f"p50 {mix['misses']['p50_ms']:.0f} ms, p99 {mix['misses']['p99_ms']:.0f} ms; non-2xx/3xx "
        f"{mix['non_2xx_3xx'] + mix['misses']['non_2xx_3xx']}, socket errors {mix['socket_errors']} "
        f"{mix['misses']['socket_errors']}; thumbnails by tier {mix['tiers']}; "
        f"anon RSS {mb(mix['anon_start']):.0f} → {mb(mix['anon_end']):.0f} MB (max {mb(mix['anon_max']):.0f}). "
        f"thumbs RSS before/after the cached hits: {mb(cached['thumbs_rss_before']):.0f} / "
        f"{mb(cached['thumbs_rss_after']):.0f} MB. Exit status of the two servers on SIGTERM: "
        f"{data['warm_server_exit']}, {data['storm_server_exit']}.",
    ]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(
        prog="scripts/bench-serve", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--thumbs", required=True, metavar="PATH",
                        help="the thumbs binary (the wrapper builds one when this is not given)")
    parser.add_argument("--copies", type=int, default=None, metavar="N",
                        help="copies of the photos in the library (default: the fewest giving "
                             f"≥ {MIN_STORM} distinct misses: 4 for ../shared/photos)")
    parser.add_argument("--duration", type=int, default=20, help="seconds of each cached-hit run (20)")
    parser.add_argument("--rounds", type=int, default=3, help="cached-hit runs of each server (3)")
    parser.add_argument("--mixed-duration", type=int, default=60, help="seconds of the mixed run (60)")
    parser.add_argument("--connections", type=int, default=64, help="wrk connections (64)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (2)")
    parser.add_argument("--storm-timeout", type=int, default=900, help="seconds the storm may take at most (900)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the summary as markdown to this file")
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON to this file")
    args = parser.parse_args()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _exit_on_signal)
    processes = Processes()
    tmp = Path(tempfile.mkdtemp(prefix="thumbs-bench-serve-"))
    tmp.chmod(0o755)  # nginx's workers may run as another user: they must reach its root
    try:
        data = run(args, processes, tmp)
    finally:
        processes.stop_all()
        shutil.rmtree(tmp, ignore_errors=True)
    text = report(data)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")
    if args.json:
        measure.write_json(args.json, data)
    failed = (data["storm"]["ok"] != data["storm"]["urls"] or not data["storm"]["alive"]
              or not data["mixed"]["alive"])
    return 1 if failed else 0


def run(args, processes, tmp):
    thumbs = str(Path(args.thumbs).resolve())
    data = {"args": vars(args), "machine": measure.machine_info(),
            "load_before": " ".join(open("/proc/loadavg").read().split()[:3]),
            "nginx_version": subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
            .replace("nginx version: ", ""),
            "wrk_version": "wrk " + subprocess.run(["wrk", "-v"], capture_output=True, text=True)
            .stdout.split()[1]}
    log(f"temporary folder {tmp}")
    library = tmp / "library"
    photos, copies, origin = build_library(thumbs, library, args.copies)
    data["library"] = {"photos": photos, "copies": copies, "origin": origin, "assets": photos * copies}
    measure.warm_page_cache(p for p in library.rglob("*") if p.is_file())
    ladder, served = tmp / "ladder.json", tmp / "served.json"
    write_config(ladder, RENDITIONS)
    write_config(served, RENDITIONS + EXTRAS)

    # 1. The warm, and its peak memory.
    measure.wait_for_quiet(timeout=120)
    warm_cache = tmp / "cache-warm"
    data["warm"] = warm(thumbs, library, warm_cache, ladder)
    log(f"warm: {data['warm']['seconds']:.1f} s, peak RSS {measure.mb(data['warm']['peak_rss']):.0f} MB")

    # 2. The warm server, the export, nginx.
    server = ThumbsServer(processes, thumbs, library, warm_cache, served, tmp / "serve-warm.log")
    client = Client(server.port)
    assets, pages = list_assets(client)
    client.close()
    root = tmp / "nginx" / "root"
    root.mkdir(parents=True)
    exported, failed = export(server, assets, root)
    data["exported"], data["export_failed"] = len(exported), failed
    log(f"{len(assets)} assets listed, {len(exported)} grid thumbnails exported"
        + (f", {len(failed)} not answered 200: {failed}" if failed else ""))
    for folder in [tmp / "nginx", *(p for p in root.rglob("*") if p.is_dir())]:
        folder.chmod(0o755)
    nginx_proc, nginx_port = start_nginx(processes, tmp / "nginx", root)
    different = same_bytes(nginx_port, exported) + same_bytes(server.port, exported)
    if different:
        raise RuntimeError(f"{len(different)} URLs answer other bytes than exported, e.g. {different[:3]}")
    for item in exported:
        item.pop("body")

    # 3. Cached hits, 4. the mixed run.
    data["cached"] = cached_hits(args, tmp, server, nginx_proc, nginx_port, exported)
    processes.stop(nginx_proc)
    measure.wait_for_quiet(timeout=60)
    data["mixed"] = mixed(args, tmp, server, exported, assets, pages)
    data["warm_server_exit"] = processes.stop(server.proc)

    # 5. The cold storm on a new cache.
    storm_server = ThumbsServer(processes, thumbs, library, tmp / "cache-storm", ladder, tmp / "serve-storm.log")
    client = Client(storm_server.port)
    storm_assets, _ = list_assets(client)
    client.close()
    renderable = {item["id"] for item in exported}
    jobs = [(f"/thumbnails/{asset['id']}/{rendition['name']}", box(rendition))
            for asset in storm_assets if asset["id"] in renderable for rendition in RENDITIONS]
    data["storm_idle_rss"] = status_field(storm_server.pid, "VmRSS")
    measure.wait_for_quiet(timeout=60)
    log(f"cold storm: {len(jobs)} distinct misses at once")
    data["storm"] = storm(storm_server, jobs, args.storm_timeout)
    data["storm"]["tiers"] = storm_server.tiers() if storm_server.alive() else {}
    data["storm"]["idle_rss"] = data["storm_idle_rss"]
    log(f"cold storm: {data['storm']['ok']} of {len(jobs)} valid in {data['storm']['seconds']:.0f} s, "
        f"{data['storm']['busy_answers']} 503s, peak RSS {measure.mb(data['storm']['peak_rss'] or 0):.0f} MB")
    if not storm_server.alive():
        log(f"thumbs serve died during the storm:\n{storm_server.log_tail()}")
    data["storm_server_exit"] = processes.stop(storm_server.proc)
    data["load_after"] = " ".join(open("/proc/loadavg").read().split()[:3])
    return data


if __name__ == "__main__":
    sys.exit(main())
