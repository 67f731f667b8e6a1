"""Runs mutated files through the real `thumbs` command and judges what it did.

Each batch of mutated files is a library folder warmed by `thumbs warm --json` into a new cache,
then warmed again; a few of its files also go through `thumbs render` and `thumbs get`. A run
fails on a death by a signal, a hang (killed, with its process group, past --hang-seconds), an
exit status other than 0 or 1, a peak RSS above the decode memory budget plus the baseline, a
line on stdout that is not JSON, a warm without its summary, and a second warm that renders
anything (a warm converges). A failed batch is bisected down to the files that fail alone, and
each is printed with the recipe that makes it again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import random
import re
import shlex
import shutil
import signal
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import formats, mutate
from .judging import Outcome, Problem, Settings, judge, peak_mib, run_process, summary
from .seeds import Seed, SeedError, Seeds

# The default ladder, its preview with gain maps: a damaged HDR file's gain map (an Ultra HDR
# JPEG's, an iPhone HEIC's, a PQ or HLG picture's light) is read too.
RENDITIONS = [
    {"name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80},
    {"name": "preview", "size": "1024x1024", "mode": "fit", "format": "jpeg", "quality": 85, "hdr": "gainmap"},
]


@dataclass(frozen=True)
class Recipe:
    """How to make a mutated file: its seed, the mutation and the mutation's number."""

    seed: str
    mutation: str
    number: int

    def line(self) -> str:
        return f"{self.seed}\t{self.mutation}\t{self.number}"

    def command(self, out: str) -> str:
        return shlex.join(["scripts/sweep", "--make", self.seed, self.mutation, str(self.number), out])


@dataclass(frozen=True)
class Case:
    recipe: Recipe
    path: Path
    description: str


@dataclass
class Tally:
    passed: int = 0
    failed: int = 0
    findings: dict[str, list[tuple[Case, Problem]]] = field(default_factory=dict)


def say(message: str) -> None:
    print(f"sweep: {message}", flush=True)


# The checks -----------------------------------------------------------------------------------


class Sweep:
    def __init__(self, settings: Settings, seeds: Seeds) -> None:
        self.settings = settings
        self.seeds = seeds
        self.tally = Tally()
        self.env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
        self.started = time.monotonic()
        self.counter = 0
        self.last_summary: dict[str, object] | None = None
        self.last_peak = 0
        self.pool = settings.work / "files"
        self.pool.mkdir(parents=True, exist_ok=True)
        self.hard_deadline = self.started + settings.seconds + max(60.0, settings.seconds / 2)

    # Files

    def make(self, recipe: Recipe) -> Case | None:
        try:
            seed: Seed = self.seeds.get(recipe.seed)
        except SeedError:
            return None
        data, description = mutate.apply(seed.path.read_bytes(), recipe.mutation, recipe.number)
        self.counter += 1
        stem = re.sub(r"[^A-Za-z0-9]+", "-", seed.path.stem)[:24]
        suffix = mutate.extension(recipe.mutation, recipe.number, seed.path.suffix)
        if suffix != seed.path.suffix:
            description = f"{seed.path.suffix} renamed {suffix}"
        path = self.pool / f"{self.counter:05d}-{stem}-{recipe.mutation}-{recipe.number}{suffix}"
        path.write_bytes(data)
        return Case(recipe, path, description)

    def library(self, cases: Sequence[Case]) -> tuple[Path, Path]:
        """A new folder holding the cases (hard links), and a configuration for it."""
        folder = Path(tempfile.mkdtemp(prefix="run-", dir=self.settings.work))
        library = folder / "library"
        library.mkdir()
        # Dated an hour back: a mutated file is damage, not a copy under way, so that Thumbs
        # renders what decodes of it (a partial thumbnail) or remembers its failure at once, and
        # the second warm renders nothing whatever the time between the two.
        settled = time.time() - 3600
        for case in cases:
            try:
                os.link(case.path, library / case.path.name)
            except OSError:
                shutil.copyfile(case.path, library / case.path.name)
            os.utime(library / case.path.name, (settled, settled))
        configuration = {
            "library": {"roots": [str(library)]},
            "cache": {"path": str(folder / "cache")},
            "decodeMemoryBudget": f"{self.settings.budget_mib} MiB",
            "decodeTimeLimit": self.settings.time_limit,
            "renditions": RENDITIONS,
        }
        (folder / "config.json").write_text(json.dumps(configuration))
        return folder, library

    def thumbs(self, folder: Path, command: str, *arguments: str) -> Outcome:
        argv = [str(self.settings.thumbs), command, *arguments, "--config", str(folder / "config.json"), "--json"]
        return run_process(argv, command, self.settings.hang_seconds, self.env)

    # Checks

    def check_warm(self, cases: Sequence[Case]) -> list[Problem]:
        folder, library = self.library(cases)
        try:
            first = self.thumbs(folder, "warm", str(library))
            self.last_peak = max(self.last_peak, first.peak_rss)
            if self.last_summary is None:  # the batch's own (kept through the bisection)
                self.last_summary = summary(first)
            problems = judge(first, self.settings)
            if any(p.kind == "crash" for p in problems):
                # The next warm must complete all the same: the file being rendered when the
                # process died is to be remembered as a failure (issue 31).
                after = self.thumbs(folder, "warm", str(library))
                if after.signal is not None or after.timed_out:
                    died = "hung" if after.timed_out else signal.Signals(after.signal or 0).name
                    problems.append(Problem("converge", "warm again", f"the warm after a crash {died} too"))
            if problems:
                return problems
            counts = summary(first)
            if counts is None:
                return [Problem("output", "warm", "no summary line on stdout")]
            found, rendered, failed = (counts.get(key) for key in ("found", "rendered", "failed"))
            if not (isinstance(rendered, int) and isinstance(failed, int) and found == rendered + failed == len(cases)):
                detail = f"{found} found, {rendered} rendered, {failed} failed of {len(cases)} files"
                return [Problem("output", "warm", f"{detail}: a file was dropped silently")]
            again = dataclasses.replace(self.thumbs(folder, "warm", str(library)), command="warm again")
            problems = judge(again, self.settings)
            second = summary(again)
            if not problems and (second is None or second.get("rendered") != 0):
                rendered = "no summary" if second is None else f"rendered {second.get('rendered')}"
                problems.append(Problem("converge", "warm again", f"the second warm did not converge: {rendered}"))
            return problems
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def check_one(self, case: Case) -> list[Problem]:
        """render and get of one file, each on its own."""
        folder, library = self.library([case])
        try:
            name = str(library / case.path.name)
            problems = judge(self.thumbs(folder, "render", name, "-o", str(folder / "out") + "/"), self.settings)
            problems += judge(self.thumbs(folder, "get", name, "-o", str(folder / "get.jpg")), self.settings)
            return problems
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def isolate(self, cases: Sequence[Case], problems: list[Problem]) -> list[tuple[list[Case], list[Problem]]]:
        """The smallest sets that fail: single files, unless a set fails only whole."""
        if len(cases) == 1 or time.monotonic() > self.hard_deadline:
            return [(list(cases), problems)]
        half = len(cases) // 2
        found: list[tuple[list[Case], list[Problem]]] = []
        for part in (cases[:half], cases[half:]):
            part_problems = self.check_warm(part)
            if part_problems:
                found += self.isolate(part, part_problems)
        return found or [(list(cases), problems)]

    # Reporting

    def crash_site(self, case: Case, command: str) -> str:
        """Where a crash happened: the command run again on the file alone with Swift's
        backtracer on, its report kept beside the file; the first frame in Thumbs' sources."""
        folder, library = self.library([case])
        try:
            name = str(library / case.path.name)
            arguments = {
                "render": ["render", name, "-o", str(folder / "out") + "/"],
                "get": ["get", name, "-o", str(folder / "get.jpg")],
            }.get(command, ["warm", str(library)])
            argv = [str(self.settings.thumbs), *arguments, "--config", str(folder / "config.json"), "--json"]
            env = dict(self.env, SWIFT_BACKTRACE="enable=yes,interactive=no,color=no")
            outcome = run_process(argv, command, self.settings.hang_seconds, env)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        report = outcome.stderr.decode(errors="replace")
        (self.settings.findings / (case.path.name + ".log")).write_text(report)
        crashed = report.split("crashed:", 1)[-1]
        match = re.search(r"(Sources/[^\s:]+:\d+)", crashed)
        return match.group(1) if match else ""

    def record(self, cases: list[Case], problems: list[Problem], origin: str) -> None:
        self.settings.findings.mkdir(parents=True, exist_ok=True)
        alone = len(cases) == 1
        extension = cases[0].path.suffix.lower() if alone else f"{len(cases)} files together"
        signatures = []
        for problem in problems:
            signature = problem.signature
            if problem.kind == "crash" and alone:
                site = self.crash_site(cases[0], problem.command.replace(" again", ""))
                signature += f" at {site}" if site else ""
            if problem.kind in ("hang", "memory", "status", "converge") or ":" not in problem.detail:
                signature += f" [{extension}]"
            signatures.append(signature)
            self.tally.findings.setdefault(signature, []).append((cases[0], problem))
        details = [
            str(p) + (s[s.index(" at Sources/") :] if " at Sources/" in s else "")
            for p, s in zip(problems, signatures, strict=False)
        ]
        print(f"FAIL ({origin}) {'; '.join(details)}", flush=True)
        if not alone:
            print(f"  these {len(cases)} files fail together (not one of them alone):", flush=True)
        for case in cases:
            kept = self.settings.findings / case.path.name
            shutil.copyfile(case.path, kept)
            with open(self.settings.findings / "findings.tsv", "a") as log:
                log.write(f"{case.recipe.line()}\t# {signatures[0]}: {case.description}\n")
            print(f"  {case.recipe.seed} {case.recipe.mutation} {case.recipe.number}: {case.description}", flush=True)
            print(f"    make it: {case.recipe.command('x' + case.path.suffix)}", flush=True)
            print(f"    kept as: {kept}", flush=True)
        if alone:
            command = problems[0].command.replace(" again", "")
            file = shlex.quote(str(self.settings.findings / cases[0].path.name))
            thumbs = f"{shlex.quote(str(self.settings.shown))} {{}} --config {shlex.quote(str(self.replay_config()))}"
            replay = {
                "warm": f"mkdir lib && cp {file} lib/ && {thumbs.format('warm lib --cache c --json')} (twice)",
                "render": thumbs.format(f"render {file} -o out/"),
                "get": thumbs.format(f"get {file} -o out.jpg --cache c"),
            }.get(command, "")
            print(f"    replay:  {replay}", flush=True)

    def replay_config(self) -> Path:
        """The sweep's settings as a configuration of their own, for replaying a finding."""
        path = self.settings.findings / "config.json"
        budget, limit = self.settings.budget_mib, self.settings.time_limit
        settings = {"decodeMemoryBudget": f"{budget} MiB", "decodeTimeLimit": limit, "renditions": RENDITIONS}
        path.write_text(json.dumps(settings) + "\n")
        return path

    def batch(self, cases: list[Case], origin: str) -> dict[str, object] | None:
        """Checks a batch, bisects it when it fails; the summary of its first warm."""
        self.last_summary = None
        self.last_peak = 0
        problems = self.check_warm(cases)
        peak = self.last_peak
        warmed = self.last_summary
        failing: set[Path] = set()
        if problems:
            for subset, subset_problems in self.isolate(cases, problems):
                self.record(subset, subset_problems, origin)
                failing |= {c.path for c in subset}
        rng = random.Random(len(cases) * 7919 + self.counter)
        candidates = [c for c in cases if c.path not in failing]
        for case in rng.sample(candidates, min(self.settings.samples, len(candidates))):
            one = self.check_one(case)
            if one:
                self.record([case], one, origin)
                failing.add(case.path)
        self.tally.failed += len(failing)
        self.tally.passed += len(cases) - len(failing)
        for case in cases:
            if case.path not in failing:
                case.path.unlink(missing_ok=True)
        if warmed is not None:
            warmed = dict(warmed, peakRSS=peak)
        return warmed

    # The run

    def regressions(self, recipes: list[Recipe]) -> None:
        cases = [c for c in (self.make(r) for r in recipes) if c is not None]
        skipped = len(recipes) - len(cases)
        say(f"{len(cases)} regression recipes first" + (f" ({skipped} without their seed, skipped)" if skipped else ""))
        if cases:
            started = time.monotonic()
            for case in cases:  # one by one: most of them are expected to fail
                self.batch([case], "regression")
            say(f"regressions: {len(cases)} files in {time.monotonic() - started:.1f} s")

    def run(self, recipes: list[Recipe]) -> int:
        self.regressions(recipes)
        seeded = time.monotonic()
        pool = self.seeds.pool()
        usable = []
        for name in pool:
            with contextlib.suppress(SeedError):
                usable.append(self.seeds.get(name))
        say(f"{len(usable)} seeds ({time.monotonic() - seeded:.0f} s to make): {', '.join(s.name for s in usable)}")
        rng = random.Random(self.settings.seed)
        structures: dict[str, str] = {}
        batches = 0
        durations: list[float] = []
        deadline = self.started + self.settings.seconds
        while usable:
            expected = max(durations) if durations else 0.0
            if time.monotonic() + expected > deadline:
                break
            started = time.monotonic()
            cases = []
            for _ in range(self.settings.batch_size):
                seed = rng.choice(usable)
                structure = structures.setdefault(seed.name, formats.sniff(seed.path.read_bytes()[:64]))
                recipe = Recipe(seed.name, mutate.choose(structure, rng), rng.getrandbits(32))
                case = self.make(recipe)
                if case is not None:
                    cases.append(case)
            failed = self.tally.failed
            warmed = self.batch(cases, f"batch {batches + 1}") or {}
            batches += 1
            durations.append(time.monotonic() - started)
            say(
                f"batch {batches}: {len(cases)} files in {durations[-1]:.1f} s, "
                f"{self.tally.failed - failed} failed the checks (the warm rendered {warmed.get('rendered', '?')}, "
                f"refused {warmed.get('failed', '?')}: "
                f"{json.dumps(warmed.get('failuresByKind', {}))}; peak RSS {peak_mib(warmed.get('peakRSS'))})"
            )
        elapsed = time.monotonic() - self.started
        say(
            f"{batches} batches in {elapsed:.0f} s "
            f"(run seed {self.settings.seed}: --seed {self.settings.seed} repeats it)"
        )
        if self.tally.findings:
            say(
                f"{len(self.tally.findings)} distinct finding(s); recipes in {self.settings.findings / 'findings.tsv'}:"
            )
            for signature, found in sorted(self.tally.findings.items()):
                case = found[0][0]
                print(
                    f"  {signature}  [{len(found)} file(s)]  e.g. {case.recipe.seed} {case.recipe.mutation} "
                    f"{case.recipe.number}: {case.description}",
                    flush=True,
                )
        print(f"{self.tally.passed} passed, {self.tally.failed} failed", flush=True)
        return 1 if self.tally.failed else 0


def read_recipes(path: Path) -> list[Recipe]:
    """The regression recipes: SEED, MUTATION and NUMBER, tab-separated; # starts a comment."""
    recipes: list[Recipe] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 3 or not fields[2].strip().isdigit():
            raise ValueError(f"{path}:{number}: expected SEED<TAB>MUTATION<TAB>NUMBER, got {line!r}")
        recipes.append(Recipe(fields[0].strip(), fields[1].strip(), int(fields[2])))
    return recipes


def make_file(seeds: Seeds, recipe: Recipe, out: Path, report: Callable[[str], None]) -> None:
    seed = seeds.get(recipe.seed)
    data, description = mutate.apply(seed.path.read_bytes(), recipe.mutation, recipe.number)
    out.write_bytes(data)
    report(f"{out}: {recipe.seed} ({seed.path}), {recipe.mutation} {recipe.number}: {description}")
    suffix = mutate.extension(recipe.mutation, recipe.number, seed.path.suffix)
    if out.suffix.lower() != suffix.lower():
        report(f"(the sweep names this file *{suffix})")
