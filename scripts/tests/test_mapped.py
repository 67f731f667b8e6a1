"""The shared objects of a process as it exits: the maps read from a traced process, and what
the reports make of them."""

import os
import signal
import sys
from pathlib import Path

import pytest

from thumbs_tools import mapped

MAPS = """55d0c8a00000-55d0c8a01000 r--p 00000000 08:01 1 /opt/thumbs/thumbs
7f0000000000-7f0000001000 r--p 00000000 08:01 2 /usr/lib/x86_64-linux-gnu/libvips.so.42.16.1
7f0000001000-7f0000002000 r-xp 00001000 08:01 2 /usr/lib/x86_64-linux-gnu/libvips.so.42.16.1
7f0000002000-7f0000003000 r--p 00000000 08:01 3 /usr/lib/x86_64-linux-gnu/libavcodec.so.59.37.100
7f0000003000-7f0000004000 r--p 00000000 08:01 4 /usr/lib/x86_64-linux-gnu/vips-modules-8.14/vips-magick.so
7f0000004000-7f0000005000 r--p 00000000 08:01 5 /usr/lib/x86_64-linux-gnu/vips-modules-8.14/vips-heif.so
7f0000005000-7f0000006000 r--p 00000000 08:01 6 /usr/lib/swift/linux/libswiftCore.so (deleted)
7f0000006000-7f0000007000 r--p 00000000 08:01 7 /usr/lib/locale/C.utf8/LC_CTYPE
7f0000007000-7f0000008000 r--p 00000000 08:01 8 /usr/lib/x86_64-linux-gnu/gconv/gconv-modules.cache
7f0000008000-7f0000009000 rw-p 00000000 00:00 0
7f0000009000-7f000000a000 r--p 00000000 08:01 9 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0 [vdso]
"""


def test_shared_objects_are_the_libraries_each_once_without_the_program_or_data_files() -> None:
    assert mapped.shared_objects(MAPS) == [
        "/usr/lib/swift/linux/libswiftCore.so",
        "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
        "/usr/lib/x86_64-linux-gnu/libavcodec.so.59.37.100",
        "/usr/lib/x86_64-linux-gnu/libvips.so.42.16.1",
        "/usr/lib/x86_64-linux-gnu/vips-modules-8.14/vips-heif.so",
        "/usr/lib/x86_64-linux-gnu/vips-modules-8.14/vips-magick.so",
    ]


def test_decoding_libraries_name_the_families_then_libvips_modules() -> None:
    objects = mapped.shared_objects(MAPS)
    assert mapped.decoding_libraries(objects) == "libvips, FFmpeg + vips modules: heif, magick"
    assert mapped.decoding_libraries(["/lib/libraw_r.so.20", "/lib/libheif.so.1"]) == "LibRaw, libheif"
    assert mapped.decoding_libraries(["/lib/libc.so.6"]) == "none"


def test_only_the_stop_at_exit_is_the_exit_event() -> None:
    stopped = 0x7F  # WIFSTOPPED: the low byte is 0x7f, the signal above it, the event above that
    assert mapped.is_exit_stop(stopped | (signal.SIGTRAP | (6 << 8)) << 8)
    assert not mapped.is_exit_stop(stopped | signal.SIGTRAP << 8)  # the stop after exec
    assert not mapped.is_exit_stop(stopped | signal.SIGCHLD << 8)
    assert not mapped.is_exit_stop(0)  # exited with status 0


def test_maps_at_exit_hold_what_the_process_opened_as_it_ran() -> None:
    maps = mapped.maps_at_exit([sys.executable, "-c", "import ctypes; print('x')"])
    if maps is None:
        pytest.skip("processes cannot be traced here")
    objects = mapped.shared_objects(maps)
    assert any("_ctypes" in os.path.basename(path) for path in objects)  # a module loaded with dlopen
    assert any(os.path.basename(path).startswith("libc.so") for path in objects)


def test_maps_at_exit_hand_signals_on(tmp_path: Path) -> None:
    # Stopped by SIGUSR1 on its way, the process still gets it and dies of it, before the echo.
    survived = tmp_path / "survived"
    maps = mapped.maps_at_exit(["/bin/sh", "-c", f"kill -USR1 $$; echo > {survived}"])
    if maps is None:
        pytest.skip("processes cannot be traced here")
    assert "/bin/" in maps or "/usr/bin/" in maps
    assert not survived.exists()
