"""bench-serve: reading wrk's report, /usr/bin/time -v, the server's output and metrics, and
the figures of the mixed run and the storm."""

import pytest

from thumbs_tools.bench.serve.phases import memory_profile, time_v_figures
from thumbs_tools.bench.serve.servers import listening_port, tiers_of_metrics
from thumbs_tools.bench.serve.settings import box
from thumbs_tools.bench.serve.storm import tally
from thumbs_tools.bench.serve.wrk import WrkError, lua_entries, parse_duration_ms, parse_wrk

WRK = """Running 20s test @ http://127.0.0.1:8080/
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   410.12us  250.33us  12.51ms   92.10%
    Req/Sec    78.12k     5.10k   88.40k    71.00%
  Latency Distribution
     50%  350.00us
     75%  480.00us
     90%  620.00us
     99%    1.20ms
  3110000 requests in 20.00s, 25.10GB read
  Non-2xx or 3xx responses: 3
  Socket errors: connect 0, read 1, write 0, timeout 2
Requests/sec: 155500.12
Transfer/sec:      1.25GB
status 200 3109997
status 304 100
"""

TIME_V = """\tCommand being timed: "thumbs warm library --cache c --config ladder.json"
\tUser time (seconds): 101.20
\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:02:03.5
\tMaximum resident set size (kbytes): 312345
\tExit status: 0
"""


def test_wrk_report_figures() -> None:
    figures = parse_wrk(WRK)
    assert figures["rate"] == 155500.12
    assert figures["requests"] == 3110000
    assert figures["p50_ms"] == pytest.approx(0.35)
    assert figures["p75_ms"] == pytest.approx(0.48)
    assert figures["p99_ms"] == pytest.approx(1.2)
    assert figures["non_2xx_3xx"] == 3
    assert figures["socket_errors"] == {"connect": 0, "read": 1, "write": 0, "timeout": 2}
    assert figures["statuses"] == {200: 3109997, 304: 100}
    assert figures["transfer"] == "1.25GB"


def test_a_clean_wrk_report_has_no_errors() -> None:
    clean = "\n".join(line for line in WRK.splitlines() if "Non-2xx" not in line and "Socket" not in line)
    figures = parse_wrk(clean)
    assert (figures["non_2xx_3xx"], figures["socket_errors"]) == (0, {})


def test_a_report_without_its_rate_is_an_error() -> None:
    with pytest.raises(WrkError):
        parse_wrk("unable to connect to 127.0.0.1:8080 Connection refused")


@pytest.mark.parametrize(("text", "ms"), [("850.00us", 0.85), ("1.20ms", 1.2), ("2.00s", 2000.0), ("1.50m", 90000.0)])
def test_wrk_durations_in_milliseconds(text: str, ms: float) -> None:
    assert parse_duration_ms(text) == pytest.approx(ms)


def test_a_duration_without_a_unit_is_an_error() -> None:
    with pytest.raises(WrkError):
        parse_duration_ms("12")


def test_lua_entries_carry_the_etag_when_there_is_one() -> None:
    rows = lua_entries([("/thumbnails/a/grid", '"v1"'), ("/api/assets?limit=50", None)])
    assert rows == '    {"/thumbnails/a/grid", "\\"v1\\""},\n    {"/api/assets?limit=50"}'


def test_time_v_gives_the_peak_and_the_wall_clock() -> None:
    peak, seconds = time_v_figures(TIME_V)
    assert peak == 312345 * 1024
    assert seconds == pytest.approx(3723.5)
    assert time_v_figures(TIME_V.replace("1:02:03.5", "0:07.25"))[1] == pytest.approx(7.25)


def test_time_v_without_its_figures_is_an_error() -> None:
    with pytest.raises(ValueError):
        time_v_figures("Command terminated by signal 9")


def test_the_port_is_read_once_the_server_listens() -> None:
    assert listening_port("opening the cache\n") is None
    assert listening_port("opening the cache\nlistening on http://127.0.0.1:40123/ (4 renditions)\n") == 40123


def test_metrics_give_thumbnails_by_tier() -> None:
    metrics = (
        "# TYPE thumbs_thumbnails_total counter\n"
        'thumbs_thumbnails_total{tier="memory"} 1.5e+06\n'
        'thumbs_thumbnails_total{tier="store"} 42\n'
        'thumbs_requests_total{route="grid"} 7\n'
    )
    assert tiers_of_metrics(metrics) == {"memory": 1.5e6, "store": 42.0}


def test_a_rendition_box_is_its_size() -> None:
    assert box({"name": "grid", "size": "256x192"}) == (256, 192)


def test_memory_profile_of_the_samples() -> None:
    samples = [(float(t), 100 + t, 50 + t) for t in range(8)]  # RSS 100..107, anon 50..57
    profile = memory_profile(samples)
    assert (profile["rss_start"], profile["rss_end"], profile["rss_max"]) == (100, 107, 107)
    assert profile["rss_quarters"] == [102, 104, 106]
    assert profile["rss_last_quarter"] == (106, 107)
    assert (profile["anon_start"], profile["anon_end"], profile["anon_max"]) == (50, 57, 57)
    assert profile["rss_samples"][1] == (1.0, 101)


def outcome(status: int | None, busy: int = 0, valid: bool = True, oversize: bool = False) -> dict[str, object]:
    return {
        "path": "/thumbnails/a/grid",
        "busy": busy,
        "connection_errors": 0,
        "status": status,
        "valid": valid,
        "oversize": oversize,
        "seconds": 1.0 + busy,
    }


def test_the_storm_tally() -> None:
    done = [
        outcome(200),
        outcome(200, busy=2),
        outcome(200, valid=False),
        outcome(200, oversize=True),
        outcome(None, busy=5),
    ]
    figures = tally(done, urls=6)
    assert figures["ok"] == 3  # valid, whether oversize or not
    assert figures["invalid"] == 1
    assert figures["oversize"] == 1
    assert figures["oversize_by_rendition"] == {"grid": 1}
    assert figures["statuses"] == {200: 4, None: 1}
    assert figures["unfinished"] == 2  # one without an answer, one whose thread never ended
    assert (figures["busy_answers"], figures["retried_urls"], figures["max_busy"]) == (7, 2, 5)
    assert figures["slowest"] == 6.0
