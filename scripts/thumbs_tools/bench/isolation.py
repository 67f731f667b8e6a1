"""The figures of scripts/bench-isolation: rendering in confined worker processes ("process")
against rendering in the thumbs process ("none"). The script runs the commands; this module
turns what each run left (its clock readings, perf's CSV, its output) into numbers, keeps them
in a folder RAW, one file per measurement, and prints the raw numbers and the table at the end.

Run as `python3 -m thumbs_tools.bench.isolation COMMAND` (with scripts/ on PYTHONPATH):
  config SOURCE TARGET MODE LIBRARY            SOURCE's renditions, with isolation MODE, on LIBRARY
  warm RAW ROUND MODE START END STATUS PERF    records a warm (its --json on stdin), says its line
  get RAW MODE START END OUTPUT                records a `thumbs get` (its output in OUTPUT)
  ids PORT PORT WANTED                         WANTED asset ids both servers list, broken/ left out
  report RAW ROUNDS GET_RUNS SERVED LOAD       the raw numbers and the table
START and END are $EPOCHREALTIME readings; PERF is perf stat's CSV, or "-" without perf; a
serve record is a line `MODE ID HTTP_CODE SECONDS` the script appends to RAW/serve itself.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..events import warm_summary
from ..figures import median
from ..report import load_average

MODES = ("process", "none")
RULE = "+------------------------------------------+------------+------------+-------------------+----------------+"


def elapsed_seconds(start: str, end: str) -> float:
    """The seconds between two $EPOCHREALTIME readings (the locale may write a decimal comma)."""
    return float(end.replace(",", ".")) - float(start.replace(",", "."))


def task_clock_seconds(perf_csv: str) -> float | None:
    """The task-clock of `perf stat -e task-clock -x,` (milliseconds in its CSV) in seconds."""
    for line in perf_csv.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2] == "task-clock":
            return float(fields[0]) / 1000
    return None


def final_after_ms(output: str) -> str | None:
    """The milliseconds of the last "final after N ms" line `thumbs get` printed, as printed."""
    found = re.findall(r"^final after ([0-9.]*) ms", output, re.MULTILINE)
    return found[-1] if found else None


def rounded(value: float, digits: int) -> float:
    """`value` as the raw files keep it, with `digits` decimals."""
    return float(f"{value:.{digits}f}")


def median_or_nan(values: Sequence[float]) -> float:
    return median(values) if values else math.nan


def quotient(numerator: float, denominator: float) -> float:
    """numerator ÷ denominator, nan when the denominator is 0 (a table cell, not a failure)."""
    return numerator / denominator if denominator else math.nan


@dataclass(frozen=True)
class WarmRun:
    """One `thumbs warm` from an empty cache: wall and CPU seconds, assets found."""

    round: int
    mode: str
    wall: float
    cpu: float
    found: int

    @property
    def rate(self) -> float:
        """Photos a second, as the raw numbers show it."""
        return rounded(quotient(self.found, self.wall), 2)


@dataclass(frozen=True)
class GetRun:
    """One `thumbs get` of a miss: the process's wall milliseconds, its own "final after"."""

    mode: str
    wall_ms: float
    final_ms: str | None


@dataclass(frozen=True)
class Answer:
    """One grid thumbnail fetched from a server: the HTTP status and curl's time_total."""

    mode: str
    asset: str
    code: str
    seconds: float

    @property
    def ms(self) -> float:
        return self.seconds * 1000


def pair_ratios(runs: Sequence[WarmRun]) -> list[float]:
    """Per round, the rate of the process run over the none run's: the two ran next to each
    other, so a drifting load cancels."""
    by_round: dict[int, dict[str, WarmRun]] = {}
    for run in runs:
        by_round.setdefault(run.round, {})[run.mode] = run
    return [
        rounded(
            quotient(
                quotient(pair["process"].found, pair["process"].wall), quotient(pair["none"].found, pair["none"].wall)
            ),
            4,
        )
        for _, pair in sorted(by_round.items())
        if "process" in pair and "none" in pair
    ]


def paired_get_differences(runs: Sequence[GetRun]) -> list[float]:
    """process minus none, run by run (the i-th of each mode got the same photo)."""
    process = [run.wall_ms for run in runs if run.mode == "process"]
    none = [run.wall_ms for run in runs if run.mode == "none"]
    return [p - n for p, n in zip(process, none, strict=False)]


def paired_serve_differences(answers: Sequence[Answer]) -> list[float]:
    """process minus none for each photo both servers answered with 200."""
    times = {(a.asset, a.mode): a.ms for a in answers if a.code == "200"}
    return [
        ms - times[asset, "none"]
        for (asset, mode), ms in times.items()
        if mode == "process" and (asset, "none") in times
    ]


@dataclass(frozen=True)
class Measurements:
    """Everything a run recorded in RAW."""

    warm: list[WarmRun]
    get: list[GetRun]
    serve: list[Answer]

    @classmethod
    def read(cls, raw: Path) -> Measurements:
        def lines(name: str) -> list[list[str]]:
            path = raw / name
            return [line.split() for line in path.read_text().splitlines()] if path.exists() else []

        return cls(
            warm=[WarmRun(int(r), m, float(w), float(c), int(n)) for r, m, w, c, n in lines("warm")],
            get=[GetRun(m, float(w), None if f == "-" else f) for m, w, f in lines("get")],
            serve=[Answer(m, i, c, float(s)) for m, i, c, s in lines("serve")],
        )

    def series(self, mode: str) -> dict[str, list[str]]:
        """The raw numbers of `mode`, by measurement, as the table's figures are made of them."""
        warm = [run for run in self.warm if run.mode == mode]
        gets = [run for run in self.get if run.mode == mode]
        return {
            "warm-wall": [f"{run.wall:.3f}" for run in warm],
            "warm-rate": [f"{run.rate:.2f}" for run in warm],
            "warm-cpu": ["nan" if math.isnan(run.cpu) else f"{run.cpu:.2f}" for run in warm],
            "get-wall": [f"{run.wall_ms:.3f}" for run in gets],
            "get-final": [run.final_ms for run in gets if run.final_ms is not None],
            "serve": [f"{a.ms:.3f}" for a in self.serve if a.mode == mode and a.code == "200"],
        }


def raw_numbers(measurements: Measurements) -> list[str]:
    """The block of raw numbers the report starts with."""
    lines = ["raw numbers (process | none):"]
    lines.append(f"  {'warm-pair-ratio':<10} {' '.join(f'{r:.4f}' for r in pair_ratios(measurements.warm))}")
    process, none = measurements.series("process"), measurements.series("none")
    for name in process:
        lines.append(f"  {name:<10} process: {' '.join(process[name])}")
        lines.append(f"  {name:<10} none:    {' '.join(none[name])}")
    return lines


def row(measurement: str, process: str, none: str, comparison: str, target: str) -> str:
    """A line of the table."""
    return f"| {measurement:<40} | {process:>10} | {none:>10} | {comparison:<17} | {target:<14} |"


def ratio_cell(value: float) -> str:
    return f"ratio {value:11.3f}"


def difference_cell(value: float) -> str:
    return f"diff {value:+9.1f} ms"


def target_cell(goal: str, met: bool) -> str:
    """'>=0.95 met', '<=+2ms MISSED': the goal and whether this run met it."""
    return f"{goal} {'met' if met else 'MISSED':<7}"


def table(measurements: Measurements, rounds: int, get_runs: int, served: int) -> list[str]:
    """The table of medians, ratios and differences against the targets."""
    medians = {
        mode: {name: median_or_nan([float(v) for v in values]) for name, values in measurements.series(mode).items()}
        for mode in MODES
    }
    p, n = medians["process"], medians["none"]
    pair = median_or_nan(pair_ratios(measurements.warm))
    rate = quotient(p["warm-rate"], n["warm-rate"])
    get_wall, get_final, serve = (p[name] - n[name] for name in ("get-wall", "get-final", "serve"))
    return [
        RULE,
        row("measurement", "process", "none", "process vs none", "target"),
        RULE,
        row(
            f"warm: median wall (s), {rounds} rounds",
            f"{p['warm-wall']:.2f}",
            f"{n['warm-wall']:.2f}",
            ratio_cell(quotient(p["warm-wall"], n["warm-wall"])),
            "",
        ),
        row(
            "warm: median photos/s",
            f"{p['warm-rate']:.1f}",
            f"{n['warm-rate']:.1f}",
            ratio_cell(rate),
            target_cell(">=0.95", rate >= 0.95),
        ),
        row("warm: median of per-round rate ratios", "", "", ratio_cell(pair), target_cell(">=0.95", pair >= 0.95)),
        row(
            "warm: median CPU (s, with workers)",
            f"{p['warm-cpu']:.2f}",
            f"{n['warm-cpu']:.2f}",
            ratio_cell(quotient(p["warm-cpu"], n["warm-cpu"])),
            "",
        ),
        row(
            f"get miss: p50 process wall (ms), {get_runs} runs",
            f"{p['get-wall']:.1f}",
            f"{n['get-wall']:.1f}",
            difference_cell(get_wall),
            target_cell("<=+2ms", get_wall <= 2),
        ),
        row(
            "get miss: median paired difference",
            "",
            "",
            difference_cell(median_or_nan(paired_get_differences(measurements.get))),
            "",
        ),
        row(
            'get miss: p50 "final after" (ms)',
            f"{p['get-final']:.1f}",
            f"{n['get-final']:.1f}",
            difference_cell(get_final),
            "",
        ),
        row(
            f"serve miss: p50 curl (ms), {served} photos",
            f"{p['serve']:.1f}",
            f"{n['serve']:.1f}",
            difference_cell(serve),
            target_cell("<=+2ms", serve <= 2),
        ),
        row(
            "serve miss: median paired difference",
            "",
            "",
            difference_cell(median_or_nan(paired_serve_differences(measurements.serve))),
            "",
        ),
        RULE,
    ]


def write_config(source: Path, target: Path, mode: str, library: str) -> None:
    """The repository's config.json (its renditions) with isolation `mode`, on `library` alone,
    without a warm when a server starts: the two modes' files differ only in isolation."""
    config = json.loads(source.read_text())
    config["isolation"] = mode
    config["library"] = {"roots": [library], "includeHidden": False}
    config["serve"] = {"warmOnStart": False}
    target.write_text(json.dumps(config, indent=2))


def record_warm(raw: Path, arguments: argparse.Namespace, stdout: str) -> str:
    """Appends a warm to RAW/warm and returns the line that says how it went."""
    wall = rounded(elapsed_seconds(arguments.start, arguments.end), 3)
    cpu = task_clock_seconds(Path(arguments.perf).read_text()) if arguments.perf != "-" else None
    summary = warm_summary(stdout)
    if summary is None:
        raise SystemExit(f"bench-isolation: warm ({arguments.mode}) printed no summary")
    shown_cpu = "nan" if cpu is None else f"{cpu:.2f}"
    with open(raw / "warm", "a") as records:
        records.write(f"{arguments.round} {arguments.mode} {wall:.3f} {shown_cpu} {summary.found}\n")
    return (
        f"  round {arguments.round} {arguments.mode}: {wall:.3f} s wall, {shown_cpu} s CPU, {summary.found} assets "
        f"({summary.rendered} rendered, {summary.failed} failed), exit {arguments.status}"
    )


def record_get(raw: Path, arguments: argparse.Namespace) -> None:
    """Appends a `thumbs get` to RAW/get: its wall milliseconds and its "final after"."""
    wall_ms = elapsed_seconds(arguments.start, arguments.end) * 1000
    final = final_after_ms(Path(arguments.output).read_text(errors="replace"))
    with open(raw / "get", "a") as records:
        records.write(f"{arguments.mode} {wall_ms:.3f} {final or '-'}\n")


def listing(port: int) -> dict[str, str]:
    """Every asset a server lists (id: name), page after page, broken/ left out."""
    ids: dict[str, str] = {}
    cursor: str | None = None
    while True:
        path = "/api/assets?limit=200" + (f"&cursor={urllib.parse.quote(cursor, safe='')}" if cursor else "")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as answer:
            page: dict[str, Any] = json.load(answer)
        for asset in page["assets"]:
            if "/broken/" not in "/" + asset["name"]:
                ids[asset["id"]] = asset["name"]
        cursor = page.get("nextCursor")
        if not cursor or not page["assets"]:
            return ids


def common_ids(ports: Sequence[int], wanted: int, timeout: float = 120) -> list[str]:
    """`wanted` ids both servers list, in the order of their names (one photo of each name, then
    the next copy's), waiting up to `timeout` seconds for their first listings to fill."""
    deadline = time.monotonic() + timeout
    while True:
        first, second = (listing(port) for port in ports)
        common = sorted(set(first) & set(second), key=lambda i: first[i])
        if len(common) >= wanted or time.monotonic() > deadline:
            return common[:wanted]
        time.sleep(0.5)


def report(raw: Path, rounds: int, get_runs: int, served: int, load_before: str) -> list[str]:
    """The lines the script ends with: the raw numbers, the machine's load, the table."""
    measurements = Measurements.read(raw)
    cpus = len(os.sched_getaffinity(0))
    return [
        "",
        *raw_numbers(measurements),
        "",
        f"load average (1, 5, 15 min) before: {load_before}, after: {load_average()} on {cpus} CPUs",
        "(a load above the CPU count means other work shared the machine: trust the paired ratio and CPU more than "
        "wall times)",
        *table(measurements, rounds, get_runs, served),
    ]


def main(arguments: list[str]) -> int:
    """The commands of the module's documentation."""
    parser = argparse.ArgumentParser(prog="thumbs_tools.bench.isolation", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    config = commands.add_parser("config")
    for name in ("source", "target", "mode", "library"):
        config.add_argument(name)
    warm = commands.add_parser("warm")
    for name in ("raw", "round", "mode", "start", "end", "status", "perf"):
        warm.add_argument(name)
    get = commands.add_parser("get")
    for name in ("raw", "mode", "start", "end", "output"):
        get.add_argument(name)
    ids = commands.add_parser("ids")
    ids.add_argument("ports", type=int, nargs=2)
    ids.add_argument("wanted", type=int)
    final = commands.add_parser("report")
    final.add_argument("raw")
    for name in ("rounds", "get_runs", "served"):
        final.add_argument(name, type=int)
    final.add_argument("load_before")
    parsed = parser.parse_args(arguments)

    if parsed.command == "config":
        write_config(Path(parsed.source), Path(parsed.target), parsed.mode, parsed.library)
    elif parsed.command == "warm":
        print(f"bench-isolation: {record_warm(Path(parsed.raw), parsed, sys.stdin.read())}", file=sys.stderr)
    elif parsed.command == "get":
        record_get(Path(parsed.raw), parsed)
    elif parsed.command == "ids":
        print("\n".join(common_ids(parsed.ports, parsed.wanted)))
    else:
        answers = Measurements.read(Path(parsed.raw)).serve
        ok = sum(1 for answer in answers if answer.code == "200")
        print(f"bench-isolation: serve: {ok} of {len(answers)} answers were 200", file=sys.stderr)
        print("\n".join(report(Path(parsed.raw), parsed.rounds, parsed.get_runs, parsed.served, parsed.load_before)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
