"""The mutation sweep's judgement of a run of thumbs."""

from pathlib import Path

from mutation_sweep.judging import MIB, Outcome, Problem, Settings, judge, summary

SETTINGS = Settings(
    thumbs=Path("thumbs"),
    shown=Path("thumbs"),
    work=Path("work"),
    findings=Path("findings"),
    budget_mib=256,
    baseline_mib=256,
    time_limit=5.0,
    hang_seconds=60.0,
    batch_size=40,
    samples=2,
    seconds=180.0,
    seed=1,
)
SUMMARY = b'{"event":"summary","done":2,"found":2,"rendered":1,"fresh":0,"failed":1,"failuresByKind":{"corrupt":1}}\n'


def outcome(stdout: bytes = SUMMARY, status: int | None = 1, signal: int | None = None, peak: int = MIB) -> Outcome:
    return Outcome("warm", status, signal, False, peak, 1.0, stdout, b"")


def test_a_warm_that_failed_on_some_files_passes() -> None:
    assert judge(outcome(), SETTINGS) == []


def test_a_line_that_is_not_json_fails_the_run() -> None:
    [problem] = judge(outcome(b"warming\n" + SUMMARY), SETTINGS)
    assert problem == Problem("output", "warm", "a line on stdout is not a JSON object: 'warming'")


def test_a_death_by_a_signal_is_a_crash() -> None:
    stderr = b"/build/Sources/ThumbsImaging/X.swift:12: Fatal error: Index out of range\n"
    crashed = Outcome("warm", None, 5, False, MIB, 1.0, b"", stderr)
    [problem] = judge(crashed, SETTINGS)
    assert problem.kind == "crash"
    assert problem.detail == "SIGTRAP: Sources/ThumbsImaging/X.swift:12: Fatal error: Index out of range"


def test_memory_over_the_budget_and_baseline_fails() -> None:
    [problem] = judge(outcome(peak=600 * MIB), SETTINGS)
    assert problem.kind == "memory"
    assert problem.signature == "memory in warm: peak RSS N MiB over N MiB (budget N + baseline N)"


def test_the_summary_is_the_last_summary_event() -> None:
    found = summary(outcome(b'{"event":"progress","done":1}\n' + SUMMARY))
    assert found is not None
    assert found["rendered"] == 1
    assert summary(outcome(b'{"event":"progress","done":1}\n')) is None
