"""scripts/sweep's command line: `python3 -m mutation_sweep --help` (with scripts/ on the path)."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from . import mutate
from .judging import Settings
from .run import Recipe, Sweep, make_file, read_recipes, say
from .seeds import SeedError, Seeds

REPOSITORY = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="scripts/sweep",
        description="Mutated media files of every format through the real thumbs command, for a bounded time.",
    )
    parser.add_argument(
        "seconds",
        nargs="?",
        type=float,
        default=180.0,
        help="the time batches may start in (default 180); a failed batch's bisection may run past it",
    )
    parser.add_argument("--thumbs", type=Path, default=REPOSITORY / ".build/debug/thumbs", help="the binary swept")
    parser.add_argument("--python", help="a Python with numpy and tifffile, for the DNG seed")
    parser.add_argument(
        "--shared",
        type=Path,
        default=REPOSITORY.parent / "shared",
        help="the folder holding photos/ and media/ (default ../shared)",
    )
    parser.add_argument("--seed", type=int, help="the run's random seed (default: from the clock, printed)")
    parser.add_argument("--batch-size", type=int, default=40, help="files per warm (default 40)")
    parser.add_argument("--samples", type=int, default=2, help="files of each batch also rendered and got (default 2)")
    parser.add_argument("--budget-mib", type=int, default=256, help="decodeMemoryBudget, MiB (default 256)")
    parser.add_argument(
        "--baseline-mib", type=int, default=256, help="what a process may hold beside its decodes, MiB (default 256)"
    )
    parser.add_argument("--time-limit", type=float, default=5.0, help="decodeTimeLimit, seconds (default 5)")
    parser.add_argument(
        "--hang-seconds", type=float, default=60.0, help="a run of thumbs still going after this is a hang (default 60)"
    )
    parser.add_argument("--regressions", type=Path, default=Path(__file__).with_name("regressions.tsv"))
    parser.add_argument(
        "--findings",
        type=Path,
        default=REPOSITORY / ".build/sweep",
        help="where failing files and findings.tsv go (default .build/sweep)",
    )
    parser.add_argument(
        "--make",
        nargs=4,
        metavar=("SEED", "MUTATION", "NUMBER", "OUT"),
        help="write one mutated file from its recipe and stop",
    )
    parser.add_argument("--list", action="store_true", help="list the seeds and mutations and stop")
    arguments = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="thumbs-sweep."))
    try:
        (work / "seeds").mkdir()
        shared = (
            arguments.shared
            if (arguments.shared / "photos").is_dir() or (arguments.shared / "media").is_dir()
            else None
        )
        seeds = Seeds(work / "seeds", shared, arguments.python, say)
        if arguments.list:
            print(
                "seeds:",
                " ".join(
                    [f"gen:{name}" for name in seeds.generators] + [f"shared:{path}" for path in seeds.shared_sample()]
                ),
            )
            print("mutations:", " ".join(["truncate-at", *mutate.MUTATIONS]))
            return 0
        if arguments.make:
            seed, name, number, out = arguments.make
            try:
                target = Path(os.environ.get("THUMBS_SWEEP_CALLER", ".")) / out
                make_file(seeds, Recipe(seed, name, int(number)), target, print)
            except (SeedError, KeyError, ValueError) as error:
                print(f"sweep: {error}", file=sys.stderr)
                return 2
            return 0
        if not arguments.thumbs.is_file():
            print(f"sweep: no binary at {arguments.thumbs}: build it (swift build) or pass --thumbs", file=sys.stderr)
            return 2
        if shared is None:
            say(f"{arguments.shared} has neither photos/ nor media/: only generated seeds are used")
        # A copy, with the render worker it starts beside it: the binaries may be rebuilt while
        # the sweep runs.
        worker = arguments.thumbs.parent / "thumbs-render-worker"
        if not worker.is_file():
            print(f"sweep: no render worker at {worker}: build it (swift build)", file=sys.stderr)
            return 2
        binary = work / "thumbs"
        shutil.copy2(arguments.thumbs, binary)
        shutil.copy2(worker, work / worker.name)
        run_seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(1 << 31)
        findings = arguments.findings
        if findings.is_dir() and any(findings.iterdir()):
            if not (findings / "findings.tsv").is_file():
                print(
                    f"sweep: {findings} holds files that are not a sweep's findings: pass --findings", file=sys.stderr
                )
                return 2
            shutil.rmtree(findings)  # the previous run's
        settings = Settings(
            thumbs=binary,
            shown=arguments.thumbs,
            work=work,
            findings=arguments.findings,
            budget_mib=arguments.budget_mib,
            baseline_mib=arguments.baseline_mib,
            time_limit=arguments.time_limit,
            hang_seconds=arguments.hang_seconds,
            batch_size=arguments.batch_size,
            samples=arguments.samples,
            seconds=arguments.seconds,
            seed=run_seed,
        )
        say(
            f"sweeping {arguments.thumbs} (built {time.ctime(arguments.thumbs.stat().st_mtime)}) for "
            f"{arguments.seconds:g} s, run seed {run_seed}; peak RSS limit {arguments.budget_mib} MiB budget + "
            f"{arguments.baseline_mib} MiB baseline"
        )
        return Sweep(settings, seeds).run(read_recipes(arguments.regressions))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
