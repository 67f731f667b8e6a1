"""scripts/bench-serve's command line: `python3 -m thumbs_tools.bench.serve --help`."""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from ... import runner
from ...figures import mb
from ...report import load_average, machine_info, write_json
from . import __doc__ as description
from .client import Client
from .phases import cached_hits, export, mixed, same_bytes, warm
from .processes import Processes, exit_on_signal
from .report import report
from .servers import ThumbsServer, build_library, list_assets, start_nginx, write_config
from .settings import EXTRAS, MIN_STORM, RENDITIONS, box, log
from .storm import storm
from .versus import versus, versus_report


def main() -> int:
    """Runs every phase, prints the report; 1 when the storm or the mixed run failed."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench-serve", description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--thumbs",
        required=True,
        metavar="PATH",
        help="the thumbs binary (the wrapper builds one when this is not given)",
    )
    parser.add_argument(
        "--copies",
        type=int,
        default=None,
        metavar="N",
        help="copies of the photos in the library (default: the fewest giving "
        f"≥ {MIN_STORM} distinct misses: 4 for ../shared/photos)",
    )
    parser.add_argument("--duration", type=int, default=20, help="seconds of each cached-hit run (20)")
    parser.add_argument("--rounds", type=int, default=3, help="cached-hit runs of each server (3)")
    parser.add_argument("--mixed-duration", type=int, default=60, help="seconds of the mixed run (60)")
    parser.add_argument("--connections", type=int, default=64, help="wrk connections (64)")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads (2)")
    parser.add_argument("--storm-timeout", type=int, default=900, help="seconds the storm may take at most (900)")
    parser.add_argument("--markdown", metavar="FILE", help="also write the summary as markdown to this file")
    parser.add_argument("--json", metavar="FILE", help="also write every figure as JSON to this file")
    parser.add_argument(
        "--against",
        metavar="PATH",
        help="another thumbs binary: measure only the cached hits of both, alternated round by round (versus.py)",
    )
    args = parser.parse_args()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, exit_on_signal)
    processes = Processes()
    tmp = Path(tempfile.mkdtemp(prefix="thumbs-bench-serve-"))
    tmp.chmod(0o755)  # nginx's workers may run as another user: they must reach its root
    try:
        data = versus(args, processes, tmp) if args.against else run(args, processes, tmp)
    finally:
        processes.stop_all()
        shutil.rmtree(tmp, ignore_errors=True)
    text = versus_report(data) if args.against else report(data)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(text + "\n")
    if args.json:
        write_json(args.json, data)
    if args.against:
        return 0
    failed = data["storm"]["ok"] != data["storm"]["urls"] or not data["storm"]["alive"] or not data["mixed"]["alive"]
    return 1 if failed else 0


def run(args: argparse.Namespace, processes: Processes, tmp: Path) -> dict[str, Any]:
    """Every phase, in order; the figures of each."""
    thumbs = str(Path(args.thumbs).resolve())
    data: dict[str, Any] = {
        "args": vars(args),
        "machine": machine_info(),
        "load_before": load_average(),
        "nginx_version": subprocess.run(["nginx", "-v"], capture_output=True, text=True)
        .stderr.strip()
        .replace("nginx version: ", ""),
        "wrk_version": "wrk " + subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.split()[1],
    }
    log(f"temporary folder {tmp}")
    library = tmp / "library"
    photos, copies, origin = build_library(thumbs, library, args.copies)
    data["library"] = {"photos": photos, "copies": copies, "origin": origin, "assets": photos * copies}
    runner.warm_page_cache(p for p in library.rglob("*") if p.is_file())
    ladder, served = tmp / "ladder.json", tmp / "served.json"
    write_config(ladder, RENDITIONS)
    write_config(served, RENDITIONS + EXTRAS)

    # 1. The warm, and its peak memory.
    runner.wait_for_quiet(timeout=120)
    warm_cache = tmp / "cache-warm"
    data["warm"] = warm(thumbs, library, warm_cache, ladder)
    log(f"warm: {data['warm']['seconds']:.1f} s, peak RSS {mb(data['warm']['peak_rss']):.0f} MB")

    # 2. The warm server, the export, nginx.
    server = ThumbsServer(processes, thumbs, library, warm_cache, served, tmp / "serve-warm.log")
    client = Client(server.port)
    assets, pages = list_assets(client)
    client.close()
    root = tmp / "nginx" / "root"
    root.mkdir(parents=True)
    exported, failed = export(server, assets, root)
    data["exported"], data["export_failed"] = len(exported), failed
    log(
        f"{len(assets)} assets listed, {len(exported)} grid thumbnails exported"
        + (f", {len(failed)} not answered 200: {failed}" if failed else "")
    )
    for folder in [tmp / "nginx", *(p for p in root.rglob("*") if p.is_dir())]:
        folder.chmod(0o755)
    nginx_proc, nginx_port = start_nginx(processes, tmp / "nginx", root)
    different = same_bytes(nginx_port, exported) + same_bytes(server.port, exported)
    if different:
        raise RuntimeError(f"{len(different)} URLs answer other bytes than exported, e.g. {different[:3]}")
    for item in exported:
        item.pop("body")

    # 3. Cached hits, 4. the mixed run.
    data["cached"] = cached_hits(args, tmp, server, nginx_proc.pid, nginx_port, exported)
    processes.stop(nginx_proc)
    runner.wait_for_quiet(timeout=60)
    data["mixed"] = mixed(args, tmp, server, exported, assets, pages)
    data["warm_server_exit"] = processes.stop(server.proc)

    # 5. The cold storm on a new cache.
    storm_server = ThumbsServer(processes, thumbs, library, tmp / "cache-storm", ladder, tmp / "serve-storm.log")
    client = Client(storm_server.port)
    storm_assets, _ = list_assets(client)
    client.close()
    renderable = {item["id"] for item in exported}
    jobs = [
        (f"/thumbnails/{asset['id']}/{rendition['name']}", box(rendition))
        for asset in storm_assets
        if asset["id"] in renderable
        for rendition in RENDITIONS
    ]
    data["storm_idle_rss"] = runner.status_field(storm_server.pid, "VmRSS")
    runner.wait_for_quiet(timeout=60)
    log(f"cold storm: {len(jobs)} distinct misses at once")
    data["storm"] = storm(storm_server, jobs, args.storm_timeout)
    data["storm"]["tiers"] = storm_server.tiers() if storm_server.alive() else {}
    data["storm"]["idle_rss"] = data["storm_idle_rss"]
    log(
        f"cold storm: {data['storm']['ok']} of {len(jobs)} valid in {data['storm']['seconds']:.0f} s, "
        f"{data['storm']['busy_answers']} 503s, peak RSS {mb(data['storm']['peak_rss'] or 0):.0f} MB"
    )
    if not storm_server.alive():
        log(f"thumbs serve died during the storm:\n{storm_server.log_tail()}")
    data["storm_server_exit"] = processes.stop(storm_server.proc)
    data["load_after"] = load_average()
    return data


if __name__ == "__main__":
    sys.exit(main())
