"""What starting Thumbs costs, against vipsthumbnail in the same run.

1. Cheap commands: `thumbs version` and `thumbs --help` against `vipsthumbnail --vips-version`:
   median wall time and peak RSS (goal: `thumbs version` at most 15 ms and 20 MiB).
2. One photo as a whole process: `thumbs render PHOTO --size 256x256 -o DIR/PHOTO.jpg` with
   isolation "process" (the default: its own process confined) and "none", against `vipsthumbnail PHOTO -s
   '256x256>'` at the same quality; goal: Thumbs at least 2x faster. The photos are 12 MP phone
   JPEGs of ../shared/photos (skipped when it is absent) unless --photo names others.
3. A small warm against a large one: `thumbs warm` of 30 photos and of 3,000, isolation
   "process" and "none"; goal: the 30's photos per second at least 0.85x the 3,000's. The 3,000
   are 640x480 JPEGs made with Pillow (generated_photos; once, kept in --root); the 30 are
   copies of the first 30 of them.

Each measurement alternates its commands round by round. Every run starts in a new, empty
folder with a new cache and XDG folders of its own (so no config.json of the user's), and its
time is the wall time of the whole process, from the Python runner (~1 ms of spawning
included, alike for every command). Before its timed runs, each command runs once traced, to
read the shared objects its process maps as it exits (thumbs_tools.mapped); that run also
brings the programs into the page cache. Peak RSS is the largest of the runs, over the process
tree (render workers included).

Normally run through scripts/bench-startup, which installs vipsthumbnail and Pillow and builds
Thumbs.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import events, mapped, runner
from ..figures import alternation
from ..paths import SHARED
from ..report import load_average, machine_info, write_json
from . import generated_photos
from .startup_report import QUALITY, SIZE, Group, Measured, Results, report

SMALL, LARGE = 30, 3000  # the two warms' libraries, in photos
PHOTOS = ("2019-trip/book-beside-flowers.jpg", "phone/dog_exif_extended_xmp_icc.jpg")
ISOLATIONS = ("process", "none")
PARTS = ("startup", "render", "warm")


@dataclass(frozen=True)
class Plan:
    """How many timed runs each measurement makes."""

    startup: int
    render: int
    small_warm: int
    large_warm: int


FULL = Plan(startup=30, render=15, small_warm=10, large_warm=5)
QUICK = Plan(startup=20, render=5, small_warm=3, large_warm=1)


@dataclass(frozen=True)
class Command:
    """A command as a benchmark runs it: `argv` of a run's own new folder, and what its run
    must have done (`check` raises RuntimeError otherwise, returns the photos it made)."""

    label: str
    argv: Callable[[Path], list[str]]
    check: Callable[[Path, runner.Result], int]
    details: dict[str, str] = field(default_factory=dict)
    is_peer: bool = False


def exited_zero(result: runner.Result) -> None:
    """Raises RuntimeError unless `result` ended with exit status 0."""
    if result.returncode != 0:
        raise RuntimeError(f"exit status {result.returncode}: {result.stderr.strip()[-400:]}")


def plain(_folder: Path, result: runner.Result) -> int:
    """The check of a command that makes nothing: exit status 0."""
    exited_zero(result)
    return 0


def one_thumbnail(folder: Path, result: runner.Result) -> int:
    """The check of a render: exit status 0 and one file in the run's out/ folder."""
    exited_zero(result)
    written = [p for p in (folder / "out").rglob("*") if p.is_file()]
    if len(written) != 1:
        raise RuntimeError(f"{len(written)} files written in {folder / 'out'}, not 1")
    return 1


def warmed(photos: int) -> Callable[[Path, runner.Result], int]:
    """The check of a warm of `photos` photos: exit status 0, each of them rendered."""

    def check(_folder: Path, result: runner.Result) -> int:
        exited_zero(result)
        summary = events.warm_summary(result.stdout)
        if summary is None or summary.rendered != photos:
            raise RuntimeError(f"rendered {summary and summary.rendered} of {photos} photos")
        return photos

    return check


def environment(folder: Path) -> dict[str, str]:
    """The XDG folders of a run: empty, so that no configuration or cache of the user's is read."""
    return {"XDG_CONFIG_HOME": str(folder / "config-home"), "XDG_CACHE_HOME": str(folder / "cache-home")}


def measure(commands: Sequence[Command], rounds: int, scratch: Path) -> Group:
    """Each command run once traced, then `rounds` timed runs each, in alternating order.

    The group's noise is the share of the machine other processes took during the timed runs.
    """
    folder = scratch / "run"

    def fresh() -> Path:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        return folder

    objects = []
    for command in commands:
        maps = mapped.maps_at_exit(command.argv(fresh()), env=environment(folder), cwd=folder)
        objects.append(None if maps is None else mapped.shared_objects(maps))
    results: list[list[runner.Result]] = [[] for _ in commands]
    photos = [0 for _ in commands]
    busy, own, reaped = runner.machine_busy_seconds(), runner.own_cpu_seconds(), runner.children_cpu_seconds()
    start = time.perf_counter()
    for round_number in range(1, rounds + 1):
        for index in alternation(range(len(commands)), round_number):
            command = commands[index]
            result = runner.run(command.argv(fresh()), env=environment(folder), cwd=folder)
            try:
                photos[index] = command.check(folder, result)
            except RuntimeError as error:
                raise RuntimeError(f"{command.label} {command.details}: {error}") from error
            results[index].append(result)
    wall = time.perf_counter() - start
    other = runner.machine_busy_seconds() - busy
    other -= runner.own_cpu_seconds() - own + runner.children_cpu_seconds() - reaped
    shutil.rmtree(folder, ignore_errors=True)
    measured = [
        Measured(
            label=c.label,
            walls=[r.wall for r in runs],
            peak_rss=max(r.peak_rss for r in runs),
            objects=objects_at_exit,
            photos=made,
            is_peer=c.is_peer,
            details=c.details,
        )
        for c, runs, objects_at_exit, made in zip(commands, results, objects, photos, strict=True)
    ]
    return Group(measured, runner.noise_share(other, wall, runner.cores()))


def cheap_commands(thumbs: Path, vipsthumbnail: str) -> list[Command]:
    return [
        Command("thumbs version", lambda _f: [str(thumbs), "version"], plain),
        Command("thumbs --help", lambda _f: [str(thumbs), "--help"], plain),
        Command("vipsthumbnail --vips-version", lambda _f: [vipsthumbnail, "--vips-version"], plain, is_peer=True),
    ]


def render_commands(thumbs: Path, vipsthumbnail: str, photo: Path, configs: dict[str, Path]) -> list[Command]:
    def thumbs_render(isolation: str) -> Callable[[Path], list[str]]:
        # One file to one file: what a one-file call does (rendered in the command's own process).
        def command(f: Path) -> list[str]:
            (f / "out").mkdir()
            return [
                str(thumbs),
                "render",
                str(photo),
                "--size",
                f"{SIZE}x{SIZE}",
                "-o",
                f"{f / 'out'}/{photo.stem}.jpg",
                "--cache",
                str(f / "cache"),
                "--config",
                str(configs[isolation]),
                "--quiet",
            ]

        return command

    def vips(f: Path) -> list[str]:
        (f / "out").mkdir()
        return [vipsthumbnail, str(photo), "-s", f"{SIZE}x{SIZE}>", "-o", f"{f / 'out'}/%s.jpg[Q={QUALITY},strip]"]

    photo_name = {"photo": photo.name}
    commands = [
        Command("thumbs render", thumbs_render(i), one_thumbnail, {**photo_name, "isolation": i}) for i in ISOLATIONS
    ]
    return [*commands, Command("vipsthumbnail", vips, one_thumbnail, photo_name, is_peer=True)]


def warm_commands(thumbs: Path, library: Path, photos: int, configs: dict[str, Path]) -> list[Command]:
    def thumbs_warm(isolation: str) -> Callable[[Path], list[str]]:
        return lambda f: [
            str(thumbs),
            "warm",
            str(library),
            "--cache",
            str(f / "cache"),
            "--config",
            str(configs[isolation]),
            "--quiet",
            "--json",
        ]

    return [Command("thumbs warm", thumbs_warm(i), warmed(photos), {"isolation": i}) for i in ISOLATIONS]


def warm_libraries(root: Path) -> tuple[Path, Path]:
    """(the small library, the large one): LARGE generated photos, and copies of the first SMALL."""
    files, _ = generated_photos.ensure_library(root, LARGE)
    small = root / f"{LARGE}-first-{SMALL}"
    if sorted(p.name for p in small.glob("*.jpg")) != [p.name for p in files[:SMALL]]:
        shutil.rmtree(small, ignore_errors=True)
        small.mkdir(parents=True)
        for path in files[:SMALL]:
            shutil.copyfile(path, small / path.name)
    runner.warm_page_cache([*files, *small.glob("*.jpg")])
    return small, root / str(LARGE)


def parse_arguments(arguments: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench-startup",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  scripts/bench-startup --quick\n"
        "  scripts/bench-startup --thumbs .build/release/thumbs --markdown startup.md\n"
        "  scripts/bench-startup --parts startup,render --photo ~/Pictures/IMG_0001.JPG",
    )
    parser.add_argument(
        "--thumbs",
        type=Path,
        required=True,
        metavar="PATH",
        help="the thumbs binary (the wrapper builds one if not given)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="fewer runs: 20 of each cheap command, 5 renders, warms 3 and 1 times"
    )
    parser.add_argument("--parts", default=",".join(PARTS), help=f"what to measure (default {','.join(PARTS)})")
    parser.add_argument(
        "--photo",
        type=Path,
        action="append",
        metavar="FILE",
        help="a photo to render (repeatable; default: " + " and ".join(f"../shared/photos/{p}" for p in PHOTOS) + ")",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=Path("/tmp/thumbs-startup"),
        metavar="DIR",
        help="folder of the generated libraries, kept between runs, and of the runs (default /tmp/thumbs-startup)",
    )
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=30,
        metavar="SECONDS",
        help="before each measurement, wait up to this long for the rest of the machine to be idle (default 30)",
    )
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the report to this file")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every measurement to this file")
    args = parser.parse_args(arguments)
    args.parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    if unknown := [p for p in args.parts if p not in PARTS]:
        parser.error(f"unknown part {', '.join(unknown)} (known: {', '.join(PARTS)})")
    return args


def say(text: str) -> None:
    print(f"bench-startup: {text}", file=sys.stderr)


def main() -> None:
    """Measures the parts asked for and prints the report."""
    args = parse_arguments()
    try:
        measure_and_report(args)
    except RuntimeError as error:
        sys.exit(f"bench-startup: {error}")


def measure_and_report(args: argparse.Namespace) -> None:
    """Runs the parts `args` asks for; prints (and writes) the report."""
    plan = QUICK if args.quick else FULL
    thumbs = args.thumbs.resolve()
    vipsthumbnail = shutil.which("vipsthumbnail")
    if vipsthumbnail is None:
        sys.exit("bench-startup: vipsthumbnail is needed (Debian's libvips-tools)")
    scratch = args.root / "runs"
    scratch.mkdir(parents=True, exist_ok=True)
    configs = {i: scratch / f"isolation-{i}.json" for i in ISOLATIONS}
    for isolation, path in configs.items():
        write_json(path, {"isolation": isolation})
    results = Results(load_before=load_average())

    def run_group(name: str, commands: list[Command], rounds: int) -> Group:
        runner.wait_for_quiet(timeout=args.wait_quiet)
        say(f"{name}: {len(commands)} commands, {rounds} timed runs each, alternating")
        group = measure(commands, rounds, scratch)
        for m in group.measured:
            said = " ".join([m.label, *m.details.values()])
            say(f"  {said}: {m.wall * 1000:.1f} ms median, peak {m.peak_rss / 2**20:.1f} MiB")
        return group

    if "startup" in args.parts:
        results.startup = run_group("cheap commands", cheap_commands(thumbs, vipsthumbnail), plan.startup)
    if "render" in args.parts:
        photos = args.photo or [SHARED / "photos" / p for p in PHOTOS]
        if args.photo is None and not (SHARED / "photos").is_dir():
            results.render_skipped = "../shared/photos not found"
            say("render: skipped: ../shared/photos not found (--photo FILE names a photo)")
        else:
            if missing := [str(p) for p in photos if not p.is_file()]:
                raise RuntimeError(f"no photo at {', '.join(missing)}")
            runner.warm_page_cache(photos)
            results.render = [
                run_group(f"render of {p.name}", render_commands(thumbs, vipsthumbnail, p, configs), plan.render)
                for p in photos
            ]
    if "warm" in args.parts:
        small, large = warm_libraries(args.root)
        results.warm_photos = (
            f"{generated_photos.WIDTH}x{generated_photos.HEIGHT} JPEGs made with Pillow "
            f"({large}; the {SMALL} are copies of its first {SMALL})"
        )
        results.warm = [
            run_group(f"warm of {n:,} photos", warm_commands(thumbs, library, n, configs), rounds)
            for n, library, rounds in ((SMALL, small, plan.small_warm), (LARGE, large, plan.large_warm))
        ]
    machine = machine_info()
    text = report(results, machine, thumbs, quick=args.quick)
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    if args.json:
        write_json(args.json, {"machine": machine, "thumbs": str(thumbs), "plan": asdict(plan), **json_of(results)})


def json_of(results: Results) -> dict[str, Any]:
    """What `results` measured, as JSON."""

    def group(g: Group | None) -> dict[str, Any] | None:
        return None if g is None else {"noise": g.noise, "measured": [m.json() for m in g.measured]}

    return {
        "load_before": results.load_before,
        "startup": group(results.startup),
        "render": [group(g) for g in results.render],
        "render_skipped": results.render_skipped,
        "warm": [group(g) for g in results.warm],
    }


if __name__ == "__main__":
    main()
