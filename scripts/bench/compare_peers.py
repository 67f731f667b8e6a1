#!/usr/bin/env python3
"""Thumbs warm against vipsthumbnail, ImageMagick and Pillow, on the photos of ../shared/photos.

Every tool makes the same thumbnails of the same files: one rendition (256x256) or three
(1024x1024, 512x512, 256x256), all "fit" (inside the box), never enlarged, turned upright,
metadata stripped, JPEG quality 80, into a fresh folder per run, using every core. Reports the
median wall time, images per second (photos with every thumbnail written, divided by the wall
time; failures counted apart), peak resident memory of the whole process tree, the ratios to
Thumbs measured in the same run, and whether the speed targets are met.

Normally run through scripts/compare-peers, which installs the peers and builds Thumbs.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True  # importing measure must leave no __pycache__ in the work tree
import measure  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
PHOTOS = REPO.parent / "shared" / "photos"
ONE = (256,)
THREE = (1024, 512, 256)  # largest first: the order the chained peers shrink in
# A single argument of a command line is limited to 128 KiB (MAX_ARG_STRLEN), and each
# vipsthumbnail invocation goes through `sh -c`: batches stay well below it.
MAX_FILES_PER_INVOCATION = 200


def parse_notes(notes):
    """The `key=value; ...` notes column of MANIFEST.tsv as a dict (bare words are dropped)."""
    pairs = (item.strip().split("=", 1) for item in notes.split(";"))
    return {p[0]: p[1] for p in pairs if len(p) == 2}


def manifest_selection(photos, dataset):
    """Relative paths of MANIFEST.tsv in `dataset`: "jpeg" or "mixed" (see --help)."""
    with open(photos / "MANIFEST.tsv") as f:
        header = f.readline().rstrip("\n").split("\t")
        path_col, notes_col = header.index("relative_path"), header.index("notes")
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    chosen = []
    for row in rows:
        path, notes = row[path_col], parse_notes(row[notes_col])
        if path.startswith("broken/"):
            continue
        if dataset == "jpeg":
            good = notes.get("loader") == "jpegload" and notes.get("decode") == "ok"
        else:
            # ok-with-warnings: libvips decodes the whole image (decode_fail_on_warning=ok too),
            # and reports something harmless such as an unknown TIFF tag.
            good = "loader" in notes and notes.get("decode") in ("ok", "ok-with-warnings")
        if good:
            chosen.append(path)
    return chosen


def build_dataset(photos, dataset, copies, root):
    """Copies the photos of `dataset` (`copies` times each) into root/dataset; returns their paths.

    Real copies under safe, distinct names (no spaces, one dot): every tool reads the same bytes
    from the same file system, and `vipsthumbnail -o %s_256.jpg` names outputs by the stem.
    """
    folder = root / dataset
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    files = []
    for index, relative in enumerate(manifest_selection(photos, dataset)):
        source = photos / relative
        stem = re.sub(r"[^A-Za-z0-9_-]+", "_", source.stem)
        for copy in range(copies):
            name = f"{index:03d}_{stem}" + (f"_c{copy}" if copies > 1 else "") + source.suffix
            shutil.copyfile(source, folder / name)
            files.append(folder / name)
    return files


def stem_of(path):
    """The name vipsthumbnail's %s gives a file: its name without the last extension."""
    return path.name.rsplit(".", 1)[0]


def balanced_batches(files, count):
    """`files` in `count` batches of similar total bytes (largest first onto the lightest batch)."""
    batches = [[] for _ in range(count)]
    loads = [0] * count
    for path in sorted(files, key=lambda p: p.stat().st_size, reverse=True):
        lightest = loads.index(min(loads))
        batches[lightest].append(path)
        loads[lightest] += path.stat().st_size
    return [b for b in batches if b]


def pixel_size(path):
    """(width, height) of an image, from its header."""
    from PIL import Image  # only once the wrapper made sure it is installed

    with Image.open(path) as image:
        return image.size


def written(files, sizes, out):
    """(photos with every thumbnail in `out`, how many others, their names)."""
    missing = [p.name for p in files
               if not all((out / f"{stem_of(p)}_{s}.jpg").is_file() for s in sizes)]
    return len(files) - len(missing), len(missing), missing


def parallel_shell_commands(commands, items_file):
    """A command running each shell command of `commands` on one process per core (xargs -P).

    xargs stays the root of the tree: its few hundred kilobytes are all that is added to the
    tools' own memory. Each item is `exec`ed so no shell lingers beside the tool.
    """
    items_file.write_bytes(b"".join(f"exec {c}".encode() + b"\0" for c in commands))
    return ["xargs", "-0", "-a", str(items_file), "-n", "1", "-P", str(os.cpu_count()),
            "sh", "-c"]


class Thumbs:
    """`thumbs warm` into a new, empty cache: every rendition from one decode per photo."""

    key = label = "thumbs"
    datasets = ("jpeg", "mixed")

    def __init__(self, binary, work):
        self.binary, self.work = binary, work

    def command(self, folder, files, sizes, out):
        """The command and extra environment of one run."""
        config = self.work / f"thumbs-{len(sizes)}.json"
        renditions = [{"name": f"s{s}", "size": f"{s}x{s}", "mode": "fit", "format": "jpeg",
                       "quality": 80} for s in sizes]
        # A budget no run reaches: the default (2 GiB) could make a run with many --copies evict.
        measure.write_json(config, {"renditions": renditions, "workers": 0,
                                    "cache": {"budget": "1000 GiB"}})
        return [str(self.binary), "warm", str(folder), "--config", str(config),
                "--cache", str(out / "cache"), "--quiet", "--json"], {}

    def count(self, result, files, sizes, out):
        """(photos rendered, failed, failures by kind) from the summary; status 1: some failed."""
        if result.returncode not in (0, 1):
            raise RuntimeError(f"thumbs exited with {result.returncode}: {result.stderr.strip()}")
        summary = [json.loads(line) for line in result.stdout.splitlines()
                   if line.startswith("{")][-1]
        kinds = [f"{kind} {n}" for kind, n in summary["failuresByKind"].items()]
        return summary["rendered"], summary["failed"], kinds


class VipsThumbnail:
    """vipsthumbnail, batches of files split over one process per core, one call per size."""

    key, label = "vipsthumbnail", "vipsthumbnail-parallel"
    datasets = ("jpeg", "mixed")

    def __init__(self, work, concurrency):
        self.work, self.concurrency = work, concurrency

    def command(self, folder, files, sizes, out):
        """The command and extra environment of one run."""
        batch_count = os.cpu_count() * -(-len(files) // (os.cpu_count() * MAX_FILES_PER_INVOCATION))
        batches = balanced_batches(files, batch_count)
        # vipsthumbnail writes one size per call: each size is its own call over the batch.
        # "WxH>" only ever shrinks.
        commands = [shlex.join(["vipsthumbnail", "-s", f"{s}x{s}>",
                                "-o", f"{out}/%s_{s}.jpg[Q=80,strip]", *map(str, batch)])
                    for s in sizes for batch in batches]
        env = {"VIPS_CONCURRENCY": str(self.concurrency)} if self.concurrency else {}
        return parallel_shell_commands(commands, out / "items"), env

    def count(self, result, files, sizes, out):
        """(photos with every thumbnail written, how many others, their names)."""
        return written(files, sizes, out)


class ImageMagick:
    """ImageMagick 6 convert, one single-threaded process per photo, one per core at a time.

    With several sizes, one process decodes the photo once and writes each size, largest first,
    each shrunk from the previous one. `jpeg_hint` adds `-define jpeg:size=`, ImageMagick's
    shrink-on-load for JPEG (to twice the largest box, which keeps its quality), to the photos
    at least that large: ImageMagick 6.9.11 turns a hint larger than the image into a 2x
    *enlargement* at decode (1800x1200 photos took 7x longer with a 2048x2048 hint).
    """

    def __init__(self, binary, jpeg_hint):
        self.binary, self.jpeg_hint = binary, jpeg_hint
        self.key = "imagemagick"
        self.label = "imagemagick (jpeg:size hint) [extra]" if jpeg_hint else "imagemagick"
        self.datasets = ("jpeg",) if jpeg_hint else ("jpeg", "mixed")  # the hint is JPEG's only

    def command(self, folder, files, sizes, out):
        """The command and extra environment of one run."""
        commands = []
        for path in files:
            args = [self.binary]
            hint = 2 * sizes[0]
            if self.jpeg_hint and min(pixel_size(path)) >= hint:
                args += ["-define", f"jpeg:size={hint}x{hint}"]
            # [0]: the first frame only (an animated GIF would give one file per frame).
            args += [f"{path}[0]", "-auto-orient", "-strip", "-quality", "80"]
            for size in sizes:
                target = f"{out}/{stem_of(path)}_{size}.jpg"
                # -write for every size but the last, which is the output itself.
                args += ["-thumbnail", f"{size}x{size}>"]
                args += ["-write", target] if size != sizes[-1] else [target]
            commands.append(shlex.join(args))
        return parallel_shell_commands(commands, out / "items"), {"MAGICK_THREAD_LIMIT": "1"}

    def count(self, result, files, sizes, out):
        """(photos with every thumbnail written, how many others, their names)."""
        return written(files, sizes, out)


class Pillow:
    """Pillow in a process pool of one process per core (pillow_thumbnails.py)."""

    key = label = "pillow"
    datasets = ("jpeg", "mixed")

    def command(self, folder, files, sizes, out):
        """The command and extra environment of one run."""
        listing = out / "list.tsv"
        listing.write_text("".join(f"{p}\t{stem_of(p)}\n" for p in files))
        script = Path(__file__).with_name("pillow_thumbnails.py")
        return [sys.executable, str(script), "--sizes", ",".join(map(str, sizes)),
                "--out", str(out), str(listing)], {}

    def count(self, result, files, sizes, out):
        """(photos with every thumbnail written, how many others, their names)."""
        return written(files, sizes, out)


def imagemagick_binary():
    """The real ImageMagick 6 convert, from its Debian package's file list.

    Never `convert` from PATH: on some machines that is a stand-in that is not ImageMagick.
    """
    listed = subprocess.run(["dpkg", "-L", "imagemagick-6.q16"], capture_output=True, text=True)
    for line in listed.stdout.splitlines():
        if line.endswith("/convert-im6.q16"):
            return line
    sys.exit("compare-peers: ImageMagick 6 (imagemagick-6.q16) is not installed")


def versions(thumbs_binary, convert):
    """Versions of the tools compared, for the report's header."""
    def first_line(cmd):
        done = subprocess.run(cmd, capture_output=True, text=True)
        return (done.stdout or done.stderr).splitlines()[0].strip()

    import PIL  # only once the wrapper made sure it is installed
    return {"libvips": first_line(["vipsthumbnail", "--vips-version"]),
            "imagemagick": first_line([convert, "-version"]).removeprefix("Version: ImageMagick "),
            "pillow": PIL.__version__, "thumbs": str(thumbs_binary)}


def noise_warning(share):
    """A warning to append to a run's line when other processes took part of the machine."""
    if share <= measure.NOISY:
        return ""
    return f" (other processes took {share:.0%} of the machine: not a clean measurement)"


def rendition_label(sizes):
    """'1 rendition' or '3 renditions'."""
    return "1 rendition" if len(sizes) == 1 else f"{len(sizes)} renditions"


def summarise(records):
    """Per (dataset, sizes, tool): median wall, median images/s, max peak RSS, failures."""
    groups = {}
    for r in records:
        groups.setdefault((r["dataset"], tuple(r["sizes"]), r["tool"]), []).append(r)
    summary = {}
    for key, runs in groups.items():
        summary[key] = {
            "wall": measure.median([r["wall"] for r in runs]),
            "ips": measure.median([r["ok"] / r["wall"] for r in runs]),
            "peak_rss": max(r["peak_rss"] for r in runs),
            "ok": runs[-1]["ok"], "failed": runs[-1]["failed"],
            "failures": runs[-1]["failures"]}
    return summary


def tables(summary, datasets, tools, photo_counts):
    """The markdown report: one table per dataset, then each tool's failures."""
    text = []
    for dataset in datasets:
        text.append(f"\n### {dataset}: {photo_counts[dataset]} files\n")
        rows = []
        for sizes in (ONE, THREE):
            base = summary.get((dataset, sizes, "thumbs"))
            for tool in tools:
                s = summary.get((dataset, sizes, tool.label))
                if s is None:
                    continue
                speed = f"{base['ips'] / s['ips']:.2f}×" if base and s["ips"] else "-"
                memory = f"{s['peak_rss'] / base['peak_rss']:.2f}×" if base else "-"
                rows.append([tool.label, rendition_label(sizes), s["ok"], s["failed"],
                             f"{s['wall']:.2f}", f"{s['ips']:.1f}",
                             f"{measure.mb(s['peak_rss']):.0f}", speed, memory])
        text.append(measure.markdown_table(
            ["tool", "renditions", "photos ok", "failed", "wall s (median)", "images/s",
             "peak RSS MB", "Thumbs ÷ peer, images/s", "peer ÷ Thumbs, RSS"],
            rows, ["l", "l"] + ["r"] * 7))
        failures = [f"- {label}, {rendition_label(sizes)}: {', '.join(s['failures'])}"
                    for (d, sizes, label), s in summary.items() if d == dataset and s["failures"]]
        if failures:
            text.append("\nFailures:\n" + "\n".join(failures) + "\n\nimages/s counts the "
                        "photos each tool rendered: a tool that fails on costly files (12 MP "
                        "HEICs) spends less time for what it does render, so its figure flatters "
                        "it.")
    return "\n".join(text)


def targets(summary):
    """The speed targets that this run can judge, as (description, ratio, goal, met) tuples."""
    checks = []

    def ips(dataset, sizes, label):
        s = summary.get((dataset, sizes, label))
        return s["ips"] if s and s["ips"] else None

    def check(text, dataset, sizes, peer_labels, goal):
        base = ips(dataset, sizes, "thumbs")
        peers = {label: ips(dataset, sizes, label) for label in peer_labels}
        peers = {label: v for label, v in peers.items() if v}
        if base and peers:
            fastest = max(peers, key=peers.get)
            ratio = base / peers[fastest]
            checks.append((f"{text} ({dataset}, {rendition_label(sizes)}; vs {fastest})",
                           ratio, goal, ratio >= goal))

    vips = ["vipsthumbnail-parallel"]
    check("Thumbs ≥ 1.3× Pillow", "jpeg", ONE, ["pillow"], 1.3)
    check("Thumbs ≥ 1.5× vipsthumbnail", "jpeg", ONE, vips, 1.5)
    check("Thumbs ≥ 1.3× vipsthumbnail", "mixed", ONE, vips, 1.3)
    check("Thumbs ≥ 1.5× Pillow", "jpeg", THREE, ["pillow"], 1.5)
    check("Thumbs ≥ 2× vipsthumbnail", "mixed", THREE, vips, 2.0)
    return checks


def measure_all(tools, files, runs, work):
    """Runs every tool on every dataset (`files`: dataset -> paths) `runs` times; the records.

    Runs are interleaved (each run goes through every tool) so that a drift of the machine
    spreads over all tools instead of landing on one.
    """
    records = []
    for run in range(1, runs + 1):
        for dataset, paths in files.items():
            measure.warm_page_cache(paths)
            for sizes in (ONE, THREE):
                for tool in tools:
                    if dataset not in tool.datasets:
                        continue
                    out = Path(tempfile.mkdtemp(dir=work / "out"))
                    cmd, env = tool.command(work / dataset, paths, sizes, out)
                    measure.wait_for_quiet()
                    result = measure.run(cmd, env=env)
                    ok, failed, failures = tool.count(result, paths, sizes, out)
                    shutil.rmtree(out)
                    records.append({"run": run, "dataset": dataset, "sizes": list(sizes),
                                    "tool": tool.label, "wall": result.wall, "ok": ok,
                                    "failed": failed, "failures": failures,
                                    "exit": result.returncode, "peak_rss": result.peak_rss,
                                    "peak_rss_anon": result.peak_rss_anon, "cpu": result.cpu,
                                    "noise": measure.noise(result),
                                    "stderr_tail": result.stderr[-2000:]})
                    print(f"run {run}/{runs} {dataset} {rendition_label(sizes)} {tool.label}: "
                          f"{result.wall:.2f} s, {ok} ok, {failed} failed, "
                          f"{measure.mb(result.peak_rss):.0f} MB"
                          + noise_warning(measure.noise(result)), file=sys.stderr)
    return records


def parse_arguments():
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/compare-peers", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="datasets (from ../shared/photos/MANIFEST.tsv, never from broken/):\n"
               "  jpeg   every JPEG that libvips decodes (loader=jpegload, decode=ok)\n"
               "  mixed  every photo libvips decodes, of any format\n"
               "         (decode=ok or ok-with-warnings)\n"
               "tools: thumbs, vipsthumbnail, imagemagick (with an extra jpeg:size row on jpeg),"
               " pillow\n\n"
               "examples:\n"
               "  scripts/compare-peers --runs 1 --dataset jpeg --only thumbs,vipsthumbnail\n"
               "  scripts/compare-peers --copies 4 --markdown peers.md --json peers.json")
    parser.add_argument("--thumbs", type=Path, required=True, metavar="PATH",
                        help="the thumbs binary (the wrapper builds one when this is not given)")
    parser.add_argument("--runs", type=int, default=3, metavar="N",
                        help="runs of each measurement (default 3)")
    parser.add_argument("--copies", type=int, default=1, metavar="K",
                        help="copies of each photo, for longer runs (default 1)")
    parser.add_argument("--dataset", choices=["jpeg", "mixed", "all"], default="all",
                        help="the photos to use (default all)")
    parser.add_argument("--only", metavar="TOOL[,TOOL]",
                        help="comma-separated tools to run (default: all)")
    # VIPS_CONCURRENCY=1 is the default because it was faster than libvips' own default (one
    # thread per core) in every clean comparison on the 2-core machine, by 3-9 % (--copies 3,
    # 3 runs, both datasets): with one process per core already, more threads per process only
    # add contention. 0 leaves the variable unset.
    parser.add_argument("--vips-concurrency", type=int, default=1, metavar="N",
                        help="VIPS_CONCURRENCY of the vipsthumbnail processes; 0: libvips' "
                             "default (default 1, which was faster)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/thumbs-peers"), metavar="DIR",
                        help="folder of the datasets and outputs (default /tmp/thumbs-peers)")
    parser.add_argument("--markdown", type=Path, metavar="FILE",
                        help="also write the report to this file")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="write every measurement to this file")
    return parser.parse_args()


def main():
    """Builds the datasets, runs every tool on each, prints the report."""
    args = parse_arguments()
    if not (PHOTOS / "MANIFEST.tsv").is_file():
        print("compare-peers: skipped: ../shared/photos not found")
        return
    convert = imagemagick_binary()
    work = args.work
    (work / "out").mkdir(parents=True, exist_ok=True)
    available = {"thumbs": [Thumbs(args.thumbs.resolve(), work)],
                 "vipsthumbnail": [VipsThumbnail(work, args.vips_concurrency)],
                 "imagemagick": [ImageMagick(convert, False), ImageMagick(convert, True)],
                 "pillow": [Pillow()]}
    chosen = args.only.split(",") if args.only else list(available)
    unknown = set(chosen) - set(available)
    if unknown:
        sys.exit(f"compare-peers: unknown tool(s) {', '.join(sorted(unknown))}; "
                 f"expected {', '.join(available)}")
    tools = [tool for key in available if key in chosen for tool in available[key]]
    datasets = ["jpeg", "mixed"] if args.dataset == "all" else [args.dataset]
    files = {d: build_dataset(PHOTOS, d, args.copies, work) for d in datasets}
    photo_counts = {d: f"{len(f)} ({len(f) // args.copies} photos × {args.copies})"
                    if args.copies > 1 else len(f) for d, f in files.items()}
    machine = measure.machine_info()
    tool_versions = versions(args.thumbs, convert)
    records = measure_all(tools, files, args.runs, work)

    summary = summarise(records)
    header = (f"{machine['nproc']} cores, {machine['cpu']}, {machine['memory_gib']} GiB, "
              f"{machine['os']}; {tool_versions['libvips']}, ImageMagick "
              f"{tool_versions['imagemagick']}, Pillow {tool_versions['pillow']}; "
              f"{args.runs} run(s), median wall, peak RSS = max over runs of the whole process "
              "tree")
    checks = targets(summary)
    target_lines = [f"- {'met' if met else 'MISSED'}: {text}: {ratio:.2f}× (goal {goal:g}×)"
                    for text, ratio, goal, met in checks]
    noisiest = max(r["noise"] for r in records)
    if noisiest > measure.NOISY:
        header += (f"\n\n**Warning:** other processes took up to {noisiest:.0%} of the machine "
                   "during a run: these figures are not clean; rerun on a quiet machine.")
    report = (f"## Thumbs and its peers\n\n{header}\n"
              + tables(summary, datasets, tools, photo_counts)
              + ("\n\n### Targets\n\n" + "\n".join(target_lines) if target_lines else "") + "\n")
    print(report)
    if args.markdown:
        args.markdown.write_text(report)
    if args.json:
        measure.write_json(args.json, {
            "machine": machine, "versions": tool_versions, "runs": args.runs,
            "copies": args.copies, "vips_concurrency": args.vips_concurrency,
            "photo_counts": photo_counts, "records": records,
            "targets": [{"target": t, "ratio": r, "goal": g, "met": m} for t, r, g, m in checks]})


if __name__ == "__main__":
    main()
