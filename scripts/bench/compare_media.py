#!/usr/bin/env python3
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

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True  # importing measure must leave no __pycache__ in the work tree
import measure  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
MEDIA = REPO.parent / "shared" / "media"
NIKON = REPO.parent / "shared/photos/2007-12-holiday/Nikon D50 - 2007.12.19.n.DSC_3656.JPG"
# The other two RAW files of ../shared/media/raw fail in Thumbs as unsupported (a GoPro GPR,
# VC-5 compressed, and a JPEG XL DNG, neither of which LibRaw 0.20 reads): left out.
SHARED_RAW = ("Canon_PowerShot_G2_CRW_0304.CRW", "Kodak_DC120_P003908.KDC")
SIZE = 256
BOX = f"{SIZE}x{SIZE}>"  # vipsthumbnail: inside 256x256, never enlarged (Thumbs' "fit")
VIPS_OUT = "[Q=80,strip]"  # Thumbs' rendition: JPEG quality 80, no metadata


def shell(*args):
    """A shell command line of `args`, each quoted."""
    return shlex.join(str(a) for a in args)


def parallel_shell_commands(commands, items_file):
    """A command running each shell command of `commands` on one process per core (xargs -P).

    xargs stops at the first command that exits with 255, which is how ffmpegthumbnailer and
    vipsthumbnail report a failure: `|| exit 1` turns that into an ordinary failure, at the cost
    of one small shell per file staying beside the tool (counted in the peak RSS).
    """
    items_file.write_bytes(b"".join(f"{c} || exit 1".encode() + b"\0" for c in commands))
    return ["xargs", "-0", "-a", str(items_file), "-n", "1", "-P", str(os.cpu_count()),
            "sh", "-c"]


def jpeg_size(path):
    """(width, height) of a JPEG file from its SOF marker, or None when it is not one."""
    with open(path, "rb") as f:
        if f.read(2) != b"\xff\xd8":
            return None
        while True:
            marker = f.read(2)
            if len(marker) < 2 or marker[0] != 0xFF:
                return None
            length = int.from_bytes(f.read(2), "big")
            if 0xC0 <= marker[1] <= 0xCF and marker[1] not in (0xC4, 0xC8, 0xCC):
                data = f.read(5)
                return int.from_bytes(data[3:5], "big"), int.from_bytes(data[1:3], "big")
            f.seek(length - 2, 1)


class Thumbs:
    """`thumbs warm` into a new, empty cache."""

    label, kinds, thumbnail = "thumbs", ("videos", "raw"), True

    def __init__(self, binary, work):
        self.binary, self.config = binary, work / "thumbs.json"
        # A budget no run reaches: the default (2 GiB) could make a long run evict.
        measure.write_json(self.config, {
            "renditions": [{"name": f"s{SIZE}", "size": f"{SIZE}x{SIZE}", "mode": "fit",
                            "format": "jpeg", "quality": 80}],
            "workers": 0, "cache": {"budget": "1000 GiB"}})

    def command(self, folder, files, out):
        """The command and extra environment of one run."""
        return [str(self.binary), "warm", str(folder), "--config", str(self.config),
                "--cache", str(out / "cache"), "--quiet", "--json"], {}

    def count(self, result, files, out):
        """(rendered, failed, failures by kind, small) from the summary; status 1: some failed."""
        lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
        if result.returncode not in (0, 1) or not lines:  # a crash: every file counts as failed
            code = result.returncode
            how = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
            return 0, len(files), [f"thumbs {how}, see stderr_head in the JSON"], 0
        summary = json.loads(lines[-1])
        kinds = [f"{kind} {n}" for kind, n in summary["failuresByKind"].items()]
        return summary["rendered"], summary["failed"], kinds, 0


class Peer:
    """A peer: one shell command per file, `make(path, link, out)`, all run by xargs -P.

    With `scratch`, the command writes next to its input (dcraw's `-e`): it gets, as `link`, a
    hard link in a folder of the run's own, made before the timing; otherwise `link` is `path`.
    `output(path, link, out)` is the file the command should leave: out/STEM.jpg by default.
    """

    def __init__(self, label, kind, make, env=None, scratch=False, output=None, thumbnail=True):
        self.label, self.kinds, self.make, self.env = label, (kind,), make, env or {}
        self.scratch, self.thumbnail = scratch, thumbnail
        self.output = output or (lambda path, link, out: out / f"{path.stem}.jpg")

    def link(self, path, out):
        """The name the command gets for `path`."""
        return out / "in" / path.name if self.scratch else path

    def command(self, folder, files, out):
        """The command and extra environment of one run."""
        if self.scratch:
            (out / "in").mkdir()
            for path in files:
                os.link(path, self.link(path, out))
        commands = [self.make(path, self.link(path, out), out) for path in files]
        return parallel_shell_commands(commands, out / "items"), self.env

    def count(self, result, files, out):
        """(files with an output, how many others, their names, thumbnails under 256 px)."""
        ok, missing, small = 0, [], 0
        for path in files:
            made = self.output(path, self.link(path, out), out)
            if not made or not made.is_file():
                missing.append(path.name)
                continue
            ok += 1
            size = jpeg_size(made) if self.thumbnail else None
            small += bool(size and max(size) < SIZE)
        return ok, len(missing), missing, small


def peers(env):
    """The peers; `env`: the environment of vipsthumbnail. dcraw_emu only if it has -e."""
    def vips(path, out):  # vipsthumbnail's options after its input
        return shell("-s", BOX, "-o", f"{out}/{path.stem}.jpg{VIPS_OUT}")

    found = [Peer("ffmpegthumbnailer", "videos", lambda p, link, out: shell(
        "ffmpegthumbnailer", "-i", p, "-o", out / f"{p.stem}.jpg", "-s", SIZE, "-q", 8))]
    # exiftool prints whichever of the two tags the file has (DNG: PreviewImage; CRW only
    # JpgFromRaw), one after the other if both exist: none of these files has both.
    found.append(Peer("exiftool → vipsthumbnail", "raw", lambda p, link, out: shell(
        "exiftool", "-b", "-PreviewImage", "-JpgFromRaw", p) + " | vipsthumbnail stdin "
        + vips(p, out), env))
    for binary in ("simple_dcraw", "dcraw_emu"):
        if has_option(binary, "-e"):  # IN.thumb.jpg or .ppm: the shell's glob finds it
            found.append(Peer(
                f"{binary} -e → vipsthumbnail", "raw", lambda p, link, out, b=binary:
                f"{shell(b, '-e', link)} && vipsthumbnail {shlex.quote(str(link))}.thumb.* "
                + vips(p, out), env, True))
    found.append(Peer("simple_dcraw -e alone (extraction only, NO thumbnail)", "raw",
                      lambda p, link, out: shell("simple_dcraw", "-e", link), scratch=True,
                      output=lambda p, link, out: next(link.parent.glob(f"{link.name}.thumb.*"),
                                                       None), thumbnail=False))
    return found


def has_option(binary, option):
    """Whether `binary`'s usage text (printed when run without arguments) lists `option`."""
    done = subprocess.run([binary], capture_output=True, text=True)
    return re.search(rf"^\s*{re.escape(option)}\s", done.stdout + done.stderr, re.M) is not None


def generated(path, what, command):
    """`path`, made (niced) by the command list `command(temporary path)` unless it exists."""
    if path.is_file():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"generating {what}: {path} (once; kept for later runs)", file=sys.stderr)
    start, tmp = time.monotonic(), path.with_name(f"tmp-{path.name}")
    cmd = [str(arg) for arg in command(tmp)]
    done = subprocess.run(["nice", "-n", "19", *cmd], capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"bench-media: {shlex.join(cmd)} failed:\n{done.stdout}{done.stderr}")
    tmp.rename(path)
    print(f"  took {time.monotonic() - start:.0f} s", file=sys.stderr)
    return path


def clip(work, width, height, seconds):
    """A generated H.264 + AAC clip: testsrc2 (moving detail) with temporal noise, 30 fps.

    noise=alls=8 gives about 14 Mbit/s at 1080p and 55 at 4K, a phone's rates: stronger noise
    (alls=20) made 110 Mbit/s at 1080p, more than any camera writes.
    """
    return generated(
        work / "clips" / f"testsrc2-noise-{width}x{height}-{seconds}s.mp4",
        f"a {seconds} s {width}x{height} H.264 clip (takes minutes)", lambda tmp: [
            "ffmpeg", "-nostdin", "-y", "-loglevel", "error",
            "-f", "lavfi", "-i", f"testsrc2=size={width}x{height}:rate=30",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
            "-t", seconds, "-vf", "noise=alls=8:allf=t", "-c:v", "libx264", "-preset", "veryfast",
            "-crf", "23", "-g", "60", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k",
            "-f", "mp4", tmp])


def dng(work, python, name, preview_jpeg):
    """A generated 3008x2000 DNG whose preview is `preview_jpeg`'s bytes (make-test-dng.py)."""
    return generated(work / "dng" / f"{name}.dng", f"the DNG {name}", lambda tmp: [
        python, REPO / "scripts" / "make-test-dng.py", tmp, "--raw", "3008x2000",
        "--preview", "160x120:rgb", "--preview-jpeg", preview_jpeg, "--orientation", "1"])


def link_dataset(root, name, sources, copies):
    """root/name: `copies` hard links to each of `sources` under distinct names; their paths."""
    folder = root / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    files = []
    for index, source in enumerate(sources):
        stem = re.sub(r"[^A-Za-z0-9_-]+", "_", source.stem)
        for copy in range(copies):
            path = folder / f"{index:02d}_{stem}_c{copy:02d}{source.suffix}"
            try:
                os.link(source, path)
            except OSError as error:
                sys.exit(f"bench-media: cannot hard-link {source} into {folder} ({error}): "
                         "--work must be on the file system of ../shared")
            files.append(path)
    return files


def datasets(args, work):
    """[(name, kind, files, description)] for the kinds chosen, generating what is missing."""
    chosen, sets = args.only or "videos,raw", []
    root = work / "sets"
    if "videos" in chosen:
        videos = sorted(MEDIA.glob("video/*"))
        sets.append(("shared-videos", "videos",
                     link_dataset(root, "shared-videos", videos, args.copies),
                     f"the {len(videos)} videos of ../shared/media/video × {args.copies}"))
        for name, (w, h), copies in (("1080p", (1920, 1080), args.copies_1080p),
                                     ("4k", (3840, 2160), args.copies_4k)):
            source = clip(work, w, h, args.clip_seconds)
            sets.append((name, "videos", link_dataset(root, name, [source], copies),
                         f"{args.clip_seconds} s {w}×{h} 30 fps H.264 + AAC × {copies}"))
    if "raw" in chosen:
        raws = [MEDIA / "raw" / name for name in SHARED_RAW]
        sets.append(("shared-raw", "raw", link_dataset(root, "shared-raw", raws, args.copies_raw),
                     f"Canon CRW (640×480 JpgFromRaw) and Kodak KDC (80×60 thumbnail only) × "
                     f"{args.copies_raw}"))
        full = dng(work, args.python, "full-preview", NIKON)
        small_jpeg = work / "dng" / "preview-1616.jpg"
        generated(small_jpeg, "the 1616 px preview", lambda tmp: [
            "vips", "thumbnail", NIKON, f"{tmp}[Q=90,strip]", "1616"])
        small = dng(work, args.python, "small-preview", small_jpeg)
        for name, source, about in (("dng-full-preview", full, "3008×2000 JPEG preview"),
                                    ("dng-small-preview", small, "1616×1074 JPEG preview")):
            sets.append((name, "raw", link_dataset(root, name, [source], args.copies_dng),
                         f"3008×2000 DNG, {about} (a Nikon D50 photo) × {args.copies_dng}"))
    return sets


def versions(thumbs_binary):
    """Versions of the tools compared, for the report's header."""
    def out(*cmd):
        done = subprocess.run(cmd, capture_output=True, text=True)
        return (done.stdout or done.stderr).strip()

    return {"thumbs": out(str(thumbs_binary), "version").replace("\n", "; "),
            "ffmpegthumbnailer": out("ffmpegthumbnailer", "-v").split(":")[-1].strip(),
            "exiftool": out("exiftool", "-ver"),
            "libvips": out("vipsthumbnail", "--vips-version"),
            "packages": out("dpkg-query", "-W", "-f", "${Package} ${Version}, ", "libraw-bin",
                            "ffmpegthumbnailer", "libvips-tools").rstrip(", ")}


def warm(paths):
    """Reads each distinct file (inode) of `paths` once: hard links share their pages."""
    seen = {}
    for p in paths:
        seen.setdefault((p.stat().st_dev, p.stat().st_ino), p)
    measure.warm_page_cache(seen.values())


def measure_all(tools, sets, runs, work):
    """Runs every tool of a dataset's kind on it `runs` times, interleaved; the records."""
    records = []
    for run in range(1, runs + 1):
        for name, kind, files, _ in sets:
            warm(files)
            for tool in (t for t in tools if kind in t.kinds):
                out = Path(tempfile.mkdtemp(dir=work / "out"))
                cmd, env = tool.command(work / "sets" / name, files, out)
                measure.wait_for_quiet()
                result = measure.run(cmd, env=env)
                ok, failed, failures, small = tool.count(result, files, out)
                shutil.rmtree(out)
                share = measure.noise(result)
                records.append({"run": run, "dataset": name, "kind": kind, "tool": tool.label,
                                "thumbnail": tool.thumbnail, "files": len(files),
                                "wall": result.wall, "ok": ok, "failed": failed,
                                "failures": sorted(set(failures)), "small": small,
                                "exit": result.returncode, "peak_rss": result.peak_rss,
                                "peak_rss_anon": result.peak_rss_anon, "cpu": result.cpu,
                                "noise": share, "stderr_head": result.stderr[:3000],
                                "stderr_tail": result.stderr[-2000:]})
                noisy = f" (other processes took {share:.0%} of the machine: not a clean " \
                    "measurement)" if share > measure.NOISY else ""
                print(f"run {run}/{runs} {name} {tool.label}: {result.wall:.2f} s, {ok} ok, "
                      f"{failed} failed, {measure.mb(result.peak_rss):.0f} MB{noisy}",
                      file=sys.stderr)
    return records


def summarise(records):
    """Per (dataset, tool): median wall and files/s, max peak RSS, the last run's counts."""
    groups = {}
    for r in records:
        groups.setdefault((r["dataset"], r["tool"]), []).append(r)
    return {key: {"wall": measure.median([r["wall"] for r in runs]),
                  "fps": measure.median([r["ok"] / r["wall"] for r in runs]),
                  "peak_rss": max(r["peak_rss"] for r in runs), "last": runs[-1]}
            for key, runs in groups.items()}


def report_table(summary, sets, kind):
    """The markdown table of one kind, then each tool's failures and undersized outputs."""
    rows, notes = [], []
    for name, k, files, _ in sets:
        if k != kind:
            continue
        base = summary.get((name, "thumbs"))
        for (dataset, tool), s in summary.items():
            if dataset != name:
                continue
            last = s["last"]
            speedup = f"{s['wall'] / base['wall']:.2f}×" if base and tool != "thumbs" else "–"
            rows.append([name, len(files), tool, f"{s['wall']:.2f}", f"{s['fps']:.1f}",
                         f"{last['ok']} / {last['failed']}", f"{measure.mb(s['peak_rss']):.0f}",
                         speedup])
            if last["failures"]:
                shown = last["failures"][:4] + (["…"] if len(last["failures"]) > 4 else [])
                notes.append(f"- {name}, {tool}: {last['failed']} failed ({', '.join(shown)})")
            if last["small"]:
                notes.append(f"- {name}, {tool}: {last['small']} of its thumbnails are smaller "
                             f"than {SIZE} px (the only embedded picture was)")
    table = measure.markdown_table(
        ["dataset", "files", "tool", "wall s (median)", "files/s", "ok / failed",
         "peak RSS MB", "Thumbs ×"], rows, ["l", "r", "l", "r", "r", "r", "r", "r"])
    return table + ("\n\n" + "\n".join(notes) if notes else "")


def targets(summary, sets):
    """(description, ratio, goal, met) per dataset: Thumbs' speed-up (peer wall ÷ Thumbs wall)."""
    checks = []
    for name, kind, _, _ in sets:
        base = summary.get((name, "thumbs"))
        peers = {tool: s for (d, tool), s in summary.items()
                 if d == name and tool != "thumbs" and s["last"]["thumbnail"]}
        if not base or not peers:
            continue
        goal = 1.5 if kind == "videos" else 2.0
        fastest = min(peers, key=lambda t: peers[t]["wall"])
        failed = {t: s["last"]["failed"] for t, s in [("thumbs", base), (fastest, peers[fastest])]
                  if s["last"]["failed"]}
        caveat = "; failed: " + ", ".join(f"{t} {n}" for t, n in failed.items()) if failed else ""
        ratio = peers[fastest]["wall"] / base["wall"]
        checks.append((f"{kind} {name}: Thumbs ≥ {goal:g}× "
                       + ("ffmpegthumbnailer" if kind == "videos" else
                          f"the fastest thumbnail pipeline ({fastest})") + caveat,
                       ratio, goal, ratio >= goal))
    return checks


def parse_arguments():
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench-media", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n  scripts/bench-media     # a few minutes; the first time also "
               "~10 minutes to generate the clips\n"
               "  scripts/bench-media --runs 1 --only raw --copies-dng 10")
    parser.add_argument("--thumbs", type=Path, required=True, metavar="PATH",
                        help="the thumbs binary (the wrapper builds one when this is not given)")
    parser.add_argument("--runs", type=int, default=3, metavar="N",
                        help="runs of each measurement (default 3)")
    parser.add_argument("--only", choices=["videos", "raw"], help="measure one kind only")
    for option, default, what in (("--copies", 10, "each of the 6 shared videos"),
                                  ("--copies-1080p", 20, "the 1080p clip"),
                                  ("--copies-4k", 10, "the 4K clip"),
                                  ("--copies-raw", 20, "each of the 2 shared RAW files"),
                                  ("--copies-dng", 40, "each generated DNG")):
        parser.add_argument(option, type=int, default=default, metavar="K",
                            help=f"hard links to {what} (default {default})")
    parser.add_argument("--clip-seconds", type=int, default=60, metavar="S",
                        help="length of the generated clips (default 60; shorter ones only to "
                             "try the script out)")
    parser.add_argument("--vips-concurrency", type=int, default=1, metavar="N",
                        help="VIPS_CONCURRENCY of vipsthumbnail, as in compare-peers; 0: "
                             "libvips' default (default 1)")
    parser.add_argument("--python", type=Path, default=REPO / ".build/test-venv/bin/python",
                        metavar="PATH", help="a Python with numpy, tifffile and imagecodecs, for "
                                             "scripts/make-test-dng.py (default .build/test-venv)")
    parser.add_argument("--work", type=Path, default=REPO / ".build/bench-media", metavar="DIR",
                        help="datasets, generated media and outputs (default .build/bench-media); "
                             "on the file system of ../shared, for the hard links")
    parser.add_argument("--json-out", type=Path, metavar="FILE",
                        help="every measurement (default WORK/results.json)")
    return parser.parse_args()


def main():
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
    tools = [Thumbs(args.thumbs.resolve(), work)] + peers(env)
    machine, tool_versions = measure.machine_info(), versions(args.thumbs.resolve())
    records = measure_all(tools, sets, args.runs, work)

    summary = summarise(records)
    checks = targets(summary, sets)
    header = (f"{machine['nproc']} cores, {machine['cpu']}, {machine['memory_gib']} GiB, "
              f"{machine['os']}. Thumbs: {tool_versions['thumbs']}. ffmpegthumbnailer "
              f"{tool_versions['ffmpegthumbnailer']}, exiftool {tool_versions['exiftool']}, "
              f"{tool_versions['libvips']} (VIPS_CONCURRENCY="
              f"{args.vips_concurrency or 'default'}); "
              f"{tool_versions['packages']}. {args.runs} run(s), median wall; peak RSS = max over "
              "runs of the whole process tree; Thumbs × = the peer's wall ÷ Thumbs' wall. "
              f"Peers: one process per file, {os.cpu_count()} at a time (xargs -P).")
    noisiest = max(r["noise"] for r in records)
    if noisiest > measure.NOISY:
        header += (f"\n\n**Warning:** other processes took up to {noisiest:.0%} of the machine "
                   "during a run: these figures are not clean; rerun on a quiet machine.")
    about = "\n".join(f"- {name}: {len(files)} files: {text}" for name, _, files, text in sets)
    report = f"## Videos and camera RAW files\n\n{header}\n\nDatasets (hard links):\n\n{about}\n"
    for kind, title in (("videos", "Videos"), ("raw", "Camera RAW")):
        if any(k == kind for _, k, _, _ in sets):
            report += f"\n### {title}\n\n{report_table(summary, sets, kind)}\n"
            if kind == "raw" and not any(t.label.startswith("dcraw_emu") for t in tools):
                report += "\ndcraw_emu has no -e option (LibRaw 0.20): not measured.\n"
    report += "\n### Targets\n\n" + "\n".join(
        f"- {'met' if met else 'MISSED'}: {text}: {ratio:.2f}× (goal {goal:g}×)"
        for text, ratio, goal, met in checks) + "\n"
    print(report)
    json_out = args.json_out or work / "results.json"
    measure.write_json(json_out, {
        "machine": machine, "versions": tool_versions, "runs": args.runs,
        "options": {k: str(v) for k, v in vars(args).items()},
        "datasets": [{"name": n, "kind": k, "files": len(f), "about": a} for n, k, f, a in sets],
        "records": records,
        "targets": [{"target": t, "ratio": r, "goal": g, "met": m} for t, r, g, m in checks]})
    print(f"bench-media: measurements in {json_out}", file=sys.stderr)


if __name__ == "__main__":
    main()
