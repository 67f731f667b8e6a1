"""Thumbs warm against its peers on videos and camera RAW files: one 256 px JPEG per file.

Videos: `thumbs warm` against ffmpegthumbnailer (which also seeks to 10 % of the clip). RAW:
`thumbs warm` against the shell pipelines that turn a RAW file's embedded preview into a 256 px
thumbnail (exiftool | vipsthumbnail; simple_dcraw -e, then vipsthumbnail; dcraw_emu -e too where
LibRaw's has it), plus simple_dcraw -e alone, which only extracts the preview: a floor, not a
thumbnail. Every peer runs one process per file, one per core at a time (xargs -P), into a
fresh folder per run; runs are interleaved. Reports the median wall time, files per second, peak
resident memory of the whole process tree, Thumbs' speed-up over each peer measured in the same
run, and whether the targets are met.

The datasets are folders of hard links (distinct names, the same file) under the work folder:
the videos and RAW files of ../shared/media, and generated H.264 clips and DNG files, which are
kept in the work folder and reused (delete its clips/ or dng/ folder to make them again).

Normally run through scripts/bench-media, which installs the peers and builds Thumbs.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import runner
from ..figures import mb, median
from ..paths import REPOSITORY
from ..report import Target, machine_info, markdown_table, noisy_runs_warning, write_json
from .media_peers import SIZE, Thumbs, Tool, peers
from .media_sets import MEDIA, Dataset, datasets

Record = dict[str, Any]


def versions(thumbs_binary: Path) -> dict[str, str]:
    """Versions of the tools compared, for the report's header."""

    def out(*cmd: str) -> str:
        done = subprocess.run(cmd, capture_output=True, text=True)
        return (done.stdout or done.stderr).strip()

    return {
        "thumbs": out(str(thumbs_binary), "version").replace("\n", "; "),
        "ffmpegthumbnailer": out("ffmpegthumbnailer", "-v").split(":")[-1].strip(),
        "exiftool": out("exiftool", "-ver"),
        "libvips": out("vipsthumbnail", "--vips-version"),
        "packages": out(
            "dpkg-query", "-W", "-f", "${Package} ${Version}, ", "libraw-bin", "ffmpegthumbnailer", "libvips-tools"
        ).rstrip(", "),
    }


def warm(paths: Iterable[Path]) -> None:
    """Reads each distinct file (inode) of `paths` once: hard links share their pages."""
    seen: dict[tuple[int, int], Path] = {}
    for p in paths:
        seen.setdefault((p.stat().st_dev, p.stat().st_ino), p)
    runner.warm_page_cache(seen.values())


def measure_all(tools: Sequence[Tool], sets: Sequence[Dataset], runs: int, work: Path) -> list[Record]:
    """Runs every tool of a dataset's kind on it `runs` times, interleaved; the records."""
    records = []
    for run in range(1, runs + 1):
        for name, kind, files, _ in sets:
            warm(files)
            for tool in (t for t in tools if kind in t.kinds):
                out = Path(tempfile.mkdtemp(dir=work / "out"))
                cmd, env = tool.command(work / "sets" / name, files, out)
                runner.wait_for_quiet()
                result = runner.run(cmd, env=env)
                ok, failed, failures, small = tool.count(result, files, out)
                shutil.rmtree(out)
                share = runner.noise(result)
                records.append(
                    {
                        "run": run,
                        "dataset": name,
                        "kind": kind,
                        "tool": tool.label,
                        "thumbnail": tool.thumbnail,
                        "files": len(files),
                        "wall": result.wall,
                        "ok": ok,
                        "failed": failed,
                        "failures": sorted(set(failures)),
                        "small": small,
                        "exit": result.returncode,
                        "peak_rss": result.peak_rss,
                        "peak_rss_anon": result.peak_rss_anon,
                        "cpu": result.cpu,
                        "noise": share,
                        "stderr_head": result.stderr[:3000],
                        "stderr_tail": result.stderr[-2000:],
                    }
                )
                print(
                    f"run {run}/{runs} {name} {tool.label}: {result.wall:.2f} s, {ok} ok, "
                    f"{failed} failed, {mb(result.peak_rss):.0f} MB{runner.noise_warning(share)}",
                    file=sys.stderr,
                )
    return records


def summarise(records: Sequence[Record]) -> dict[tuple[str, str], Record]:
    """Per (dataset, tool): median wall and files/s, max peak RSS, the last run's counts."""
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in records:
        groups.setdefault((r["dataset"], r["tool"]), []).append(r)
    return {
        key: {
            "wall": median([r["wall"] for r in runs]),
            "fps": median([r["ok"] / r["wall"] for r in runs]),
            "peak_rss": max(r["peak_rss"] for r in runs),
            "last": runs[-1],
        }
        for key, runs in groups.items()
    }


def report_table(summary: Mapping[tuple[str, str], Record], sets: Sequence[Dataset], kind: str) -> str:
    """The markdown table of one kind, then each tool's failures and undersized outputs."""
    rows: list[list[object]] = []
    notes: list[str] = []
    for name, k, files, _ in sets:
        if k != kind:
            continue
        base = summary.get((name, "thumbs"))
        for (dataset, tool), s in summary.items():
            if dataset != name:
                continue
            last = s["last"]
            speedup = f"{s['wall'] / base['wall']:.2f}×" if base and tool != "thumbs" else "–"
            rows.append(
                [
                    name,
                    len(files),
                    tool,
                    f"{s['wall']:.2f}",
                    f"{s['fps']:.1f}",
                    f"{last['ok']} / {last['failed']}",
                    f"{mb(s['peak_rss']):.0f}",
                    speedup,
                ]
            )
            if last["failures"]:
                shown = last["failures"][:4] + (["…"] if len(last["failures"]) > 4 else [])
                notes.append(f"- {name}, {tool}: {last['failed']} failed ({', '.join(shown)})")
            if last["small"]:
                notes.append(
                    f"- {name}, {tool}: {last['small']} of its thumbnails are smaller "
                    f"than {SIZE} px (the only embedded picture was)"
                )
    table = markdown_table(
        ["dataset", "files", "tool", "wall s (median)", "files/s", "ok / failed", "peak RSS MB", "Thumbs ×"],
        rows,
        ["l", "r", "l", "r", "r", "r", "r", "r"],
    )
    return table + ("\n\n" + "\n".join(notes) if notes else "")


def targets(summary: Mapping[tuple[str, str], Record], sets: Sequence[Dataset]) -> list[Target]:
    """Per dataset, Thumbs' speed-up over the fastest peer (the peer's wall ÷ Thumbs' wall)."""
    checks = []
    for name, kind, _, _ in sets:
        base = summary.get((name, "thumbs"))
        peers = {
            tool: s for (d, tool), s in summary.items() if d == name and tool != "thumbs" and s["last"]["thumbnail"]
        }
        if not base or not peers:
            continue
        goal = 1.5 if kind == "videos" else 2.0
        fastest = min(peers, key=lambda t: peers[t]["wall"])
        failed = {
            t: s["last"]["failed"] for t, s in [("thumbs", base), (fastest, peers[fastest])] if s["last"]["failed"]
        }
        caveat = "; failed: " + ", ".join(f"{t} {n}" for t, n in failed.items()) if failed else ""
        peer = "ffmpegthumbnailer" if kind == "videos" else f"the fastest thumbnail pipeline ({fastest})"
        text = f"{kind} {name}: Thumbs ≥ {goal:g}× {peer}{caveat}"
        checks.append(Target(text, peers[fastest]["wall"] / base["wall"], goal))
    return checks


def parse_arguments() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench-media",
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  scripts/bench-media     # a few minutes; the first time also "
        "~10 minutes to generate the clips\n"
        "  scripts/bench-media --runs 1 --only raw --copies-dng 10",
    )
    parser.add_argument(
        "--thumbs",
        type=Path,
        required=True,
        metavar="PATH",
        help="the thumbs binary (the wrapper builds one when this is not given)",
    )
    parser.add_argument("--runs", type=int, default=3, metavar="N", help="runs of each measurement (default 3)")
    parser.add_argument("--only", choices=["videos", "raw"], help="measure one kind only")
    for option, default, what in (
        ("--copies", 10, "each of the 6 shared videos"),
        ("--copies-1080p", 20, "the 1080p clip"),
        ("--copies-4k", 10, "the 4K clip"),
        ("--copies-raw", 20, "each of the 2 shared RAW files"),
        ("--copies-dng", 40, "each generated DNG"),
    ):
        parser.add_argument(
            option, type=int, default=default, metavar="K", help=f"hard links to {what} (default {default})"
        )
    parser.add_argument(
        "--clip-seconds",
        type=int,
        default=60,
        metavar="S",
        help="length of the generated clips (default 60; shorter ones only to try the script out)",
    )
    parser.add_argument(
        "--vips-concurrency",
        type=int,
        default=1,
        metavar="N",
        help="VIPS_CONCURRENCY of vipsthumbnail, as in compare-peers; 0: libvips' default (default 1)",
    )
    parser.add_argument(
        "--python",
        type=Path,
        default=REPOSITORY / ".build/test-venv/bin/python",
        metavar="PATH",
        help="a Python with numpy, tifffile and imagecodecs, for scripts/make-test-dng.py (default .build/test-venv)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=REPOSITORY / ".build/bench-media",
        metavar="DIR",
        help="datasets, generated media and outputs (default .build/bench-media); "
        "on the file system of ../shared, for the hard links",
    )
    parser.add_argument("--json-out", type=Path, metavar="FILE", help="every measurement (default WORK/results.json)")
    return parser.parse_args()


def main() -> None:
    """Builds the datasets, runs every tool on each, prints the report."""
    args = parse_arguments()
    if not (MEDIA / "MANIFEST.tsv").is_file():
        print("bench-media: skipped: ../shared/media not found")
        return
    work = args.work.resolve()
    shutil.rmtree(work / "out", ignore_errors=True)
    (work / "out").mkdir(parents=True)
    sets = datasets(args, work)
    env = {"VIPS_CONCURRENCY": str(args.vips_concurrency)} if args.vips_concurrency else {}
    tools: list[Tool] = [Thumbs(args.thumbs.resolve(), work), *peers(env)]
    machine, tool_versions = machine_info(), versions(args.thumbs.resolve())
    records = measure_all(tools, sets, args.runs, work)

    summary = summarise(records)
    checks = targets(summary, sets)
    header = (
        f"{machine['nproc']} cores, {machine['cpu']}, {machine['memory_gib']} GiB, "
        f"{machine['os']}. Thumbs: {tool_versions['thumbs']}. ffmpegthumbnailer "
        f"{tool_versions['ffmpegthumbnailer']}, exiftool {tool_versions['exiftool']}, "
        f"{tool_versions['libvips']} (VIPS_CONCURRENCY="
        f"{args.vips_concurrency or 'default'}); "
        f"{tool_versions['packages']}. {args.runs} run(s), median wall; peak RSS = max over "
        "runs of the whole process tree; Thumbs × = the peer's wall ÷ Thumbs' wall. "
        f"Peers: one process per file, {runner.cores()} at a time (xargs -P)."
    )
    header += noisy_runs_warning(max(r["noise"] for r in records))
    about = "\n".join(f"- {name}: {len(files)} files: {text}" for name, _, files, text in sets)
    report = f"## Videos and camera RAW files\n\n{header}\n\nDatasets (hard links):\n\n{about}\n"
    for kind, title in (("videos", "Videos"), ("raw", "Camera RAW")):
        if any(k == kind for _, k, _, _ in sets):
            report += f"\n### {title}\n\n{report_table(summary, sets, kind)}\n"
            if kind == "raw" and not any(t.label.startswith("dcraw_emu") for t in tools):
                report += "\ndcraw_emu has no -e option (LibRaw 0.20): not measured.\n"
    report += "\n### Targets\n\n" + "\n".join(t.line() for t in checks) + "\n"
    print(report)
    json_out = args.json_out or work / "results.json"
    write_json(
        json_out,
        {
            "machine": machine,
            "versions": tool_versions,
            "runs": args.runs,
            "options": {k: str(v) for k, v in vars(args).items()},
            "datasets": [{"name": n, "kind": k, "files": len(f), "about": a} for n, k, f, a in sets],
            "records": records,
            "targets": [t.json() for t in checks],
        },
    )
    print(f"bench-media: measurements in {json_out}", file=sys.stderr)


if __name__ == "__main__":
    main()
