"""The shared objects a process has mapped when it ends (plain standard library, Linux).

`maps_at_exit` runs a command traced (ptrace, PTRACE_O_TRACEEXIT), so that the kernel stops it
as it exits, before its memory is released, and reads its /proc/PID/maps there: every library
it linked at start and every one it opened since (dlopen) and still holds. Only that process is
traced; the processes it starts run as they would. The reading is no timing: a traced process
runs a little slower, so the benchmarks measure time in runs of their own.
"""

from __future__ import annotations

import ctypes
import os
import re
import signal
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

_PTRACE_TRACEME = 0
_PTRACE_CONT = 7
_PTRACE_SETOPTIONS = 0x4200
_PTRACE_O_TRACEEXIT = 0x40
_PTRACE_O_EXITKILL = 0x100000  # the traced process dies with its tracer
_PTRACE_EVENT_EXIT = 6

# The file name of a shared object: libfoo.so, libfoo.so.1.2, ld-linux-x86-64.so.2, vips-heif.so.
_SHARED_OBJECT = re.compile(r"\.so(\.[0-9]+)*$")

# Decoding libraries by the start of their file names, as the reports name them.
DECODING_LIBRARIES = {
    "libvips": ("libvips.",),
    "FFmpeg": ("libavcodec.", "libavformat.", "libavutil.", "libswscale."),
    "LibRaw": ("libraw.", "libraw_r."),
    "libheif": ("libheif.",),
    "libavif": ("libavif.",),
}
_VIPS_MODULE = re.compile(r"/vips-modules-[^/]+/vips-(?P<name>[^/]+)\.so$")


class _Libc:
    """libc's ptrace, through ctypes."""

    def __init__(self) -> None:
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
        self.libc.ptrace.restype = ctypes.c_long

    def ptrace(self, request: int, pid: int, data: int = 0) -> None:
        if self.libc.ptrace(request, pid, None, data or None) == -1:
            errno = ctypes.get_errno()
            raise OSError(errno, f"ptrace({request:#x}): {os.strerror(errno)}")


def is_exit_stop(status: int) -> bool:
    """Whether a wait status is the stop PTRACE_O_TRACEEXIT asks for (PTRACE_EVENT_EXIT)."""
    return os.WIFSTOPPED(status) and status >> 8 == signal.SIGTRAP | (_PTRACE_EVENT_EXIT << 8)


def maps_at_exit(cmd: Sequence[str], env: Mapping[str, str] | None = None, cwd: Path | None = None) -> str | None:
    """/proc/PID/maps of `cmd`'s process as it exits, or None where it cannot be traced.

    `env` adds to the current environment; the command's output is dropped.
    """
    libc = _Libc()

    def trace_me() -> None:  # in the child, before exec: the exec then stops it with SIGTRAP
        libc.ptrace(_PTRACE_TRACEME, 0)

    try:
        proc = subprocess.Popen(
            cmd,
            env=dict(os.environ, **(env or {})),
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=trace_me,  # noqa: PLW1509 (this process starts no threads)
        )
    except subprocess.SubprocessError:
        return None  # ptrace refused (a container without it)
    with proc:
        _, status = os.waitpid(proc.pid, 0)
        maps = None
        if os.WIFSTOPPED(status) and os.WSTOPSIG(status) == signal.SIGTRAP:
            libc.ptrace(_PTRACE_SETOPTIONS, proc.pid, _PTRACE_O_TRACEEXIT | _PTRACE_O_EXITKILL)
            passed = 0  # the signal that stopped it, handed on
            while not (os.WIFEXITED(status) or os.WIFSIGNALED(status)):
                libc.ptrace(_PTRACE_CONT, proc.pid, passed)
                _, status = os.waitpid(proc.pid, 0)
                passed = 0
                if is_exit_stop(status):
                    maps = Path(f"/proc/{proc.pid}/maps").read_text()
                elif os.WIFSTOPPED(status):
                    passed = os.WSTOPSIG(status)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait
    return maps


def shared_objects(maps: str) -> list[str]:
    """The shared objects a /proc/PID/maps text maps, by path, sorted, each once.

    The program itself, the vDSO, and data files (locales, gconv's cache) are not shared objects.
    """
    paths = set()
    for line in maps.splitlines():
        fields = line.split(None, 5)
        if len(fields) == 6:
            path = fields[5].removesuffix(" (deleted)")
            if path.startswith("/") and _SHARED_OBJECT.search(path):
                paths.add(path)
    return sorted(paths)


def decoding_libraries(objects: Iterable[str]) -> str:
    """The decoding libraries among `objects`, as a report names them.

    'libvips, FFmpeg + vips modules: heif, magick': the families of DECODING_LIBRARIES present,
    then libvips' loadable modules (libvips opens every module of its folder as it starts).
    """
    names = [Path(path).name for path in objects]
    present = [family for family, starts in DECODING_LIBRARIES.items() if any(n.startswith(starts) for n in names)]
    modules = sorted(m["name"] for path in objects if (m := _VIPS_MODULE.search(path)))
    text = ", ".join(present) or "none"
    return f"{text} + vips modules: {', '.join(modules)}" if modules else text
