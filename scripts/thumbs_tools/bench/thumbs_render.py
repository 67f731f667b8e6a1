"""`thumbs render` of whole folders into PNGs, as the quality benchmarks run it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def render_pngs(binary: Path, roots: Sequence[Path], out: Path, config: Path, renditions: list[dict[str, str]]) -> None:
    """`binary render` of every root into `out`, each of `renditions` as PNG (through `config`,
    written here); a render that fails as a whole ends the run."""
    config.write_text(json.dumps({"renditions": [dict(r, format="png") for r in renditions]}))
    result = subprocess.run(
        [str(binary), "render", *map(str, roots), "-o", str(out), "--config", str(config), "--quiet"],
        capture_output=True,
        text=True,
    )
    if result.returncode not in (0, 1):
        sys.exit(f"{binary} render failed ({result.returncode}): {result.stderr.strip()}")
