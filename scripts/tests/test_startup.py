"""scripts/bench-startup: its commands run alternated, what each measured, the tables and the
start-up goals judged."""

from pathlib import Path

import pytest

from thumbs_tools import runner
from thumbs_tools.bench.startup import Command, measure, one_thumbnail, parse_arguments, plain, warmed
from thumbs_tools.bench.startup_report import Group, Measured, Results, report, targets, warm_ratios, warm_table

MACHINE = {"nproc": 2, "cpu": "AMD EPYC", "memory_gib": 23.5, "os": "Debian GNU/Linux 12 (bookworm)"}


def measured(label: str, walls: list[float], mib: float = 10, **details: str) -> Measured:
    return Measured(label, walls, int(mib * 2**20), ["/lib/libc.so.6"], details=details)


def peer(label: str, walls: list[float]) -> Measured:
    return Measured(label, walls, 2**20, None, is_peer=True)


def warm(photos: int, isolation: str, wall: float) -> Measured:
    return Measured("thumbs warm", [wall], 2**20, None, photos=photos, details={"isolation": isolation})


STARTUP = Group(
    [
        measured("thumbs version", [0.012, 0.014, 0.020], mib=19.5),
        measured("thumbs --help", [0.010, 0.011]),
        peer("vipsthumbnail --vips-version", [0.030, 0.035, 0.034]),
    ],
    noise=0.01,
)
RENDER = Group(
    [
        measured("thumbs render", [0.050], photo="a.jpg", isolation="process"),
        measured("thumbs render", [0.040], photo="a.jpg", isolation="none"),
        peer("vipsthumbnail", [0.090]),
    ],
    noise=0.08,
)
SMALL = Group([warm(30, "process", 0.2), warm(30, "none", 0.15)], noise=0.0)
LARGE = Group([warm(3000, "process", 10.0), warm(3000, "none", 15.0)], noise=0.02)


def test_the_speedup_is_the_peer_median_over_the_command_median() -> None:
    assert STARTUP.peer is not None and STARTUP.peer.label == "vipsthumbnail --vips-version"
    assert STARTUP.speedup(STARTUP.measured[0]) == pytest.approx(0.034 / 0.014)
    assert Group([measured("x", [1.0])], 0).speedup(measured("x", [1.0])) is None  # no peer


def test_warm_ratios_compare_each_isolation_with_itself() -> None:
    ratios = warm_ratios(SMALL, LARGE)
    assert ratios == pytest.approx({"process": (30 / 0.2) / (3000 / 10.0), "none": (30 / 0.15) / (3000 / 15.0)})
    table = warm_table(SMALL, LARGE)
    assert "| 30 | process | 1 | 0.200 | 150 | 0.50× | 1.0 | - |" in table
    assert "| 3,000 | none | 1 | 15.000 | 200 | 1.00× | 1.0 | - |" in table


def test_targets_judge_each_goal() -> None:
    results = Results(load_before="0.1 0.2 0.3", startup=STARTUP, render=[RENDER], warm=[SMALL, LARGE])
    assert targets(results) == [
        "- met: `thumbs version` median wall ≤ 15.0 ms: 14.0 ms",
        "- met: `thumbs version` peak RSS ≤ 20 MiB: 19.5 MiB",
        "- MISSED: `thumbs render` (photo a.jpg, isolation process) ≥ 2× as fast as vipsthumbnail: 1.80× (goal 2×)",
        "- met: `thumbs render` (photo a.jpg, isolation none) ≥ 2× as fast as vipsthumbnail: 2.25× (goal 2×)",
        "- MISSED: warm of 30 photos (isolation process) at ≥ 85% of the photos/s on 3,000: 0.50× (goal 0.85×)",
        "- met: warm of 30 photos (isolation none) at ≥ 85% of the photos/s on 3,000: 1.00× (goal 0.85×)",
    ]


def test_the_report_has_a_table_per_part_and_warns_of_a_busy_machine() -> None:
    results = Results(load_before="0.1 0.2 0.3", startup=STARTUP, render=[RENDER], warm=[SMALL, LARGE])
    text = report(results, MACHINE, Path("/x/thumbs"), quick=True)
    assert text.startswith("## Start-up\n\n2 cores, AMD EPYC, 23.5 GiB")
    assert "| `thumbs version` | 3 | 14.0 | 2.43× | 19.5 | 1 | none |" in text
    assert "| `vipsthumbnail --vips-version` | 3 | 34.0 | 1.00× | 1.0 | - | - |" in text
    assert "| a.jpg | `thumbs render` | process | 1 | 50.0 | 1.80× | 10.0 | 1 |" in text
    assert "### A small warm against a large one" in text
    assert "other processes took up to 8% of the machine" in text


def test_a_part_left_out_or_skipped_leaves_its_section_out_or_says_so() -> None:
    text = report(Results("0 0 0", render_skipped="../shared/photos not found"), MACHINE, Path("t"), quick=False)
    assert "Skipped: ../shared/photos not found." in text
    assert "Cheap commands" not in text and "Targets" not in text and "Warning" not in text


def test_the_parts_are_checked() -> None:
    assert parse_arguments(["--thumbs", "t"]).parts == ["startup", "render", "warm"]
    assert parse_arguments(["--thumbs", "t", "--parts", "warm, startup"]).parts == ["warm", "startup"]
    with pytest.raises(SystemExit):
        parse_arguments(["--thumbs", "t", "--parts", "startup,boot"])


def test_measure_runs_each_command_in_a_new_folder_and_reads_its_shared_objects(tmp_path: Path) -> None:
    seen: list[Path] = []

    def argv(folder: Path) -> list[str]:
        assert not any(folder.iterdir())  # new and empty
        (folder / "left-over").touch()
        seen.append(folder)
        return ["true"]

    group = measure(
        [Command("true", argv, plain), Command("peer", lambda _f: ["true"], plain, is_peer=True)], 3, tmp_path
    )
    assert [m.label for m in group.measured] == ["true", "peer"]
    assert [len(m.walls) for m in group.measured] == [3, 3]
    assert len(seen) == 4  # the traced run, then the timed ones
    first = group.measured[0]
    assert first.peak_rss > 0 and group.noise >= 0
    assert first.objects is None or any("libc.so" in path for path in first.objects)


def test_a_command_that_fails_its_check_stops_the_measure(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match=r"^false \{'isolation': 'none'\}: exit status 1"):
        measure([Command("false", lambda _f: ["false"], plain, {"isolation": "none"})], 1, tmp_path)


def result(returncode: int = 0, stdout: str = "") -> runner.Result:
    return runner.Result(0.1, returncode, stdout, "", 0, 0, 0.0, 0.0)


def test_a_render_must_write_one_thumbnail(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    with pytest.raises(RuntimeError, match="0 files written"):
        one_thumbnail(tmp_path, result())
    (tmp_path / "out" / "a.jpg").touch()
    assert one_thumbnail(tmp_path, result()) == 1
    with pytest.raises(RuntimeError, match="exit status 1"):
        one_thumbnail(tmp_path, result(1))


def test_a_warm_must_render_every_photo(tmp_path: Path) -> None:
    summary = '{"event":"summary","found":30,"done":30,"rendered":%d,"fresh":0,"failed":0}\n'
    assert warmed(30)(tmp_path, result(stdout=summary % 30)) == 30
    with pytest.raises(RuntimeError, match="rendered 29 of 30"):
        warmed(30)(tmp_path, result(stdout=summary % 29))
