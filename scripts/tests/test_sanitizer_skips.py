"""The tests a sanitizer voided, read from Swift Testing's JUnit report."""

import re
from pathlib import Path

import pytest

from thumbs_tools.sanitizer_skips import filter_of, main, voided_tests

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="TestResults" errors="0" tests="5" failures="0" skipped="4" time="0.5">
    <testcase classname="ThumbsIsolationTests.WorkerConfinementTests" name="run(attack:)" time="0.5" />
    <testcase classname="ThumbsIsolationTests.WorkerConfinementTests" name="openingAPathIsRefused()" >
      <skipped>under a sanitizer a worker takes no seccomp filter or Landlock</skipped>
    </testcase>
    <testcase classname="ThumbsIsolationTests.OneFileConfinementTests" name="aProgramIsNotRun()" >
      <skipped>under a sanitizer the process takes no seccomp filter, Landlock or limit</skipped>
    </testcase>
    <testcase classname="ThumbsIsolationTests.OneFileConfinementTests" name="aProgramIsNotRun()" >
      <skipped>under a sanitizer the process takes no seccomp filter, Landlock or limit</skipped>
    </testcase>
    <testcase classname="ThumbsImagingTests.SharedPhotosTests" name="decodesAll()" >
      <skipped>../shared/photos is absent</skipped>
    </testcase>
    <testcase classname="ThumbsImagingTests.SharedPhotosTests" name="bare()" ><skipped/></testcase>
  </testsuite>
</testsuites>
"""


def test_only_the_voided_tests_are_taken_once_each_in_order() -> None:
    assert voided_tests(REPORT) == [
        "ThumbsIsolationTests.WorkerConfinementTests/openingAPathIsRefused()",
        "ThumbsIsolationTests.OneFileConfinementTests/aProgramIsNotRun()",
    ]


def test_a_filter_matches_its_test_and_not_one_whose_name_begins_with_it() -> None:
    pattern = re.compile(filter_of("Module.Suite/run(attack:)"))
    assert pattern.search("Module.Suite/run(attack:)")
    assert not pattern.search("Module.Suite/running(attack:)")
    assert not pattern.search("ModuleXSuite/run(attack:)")


def test_the_command_prints_a_filter_a_line_and_refuses_a_broken_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.xml"
    report.write_text(REPORT, encoding="utf-8")
    assert main([str(report)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [filter_of(test) for test in voided_tests(REPORT)]
    report.write_text("<testsuites>", encoding="utf-8")
    assert main([str(report)]) == 2
    assert main([str(tmp_path / "absent.xml")]) == 2
