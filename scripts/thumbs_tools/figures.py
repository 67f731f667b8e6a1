"""The arithmetic of the figures every benchmark reports: medians, ratios, units, and the order
in which compared commands take turns.

Run as `python3 -m thumbs_tools.figures order ROUND PEER…` (with scripts/ on PYTHONPATH), it
prints the peers in the order they run in round ROUND (counted from 1), for the shell scripts.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def median(values: Sequence[float]) -> float:
    """The median of a non-empty sequence of numbers (the mean of the middle two when even)."""
    return float(statistics.median(values))


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator ÷ denominator, or None when the denominator is 0 (nothing to compare with)."""
    return numerator / denominator if denominator else None


def times(value: float | None, digits: int = 2) -> str:
    """A ratio as printed in the reports: '1.23×', or '-' when there is none."""
    return "-" if value is None else f"{value:.{digits}f}×"


def mb(n_bytes: float) -> float:
    """Bytes as megabytes (10^6), the unit of every memory figure printed."""
    return n_bytes / 1e6


def alternation(peers: Sequence[T], round_number: int) -> list[T]:
    """The order in which `peers` run in round `round_number` (counted from 1).

    Each round turns the order by one: with two peers, the first goes first in odd rounds and
    second in even ones, so that a drift of the machine, or what one run leaves in the caches,
    falls on every peer alike.
    """
    if not peers:
        return []
    shift = (round_number - 1) % len(peers)
    return [*peers[shift:], *peers[:shift]]


def main(arguments: list[str]) -> int:
    """The command line: `order ROUND PEER…` (see the module's documentation)."""
    if len(arguments) >= 2 and arguments[0] == "order" and arguments[1].isdigit():
        print(" ".join(alternation(arguments[2:], int(arguments[1]))))
        return 0
    print("usage: python3 -m thumbs_tools.figures order ROUND PEER…", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
