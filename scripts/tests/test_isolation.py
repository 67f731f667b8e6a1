"""The figures of scripts/bench-isolation: what each run leaves, read into numbers, and the table.

The expected table is the one the script's former awk printed for the same runs."""

import argparse
import math
from pathlib import Path

import pytest

from thumbs_tools.bench.isolation import (
    Answer,
    GetRun,
    Measurements,
    WarmRun,
    elapsed_seconds,
    final_after_ms,
    pair_ratios,
    paired_get_differences,
    paired_serve_differences,
    raw_numbers,
    record_get,
    record_warm,
    table,
    task_clock_seconds,
)

WARM = """1 process 61.135 118.23 420
1 none 55.712 101.00 420
2 none 57.200 100.00 420
2 process 59.600 117.00 420
3 process 61.600 120.50 420
3 none 55.400 100.10 420
"""
GET = """process 45.678 40.1
none 41.234 37.5
none 39.876 36.25
process 47.001 41
process 52.345 -
none 40.000 35
none 38.765 36
process 46.543 39.75
"""
SERVE = """process a1 200 0.045123
none a1 200 0.041999
none b2 200 0.052000
process b2 200 0.055432
process c3 422 0.010000
none c3 422 0.009000
"""


@pytest.fixture
def measurements(tmp_path: Path) -> Measurements:
    (tmp_path / "warm").write_text(WARM)
    (tmp_path / "get").write_text(GET)
    (tmp_path / "serve").write_text(SERVE)
    return Measurements.read(tmp_path)


def test_elapsed_seconds_reads_either_decimal_mark() -> None:
    assert elapsed_seconds("1700000000.250000", "1700000001,750000") == pytest.approx(1.5)


def test_task_clock_is_read_from_perf_s_csv_in_seconds() -> None:
    csv = "# started on Thu\n\n118234.50,msec,task-clock,118234500,100.00,,\n"
    assert task_clock_seconds(csv) == pytest.approx(118.2345)
    assert task_clock_seconds("<not counted>,,cycles,0,0.00,,\n") is None


def test_the_last_final_after_line_of_thumbs_get_is_kept_as_printed() -> None:
    output = "final after 12.5 ms (first)\nsaved\nfinal after 40.10 ms (256x256)\n"
    assert final_after_ms(output) == "40.10"
    assert final_after_ms("saved\n") is None


def test_a_warm_s_rate_is_photos_over_wall_seconds_to_two_decimals() -> None:
    assert WarmRun(1, "process", 61.135, math.nan, 420).rate == 6.87


def test_each_round_s_ratio_is_process_rate_over_none_rate_whatever_ran_first() -> None:
    runs = [
        WarmRun(1, "process", 10.0, 0.0, 100),
        WarmRun(1, "none", 8.0, 0.0, 100),
        WarmRun(2, "none", 5.0, 0.0, 100),
        WarmRun(2, "process", 4.0, 0.0, 100),
        WarmRun(3, "process", 4.0, 0.0, 100),  # a round cut short: no ratio
    ]
    assert pair_ratios(runs) == [0.8, 1.25]


def test_get_differences_pair_the_runs_of_the_same_photo() -> None:
    runs = [GetRun("process", 50.0, None), GetRun("none", 40.0, None), GetRun("none", 30.0, None)]
    runs.append(GetRun("process", 33.0, "1"))
    assert paired_get_differences(runs) == [10.0, 3.0]


def test_serve_differences_take_only_photos_both_servers_answered_with_200() -> None:
    answers = [
        Answer("process", "a", "200", 0.050),
        Answer("none", "a", "200", 0.040),
        Answer("process", "b", "200", 0.030),
        Answer("none", "b", "422", 0.001),
    ]
    assert paired_serve_differences(answers) == [pytest.approx(10.0)]


def test_the_raw_numbers_list_each_measurement_by_mode(measurements: Measurements) -> None:
    assert raw_numbers(measurements) == [
        "raw numbers (process | none):",
        "  warm-pair-ratio 0.9113 0.9597 0.8994",
        "  warm-wall  process: 61.135 59.600 61.600",
        "  warm-wall  none:    55.712 57.200 55.400",
        "  warm-rate  process: 6.87 7.05 6.82",
        "  warm-rate  none:    7.54 7.34 7.58",
        "  warm-cpu   process: 118.23 117.00 120.50",
        "  warm-cpu   none:    101.00 100.00 100.10",
        "  get-wall   process: 45.678 47.001 52.345 46.543",
        "  get-wall   none:    41.234 39.876 40.000 38.765",
        "  get-final  process: 40.1 41 39.75",
        "  get-final  none:    37.5 36.25 35 36",
        "  serve      process: 45.123 55.432",
        "  serve      none:    41.999 52.000",
    ]


def test_the_table_gives_medians_ratios_differences_and_verdicts(measurements: Measurements) -> None:
    rule = "+------------------------------------------+------------+------------+-------------------+----------------+"
    assert table(measurements, 3, 4, 3) == [
        rule,
        "| measurement                              |    process |       none | process vs none   | target         |",
        rule,
        "| warm: median wall (s), 3 rounds          |      61.13 |      55.71 | ratio       1.097 |                |",
        "| warm: median photos/s                    |        6.9 |        7.5 | ratio       0.911 | >=0.95 MISSED  |",
        "| warm: median of per-round rate ratios    |            |            | ratio       0.911 | >=0.95 MISSED  |",
        "| warm: median CPU (s, with workers)       |     118.23 |     100.10 | ratio       1.181 |                |",
        "| get miss: p50 process wall (ms), 4 runs  |       46.8 |       39.9 | diff      +6.8 ms | <=+2ms MISSED  |",
        "| get miss: median paired difference       |            |            | diff      +7.5 ms |                |",
        '| get miss: p50 "final after" (ms)         |       40.1 |       36.1 | diff      +4.0 ms |                |',
        "| serve miss: p50 curl (ms), 3 photos      |       50.3 |       47.0 | diff      +3.3 ms | <=+2ms MISSED  |",
        "| serve miss: median paired difference     |            |            | diff      +3.3 ms |                |",
        rule,
    ]


def test_targets_are_met_within_their_bounds() -> None:
    runs = Measurements(
        warm=[WarmRun(1, "process", 10.0, math.nan, 100), WarmRun(1, "none", 10.0, math.nan, 100)],
        get=[GetRun("process", 31.0, None), GetRun("none", 30.0, None)],
        serve=[Answer("process", "a", "200", 0.0315), Answer("none", "a", "200", 0.030)],
    )
    rows = table(runs, 1, 1, 1)
    assert rows[4].endswith("| ratio       1.000 | >=0.95 met     |")
    assert rows[6] == (
        "| warm: median CPU (s, with workers)       |        nan |        nan | ratio         nan |                |"
    )
    assert rows[7].endswith("| diff      +1.0 ms | <=+2ms met     |")
    assert rows[10].endswith("| diff      +1.5 ms | <=+2ms met     |")


def test_a_warm_is_recorded_from_its_clock_readings_perf_and_summary(tmp_path: Path) -> None:
    perf = tmp_path / "perf.csv"
    perf.write_text("2500.0,msec,task-clock,2500000,100.00,,\n")
    arguments = argparse.Namespace(round="2", mode="none", start="100.000000", end="102,500400", status="1", perf=perf)
    summary = '{"event": "summary", "found": 12, "done": 12, "rendered": 11, "fresh": 0, "failed": 1}\n'
    line = record_warm(tmp_path, arguments, summary)
    assert line == "  round 2 none: 2.500 s wall, 2.50 s CPU, 12 assets (11 rendered, 1 failed), exit 1"
    assert (tmp_path / "warm").read_text() == "2 none 2.500 2.50 12\n"
    assert Measurements.read(tmp_path).warm[0].rate == 4.8


def test_a_get_is_recorded_in_milliseconds_without_perf_or_final_line(tmp_path: Path) -> None:
    output = tmp_path / "get.out"
    output.write_text("saved\n")
    record_get(tmp_path, argparse.Namespace(mode="process", start="5.000000", end="5.041250", output=output))
    assert (tmp_path / "get").read_text() == "process 41.250 -\n"
