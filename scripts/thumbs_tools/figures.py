"""The arithmetic of the figures every benchmark reports: medians, percentiles, ratios, units,
and the order in which compared commands take turns."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def median(values: Sequence[float]) -> float:
    """The median of a non-empty sequence of numbers (the mean of the middle two when even)."""
    return float(statistics.median(values))


def percentile(values: Sequence[float], percent: float) -> float:
    """The `percent` (0-100) percentile of a non-empty sequence, interpolated between ranks.

    The 50th is the median; the 0th and 100th are the smallest and the largest value.
    """
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * percent / 100
    below, above = math.floor(rank), math.ceil(rank)
    return ordered[below] + (ordered[above] - ordered[below]) * (rank - below)


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
