"""A run traced by strace, read as processes and the files each opened or ran.

scripts/check-packages runs a command under `strace -f -q -z --pidns-translation` tracing openat,
execve and the calls that make processes and threads (clone, clone3, fork, vfork), and gives its
output here. Each process is a `Process`, the child of the one whose clone returned its id; an id
is free again once strace printed its end (`+++ exited with 0 +++`), and a later process of that
id is a new `Process`. A process inherits its parent's needs, and adds those a script declared
with `require` (scripts/lib.sh), which in a traced run opens a file named after them in the marks
folder, from the script's own process. Files a process opened or ran are recorded under its
needs, unless it is the package manager at work (apt-get, apt, dpkg and what they start):
installing is not using.

A process's first lines can come before its making's result, which strace prints when the maker
resumes: until then the process is unplaced, and so is every process it makes meanwhile (a
thread of the Swift driver starting compilers, say), which inherits once it is placed. A maker
that ends inside the call (its process exiting while it started a child) never prints the result;
such a process is placed under the needs of every process that was in a making call when it first
appeared, one of which made it.
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
RESULT = re.compile(r"\) += (-?\d+|\?)(?: .*)?$")
ENDED = re.compile(r"^\+\+\+ .* \+\+\+$")
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
    """One traced call that returned: its caller, name, arguments as printed and result (None when
    its process ended inside it, strace's `= ?`)."""

    pid: int
    name: str
    arguments: str
    result: int | None

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


@dataclass(frozen=True)
class Started:
    """A call whose result strace prints later, another process's line having come between."""

    pid: int
    name: str


@dataclass(frozen=True)
class Ended:
    """A process or thread that ended: its id may be given to a new one."""

    pid: int


Event = Call | Started | Ended


def events(lines: Iterable[str]) -> Iterator[Event]:
    """strace's output as events: calls that returned (an unfinished call joined to its
    resumption), the start of each unfinished call, and processes' ends."""
    pending: dict[int, tuple[str, str]] = {}
    last = 0  # whose line came last
    for line in lines:
        printed = line.rstrip("\n")
        matched = LINE.match(printed)
        if matched is not None:
            pid, rest = int(matched.group(1)), matched.group(2)
        elif last in pending:
            # After an end's line, strace leaves the next call unfinished and prints the rest of
            # it (`) = 3`, `, child_tidptr=…) = 12`) on a line of its own, without the id: the
            # last line's call resumed.
            pid, rest = last, f"<... {pending[last][0]} resumed>{printed}"
        else:
            continue
        last = pid
        if ENDED.match(rest):
            pending.pop(pid, None)
            yield Ended(pid)
            continue
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
                yield Started(pid, call.group(1))
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
        value = translated.group(1) if translated else result.group(1)
        yield Call(pid, name, text[: result.start()], None if value == "?" else int(value))


@dataclass(frozen=True)
class Makers:
    """The processes that were in a making call when an unplaced process first appeared, one of
    which made it: their needs and scripts together, and whether all were installing."""

    needs: frozenset[str] = frozenset()
    scripts: frozenset[str] = frozenset()
    installing: bool = False

    @staticmethod
    def of(processes: list[Process]) -> Makers:
        """What `processes` have together."""
        return Makers(
            frozenset().union(*(process.needs for process in processes)),
            frozenset(process.script for process in processes if process.script),
            bool(processes) and all(process.installing for process in processes),
        )


@dataclass(eq=False)
class Process:
    """A process or thread of the traced run."""

    pid: int
    parent: Process | None
    needs: frozenset[str] = frozenset()
    script: str = ""  # the nearest script of scripts/ it runs in
    program: str = ""  # what it last ran
    installing: bool = False
    # Files used before it was placed (its making, or an ancestor's, printed), held until then.
    unplaced: list[str] = field(default_factory=list)
    makers: Makers = field(default_factory=Makers)  # its possible makers, while it is unplaced
    # What it made while it was unplaced, which inherit what it takes when it is placed.
    made_unplaced: list[Process] = field(default_factory=list)

    def child(self, pid: int) -> Process:
        """A new process made by this one."""
        return Process(pid, self, self.needs, self.script, self.program, self.installing)

    def adopt(self, parent: Process) -> None:
        """Takes `parent`'s inheritance, for a child whose calls were printed before its making."""
        self.parent = parent
        self.inherit(parent.needs, parent.script, parent.installing)

    def presume_made(self) -> None:
        """Takes its possible makers' inheritance, for a child whose making was never printed."""
        scripts = " or ".join(sorted(self.makers.scripts))
        self.inherit(self.makers.needs, scripts, self.makers.installing)

    def inherit(self, needs: frozenset[str], script: str, installing: bool) -> None:
        """Takes an inheritance, and passes it on to what it made while it was unplaced."""
        self.needs |= needs
        self.script = self.script or script
        self.installing |= installing
        for child in self.made_unplaced:
            child.inherit(needs, script, installing)

    def placed_tree(self) -> Iterator[Process]:
        """Itself and what it made while it was unplaced, theirs included."""
        yield self
        for child in self.made_unplaced:
            yield from child.placed_tree()
        self.made_unplaced.clear()


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
        """What `process`, and what it made meanwhile, used before its making was printed, under
        the needs they have now."""
        for placed in process.placed_tree():
            for path in placed.unplaced:
                self.add(placed, path)
            placed.unplaced.clear()


class TraceReader:
    """Reads strace's output into `Usage` (see the module): the processes by id, the marks folder."""

    def __init__(self, marks_folder: str) -> None:
        self.marks_prefix = marks_folder.rstrip("/") + "/"
        self.processes: dict[int, Process] = {}
        self.root: Process | None = None
        self.usage = Usage()
        self.making: set[int] = set()  # ids between a making call and its printed result
        self.ended_unplaced: dict[int, Process] = {}  # ended before their making was printed

    def read(self, lines: Iterable[str]) -> Usage:
        """Every event of `lines`, then what is left unplaced, under its presumed makers' needs."""
        for event in events(lines):
            if isinstance(event, Ended):
                self.ended(event.pid)
            elif isinstance(event, Started):
                if event.name in MAKING_CALLS:
                    self.making.add(event.pid)
            else:
                self.take(event)
        for process in [*self.processes.values(), *self.ended_unplaced.values()]:
            self.place_presumed(process)
        return self.usage

    def take(self, call: Call) -> None:
        """One call that returned."""
        process = self.process_of(call.pid)
        if call.name in MAKING_CALLS:
            self.making.discard(call.pid)
            if call.result is not None and call.result > 0:
                self.made(process, call.result)
            return
        if call.name not in FILE_CALLS or call.result is None or call.result < 0:
            return
        path = call.path()
        if call.name != "openat":
            ran_script(process, call, path)
        if path is None:
            return
        if path.startswith(self.marks_prefix):
            process.needs |= frozenset(path.removeprefix(self.marks_prefix).split(","))
            self.usage.marks += 1
        elif self.unplaced(process):
            process.unplaced.append(path)
        else:
            self.usage.add(process, path)

    def unplaced(self, process: Process) -> bool:
        """Whether `process`'s making, or one of its makers', has not been printed yet."""
        ancestor: Process | None = process
        while ancestor is not None:
            if ancestor.parent is None:
                return ancestor is not self.root
            ancestor = ancestor.parent
        return False

    def awaits_making(self, process: Process) -> bool:
        """Whether `process`'s own making has not been printed yet."""
        return process.parent is None and process is not self.root

    def process_of(self, pid: int) -> Process:
        """The live process of `pid`; a new one, unplaced, when its making has not been printed yet."""
        process = self.processes.get(pid)
        if process is None:
            process = self.processes[pid] = Process(pid, None)
            self.usage.processes += 1
            if self.root is None:
                self.root = process
            else:
                process.makers = Makers.of([self.processes[id] for id in self.making if id in self.processes])
        return process

    def made(self, parent: Process, pid: int) -> None:
        """`parent` made `pid`: a process seen already is adopted, else a new one starts."""
        made = self.processes.get(pid)
        if made is None or not self.awaits_making(made):
            made = self.ended_unplaced.pop(pid, None)
        if made is not None and self.awaits_making(made):
            made.adopt(parent)
            if not self.unplaced(made):
                self.usage.place(made)
            else:
                parent.made_unplaced.append(made)
            return
        child = self.processes[pid] = parent.child(pid)
        self.usage.processes += 1
        if self.unplaced(parent):
            parent.made_unplaced.append(child)

    def ended(self, pid: int) -> None:
        """`pid` ended: its id is free; a process still unplaced waits for its making's result."""
        self.making.discard(pid)
        process = self.processes.pop(pid, None)
        if process is None or not self.awaits_making(process):
            return
        earlier = self.ended_unplaced.get(pid)
        if earlier is not None:
            self.place_presumed(earlier)
        self.ended_unplaced[pid] = process

    def place_presumed(self, process: Process) -> None:
        """Places what `process` used; under its presumed makers' needs if it is still unplaced.
        One made by an unplaced process is placed with its maker."""
        if self.awaits_making(process):
            process.presume_made()
        elif self.unplaced(process):
            return
        self.usage.place(process)


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
