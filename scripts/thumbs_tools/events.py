"""What `thumbs … --json` prints: one JSON object a line, each with an "event" field.

`thumbs warm --json` prints "progress" events as it goes, a "failed" event per file that failed,
then one "summary" (or "interrupted" when stopped): the counts of the whole warm. `thumbs render
--json` ends with a "summary" of its own counts; `thumbs watch --json` says "watching", then a
"changes" event per change it applied. Every script that reads these goes through here.

Run as `python3 -m thumbs_tools.events FIELD...` (with scripts/ on PYTHONPATH), it reads such
lines on stdin and prints the named fields of the last summary, separated by spaces: what the
shell scripts use.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

JSONObject = dict[str, Any]


class EventError(ValueError):
    """A line that is not a JSON object, or a summary without a count it must have."""


def parse_line(line: str) -> JSONObject | None:
    """The JSON object on `line`, or None when the line is blank.

    Raises EventError when the line holds anything else: thumbs prints nothing but JSON objects
    on stdout with --json.
    """
    if not line.strip():
        return None
    try:
        parsed = json.loads(line)
    except ValueError as error:
        raise EventError(f"not JSON: {line[:120]!r}") from error
    if not isinstance(parsed, dict):
        raise EventError(f"not a JSON object: {line[:120]!r}")
    return parsed


def events(stdout: str) -> list[JSONObject]:
    """Every object of a command's stdout, in order (blank lines skipped); EventError otherwise."""
    return [event for line in stdout.splitlines() if (event := parse_line(line)) is not None]


def last_event(stdout: str, name: str) -> JSONObject | None:
    """The last event called `name` on stdout, skipping lines that are not JSON objects."""
    for line in reversed(stdout.splitlines()):
        try:
            event = parse_line(line)
        except EventError:
            continue
        if event is not None and event.get("event") == name:
            return event
    return None


def _count(fields: Mapping[str, Any], name: str) -> int:
    value = fields.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise EventError(f"the summary has no count {name!r}: {json.dumps(dict(fields))[:200]}")
    return value


@dataclass(frozen=True)
class WarmSummary:
    """The counts of a whole `thumbs warm` ("summary", or "interrupted" when it was stopped).

    `fields` is the event as printed, for reports that keep it whole.
    """

    found: int
    done: int
    rendered: int
    fresh: int
    failed: int
    failures_by_kind: dict[str, int]
    fields: JSONObject

    @classmethod
    def of(cls, fields: JSONObject) -> WarmSummary:
        """The summary of an event's fields; EventError when a count is missing."""
        kinds = fields.get("failuresByKind", {})
        if not isinstance(kinds, dict):
            raise EventError(f"failuresByKind is not an object: {kinds!r}")
        return cls(
            found=_count(fields, "found"),
            done=_count(fields, "done"),
            rendered=_count(fields, "rendered"),
            fresh=_count(fields, "fresh"),
            failed=_count(fields, "failed"),
            failures_by_kind={str(kind): int(n) for kind, n in kinds.items()},
            fields=fields,
        )

    def failure_kinds(self) -> list[str]:
        """'kind count' for each kind of failure, as the reports list them."""
        return [f"{kind} {n}" for kind, n in self.failures_by_kind.items()]


def warm_summary(stdout: str) -> WarmSummary | None:
    """The summary of a `thumbs warm --json`'s stdout, or None when it printed none."""
    fields = last_event(stdout, "summary")
    return None if fields is None else WarmSummary.of(fields)


def summary_fields(stdout: str, names: list[str]) -> str:
    """The named fields of the last summary on `stdout`, separated by spaces."""
    fields = last_event(stdout, "summary")
    if fields is None:
        raise EventError("no summary event")
    missing = [name for name in names if name not in fields]
    if missing:
        raise EventError(f"the summary has no {', '.join(missing)}")
    return " ".join(str(fields[name]) for name in names)


def main(arguments: list[str]) -> int:
    """Prints the fields named in `arguments` of the summary read on stdin."""
    if not arguments or arguments[0] in ("-h", "--help"):
        print(__doc__.split("\n\n")[-1].strip())
        return 0 if arguments else 2
    try:
        print(summary_fields(sys.stdin.read(), arguments))
    except EventError as error:
        print(f"thumbs_tools.events: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
