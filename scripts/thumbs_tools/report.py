"""How the benchmarks write what they measured: markdown tables, target lines, the machine's
description, JSON files."""

from __future__ import annotations

import contextlib
import json
import os
import platform
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .runner import NOISY


@dataclass(frozen=True)
class Target:
    """A goal a report judges: `ratio` measured against `goal`, met when at least the goal."""

    text: str
    ratio: float
    goal: float

    @property
    def met(self) -> bool:
        return self.ratio >= self.goal

    def line(self) -> str:
        """'- met: TEXT: 1.23× (goal 1.5×)', the line of the reports' Targets section."""
        return f"- {'met' if self.met else 'MISSED'}: {self.text}: {self.ratio:.2f}× (goal {self.goal:g}×)"

    def json(self) -> dict[str, Any]:
        return {"target": self.text, "ratio": self.ratio, "goal": self.goal, "met": self.met}


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[object]], align: Sequence[str] | None = None) -> str:
    """A markdown table as a string; `align`: 'l' or 'r' per column (default: l, then all r)."""
    align = align or ["l"] + ["r"] * (len(headers) - 1)
    lines = [
        "| " + " | ".join(headers) + " |",
        "|" + "|".join("---" if a == "l" else "---:" for a in align) + "|",
    ]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def noisy_runs_warning(noisiest: float) -> str:
    """The paragraph a report adds when a run shared the machine more than NOISY, else ''."""
    if noisiest <= NOISY:
        return ""
    return (
        f"\n\n**Warning:** other processes took up to {noisiest:.0%} of the machine "
        "during a run: these figures are not clean; rerun on a quiet machine."
    )


def write_json(path: Path | str, data: object) -> None:
    """Writes `data` as indented JSON to `path`."""
    with open(path, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")


def machine_info() -> dict[str, Any]:
    """Cores, CPU model, memory and OS of this machine, for the header of a report."""
    cpu = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        mem_kb = int(f.readline().split()[1])
    os_name = platform.platform()
    with contextlib.suppress(OSError):
        os_name = platform.freedesktop_os_release()["PRETTY_NAME"]
    return {"nproc": os.cpu_count(), "cpu": cpu, "memory_gib": round(mem_kb / 2**20, 1), "os": os_name}


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as /proc/loadavg gives them."""
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])
