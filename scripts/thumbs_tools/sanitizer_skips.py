"""The tests a sanitizer voided in a run of the suite, as `swift test --filter` arguments for a run
without one.

`scripts/test` runs the suite under a sanitizer with `--xunit-output`; Swift Testing writes
NAME-swift-testing.xml beside the path given, where a skipped test is
`<testcase classname="Module.Suite" name="test(label:)"><skipped>REASON</skipped></testcase>`.
A test the sanitizer voids says so by its reason's first words, "under a sanitizer "
(`voidedBySanitizer` in Tests/ThumbsTestSupport/Sanitizer.swift words them all); each of those
is printed as one regular expression, a line, matching that test alone (Swift Testing matches a
filter anywhere in a test's id, `Module.Suite/test(label:)`).

    python3 -m thumbs_tools.sanitizer_skips REPORT.xml

prints nothing when the report lists no such test, and exits 2 when the report cannot be read.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from xml.etree import ElementTree

VOIDED = "under a sanitizer "


def voided_tests(report: str) -> list[str]:
    """The ids (`Module.Suite/test(label:)`) of the tests of REPORT skipped as voided, in order."""
    ids: list[str] = []
    for case in ElementTree.fromstring(report).iter("testcase"):
        skipped = case.find("skipped")
        if skipped is None or not (skipped.text or "").startswith(VOIDED):
            continue
        test = f"{case.get('classname', '')}/{case.get('name', '')}"
        if test not in ids:
            ids.append(test)
    return ids


def filter_of(test: str) -> str:
    """A regular expression that matches the id TEST and no other test's id: the whole of it,
    its parentheses included, so that no test whose name begins with another's is taken too."""
    return re.escape(test)


def main(arguments: list[str]) -> int:
    if len(arguments) != 1:
        print("usage: python3 -m thumbs_tools.sanitizer_skips REPORT.xml", file=sys.stderr)
        return 2
    try:
        report = Path(arguments[0]).read_text(encoding="utf-8")
        tests = voided_tests(report)
    except (OSError, ElementTree.ParseError) as error:
        print(f"sanitizer_skips: {arguments[0]}: {error}", file=sys.stderr)
        return 2
    for test in tests:
        print(filter_of(test))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
