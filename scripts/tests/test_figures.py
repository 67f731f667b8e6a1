"""The arithmetic of the figures: medians, percentiles, ratios, units, alternation."""

import pytest

from thumbs_tools.figures import alternation, mb, median, percentile, ratio, times


def test_median_of_an_odd_count_is_the_middle_value() -> None:
    assert median([3.0, 1.0, 2.0]) == 2.0


def test_median_of_an_even_count_is_the_mean_of_the_middle_two() -> None:
    assert median([4.0, 1.0, 3.0, 2.0]) == 2.5


def test_median_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError):
        median([])


def test_percentile_50_is_the_median() -> None:
    values = [9.0, 1.0, 7.0, 3.0, 5.0, 2.0]
    assert percentile(values, 50) == median(values)


def test_percentile_ends_are_the_smallest_and_largest() -> None:
    values = [5.0, 1.0, 9.0]
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 9.0


def test_percentile_interpolates_between_ranks() -> None:
    # 11 values 0..10: the 99th percentile is 99 % of the way from the first to the last.
    assert percentile([float(v) for v in range(11)], 99) == pytest.approx(9.9)
    assert percentile([10.0, 20.0], 25) == pytest.approx(12.5)


def test_percentile_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError):
        percentile([], 50)


def test_ratio_divides_and_has_none_for_a_zero_denominator() -> None:
    assert ratio(3.0, 2.0) == 1.5
    assert ratio(3.0, 0.0) is None


def test_times_prints_a_ratio_or_a_dash() -> None:
    assert times(1.234) == "1.23×"
    assert times(12.34, 1) == "12.3×"
    assert times(None) == "-"


def test_mb_is_decimal_megabytes() -> None:
    assert mb(2_500_000) == 2.5


def test_alternation_turns_the_order_each_round() -> None:
    peers = ["process", "none"]
    assert alternation(peers, 1) == ["process", "none"]
    assert alternation(peers, 2) == ["none", "process"]
    assert alternation(peers, 3) == ["process", "none"]


def test_alternation_gives_every_peer_every_place_over_as_many_rounds() -> None:
    peers = ["a", "b", "c"]
    orders = [alternation(peers, r) for r in (1, 2, 3)]
    assert orders == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    for place in range(3):
        assert sorted(order[place] for order in orders) == peers


def test_alternation_of_no_peers_is_empty() -> None:
    assert alternation([], 1) == []
