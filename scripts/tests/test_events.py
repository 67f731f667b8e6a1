"""Parsing what `thumbs … --json` prints."""

import io
import json

import pytest

from thumbs_tools import events

PROGRESS = {"event": "progress", "done": 1, "found": 3, "rendered": 1, "fresh": 0, "failed": 0}
FAILED = {"event": "failed", "path": "/photos/broken.jpg", "kind": "corrupt", "message": "premature end"}
SUMMARY = {
    "event": "summary",
    "done": 3,
    "found": 3,
    "rendered": 2,
    "fresh": 0,
    "placeholders": 0,
    "skippedFailures": 0,
    "failed": 1,
    "bytesWritten": 81234,
    "rate": 12.5,
    "failuresByKind": {"corrupt": 1},
}


def lines(*objects: object) -> str:
    return "".join(json.dumps(o) + "\n" for o in objects)


def test_parse_line_reads_an_object_and_skips_blank_lines() -> None:
    assert events.parse_line(json.dumps(FAILED)) == FAILED
    assert events.parse_line("   ") is None


@pytest.mark.parametrize("line", ["warming /photos", "[1, 2]", '"summary"', "{broken"])
def test_parse_line_refuses_what_is_not_a_json_object(line: str) -> None:
    with pytest.raises(events.EventError):
        events.parse_line(line)


def test_events_are_every_object_in_order() -> None:
    stdout = lines(PROGRESS, FAILED) + "\n" + lines(SUMMARY)
    assert [e["event"] for e in events.events(stdout)] == ["progress", "failed", "summary"]


def test_last_event_skips_lines_that_are_not_json() -> None:
    stdout = lines(PROGRESS) + "a warning\n" + lines(SUMMARY) + "trailing text\n"
    assert events.last_event(stdout, "summary") == SUMMARY
    assert events.last_event(stdout, "interrupted") is None


def test_warm_summary_reads_the_counts() -> None:
    summary = events.warm_summary(lines(PROGRESS, FAILED, SUMMARY))
    assert summary is not None
    assert (summary.found, summary.done, summary.rendered, summary.fresh, summary.failed) == (3, 3, 2, 0, 1)
    assert summary.failures_by_kind == {"corrupt": 1}
    assert summary.failure_kinds() == ["corrupt 1"]
    assert summary.fields == SUMMARY


def test_an_interrupted_warm_has_no_summary() -> None:
    interrupted = dict(SUMMARY, event="interrupted")
    assert events.warm_summary(lines(PROGRESS, interrupted)) is None


def test_a_summary_without_a_count_is_an_error() -> None:
    broken = {k: v for k, v in SUMMARY.items() if k != "rendered"}
    with pytest.raises(events.EventError, match="rendered"):
        events.warm_summary(lines(broken))


def test_a_count_must_be_a_whole_number() -> None:
    with pytest.raises(events.EventError):
        events.WarmSummary.of(dict(SUMMARY, failed="1"))
    with pytest.raises(events.EventError):
        events.WarmSummary.of(dict(SUMMARY, failed=True))


def test_summary_fields_prints_the_named_fields() -> None:
    assert events.summary_fields(lines(PROGRESS, SUMMARY), ["found", "rendered", "failed"]) == "3 2 1"


def test_summary_fields_says_what_is_missing() -> None:
    with pytest.raises(events.EventError, match="shard"):
        events.summary_fields(lines(SUMMARY), ["found", "shard"])
    with pytest.raises(events.EventError, match="no summary"):
        events.summary_fields(lines(PROGRESS), ["found"])


def test_the_command_line_prints_fields_of_the_summary_on_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines(PROGRESS, SUMMARY)))
    assert events.main(["found", "rendered", "failed"]) == 0
    assert capsys.readouterr().out == "3 2 1\n"


def test_the_command_line_fails_without_a_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines(PROGRESS)))
    assert events.main(["found"]) == 1
    assert "no summary" in capsys.readouterr().err
