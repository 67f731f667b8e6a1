"""A run traced by strace, read as processes and the files each opened or ran.

scripts/check-packages runs a command under `strace -f -z --pidns-translation` tracing openat,
execve and the calls that make processes and threads (clone, clone3, fork, vfork), and gives its
output here. Each
process is a `Process`, the child of the one whose clone returned its id (ids are reused over a
long run: a new child of that id is a new `Process`). A process inherits its parent's needs, and
adds those a script declared with `require` (scripts/lib.sh), which in a traced run opens a file
named after them in the marks folder, from the script's own process. Files a process opened or
ran are recorded under its needs, unless it is the package manager at work (apt-get, apt, dpkg
and what they start): installing is not using.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

MAKING_CALLS = frozenset({"clone", "clone3", "fork", "vfork"})
FILE_CALLS = frozenset({"openat", "execve", "execveat"})
PACKAGE_MANAGERS = frozenset({"apt-get", "apt", "dpkg"})

LINE = re.compile(r"^(\d+) +(.*)$")
CALL = re.compile(r"^(\w+)\((.*)$")
RESUMED = re.compile(r"^<\.\.\. (\w+) resumed>(.*)$")
UNFINISHED = " <unfinished ...>"
RESULT = re.compile(r"\) += (-?\d+)(?: .*)?$")
# With --pidns-translation, an id returned inside a PID namespace (bwrap's sandboxes) is followed
# by the one the trace's lines use.
TRANSLATED = re.compile(r"/\* (\d+) in strace's PID NS \*/")
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
SCRIPT = re.compile(r"(?:^|/)scripts/([A-Za-z0-9_.-]+)$")


def unescaped(text: str) -> str:
    """A string as strace printed it (C escapes: \\", \\\\, \\n, \\t, \\xNN, octal), unescaped."""
    if "\\" not in text:
        return text
    raw = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
    return raw.encode("latin-1").decode("utf-8", "replace")


@dataclass(frozen=True)
class Call:
    """One traced call that returned: its caller, name, arguments as printed and result."""

    pid: int
    name: str
    arguments: str
    result: int

    def path(self) -> str | None:
        """The file an openat (relative to the working folder only) or execve named, when absolute."""
        if self.name == "openat" and not self.arguments.startswith("AT_FDCWD, "):
            return None
        found = STRING.search(self.arguments)
        if found is None:
            return None
        path = unescaped(found.group(1))
        return path if path.startswith("/") else None

    def arguments_vector(self) -> list[str]:
        """An execve's argv, as far as strace printed it."""
        start = self.arguments.find("[")
        end = self.arguments.find("]", start)
        if start < 0 or end < 0:
            return []
        return [unescaped(text) for text in STRING.findall(self.arguments[start:end])]


def calls(lines: Iterable[str]) -> Iterator[Call]:
    """The calls of strace's output that returned, an unfinished call joined to its resumption."""
    pending: dict[int, tuple[str, str]] = {}
    for line in lines:
        matched = LINE.match(line.rstrip("\n"))
        if matched is None:
            continue
        pid, rest = int(matched.group(1)), matched.group(2)
        resumed = RESUMED.match(rest)
        if resumed is not None:
            if pid not in pending:
                continue
            name, start = pending.pop(pid)
            text = start + resumed.group(2)
        elif rest.endswith(UNFINISHED):
            call = CALL.match(rest.removesuffix(UNFINISHED))
            if call is not None:
                pending[pid] = (call.group(1), call.group(2))
            continue
        else:
            call = CALL.match(rest)
            if call is None:
                continue
            name, text = call.group(1), call.group(2)
        result = RESULT.search(text)
        if result is None:
            continue
        translated = TRANSLATED.search(text, result.start())
        value = int(translated.group(1)) if translated else int(result.group(1))
        yield Call(pid, name, text[: result.start()], value)


@dataclass(eq=False)
class Process:
    """A process or thread of the traced run."""

    pid: int
    parent: Process | None
    needs: frozenset[str] = frozenset()
    script: str = ""  # the nearest script of scripts/ it runs in
    program: str = ""  # what it last ran
    installing: bool = False
    # Files used before the call that made it was printed, held until it is known whose child it is.
    unplaced: list[str] = field(default_factory=list)

    def child(self, pid: int) -> Process:
        """A new process made by this one."""
        return Process(pid, self, self.needs, self.script, self.program, self.installing)

    def adopt(self, parent: Process) -> None:
        """Takes `parent`'s inheritance, for a child whose calls were printed before its making."""
        self.parent = parent
        self.needs |= parent.needs
        self.script = self.script or parent.script
        self.installing |= parent.installing


@dataclass
class Usage:
    """The files processes used, by the needs they ran under: needs -> path -> (script, program)."""

    by_needs: dict[frozenset[str], dict[str, tuple[str, str]]] = field(default_factory=dict)
    processes: int = 0
    marks: int = 0

    def add(self, process: Process, path: str) -> None:
        """`path` used by `process`, under its needs."""
        if not process.installing:
            self.by_needs.setdefault(process.needs, {}).setdefault(path, (process.script, process.program))

    def place(self, process: Process) -> None:
        """What `process` used before its making was printed, under the needs it has now."""
        for path in process.unplaced:
            self.add(process, path)
        process.unplaced.clear()


class TraceReader:
    """Reads strace's output into `Usage` (see the module): the processes by id, the marks folder."""

    def __init__(self, marks_folder: str) -> None:
        self.marks_prefix = marks_folder.rstrip("/") + "/"
        self.processes: dict[int, Process] = {}
        self.root: Process | None = None
        self.usage = Usage()

    def read(self, lines: Iterable[str]) -> Usage:
        """Every call of `lines`, then what is left unplaced, under the needs it had."""
        for call in calls(lines):
            self.take(call)
        for process in self.processes.values():
            self.usage.place(process)
        return self.usage

    def take(self, call: Call) -> None:
        """One call."""
        process = self.process_of(call.pid)
        if call.name in MAKING_CALLS:
            if call.result > 0:
                self.made(process, call.result)
            return
        if call.name not in FILE_CALLS or call.result < 0:
            return
        path = call.path()
        if call.name != "openat":
            ran_script(process, call, path)
        if path is None:
            return
        if path.startswith(self.marks_prefix):
            process.needs |= frozenset(path.removeprefix(self.marks_prefix).split(","))
            self.usage.marks += 1
        elif process.parent is None and process is not self.root:
            process.unplaced.append(path)
        else:
            self.usage.add(process, path)

    def process_of(self, pid: int) -> Process:
        """The live process of `pid`; a new one, unplaced, when its making has not been printed yet."""
        process = self.processes.get(pid)
        if process is None:
            process = self.processes[pid] = Process(pid, None)
            self.usage.processes += 1
            self.root = self.root or process
        return process

    def made(self, parent: Process, pid: int) -> None:
        """`parent` made `pid`: a process seen already is adopted, else a new one starts."""
        made = self.processes.get(pid)
        if made is not None and made.parent is None and made is not self.root:
            made.adopt(parent)
            self.usage.place(made)
            return
        self.processes[pid] = parent.child(pid)
        self.usage.processes += 1


def usage(lines: Iterable[str], marks_folder: str) -> Usage:
    """What the traced run's processes used, by the needs each had declared (see the module)."""
    return TraceReader(marks_folder).read(lines)


def ran_script(process: Process, call: Call, path: str | None) -> None:
    """Notes what `process` now runs: a script of scripts/ (by its path or its interpreter's
    argument), the package manager, or another program."""
    argv = call.arguments_vector()
    process.program = path or (argv[0] if argv else process.program)
    for word in [path or "", *argv[:2]]:
        script = SCRIPT.search(word)
        if script is not None:
            process.script = script.group(1)
            break
    if argv and argv[0].rsplit("/", 1)[-1] in PACKAGE_MANAGERS:
        process.installing = True
